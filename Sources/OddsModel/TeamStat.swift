import Foundation

/// One line of a match's statistics: the provider's name and each team's value, as sent ("55%", "12").
public struct TeamStat: Hashable, Sendable {
    public var name: String
    public var home: String
    public var away: String
    /// The provider's group ("Match overview", "Shots"), when it groups them.
    public var group: String?
    public init(name: String, home: String, away: String, group: String? = nil) {
        self.name = name; self.home = home; self.away = away; self.group = group
    }
}
