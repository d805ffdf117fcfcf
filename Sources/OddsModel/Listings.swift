import Foundation

/// A sport that has live events now, with how many.
public struct SportCount: Hashable, Sendable {
    public var sport: String
    public var name: String
    public var count: Int?
    public init(sport: String, name: String, count: Int?) { self.sport = sport; self.name = name; self.count = count }
}

/// A competition with its fixtures, as pre-match listings give it.
public struct League: Hashable, Sendable {
    public var name: String
    public var sport: String
    public var live: Bool
    /// Fixtures, usually without markets.
    public var events: [Event]
    public init(name: String, sport: String, live: Bool, events: [Event]) {
        self.name = name; self.sport = sport; self.live = live; self.events = events
    }
}
