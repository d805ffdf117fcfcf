import Foundation
import OddsModel

/// A rule that fired: what, when, on which match, selection and book, at what price and from what.
public struct Alert: Sendable, Equatable {
    public var rule: AlertRule
    /// When the change that made the rule true was received.
    public var at: Date
    public var provider: ProviderID
    public var eventID: String
    /// The fused match's id, when several providers are followed.
    public var fusedMatch: String?
    public var home: String
    public var away: String?
    public var league: String?
    public var marketID: String?
    public var marketName: String?
    public var line: String?
    public var selection: String?
    /// The book whose price it is (nil: the feed's only book).
    public var book: String?
    public var price: Price?
    /// Where the price moved from, and when it stood there (a move rule).
    public var from: Price?
    public var fromAt: Date?
    /// Steam: each book that moved, from what to what and when, the first mover first.
    public var books: [BookMove] = []
    /// Value: the fair price, and the expected value of the price against it ("3.25%").
    public var fair: String?
    public var ev: String?
    /// Arbitrage: the best price of each outcome and its book, and the return on the whole stake ("1.20%").
    public var legs: [ArbitrageLeg] = []
    public var profit: String?
    /// Stale: how long the feed (or every source of the match) had been silent.
    public var silentFor: TimeInterval?
    /// Stale: a fused match lost its last live source (each one gone from its feed, or its feed silent).
    public var sourcesLost = false
    /// The age of every price the alert used: the price, each book's in a steam move or an arbitrage, and the
    /// books a fair price was made from.
    public var ages: [PriceAge] = []
    /// The incident or status change that fired it.
    public var incident: Incident?
    public var status: EventStatus?

    /// What kind of rule fired ("price", "move", "goal", …).
    public var kind: String {
        switch rule.kind {
        case .price: return "price"
        case .move: return "move"
        case .steam: return "steam"
        case .incident(let k, _): return k.rawValue
        case .value: return "value"
        case .arbitrage: return "arb"
        case .stale: return "stale"
        }
    }

    public var match: String { away.map { "\(home) v \($0)" } ?? home }
}

/// How old one book's price was when an alert used it: seconds since the client last had word that it stands
/// (nil: not known).
public struct PriceAge: Sendable, Equatable {
    public var book: String
    public var seconds: TimeInterval?
}

/// One leg of an arbitrage: an outcome's best price and the book offering it.
public struct ArbitrageLeg: Sendable, Equatable {
    public var selection: String
    public var book: String
    public var price: Price
}

/// One book's part in a steam move.
public struct BookMove: Sendable, Equatable {
    public var book: String
    public var from: Price
    public var fromAt: Date
    public var to: Price
    /// When its price reached `to`.
    public var at: Date
}
