import Foundation
import OddsModel

/// One event as one provider sends it: the unit every stored change belongs to.
public struct SourceKey: Hashable, Sendable {
    public var provider: ProviderID
    public var eventID: String
    public init(provider: ProviderID, eventID: String) { self.provider = provider; self.eventID = eventID }
}

/// One priced selection of one source: its book, market, line and selection.
public struct SelectionRef: Hashable, Sendable {
    public var source: SourceKey
    /// The book's key as the provider spells it; empty for a single-book provider that names none.
    public var book: String
    public var marketID: String
    /// The line ("2.5", "-1.5"); empty when the market has none.
    public var line: String
    public var selectionID: String
    public init(source: SourceKey, book: String, marketID: String, line: String, selectionID: String) {
        self.source = source; self.book = book; self.marketID = marketID; self.line = line; self.selectionID = selectionID
    }
}

/// An event's facts as last seen: teams, competition, sport and start.
public struct SourceRow: Sendable, Equatable {
    public var key: SourceKey
    public var sport: String
    public var league: String?
    public var home: String
    public var away: String?
    public var startTime: Date?
    /// The first and the last time it was seen in the batch.
    public var firstSeenAt: Date
    public var seenAt: Date
    /// From the built-in simulator (`--demo`), not a real provider.
    public var demo: Bool
}

/// A selection's price as it changed: the provider's text, the exact decimal odds, and suspension.
public struct PriceRow: Sendable, Equatable {
    public var ref: SelectionRef
    public var marketName: String
    public var selectionName: String
    public var receivedAt: Date
    public var providerAt: Date?
    /// The price as the provider wrote it; nil when the selection has no price (suspended or withdrawn).
    public var text: String?
    public var odds: Rational?
    public var suspended: Bool
}

/// A change of score, status or period (the clock alone is not a change; it is kept beside one).
public struct ScoreRow: Sendable, Equatable {
    public var source: SourceKey
    public var receivedAt: Date
    public var providerAt: Date?
    public var state: ScoreState
}

/// What a score change says.
public struct ScoreState: Sendable, Equatable {
    public var home: Int?
    public var away: Int?
    public var scoreText: String?
    public var status: String
    public var period: String?
    public var clock: String?

    public init(home: Int?, away: Int?, scoreText: String?, status: String, period: String?, clock: String?) {
        self.home = home; self.away = away; self.scoreText = scoreText; self.status = status; self.period = period; self.clock = clock
    }

    /// Whether `other` tells something new (the clock running on is not news).
    public func differs(from other: ScoreState) -> Bool {
        home != other.home || away != other.away || scoreText != other.scoreText || status != other.status || period != other.period
    }
}

/// An incident the first time it is told (or told again with news, such as a card rescinded).
public struct IncidentRow: Sendable, Equatable {
    public var source: SourceKey
    public var receivedAt: Date
    public var providerAt: Date?
    /// What identifies it when it is sent again (`Incident.identity`).
    public var identity: String
    public var incident: Incident
}

/// A source joined to a fused match, with the fusion's reason.
public struct MemberRow: Sendable, Equatable {
    public var matchKey: String
    public var source: SourceKey
    public var reason: String
    public var at: Date
    public init(matchKey: String, source: SourceKey, reason: String, at: Date) {
        self.matchKey = matchKey; self.source = source; self.reason = reason; self.at = at
    }
}

/// What one transaction writes.
public struct HistoryBatch: Sendable {
    /// Each source touched, as last seen in the batch.
    public var sources: [SourceKey: SourceRow] = [:]
    public var prices: [PriceRow] = []
    public var scores: [ScoreRow] = []
    public var incidents: [IncidentRow] = []
    public var members: [MemberRow] = []

    public init() {}

    public var isEmpty: Bool { sources.isEmpty && prices.isEmpty && scores.isEmpty && incidents.isEmpty && members.isEmpty }
    /// Changes in the batch (the sources' facts are not counted).
    public var changes: Int { prices.count + scores.count + incidents.count + members.count }
}
