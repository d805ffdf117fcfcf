import Foundation
import NIOConcurrencyHelpers
import OddsJSON
import OddsModel
import OddsTransport

/// The updates of an inbound message that a one-shot answer counts (connection states aside: the
/// runner adds its own).
func countable(_ inbound: Inbound) -> Int {
    inbound.updates.reduce(0) { n, u in if case .connection = u { return n }; return n + 1 }
}

/// What a SportsAPIPro `error` message means: a key or plan problem stops the feed; anything else
/// (an unknown channel or action) is shown once.
func classifySportsAPIError(_ text: String, provider: ProviderID) -> Inbound {
    let t = text.lowercased()
    if t.contains("unauthori") || t.contains("authenticat") || (t.contains("key") && ["invalid", "missing", "unknown", "not valid", "expired"].contains(where: t.contains)) {
        return .fatal(.authentication(provider, text))
    }
    if ["plan", "permission", "access denied", "upgrade", "forbidden"].contains(where: t.contains) {
        return .fatal(.accessDenied(provider, text))
    }
    // The runner names the connection in front of it.
    return .notice(text)
}

/// SportsAPIPro v2's one WebSocket: channel subscriptions that change while connected, the
/// documented ping every 30 s, and every channel's snapshot and updates normalized.
public final class SportsAPIProFeed: FeedAdapter, @unchecked Sendable {
    // @unchecked: mutable state is behind `lock`; the rest is immutable.
    public let provider = ProviderID.sportsapi
    public let connectionName = "live"
    /// Documented: a ping every 30 s keeps the connection alive.
    public static let pingInterval: TimeInterval = 30
    public let ping: ApplicationPing?
    /// No pong or data for two ping intervals: the connection is dead.
    public let silenceLimit: TimeInterval?
    let settings: ProviderSettings
    /// The `x-sport` header (nil: not sent; the server's default is football).
    let sport: String?
    private let lock = NIOLock()
    private var link: FeedLink?
    private var channels: [String]
    private var modes: [String: String] = [:]
    private var subscribedAt: [String: Date] = [:]
    private var snapshots = Set<String>()
    private var refused = Set<String>()
    /// Incidents already passed on, per match: the snapshot, nats updates and safety-net polls
    /// resend the same ones.
    private var seen: [String: Set<String>] = [:]
    private var teams: [String: Scoreboard] = [:]
    private var shownErrors = Set<String>()
    private var nats: Bool?
    private var emittedCount = 0

    /// Matches whose incidents are remembered for deduplication, at most.
    static let seenMatches = 500

    public init(settings: ProviderSettings, sport: String?, channels: [SportsAPIProChannel]) {
        self.settings = settings
        self.sport = sport
        self.channels = []
        let every = settings.options["ping_seconds"].flatMap(Double.init).map { min(max($0, 1), 300) } ?? SportsAPIProFeed.pingInterval
        self.ping = ApplicationPing(every: every, text: SportsAPIProFeed.action("ping", "live-scores"))
        self.silenceLimit = 2 * every
        for c in channels where !self.channels.contains(c.name) { self.channels.append(c.name) }
    }

    static func action(_ action: String, _ channel: String) -> String {
        JSONOutput.object([("action", .string(action)), ("channel", .string(channel))]).rendered
    }

    public func endpoint() throws -> (url: String, headers: [(String, String)]) {
        let key = try settings.requireKey(.sportsapi)
        var headers: [(String, String)] = []
        if let sport { headers.append(("x-sport", sport)) }
        // Documented both ways; the query is the documented recommendation.
        if settings.options["key_in"]?.lowercased() == "header" {
            headers.append(("x-api-key", key))
            return (settings.webSocketURL, headers)
        }
        return (appendQuery(settings.webSocketURL, [("x-api-key", key)]), headers)
    }

    public func didConnect(_ link: FeedLink) {
        // After a reconnect: exactly what was subscribed, again.
        let channels: [String] = lock.withLock {
            self.link = link
            subscribedAt = [:]
            snapshots = []
            refused = []
            return self.channels
        }
        for c in channels { link.send(SportsAPIProFeed.action("subscribe", c)) }
    }

    /// Subscribes to channels now (or on the next connection); ones already subscribed are left alone.
    public func subscribe(_ list: [SportsAPIProChannel]) {
        let (link, new): (FeedLink?, [String]) = lock.withLock {
            let new = list.map(\.name).filter { !channels.contains($0) }
            channels += new
            return (self.link, new)
        }
        for c in new { link?.send(SportsAPIProFeed.action("subscribe", c)) }
    }

    /// Unsubscribes from channels (the docs ask for it when the user leaves a match).
    public func unsubscribe(_ list: [SportsAPIProChannel]) {
        let (link, gone): (FeedLink?, [String]) = lock.withLock {
            let names = Set(list.map(\.name))
            let gone = channels.filter(names.contains)
            channels.removeAll(where: names.contains)
            for c in gone { subscribedAt[c] = nil; snapshots.remove(c); modes[c] = nil; refused.remove(c) }
            return (self.link, gone)
        }
        for c in gone { link?.send(SportsAPIProFeed.action("unsubscribe", c)) }
    }

    /// The channels subscribed now, in the order they were asked for.
    public var subscribedChannels: [String] { lock.withLock { channels } }

    /// The delivery mode the server confirmed for a channel ("realtime (NATS-triggered fetch, …)").
    public func mode(of channel: SportsAPIProChannel) -> String? { lock.withLock { modes[channel.name] } }

    /// False when the server said its real-time bridge is down (updates then come by poll).
    public var natsConnected: Bool? { lock.withLock { nats } }

    /// Whether each channel has had its first answer on this connection: its snapshot, or (the
    /// docs send a snapshot only "if available") `quiet` seconds since it was confirmed.
    /// A channel the server answered with an error has had its answer too.
    public func settled(_ list: [SportsAPIProChannel], quiet: TimeInterval, now: Date = Date()) -> Bool {
        lock.withLock {
            list.allSatisfy { c in
                snapshots.contains(c.name) || refused.contains(c.name) || subscribedAt[c.name].map { now.timeIntervalSince($0) >= quiet } ?? false
            }
        }
    }

    /// Channels the server answered with an error on this connection.
    public var refusedChannels: Set<String> { lock.withLock { refused } }

    /// Updates passed on so far (a keepalive is one heartbeat): with `settled`, a one-shot answer
    /// knows when its store holds what a snapshot brought.
    public var emitted: Int { lock.withLock { emittedCount } }

    public func receive(_ frame: [UInt8], first: Bool) throws -> Inbound {
        let (inbound, snapshot) = try classify(frame)
        // Counted before the snapshot is marked, so that a reader who sees the mark sees the count.
        lock.withLock {
            emittedCount += countable(inbound)
            if let snapshot { snapshots.insert(snapshot) }
        }
        return inbound
    }

    private func classify(_ frame: [UInt8]) throws -> (Inbound, snapshot: String?) {
        let message = try SportsAPIProWire.message(JSONParser.message(bytes: frame))
        switch message {
        case .welcome(let natsConnected, _):
            lock.withLock { nats = natsConnected }
            if natsConnected == false {
                // Shown where connection states are (the dashboard's header, stream lines), and said once on stderr.
                let reason = "natsConnected: false; updates by poll (incidents 15 s, stats 30 s)"
                return (.batch([.data([.connection(.degraded(reason: reason))]),
                                .notice("the server says its real-time bridge is down (natsConnected: false): incidents and stats come by poll every 15 and 30 s until it is back.")],
                               skipped: []), nil)
            }
            return (.keepalive, nil)
        case .subscribed(let channel, let mode):
            lock.withLock {
                subscribedAt[channel] = Date()
                if let mode { modes[channel] = mode }
            }
            return (.keepalive, nil)
        case .unsubscribed, .pong:
            return (.keepalive, nil)
        case .error(let text, let channel):
            let full = channel.map { "\(text) (channel \($0))" } ?? text
            let first = lock.withLock {
                // The server's answer for that channel: a one-shot query waits for it no longer.
                if let channel, channels.contains(channel) { refused.insert(channel) }
                return shownErrors.count < 100 ? shownErrors.insert(full).inserted : false
            }
            let inbound = classifySportsAPIError(full, provider: provider)
            if case .notice = inbound, !first { return (.keepalive, nil) }
            return (inbound, nil)
        case .data(let name, let snapshot, let data, _, let timestamp):
            guard let channel = SportsAPIProChannel(name) else { throw MalformedMessage("data for an unknown channel") }
            guard subscribed(channel) else {
                return (.batch([], skipped: ["data on \(ProviderText.excerpt(name, limit: 80)), a channel not subscribed: dropped"]), nil)
            }
            let updates = try self.updates(channel, data: data, at: timestamp ?? Date())
            return (updates.stamped(timestamp), snapshot ? name : nil)
        }
    }

    /// Whether data on `channel` was asked for: a channel subscribed now, or `live-scores:{sport}`
    /// for `live-scores` scoped to that sport by `x-sport` (football by default). A replay (no
    /// connection made) takes every channel its recording holds.
    private func subscribed(_ channel: SportsAPIProChannel) -> Bool {
        lock.withLock {
            if link == nil || channels.contains(channel.name) { return true }
            if case .liveScores(let s?) = channel, channels.contains("live-scores") { return s == (sport ?? "football") }
            return false
        }
    }

    private func updates(_ channel: SportsAPIProChannel, data: JSONValue, at: Date) throws -> Inbound {
        switch channel {
        case .liveScores(let channelSport):
            var skipped = 0
            var boards: [FeedUpdate] = []
            for m in SportsAPIProWire.matches(data) {
                guard let b = SportsAPIProWire.scoreboard(m, sport: channelSport ?? sport ?? "football", at: at) else { skipped += 1; continue }
                remember(b)
                boards.append(.scoreboard(b))
            }
            return skipped == 0 ? .data(boards) : .batch([.data(boards)], skipped: Array(repeating: "a match without an id", count: skipped))
        case .match(let id):
            guard let m = SportsAPIProWire.matches(data).first,
                  let b = SportsAPIProWire.scoreboard(m, channelMatchID: id, sport: sport ?? "football", at: at) else {
                throw MalformedMessage("an unreadable match")
            }
            // The channel names the match: an id inside that differs is the provider's other id.
            var board = b
            board.eventID = id
            remember(board)
            return .data([.scoreboard(board)])
        case .incidents(let id):
            var skipped = 0
            // The feed's newest first, so that the cut keeps what is new: a list of any length with one new
            // incident on top still brings that incident.
            let listed = SportsAPIProWire.incidentList(data, skipped: &skipped)
            let limit = SportsAPIProWire.incidentLimit
            let cut = max(0, listed.count - limit)
            let kept = listed.prefix(limit)
            let fresh: [Incident] = lock.withLock {
                if seen[id] == nil, seen.count >= SportsAPIProFeed.seenMatches { seen.removeAll() }
                let fresh = kept.filter { seen[id, default: []].insert($0.identity).inserted }
                // Bounded too: past four lists' worth, only what the feed lists now is remembered.
                if seen[id, default: []].count > 4 * limit { seen[id] = Set(kept.map(\.identity)) }
                return Incident.inMatchOrder(fresh.reversed())
            }
            var items: [Inbound] = [.data(fresh.map { FeedUpdate.incident(eventID: id, $0) })]
            if cut > 0 {
                items.append(.notice("match \(id) lists more than \(SportsAPIProWire.incidentLimit) incidents; only the newest \(SportsAPIProWire.incidentLimit) are kept"))
            }
            return skipped == 0 && items.count == 1 ? items[0]
                : .batch(items, skipped: Array(repeating: "an unreadable incident", count: skipped))
        case .stats(let id):
            guard let stats = SportsAPIProWire.stats(data) else { throw MalformedMessage("unreadable statistics") }
            return .data([.stats(eventID: id, stats)])
        case .lineups(let id):
            guard let lineups = SportsAPIProWire.lineups(data) else { throw MalformedMessage("unreadable lineups") }
            return .data([.lineups(eventID: id, lineups)])
        case .odds(let id):
            var skipped = 0
            let byBook = SportsAPIProWire.odds(data, matchID: id, skipped: &skipped)
            let known = lock.withLock { teams[id] }
            let updates: [FeedUpdate] = byBook.map { entry in
                .bookUpsert(Event(provider: .sportsapi, id: id, sport: known?.sport ?? "unknown", league: known?.league,
                                  home: known?.home ?? "", away: known?.away, markets: entry.markets), book: entry.book)
            }
            return skipped == 0 ? .data(updates) : .batch([.data(updates)], skipped: Array(repeating: "an unreadable market", count: skipped))
        }
    }

    private func remember(_ b: Scoreboard) {
        lock.withLock {
            if teams.count >= 5_000, teams[b.eventID] == nil { teams.removeAll() }
            var t = teams[b.eventID] ?? Scoreboard(eventID: b.eventID)
            t.home = b.home ?? t.home; t.away = b.away ?? t.away; t.sport = b.sport ?? t.sport; t.league = b.league ?? t.league
            teams[b.eventID] = t
        }
    }

    /// The docs give no close codes: every close or drop reconnects with the documented backoff.
    public func closeAction(code: Int?) -> CloseAction {
        .reconnect(reason: code.map { "connection closed (code \($0))" } ?? "connection dropped")
    }
}

/// SportsAPIPro v1's scores WebSocket: one host per sport (a URL template with `{sport}`), channels
/// `all` (subscribed on connect by the server), `live`, a sport, `match:{id}`; `scores` and
/// `match-update` messages ordered by `updateId`.
public final class SportsAPIProV1Feed: FeedAdapter, @unchecked Sendable {
    // @unchecked: mutable state is behind `lock`.
    public let provider = ProviderID.sportsapiV1
    public let connectionName = "live"
    public let ping: ApplicationPing?
    public let silenceLimit: TimeInterval?
    let settings: ProviderSettings
    /// v1's sport slug for the host.
    let hostSport: String
    private let lock = NIOLock()
    private var link: FeedLink?
    private var channels: [String]
    private var lastUpdateID: [String: Int] = [:]
    private var received = Set<String>()
    private var shownErrors = Set<String>()
    private var connectedAt: Date?
    private var emittedCount = 0

    public init(settings: ProviderSettings, hostSport: String, channels: [String]) {
        self.settings = settings
        self.hostSport = hostSport
        self.channels = channels.isEmpty ? ["all"] : channels
        let every = settings.options["ping_seconds"].flatMap(Double.init).map { min(max($0, 1), 300) } ?? 30
        // Inferred: the docs show the pong, not the ping; `{"type":"ping"}` follows their message shape.
        self.ping = ApplicationPing(every: every, text: #"{"type":"ping"}"#)
        // Documented: updates every 1 s with live games, 2 s without.
        self.silenceLimit = max(2 * every, 30)
    }

    public func endpoint() throws -> (url: String, headers: [(String, String)]) {
        let key = try settings.requireKey(.sportsapiV1)
        let url = settings.webSocketURL.replacingOccurrences(of: "{sport}", with: hostSport)
        return (appendQuery(url, [("x-api-key", key)]), [])
    }

    static func message(_ type: String, _ channel: String) -> String {
        JSONOutput.object([("type", .string(type)), ("channel", .string(channel))]).rendered
    }

    public func didConnect(_ link: FeedLink) {
        let channels: [String] = lock.withLock {
            self.link = link
            received = []
            connectedAt = Date()
            return self.channels
        }
        // The server subscribes every connection to `all`: narrowed when something else was asked for.
        if !channels.contains("all") { link.send(SportsAPIProV1Feed.message("unsubscribe", "all")) }
        for c in channels where c != "all" { link.send(SportsAPIProV1Feed.message("subscribe", c)) }
    }

    public func subscribe(_ channel: String) {
        let link: FeedLink? = lock.withLock {
            guard !channels.contains(channel) else { return nil }
            channels.append(channel)
            return self.link
        }
        link?.send(SportsAPIProV1Feed.message("subscribe", channel))
    }

    public func unsubscribe(_ channel: String) {
        let link: FeedLink? = lock.withLock {
            guard channels.contains(channel) else { return nil }
            channels.removeAll { $0 == channel }
            return self.link
        }
        link?.send(SportsAPIProV1Feed.message("unsubscribe", channel))
    }

    public var subscribedChannels: [String] { lock.withLock { channels } }

    /// Whether a scores message has come on this connection for each channel.
    public func received(_ list: [String]) -> Bool { lock.withLock { list.allSatisfy(received.contains) } }

    /// Whether each channel has answered, or the connection has been up `quiet` seconds (a channel
    /// without games sends nothing).
    public func settled(_ list: [String], quiet: TimeInterval, now: Date = Date()) -> Bool {
        lock.withLock {
            list.allSatisfy(received.contains) || connectedAt.map { now.timeIntervalSince($0) >= quiet } ?? false
        }
    }

    /// A message on a channel this feed did not ask for (the server's `all`, before the narrowing
    /// unsubscribe arrives) is not passed on.
    private func wanted(_ channel: String) -> Bool {
        // A replay (no connection made) takes every channel its recording holds.
        channel.isEmpty || lock.withLock { link == nil || channels.contains(channel) || channels.contains("all") }
    }

    /// True (and the id kept) when `id` is newer than the channel's last; a smaller or repeated id is stale.
    private func fresh(_ id: Int?, channel: String) -> Bool {
        guard let id else { return true }
        return lock.withLock {
            if let last = lastUpdateID[channel], id <= last { return false }
            lastUpdateID[channel] = id
            return true
        }
    }

    /// Updates passed on so far (see `SportsAPIProFeed.emitted`).
    public var emitted: Int { lock.withLock { emittedCount } }

    public func receive(_ frame: [UInt8], first: Bool) throws -> Inbound {
        let (inbound, channel) = try classify(frame)
        lock.withLock {
            emittedCount += countable(inbound)
            if let channel { received.insert(channel) }
        }
        return inbound
    }

    private func classify(_ frame: [UInt8]) throws -> (Inbound, received: String?) {
        let message = try JSONParser.message(bytes: frame)
        let (inbound, channel) = try classify(message: message)
        return (inbound.stamped(ProviderTime.read(message["ts"])), channel)
    }

    private func classify(message: JSONValue) throws -> (Inbound, received: String?) {
        switch try SportsAPIProWire.v1Message(message) {
        case .connected, .subscribed, .pong:
            return (.keepalive, nil)
        case .error(let text):
            let first = lock.withLock { shownErrors.count < 100 ? shownErrors.insert(text).inserted : false }
            let inbound = classifySportsAPIError(text, provider: provider)
            if case .notice = inbound, !first { return (.keepalive, nil) }
            return (inbound, nil)
        case .scores(let channel, let games, let updateID):
            guard wanted(channel), fresh(updateID, channel: channel) else { return (.keepalive, nil) }
            let sport = SportsAPIProSports.v1.contains(channel) ? channel : nil
            var boards: [FeedUpdate] = []
            var skipped = 0
            for g in games {
                if let b = SportsAPIProWire.v1Scoreboard(g, channelSport: sport) { boards.append(.scoreboard(b)) } else { skipped += 1 }
            }
            return (skipped == 0 ? .data(boards) : .batch([.data(boards)], skipped: Array(repeating: "a game without an id", count: skipped)), channel)
        case .matchUpdate(let channel, let game, let updateID):
            guard wanted(channel), fresh(updateID, channel: channel) else { return (.keepalive, nil) }
            guard let b = SportsAPIProWire.v1Scoreboard(game, channelSport: nil) else { throw MalformedMessage("a game without an id") }
            return (.data([.scoreboard(b)]), channel)
        }
    }

    public func closeAction(code: Int?) -> CloseAction {
        .reconnect(reason: code.map { "connection closed (code \($0))" } ?? "connection dropped")
    }
}

/// Keeps a feed subscribed to the match channels of the one match a view shows (the dashboard's
/// detail pane), and to the incidents and odds of the rows on screen (their latest incident and
/// prices), and unsubscribes from them when the view leaves them, as the docs ask.
public final class MatchChannelFocus: @unchecked Sendable {
    // @unchecked: `current` and `rows` are behind `lock`.
    private let lock = NIOLock()
    private var current: String?
    private var rows: [String] = []
    let feed: SportsAPIProFeed
    /// Rows whose incidents are followed, at most.
    public static let rowLimit = 60
    /// Channels of the focused match; the match channel itself is added, live-scores is kept.
    public static func channels(_ id: String) -> [SportsAPIProChannel] { SportsAPIProChannel.all(match: id) }

    public init(feed: SportsAPIProFeed) { self.feed = feed }

    /// Follows `matchID` (nil: none).
    public func focus(_ matchID: String?) {
        let previous: String? = lock.withLock {
            defer { current = matchID }
            return current
        }
        guard previous != matchID else { return }
        // A row on screen keeps its row channels.
        let kept = Set(lock.withLock { rows })
        if let previous {
            let keep = kept.contains(previous) ? MatchChannelFocus.rowChannels(previous) : []
            feed.unsubscribe(MatchChannelFocus.channels(previous).filter { !keep.contains($0) })
        }
        if let matchID { feed.subscribe(MatchChannelFocus.channels(matchID)) }
    }

    /// What a row on screen follows: its incidents (the latest incident column) and its odds (the
    /// 1 / X / 2 columns, the best price across books).
    public static func rowChannels(_ id: String) -> [SportsAPIProChannel] { [.incidents(id), .odds(id)] }

    /// Follows the row channels of the rows on screen (the first `rowLimit`); rows that left the
    /// screen are unsubscribed, unless the detail pane shows them.
    public func rows(_ ids: [String]) {
        let (gone, new, focused): ([String], [String], String?) = lock.withLock {
            let wanted = Array(ids.prefix(MatchChannelFocus.rowLimit))
            let gone = rows.filter { !wanted.contains($0) }
            let new = wanted.filter { !rows.contains($0) }
            rows = wanted
            return (gone, new, current)
        }
        feed.unsubscribe(gone.filter { $0 != focused }.flatMap(MatchChannelFocus.rowChannels))
        feed.subscribe(new.flatMap(MatchChannelFocus.rowChannels))
    }
}
