import Foundation
import OddsModel
import OddsStore

/// The table's order (favourites first, then the chosen sort; filtered), kept as events change instead of
/// sorted again every frame: an event's change costs a hash lookup when its place is the same (a price
/// change under the kick-off sort), a binary search and a move when it is not.
struct RowIndex: Sendable {
    /// What places a row: compared favourites first, then the sort's value, then sport, league, home and key.
    struct Entry: Sendable, Equatable {
        var favourite: Bool
        var primary: Double
        var sport: String
        var league: String
        var home: String
        var key: EventKey
        /// False for an event the filter leaves out: kept, so that the index accounts for every event of the store.
        var shown = true

        static func precedes(_ a: Entry, _ b: Entry) -> Bool {
            if a.favourite != b.favourite { return a.favourite }
            if a.primary != b.primary { return a.primary < b.primary }
            if a.sport != b.sport { return a.sport < b.sport }
            if a.league != b.league { return a.league < b.league }
            if a.home != b.home { return a.home < b.home }
            return a.key < b.key
        }
    }

    /// What the order was made for: when any of it changes, the order is made again.
    struct Basis: Equatable, Sendable {
        var sort: DashboardSort
        var needle: String
        var favourites: Set<String>
    }

    private(set) var order: [Entry] = []
    private var entries: [EventKey: Entry] = [:]
    private(set) var basis: Basis?
    /// When the order was last made whole (the price-move sort ages with time: made again every second).
    private(set) var builtAt = Date.distantPast
    /// Orders made whole since the start, and rows moved one by one: what the tests and the benchmark read.
    private(set) var rebuilds = 0, moves = 0

    var count: Int { order.count }
    func key(at i: Int) -> EventKey { order[i].key }
    var keys: [EventKey] { order.map(\.key) }

    /// Where `key` stands, if it is a row.
    func position(of key: EventKey) -> Int? {
        guard let entry = entries[key], entry.shown else { return nil }
        let i = lowerBound(entry)
        return i < order.count && order[i].key == key ? i : nil
    }

    /// The row's entry under `basis` (not `shown` when the filter leaves it out).
    static func entry(_ key: EventKey, _ state: EventState, basis: Basis, now: Date) -> Entry {
        let e = state.event
        let shown = basis.needle.isEmpty || e.home.lowercased().contains(basis.needle)
            || (e.away?.lowercased().contains(basis.needle) ?? false) || (e.league?.lowercased().contains(basis.needle) ?? false)
        let favourite = !basis.favourites.isEmpty
            && (basis.favourites.contains(e.home) || (e.away.map(basis.favourites.contains) ?? false))
        // Ties (matches without a minute of play, under the kick-off sort) stay grouped by sport and league.
        return Entry(favourite: favourite, primary: DashboardModel.sortValue(state, by: basis.sort, now: now),
                     sport: basis.sort == .league ? "" : e.sport, league: e.league ?? "", home: e.home, key: key, shown: shown)
    }

    /// The order made whole from `store`.
    mutating func rebuild(_ store: LiveStore, basis: Basis, now: Date) {
        self.basis = basis
        builtAt = now
        rebuilds += 1
        entries.removeAll(keepingCapacity: true)
        order.removeAll(keepingCapacity: true)
        order.reserveCapacity(store.events.count)
        entries.reserveCapacity(store.events.count)
        for (key, state) in store.events {
            let entry = RowIndex.entry(key, state, basis: basis, now: now)
            entries[key] = entry
            if entry.shown { order.append(entry) }
        }
        order.sort(by: Entry.precedes)
    }

    /// What a change did to the rows.
    enum Change: Equatable {
        /// Nothing a row shows.
        case none
        /// The lowest position a row left, took or changed in place: rows from there on may look different.
        case from(Int)
        /// The order was made whole again.
        case all
    }

    /// Follows a change of the events `touched` (each present in `store` or gone from it). Events the store
    /// dropped on its own (ended ones it sweeps, those a snapshot no longer lists) are found by count, and
    /// the order is made again, as it is when most events changed at once.
    /// `window`: the positions on screen; a row changed in place is looked for there only (two comparisons,
    /// not a search).
    mutating func follow(_ touched: some Collection<EventKey>, in store: LiveStore, now: Date, window: Range<Int> = 0..<0) -> Change {
        guard let basis else { return .none }
        guard touched.count <= max(16, entries.count / 4) else {
            rebuild(store, basis: basis, now: now)
            return .all
        }
        var lowest: Int?
        func note(_ i: Int) { lowest = min(lowest ?? i, i) }
        for key in touched {
            let old = entries[key]
            let new = store.events[key].map { RowIndex.entry(key, $0, basis: basis, now: now) }
            if let old, let new, old == new {
                // Same place: the row changed in place; it shows if it stands within the window.
                let upper = min(window.upperBound, order.count)
                if new.shown, window.lowerBound < upper, !Entry.precedes(new, order[window.lowerBound]),
                   !Entry.precedes(order[upper - 1], new) {
                    note(window.lowerBound)
                }
                continue
            }
            if let old {
                if old.shown {
                    let i = lowerBound(old)
                    if i < order.count, order[i].key == key { order.remove(at: i); note(i) }
                }
                entries[key] = nil
            }
            if let new {
                entries[key] = new
                if new.shown {
                    let i = lowerBound(new)
                    order.insert(new, at: i)
                    note(i)
                }
            }
            moves += 1
        }
        if entries.count != store.events.count {
            rebuild(store, basis: basis, now: now)
            return .all
        }
        return lowest.map(Change.from) ?? .none
    }

    /// The first position whose entry does not precede `entry`.
    private func lowerBound(_ entry: Entry) -> Int {
        var lo = 0, hi = order.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Entry.precedes(order[mid], entry) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
