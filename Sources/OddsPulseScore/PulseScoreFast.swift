import Foundation
import OddsJSON
import OddsModel

/// The events of the last broadcasts, by position, with the exact bytes each was read from.
/// PulseScore rebroadcasts every live event of the sport each tick and most are unchanged: the same
/// bytes at the same place are the same event (reading is a function of the bytes), so they are
/// compared instead of read again; an event whose prices alone changed is read against its layout
/// (`PulseScoreEventLayout`). Bounded by the longest broadcast's event count.
public final class PulseScoreEventCache {
    /// One position of the broadcast: the event read there last, and its bytes or its layout.
    final class Slot {
        @exclusivity(unchecked) var bytes: [UInt8]
        @exclusivity(unchecked) var event: Event
        @exclusivity(unchecked) var layout: PulseScoreEventLayout?
        /// Events to read whole before laying one out again, after one could not be.
        @exclusivity(unchecked) var layoutRetry = 0
        init(bytes: [UInt8], event: Event) { self.bytes = bytes; self.event = event }
    }

    // Exclusivity unchecked as in TickOdds' market cache: one connection's cache, one broadcast at a time.
    @exclusivity(unchecked) var slots: [Slot] = []
    /// Events taken from the cache instead of read (for tests and the benchmark).
    public var hits: Int { counts.hits }
    /// Events read against their layout, of those hits.
    public var layoutHits: Int { counts.layouts }
    private final class Counts {
        @exclusivity(unchecked) var hits = 0
        @exclusivity(unchecked) var layouts = 0
    }
    private let counts = Counts()

    public init() {}

    func event(at index: Int, _ s: inout JSONScanner) throws -> Event? {
        guard index < slots.count else { return nil }
        let slot = slots[index]
        if let layout = slot.layout {
            guard let (event, end) = try layout.read(s) else { return nil }
            s.skipChecked(to: end)
            slot.event = event
            counts.hits += 1
            counts.layouts += 1
            return event
        }
        guard s.consume(slot.bytes) else { return nil }
        counts.hits += 1
        return slot.event
    }

    /// The event read whole from `range`, at `nesting`: remembered at `index`, laid out when it can be.
    func store(_ event: Event, at index: Int, bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, nesting: Int) {
        let slot: Slot
        if index < slots.count {
            slot = slots[index]
            slot.event = event
        } else if index == slots.count {
            slot = Slot(bytes: [], event: event)
            slots.append(slot)
        } else {
            return
        }
        if slot.layoutRetry > 0 {
            slot.layoutRetry -= 1
            slot.layout = nil
        } else {
            slot.layout = PulseScoreEventLayout.make(bytes, range, nesting: nesting, event: event)
            // An event of another shape is not laid out again on every broadcast.
            if slot.layout == nil { slot.layoutRetry = 16 }
        }
        // The bytes are compared only where there is no layout (which compares them itself).
        if slot.layout == nil { slot.bytes = Array(UnsafeBufferPointer(rebasing: bytes[range])) } else { slot.bytes = [] }
    }

    func trim(to count: Int) { if slots.count > count { slots.removeLast(slots.count - count) } }
}

/// A PulseScore event's bytes cut into its leaf members (see `JSONLayout`), for the next broadcast
/// of the event to be read against. The usual change is a price (`pa[0].decimal`): only those are
/// read and the event is the last one with those prices. Any other change (a name, a flag, a
/// market added) makes the event read whole again. Laid out only with each key once per object and
/// `mg`, `ma` and `pa` arrays of objects.
final class PulseScoreEventLayout {
    enum Kind { case price(Int, Int), other }

    @exclusivity(unchecked) private var layout: JSONLayout<Kind>
    @exclusivity(unchecked) private var event: Event
    /// Per selection: suspended by a flag (`suspended`/`su`), whatever its price.
    private let flagged: [[Bool]]

    private init(layout: JSONLayout<Kind>, event: Event, flagged: [[Bool]]) {
        self.layout = layout; self.event = event; self.flagged = flagged
    }

    /// The layout of the event object in `range` at `nesting`, which the generic decoder read as
    /// `event`; nil when it is not of the usual shape.
    static func make(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, nesting: Int, event: Event) -> PulseScoreEventLayout? {
        var s = JSONScanner(bytes, resumingAt: range.lowerBound, nesting: nesting)
        var members: [JSONLayout<Kind>.Member] = []
        var flagged: [[Bool]] = []
        var prices: [[JSONScalar?]] = []
        func member(_ start: Int, _ valueStart: Int, _ s: JSONScanner, _ kind: Kind) {
            members.append(.init(start: start - range.lowerBound, valueStart: valueStart - range.lowerBound,
                                 end: s.index - range.lowerBound, nesting: s.nesting, kind: kind))
        }
        /// Reads the members of the object here; `container` reads a member's value when it returns true.
        func object(_ s: inout JSONScanner, _ container: (inout JSONScanner, Int, Int) throws -> Bool) throws -> Bool {
            try s.forEachMember(unique: true) { s, start, valueStart in
                if try !container(&s, start, valueStart) {
                    try s.skip()
                    member(start, valueStart, s, .other)
                }
            }
        }
        /// The objects of the array here, each read by `element` (false: not of the usual shape).
        func array(_ s: inout JSONScanner, _ element: (inout JSONScanner, Int) throws -> Bool) throws -> Bool {
            guard try s.enterArray() else { return true }
            var i = 0
            repeat {
                guard try element(&s, i) else { return false }
                i += 1
            } while try s.nextElement()
            return true
        }
        var usual = true
        do {
            usual = try object(&s) { s, _, _ in
                guard s.key(is: "mg"), s.isArray() else { return false }
                guard try array(&s, { s, g in
                    flagged.append([])
                    prices.append([])
                    return try object(&s) { s, _, _ in
                        guard s.key(is: "ma"), s.isArray() else { return false }
                        guard try array(&s, { s, _ in
                            var flag = false
                            var price: JSONScalar?
                            let ok = try object(&s) { s, start, valueStart in
                                if s.key(is: "suspended") || s.key(is: "su") {
                                    if try s.scalar().bool == true { flag = true }
                                    member(start, valueStart, s, .other)
                                    return true
                                }
                                guard s.key(is: "pa"), s.isArray() else { return false }
                                // The first price object is the selection's; the others are only checked.
                                let read = try array(&s, { s, k in
                                    try object(&s) { s, start, valueStart in
                                        if k == 0, s.key(is: "decimal") {
                                            price = try s.scalar()
                                            member(start, valueStart, s, .price(g, flagged[g].count))
                                            return true
                                        }
                                        if k == 0, s.key(is: "suspended") || s.key(is: "su") {
                                            if try s.scalar().bool == true { flag = true }
                                            member(start, valueStart, s, .other)
                                            return true
                                        }
                                        return false
                                    }
                                })
                                if !read { usual = false }
                                return true
                            }
                            flagged[g].append(flag)
                            prices[g].append(price)
                            return ok
                        }) else { usual = false; return true }
                        return true
                    }
                }) else { usual = false; return true }
                return true
            } && usual
        } catch {
            return nil
        }
        guard usual, s.index == range.upperBound else { return nil }
        // What the generic decoder made of the same bytes; laid out only where the two agree.
        guard flagged.count == event.markets.count else { return nil }
        for g in flagged.indices {
            guard flagged[g].count == event.markets[g].selections.count else { return nil }
            for j in flagged[g].indices {
                let selection = event.markets[g].selections[j]
                let price = Price(decimal: prices[g][j]?.text ?? "")
                guard selection.price == price, selection.suspended == (flagged[g][j] || price == nil) else { return nil }
            }
        }
        return PulseScoreEventLayout(layout: JSONLayout(bytes[range], nesting: nesting, members: members), event: event,
                                     flagged: flagged)
    }

    /// The event at the scanner's position read against the layout, and where it ends; nil when
    /// something but prices changed (the caller reads it whole). Throws when a changed price is not JSON.
    func read(_ scanner: JSONScanner) throws -> (event: Event, end: Int)? {
        var prices: [(g: Int, j: Int, value: JSONScalar)] = []
        var other = false
        let members = layout.members
        guard let (changes, range) = try layout.changes(scanner, read: { m, s in
            if case .price(let g, let j) = members[m].kind { prices.append((g, j, try s.scalar())) } else { other = true; try s.skip() }
        }), !other else { return nil }
        for (g, j, value) in prices {
            let price = Price(decimal: value.text ?? "")
            event.markets[g].selections[j].price = price
            event.markets[g].selections[j].suspended = flagged[g][j] || price == nil
        }
        layout.remember(changes, scanner.bytes[range])
        return (event, range.upperBound)
    }
}

/// The fast path for PulseScore's broadcasts: one pass of `JSONScanner` over the frame; an event
/// whose bytes are those of the same place in an earlier broadcast is taken from the cache, any
/// other is read by the generic decoder from its own bytes. Anything unusual goes to the generic
/// decoder whole, so both always agree (a differential fuzz test checks this).
enum PulseScoreFast {
    enum Answer { case events([Event]), notData, fallback }

    /// `sport`: the connection's sport, for events that do not say (one cache serves one sport).
    static func broadcast(_ bytes: [UInt8], sport: String? = nil, cache: PulseScoreEventCache) -> Answer {
        bytes.withUnsafeBufferPointer { buffer in
            var s = JSONScanner(buffer)
            do { return try broadcast(&s, sport: sport, cache: cache) } catch { return .fallback }
        }
    }

    private static func broadcast(_ s: inout JSONScanner, sport: String?, cache: PulseScoreEventCache) throws -> Answer {
        guard s.isObject(), try s.enterObject() else { return .fallback }
        var type: JSONScalar?
        var events: [Event]?
        repeat {
            if s.key(is: "type") { type = try s.scalar() }
            else if s.key(is: "events") {
                guard s.isArray() else { return .fallback }
                var list: [Event] = []
                if try s.enterArray() {
                    repeat {
                        if let e = try cache.event(at: list.count, &s) { list.append(e); continue }
                        let nesting = s.nesting
                        let range = try s.skipRange()
                        let value = try JSONParser.parse(bytes: UnsafeBufferPointer(rebasing: s.bytes[range]))
                        let e = try PulseScoreWire.event(value, sport: sport)
                        cache.store(e, at: list.count, bytes: s.bytes, range, nesting: nesting)
                        list.append(e)
                    } while try s.nextElement()
                }
                events = list
            }
            else { try s.skip() }
        } while try s.nextMember()
        try s.finish()
        guard let type = type?.string else { return .fallback }
        guard type == "data" else { return .notData }
        guard let events else { return .fallback }
        cache.trim(to: events.count)
        return .events(events)
    }
}

/// PulseScore's two broadcast decoders, for the fuzzer to compare.
public enum PulseScoreDecoders {
    /// The fast path's events (nil: not a data message, or left to the generic decoder).
    public static func fast(_ bytes: [UInt8], cache: PulseScoreEventCache) -> [Event]? {
        if case .events(let e) = PulseScoreFast.broadcast(bytes, cache: cache) { return e }
        return nil
    }

    /// True when the fast path, where it answers, gives exactly the generic decoder's answer.
    public static func agree(_ bytes: [UInt8], cache: PulseScoreEventCache) -> Bool {
        let answer = PulseScoreFast.broadcast(bytes, cache: cache)
        if case .fallback = answer { return true }
        // The generic decoder: nil for a message that is not data; an error for a malformed one.
        let generic: [Event]?
        do { generic = try PulseScoreWire.broadcast(bytes) } catch { return false }
        switch answer {
        case .fallback: return true
        case .notData: return generic == nil
        case .events(let fast): return generic == fast
        }
    }
}
