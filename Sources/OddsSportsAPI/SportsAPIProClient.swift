import Foundation
import NIOConcurrencyHelpers
import OddsModel
import OddsStore
import OddsTransport

/// Runs a feed into a store until `done` says so (checked every 50 ms), the feed ends, or
/// `timeout` passes; returns the store. SportsAPIPro has no REST: one-shot answers come from the
/// WebSocket's snapshots.
///
/// `done` is told how many updates (connection states aside) the store has taken; an adapter's
/// count of what it passed on, read after its own readiness, says whether the store has caught up.
func collect(_ adapters: [any FeedAdapter], transport: Transport, timeout: TimeInterval, what: String, into store: LiveStore = LiveStore(),
             failed: (LiveStore, Error) throws -> LiveStore = { throw $1 },
             done: @escaping @Sendable (LiveStore, _ applied: Int) -> Bool) async throws -> LiveStore {
    try await FeedRunner.collect(adapters, transport: transport, initial: (store: store, applied: 0), poll: 0.05, timeout: timeout,
                                 fold: { s, message in
                                     s.store.apply(message)
                                     if case .connection = message.update {} else { s.applied += 1 }
                                 },
                                 done: { done($0.store, $0.applied) },
                                 timedOut: { _ in throw OddsError.network("No \(what) within \(Int(timeout)) s.") },
                                 failed: { (try failed($0.store, $1), $0.applied) }).store
}

/// When a one-shot answer is complete: its channels have settled, and the store has caught up with what the
/// feed had passed on when they did. (Not with what the feed passes on since: a busy feed, a dozen odds channels
/// changing every second, never lets a store catch up with a count that keeps moving.)
final class Settling: Sendable {
    private let mark = NIOLockedValueBox<Int?>(nil)

    /// `emitted` is read only once `settled` is true (the feed counts a snapshot before it marks it).
    func done(applied: Int, emitted: @autoclosure () -> Int, _ settled: () -> Bool) -> Bool {
        mark.withLockedValue { mark in
            if mark == nil {
                guard settled() else { return false }
                mark = emitted()
            }
            return applied >= mark!
        }
    }
}

/// SportsAPIPro v2: live scores, and per match score, incidents, statistics, odds and lineups, all
/// over one channel WebSocket.
public final class SportsAPIProClient: OddsProvider, @unchecked Sendable {
    // @unchecked: immutable once the first query runs (`answerTimeout` is set before, if at all).
    public let id = ProviderID.sportsapi
    /// Documented.
    public static let defaultWebSocketURL = "wss://v2.football.sportsapipro.com/ws"
    /// v2 has no REST API in its docs; kept for configuration symmetry.
    public static let defaultRESTURL = "https://v2.football.sportsapipro.com"
    /// Seconds a channel may stay without a snapshot after it was confirmed before a one-shot
    /// answer is given without it (the docs send one "if available").
    public static let defaultSnapshotWait: TimeInterval = 2
    /// Seconds a one-shot query (v2 and v1) waits for the socket's answer before it gives up (exit 7).
    public static let defaultAnswerTimeout: TimeInterval = 15
    /// `defaultAnswerTimeout`, unless set before the first query (tests that run many simulators at once on
    /// two cores give their clients longer).
    public var answerTimeout = SportsAPIProClient.defaultAnswerTimeout
    /// `defaultSnapshotWait`, unless set before the first query (a test's client on two starved cores may apply
    /// a confirmation and not the snapshot sent with it for longer than a network would hold the snapshot back).
    public var snapshotWait = SportsAPIProClient.defaultSnapshotWait

    let settings: ProviderSettings
    let transport: Transport

    public init(settings: ProviderSettings, transport: Transport) {
        self.settings = settings
        self.transport = transport
    }

    /// The `x-sport` value for a sport as typed; a sport v2 does not serve is a usage error.
    public static func sportHeader(_ sport: String?) throws -> String? {
        guard let sport else { return nil }
        guard let value = SportsAPIProSports.v2Value(sport) else {
            throw OddsError.usage("SportsAPIPro v2 has no sport '\(sport)'; it serves \(SportsAPIProSports.v2.map(SportsAPIProSports.slug).joined(separator: ", ")).")
        }
        return value
    }

    /// The `x-sport` header and live-scores channels of a `--sport` value: one sport is the header
    /// and `live-scores`; several, or "all", are one `live-scores:{sport}` channel each on one
    /// connection (documented channels), without a header.
    public static func liveScores(_ sport: String?) throws -> (header: String?, channels: [SportsAPIProChannel]) {
        if SportSelection.isAll(sport) { return (nil, SportsAPIProSports.v2.map { .liveScores(sport: $0) }) }
        guard let sports = SportSelection.sports(sport), sports.count > 1 else { return (try sportHeader(sport), [.liveScores(sport: nil)]) }
        return (nil, try sports.map { .liveScores(sport: try sportHeader($0)!) })
    }

    public func prepare(sport: String?, books: [String]) async throws { _ = try SportsAPIProClient.liveScores(sport) }

    /// The feed of `channels`, by default the live scores of the sports asked for (nil: the
    /// server's default, football; several or "all": a live-scores channel each).
    public func feed(sport: String?, channels: [SportsAPIProChannel]? = nil) throws -> SportsAPIProFeed {
        let (header, scores) = try SportsAPIProClient.liveScores(sport)
        return SportsAPIProFeed(settings: settings, sport: header, channels: channels ?? scores)
    }

    public static func feedConnections(settings: ProviderSettings, sport: String?) -> [any FeedAdapter] {
        let (header, channels) = (try? liveScores(sport)) ?? (nil, [.liveScores(sport: nil)])
        return [SportsAPIProFeed(settings: settings, sport: header, channels: channels)]
    }

    public func feedConnections(sport: String?) -> [any FeedAdapter] {
        SportsAPIProClient.feedConnections(settings: settings, sport: sport)
    }

    public func stream(sport: String?, stats: FeedStats) -> FeedStream {
        FeedRunner.run(feedConnections(sport: sport), transport: transport, stats: stats)
    }

    /// Two missed pings.
    public var stalenessBound: TimeInterval { 2 * SportsAPIProFeed.pingInterval + 10 }

    /// Live matches now with their odds: the live-scores channel's snapshot, then, on the same connection,
    /// the odds channel of each match it lists (the table's 1 / X / 2 is each selection's best price across
    /// the books), at most `oddsLimit` of them. The odds are a bonus to the scores: channels the server does
    /// not answer within `oddsWait`, or refuses (a plan without odds), leave their matches without prices,
    /// and a warning says so once.
    public func liveEvents(sport: String?) async throws -> [Event] { try await live(sport: sport, prices: true) }

    /// The live matches from the live-scores snapshot alone: no match's odds channel is asked for.
    public func liveList(sport: String?) async throws -> [Event] { try await live(sport: sport, prices: false) }

    /// The live matches; with `prices`, each with its odds (at most `oddsLimit` odds channels).
    func live(sport: String?, prices withPrices: Bool) async throws -> [Event] {
        let (header, channels) = try SportsAPIProClient.liveScores(sport)
        let feed = SportsAPIProFeed(settings: settings, sport: header, channels: channels)
        let slugs = SportSelection.sports(sport).map { Set($0.compactMap(SportsAPIProSports.v2Value).map(SportsAPIProSports.slug)) }
        let wanted: @Sendable (Event) -> Bool = { e in
            (e.status == .live || e.status == .halftime || e.status == .suspended) && (slugs == nil || slugs!.contains(e.sport) || e.sport == "unknown")
        }
        let limit = withPrices ? oddsLimit : 0, wait = oddsWait, snapshotWait = snapshotWait
        let scores = Settling(), prices = Settling()
        let asked = NIOLockedValueBox<(odds: [SportsAPIProChannel], of: Int, at: Date)?>(nil)
        var refusedByPlan: String?
        let store = try await collect([feed], transport: transport, timeout: answerTimeout, what: "live scores from SportsAPIPro", failed: { store, error in
            // Stopped after the scores came (the odds channels refused as a plan's limit): the scores are the answer.
            guard asked.withLockedValue({ $0 }) != nil, case OddsError.accessDenied(_, let text) = error else { throw error }
            refusedByPlan = text
            return store
        }) { store, applied in
            guard scores.done(applied: applied, emitted: feed.emitted, { feed.settled(channels, quiet: snapshotWait) }) else {
                return false
            }
            let (odds, at) = asked.withLockedValue { asked in
                if let asked { return (asked.odds, asked.at) }
                let live = store.currentEvents(provider: .sportsapi).filter(wanted)
                let odds = live.prefix(limit).map { SportsAPIProChannel.odds($0.id) }
                asked = (odds, live.count, Date())
                feed.subscribe(odds)
                return (odds, asked!.at)
            }
            // Each match's odds snapshot, or its channel quiet for as long as the scores' may be; not past `oddsWait`.
            return prices.done(applied: applied, emitted: feed.emitted) { feed.settled(odds, quiet: snapshotWait) }
                || Date().timeIntervalSince(at) > wait
        }
        if let (odds, of, _) = asked.withLockedValue({ $0 }) {
            // The live list alone (a look-up) asks for no odds on purpose: nothing was left out.
            if withPrices, odds.count < of {
                transport.logger.warning("SportsAPIPro v2: odds asked for the first \(odds.count) of \(of) live matches (each match's odds is a channel of its own)")
            }
            // Settled channels include refused ones: what is not settled now was not answered in time.
            let unanswered = odds.filter { !feed.settled([$0], quiet: snapshotWait) }.count
            let refused = feed.refusedChannels.intersection(odds.map(\.name)).count
            if let refusedByPlan {
                transport.logger.warning("SportsAPIPro v2 refused the odds channels (\(ProviderText.excerpt(refusedByPlan))): the table shows scores without odds")
            } else if unanswered + refused > 0 {
                transport.logger.warning("SportsAPIPro v2: no odds for \(unanswered + refused) of \(odds.count) matches (\(refused) refused, \(unanswered) unanswered within \(Int(wait)) s)")
            }
        }
        return store.currentEvents(provider: .sportsapi).filter(wanted)
    }

    /// Seconds the odds channels may take to answer a one-shot query once the scores are in.
    public var oddsWait: TimeInterval = 5

    /// Most live matches whose odds a one-shot query subscribes to (each is a channel the server keeps for
    /// the connection; the docs ask clients to subscribe only to what they use).
    public var oddsLimit = 250

    /// v2 lists no live sports: its documented sports, without counts.
    public func liveSports() async throws -> [SportCount] {
        SportsAPIProSports.v2.map { SportCount(sport: SportsAPIProSports.slug($0), name: $0, count: nil) }
    }

    public func liveEvent(id: String) async throws -> Event {
        try await match(id: id, parts: SportsAPIProChannel.all(match: id))
    }

    /// One match as its channels' snapshots give it: `parts` are the channels to ask (the match
    /// channel is always added, for the teams and score).
    public func match(id: String, parts: [SportsAPIProChannel]) async throws -> Event {
        guard !id.isEmpty, id.count <= 64, id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw OddsError.usage("'\(id)' is not a match id.")
        }
        var list: [SportsAPIProChannel] = [.match(id)]
        for p in parts where !list.contains(p) { list.append(p) }
        let channels = list
        let feed = try self.feed(sport: nil, channels: channels)
        let answered = Settling(), snapshotWait = snapshotWait
        // A match that has ended is still the match asked about.
        var admitting = LiveStore()
        admitting.admitsEnded = true
        let store = try await collect([feed], transport: transport, timeout: answerTimeout, what: "answer from SportsAPIPro for match \(id)",
                                      into: admitting) { _, applied in
            answered.done(applied: applied, emitted: feed.emitted) { feed.settled(channels, quiet: snapshotWait) }
        }
        guard let event = store.currentEvents(provider: .sportsapi).first(where: { $0.id == id }) else {
            throw OddsError.notFound("SportsAPIPro has no match '\(id)'.")
        }
        return event
    }
}

/// SportsAPIPro v1: live scores of nine sports over one WebSocket per sport's host.
public final class SportsAPIProV1Client: OddsProvider, @unchecked Sendable {
    // @unchecked: immutable once the first query runs (`answerTimeout` is set before, if at all).
    /// As `SportsAPIProClient.answerTimeout`.
    public var answerTimeout = SportsAPIProClient.defaultAnswerTimeout
    /// As `SportsAPIProClient.snapshotWait`.
    public var snapshotWait = SportsAPIProClient.defaultSnapshotWait
    public let id = ProviderID.sportsapiV1
    /// Documented, with the sport in the host.
    public static let defaultWebSocketURL = "wss://v1.{sport}.sportsapipro.com/ws"
    public static let defaultRESTURL = "https://v1.{sport}.sportsapipro.com"
    /// The host's sport when none is asked for (the docs' example).
    public static let defaultHostSport = "football"

    let settings: ProviderSettings
    let transport: Transport

    public init(settings: ProviderSettings, transport: Transport) {
        self.settings = settings
        self.transport = transport
    }

    /// v1's slug for a sport as typed; a sport v1 does not serve is a usage error.
    public static func sportValue(_ sport: String?) throws -> String? {
        guard let sport else { return nil }
        guard let value = SportsAPIProSports.v1Value(sport) else {
            throw OddsError.usage("SportsAPIPro v1 has no sport '\(sport)'; it serves \(SportsAPIProSports.v1.map(SportsAPIProSports.slug).joined(separator: ", ")).")
        }
        return value
    }

    /// The host sport and channels of a `--sport` value: one sport is its host and channel; "all"
    /// is the documented `live` channel (every sport); several are one channel each on the first's host.
    public static func channels(_ sport: String?) throws -> (host: String, channels: [String]) {
        guard let sports = SportSelection.sports(sport) else { return (defaultHostSport, ["live"]) }
        let values = try sports.map { try sportValue($0)! }
        return (values[0], values)
    }

    public func prepare(sport: String?, books: [String]) async throws { _ = try SportsAPIProV1Client.channels(sport) }

    /// A feed on the host of `sport` with these channels (none: the server's `all`).
    public func feed(sport: String?, channels: [String]) throws -> SportsAPIProV1Feed {
        SportsAPIProV1Feed(settings: settings, hostSport: try SportsAPIProV1Client.channels(sport).host, channels: channels)
    }

    public static func feedConnections(settings: ProviderSettings, sport: String?) -> [any FeedAdapter] {
        let (host, channels) = (try? channels(sport)) ?? (defaultHostSport, ["live"])
        return [SportsAPIProV1Feed(settings: settings, hostSport: host, channels: channels)]
    }

    public func feedConnections(sport: String?) -> [any FeedAdapter] {
        SportsAPIProV1Client.feedConnections(settings: settings, sport: sport)
    }

    public func stream(sport: String?, stats: FeedStats) -> FeedStream {
        FeedRunner.run(feedConnections(sport: sport), transport: transport, stats: stats)
    }

    /// Documented: updates every 1–2 s.
    public var stalenessBound: TimeInterval { 60 }

    /// Live games now: the first `scores` message of the sport's channel (or `live`).
    public func liveEvents(sport: String?) async throws -> [Event] {
        let (host, channels) = try SportsAPIProV1Client.channels(sport)
        let feed = SportsAPIProV1Feed(settings: settings, hostSport: host, channels: channels)
        let answered = Settling(), snapshotWait = snapshotWait
        let store = try await collect([feed], transport: transport, timeout: answerTimeout, what: "scores from SportsAPIPro v1") { _, applied in
            answered.done(applied: applied, emitted: feed.emitted) { feed.settled(channels, quiet: snapshotWait) }
        }
        let slugs = channels == ["live"] ? nil : Set(channels.map(SportsAPIProSports.slug))
        return store.currentEvents(provider: .sportsapiV1).filter { e in
            (e.status == .live || e.status == .halftime || e.status == .suspended) && (slugs == nil || slugs!.contains(e.sport))
        }
    }

    public func liveSports() async throws -> [SportCount] {
        let events = try await liveEvents(sport: nil)
        var counts: [String: Int] = [:]
        for e in events { counts[e.sport, default: 0] += 1 }
        return SportsAPIProSports.v1.map { SportsAPIProSports.slug($0) }.map { SportCount(sport: $0, name: $0, count: counts[$0] ?? 0) }
    }

    public func liveEvent(id: String) async throws -> Event {
        let channel = "match:\(id)"
        let feed = try self.feed(sport: nil, channels: [channel])
        let store = try await collect([feed], transport: transport, timeout: 15, what: "answer from SportsAPIPro v1 for game \(id)") { store, applied in
            (feed.received([channel]) && applied >= feed.emitted) || store.currentEvents(provider: .sportsapiV1).contains { $0.id == id }
        }
        guard let event = store.currentEvents(provider: .sportsapiV1).first(where: { $0.id == id }) else {
            throw OddsError.notFound("SportsAPIPro v1 has no game '\(id)'.")
        }
        return event
    }
}
