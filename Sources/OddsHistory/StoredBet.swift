import Foundation
import OddsModel

/// A bet as the ledger keeps it: the price taken and the stake, with the facts of its match and selection as they
/// stood when it was placed (a bet stands alone: retention prunes sources, never bets).
public struct StoredBet: Sendable, Equatable {
    /// Its row in the ledger (0 before it is stored).
    public var id: Int64
    /// When the bet was placed (`--at`, else when it was added).
    public var placedAt: Date
    /// The provider's event the bet was placed on, and the real match it was fused into, if any.
    public var source: SourceKey
    public var matchKey: String?
    public var sport: String
    public var league: String?
    public var home: String
    public var away: String?
    public var startTime: Date?
    /// The market and selection as the provider names them ("" for no line).
    public var marketID: String
    public var marketName: String
    public var line: String
    public var selectionID: String
    public var selectionName: String
    public var book: String
    /// The price as typed ("+150", "6/4", "2.50") and its exact decimal odds.
    public var priceText: String
    public var odds: Rational
    /// The stake as typed, exactly ("10", "12.50").
    public var stake: String
    public var note: String?
    /// What `odds bets grade` last kept of it: outlasts the history's retention.
    public var grade: StoredGrade?

    public init(id: Int64 = 0, placedAt: Date, source: SourceKey, matchKey: String?, sport: String, league: String?, home: String,
                away: String?, startTime: Date?, marketID: String, marketName: String, line: String, selectionID: String,
                selectionName: String, book: String, priceText: String, odds: Rational, stake: String, note: String?) {
        self.id = id; self.placedAt = placedAt; self.source = source; self.matchKey = matchKey; self.sport = sport
        self.league = league; self.home = home; self.away = away; self.startTime = startTime; self.marketID = marketID
        self.marketName = marketName; self.line = line; self.selectionID = selectionID; self.selectionName = selectionName
        self.book = book; self.priceText = priceText; self.odds = odds; self.stake = stake; self.note = note
    }

    public var title: String { away.map { "\(home) v \($0)" } ?? home }
}

/// A bet's grade as kept: when it was graded, its result and the final score it was settled on, the close at its
/// book (the provider's text), the closing fair price and the CLV (exact decimal text, six places).
public struct StoredGrade: Sendable, Equatable {
    public var at: Date
    public var result: String
    public var finalHome: Int?
    public var finalAway: Int?
    public var closeText: String?
    public var closeFair: String?
    public var clv: String?

    public init(at: Date, result: String, finalHome: Int?, finalAway: Int?, closeText: String?, closeFair: String?, clv: String?) {
        self.at = at; self.result = result; self.finalHome = finalHome; self.finalAway = finalAway
        self.closeText = closeText; self.closeFair = closeFair; self.clv = clv
    }
}
