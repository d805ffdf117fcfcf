import OddsJSON
import OddsModel
import OddsStore

/// The markets a stream last wrote, each with the notes it was written with: most of an event's markets are
/// the same line after line (a feed sends the whole event for one price), and one written again unchanged,
/// with the same notes, is copied as its text instead of being built and written again.
///
/// Kept for the events written last (`capacity`), and only for what the store still holds (`prune`).
public final class WrittenMarkets {
    struct Written {
        var market: Market
        var notes: PriceNotes.Market?
        var text: JSONOutput
    }
    var events: [EventKey: [Market.Key: Written]] = [:]
    /// Which events were written last.
    var recency: EventRecency
    /// Markets copied as written, and markets written anew: for tests and benchmarks.
    public private(set) var copied = 0, built = 0
    /// Events whose markets are kept.
    public var capacity: Int { recency.capacity }

    public init(capacity: Int = 128) { recency = EventRecency(capacity: capacity) }

    /// The JSON of `event`'s markets with their `notes` (by market index), as `EventJSON.market` writes them.
    public func markets(of event: Event, notes: PriceNotes?) -> [JSONOutput] {
        let key = EventKey(provider: event.provider, id: event.id)
        var kept = events.removeValue(forKey: key) ?? [:]
        var out: [JSONOutput] = []
        out.reserveCapacity(event.markets.count)
        for (i, market) in event.markets.enumerated() {
            let k = market.key
            let n = notes?.markets[i]
            if let w = kept[k], w.notes == n, w.market == market {
                out.append(w.text)
                copied += 1
                continue
            }
            let text = EventJSON.market(market, notes: n)
            kept[k] = Written(market: market, notes: n, text: text)
            out.append(text)
            built += 1
        }
        events[key] = kept
        // Over capacity, the event written longest ago is let go of.
        if let oldest = recency.use(key, held: events.count) { events[oldest] = nil }
        return out
    }

    /// Keeps only the markets of the events as `current` now holds them (events leave without a remove line).
    public func prune(_ current: (EventKey) -> Event?) {
        for (key, kept) in events {
            guard let e = current(key) else { events[key] = nil; recency.forget(key); continue }
            let held = Set(e.markets.map(\.key))
            if kept.keys.contains(where: { !held.contains($0) }) { events[key] = kept.filter { held.contains($0.key) } }
        }
    }

    /// How many markets are kept.
    public var count: Int { events.values.reduce(0) { $0 + $1.count } }
}
