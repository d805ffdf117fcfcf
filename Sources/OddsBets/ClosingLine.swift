import Foundation
import OddsModel
import OddsValue

/// A selection's closing line: the market's prices as they stood when the match went live, made fair as
/// `odds value` makes fair prices (a reference and a de-vig method), and what the price taken is worth against it.
public struct ClosingLine: Sendable, Equatable {
    /// The market by meaning (`result`, `total:2.5`, `spread:-1.5`, `btts`).
    public var market: String
    /// The selection by meaning (`home`, `draw`, `over`…) and its line.
    public var outcome: String
    public var line: String?
    /// The selection's fair probability at the close, and its fair price (1 / probability).
    public var fairProbability: Fraction
    public var fairPrice: Fraction
    /// The books whose closing market the fair price was made from.
    public var books: [String]
    /// The closing price at the bet's own book, where it had one.
    public var closeAtBook: Price?
    /// For a spread or a total: the points the bet's line is better (+) or worse (−) than the line the market
    /// closed on (the side's line priced nearest even at the close): took −2.5, closed −3.0 is +0.5.
    public var lineMove: Fraction?

    /// Closing-line value of a price taken: price × closing fair probability − 1 (0.1 is +10 %).
    public func clv(of price: Fraction) -> Fraction { price * fairProbability - .one }
}

public enum ClosingLines {
    /// The closing line of one selection. `event` holds the match's markets as they closed, one per book (each
    /// market's `book` set); the selection is `event.markets[market].selections[selection]`. With `reference`
    /// `.consensus` the fair probability is the median of every complete book's vig-free probability; with
    /// `.book(B)` it is B's alone. Nil when the selection's market has no fair price at the close (fewer than
    /// two selections priced, the reference book missing, or a method that gives none).
    public static func close(_ event: Event, market: Int, selection: Int, reference: FairReference, method: DevigMethod) -> ClosingLine? {
        var closing = event
        // The close is judged as it stood: every price counts, however long before kick-off it was set.
        closing.status = .scheduled
        let settings = ValueSettings(reference: reference, method: method, maxAgeInPlay: .infinity, maxAgePrematch: .infinity)
        let values = ValueAnalysis.analyze(closing, settings: settings) { _ in 0 }
        for value in values {
            for book in value.books {
                for (o, quote) in book.quotes.enumerated() where quote?.market == market && quote?.selection == selection {
                    guard let p = value.fair?[o], let fairPrice = p.reciprocal else { return nil }
                    let own = event.markets[market].selections[selection]
                    let outcome = value.outcomes[o]
                    return ClosingLine(market: value.id, outcome: outcome.id, line: outcome.line,
                                       fairProbability: p, fairPrice: fairPrice,
                                       books: value.books.filter { $0.vigFree != nil }.map(\.source.book),
                                       closeAtBook: own.suspended ? nil : own.price,
                                       lineMove: lineMove(values, market: value.id, outcome: outcome))
                }
            }
        }
        return nil
    }

    /// The points `outcome` of `market` (a spread's or a total's line) is better than the line its family closed on:
    /// of the family's lines, the one whose fair probability for that side was nearest even (more books first).
    static func lineMove(_ values: [MarketValue], market: String, outcome: Outcome) -> Fraction? {
        let family = market.split(separator: ":").first.map(String.init) ?? market
        guard family == "spread" || family == "total", let taken = outcome.line.flatMap({ Fraction(decimalText: $0) }) else { return nil }
        let half = Fraction(decimalText: "0.5")!
        var best: (distance: Fraction, books: Int, line: Fraction)?
        for value in values where value.id.hasPrefix(family + ":") {
            guard let o = value.outcomes.firstIndex(where: { $0.id == outcome.id }), let p = value.fair?[o],
                  let line = value.outcomes[o].line.flatMap({ Fraction(decimalText: $0) }) else { continue }
            let d = p < half ? half - p : p - half
            let books = value.books.filter { $0.vigFree != nil }.count
            if let b = best, !(d < b.distance || (d == b.distance && books > b.books)) { continue }
            best = (d, books, line)
        }
        guard let closed = best?.line else { return nil }
        // A spread side gains with a bigger line (+3.5 over +3, −2.5 over −3); over gains with a smaller total.
        switch (family, outcome.id) {
        case ("total", "over"): return closed - taken
        default: return taken - closed
        }
    }
}
