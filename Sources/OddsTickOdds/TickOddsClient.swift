import Foundation
import NIOConcurrencyHelpers
import OddsJSON
import OddsModel
import OddsTransport

/// TickOdds: REST snapshots and the live WebSocket with subscribe/unsubscribe.
public struct TickOddsClient: OddsProvider {
    public let id = ProviderID.tickodds
    /// Inferred: the docs give the REST paths but no host.
    public static let defaultRESTURL = "https://api.tickodds.com"
    /// Documented.
    public static let defaultWebSocketURL = "wss://api.tickodds.com/ws/live"
    /// The docs do not say how REST requests carry the key; this header is inferred (`key_header` overrides it).
    public static let defaultKeyHeader = "X-API-Key"
    /// Documented: the server sends a heartbeat every 15 s.
    public static let heartbeatInterval: TimeInterval = 15

    let settings: ProviderSettings
    let rest: RESTClient
    let transport: Transport

    public init(settings: ProviderSettings, transport: Transport, retry: BackoffPolicy = .rest) {
        self.settings = settings
        self.transport = transport
        self.rest = RESTClient(provider: .tickodds, transport: transport, limiter: nil, retry: retry)
    }

    /// Where a REST request carries the key: the docs do not say (the WebSocket's documented form is
    /// `?apiKey=`).
    enum KeyPlace: String, Sendable { case query, header
        var other: KeyPlace { self == .query ? .header : .query }
    }

    /// What worked, by REST base URL, for the rest of the process.
    static let learnedPlace = NIOLockedValueBox<[String: KeyPlace]>([:])

    private func request(_ path: String, what: String, key: String, in place: KeyPlace) async throws -> [UInt8] {
        let url = joinURL(settings.restURL, path)
        switch place {
        case .header:
            let header = settings.options["key_header"] ?? TickOddsClient.defaultKeyHeader
            return try await rest.get(url, headers: [(header, key)], what: what)
        case .query:
            return try await rest.get(appendQuery(url, [("apiKey", key)]), headers: [], what: what)
        }
    }

    /// The key goes where `key_in` says (default: the header); on a 401 the other place is tried once,
    /// and whichever worked is used from then on.
    private func get(_ path: String, what: String) async throws -> JSONValue {
        let key = try settings.requireKey(.tickodds)
        let base = settings.restURL
        let first = TickOddsClient.learnedPlace.withLockedValue { $0[base] }
            ?? settings.options["key_in"].flatMap(KeyPlace.init(rawValue:)) ?? .header
        let body: [UInt8]
        do {
            body = try await request(path, what: what, key: key, in: first)
            TickOddsClient.learnedPlace.withLockedValue { $0[base] = first }
        } catch OddsError.authentication {
            transport.logger.info("TickOdds: HTTP 401 with the key in the \(first.rawValue); trying the \(first.other.rawValue) once")
            body = try await request(path, what: what, key: key, in: first.other)
            TickOddsClient.learnedPlace.withLockedValue { $0[base] = first.other }
        }
        do { return try TickOddsWire.parse(body) } catch {
            throw OddsError.provider(.tickodds, "unreadable answer for \(what) (\(error))")
        }
    }

    private func decode<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw OddsError.provider(.tickodds, "unexpected answer for \(what) (\(error))") }
    }

    /// `GET /api/v1/live/events`, filtered to `sport` on the client (the endpoint takes no filter).
    public func liveEvents(sport: String?) async throws -> [Event] {
        let value = try await get("/api/v1/live/events", what: "live events")
        let events = try decode("live events") { try TickOddsWire.eventList(value) }
        guard let sports = SportSelection.sports(sport) else { return events }
        return events.filter { sports.contains($0.sport) }
    }

    /// `GET /api/v1/live/events/{fixtureId}`.
    public func liveEvent(id: String) async throws -> Event {
        let value = try await get("/api/v1/live/events/\(queryEscape(id))", what: "live event \(id)")
        return try decode("live event \(id)") { try TickOddsWire.event(value["event"] ?? value) }
    }

    /// `GET /api/v1/live/sports`.
    public func liveSports() async throws -> [SportCount] {
        let value = try await get("/api/v1/live/sports", what: "live sports")
        return try decode("live sports") { try TickOddsWire.sports(value) }
    }

    /// `GET /api/v1/live/status`: the live scraper's health, as flat key/value pairs.
    public func status() async throws -> [(String, String)] {
        let value = try await get("/api/v1/live/status", what: "live status")
        guard let object = value.object else { throw OddsError.provider(.tickodds, "unexpected answer for live status") }
        return object.keys.sorted().map { key in
            let v = object[key]!
            switch v {
            case .string(let s): return (key, s)
            case .number(let n): return (key, n)
            case .bool(let b): return (key, b ? "true" : "false")
            case .null: return (key, "null")
            default: return (key, String(describing: v))
            }
        }
    }

    public func feedConnections(sport: String?) -> [any FeedAdapter] { [TickOddsFeed(settings: settings, sport: sport)] }

    /// TickOdds documents no list of its sports: a sport is taken when `odds` knows it or TickOdds
    /// lists it live now (`/api/v1/live/sports`); any other is refused, with both lists.
    public func prepare(sport: String?, books: [String]) async throws {
        let unknown = (SportSelection.sports(sport) ?? []).filter { !SportSelection.known.contains($0) }
        guard !unknown.isEmpty else { return }
        let live = ((try? await liveSports()) ?? []).map(\.sport)
        for s in unknown where !live.contains(s) {
            throw OddsError.usage("TickOdds has no sport '\(s)'; sports: all, \(Array(Set(SportSelection.known + live)).sorted().joined(separator: ", ")).")
        }
    }

    public func stream(sport: String?, stats: FeedStats) -> FeedStream {
        FeedRunner.run(feedConnections(sport: sport), transport: transport, stats: stats)
    }

    /// Twice the heartbeat interval, as for the connection watchdog.
    public var stalenessBound: TimeInterval { TickOddsFeed(settings: settings, sport: nil).silenceLimit ?? 30 }

    /// TickOdds' sport names ("Soccer", "Ice Hockey") from a slug.
    public static func sportName(_ slug: String) -> String {
        slug.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }
}

/// The live WebSocket: subscribe on connect, then snapshot, match_start, update, match_end, heartbeat.
public final class TickOddsFeed: FeedAdapter {
    public let provider = ProviderID.tickodds
    let settings: ProviderSettings
    /// The sports kept (nil: every sport).
    let sports: Set<String>?
    /// Twice the heartbeat interval: a connection silent that long is dead.
    public let silenceLimit: TimeInterval?
    /// Events of other sports seen on this feed, whose updates are dropped.
    var otherSports: Set<String> = []
    /// Selections an odds update suspended, by event: the refreshed event that comes with the update
    /// does not say so, so they stay suspended until a later update of the selection reopens them.
    var suspendedByUpdate: [String: Set<SuspendedKey>] = [:]

    /// A selection within its event: its market and its identity there.
    struct SuspendedKey: Hashable { var marketID: String; var selection: SelectionRef }
    /// Market groups already read, to skip reading the unchanged ones of each refreshed event.
    let marketCache = TickOddsMarketCache()

    public init(settings: ProviderSettings, sport: String?) {
        self.settings = settings
        self.sports = SportSelection.sports(sport).map(Set.init)
        let heartbeat = settings.options["heartbeat_seconds"].flatMap(Double.init) ?? TickOddsClient.heartbeatInterval
        self.silenceLimit = 2 * heartbeat
    }

    public func endpoint() throws -> (url: String, headers: [(String, String)]) {
        let key = try settings.requireKey(.tickodds)
        return (appendQuery(settings.webSocketURL, [("apiKey", key)]), [])
    }

    public func didConnect(_ link: FeedLink) {
        link.send(TickOddsFeed.subscribeMessage(sports: sports.map { $0.sorted() }))
    }

    static func subscribeMessage(sports: [String]?) -> String {
        let names = sports?.map(TickOddsClient.sportName) ?? ["all"]
        return "{\"subscribe\":[\(names.map(JSONWriter.quote).joined(separator: ","))]}"
    }

    public func receive(_ frame: [UInt8], first: Bool) throws -> Inbound {
        try frame.withUnsafeBufferPointer { try receive(span: $0, first: first) }
    }

    public func receive(span frame: UnsafeBufferPointer<UInt8>, first: Bool) throws -> Inbound {
        receive(decoded: try TickOddsFeed.read(frame, cache: marketCache), first: first)
    }

    /// A reader with a market cache of its own: a frame's bytes alone say what it holds, and the
    /// cache is a memo of bytes read before, right whatever frames it saw.
    public func detachedDecoder() -> DetachedDecoder? {
        let cache = TickOddsMarketCache()
        return { try TickOddsFeed.read($0, cache: cache) }
    }

    /// A frame's updates, read with `cache`, which then forgets the fixtures they end.
    static func read(_ frame: UnsafeBufferPointer<UInt8>, cache: TickOddsMarketCache) throws -> [FeedUpdate] {
        let updates = try TickOddsWire.message(span: frame, cache: cache)
        cache.follow(updates)
        return updates
    }

    /// The connection's state applied to a frame's updates: suspensions kept, other sports dropped.
    public func receive(decoded: consuming [FeedUpdate], first: Bool) -> Inbound {
        var updates = decoded
        if updates.count == 1, case .heartbeat = updates[0] { return .keepalive }
        keepSuspensions(&updates)
        guard let sports else { return .data(updates) }
        // The snapshot holds every live event, whatever the subscription: keep this feed's sports only.
        return .data(updates.compactMap { update in
            switch update {
            case .snapshot(let events):
                let mine = events.filter { sports.contains($0.sport) }
                otherSports = Set(events.filter { !sports.contains($0.sport) }.map(\.id))
                return .snapshot(mine)
            case .upsert(let e):
                if !sports.contains(e.sport) { otherSports.insert(e.id); return nil }
                return update
            default:
                if let id = update.eventID, otherSports.contains(id) { return nil }
                return update
            }
        })
    }

    /// Records suspensions told by odds updates and applies them to the events that follow.
    func keepSuspensions(_ updates: inout [FeedUpdate]) {
        for i in updates.indices {
            // The usual update, a whole event sent again, is looked at without copying it out of the
            // list (switching on it copied the whole update, the size of its largest case, each time).
            if updates[i].isUpsert {
                // Most events have no suspension to keep: looked up before the event is taken out.
                guard !suspendedByUpdate.isEmpty, let id = updates[i].eventID, let keys = suspendedByUpdate[id], !keys.isEmpty,
                      case .upsert(var e) = updates[i] else { continue }
                updates[i] = .heartbeat
                TickOddsFeed.suspend(keys, in: &e)
                updates[i] = .upsert(e)
                continue
            }
            // Taken out of the list and put back, so that switching on it moves it instead of copying it.
            var update = FeedUpdate.heartbeat
            swap(&update, &updates[i])
            switch consume update {
            case .price(let p):
                if p.selection.suspended {
                    suspendedByUpdate[p.eventID, default: []].insert(SuspendedKey(marketID: p.marketID, selection: p.selection.ref))
                } else if suspendedByUpdate[p.eventID] != nil {
                    suspendedByUpdate[p.eventID]!.remove(SuspendedKey(marketID: p.marketID, selection: p.selection.ref))
                }
                updates[i] = .price(p)
            case .snapshot(var events):
                // A snapshot does not say a line reopened either: suspensions of its events still hold.
                let ids = Set(events.map(\.id))
                suspendedByUpdate = suspendedByUpdate.filter { ids.contains($0.key) }
                for j in events.indices {
                    if let keys = suspendedByUpdate[events[j].id] { TickOddsFeed.suspend(keys, in: &events[j]) }
                }
                updates[i] = .snapshot(events)
            case .remove(let id):
                suspendedByUpdate[id] = nil
                updates[i] = .remove(eventID: id)
            case let other:
                updates[i] = other
            }
        }
    }

    /// Marks the selections named by `keys` suspended (a few keys: each is looked for, rather than
    /// every selection hashed).
    static func suspend(_ keys: Set<SuspendedKey>, in e: inout Event) {
        for key in keys {
            for m in e.markets.indices where e.markets[m].id == key.marketID {
                for s in e.markets[m].selections.indices
                where !e.markets[m].selections[s].suspended && e.markets[m].selections[s].ref == key.selection {
                    e.markets[m].selections[s].suspended = true
                }
            }
        }
    }

    /// TickOdds documents no close codes: every close or drop reconnects with backoff. What stops
    /// the feed is a refusal at the upgrade (HTTP 401 bad key, 403), handled by the feed core.
    public func closeAction(code: Int?) -> CloseAction {
        guard let code else { return .reconnect(reason: "connection dropped") }
        return .reconnect(reason: "connection closed (code \(code))")
    }
}

