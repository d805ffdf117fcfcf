import Foundation
import NIOCore
import NIOHTTP1
import OddsJSON

extension Simulator {
    /// BoltOdds' play-by-play WebSocket URL (path inferred from public client code: `/api/playbyplay`).
    public var boltOddsPlayByPlayURL: String { webSocketURL(.boltodds) + "/playbyplay" }

    /// BoltOdds' live-scores WebSocket URL (path inferred from public client code: `/api/livescores`).
    public var boltOddsLiveScoresURL: String { webSocketURL(.boltodds) + "/livescores" }

    /// Sends `sport_clear` for `league` (a BoltOdds sport such as "EPL", or a world league such as
    /// "Premier League") and `book` on every subscribed BoltOdds odds socket whose filters include them.
    /// Those games are gone for the client until the next update re-adds them (as a whole `game_update`).
    public func boltOddsClearSport(_ league: String, book: String) async {
        await onLoop {
            let sport = BoltOdds.sportNames.first { $0.league == league }?.sport ?? league
            for case let c as BoltOddsConnection in self.connections.values { c.clear(sport: sport, book: book) }
        }
    }

    /// Sends `book_clear` for `book` on every subscribed BoltOdds odds socket whose filters include it.
    public func boltOddsClearBook(_ book: String) async {
        await onLoop {
            for case let c as BoltOddsConnection in self.connections.values { c.clear(sport: nil, book: book) }
        }
    }

    // MARK: - Admission

    /// Why a BoltOdds WebSocket upgrade is refused (status, message), or nil. Inferred: an unknown key is
    /// refused at the upgrade with 401 (the docs only say the ack means "validated"); the 13th connection
    /// within a minute (the docs: 12 per minute per IP; loopback has one IP, so per key) gets 429.
    func boltOddsRefusal(key: String?) -> (Int, String)? {
        guard let key, options.keys[key] != nil else { return (401, "Invalid or missing API key") }
        guard options.enforceRateLimit else { return nil }
        let now = NIODeadline.now()
        let window = TimeAmount.milliseconds(Int64(options.boltOddsConnectionWindow * 1000))
        let recent = boltOdds.connects[key, default: []].filter { now - $0 < window }
        boltOdds.connects[key] = recent
        if recent.count >= options.boltOddsConnectionsPerWindow {
            return (429, "Connection rate limit exceeded: at most \(options.boltOddsConnectionsPerWindow) new connections per minute")
        }
        return nil
    }

    /// Whether to upgrade a BoltOdds socket; an accepted upgrade counts towards the connection rate.
    func boltOddsAcceptsUpgrade(_ query: [String: String]) -> Bool {
        boltOdds.active = true
        guard boltOddsRefusal(key: query["key"]) == nil else { return false }
        if options.enforceRateLimit, let key = query["key"] { boltOdds.connects[key, default: []].append(.now()) }
        return true
    }

    /// GETs: 12 a minute with a burst of 3, as a token bucket (3 tokens, one back every 5 s). Nil when
    /// allowed; else the 429 answer with a Retry-After in whole seconds (inferred: the docs only say
    /// "rejected").
    func boltOddsTakeToken(_ key: String) -> (Int, String, [(String, String)])? {
        guard options.enforceRateLimit else { return nil }
        let now = NIODeadline.now()
        var bucket = boltOdds.buckets[key] ?? (tokens: 3, at: now)
        let seconds = Double((now - bucket.at).nanoseconds) / 1e9
        bucket.tokens = min(3, bucket.tokens + seconds / 5)
        bucket.at = now
        defer { boltOdds.buckets[key] = bucket }
        if bucket.tokens >= 1 {
            bucket.tokens -= 1
            return nil
        }
        rateLimited += 1
        var answer = Self.error(429, "Rate limit exceeded: 12 requests per minute")
        answer.2 = [("Retry-After", String(max(1, Int(((1 - bucket.tokens) * 5).rounded(.up)))))]
        return answer
    }

    // MARK: - REST

    /// BoltOdds' REST paths (everything under /api that is not PulseScore's or TickOdds'), or nil.
    func boltOddsRoute(_ head: HTTPRequestHead, path: String, query: [String: String], body: [UInt8]) -> (Int, String, [(String, String)])? {
        guard path == "/api" || path.hasPrefix("/api/"), !path.hasPrefix(Self.pulseScoreBase), !path.hasPrefix("/api/v1/live") else {
            return nil
        }
        boltOdds.active = true
        let key = query["key"]
        if BoltOddsFeed(path: path) != nil {
            // A WebSocket path without an upgrade, or an upgrade that was refused.
            if let (status, message) = boltOddsRefusal(key: key) {
                if status == 429 { rateLimited += 1 }
                return Self.error(status, message)
            }
            return Self.error(400, "Expected a WebSocket upgrade")
        }
        let gets = ["/api/get_info", "/api/get_games", "/api/get_markets", "/api/get_parlays", "/api/playbyplay/esports"]
        let posts = ["/api/boxscores", "/api/match_stats", "/api/match_info"]
        if gets.contains(path) {
            guard head.method == .GET else { return Self.error(405, "Method not allowed") }
            return guarded(key: key, rateLimited: false) {
                if let limited = self.boltOddsTakeToken(key ?? "") { return limited }
                return self.boltOddsGET(path, query)
            }
        }
        if posts.contains(path) {
            guard head.method == .POST else { return Self.error(405, "Method not allowed") }
            // The docs give POSTs no rate limit.
            return guarded(key: key, rateLimited: false) { self.boltOddsPOST(path, body) }
        }
        return Self.error(404, "Not found")
    }

    /// Live BoltOdds games (two sides), ended ones included when `ended`.
    func boltOddsLive(ended: Bool = false) -> [SimMatch] {
        world.live(for: .boltodds).filter { $0.away != nil && (ended || $0.phase != .ended) }.map { m in
            var m = m
            m.bookLagChance = options.bookLagChance
            return m
        }
    }

    static func list(_ value: String?) -> [String]? {
        guard let value, !value.isEmpty else { return nil }
        return value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    func boltOddsGET(_ path: String, _ query: [String: String]) -> (Int, String, [(String, String)]) {
        switch path {
        case "/api/get_info":
            return (200, JSONOutput.object([("sports", .array(BoltOdds.sports.map { .string($0) })),
                                            ("sportsbooks", .array(BoltOdds.books.map { .string($0) }))]).rendered, [])
        case "/api/get_games":
            // Live games and, inferred, the world's pre-match fixtures (listed, but never live: subscribing
            // to one on play-by-play answers the "not live" error).
            let fixtures = world.prematch(for: .boltodds).flatMap(\.fixtures).filter { $0.away != nil }
            var seen = Set<String>()
            var fields: [(String, JSONOutput)] = []
            for m in boltOddsLive() + fixtures {
                guard let label = BoltOdds.label(m), let away = m.away.map(BoltOdds.team), seen.insert(label).inserted else { continue }
                fields.append((label, .object([
                    ("when", .string(BoltOdds.when(m))), ("game", .string(label)), ("orig_teams", .string("\(BoltOdds.team(m.home)) vs \(away)")),
                    ("universal_id", .string(BoltOdds.universalID(m.serial))), ("sport", .string(BoltOdds.sport(ofLeague: m.league))),
                ])))
            }
            return (200, JSONOutput.object(fields).rendered, [])
        case "/api/get_markets":
            // Values not spelled as get_info spells them are ignored (inferred: they are left out).
            let books = Self.list(query["sportsbooks"]).map { wanted in BoltOdds.books.filter(wanted.contains) } ?? BoltOdds.books
            let sports = Self.list(query["sports"]).map { wanted in BoltOdds.sports.filter(wanted.contains) } ?? BoltOdds.sports
            return (200, JSONOutput.object(books.map { book in
                let b = BoltOdds.books.firstIndex(of: book) ?? 0
                return (book, .object(sports.compactMap { sport in
                    BoltOdds.worldSport(of: sport).map { (sport, .array(BoltOdds.markets(worldSport: $0, book: b).map { .string($0) })) }
                }))
            }).rendered, [])
        case "/api/get_parlays":
            guard let books = Self.list(query["sportsbooks"]) else { return Self.error(400, "sportsbooks is required") }
            return (200, JSONOutput.array(books.flatMap(boltOddsParlays)).rendered, [])
        default:
            // "/api/playbyplay/esports". Inferred shape: an array of {game, universal_id, sport}; the world
            // has no esports, so it is empty.
            return (200, "[]", [])
        }
    }

    /// Parlays for a book. Inferred: only DraftKings and FanDuel have parlay data; each parlay pairs lines of
    /// live games (same-game "SGP", two games "PARLAY", both "SGP_PLUS"), priced as the product of its legs.
    func boltOddsParlays(_ book: String) -> [JSONOutput] {
        guard ["draftkings", "fanduel"].contains(book), let b = BoltOdds.books.firstIndex(of: book) else { return [] }
        let games = boltOddsLive()
        var out: [JSONOutput] = []
        func legs(_ m: SimMatch, _ names: [String]) -> [(BoltOutcome, SimMatch)] {
            let outcomes = BoltOdds.outcomes(m, book: b)
            return names.compactMap { name in
                outcomes.first { $0.name == name && $0.overUnder != "Under" && $0.target != "Draw" && $0.target != "No" }
                    .flatMap { o in if case .price = o.odds { return (o, m) } else { return nil } }
            }
        }
        for (i, m) in games.enumerated() {
            let next = games[(i + 1) % games.count]
            let total = m.sport == "soccer" ? "Total Goals" : m.sport == "basketball" ? "Total Points" : "Spread"
            let kinds: [(String, [(BoltOutcome, SimMatch)])] = [
                ("SGP", legs(m, ["Moneyline", total])),
                ("PARLAY", legs(m, ["Moneyline"]) + legs(next, ["Moneyline"])),
                ("SGP_PLUS", legs(m, ["Moneyline", total]) + legs(next, ["Moneyline"])),
            ]
            let (type, chosen) = kinds[Int(BoltOdds.hash(m.serial, b) % 3)]
            guard chosen.count >= 2, next.serial != m.serial || type == "SGP" else { continue }
            var decimal = 1.0
            for (o, _) in chosen {
                guard case .price(let text) = o.odds, let v = Double(text) else { continue }
                decimal *= v > 0 ? 1 + v / 100 : 1 + 100 / -v
            }
            out.append(.object([
                ("odds", .string(BoltOdds.american(decimal))),
                ("total_bets", .int(100 + Int(BoltOdds.hash(m.serial, b, 4) % 5000))),
                ("type", .string(type)),
                ("legs", .object(chosen.map { o, g in
                    (o.key, .object([
                        ("game", .string(BoltOdds.label(g) ?? "")), ("sport", .string(BoltOdds.sport(ofLeague: g.league))),
                        ("universal_id", .string(BoltOdds.universalID(g.serial))), ("outcome_name", .string(o.name)),
                        ("outcome_line", .optionalString(o.line)), ("outcome_over_under", .optionalString(o.overUnder)),
                        ("outcome_target", .optionalString(o.target)),
                    ]))
                })),
            ]))
        }
        return out
    }

    /// The scores endpoints: {"games": [labels]} → an object keyed by label, live (and just ended) games only.
    func boltOddsPOST(_ path: String, _ body: [UInt8]) -> (Int, String, [(String, String)]) {
        // Inferred: a body that is not {"games": [strings]} is a 400.
        guard let value = try? JSONParser.parse(bytes: body), let items = value["games"]?.array else {
            return Self.error(400, "Body must be JSON: {\"games\": [\"<game>\", ...]}")
        }
        let labels = items.compactMap(\.string)
        guard labels.count == items.count else { return Self.error(400, "games must be an array of strings") }
        let games = boltOddsLive(ended: true)
        var fields: [(String, JSONOutput)] = []
        for label in labels where !fields.contains(where: { $0.0 == label }) {
            // Unknown or not live: simply absent ("nothing will be returned").
            guard let m = games.first(where: { BoltOdds.label($0) == label }) else { continue }
            let log = boltOddsLog(m)
            switch path {
            case "/api/boxscores": fields.append((label, BoltOddsPlays.boxScore(m, log)))
            case "/api/match_stats": fields.append((label, BoltOddsPlays.matchStats(m, log)))
            default: fields.append((label, BoltOddsPlays.matchInfo(m, log)))
            }
        }
        return (200, JSONOutput.object(fields).rendered, [])
    }
}

extension SimProvider {
    /// BoltOdds: many books, play-by-play and live scores.
    public static let boltodds = SimProvider(rawValue: "boltodds")
}

extension SimService {
    /// BoltOdds' REST under /api (GET and POST) and its three WebSockets (odds, play-by-play, live scores).
    static let boltOdds = SimService(
        provider: .boltodds, restPath: "/api", webSocketPath: "/api",
        options: { sim in [("pbp_url", sim.boltOddsPlayByPlayURL), ("scores_url", sim.boltOddsLiveScoresURL)] },
        route: { sim, head, path, query, body in sim.boltOddsRoute(head, path: path, query: query, body: body) },
        acceptsUpgrade: { sim, _, path, query in BoltOddsFeed(path: path) != nil ? sim.boltOddsAcceptsUpgrade(query) : nil },
        connect: { sim, channel, head, path in
            guard let feed = BoltOddsFeed(path: path) else { return channel.close() }
            return channel.pipeline.addHandler(BoltOddsConnection(sim: sim, head: head, feed: feed))
        },
        tick: { sim, changes in sim.boltOddsRecord(changes) })
}
