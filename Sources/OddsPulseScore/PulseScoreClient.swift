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
    public func liveEvents(sport: String?) async throws -> [Event] {
        let value = try await get("/live-events", query: [("sport", sport ?? "soccer")], what: "live events")
        return try decode("live events") { try PulseScoreWire.events(value, sport: sport ?? "soccer") }
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

    public func feedConnections(sport: String?) -> [any FeedAdapter] {
        [PulseScoreFeed(settings: settings, sport: sport ?? "soccer")]
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

    public init(settings: ProviderSettings, sport: String) {
        self.settings = settings
        self.sport = sport
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
        if first { return .data([.snapshot(events)]) }
        let changes = PulseScoreFeed.difference(from: previous, to: events)
        return changes.isEmpty ? .keepalive : .data(changes)
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
