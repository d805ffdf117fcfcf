import Foundation
import OddsFusion
import OddsModel
import OddsStore

/// Keeps every event's markets read by meaning, so that a change re-reads only the markets it touched and
/// recomputes only the meanings they belong to (a price change: its market across books; one book's update:
/// that book's markets across books). What a feed's stream of changes costs then follows the change, not the
/// event: a BoltOdds game arrives one book at a time, and without this each book would re-read every other.
///
/// Readings are kept for the events used last (`capacity`), not for every event: a market read by meaning is a
/// copy of the market, and kept for every event they would double the memory of a state of thousands of games.
/// An event read again after it was let go is read whole once.
public struct MarketReader: Sendable {
    typealias Key = Market.Key
    struct Read {
        var market: Market
        /// The main market's names the reading depended on.
        var main: [String]
        var entries: [ValueAnalysis.Entry]
    }
    var events: [EventKey: [Key: Read]] = [:]
    /// Each event's analysed markets by meaning, with what they were worked out from: one whose markets were all
    /// read unchanged, at the same places and ages, is not worked out again.
    var values: [EventKey: [String: Worked]] = [:]
    struct Worked {
        var from: [Source]
        var inPlay: Bool
        var settings: ValueSettings
        var value: MarketValue?
    }
    /// A market a meaning was worked out from: its place in the event and its age.
    struct Source: Equatable {
        var index: Int
        var age: TimeInterval?
    }
    /// One meaning as this reading gathers it: where its entries are, the markets it is worked out from, whether one
    /// read differently this time, and whether it is wanted (entries are gathered only for a meaning worked out again).
    struct Meaning {
        var id: String
        var sources: [Source] = []
        var places: [(read: Int, entry: Int)] = []
        var changed = false
        var wanted = false
    }
    /// Which events were read last.
    var recency: EventRecency
    /// Events whose readings are kept.
    public var capacity: Int { recency.capacity }

    public init(capacity: Int = 128) { recency = EventRecency(capacity: capacity) }

    /// Notes that `key` was read now, and lets go of the event read longest ago when over capacity.
    mutating func use(_ key: EventKey) {
        if let oldest = recency.use(key, held: events.count) { forget(oldest) }
    }

    /// The analysed markets of `event` (held as `key`) that any market whose id is in `touched` belongs to (nil:
    /// every market). `age` gives each source market's age.
    public mutating func markets(of event: Event, key: EventKey, touched: Set<String>?, settings: ValueSettings,
                                 age: (Market) -> TimeInterval?) -> [MarketValue] {
        guard event.status != .ended else { forget(key); return [] }
        let main = event.match == nil ? FusedMatch.mainMarket(of: event) : nil
        let mainNames = main.map { [$0.id] + $0.selections.map(\.name) } ?? []
        // Taken out while it changes, so that it is changed in place, not copied.
        var reads = events.removeValue(forKey: key) ?? [:]
        // This event's readings in its order, and its meanings in order of first appearance.
        var read: [Read] = []
        read.reserveCapacity(event.markets.count)
        // Each meaning's slot, in order of first appearance: one lookup an entry.
        var slots: [String: Int] = [:]
        var meanings: [Meaning] = []
        for (index, market) in event.markets.enumerated() {
            let k = market.key
            var r: Read
            var same = true, kept = true
            let known = reads[k]
            if let known, known.market == market, known.main == mainNames {
                r = known
            } else if let known, known.main == mainNames, let repriced = Self.repriced(known, as: market) {
                // Only prices moved (a price change): what the market means is read as before.
                r = Read(market: market, main: mainNames, entries: repriced)
                same = false; kept = false
            } else {
                r = Read(market: market, main: mainNames, entries: ValueAnalysis.entries(of: market, at: index, in: event, main: main, age: nil))
                same = false; kept = false
            }
            let a = age(market)
            // Kept with the place and age they were last read at, so that an unmoved reading is not copied to change them.
            if r.entries.contains(where: { $0.origin != index || $0.age != a }) {
                for i in r.entries.indices { r.entries[i].origin = index; r.entries[i].age = a }
                kept = false
            }
            if !kept { reads[k] = r }
            guard !r.entries.isEmpty else { continue }
            let wanted = touched?.contains(market.id) ?? true
            for (i, entry) in r.entries.enumerated() {
                let slot: Int
                if let known = slots[entry.market.id] {
                    slot = known
                } else {
                    slot = meanings.count
                    slots[entry.market.id] = slot
                    meanings.append(Meaning(id: entry.market.id))
                }
                meanings[slot].sources.append(Source(index: index, age: a))
                meanings[slot].places.append((read.count, i))
                if !same { meanings[slot].changed = true }
                if wanted { meanings[slot].wanted = true }
            }
            read.append(r)
        }
        // More readings than markets: some are of markets the event no longer has.
        if reads.count > event.markets.count {
            let held = Set(event.markets.map(\.key))
            reads = reads.filter { held.contains($0.key) }
        }
        events[key] = reads
        use(key)
        let inPlay = ValueAnalysis.isInPlay(event.status)
        var worked = values.removeValue(forKey: key) ?? [:]
        if worked.count > meanings.count { worked = worked.filter { slots[$0.key] != nil } }
        var out: [MarketValue] = []
        for meaning in meanings where meaning.wanted {
            // Unchanged markets at the same places and ages give the same answer: kept, not worked out again.
            if !meaning.changed, let w = worked[meaning.id], w.from == meaning.sources, w.inPlay == inPlay, w.settings == settings {
                if let v = w.value { out.append(v) }
                continue
            }
            let group = meaning.places.map { read[$0.read].entries[$0.entry] }
            let value = ValueAnalysis.market(group, sport: event.sport, inPlay: inPlay, settings: settings)
            worked[meaning.id] = Worked(from: meaning.sources, inPlay: inPlay, settings: settings, value: value)
            if let value { out.append(value) }
        }
        values[key] = worked
        return out
    }

    /// `read`'s entries with the prices and suspensions of `market`, when that is all that differs from the market
    /// read (names, lines and ids the same, selection for selection); nil otherwise. Reading a market by meaning
    /// looks at its names, never at its prices, and carries each selection's price and suspension through as it is.
    static func repriced(_ read: Read, as market: Market) -> [ValueAnalysis.Entry]? {
        let old = read.market
        guard old.id == market.id, old.name == market.name, old.book == market.book, old.provider == market.provider,
              old.selections.count == market.selections.count else { return nil }
        for (a, b) in zip(old.selections, market.selections) {
            guard a.id == b.id, a.name == b.name, a.line == b.line, a.deepLink == b.deepLink, a.isMain == b.isMain else { return nil }
        }
        var entries = read.entries
        for e in entries.indices {
            for (j, i) in entries[e].origins.enumerated() {
                entries[e].market.selections[j].price = market.selections[i].price
                entries[e].market.selections[j].suspended = market.selections[i].suspended
            }
        }
        return entries
    }

    /// Forgets an event that left the store.
    public mutating func forget(_ key: EventKey) {
        events[key] = nil
        values[key] = nil
        recency.forget(key)
    }

    /// Keeps only what the events as now held still have: an event gone or ended is forgotten, and a market
    /// an event no longer has. (Events leave without a remove: a snapshot drops them, a status ends them.)
    public mutating func prune(_ current: (EventKey) -> Event?) {
        for (key, reads) in events {
            guard let e = current(key), e.status != .ended else { forget(key); continue }
            let held = Set(e.markets.map(\.key))
            if reads.keys.contains(where: { !held.contains($0) }) { events[key] = reads.filter { held.contains($0.key) } }
        }
    }

    /// How many markets the reader holds readings of.
    public var count: Int { events.values.reduce(0) { $0 + $1.count } }
}
