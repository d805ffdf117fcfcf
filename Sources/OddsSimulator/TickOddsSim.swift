import Foundation
import NIOHTTP1
import OddsJSON

// TickOdds in the simulator: its wire format, REST answers, upgrade refusals and WebSocket messages.

/// How the simulator writes TickOdds' JSON, following its published examples.
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
            guard let m = world.match(s, for: .tickodds) else { return [] }
            return [JSONOutput.object([("type", .string("match_start")), ("event", event(m))]).rendered]
        case .removed:
            return []
        case .ended(let s):
            guard let m = world.match(s, for: .tickodds) else { return [] }
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
            guard let m = world.match(s, for: .tickodds), mi < m.markets.count, si < m.markets[mi].selections.count else { return [] }
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
        guard let m = world.match(serial, for: .tickodds) else { return [] }
        let fields: [(String, JSONOutput)] = [("type", .string("update")), ("fixtureId", .string(fixtureID(serial))),
                                              ("change", .string(change)), ("event", event(m))] + extra
        return [JSONOutput.object(fields).rendered]
    }

    static func heartbeat(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        return JSONOutput.object([("type", .string("heartbeat")), ("timestamp", .string(f.string(from: date)))]).rendered
    }
}

extension Simulator {
    /// Why a TickOdds upgrade is refused (status, message), or nil when it is accepted.
    func tickOddsRefusal(key: String?) -> (Int, String)? {
        guard let key, let plan = options.keys[key] else { return (401, "Invalid or missing API key") }
        if plan == .basic { return (403, "The live feed requires the Live plan") }
        if openConnections(provider: .tickodds, key: key) >= options.tickOddsConnectionLimit {
            return (429, "Connection limit reached")
        }
        return nil
    }

    func tickOdds(_ rest: String) -> (Int, String, [(String, String)]) {
        let live = world.live(for: .tickodds).filter { $0.phase != .ended }
        let parts = rest.split(separator: "/").map(String.init)
        switch parts {
        case ["events"]:
            return (200, JSONOutput.object([("count", .int(live.count)), ("events", .array(live.map(TickOddsFormat.event)))]).rendered, [])
        case let p where p.count == 2 && p[0] == "events":
            guard let serial = TickOddsFormat.serial(fromFixtureID: p[1]), let m = live.first(where: { $0.serial == serial }) else {
                return Self.error(404, "Event not found")
            }
            return (200, TickOddsFormat.event(m).rendered, [])
        case ["sports"]:
            return (200, JSONOutput.array(Self.sportCounts(live).map {
                .object([("sportName", .string(PulseScoreFormat.sportName($0.0))), ("count", .int($0.1))])
            }).rendered, [])
        case ["status"]:
            return (200, JSONOutput.object([
                ("status", .string("ok")), ("scraperHealthy", .bool(true)), ("liveEvents", .int(live.count)),
                ("connectedClients", .int(connections.values.filter { $0.provider == .tickodds }.count)),
                ("ticks", .int(world.tickCount)),
            ]).rendered, [])
        default:
            return Self.error(404, "Not found")
        }
    }

}

/// A TickOdds WebSocket (`/ws/live?apiKey=…`): the snapshot on connect, then each change, with heartbeats and pings.
final class TickOddsConnection: SimConnection, @unchecked Sendable {
    init(sim: Simulator, head: HTTPRequestHead) {
        let (_, query) = splitURI(head.uri)
        super.init(sim: sim, provider: .tickodds, key: query["apiKey"] ?? "", sport: nil)
    }

    override func start() {
        guard sim.options.keys[key] != nil else { close(code: 4001, reason: "Authentication failed"); return }
        // Plan and connection limit were checked at the upgrade: TickOdds documents no close codes.
        closeAfterFirst = sim.takeCloseCode()
        // "Sent once on connect — current state of all live events"; a subscribe filters what follows.
        sendSnapshot()
        let hb = Int64(sim.options.heartbeatInterval * 1000)
        if let t = context?.eventLoop.scheduleRepeatedTask(initialDelay: .milliseconds(hb), delay: .milliseconds(hb), { [weak self] _ in
            guard let self, !self.sim.silent else { return }
            self.send(TickOddsFormat.heartbeat(Date()))
        }) { timers.append(t) }
        // Only TickOdds documents server pings.
        let ping = Int64(sim.options.pingInterval * 1000)
        if let t = context?.eventLoop.scheduleRepeatedTask(initialDelay: .milliseconds(ping), delay: .milliseconds(ping), { [weak self] _ in
            self?.ping()
        }) { timers.append(t) }
    }

    override func wants(_ m: SimMatch) -> Bool {
        guard let subs = subscriptions else { return true }
        return subs.contains("all") || subs.contains(PulseScoreFormat.sportName(m.sport))
    }

    override func worldChanged(_ changes: [SimChange]) {
        guard isOpen, !sim.silent, snapshotSent else { return }
        for change in changes {
            let m = sim.world.match(change.serial)
            if let m, !wants(m) || !SimWorld.carries(m, .tickodds) { continue }
            for message in TickOddsFormat.messages(for: change, world: sim.world) { send(message) }
        }
    }

    /// A subscribe or unsubscribe message (TickOdds' only client messages).
    override func received(_ text: String) {
        guard let value = try? JSONParser.parse(text) else { return }
        var subs = subscriptions ?? []
        for name in value["subscribe"]?.array ?? [] { if let s = name.string { subs.insert(s) } }
        for name in value["unsubscribe"]?.array ?? [] { if let s = name.string { subs.remove(s) } }
        subscriptions = subs
    }

    /// A snapshot whose events are not a list stands in for one of the malformed messages.
    override func malformed(_ i: Int) -> String {
        i % SimConnection.malformed.count == 2 ? "{\"type\":\"snapshot\",\"events\":7}" : super.malformed(i)
    }

    func sendSnapshot() {
        guard isOpen, !snapshotSent else { return }
        snapshotSent = true
        let matches = sim.world.live(for: .tickodds).filter { $0.phase != .ended && wants($0) }
        send(TickOddsFormat.snapshot(matches, padding: sim.padding))
    }
}

extension SimProvider {
    /// TickOdds.
    public static let tickodds = SimProvider(rawValue: "tickodds")
}

extension SimService {
    /// TickOdds' REST under /api/v1/live (no documented rate limit) and its WebSocket /ws/live. It
    /// documents no close codes: what it refuses, it refuses at the upgrade, answered by the REST side
    /// (401 bad key; inferred: 403 without the Live plan, 429 over 50 connections).
    static let tickOdds = SimService(
        provider: .tickodds, restPath: "", webSocketPath: "/ws/live",
        route: { sim, head, path, query, _ in
            guard path.hasPrefix("/api/v1/live") || path == "/ws/live" else { return nil }
            guard head.method == .GET else { return Simulator.error(405, "Method not allowed") }
            if path == "/ws/live" {
                if let (status, message) = sim.tickOddsRefusal(key: query["apiKey"]) { return Simulator.error(status, message) }
                return Simulator.error(400, "Expected a WebSocket upgrade")
            }
            let key = head.headers.first(name: "X-API-Key") ?? query["apiKey"]
            return sim.guarded(key: key, rateLimited: false) { sim.tickOdds(String(path.dropFirst("/api/v1/live".count))) }
        },
        acceptsUpgrade: { sim, _, path, query in path == "/ws/live" ? sim.tickOddsRefusal(key: query["apiKey"]) == nil : nil },
        connect: { sim, channel, head, _ in channel.pipeline.addHandler(TickOddsConnection(sim: sim, head: head)) })
}
