import Foundation
import OddsModel
import OddsStore

/// One alert rule, as a user writes it on one line (`price "Arsenal" >= 2.50`, `move any 5% in 30s`): what it
/// watches and when it fires. `AlertRule.parse` reads the text; `text` keeps it as written, for the alert's line.
public struct AlertRule: Sendable, Equatable {
    /// The rule as written.
    public var text: String
    /// A name from the config's `[[alerts]]`, when it has one.
    public var name: String?
    public var kind: Kind
    /// Only these matches (each a provider's event), as for a rule the dashboard adds for its selected row; nil:
    /// every match.
    public var scope: Set<EventKey>?

    public init(text: String, name: String? = nil, kind: Kind, scope: Set<EventKey>? = nil) {
        self.text = text; self.name = name; self.kind = kind; self.scope = scope
    }

    public enum Kind: Sendable, Equatable {
        /// A selection's price (the best across books, or at one book) reaches a level.
        case price(PriceLevel)
        /// A price (per selection and book) changes by at least `change` within `window`.
        case move(PriceMove)
        /// At least `books` books move one selection's price the same way by at least `change` within `window`.
        case steam(Steam)
        /// An incident or a status change, for one team or any.
        case incident(IncidentKind, team: String?)
        /// A value price opens: expected value at least `edge` (a fraction: 0.03 is 3 %).
        case value(edge: Rational, strict: Bool)
        /// An arbitrage opens with at least `margin` profit.
        case arbitrage(margin: Rational, strict: Bool)
        /// A feed silent for longer than `after`, or a fused match that lost its last live source.
        case stale(after: TimeInterval)
    }

    /// The incidents and status changes a rule can name.
    public enum IncidentKind: String, Sendable, CaseIterable {
        case goal
        case redCard = "red-card"
        case penalty
        case `var`
        case kickoff
        case final
    }

    /// `>=`, `<=`, `>`, `<` or `=`, compared exactly on decimal odds.
    public enum Comparison: String, Sendable, CaseIterable {
        case atLeast = ">="
        case atMost = "<="
        case above = ">"
        case below = "<"
        case equal = "="

        public func holds(_ price: Rational, _ level: Rational) -> Bool {
            switch self {
            case .atLeast: return !(price < level)
            case .atMost: return !(level < price)
            case .above: return level < price
            case .below: return price < level
            case .equal: return price == level
            }
        }
    }

    public struct PriceLevel: Sendable, Equatable {
        public var selection: SelectionPattern
        public var comparison: Comparison
        /// The level as decimal odds, exactly.
        public var level: Rational
        /// The level as written ("2.50", "+150", "6/4").
        public var levelText: String
        /// One book's price only (its key or name, any case); nil: the best across books.
        public var book: String?
    }

    public struct PriceMove: Sendable, Equatable {
        public var selection: SelectionPattern
        /// |new / old − 1| at least this (0.05 is 5 %).
        public var change: Rational
        public var window: TimeInterval
        public var book: String?
    }

    public struct Steam: Sendable, Equatable {
        public var books: Int
        public var change: Rational
        public var window: TimeInterval
        public var selection: SelectionPattern
    }
}

/// Which selections a rule means: any, or those named (a team, a selection's name or key such as draw or over,
/// with a line such as 2.5 where given). Names are compared folded (case, accents, punctuation).
public enum SelectionPattern: Sendable, Equatable {
    case any
    case named(String, line: String?)

    /// Selection keys a rule may name instead of a team.
    public static let keys: Set<String> = ["home", "draw", "away", "over", "under", "yes", "no", "tie", "x", "1", "2"]

    /// Whether a selection of `event`'s market matches: by the selection's id or name, or by the team it stands
    /// for (a result market's home or away).
    public func matches(selectionID: String, selectionName: String, line: String?, event: Event) -> Bool {
        guard case .named(let name, let wantedLine) = self else { return true }
        if let wantedLine, Self.line(line) != Self.line(wantedLine) { return false }
        let folded = TeamName.fold(name)
        guard !folded.isEmpty else { return false }
        if TeamName.fold(selectionID) == folded || TeamName.fold(selectionName) == folded { return true }
        // A team stands for its side of a market without a line (the result, the moneyline); a handicap of it
        // is named with its line ("Arsenal" -1.5).
        if wantedLine == nil, let line, !line.isEmpty { return false }
        let team = selectionID == "home" ? event.home : selectionID == "away" ? event.away : nil
        return team.map { TeamName.fold($0) == folded } ?? false
    }

    /// A line compared as a number where it is one ("2.5" and "2.50" are one line).
    static func line(_ text: String?) -> String? {
        guard let text else { return nil }
        return Rational(decimalText: text).map(\.description) ?? text
    }
}
