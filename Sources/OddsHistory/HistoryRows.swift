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

/// A span of time a writer watched one provider's feed: what that provider sent from `from` to `to` is kept.
/// Between two spans nothing of it was written (no writer ran, its feed was down, or the history was away), so a
/// price there is unknown, not unchanged.
public struct WatchSpan: Sendable, Equatable {
    public var provider: ProviderID
    public var from: Date
    public var to: Date
    public init(provider: ProviderID, from: Date, to: Date) { self.provider = provider; self.from = from; self.to = to }

    /// The times within `range` that fall between `spans` (after the first begins and before the last ends): when
    /// no writer watched. Spans closer than `slack` are one (a restart in a second is no gap worth drawing).
    public static func gaps(_ spans: [WatchSpan], in range: ClosedRange<Date>, slack: TimeInterval = 2) -> [ClosedRange<Date>] {
        var merged: [(from: Date, to: Date)] = []
        for s in spans.sorted(by: { $0.from < $1.from }) {
            if let last = merged.last, s.from.timeIntervalSince(last.to) <= slack {
                merged[merged.count - 1].to = max(last.to, s.to)
            } else {
                merged.append((s.from, s.to))
            }
        }
        var out: [ClosedRange<Date>] = []
        for (a, b) in zip(merged, merged.dropFirst()) {
            let from = max(a.to, range.lowerBound), to = min(b.from, range.upperBound)
            if from < to { out.append(from...to) }
        }
        return out
    }

    /// The gaps of each of `providers` within `range` (`gaps(_:in:)` of that provider's spans), a provider at a
    /// time in the order given, then in time order.
    public static func unwatched(_ spans: [WatchSpan], providers: [ProviderID], in range: ClosedRange<Date>) -> [UnwatchedGap] {
        providers.flatMap { p in gaps(spans.filter { $0.provider == p }, in: range).map { UnwatchedGap(provider: p, gap: $0) } }
    }

    /// The times in every one of `lists` (each a list of ordered, disjoint ranges).
    public static func common(_ lists: [[ClosedRange<Date>]]) -> [ClosedRange<Date>] {
        guard var out = lists.first else { return [] }
        for list in lists.dropFirst() {
            var next: [ClosedRange<Date>] = []
            for a in out {
                for b in list {
                    let from = max(a.lowerBound, b.lowerBound), to = min(a.upperBound, b.upperBound)
                    if from < to { next.append(from...to) }
                }
            }
            out = next
        }
        return out
    }
}

/// A watch span as its writer hands it to the database: `span` tells the writer's spans apart, so that a span
/// written again (its end moved on) updates its row.
public struct WatchRow: Sendable, Equatable {
    public var span: Int
    public var watched: WatchSpan
    public init(span: Int, watched: WatchSpan) { self.span = span; self.watched = watched }
}

/// What one transaction writes.
public struct HistoryBatch: Sendable {
    /// Each source touched, as last seen in the batch.
    public var sources: [SourceKey: SourceRow] = [:]
    public var prices: [PriceRow] = []
    public var scores: [ScoreRow] = []
    public var incidents: [IncidentRow] = []
    public var members: [MemberRow] = []
    /// The writer's watch spans begun, moved on or ended since its last batch.
    public var watches: [WatchRow] = []

    public init() {}

    public var isEmpty: Bool { sources.isEmpty && prices.isEmpty && scores.isEmpty && incidents.isEmpty && members.isEmpty && watches.isEmpty }
    /// Changes in the batch (the sources' facts are not counted).
    public var changes: Int { prices.count + scores.count + incidents.count + members.count }
}
