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
                    return ClosingLine(market: value.id, outcome: value.outcomes[o].id, line: value.outcomes[o].line,
                                       fairProbability: p, fairPrice: fairPrice,
                                       books: value.books.filter { $0.vigFree != nil }.map(\.source.book),
                                       closeAtBook: own.suspended ? nil : own.price)
                }
            }
        }
        return nil
    }
}
