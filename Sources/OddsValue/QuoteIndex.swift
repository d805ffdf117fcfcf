/// Where each price of an event went in its analysis: per source market and selection (their indices in the
/// event), the analysed market, book and outcome it is; per source market, each line's margin. What JSON notes,
/// stream price lines and the dashboard's value mode read.
public struct QuoteIndex: Sendable {
    public struct Place: Sendable {
        public var market: MarketValue
        /// Index in `market.books`, and in `market.outcomes`.
        public var book: Int
        public var outcome: Int
        public var ev: Fraction? { market.books[book].ev[outcome] }
        public var margin: Fraction? { market.books[book].margin }
    }

    /// Per source market index, per selection index.
    public private(set) var places: [Int: [Int: Place]] = [:]
    /// Per source market index: the analysed market of each of its lines (`total:2.5`) with its book's margin,
    /// in the order of the analysis.
    public private(set) var margins: [Int: [(market: String, margin: Fraction?)]] = [:]

    /// `only`: just these source markets.
    public init(_ values: [MarketValue], only: Set<Int>? = nil) {
        for m in values {
            for (b, book) in m.books.enumerated() {
                var index: Int?
                for (o, q) in book.quotes.enumerated() {
                    guard let q, only?.contains(q.market) ?? true else { continue }
                    index = q.market
                    places[q.market, default: [:]][q.selection] = Place(market: m, book: b, outcome: o)
                }
                Self.add(margin: book.margin, of: m.id, at: index, to: &margins)
            }
        }
    }

    /// A book's margin for the analysed market `market` goes to `index`, the last of the book's source markets
    /// wanted (none: nowhere), once for each analysed market.
    static func add(margin: Fraction?, of market: String, at index: Int?, to margins: inout [Int: [(market: String, margin: Fraction?)]]) {
        guard let index, margins[index]?.contains(where: { $0.market == market }) != true else { return }
        margins[index, default: []].append((market, margin))
    }
}
