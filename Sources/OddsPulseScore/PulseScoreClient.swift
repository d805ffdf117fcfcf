import Foundation
import OddsJSON
import OddsModel
import OddsTransport

/// PulseScore (Bet365 odds): REST with `X-Secret`, and the live WebSocket broadcast.
public struct PulseScoreClient: OddsProvider {
    public let id = ProviderID.pulsescore
    /// Documented by PulseScore.
    public static let defaultRESTURL = "https://api.pulsescore.net/api/v2/bet365"
    /// Documented by PulseScore.
    public static let defaultWebSocketURL = "wss://api.pulsescore.net/api/v2/bet365/ws/live"
    /// Not in PulseScore's docs (inferred from a public guide); `live_sports_path` overrides it.
    public static let defaultLiveSportsPath = "/live-events/sports"
    /// Not in PulseScore's docs (inferred from a public guide); `live_event_path` overrides it.
    public static let defaultLiveEventPath = "/live-events/{id}"
    /// The documented limit is 3 requests a second; requests are spaced 350 ms apart (about 2.86 a
    /// second), a margin for clock skew and network jitter, never exactly at the limit.
    public static let requestsPerSecond = 1 / 0.35

    let settings: ProviderSettings
    let rest: RESTClient
    let transport: Transport
    /// The sports `--sport all` resolved to in `prepare` (those live now).
    let resolved = ResolvedSports()

    /// Documented: the sports of `live-events?sport=` and the live WebSocket.
    public static let liveSportSlugs = ["soccer", "tennis", "basketball", "ice-hockey", "volleyball", "handball", "table-tennis",
                                        "e-sports", "american-football", "baseball", "rugby-league", "rugby-union"]
    /// Documented: MAX plans have 3 WebSocket connections (PRO 1); `ws_connections` sets how many
    /// `--sport all` may open.
    public static let defaultWebSocketConnections = 3

    /// Thread-safe holder of the sports `prepare` resolved.
    public final class ResolvedSports: @unchecked Sendable {
        // @unchecked: `sports` is behind `lock`.
        private let lock = NSLock()
        private var sports: [String]?
        var value: [String]? { get { lock.lock(); defer { lock.unlock() }; return sports } set { lock.lock(); sports = newValue; lock.unlock() } }
    }

    /// The sports a `--sport` value names for PulseScore: those given, or for "all" the sports live
    /// now (as `prepare` found them), else every documented one.
    func sports(_ sport: String?) -> [String] {
        if SportSelection.isAll(sport) { return resolved.value ?? PulseScoreClient.liveSportSlugs }
        return SportSelection.sports(sport) ?? ["soccer"]
    }

    /// Refuses a sport PulseScore does not document, and resolves "all" to the sports live now.
    public func prepare(sport: String?, books: [String]) async throws {
        for s in SportSelection.sports(sport) ?? [] where !PulseScoreClient.liveSportSlugs.contains(PulseScoreClient.wireSport(s)) {
            throw OddsError.usage("PulseScore has no live sport '\(s)'; sports: all, \(PulseScoreClient.liveSportSlugs.joined(separator: ", ")).")
        }
        guard SportSelection.isAll(sport) else { return }
        let live = (try? await liveSports())?.filter { ($0.count ?? 1) > 0 }.map { PulseScoreClient.wireSport($0.sport) }
            .filter(PulseScoreClient.liveSportSlugs.contains)
        resolved.value = live.flatMap { $0.isEmpty ? nil : $0 } ?? PulseScoreClient.liveSportSlugs
    }

    /// PulseScore's spelling of a sport slug ("esports" is "e-sports").
    static func wireSport(_ slug: String) -> String { slug == "esports" ? "e-sports" : slug }

    /// One limiter per process: every PulseScore client shares the 3 req/s budget.
    static let limiter = RateLimiter(perSecond: requestsPerSecond)

    public init(settings: ProviderSettings, transport: Transport, retry: BackoffPolicy = .rest) {
        self.settings = settings
        self.transport = transport
        self.rest = RESTClient(provider: .pulsescore, transport: transport, limiter: PulseScoreClient.limiter, retry: retry)
    }

    private func get(_ path: String, query: [(String, String)] = [], what: String) async throws -> JSONValue {
        let key = try settings.requireKey(.pulsescore)
        let url = appendQuery(joinURL(settings.restURL, path), query)
        let body = try await rest.get(url, headers: [("X-Secret", key)], what: what)
        do { return try PulseScoreWire.parse(body) } catch {
            throw OddsError.provider(.pulsescore, "unreadable answer for \(what) (\(error))")
        }
    }

    private func decode<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw OddsError.provider(.pulsescore, "unexpected answer for \(what) (\(error))") }
    }

    /// `GET /live-events?sport=` — live events with their market groups.
    /// Several sports (or "all") are one request each, within the rate limit.
    public func liveEvents(sport: String?) async throws -> [Event] {
        var events: [Event] = []
        for s in sports(sport) {
            let value = try await get("/live-events", query: [("sport", PulseScoreClient.wireSport(s))], what: "live events")
            events += try decode("live events") { try PulseScoreWire.events(value, sport: s) }
        }
        return events
    }

    /// Sports with live events (path inferred, configurable).
    public func liveSports() async throws -> [SportCount] {
        let path = settings.options["live_sports_path"] ?? PulseScoreClient.defaultLiveSportsPath
        let value = try await get(path, what: "live sports")
        return try decode("live sports") { try PulseScoreWire.sports(value) }
    }

    /// One live event (path inferred, configurable). When that path answers 404, the documented
    /// event lookup `/events/{fi}` (whose example in the docs is a live fixture) is asked once.
    public func liveEvent(id: String) async throws -> Event {
        let template = settings.options["live_event_path"] ?? PulseScoreClient.defaultLiveEventPath
        let value: JSONValue
        do {
            value = try await get(template.replacingOccurrences(of: "{id}", with: queryEscape(id)), what: "live event \(id)")
        } catch OddsError.notFound {
            transport.logger.info("PulseScore: \(template) answered 404; asking the documented /events/\(id)")
            return try await event(sport: "soccer", fixtureID: id)
        }
        return try decode("live event \(id)") { try PulseScoreWire.event(value) }
    }

    /// Pre-match paths: soccer at the root, every other sport under its own prefix.
    static func prematchPath(sport: String, _ rest: String) -> String {
        sport == "soccer" ? rest : "/\(queryEscape(sport))\(rest)"
    }

    /// `GET [/{sport}]/leagues` — pre-match leagues with their fixtures.
    public func leagues(sport: String) async throws -> [League] {
        let value = try await get(PulseScoreClient.prematchPath(sport: sport, "/leagues"), what: "\(sport) leagues")
        return try decode("\(sport) leagues") { try PulseScoreWire.leagues(value, sport: sport) }
    }

    /// `GET [/{sport}]/events?league=&tab=` — pre-match events of one league.
    public func events(sport: String, league: String, tab: String?) async throws -> [Event] {
        var query = [("league", league)]
        if let tab { query.append(("tab", tab)) }
        let value = try await get(PulseScoreClient.prematchPath(sport: sport, "/events"), query: query,
                                  what: "\(sport) events of \(league)")
        return try decode("\(sport) events") { try PulseScoreWire.events(value) }
    }

    /// `GET [/{sport}]/events/{fi}` — one pre-match event.
    public func event(sport: String, fixtureID: String) async throws -> Event {
        let value = try await get(PulseScoreClient.prematchPath(sport: sport, "/events/\(queryEscape(fixtureID))"),
                                  what: "event \(fixtureID)")
        return try decode("event \(fixtureID)") { try PulseScoreWire.event(value) }
    }

    public var stalenessBound: TimeInterval { PulseScoreFeed(settings: settings, sport: "soccer").silenceLimit ?? 120 }

    /// One WebSocket per sport; for "all", as many as the plan allows (`ws_connections`, 3), the
    /// sports live now first (the rest are named once on stderr).
    public func feedConnections(sport: String?) -> [any FeedAdapter] {
        var list = sports(sport)
        if SportSelection.isAll(sport) {
            let limit = settings.options["ws_connections"].flatMap(Int.init).map { max(1, $0) } ?? PulseScoreClient.defaultWebSocketConnections
            if list.count > limit {
                transport.logger.warning("PulseScore: \(limit) WebSocket connections at most (ws_connections); streaming \(list.prefix(limit).joined(separator: ", ")), not \(list.dropFirst(limit).joined(separator: ", ")).")
                list = Array(list.prefix(limit))
            }
        }
        // One connection keeps the name "live"; several are named by their sport, so that each one's
        // broadcast replaces only its own sport's events, and a recording keeps them apart.
        return list.map { PulseScoreFeed(settings: settings, sport: PulseScoreClient.wireSport($0), named: list.count > 1) }
    }

    /// The connection a recording names `pulsescore/live-<sport>` (a multi-sport stream), when
    /// `sport` asks for that sport (or for none, or all).
    public func feedConnection(named feed: String, sport: String?) -> (any FeedAdapter)? {
        let prefix = "pulsescore/live-"
        guard feed.hasPrefix(prefix), feed.count > prefix.count else { return nil }
        let recorded = String(feed.dropFirst(prefix.count))
        if let asked = SportSelection.sports(sport), !asked.map(PulseScoreClient.wireSport).contains(recorded) { return nil }
        return PulseScoreFeed(settings: settings, sport: recorded, named: true)
    }

    public func stream(sport: String?, stats: FeedStats) -> FeedStream {
        FeedRunner.run(feedConnections(sport: sport), transport: transport, stats: stats)
    }
}

/// The live broadcast: each message carries every live event of the sport. The adapter turns the
/// first message of a connection into a snapshot and later ones into the differences.
public final class PulseScoreFeed: FeedAdapter {
    public let provider = ProviderID.pulsescore
    let settings: ProviderSettings
    let sport: String
    var previous: [String: Event] = [:]
    /// The last broadcast's events with their bytes: unchanged ones are not read again.
    let eventCache = PulseScoreEventCache()
    public var silenceLimit: TimeInterval?
    /// "live", or "live-<sport>" for one of several connections.
    public let connectionName: String

    public init(settings: ProviderSettings, sport: String, named: Bool = false) {
        self.settings = settings
        self.sport = sport
        self.connectionName = named ? "live-\(sport)" : "live"
        self.silenceLimit = settings.options["silence_seconds"].flatMap(Double.init) ?? 120
    }

    public func endpoint() throws -> (url: String, headers: [(String, String)]) {
        let key = try settings.requireKey(.pulsescore)
        return (appendQuery(settings.webSocketURL, [("key", key), ("sport", sport)]), [])
    }

    /// The first broadcast of a connection is a snapshot, later ones their differences. A broadcast
    /// identical to the last (the feed rebroadcasts every tick) is proof of life, as is a message of
    /// another type.
    public func receive(_ frame: [UInt8], first: Bool) throws -> Inbound {
        let decoded: [Event]?
        switch PulseScoreFast.broadcast(frame, sport: sport, cache: eventCache) {
        case .events(let e): decoded = e
        case .notData: decoded = nil
        case .fallback: decoded = try PulseScoreWire.broadcast(frame, sport: sport)
        }
        guard let events = decoded else { return .keepalive }
        defer { previous = Dictionary(events.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }) }
        let stamp = { frame.withUnsafeBufferPointer { ProviderTime.read($0, key: "timestamp") } }
        if first { return Inbound.data([.snapshot(events)]).stamped(stamp()) }
        let changes = PulseScoreFeed.difference(from: previous, to: events)
        return changes.isEmpty ? .keepalive : Inbound.data(changes).stamped(stamp())
    }

    /// Normalized updates that turn `old` into `new`.
    static func difference(from old: [String: Event], to new: [Event]) -> [FeedUpdate] {
        var updates: [FeedUpdate] = []
        var seen = Set<String>()
        for event in new {
            seen.insert(event.id)
            guard let before = old[event.id] else { updates.append(.upsert(event)); continue }
            if before == event { continue }
            var priceOnly = before.league == event.league && before.home == event.home && before.away == event.away
                && before.status == event.status && before.markets.count == event.markets.count
            var prices: [FeedUpdate] = []
            if priceOnly {
                for (a, b) in zip(before.markets, event.markets) {
                    guard a.id == b.id, a.selections.count == b.selections.count else { priceOnly = false; break }
                    for (s, t) in zip(a.selections, b.selections) where s != t {
                        guard s.id == t.id else { priceOnly = false; break }
                        prices.append(.price(PriceUpdate(eventID: event.id, marketID: b.id, marketName: b.name, book: b.book,
                                                     selection: t)))
                    }
                }
            }
            if priceOnly { updates += prices } else { updates.append(.upsert(event)) }
        }
        for id in old.keys.sorted() where !seen.contains(id) { updates.append(.remove(eventID: id)) }
        return updates
    }

    public func closeAction(code: Int?) -> CloseAction {
        switch code {
        case 4001: return .stop(.authentication(.pulsescore, "authentication failed (close 4001)"))
        case 4003: return .stop(.accessDenied(.pulsescore, "plan limit reached (close 4003); the WebSocket needs a PRO or MAX plan"))
        case 4004: return .stop(.usage("PulseScore does not stream the sport '\(sport)' (close 4004, invalid sport)."))
        case 4005: return .stop(.accessDenied(.pulsescore, "bookmaker access denied (close 4005)"))
        case 4010: return .stop(.authentication(.pulsescore, "API key expired (close 4010)"))
        case 4011: return .reconnect(reason: "plan changed, reconnect required (close 4011)")
        case 4012: return .reconnect(reason: "session replaced by a new connection (close 4012)")
        case 4029: return .stop(.accessDenied(.pulsescore, "connection limit of the plan reached (close 4029)"))
        case nil: return .reconnect(reason: "connection dropped")
        case let c?: return .reconnect(reason: "connection closed (code \(c))")
        }
    }
}
