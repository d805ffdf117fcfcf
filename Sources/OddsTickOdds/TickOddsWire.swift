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

    static func event(_ value: JSONValue) throws -> Event {
        guard value.isObject else { throw Malformed("expected an event object") }
        guard let id = value["fixtureId"]?.text, !id.isEmpty else { throw Malformed("event without fixtureId") }
        guard let home = value["home"]?.string else { throw Malformed("event \(id) without home") }
        let away = value["away"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        // A missing sport stays unknown: guessing "Soccer" would file a tennis match under football.
        let sportName = value["sportName"]?.string ?? value["sport"]?.string ?? "unknown"
        let league = value["league"]?.string ?? value["leagueName"]?.string ?? value["competition"]?.string
        var markets: [Market] = []
        if let groups = value["marketGroups"]?.array {
            for group in groups { markets.append(try market(group)) }
        } else if let flat = value["odds"]?.array {
            markets = try marketsFromFlatOdds(flat)
        }
        let suspended = value["status"]?.string == "suspended"
        if suspended {
            for m in markets.indices { for s in markets[m].selections.indices { markets[m].selections[s].suspended = true } }
        }
        return Event(provider: .tickodds, id: id, sport: sportSlug(sportName), league: league, home: home, away: away,
                     status: status(value["status"]?.string),
                     startTime: value["startTime"]?.string.flatMap(parseDate),
                     score: value["score"]?.string.flatMap(Score.init(text:)),
                     clock: value["clock"]?.string, period: value["period"]?.string, markets: markets)
    }

    static func parseDate(_ s: String) -> Date? {
        ISODate.parse(s)
    }

    static func marketID(key: String, period: String?) -> String {
        "\(key):\(period ?? "full_game")"
    }

    static func market(_ group: JSONValue) throws -> Market {
        guard let name = group["name"]?.string else { throw Malformed("market group without name") }
        let key = group["key"]?.string ?? sportSlug(name)
        let id = marketID(key: key, period: group["period"]?.string)
        var selections: [Selection] = []
        for item in group["selections"]?.array ?? [] {
            selections.append(try selection(item, fallbackID: nil))
        }
        return Market(id: id, name: name, book: book, selections: selections)
    }

    static func selection(_ item: JSONValue, fallbackID: String?) throws -> Selection {
        guard let name = item["name"]?.text else { throw Malformed("selection without name") }
        let odds = item["odds"] ?? item["price"]
        let price = odds?.text.flatMap { Price(decimal: $0) }
        let suspended = (item["suspended"]?.bool ?? false) || price == nil
        let id = item["side"]?.string ?? fallbackID ?? name
        let line = item["handicap"]?.text ?? item["line"]?.text
        return Selection(id: id, name: name, line: line, price: price, suspended: suspended)
    }

    /// Builds markets from the flat `odds[]` list when `marketGroups` is absent.
    static func marketsFromFlatOdds(_ flat: [JSONValue]) throws -> [Market] {
        var order: [String] = []
        var byID: [String: Market] = [:]
        for item in flat {
            guard let key = item["marketKey"]?.string, let side = item["side"]?.string else {
                throw Malformed("flat odds entry without marketKey/side")
            }
            let id = marketID(key: key, period: item["period"]?.string)
            let price = item["price"]?.text.flatMap { Price(decimal: $0) }
            let selection = Selection(id: side, name: item["name"]?.string ?? side, line: item["handicap"]?.text,
                                      price: price, suspended: price == nil)
            if byID[id] == nil { order.append(id); byID[id] = Market(id: id, name: item["marketName"]?.string ?? key, book: book, selections: []) }
            byID[id]!.selections.append(selection)
        }
        return order.map { byID[$0]! }
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

    static func message(_ bytes: [UInt8]) throws -> [FeedUpdate] {
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
        let refreshed = try event(e)
        let id = value["fixtureId"]?.text ?? refreshed.id
        guard let change = value["change"]?.string else { throw Malformed("update without change") }
        var updates: [FeedUpdate] = []
        switch change {
        case "score":
            guard let to = value["to"]?.string.flatMap(Score.init(text:)) ?? refreshed.score else {
                throw Malformed("score update without a readable score")
            }
            updates.append(.score(eventID: id, from: value["from"]?.string.flatMap(Score.init(text:)), to: to))
        case "period":
            updates.append(.status(eventID: id, status: refreshed.status, period: value["to"]?.string ?? refreshed.period))
        case "incident":
            updates.append(.incident(eventID: id, incident(value["incident"], event: refreshed)))
        case "suspended":
            updates.append(.status(eventID: id, status: refreshed.status, period: refreshed.period))
        case "odds":
            if let s = value["selection"], s.isObject {
                let sid = s["id"]?.text
                // Selection ids look like "fixture:marketKey:period:side".
                let parts = sid?.split(separator: ":").map(String.init) ?? []
                let marketID = parts.count >= 4 ? "\(parts[1]):\(parts[2])" : (value["marketKey"]?.string ?? "")
                let selection = try selection(s, fallbackID: parts.count >= 4 ? parts[3] : nil)
                let name = value["marketName"]?.string ?? refreshed.markets.first { $0.id == marketID }?.name ?? marketID
                updates.append(.price(PriceUpdate(eventID: id, marketID: marketID, marketName: name, book: book,
                                                  selection: selection)))
            }
        default:
            break
        }
        updates.append(.upsert(refreshed))
        return updates
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
