import Foundation
import NIOConcurrencyHelpers
import OddsJSON
import OddsModel
import OddsStore
import OddsTransport

/// BoltOdds: the multi-book odds stream, play-by-play and live scores over WebSocket, and REST
/// listings. Books are BoltOdds' sportsbooks; an event is a game, identified by its label.
public final class BoltOddsClient: OddsProvider, @unchecked Sendable {
    // @unchecked: `prepared` is behind `lock`; the rest is immutable (`initialStateTimeout` and `scoresWait` are set
    // before the first query, if at all).
    public let id = ProviderID.boltodds
    /// Documented.
    public static let defaultRESTURL = "https://spro.agency/api"
    public static let defaultWebSocketURL = "wss://spro.agency/api"
    /// Inferred: the docs leave these addresses out; public client code uses them.
    public static let defaultPlayByPlayURL = "wss://spro.agency/api/playbyplay"
    public static let defaultLiveScoresURL = "wss://spro.agency/api/livescores"
    /// Documented: 12 WebSocket connections a minute per IP.
    public static let connectionsPerMinute = 12
    /// Documented: 12 GET requests a minute per IP, up to 3 in quick succession. One per process.
    public static let getLimiter = BoltOddsClient.makeGetLimiter()

    /// A fresh limiter at the documented rate (tests give each client its own).
    /// 5 % under the limit: a server counting from a moment later must not see the fourth request early.
    public static func makeGetLimiter(clock: any FeedClock = SystemClock()) -> RateLimiter {
        RateLimiter(perSecond: 12.0 / 60 / 1.05, burst: 3, clock: clock)
    }

    let settings: ProviderSettings
    let transport: Transport
    let rest: RESTClient
    /// How long a one-shot answer waits for the odds stream's first game (tests under load give it longer).
    public var initialStateTimeout = BoltOddsClient.defaultInitialStateTimeout
    /// How long after the last new game a one-shot answer waits for games still without a live score, unless the
    /// scores have gone quiet (tests that check every game's score give it longer).
    public var scoresWait = BoltOddsClient.defaultScoresWait
    private let lock = NIOLock()
    private var prepared: BoltOddsFilters?
    private var infoObserver: (@Sendable (_ sports: [String], _ books: [String]) -> Void)?

    /// Told every `get_info` answer (the CLI caches the names for shell completion).
    public func observeInfo(_ observer: @escaping @Sendable (_ sports: [String], _ books: [String]) -> Void) {
        lock.withLock { infoObserver = observer }
    }

    public init(settings: ProviderSettings, transport: Transport, retry: BackoffPolicy = .rest,
                limiter: RateLimiter = BoltOddsClient.getLimiter) {
        self.settings = settings
        self.transport = transport
        var rest = RESTClient(provider: .boltodds, transport: transport, limiter: limiter, retry: retry)
        rest.limiterNote = "12 requests a minute"
        self.rest = rest
    }

    // MARK: - REST

    private func get(_ path: String, _ query: [(String, String)] = [], what: String) async throws -> JSONValue {
        let key = try settings.requireKey(.boltodds)
        let body = try await rest.get(appendQuery(joinURL(settings.restURL, path), query + [("key", key)]), headers: [], what: what)
        do { return try JSONParser.message(bytes: body) } catch {
            throw OddsError.provider(.boltodds, "unreadable answer for \(what) (\(error))")
        }
    }

    private func decode<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw OddsError.provider(.boltodds, "unexpected answer for \(what) (\(error))") }
    }

    /// `GET /get_info`: competitions ("sports") and sportsbooks as subscriptions spell them.
    public func info() async throws -> (sports: [String], books: [String]) {
        let v = try await get("/get_info", what: "sports and sportsbooks")
        let info = try decode("sports and sportsbooks") { try BoltOddsWire.info(v) }
        lock.withLock { infoObserver }?(info.sports, info.books)
        return info
    }

    /// `GET /get_games`: every supported game.
    public func games() async throws -> [BoltOddsGame] {
        let v = try await get("/get_games", what: "games")
        return try decode("games") { try BoltOddsWire.games(v) }
    }

    /// Game labels as filters spell them, for games named by label or by the short id tables show
    /// (`Event.shortID`), which is looked up in `get_games` (only when one is given).
    public func gameLabels(_ typed: [String]) async throws -> [String] {
        guard typed.contains(where: Event.isShortID) else { return typed }
        let labels = try await games().map(\.label)
        return try typed.map { t in
            guard Event.isShortID(t) else { return t }
            guard let label = labels.first(where: { Event.shortID(for: $0) == t }) else {
                throw OddsError.notFound("BoltOdds lists no game with the id '\(t)' (see odds boltodds games).")
            }
            return label
        }
    }

    /// `GET /get_markets?sportsbooks=&sports=`.
    public func markets(books: [String], leagues: [String]) async throws -> [BoltOddsMarkets] {
        var query: [(String, String)] = []
        if !books.isEmpty { query.append(("sportsbooks", books.joined(separator: ","))) }
        if !leagues.isEmpty { query.append(("sports", leagues.joined(separator: ","))) }
        let v = try await get("/get_markets", query, what: "markets")
        return try decode("markets") { try BoltOddsWire.markets(v) }
    }

    /// `GET /get_parlays?sportsbooks=B`: the parlays one book offers, as sent.
    public func parlays(book: String) async throws -> JSONValue {
        try await get("/get_parlays", [("sportsbooks", book)], what: "parlays of \(book)")
    }

    /// `GET /playbyplay/esports`: the esports games with play-by-play, as sent.
    public func esports() async throws -> JSONValue {
        try await get("/playbyplay/esports", what: "esports play-by-play games")
    }

    /// The scores endpoints, POSTed with `{"games":[...]}` and the key as `?key=`.
    public enum ScoresEndpoint: String, Sendable {
        case boxScores = "/boxscores", matchStats = "/match_stats", matchInfo = "/match_info"
        var what: String {
            switch self { case .boxScores: return "box scores"; case .matchStats: return "match stats"; case .matchInfo: return "match info" }
        }
    }

    /// `POST /boxscores`, `/match_stats` or `/match_info` for `games` (labels as `get_games` spells
    /// them): an object keyed by game, as sent; games with nothing to tell are absent.
    public func scores(_ endpoint: ScoresEndpoint, games: [String]) async throws -> JSONValue {
        let key = try settings.requireKey(.boltodds)
        let body = JSONOutput.object([("games", .array(games.map { .string($0) }))]).rendered
        let answer = try await rest.post(appendQuery(joinURL(settings.restURL, endpoint.rawValue), [("key", key)]), headers: [],
                                         json: Array(body.utf8), what: endpoint.what)
        do { return try JSONParser.message(bytes: answer) } catch {
            throw OddsError.provider(.boltodds, "unreadable answer for \(endpoint.what) (\(error))")
        }
    }

    // MARK: - What the user typed, as BoltOdds spells it

    /// Turns `--sport` (a sport such as "soccer", or a competition such as "NBA", any case) and
    /// `--book` into subscription filters, through `get_info`; an unknown value is a usage error
    /// that lists the close matches.
    public func resolve(sport: String?, books: [String], games: [String] = [], markets: [String] = []) async throws -> BoltOddsFilters {
        // "all" is no sport filter; several sports are one subscription with each.
        try await resolve(sports: SportSelection.sports(sport) ?? [], books: books, games: games, markets: markets)
    }

    /// As `resolve(sport:…)`, for several sports or competitions at once.
    public func resolve(sports: [String], books: [String], games: [String] = [], markets: [String] = []) async throws -> BoltOddsFilters {
        let info = try await info()
        let games = try await gameLabels(games)
        var filters = BoltOddsFilters(games: games.isEmpty ? nil : games, markets: markets.isEmpty ? nil : markets)
        if !sports.isEmpty { filters.sports = [] }
        for sport in sports {
            let typed = sport.lowercased()
            let exact = info.sports.filter { $0.lowercased() == typed || sportSlug($0) == typed }
            let bySport = info.sports.filter { BoltOddsLeagues.sport($0) == sportSlug(typed) }
            let leagues = exact.isEmpty ? bySport : exact
            guard !leagues.isEmpty else {
                // Close matches among the competitions and the sports they belong to.
                let sportsOffered = Array(Set(info.sports.map(BoltOddsLeagues.sport)).subtracting(["unknown"])).sorted()
                throw OddsError.usage("BoltOdds has no sport or competition '\(sport)'\(BoltOddsClient.closeMatches(sport, sportsOffered + info.sports))")
            }
            filters.sports! += leagues.filter { !filters.sports!.contains($0) }
        }
        if !books.isEmpty {
            filters.sportsbooks = try books.map { typed in
                guard let book = info.books.first(where: { $0.lowercased() == typed.lowercased() }) else {
                    throw OddsError.usage("BoltOdds has no sportsbook '\(typed)'\(BoltOddsClient.closeMatches(typed, info.books))")
                }
                return book
            }
        }
        return filters
    }

    /// The end of a refusal: "; did you mean A, B?" from the names nearest to `typed`, else "; it
    /// offers …." with a few of them, else ".".
    static func closeMatches(_ typed: String, _ names: [String]) -> String {
        let t = typed.lowercased()
        let near = names.filter { n in
            let l = n.lowercased()
            return l.contains(t) || t.contains(l) || editDistance(l, t) <= max(2, t.count / 3)
        }
        let shown = (near.isEmpty ? Array(names.prefix(8)) : Array(near.prefix(8)))
        guard !shown.isEmpty else { return "." }
        return near.isEmpty ? "; it offers \(shown.joined(separator: ", "))\(names.count > 8 ? ", …" : "")."
                            : "; did you mean \(shown.joined(separator: ", "))?"
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in 1...b.count {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }

    /// Subscribes later feeds with these filters (as resolved by `resolve`).
    public func use(_ filters: BoltOddsFilters) { lock.withLock { prepared = filters } }

    public func prepare(sport: String?, books: [String]) async throws {
        let filters = try await resolve(sport: sport, books: books)
        lock.withLock { prepared = filters }
    }

    // MARK: - Feeds

    /// The three connections (odds, play-by-play, live scores) sharing one game index.
    public func feedConnections(filters: BoltOddsFilters, pbpGames: [String]? = nil, scores: Bool = true, pbp: Bool = true) -> [any FeedAdapter] {
        BoltOddsClient.feedConnections(settings: settings, filters: filters, pbpGames: pbpGames, scores: scores, pbp: pbp,
                                       clock: transport.clock)
    }

    /// The connections of a feed with `settings` (no transport needed: the fuzzer and replays decode with them).
    public static func feedConnections(settings: ProviderSettings, filters: BoltOddsFilters, pbpGames: [String]? = nil,
                                       scores: Bool = true, pbp: Bool = true, clock: any FeedClock = SystemClock()) -> [any FeedAdapter] {
        let index = BoltOddsGameIndex()
        var feeds: [any FeedAdapter] = [BoltOddsOddsFeed(settings: settings, filters: filters, index: index, clock: clock)]
        if pbp { feeds.append(BoltOddsGamesFeed(kind: .pbp, settings: settings, games: pbpGames, index: index, clock: clock)) }
        if scores { feeds.append(BoltOddsGamesFeed(kind: .scores, settings: settings, games: pbpGames, index: index, clock: clock)) }
        return feeds
    }

    /// The filters `prepare` resolved, else the sport kept on the client (replays, and callers that
    /// did not prepare).
    private func currentFilters(sport: String?) -> BoltOddsFilters {
        lock.withLock { prepared } ?? BoltOddsFilters(sport: SportSelection.sports(sport).flatMap { $0.count == 1 ? $0[0] : nil })
    }

    public func feedConnections(sport: String?) -> [any FeedAdapter] {
        feedConnections(filters: currentFilters(sport: sport))
    }

    public func stream(sport: String?, stats: FeedStats) -> FeedStream {
        FeedRunner.run(feedConnections(sport: sport), transport: transport, stats: stats)
    }

    /// Inferred: the docs name a keepalive ping without its period.
    public var stalenessBound: TimeInterval { settings.options["silence_seconds"].flatMap(Double.init) ?? 90 }

    // MARK: - One-shot answers, from the stream

    /// How long the initial state may take, and how long without a new game ends it (BoltOdds sends
    /// it as a burst of messages with no end marker: inferred). Live scores, asked for once the games
    /// are known, get a moment more.
    public static let defaultInitialStateTimeout: TimeInterval = 20
    static let initialStateQuiet: TimeInterval = 1.0
    public static let defaultScoresWait: TimeInterval = 3.0

    /// The state after the initial burst of the odds stream (with live scores): BoltOdds has no
    /// REST endpoint for odds.
    public func liveEvents(sport: String?) async throws -> [Event] {
        let filters = currentFilters(sport: sport)
        let scoresWait = scoresWait
        // When the last new game appeared, and when live scores last spoke.
        let state = try await FeedRunner.collect(
            feedConnections(filters: filters, pbp: false), transport: transport,
            initial: (store: LiveStore(), lastNewGame: Date?.none, lastScore: Date?.none), poll: 0.1, timeout: initialStateTimeout,
            fold: { s, message in
                let before = s.store.events.count
                s.store.apply(message)
                if s.store.events.count > before { s.lastNewGame = Date() }
                if case .scoreboard = message.update { s.lastScore = Date() }
            },
            done: { s in
                guard let last = s.lastNewGame else { return false }
                let now = Date(), quiet = now.timeIntervalSince(last)
                guard quiet >= BoltOddsClient.initialStateQuiet else { return false }
                // Every game scored, or the scores gone quiet too (one game's score is not every game's), or none
                // within the grace.
                if s.store.events.values.allSatisfy({ $0.event.score != nil }) { return true }
                if let said = s.lastScore, now.timeIntervalSince(said) >= BoltOddsClient.initialStateQuiet { return true }
                return quiet >= scoresWait
            },
            timedOut: { s in
                guard s.lastNewGame != nil else {
                    throw OddsError.network("No odds from BoltOdds within \(Int(self.initialStateTimeout)) s.")
                }
                return s
            })
        let events = state.store.currentEvents(provider: .boltodds)
        let kept = SportSelection.sports(sport).map(Set.init)
        return events.filter { kept == nil || filters.sports != nil || kept!.contains($0.sport) }
    }

    public func liveSports() async throws -> [SportCount] {
        let games = try await games()
        var counts: [String: Int] = [:]
        for g in games { counts[g.league.map(BoltOddsLeagues.sport) ?? "unknown", default: 0] += 1 }
        return counts.keys.sorted().map { SportCount(sport: $0, name: $0, count: counts[$0]) }
    }

    public func liveEvent(id: String) async throws -> Event {
        if Event.isShortID(id) {
            // The short id tables show: the game is found among all live games.
            guard let event = try await liveEvents(sport: nil).first(where: { $0.shortID == id }) else {
                throw OddsError.notFound("BoltOdds has no live game with the id '\(id)'.")
            }
            return event
        }
        var filters = currentFilters(sport: nil)
        filters.games = [id]
        lock.withLock { prepared = filters }
        guard let event = try await liveEvents(sport: nil).first(where: { $0.id == id }) else {
            throw OddsError.notFound("BoltOdds has no live game '\(id)'.")
        }
        return event
    }
}
