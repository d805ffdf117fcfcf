import Foundation

/// A player in a lineup.
public struct LineupPlayer: Hashable, Sendable {
    public var name: String
    public var number: String?
    /// The provider's position code ("G", "D", "M", "F").
    public var position: String?
    public init(name: String, number: String? = nil, position: String? = nil) {
        self.name = name; self.number = number; self.position = position
    }
}

/// One team's lineup.
public struct Lineup: Hashable, Sendable {
    public var formation: String?
    public var starters: [LineupPlayer]
    public var substitutes: [LineupPlayer]
    public init(formation: String? = nil, starters: [LineupPlayer] = [], substitutes: [LineupPlayer] = []) {
        self.formation = formation; self.starters = starters; self.substitutes = substitutes
    }
}

/// Both teams' lineups; a side not announced yet is nil.
public struct Lineups: Hashable, Sendable {
    public var home: Lineup?
    public var away: Lineup?
    /// Whether the provider marks them confirmed (not predicted).
    public var confirmed: Bool?
    public init(home: Lineup? = nil, away: Lineup? = nil, confirmed: Bool? = nil) {
        self.home = home; self.away = away; self.confirmed = confirmed
    }
}
