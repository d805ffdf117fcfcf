import Foundation

/// What a fused match is made of: its stable id, each source's own event as it named it, how sure the
/// join is, and where the sources disagree.
public struct MatchInfo: Hashable, Sendable {
    public var id: String
    /// The least confidence of any join (1 for a match of one source).
    public var confidence: Double
    public var sources: [EventSource]
    /// In words: "score: tickodds 1-0, sportsapi 2-0".
    public var conflicts: [String]
    public init(id: String, confidence: Double, sources: [EventSource], conflicts: [String] = []) {
        self.id = id; self.confidence = confidence; self.sources = sources; self.conflicts = conflicts
    }
}

/// One provider's event in a fused match, as that provider sent it.
public struct EventSource: Hashable, Sendable {
    public var provider: ProviderID
    public var id: String
    public var league: String?
    public var home: String
    public var away: String?
    public var startTime: Date?
    public var updatedAt: Date?
    /// How sure its join is, and why ("names equal; start 4 min apart").
    public var confidence: Double
    public var reason: String
    public init(provider: ProviderID, id: String, league: String?, home: String, away: String?, startTime: Date?,
                updatedAt: Date?, confidence: Double, reason: String) {
        self.provider = provider; self.id = id; self.league = league; self.home = home; self.away = away
        self.startTime = startTime; self.updatedAt = updatedAt; self.confidence = confidence; self.reason = reason
    }
    /// `event` as its provider sent it, with its join's confidence and reason.
    public init(_ event: Event, confidence: Double, reason: String) {
        self.init(provider: event.provider, id: event.id, league: event.league, home: event.home, away: event.away,
                  startTime: event.startTime, updatedAt: event.updatedAt, confidence: confidence, reason: reason)
    }
}
