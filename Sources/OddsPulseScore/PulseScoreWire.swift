import Foundation
import OddsJSON
import OddsModel

/// PulseScore's wire format (`fi`, `mg`, `ma`, `pa`), kept internal to this module.
/// This is the decoding seam: everything PulseScore sends becomes model values here.
enum PulseScoreWire {
    typealias Malformed = MalformedMessage

    static func parse(_ text: String) throws -> JSONValue { try JSONParser.message(text) }

    static func parse(_ bytes: [UInt8]) throws -> JSONValue { try JSONParser.message(bytes: bytes) }

    /// `sport`: the sport (slug) the request or connection asked for, for events that do not say.
    static func events(_ value: JSONValue, sport: String? = nil) throws -> [Event] {
        guard let list = value.array else { throw Malformed("expected an array of events") }
        return try list.map { try event($0, sport: sport) }
    }

    /// An event without `sport` is of the sport asked for, else of sport `unknown` (never guessed).
    static func event(_ value: JSONValue, sport: String? = nil) throws -> Event {
        guard value.isObject else { throw Malformed("expected an event object") }
        guard let fi = value["fi"]?.text, !fi.isEmpty else { throw Malformed("event without fi") }
        guard let home = value["home"]?.string else { throw Malformed("event \(fi) without home") }
        let away = value["away"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        let sportName = value["sport"]?.string ?? sport ?? "unknown"
        let live = value["live"]?.bool ?? false
        var markets: [Market] = []
        var seen: [String: Int] = [:]
        for group in value["mg"]?.array ?? [] {
            guard let name = group["name"]?.string else { throw Malformed("market group without name in \(fi)") }
            let n = seen[name, default: 0]
            seen[name] = n + 1
            let id = n == 0 ? name : "\(name)#\(n + 1)"
            markets.append(Market(id: id, name: name, book: ProviderID.pulsescore.singleBook,
                                  selections: try selections(group, marketName: name)))
        }
        return Event(provider: .pulsescore, id: fi, sport: sportSlug(sportName), league: value["league"]?.string,
                     home: home, away: away, status: live ? .live : .scheduled, markets: markets)
    }

    static func selections(_ group: JSONValue, marketName: String) throws -> [Selection] {
        var result: [Selection] = []
        var seen: [String: Int] = [:]
        // Once per market, not per selection: the profile showed Foundation's string search here.
        let hasLines = marketHasLines(marketName)
        for item in group["ma"]?.array ?? [] {
            guard let name = item["name"]?.text else { throw Malformed("selection without name in \(marketName)") }
            let n = seen[name, default: 0]
            seen[name] = n + 1
            let pa = item["pa"]?.array?.first
            let text = pa?["decimal"]?.text ?? ""
            let price = Price(decimal: text)
            // The docs do not say how a suspended line looks; an empty `pa`, an empty or non-numeric
            // price, or a `suspended`/`su` flag all mean suspended.
            let flagged = (item["suspended"]?.bool ?? false) || (item["su"]?.bool ?? false)
                || (pa?["suspended"]?.bool ?? false) || (pa?["su"]?.bool ?? false)
            result.append(Selection(id: n == 0 ? name : "\(name)#\(n + 1)", name: name,
                                    line: hasLines ? line(in: name) : nil, price: price,
                                    suspended: flagged || price == nil))
        }
        return result
    }

    /// The handicap or total carried in a selection name ("Over 2.5" → "2.5") for line markets.
    /// Over/under, handicap, total and spread markets carry a line in their selection names (inferred).
    static func marketHasLines(_ market: String) -> Bool {
        let m = Array(market.lowercased().utf8)
        return ["over", "under", "handicap", "total", "spread"].contains { word in
            let w = Array(word.utf8)
            guard m.count >= w.count else { return false }
            return (0...(m.count - w.count)).contains { i in m[i..<(i + w.count)].elementsEqual(w) }
        }
    }

    /// The line of a selection name ("Over 2.5" → "2.5", "Arsenal (-1.5)" → "-1.5").
    static func line(in name: String) -> String? {
        guard let last = name.split(separator: " ").last else { return nil }
        var token = Substring(last)
        while token.first == "(" || token.first == ")" { token.removeFirst() }
        while token.last == "(" || token.last == ")" { token.removeLast() }
        return Rational(decimalText: token) != nil ? String(token) : nil
    }

    static func line(in name: String, market: String) -> String? {
        marketHasLines(market) ? line(in: name) : nil
    }

    static func sports(_ value: JSONValue) throws -> [SportCount] {
        guard let list = value.array else { throw Malformed("expected an array of sports") }
        return try list.map { item in
            guard let name = item["sport"]?.string ?? item.string else { throw Malformed("sport without name") }
            return SportCount(sport: sportSlug(name), name: name, count: item["count"]?.int)
        }
    }

    static func leagues(_ value: JSONValue, sport: String) throws -> [League] {
        guard let list = value.array else { throw Malformed("expected an array of leagues") }
        return try list.map { item in
            guard let name = item["league"]?.string else { throw Malformed("league without name") }
            let sportName = item["sport"]?.string.map(sportSlug) ?? sport
            let live = item["live"]?.bool ?? false
            let fixtures: [Event] = try (item["events"]?.array ?? []).map { e in
                guard let fi = e["fi"]?.text, let home = e["home"]?.string else { throw Malformed("league event without fi/home") }
                return Event(provider: .pulsescore, id: fi, sport: sportName, league: name, home: home,
                             away: e["away"]?.string.flatMap { $0.isEmpty ? nil : $0 }, status: live ? .live : .scheduled)
            }
            return League(name: name, sport: sportName, live: live, events: fixtures)
        }
    }

    /// A broadcast from the live WebSocket: `{"type":"data","timestamp":…,"events":[…]}`.
    /// Returns nil for message types that carry no events.
    static func broadcast(_ text: String, sport: String? = nil) throws -> [Event]? { try broadcast(Array(text.utf8), sport: sport) }

    static func broadcast(_ bytes: [UInt8], sport: String? = nil) throws -> [Event]? {
        let value = try parse(bytes)
        guard value.isObject else { throw Malformed("expected a message object") }
        guard let type = value["type"]?.string else { throw Malformed("message without type") }
        guard type == "data" else { return nil }
        guard let events = value["events"] else { throw Malformed("data message without events") }
        return try self.events(events, sport: sport)
    }
}
