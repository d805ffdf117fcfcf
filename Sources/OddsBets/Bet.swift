import Foundation
import OddsModel
import OddsValue

/// How a bet ended: from the final score the feeds reported, or not known yet.
public enum BetResult: String, Sendable, CaseIterable, Codable {
    case won
    case lost
    /// The stake back: a whole line landed exactly on the result.
    case push
    /// The match was not played (abandoned, cancelled, postponed): the stake back.
    case void
    /// Not known: the match has not ended, or its market cannot be settled from a score.
    case unsettled
    /// A quarter line (Asian: 2.25 is half on 2, half on 2.5) whose one half won and the other pushed.
    case halfWon = "half-won"
    /// A quarter line whose one half lost and the other pushed.
    case halfLost = "half-lost"

    /// The return on `stake` at decimal odds `price`, the stake included (0 for a loss); nil while unsettled.
    public func returns(stake: Fraction, price: Fraction) -> Fraction? {
        let half = stake * Fraction(1, 2)!
        switch self {
        case .won: return stake * price
        case .lost: return .zero
        case .push, .void: return stake
        case .halfWon: return half * price + half
        case .halfLost: return half
        case .unsettled: return nil
        }
    }

    /// Whether the bet is settled on the score (won, lost, pushed, or half of either): what profit is counted over.
    public var isSettledOnScore: Bool { [.won, .lost, .push, .halfWon, .halfLost].contains(self) }
}

/// What a market asks, read from its id by meaning (`FusedMatch`'s normalized ids): enough to settle it from a
/// final score.
public enum BetMarket: Hashable, Sendable {
    /// The match result: home, draw or away (the moneyline: home or away).
    case result
    /// Total goals (points) over or under a line.
    case total(line: Fraction)
    /// A handicap: each side's own line added to its score.
    case spread
    /// Both teams to score: yes or no.
    case bothTeamsToScore
    /// Anything else: not settled from the score.
    case other(String)

    /// `result`, `total:2.5`, `spread:-1.5`, `btts`; anything else is `other`.
    public init(id: String) {
        let parts = id.split(separator: ":", maxSplits: 1).map(String.init)
        switch parts.first {
        case "result": self = .result
        case "total" where parts.count == 2:
            if let line = Fraction(decimalText: parts[1]) { self = .total(line: line) } else { self = .other(id) }
        case "spread": self = .spread
        case "btts": self = .bothTeamsToScore
        default: self = .other(id)
        }
    }
}
