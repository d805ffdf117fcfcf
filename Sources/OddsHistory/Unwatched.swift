import Foundation
import OddsModel

/// A time no writer watched one provider (`WatchSpan.gaps`): what it priced then is unknown.
public struct UnwatchedGap: Sendable, Equatable {
    public var provider: ProviderID
    public var gap: ClosedRange<Date>
    public init(provider: ProviderID, gap: ClosedRange<Date>) { self.provider = provider; self.gap = gap }
}

extension HistoryBackend {
    /// When no writer watched the providers of `sources` while they were kept (from `since` on), a provider at a
    /// time, in provider order then time order.
    public func unwatched(_ sources: [StoredSource], since: Date? = nil) throws -> [UnwatchedGap] {
        guard let first = sources.map(\.firstSeen).min(), let last = sources.map(\.lastSeen).max() else { return [] }
        let from = max(first, since ?? first)
        guard from <= last else { return [] }
        let providers = Set(sources.map(\.key.provider)).sorted { $0.rawValue < $1.rawValue }
        return WatchSpan.unwatched(try watches(of: providers, during: from...last), providers: providers, in: from...last)
    }
}

extension IncidentPrices {
    /// Whether a first price after the incident came only after a time no writer watched its provider: then it
    /// is where the market stood when watching began again, not its reaction.
    public func afterGap(_ unwatched: [UnwatchedGap]) -> Bool {
        selections.contains { s in
            guard let after = s.after else { return false }
            return unwatched.contains { $0.provider == after.source.provider && $0.gap.lowerBound < after.at && $0.gap.upperBound > incident.at }
        }
    }
}
