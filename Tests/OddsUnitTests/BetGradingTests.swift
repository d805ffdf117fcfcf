import Foundation
@testable import OddsBets
import OddsHistory
import OddsModel
import OddsValue
import OddsTestSupport
import Testing

/// Grading a bet (issue 52): closing-line value against the de-vigged close, and settlement from the final score,
/// by worked examples with known answers.
@Suite("Bet grading", .unitLane)
struct BetGradingTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    /// A basketball game as it closed: each book's moneyline (home, away).
    static func closing(_ books: [(String, [String])]) -> Event {
        Event(provider: .boltodds, id: "g1", sport: "basketball", league: "NBA", home: "Lakers", away: "Celtics", status: .live,
              startTime: t0, markets: books.map { book, prices in
                  Market(id: "ml", name: "Moneyline", book: book, selections: zip(["Lakers", "Celtics"], prices).map {
                      Selection(id: $0.0, name: $0.0, price: Price(decimal: $0.1))
                  })
              })
    }

    static func fraction(_ text: String) -> Fraction { Fraction(decimalText: text)! }

    @Test("A bet at 2.20 against a closing consensus of 2.00 after de-vig is +10 % CLV, typed in any odds format")
    func workedExample() throws {
        // Both books' margins taken out multiplicatively: 1.90 / 1.90 and 1.95 / 1.95 are 50 % each; the fair price 2.00.
        let event = Self.closing([("draftkings", ["1.90", "1.90"]), ("fanduel", ["1.95", "1.95"])])
        let close = try #require(ClosingLines.close(event, market: 0, selection: 0, reference: .consensus, method: .multiplicative))
        #expect(close.market == "result" && close.outcome == "home" && close.fairPrice == Self.fraction("2"))
        #expect(close.books.sorted() == ["draftkings", "fanduel"] && close.closeAtBook?.decimalText == "1.90")
        for typed in ["2.20", "+120", "6/5"] {
            let price = try #require(Price(typed: typed), "\(typed)")
            #expect(close.clv(of: Fraction(price.decimalOdds)) == Self.fraction("0.1"), "\(typed)")
        }
        // Below the fair price: negative CLV, exactly (1.80 × 0.5 − 1).
        #expect(close.clv(of: Self.fraction("1.8")) == Self.fraction("-0.1"))
    }

    @Test("The close by one book de-vigged (--close BOOK), by each method; a book missing is no close, never a guess")
    func oneBook() throws {
        // pinnacle 1.80 / 2.10: implied 0.5556 / 0.4762, Σ 1.0317; multiplicative fair home = 0.5556 / 1.0317.
        let event = Self.closing([("pinnacle", ["1.80", "2.10"]), ("fanduel", ["1.95", "1.95"])])
        let close = try #require(ClosingLines.close(event, market: 1, selection: 0, reference: .book("pinnacle"), method: .multiplicative))
        let qHome = Self.fraction("1") / Self.fraction("1.8"), qAway = Self.fraction("1") / Self.fraction("2.1")
        #expect(close.fairProbability == (qHome! / (qHome! + qAway!))!)
        #expect(close.closeAtBook?.decimalText == "1.95")
        // Additive: q − (Σq − 1) / 2.
        let additive = try #require(ClosingLines.close(event, market: 0, selection: 0, reference: .book("pinnacle"), method: .additive))
        #expect(additive.fairProbability == qHome! - ((qHome! + qAway! - .one) / Fraction(2))!)
        #expect(ClosingLines.close(event, market: 0, selection: 0, reference: .book("circa"), method: .multiplicative) == nil)
        // One selection only priced at the close: no fair price.
        var lonely = Self.closing([("pinnacle", ["1.80", "2.10"])])
        lonely.markets[0].selections[1].price = nil
        #expect(ClosingLines.close(lonely, market: 0, selection: 0, reference: .consensus, method: .multiplicative) == nil)
    }

    @Test("Settlement from the final score: results, totals and spreads with half and whole lines (pushes), both teams to score, void")
    func settlement() {
        let twoOne = Score(home: 2, away: 1)
        func settle(_ market: String, _ outcome: String, _ line: String? = nil, score: Score? = twoOne, played: Bool = true) -> BetResult {
            Settlement.settle(BetMarket(id: market), outcome: outcome, line: line, final: score, played: played)
        }
        #expect(settle("result", "home") == .won && settle("result", "draw") == .lost && settle("result", "away") == .lost)
        #expect(settle("result", "draw", score: Score(home: 1, away: 1)) == .won)
        // Totals: 3 goals. Over 2.5 wins, under 2.5 loses; on a whole line of 3 both push; over 3.5 loses.
        #expect(settle("total:2.5", "over") == .won && settle("total:2.5", "under") == .lost)
        #expect(settle("total:3", "over") == .push && settle("total:3.0", "under") == .push)
        #expect(settle("total:3.5", "over") == .lost && settle("total:3.5", "under") == .won)
        // Spreads, each side's own line: home −1.5 loses by a one-goal win, home −1 pushes, away +1.5 wins, away +1 pushes.
        #expect(settle("spread:-1.5", "home", "-1.5") == .lost && settle("spread:-1.5", "away", "+1.5") == .won)
        #expect(settle("spread:-1", "home", "-1") == .push && settle("spread:-1", "away", "1") == .push)
        #expect(settle("spread:-0.5", "home", "-0.5") == .won)
        #expect(settle("btts", "yes") == .won && settle("btts", "no") == .lost && settle("btts", "yes", score: Score(home: 2, away: 0)) == .lost)
        // Quarter lines (Asian) are half on each neighbour: 3 goals over 2.75 is half on 2.5 (won), half on 3 (push).
        #expect(settle("total:2.75", "over") == .halfWon && settle("total:2.75", "under") == .halfLost)
        #expect(settle("total:3.25", "over") == .halfLost && settle("total:3.25", "under") == .halfWon)
        #expect(settle("total:2.25", "over") == .won && settle("total:3.75", "under") == .won && settle("total:3.75", "over") == .lost)
        // 2-1: home −0.75 is half on −0.5 (won) and half on −1 (push); home −1.25 half lost; away +1.25 half won.
        #expect(settle("spread:-0.75", "home", "-0.75") == .halfWon && settle("spread:-1.25", "home", "-1.25") == .halfLost)
        #expect(settle("spread:-1.25", "away", "+1.25") == .halfWon && settle("spread:-0.25", "home", "-0.25") == .won)
        // Not played: void, whatever the market. No final score yet, or a market a score cannot settle: unsettled.
        #expect(settle("result", "home", played: false) == .void && settle("total:2.5", "over", played: false) == .void)
        #expect(settle("result", "home", score: nil) == .unsettled && settle("corners:9.5", "over") == .unsettled)
    }

    @Test("A bet without a close is settled by its market's name: never a half's, a team's, corners' or a combination's from the match's score")
    func meaningByName() {
        func bet(_ market: String, _ selection: String, line: String = "") -> StoredBet {
            StoredBet(placedAt: Date(timeIntervalSince1970: 0), source: SourceKey(provider: .boltodds, eventID: "g"), matchKey: nil, sport: "soccer",
                      league: nil, home: "Arsenal", away: "Chelsea", startTime: nil, marketID: market, marketName: market, line: line,
                      selectionID: selection, selectionName: selection, book: "fanduel", priceText: "2.00", odds: Rational(2, 1)!, stake: "10", note: nil)
        }
        let event = Event(provider: .boltodds, id: "g", sport: "soccer", league: nil, home: "Arsenal", away: "Chelsea", status: .ended, startTime: nil)
        #expect(BetGrader.meaning(bet("Moneyline", "Arsenal"), event) == .result)
        #expect(BetGrader.meaning(bet("Total Goals", "Over", line: "2.5"), event) == .total(line: Fraction(decimalText: "2.5")!))
        #expect(BetGrader.meaning(bet("Spread", "Arsenal", line: "-0.5"), event) == .spread)
        for other in ["1st Half Result", "Half Time Result", "1st Half Total Goals", "Total Corners", "Team Total", "Arsenal Total Goals",
                      "Match Result & Both Teams To Score", "Both Teams To Score and Over 2.5", "3-Way Handicap", "European Handicap"] {
            #expect(BetGrader.meaning(bet(other, "Over", line: "1.5"), event) == .other(other), "\(other)")
        }
    }

    @Test("What a settled bet returns: the stake times the price for a win, the stake for a push or void, nothing for a loss, halves of each for a quarter line")
    func returns() {
        let stake = Self.fraction("10"), price = Self.fraction("2.5")
        #expect(BetResult.won.returns(stake: stake, price: price) == Self.fraction("25"))
        #expect(BetResult.lost.returns(stake: stake, price: price) == .zero)
        #expect(BetResult.push.returns(stake: stake, price: price) == stake && BetResult.void.returns(stake: stake, price: price) == stake)
        #expect(BetResult.unsettled.returns(stake: stake, price: price) == nil)
        // Half won: half the stake at the price and half back; half lost: half back.
        #expect(BetResult.halfWon.returns(stake: stake, price: price) == Self.fraction("17.5"))
        #expect(BetResult.halfLost.returns(stake: stake, price: price) == Self.fraction("5"))
    }

    @Test("A typed price: American when signed, fractional with a slash or evs, else decimal; at or below evens of nothing is none")
    func typedPrices() {
        #expect(Price(typed: "+150")?.decimalText == "2.50" && Price(typed: "-110")?.decimalText == "1.91")
        #expect(Price(typed: "6/4")?.decimalText == "2.50" && Price(typed: "evs")?.decimalText == "2.00" && Price(typed: "2.5")?.decimalText == "2.50")
        #expect(Price(typed: "+150")?.text == "+150")
        #expect(Price(typed: "1.00") == nil && Price(typed: "1") == nil && Price(typed: "abc") == nil && Price(typed: "") == nil && Price(typed: "0/1") == nil)
    }

    @Test("A spread or total bet's line against the line the market closed on, in points as bettors quote it")
    func lineMove() throws {
        // Two lines at the close: −2.5 at 1.80 / 2.00 and −3 at 1.95 / 1.85; −3 is the one priced nearest even.
        func spread(_ line: String, _ home: String, _ away: String) -> Market {
            let away2 = line.hasPrefix("-") ? "+" + line.dropFirst() : "-" + line
            return Market(id: "sp\(line)", name: "Point Spread", book: "a", selections: [
                Selection(id: "Lakers", name: "Lakers", line: line, price: Price(decimal: home)),
                Selection(id: "Celtics", name: "Celtics", line: String(away2), price: Price(decimal: away)),
            ])
        }
        func total(_ line: String, _ over: String, _ under: String) -> Market {
            Market(id: "t\(line)", name: "Total Points", book: "a", selections: [
                Selection(id: "over", name: "Over", line: line, price: Price(decimal: over)),
                Selection(id: "under", name: "Under", line: line, price: Price(decimal: under)),
            ])
        }
        var event = Self.closing([("a", ["1.90", "1.90"])])
        event.markets += [spread("-2.5", "1.80", "2.00"), spread("-3", "1.95", "1.85"), total("210.5", "2.05", "1.75"), total("211", "1.90", "1.90")]
        // Took −2.5 (the home side of the first spread): closed −3, +0.5.
        let home = try #require(ClosingLines.close(event, market: 1, selection: 0, reference: .consensus, method: .multiplicative))
        #expect(home.market.hasPrefix("spread") && home.lineMove == Fraction(decimalText: "0.5"), "\(home)")
        // The away side of −3 took +3, and the line closed there: 0.
        #expect(ClosingLines.close(event, market: 2, selection: 1, reference: .consensus, method: .multiplicative)?.lineMove == .zero)
        // Over 210.5 when it closed at 211: half a point better; under 210.5: half a point worse.
        #expect(ClosingLines.close(event, market: 3, selection: 0, reference: .consensus, method: .multiplicative)?.lineMove == Fraction(decimalText: "0.5"))
        #expect(ClosingLines.close(event, market: 3, selection: 1, reference: .consensus, method: .multiplicative)?.lineMove == Fraction(decimalText: "-0.5"))
        // The moneyline has no line to move.
        #expect(ClosingLines.close(event, market: 0, selection: 0, reference: .consensus, method: .multiplicative)?.lineMove == nil)
    }
}
