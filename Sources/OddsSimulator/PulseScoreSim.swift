import Foundation
import NIOHTTP1
import OddsJSON

// PulseScore in the simulator: its wire format, REST answers and WebSocket broadcast. The shared
// core (server, world, connection life cycle) is in Simulator.swift, SimConnection.swift and SimHTTPHandler.swift;
// this file's connection class says what PulseScore's socket sends.

/// How the simulator writes PulseScore's JSON, following its published examples.
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
                    // A spread's line is in its name ("Boston Celtics -4.5"; inferred: Bet365 names it so).
                    .object([("name", .string(market.industryKey == "spreads" ? s.handicap.map { "\(s.name) \($0)" } ?? s.name : s.name)),
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


extension Simulator {
    func pulseScore(_ rest: String, _ query: [String: String]) -> (Int, String, [(String, String)]) {
        let parts = rest.split(separator: "/").map(String.init)
        let live = world.live(for: .pulsescore).filter { $0.phase != .ended }
        switch parts.first {
        case "live-events":
            if parts.count == 1 {
                let sport = query["sport"] ?? "soccer"
                return (200, JSONOutput.array(live.filter { $0.sport == sport }.map { PulseScoreFormat.event($0) }).rendered, [])
            }
            if parts.count == 2, parts[1] == "sports" {
                return (200, JSONOutput.array(Self.sportCounts(live).map {
                    .object([("sport", .string(PulseScoreFormat.sportName($0.0))), ("count", .int($0.1))])
                }).rendered, [])
            }
            if parts.count == 2, let serial = PulseScoreFormat.serial(fromFixtureID: parts[1]),
               let m = live.first(where: { $0.serial == serial }) {
                return (200, PulseScoreFormat.event(m).rendered, [])
            }
            return Self.error(404, "Event not found")
        default:
            // Pre-match: soccer at the root, other sports under their prefix.
            var sport = "soccer"
            var tail = parts[...]
            if let first = parts.first, first != "leagues", first != "events" {
                guard Self.pulseScorePrematchSports.contains(first), first != "soccer" else { return Self.error(404, "Not found") }
                sport = first
                tail = parts.dropFirst()
            }
            let leagues = world.prematch(for: .pulsescore).filter { $0.sport == sport }
            switch Array(tail) {
            case ["leagues"]:
                return (200, JSONOutput.array(leagues.map { league in
                    .object([("league", .string(league.name)), ("sport", .string(PulseScoreFormat.sportName(sport))),
                             ("live", .int(0)),
                             ("events", .array(league.fixtures.map { f in
                                 var fields: [(String, JSONOutput)] = [("home", .string(f.home))]
                                 if let away = f.away { fields.append(("away", .string(away))) }
                                 fields.append(("fi", .string(PulseScoreFormat.fixtureID(f.serial))))
                                 return .object(fields)
                             }))])
                }).rendered, [])
            case ["events"]:
                guard let name = query["league"], !name.isEmpty else { return Self.error(400, "league is required") }
                guard let league = leagues.first(where: { $0.name == name }) else { return (200, "[]", []) }
                let tab = query["tab"].flatMap { $0.isEmpty ? nil : $0 }
                return (200, JSONOutput.array(league.fixtures.map { PulseScoreFormat.event($0, tab: tab) }).rendered, [])
            case let p where p.count == 2 && p[0] == "events":
                // Pre-match fixtures, and live ones too: the docs' example fetches a live fixture id here.
                guard let serial = PulseScoreFormat.serial(fromFixtureID: p[1]),
                      let f = leagues.lazy.flatMap(\.fixtures).first(where: { $0.serial == serial })
                        ?? live.first(where: { $0.serial == serial && $0.sport == sport }) else {
                    return Self.error(404, "Event not found")
                }
                return (200, PulseScoreFormat.event(f).rendered, [])
            default:
                return Self.error(404, "Not found")
            }
        }
    }

}

/// A PulseScore WebSocket (`/ws/live?sport=…&key=…`): the whole live list of its sport on every tick.
final class PulseScoreConnection: SimConnection, @unchecked Sendable {
    init(sim: Simulator, head: HTTPRequestHead) {
        let (_, query) = splitURI(head.uri)
        super.init(sim: sim, provider: .pulsescore, key: query["key"] ?? "", sport: query["sport"])
    }

    override func start() {
        guard let plan = sim.options.keys[key] else { close(code: 4001, reason: "Authentication failed"); return }
        if sim.options.expiredKeys.contains(key) { close(code: 4010, reason: "API key expired"); return }
        if plan == .basic { close(code: 4003, reason: "Plan limit reached"); return }
        guard let sport, Simulator.pulseScoreSports.contains(sport) else { close(code: 4004, reason: "Invalid sport"); return }
        if sim.openConnections(provider: .pulsescore, key: key) > plan.connectionLimit {
            close(code: 4029, reason: "Connection limit reached"); return
        }
        closeAfterFirst = sim.takeCloseCode()
        broadcast()
    }

    override func wants(_ m: SimMatch) -> Bool { m.sport == sport }

    override func worldChanged(_ changes: [SimChange]) {
        guard isOpen, !sim.silent else { return }
        broadcast()
    }

    /// The whole live list of the connection's sport: PulseScore rebroadcasts it on every tick.
    func broadcast() {
        let matches = sim.world.live(for: .pulsescore).filter { $0.phase != .ended && wants($0) }
        send(PulseScoreFormat.broadcast(matches, timestamp: Int64(Date().timeIntervalSince1970 * 1000), padding: sim.padding))
    }
}

extension SimProvider {
    /// PulseScore: Bet365 through the PulseScore API.
    public static let pulsescore = SimProvider(rawValue: "pulsescore")
}

extension SimService {
    /// PulseScore's REST under /api/v2/bet365 (key in X-Secret, 3 requests a second) and its WebSocket.
    static let pulseScore = SimService(
        provider: .pulsescore, restPath: Simulator.pulseScoreBase, webSocketPath: Simulator.pulseScoreBase + "/ws/live",
        route: { sim, head, path, query, _ in
            guard path.hasPrefix(Simulator.pulseScoreBase) else { return nil }
            guard head.method == .GET else { return Simulator.error(405, "Method not allowed") }
            let key = head.headers.first(name: "X-Secret")
            return sim.guarded(key: key, rateLimited: true) { sim.pulseScore(String(path.dropFirst(Simulator.pulseScoreBase.count)), query) }
        },
        acceptsUpgrade: { _, _, path, _ in path == Simulator.pulseScoreBase + "/ws/live" ? true : nil },
        connect: { sim, channel, head, _ in channel.pipeline.addHandler(PulseScoreConnection(sim: sim, head: head)) })
}
