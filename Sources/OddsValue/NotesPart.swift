import OddsModel
import OddsOutput

/// One analysed market's share of `ValueReport.notes`, before it is merged with the others: the same market
/// value always gives the same part, so a stream keeps the parts of the meanings that did not change.
public struct NotesPart: Sendable {
    /// Each quote's source market and selection (by index in the event), its book (by index in the value) and its
    /// notes, book by book in the analysis's order (a later one for the same selection replaces an earlier one).
    var quotes: [(market: Int, selection: Int, book: Int, notes: PriceNotes.Selection)] = []
    /// Each book's margin.
    var margins: [Fraction?] = []

    /// The part of `market`: each priced selection's fair price, EV and whether it is the best price, and each
    /// book's margin. `only`: just the quotes of these source markets (by index in the event).
    public init(_ market: MarketValue, settings: ValueSettings, only: Set<Int>? = nil) {
        margins = market.books.map(\.margin)
        for (b, book) in market.books.enumerated() {
            for (o, quote) in book.quotes.enumerated() {
                guard let quote, only?.contains(quote.market) ?? true else { continue }
                let place = QuoteIndex.Place(market: market, book: b, outcome: o)
                var s = PriceNotes.Selection()
                // Written once: a stream compares and copies it line after line.
                s.selection = [("fair", ValueReport.fairJSON(market, o, settings: settings).prewritten)]
                s.price = [("ev", ValueReport.number(place.ev)), ("best", .bool(ValueReport.isBest(place)))]
                quotes.append((quote.market, quote.selection, b, s))
            }
        }
    }
}
