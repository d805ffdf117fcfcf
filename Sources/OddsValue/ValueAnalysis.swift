import Foundation
import OddsFusion
import OddsModel

/// Margins, fair prices, expected values and arbitrage of one event's markets, in exact arithmetic on
/// the providers' own prices.
///
/// Only markets whose selections are known to cover every result are read: the match result (with the
/// draw where the sport has one), totals and spreads one line at a time, and both teams to score. Each
/// book's market is complete when it prices every selection any book lists for that market and line.
public enum ValueAnalysis {
    /// One book's market by meaning, as `normalize` gives it.
    public struct Entry: Sendable {
        public var source: PriceSource
        public var market: Market
        /// Index of the source market in the event, and of each selection's source selection.
        public var origin: Int
        public var origins: [Int]
        public var age: TimeInterval?
    }

    /// Whether `id` (a market by meaning) has selections that cover every result.
    public static func isExhaustive(_ id: String) -> Bool {
        FusedMatch.isByMeaning(id)
    }

    /// Statuses of a match being played (a suspended match is still in play).
    public static func isInPlay(_ status: EventStatus) -> Bool { [.live, .halftime, .suspended].contains(status) }

    /// The event's markets by meaning, each with its book and where its prices came from. A fused event's
    /// markets are already by meaning; a single provider's are read by `FusedMatch.normalized`.
    /// `age` gives how old a source market's prices are.
    public static func entries(_ event: Event, age: (Market) -> TimeInterval?) -> [Entry] {
        let main = event.match == nil ? FusedMatch.mainMarket(of: event) : nil
        var out: [Entry] = []
        for (index, market) in event.markets.enumerated() {
            out += entries(of: market, at: index, in: event, main: main, age: age(market))
        }
        return out
    }

    /// One source market's entries (what a price change of that market recomputes).
    public static func entries(of market: Market, at index: Int, in event: Event, main: Market?, age: TimeInterval?) -> [Entry] {
        let provider = market.provider ?? event.provider
        let book = market.book ?? provider.singleBook ?? provider.rawValue
        let source = PriceSource(provider: provider, book: book)
        if event.match != nil {
            guard isExhaustive(market.id) else { return [] }
            return [Entry(source: source, market: market, origin: index, origins: Array(market.selections.indices), age: age)]
        }
        return FusedMatch.normalizedWithOrigins(market, main: main, event: event).compactMap { m in
            isExhaustive(m.market.id) ? Entry(source: source, market: m.market, origin: index, origins: m.origins, age: age) : nil
        }
    }

    /// Every exhaustive market of `event`, one per market and line, in the order they first appear.
    public static func analyze(_ event: Event, settings: ValueSettings, age: (Market) -> TimeInterval?) -> [MarketValue] {
        guard event.status != .ended else { return [] }
        let grouped = group(entries(event, age: age))
        return grouped.compactMap { market($0, sport: event.sport, inPlay: isInPlay(event.status), settings: settings) }
    }

    /// Entries grouped by market id, in order of first appearance.
    public static func group(_ entries: [Entry]) -> [[Entry]] {
        var order: [String] = []
        var byID: [String: [Entry]] = [:]
        for e in entries {
            if byID[e.market.id] == nil { order.append(e.market.id) }
            byID[e.market.id, default: []].append(e)
        }
        return order.map { byID[$0]! }
    }

    static let outcomeOrder = ["home": 0, "draw": 1, "away": 2, "over": 0, "under": 1, "yes": 0, "no": 1]

    /// One market and line across its books; nil when it has fewer than two selections, or is a match result
    /// without the draw in a sport that has one.
    public static func market(_ entries: [Entry], sport: String, inPlay: Bool, settings: ValueSettings) -> MarketValue? {
        guard let first = entries.first else { return nil }
        var outcomes: [Outcome] = []
        var index: [String: Int] = [:]
        for e in entries {
            for s in e.market.selections where index[s.id] == nil {
                index[s.id] = outcomes.count
                outcomes.append(Outcome(id: s.id, name: s.name, line: s.line))
            }
        }
        if outcomes.allSatisfy({ outcomeOrder[$0.id] != nil }) {
            outcomes.sort { outcomeOrder[$0.id]! < outcomeOrder[$1.id]! }
            for (i, o) in outcomes.enumerated() { index[o.id] = i }
        }
        guard outcomes.count >= 2 else { return nil }
        if first.market.id == FusedMatch.resultMarketID {
            // A result without both teams (a selection no book names recognisably) or, in soccer, without the draw
            // does not cover every result.
            guard index["home"] != nil, index["away"] != nil, sport != "soccer" || index["draw"] != nil else { return nil }
        }

        let maxAge = settings.maxAge(inPlay: inPlay)
        var books: [BookMarket] = []
        var bookIndex: [PriceSource: Int] = [:]
        for e in entries {
            let b: Int
            if let known = bookIndex[e.source] { b = known } else {
                b = books.count
                bookIndex[e.source] = b
                books.append(BookMarket(source: e.source, quotes: Array(repeating: nil, count: outcomes.count), margin: nil,
                                        vigFree: nil, ev: Array(repeating: nil, count: outcomes.count), fresh: true))
            }
            for (s, origin) in zip(e.market.selections, e.origins) {
                let i = index[s.id]!
                guard books[b].quotes[i] == nil else { continue }
                books[b].quotes[i] = Quote(price: s.price, suspended: s.suspended, age: e.age, market: e.origin, selection: origin)
            }
        }
        for b in books.indices {
            let quotes = books[b].quotes
            books[b].fresh = quotes.allSatisfy { ($0?.age ?? 0) <= maxAge }
            guard quotes.allSatisfy({ $0?.isAvailable == true }) else { continue }
            let implied = quotes.map { Fraction($0!.price!.impliedProbability) }
            books[b].margin = implied.reduce(Fraction.zero, +) - .one
            books[b].vigFree = settings.method.fair(implied)
        }

        let fair = fairProbabilities(books, reference: settings.reference)
        if let fair {
            for b in books.indices {
                for (i, q) in books[b].quotes.enumerated() where q?.isAvailable == true {
                    books[b].ev[i] = Fraction(q!.price!.decimalOdds) * fair[i] - .one
                }
            }
        }
        return MarketValue(id: first.market.id, name: first.market.name, outcomes: outcomes, books: books, fair: fair,
                           arbitrage: arbitrage(books, outcomes: outcomes.count), inPlay: inPlay)
    }

    /// The reference's vig-free probabilities: a named book's own, or the consensus of every fresh complete book.
    static func fairProbabilities(_ books: [BookMarket], reference: FairReference) -> [Fraction]? {
        switch reference {
        case .book(let name):
            let wanted = name.lowercased()
            return books.first { $0.source.book.lowercased() == wanted && $0.fresh && $0.vigFree != nil }?.vigFree
        case .consensus:
            let sets = books.filter(\.fresh).compactMap(\.vigFree)
            guard let n = sets.first?.count, sets.allSatisfy({ $0.count == n }) else { return nil }
            let medians = (0..<n).map { i in median(sets.map { $0[i] }) }
            let sum = medians.reduce(Fraction.zero, +)
            guard sum.isPositive else { return nil }
            return medians.map { ($0 / sum)! }
        }
    }

    /// The middle value; with an even count, the mean of the middle two.
    public static func median(_ values: [Fraction]) -> Fraction {
        let sorted = values.sorted()
        let mid = sorted.count / 2
        if sorted.count % 2 == 1 { return sorted[mid] }
        return ((sorted[mid - 1] + sorted[mid]) / Fraction(2))!
    }

    /// The best fresh, available price of outcome `i` across `books` (the first book to offer it, on a tie).
    static func best(_ books: [BookMarket], outcome i: Int) -> (book: BookMarket, quote: Quote)? {
        var best: (book: BookMarket, quote: Quote)?
        for book in books {
            guard book.fresh, let q = book.quotes[i], q.isAvailable else { continue }
            if let b = best, b.quote.price!.decimalOdds >= q.price!.decimalOdds { continue }
            best = (book, q)
        }
        return best
    }

    /// The best fresh, available price of each outcome across books; an arbitrage when they sum to less than 1.
    static func arbitrage(_ books: [BookMarket], outcomes: Int) -> Arbitrage? {
        var legs: [Arbitrage.Leg] = []
        for i in 0..<outcomes {
            guard let (book, q) = best(books, outcome: i) else { return nil }
            legs.append(Arbitrage.Leg(outcome: i, source: book.source, price: q.price!, age: q.age))
        }
        let sum = legs.reduce(Fraction.zero) { $0 + Fraction($1.price.impliedProbability) }
        guard sum < .one else { return nil }
        return Arbitrage(legs: legs, sum: sum, profit: sum.reciprocal! - .one)
    }
}
