import Foundation
import OddsJSON
import OddsModel
import OddsOutput
import OddsStore

/// Margins, fair prices and EVs for `odds stream`'s lines: each message read against the event as the client
/// now holds it (every book, so that a fair price is every book's consensus), re-reading only the markets the
/// message touched; prices count as of their arrival.
public struct StreamValueNotes: Sendable {
    public let settings: ValueSettings
    private var reader = MarketReader()
    /// Each event's notes parts by meaning, with the market value each was made from: a meaning whose value is
    /// the same (the reader hands back an unchanged one as it was) keeps its part.
    private var parts: [EventKey: [String: (value: MarketValue, part: NotesPart)]] = [:]

    public init(settings: ValueSettings = ValueSettings()) { self.settings = settings }

    /// The notes of the events `message` carries, by event id, and a price line's own (its book's margin, the
    /// selection's fair price, the price's EV). `store` has the message applied.
    public mutating func notes(for message: FeedMessage, in store: LiveStore) -> (events: [String: PriceNotes], price: [(String, JSONOutput)]) {
        var events: [String: PriceNotes] = [:]
        var price: [(String, JSONOutput)] = []
        let settings = self.settings
        func read(_ id: String, touched: Set<String>?) -> (Event, [MarketValue])? {
            let key = EventKey(provider: message.provider, id: id)
            guard let current = store.events[key]?.event else { forget(key); return nil }
            return (current, reader.markets(of: current, key: key, touched: touched, settings: settings) { _ in 0 })
        }
        func note(_ line: Event, touched: Set<String>?) {
            guard let (current, markets) = read(line.id, touched: touched) else { return }
            // One book's part of an event (BoltOdds) changes every meaning it is read for: nothing to keep.
            guard touched == nil else {
                events[line.id] = ValueReport.streamNotes(line: line, current: current, markets: markets, settings: settings)
                return
            }
            let key = EventKey(provider: message.provider, id: line.id)
            var kept = parts.removeValue(forKey: key) ?? [:]
            events[line.id] = ValueReport.streamNotes(line: line, current: current) { only in
                ValueReport.notes(markets, only: only) { value in
                    if let known = kept[value.id], known.value == value { return known.part }
                    let part = NotesPart(value, settings: settings)
                    kept[value.id] = (value, part)
                    return part
                }
            }
            if kept.count > 4 * max(1, markets.count) { kept = kept.filter { k, _ in markets.contains { $0.id == k } } }
            parts[key] = kept
            // Kept for the events the reader keeps readings of, no more (a part holds a copy of its market's value).
            if parts.count > reader.capacity { parts = parts.filter { reader.events[$0.key] != nil } }
        }
        switch message.update {
        case .price(let p):
            if let (current, markets) = read(p.eventID, touched: [p.marketID]) {
                price = ValueReport.priceLineNotes(p, in: current, markets: markets, settings: settings)
            }
        case .upsert(let e): note(e, touched: nil)
        case .bookUpsert(let e, _), .bookViews(let e, _): note(e, touched: Set(e.markets.map(\.id)))
        case .snapshot(let list): for e in list { note(e, touched: nil) }
        case .remove(let id): forget(EventKey(provider: message.provider, id: id))
        default: break
        }
        return (events, price)
    }

    /// Keeps the readings of what `store` still holds only: events leave a store without a remove (a
    /// snapshot drops them, a status ends them), and the reader stays the store's size.
    public mutating func prune(_ store: LiveStore) {
        reader.prune { store.events[$0]?.event }
        parts = parts.filter { reader.events[$0.key] != nil }
    }

    /// Lets go of what is kept of an event that left the store.
    private mutating func forget(_ key: EventKey) {
        reader.forget(key)
        parts[key] = nil
    }
}
