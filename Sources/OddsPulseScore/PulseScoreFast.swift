import Foundation
import OddsJSON
import OddsModel

/// The events of the last broadcasts, by position, with the exact bytes each was read from.
/// PulseScore rebroadcasts every live event of the sport each tick and most are unchanged: the same
/// bytes at the same place are the same event (reading is a function of the bytes), so they are
/// compared instead of read again. Bounded by the longest broadcast's event count.
public final class PulseScoreEventCache {
    var slots: [(bytes: [UInt8], event: Event)] = []
    /// Events taken from the cache instead of read (for tests and the benchmark).
    public private(set) var hits = 0

    public init() {}

    func event(at index: Int, _ s: inout JSONScanner) -> Event? {
        guard index < slots.count, s.consume(slots[index].bytes) else { return nil }
        hits += 1
        return slots[index].event
    }

    func store(_ event: Event, at index: Int, bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        let slot = (Array(UnsafeBufferPointer(rebasing: bytes[range])), event)
        if index < slots.count { slots[index] = slot } else if index == slots.count { slots.append(slot) }
    }

    func trim(to count: Int) { if slots.count > count { slots.removeLast(slots.count - count) } }
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
                        if let e = cache.event(at: list.count, &s) { list.append(e); continue }
                        let range = try s.skipRange()
                        let value = try JSONParser.parse(bytes: UnsafeBufferPointer(rebasing: s.bytes[range]))
                        let e = try PulseScoreWire.event(value, sport: sport)
                        cache.store(e, at: list.count, bytes: s.bytes, range)
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
