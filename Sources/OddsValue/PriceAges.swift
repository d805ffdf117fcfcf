import Foundation
import OddsModel
import OddsStore

/// How long since the client last had word that a market's prices stand.
public struct PriceAges: Sendable {
    /// Providers whose feeds send only changes (`ProviderCapabilities.changesOnly`).
    public var changesOnly: Set<ProviderID>

    public init(changesOnly: Set<ProviderID>) { self.changesOnly = changesOnly }

    /// The age of `market` of `event` (a provider's own, or a fused match's) in `sources` at `now`: for a feed
    /// that sends only changes, the time since its last message while it is live; for a feed that resends whole
    /// events (or one that is not live), since the event was last received. Nil when the source is unknown.
    public func age(of market: Market, in event: Event, sources: LiveStore, now: Date) -> TimeInterval? {
        let provider = market.provider ?? event.provider
        let id: String
        if let match = event.match {
            guard let source = match.sources.first(where: { $0.provider == provider }) else { return nil }
            id = source.id
        } else {
            id = event.id
        }
        guard let state = sources.events[EventKey(provider: provider, id: id)] else { return nil }
        var heard = state.lastUpdate
        if changesOnly.contains(provider), let feed = sources.feeds[provider], feed.connection == .live,
           let last = feed.lastMessageAt, last > heard {
            heard = last
        }
        return max(0, now.timeIntervalSince(heard))
    }
}
