import Foundation
import OddsJSON
import OddsModel

/// TickOdds' wire format (`fixtureId`, `marketGroups`, flat `odds`), kept internal to this module.
/// This is the decoding seam: everything TickOdds sends becomes model values here.
enum TickOddsWire {
    typealias Malformed = MalformedMessage
    /// TickOdds is its own (single) book.
    static let book = ProviderID.tickodds.singleBook

    static func parse(_ text: String) throws -> JSONValue { try JSONParser.message(text) }

    static func parse(_ bytes: [UInt8]) throws -> JSONValue { try JSONParser.message(bytes: bytes) }

    static func status(_ text: String?) -> EventStatus {
        switch text {
        case "in_progress": return .live
        case "half_time": return .halftime
        case "ended": return .ended
        case "suspended": return .suspended
        case "not_started", "scheduled": return .scheduled
        default: return .unknown
        }
    }

    /// The events of a REST answer: a bare array or `{"events": [...]}`.
    static func eventList(_ value: JSONValue) throws -> [Event] {
        if let list = value.array { return try list.map(event) }
        if let list = value["events"]?.array { return try list.map(event) }
        throw Malformed("expected a list of events")
    }

    static func event(_ value: JSONValue) throws -> Event { try EventFields(value).event() }

    static func parseDate(_ s: String) -> Date? {
        ISODate.parse(s)
    }

    static func marketID(key: String, period: String?) -> String {
        "\(key):\(period ?? "full_game")"
    }

    /// A market group's name with its period where that is not the whole game: "Total Goals (first half)". The docs
    /// show `period` beside the group's name and only "full_game" in it (inferred: a period's group carries the
    /// game's name). Without it two groups read alike, and a half's line would be joined with the game's by meaning.
    static func marketName(_ name: String, period: String?) -> String {
        guard let period, !period.isEmpty, period != "full_game" else { return name }
        let words = period.replacingOccurrences(of: "_", with: " ")
        if TeamName.holds(TeamName.fold(name), words: TeamName.fold(words)) { return name }
        return "\(name) (\(words))"
    }

    /// Where an `odds` update's selection belongs. Its id looks like "fixture:marketKey:period:side";
    /// other ids fall back to the message's `marketKey`.
    static func selectionRef(_ id: String?, marketKey: String?) -> (marketID: String, side: String?) {
        guard let id else { return (marketKey ?? "", nil) }
        let utf8 = id.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII: each ':' is a Character of its own, so splitting the bytes splits the same way
            // (empty parts left out, as `split` does). Only the first four parts are needed.
            var parts: [Range<String.Index>] = []
            var start: String.Index?
            var i = utf8.startIndex
            while i != utf8.endIndex, parts.count < 4 {
                if utf8[i] == UInt8(ascii: ":") {
                    if let s = start { parts.append(s..<i); start = nil }
                } else if start == nil {
                    start = i
                }
                i = utf8.index(after: i)
            }
            if parts.count < 4, let s = start { parts.append(s..<utf8.endIndex) }
            guard parts.count >= 4 else { return (marketKey ?? "", nil) }
            return (String(id[parts[1]]) + ":" + String(id[parts[2]]), String(id[parts[3]]))
        }
        let parts = id.split(separator: ":").map(String.init)
        guard parts.count >= 4 else { return (marketKey ?? "", nil) }
        return ("\(parts[1]):\(parts[2])", parts[3])
    }

    static func sports(_ value: JSONValue) throws -> [SportCount] {
        let list = value.array ?? value["sports"]?.array
        guard let list else { throw Malformed("expected a list of sports") }
        return try list.map { item in
            guard let name = item.string ?? item["sportName"]?.string ?? item["sport"]?.string ?? item["name"]?.string else {
                throw Malformed("sport without name")
            }
            return SportCount(sport: sportSlug(name), name: name, count: item["count"]?.int ?? item["events"]?.int)
        }
    }

    /// Decodes one WebSocket message into normalized updates.
    static func message(_ text: String) throws -> [FeedUpdate] { try message(Array(text.utf8)) }

    /// The fast path when it handles the message, else the generic decoder (which agrees with it).
    static func message(_ bytes: [UInt8], cache: TickOddsMarketCache? = nil) throws -> [FeedUpdate] {
        try TickOddsFast.message(bytes, cache: cache) ?? genericMessage(bytes)
    }

    /// `message` of bytes read in place (copied only for the generic decoder).
    static func message(span bytes: UnsafeBufferPointer<UInt8>, cache: TickOddsMarketCache? = nil) throws -> [FeedUpdate] {
        try TickOddsFast.message(bytes, cache: cache) ?? genericMessage(Array(bytes))
    }

    /// Decodes through the `JSONValue` tree: the reference for the fast path, and its fallback.
    static func genericMessage(_ bytes: [UInt8]) throws -> [FeedUpdate] {
        let value = try parse(bytes)
        guard value.isObject, let type = value["type"]?.string else { throw Malformed("message without type") }
        switch type {
        case "snapshot":
            guard let list = value["events"]?.array else { throw Malformed("snapshot without events") }
            return [.snapshot(try list.map(event))]
        case "match_start":
            guard let e = value["event"] else { throw Malformed("match_start without event") }
            return [.upsert(try event(e))]
        case "update":
            return try update(value)
        case "match_end":
            guard let id = value["fixtureId"]?.text ?? value["event"]?["fixtureId"]?.text else {
                throw Malformed("match_end without fixtureId")
            }
            return [.status(eventID: id, status: .ended, period: value["event"]?["period"]?.string), .remove(eventID: id)]
        case "heartbeat":
            return [.heartbeat]
        default:
            return []
        }
    }

    static func update(_ value: JSONValue) throws -> [FeedUpdate] {
        guard let e = value["event"] else { throw Malformed("update without event") }
        return try UpdateFields(value).updates(refreshed: try event(e)) { incident(value["incident"], event: $0) }
    }

    /// An incident label ("Goal") or object, timed by the event's clock.
    static func incident(_ value: JSONValue?, event: Event) -> Incident {
        if let label = value?.string {
            return Incident(kind: IncidentKind(label: label), minute: event.minute, detail: label)
        }
        let label = value?["type"]?.string ?? value?["name"]?.string ?? "Incident"
        let team = value?["team"]?.string.flatMap(Side.init(rawValue:))
        return Incident(kind: IncidentKind(label: label), minute: value?["minute"]?.int ?? event.minute, team: team,
                        player: value?["player"]?.string, detail: label)
    }
}
