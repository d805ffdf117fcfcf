import Foundation
import OddsModel
import OddsValue

/// Settles a bet from the match's final score, as the feeds reported it.
public enum Settlement {
    /// The result of a bet on `outcome` (`home`, `draw`, `away`, `over`, `under`, `yes`, `no`) of `market` with the
    /// selection's own `line` (a handicap's, such as "-1.5" for home at −1.5), given how the match ended: its
    /// final score, or `played: false` for a match abandoned, cancelled or postponed (void).
    ///
    /// A quarter line (Asian: a total of 2.25, a handicap of −0.75) is two half stakes, on the whole and half lines
    /// either side of it (2 and 2.5; −0.5 and −1): one half won or lost and the other pushed is `halfWon` or `halfLost`.
    public static func settle(_ market: BetMarket, outcome: String, line: String?, final score: Score?, played: Bool = true) -> BetResult {
        guard played else { return .void }
        let quarter = Fraction(1, 4)!
        func whole(_ f: Fraction) -> Bool { f.rounded(places: 9).hasSuffix(".000000000") }
        func isQuarter(_ f: Fraction) -> Bool { whole(f * Fraction(4)) && !whole(f * Fraction(2)) }
        func halves(_ a: BetResult, _ b: BetResult) -> BetResult {
            switch (a, b) {
            case (.won, .won): return .won
            case (.lost, .lost): return .lost
            case (.won, .push), (.push, .won): return .halfWon
            case (.lost, .push), (.push, .lost): return .halfLost
            default: return .unsettled
            }
        }
        switch market {
        case .total(let total) where isQuarter(total):
            return halves(settleWhole(.total(line: total - quarter), outcome, line, score), settleWhole(.total(line: total + quarter), outcome, line, score))
        case .spread:
            if let line, let handicap = Fraction(decimalText: line), isQuarter(handicap) {
                return halves(settleWhole(market, outcome, (handicap - quarter).rounded(places: 2), score),
                              settleWhole(market, outcome, (handicap + quarter).rounded(places: 2), score))
            }
        default:
            break
        }
        return settleWhole(market, outcome, line, score)
    }

    /// A bet on a whole or half line (or none).
    static func settleWhole(_ market: BetMarket, _ outcome: String, _ line: String?, _ score: Score?) -> BetResult {
        guard let score else { return .unsettled }
        let home = Fraction(score.home), away = Fraction(score.away)
        func compare(_ a: Fraction, _ b: Fraction) -> BetResult { a < b ? .lost : b < a ? .won : .push }
        switch market {
        case .result:
            switch outcome {
            case "home": return score.home > score.away ? .won : .lost
            case "away": return score.away > score.home ? .won : .lost
            case "draw": return score.home == score.away ? .won : .lost
            default: return .unsettled
            }
        case .total(let total):
            let goals = home + away
            switch outcome {
            case "over": return compare(goals, total)
            case "under": return compare(total, goals)
            default: return .unsettled
            }
        case .spread:
            guard let line, let handicap = Fraction(decimalText: line) else { return .unsettled }
            switch outcome {
            case "home": return compare(home + handicap, away)
            case "away": return compare(away + handicap, home)
            default: return .unsettled
            }
        case .bothTeamsToScore:
            let both = score.home > 0 && score.away > 0
            switch outcome {
            case "yes": return both ? .won : .lost
            case "no": return both ? .lost : .won
            default: return .unsettled
            }
        case .other:
            return .unsettled
        }
    }
}
