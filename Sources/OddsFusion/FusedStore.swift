import Foundation
import OddsModel
import OddsStore

extension ProviderID {
    /// The rows of fused matches: a fused row's key is (`fused`, its match id).
    public static let fused = ProviderID("fused", displayName: "All providers", environmentName: "FUSED")
}

/// Fused matches kept current from the sources' feed messages, for a live view (the dashboard). The
/// sources' own events stay in their store as sent; this store holds one event per real match
/// (`FusedMatch`), rebuilt only when a message touches one of its sources, so its moves are the
/// fused prices' moves and a price change costs its own match, not every match.
public struct FusedStore: Sendable {
    public private(set) var fusion: MatchFusion
    /// One event per fused match, under (`.fused`, match id).
    public private(set) var store = LiveStore()
    /// Sources whose feed is stale: their prices are shown suspended and never win the best price.
    public private(set) var stale: Set<EventKey> = []
    /// Each source's markets as the fused match shows them, per market: a price change converts its own market
    /// again, not every market of the event. Valid while the teams and the main market's id and name stay.
    private var converted: [EventKey: Converted] = [:]
    /// The rows (fused matches) that the last `apply`, `rebuild` or `refreshStaleness` rebuilt or removed.
    public private(set) var touchedRows: [EventKey] = []
    private struct Converted {
        var teams: [String?]
        var from: [Market]
        var markets: [[Market]]
    }

    public init(names: MatchNames = MatchNames()) { fusion = MatchFusion(names: names) }

    /// Follows `message`, already applied to `sources`: the fused matches it touched are rebuilt.
    /// Returns the incidents new to a fused match that was already shown (another source's telling of
    /// one it has is not new; a match's first incidents are its state, not news).
    @discardableResult
    public mutating func apply(_ message: FeedMessage, sources: LiveStore) -> [(row: EventKey, incident: Incident)] {
        let provider = message.provider
        touchedRows.removeAll(keepingCapacity: true)
        let touched: [EventKey]
        switch message.update {
        case .heartbeat, .connection:
            return []
        case .snapshot, .clear:
            // A whole feed at once: every event of the provider, those gone included.
            touched = known(sources, provider: provider)
        default:
            guard let id = message.update.eventID else { return [] }
            touched = [EventKey(provider: provider, id: id)]
        }
        return refresh(touched, sources: sources, at: message.receivedAt)
    }

    /// Every source event of `sources` matched anew (a view that starts fusing a store it already holds).
    public mutating func rebuild(from sources: LiveStore, at now: Date) {
        touchedRows.removeAll(keepingCapacity: true)
        refresh(known(sources, provider: nil), sources: sources, at: now)
    }

    /// The events of `provider` (nil: of every provider) that the sources have or the matcher holds, in order.
    private func known(_ sources: LiveStore, provider: ProviderID?) -> [EventKey] {
        var keys = Set(sources.events.keys.filter { provider == nil || $0.provider == provider })
        for k in fusion.keys where provider == nil || k.provider == provider { keys.insert(k) }
        return keys.sorted()
    }

    /// Marks the sources stale at `now` (nothing from them within their provider's bound): the matches of
    /// the sources that turned stale or fresh again are rebuilt.
    public mutating func refreshStaleness(sources: LiveStore, now: Date, bound: (ProviderID) -> TimeInterval) {
        touchedRows.removeAll(keepingCapacity: true)
        var changed: [EventKey] = []
        for key in fusion.keys {
            let isStale = sources.isStale(key, now: now, bound: bound(key.provider))
            guard isStale != stale.contains(key) else { continue }
            if isStale { stale.insert(key) } else { stale.remove(key) }
            changed.append(key)
        }
        if !changed.isEmpty { refresh(changed.sorted(), sources: sources, at: now) }
    }

    @discardableResult
    private mutating func refresh(_ keys: [EventKey], sources: LiveStore, at now: Date) -> [(row: EventKey, incident: Incident)] {
        // Each match to rebuild, with a source that finds it (the key that left a match does not).
        var matches: [(id: String, member: EventKey?)] = []
        var position: [String: Int] = [:]
        func note(_ id: String, _ member: EventKey?) {
            if let i = position[id] {
                if matches[i].member == nil { matches[i].member = member }
            } else {
                position[id] = matches.count
                matches.append((id, member))
            }
        }
        for key in keys {
            if let before = fusion.match(of: key) {
                note(before.id, before.sources.first { $0.key != key }?.key)
            }
            if let event = sources.events[key]?.event {
                note(fusion.upsert(event), key)
            } else {
                fusion.forget(key)
                stale.remove(key)
                converted[key] = nil
            }
            // A match whose sources all joined another (found to be the same match) has no row any more.
            for id in fusion.dissolved { note(id, nil) }
        }
        var news: [(row: EventKey, incident: Incident)] = []
        for (id, member) in matches { news += rebuild(id, member: member, sources: sources, at: now) }
        return news
    }

    private mutating func rebuild(_ id: String, member: EventKey?, sources: LiveStore, at now: Date) -> [(row: EventKey, incident: Incident)] {
        let row = EventKey(provider: .fused, id: id)
        touchedRows.append(row)
        let match = member.flatMap { fusion.match(of: $0) }
        let present = match.map { m in m.sources.filter { sources.events[$0.key] != nil } } ?? []
        guard let match, match.id == id, !present.isEmpty else {
            if store.events[row] != nil { store.apply(FeedMessage(provider: .fused, receivedAt: now, update: .remove(eventID: id))) }
            return []
        }
        let fused = FusedMatch.build(id: id, sources: present, events: present.map { sources.events[$0.key]!.event }, stale: stale) { e, isStale in
            let key = EventKey(provider: e.provider, id: e.id)
            let main = FusedMatch.mainMarket(of: e)
            let teams = [e.home, e.away, main?.id, main?.name]
            let cached = converted[key].flatMap { $0.teams == teams ? $0 : nil }
            var markets: [[Market]] = []
            markets.reserveCapacity(e.markets.count)
            for (i, m) in e.markets.enumerated() {
                if let cached, i < cached.from.count, cached.from[i] == m { markets.append(cached.markets[i]) } else {
                    markets.append(FusedMatch.normalized(m, main: main, event: e))
                }
            }
            converted[key] = Converted(teams: teams, from: e.markets, markets: markets)
            let all = markets.flatMap { $0 }
            return isStale ? all.map(FusedMatch.suspended) : all
        }
        let before = store.events[row]?.event.incidents
        store.apply(FeedMessage(provider: .fused, receivedAt: now, update: .upsert(fused.event)))
        guard let before else { return [] }
        let after = fused.event.incidents
        if after == before { return [] }
        // Each incident shown before stands for one now: itself, or another provider's telling of it (the telling
        // kept follows the order of the sources, so a richer one told later can take its place). Only what is
        // left is new.
        var unmatched = before
        var rest: [Incident] = []
        for i in after {
            if let j = unmatched.firstIndex(of: i) { unmatched.remove(at: j) } else { rest.append(i) }
        }
        var news: [(row: EventKey, incident: Incident)] = []
        for i in rest {
            if let j = unmatched.firstIndex(where: { FusedMatch.isDuplicate(i, of: [$0]) }) { unmatched.remove(at: j) } else { news.append((row, i)) }
        }
        return news
    }
}
