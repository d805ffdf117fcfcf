import Foundation
import OddsJSON

/// How the simulator writes each provider's JSON, following the providers' published examples.
enum PulseScoreFormat {
    static func fixtureID(_ serial: Int) -> String { String(98_734_500 + serial) }

    static func serial(fromFixtureID id: String) -> Int? { Int(id).map { $0 - 98_734_500 } }

    static func sportName(_ slug: String) -> String {
        slug.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }

    static func event(_ m: SimMatch, tab: String? = nil) -> JSONOutput {
        var fields: [(String, JSONOutput)] = [
            ("fi", .string(fixtureID(m.serial))),
            ("sport", .string(sportName(m.sport))),
            ("league", .string(m.league)),
            ("home", .string(m.home)),
        ]
        if let away = m.away { fields.append(("away", .string(away))) }
        fields.append(("live", .int(m.phase == .notStarted ? 0 : 1)))
        fields.append(("tab", .string(tab ?? "Popular")))
        let markets = m.markets.filter { tab == nil || $0.tab == tab }
        fields.append(("mg", .array(markets.map { market in
            .object([
                ("name", .string(market.name)),
                ("ma", .array(market.selections.map { s in
                    // Suspended lines carry no price (the docs are silent; see the README).
                    .object([("name", .string(s.name)),
                             ("pa", .array(m.suspended || s.suspended ? [] : [.object([("decimal", .string(priceText(s.price)))])]))])
                })),
            ])
        })))
        return .object(fields)
    }

    static func broadcast(_ matches: [SimMatch], timestamp: Int64, padding: Int) -> String {
        var fields: [(String, JSONOutput)] = [("type", .string("data")), ("timestamp", .number(String(timestamp))),
                                              ("events", .array(matches.map { event($0) }))]
        if padding > 0 { fields.append(("padding", .string(String(repeating: "x", count: padding)))) }
        return JSONOutput.object(fields).rendered
    }
}

enum TickOddsFormat {
    static func fixtureID(_ serial: Int) -> String { String(191_691_400 + serial) }

    static func serial(fromFixtureID id: String) -> Int? { Int(id).map { $0 - 191_691_400 } }

    static func status(_ m: SimMatch) -> String {
        if m.suspended { return "suspended" }
        switch m.phase {
        case .live: return "in_progress"
        case .halfTime: return "half_time"
        case .ended: return "ended"
        case .notStarted: return "not_started"
        }
    }

    static func event(_ m: SimMatch) -> JSONOutput {
        let id = fixtureID(m.serial)
        var fields: [(String, JSONOutput)] = [
            ("fixtureId", .string(id)),
            ("sportName", .string(PulseScoreFormat.sportName(m.sport))),
            ("league", .string(m.league)),
            ("home", .string(m.home)),
            ("away", m.away.map { .string($0) } ?? .null),
            ("score", .string("\(m.scoreHome)-\(m.scoreAway)")),
            ("clock", m.clock.map { .string($0) } ?? .null),
            ("period", .string(m.period)),
            ("status", .string(status(m))),
        ]
        fields.append(("marketGroups", .array(m.markets.map { market in
            .object([
                ("name", .string(market.name)),
                ("key", .string(market.key)),
                ("industryKey", .string(market.industryKey)),
                ("period", .string("full_game")),
                ("type", .string("simple")),
                ("selections", .array(market.selections.map { selection($0, market: market, fixtureID: id, suspended: m.suspended) })),
            ])
        })))
        var flat: [JSONOutput] = []
        var legacy: [(String, JSONOutput)] = []
        for market in m.markets {
            for s in market.selections {
                flat.append(.object([
                    ("id", .string("\(id):\(market.key):full_game:\(s.side)")),
                    ("marketKey", .string(market.key)),
                    ("industryKey", .string(market.industryKey)),
                    ("period", .string("full_game")),
                    ("side", .string(s.side)),
                    ("price", .number(priceText(s.price))),
                    ("groupingKey", .string("\(market.key):full_game")),
                ]))
            }
            legacy.append((market.name, .object(market.selections.map { ($0.name, .number(priceText($0.price))) })))
        }
        fields.append(("odds", .array(flat)))
        fields.append(("legacyOdds", .object(legacy)))
        return .object(fields)
    }

    static func selection(_ s: SimSelection, market: SimMarket, fixtureID: String, suspended: Bool) -> JSONOutput {
        var fields: [(String, JSONOutput)] = [
            ("id", .string("\(fixtureID):\(market.key):full_game:\(s.side)")),
            ("name", .string(s.name)),
            // Decimal odds are JSON numbers in TickOdds; the literal keeps two places ("4.50").
            ("odds", .number(priceText(s.price))),
            ("side", .string(s.side)),
            ("team", ["home", "away"].contains(s.side) ? .string(s.side) : .null),
            ("isMain", .bool(true)),
            // No `suspended` here: the docs' event selections carry none. A suspended line is told by
            // the odds update's selection (and a suspended match by its status), so the client must
            // keep it from there.
        ]
        if let h = s.handicap { fields.append(("handicap", .number(h))) }
        return .object(fields)
    }

    static func snapshot(_ matches: [SimMatch], padding: Int) -> String {
        var fields: [(String, JSONOutput)] = [("type", .string("snapshot")), ("count", .int(matches.count)),
                                              ("events", .array(matches.map(event)))]
        if padding > 0 { fields.append(("padding", .string(String(repeating: "x", count: padding)))) }
        return JSONOutput.object(fields).rendered
    }

    /// The wire messages for one world change.
    static func messages(for change: SimChange, world: SimWorld) -> [String] {
        switch change {
        case .started(let s):
            guard let m = world.match(s) else { return [] }
            return [JSONOutput.object([("type", .string("match_start")), ("event", event(m))]).rendered]
        case .removed:
            return []
        case .ended(let s):
            guard let m = world.match(s) else { return [] }
            return [JSONOutput.object([("type", .string("match_end")), ("fixtureId", .string(fixtureID(s))),
                                       ("event", event(m))]).rendered]
        case .score(let s, let from, let to):
            return update(s, world: world, change: "score", extra: [("from", .string(from)), ("to", .string(to))])
        case .period(let s, let from, let to):
            return update(s, world: world, change: "period", extra: [("from", .string(from)), ("to", .string(to))])
        case .incident(let s, let incident):
            return update(s, world: world, change: "incident", extra: [("incident", .string(incident.label))])
        case .suspended(let s, _):
            return update(s, world: world, change: "suspended", extra: [])
        case .odds(let s, let mi, let si, _):
            guard let m = world.match(s), mi < m.markets.count, si < m.markets[mi].selections.count else { return [] }
            let market = m.markets[mi]
            let sel = market.selections[si]
            let selection: [(String, JSONOutput)] = [
                ("id", .string("\(fixtureID(s)):\(market.key):full_game:\(sel.side)")),
                ("name", .string(sel.name)),
                ("odds", .number(priceText(sel.price))),
                ("handicap", sel.handicap.map { .number($0) } ?? .null),
                ("suspended", .bool(m.suspended || sel.suspended)),
            ]
            return update(s, world: world, change: "odds",
                          extra: [("selection", .object(selection)), ("marketName", .string(market.name))])
        }
    }

    static func update(_ serial: Int, world: SimWorld, change: String, extra: [(String, JSONOutput)]) -> [String] {
        guard let m = world.match(serial) else { return [] }
        let fields: [(String, JSONOutput)] = [("type", .string("update")), ("fixtureId", .string(fixtureID(serial))),
                                              ("change", .string(change)), ("event", event(m))] + extra
        return [JSONOutput.object(fields).rendered]
    }

    static func heartbeat(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        return JSONOutput.object([("type", .string("heartbeat")), ("timestamp", .string(f.string(from: date)))]).rendered
    }
}
