import Foundation
import OddsModel
import OddsStore

/// What the live path hands the history: an event as the store holds it after a message, and which part of it
/// the message could have changed. Taking the store's event (a shared reference, not a copy) keeps the live
/// path to an append; what changed is worked out on the writer's thread.
public struct HistoryInput: Sendable {
    /// The part of the event a message can have changed.
    public enum Scope: Sendable, Equatable {
        /// Every market, the score, the status and the incidents.
        case all
        /// One book's markets (BoltOdds' per-book views), and the event's facts.
        case books([String])
        /// One selection.
        case selection(marketID: String, book: String?, selectionID: String)
        /// The score, status, period and incidents; no prices.
        case facts
    }

    public var event: Event
    public var scope: Scope
    public var receivedAt: Date
    /// The provider's own time of the message, where it sends one (`FeedMessage.providerTime`; never
    /// `Event.updatedAt`, which is the store's receive time).
    public var providerTime: Date?
    /// The fused match this source belongs to, and why, when several providers are joined.
    public var member: (matchKey: String, reason: String)?

    public init(event: Event, scope: Scope, receivedAt: Date, providerTime: Date? = nil, member: (matchKey: String, reason: String)? = nil) {
        self.event = event; self.scope = scope; self.receivedAt = receivedAt; self.providerTime = providerTime; self.member = member
    }

    /// Whether this input stands for `earlier` with nothing lost: this is the whole event and `earlier` one selection
    /// of it, received with it (the same times and fused match), and that selection is here as it was there.
    func covers(_ earlier: HistoryInput) -> Bool {
        guard case .all = scope, case .selection(let marketID, let book, let selectionID) = earlier.scope,
              receivedAt == earlier.receivedAt, providerTime == earlier.providerTime,
              event.provider == earlier.event.provider, event.id == earlier.event.id,
              member?.matchKey == earlier.member?.matchKey, member?.reason == earlier.member?.reason
        else { return false }
        func selection(_ e: Event) -> Selection? {
            e.markets.first { $0.id == marketID && $0.book == book }?.selections.first { $0.id == selectionID }
        }
        guard let now = selection(event), let then = selection(earlier.event) else { return false }
        return now.price?.text == then.price?.text && now.suspended == then.suspended
    }

    /// What `message` changed, read from `store` after it was applied; empty for what is not about an event
    /// (heartbeats, connection states) or names one the store does not hold.
    public static func of(_ message: FeedMessage, in store: LiveStore) -> [HistoryInput] {
        var inputs = inputs(message, in: store)
        if let time = message.providerTime { for i in inputs.indices { inputs[i].providerTime = time } }
        return inputs
    }

    private static func inputs(_ message: FeedMessage, in store: LiveStore) -> [HistoryInput] {
        func held(_ id: String) -> Event? { store.events[EventKey(provider: message.provider, id: id)]?.event }
        let at = message.receivedAt
        switch message.update {
        case .snapshot(let events):
            return events.compactMap { e in held(e.id).map { HistoryInput(event: $0, scope: .all, receivedAt: at) } }
        case .upsert(let e):
            return held(e.id).map { [HistoryInput(event: $0, scope: .all, receivedAt: at)] } ?? []
        case .bookUpsert(let e, let book):
            return held(e.id).map { [HistoryInput(event: $0, scope: .books([book]), receivedAt: at)] } ?? []
        case .bookViews(let e, let books):
            return held(e.id).map { [HistoryInput(event: $0, scope: .books(books), receivedAt: at)] } ?? []
        case .price(let p):
            return held(p.eventID).map {
                [HistoryInput(event: $0, scope: .selection(marketID: p.marketID, book: p.book, selectionID: p.selection.id), receivedAt: at)]
            } ?? []
        case .scoreboard(let b):
            return held(b.eventID).map { [HistoryInput(event: $0, scope: .facts, receivedAt: at)] } ?? []
        case .score(let id, _, _), .incident(let id, _), .status(let id, _, _):
            return held(id).map { [HistoryInput(event: $0, scope: .facts, receivedAt: at)] } ?? []
        case .stats, .lineups, .remove, .clear, .heartbeat, .connection:
            return []
        }
    }
}
