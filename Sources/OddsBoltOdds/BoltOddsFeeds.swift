import Foundation
import NIOConcurrencyHelpers
import OddsJSON
import OddsModel
import OddsStore
import OddsTransport

/// What the odds stream is subscribed to; a filter left nil means all, as BoltOdds documents.
/// Values are spelled exactly as `get_info` / `get_games` / `get_markets` spell them.
public struct BoltOddsFilters: Hashable, Sendable {
    public var sports: [String]?
    public var sportsbooks: [String]?
    public var games: [String]?
    public var markets: [String]?
    /// A sport slug to keep on the client, when the competitions could not be listed before connecting.
    public var sport: String?

    public init(sports: [String]? = nil, sportsbooks: [String]? = nil, games: [String]? = nil, markets: [String]? = nil,
                sport: String? = nil) {
        self.sports = sports; self.sportsbooks = sportsbooks; self.games = games; self.markets = markets; self.sport = sport
    }

    /// The documented `subscribe` message.
    public var subscribeMessage: String {
        var filters: [(String, JSONOutput)] = []
        for (name, values) in [("sports", sports), ("sportsbooks", sportsbooks), ("games", games), ("markets", markets)] {
            if let values { filters.append((name, .array(values.map { .string($0) }))) }
        }
        return JSONOutput.object([("action", .string("subscribe")), ("filters", .object(filters))]).rendered
    }
}

/// The games the odds stream has named, shared by one feed's connections: play-by-play and scores
/// subscribe to them and file what they say under the odds stream's labels.
final class BoltOddsGameIndex: @unchecked Sendable {
    // @unchecked: every field is behind `lock`.
    private let lock = NIOLock()
    private var labels: [String] = []
    private var known = Set<String>()
    private var byUniversalID: [String: String] = [:]
    private var listeners: [@Sendable () -> Void] = []

    /// Adds games; tells the listeners when any is new.
    func add(_ games: [String]) {
        let new: Bool = lock.withLock {
            var added = false
            for g in games where known.insert(g).inserted { labels.append(g); added = true }
            return added
        }
        if new { for l in lock.withLock({ listeners }) { l() } }
    }

    var all: [String] { lock.withLock { labels } }

    func onNewGames(_ listener: @escaping @Sendable () -> Void) { lock.withLock { listeners.append(listener) } }

    /// The odds stream's label for a game another feed names: the same label, the one learnt for
    /// its `universal_id`, or the one it begins ("Bills vs Bengals, 2025-12-07" for "…, 2025-12-07, 01").
    func resolve(_ label: String, universalID: String?) -> String {
        lock.withLock {
            if known.contains(label) { if let u = universalID { byUniversalID[u] = label }; return label }
            if let u = universalID, let l = byUniversalID[u] { return l }
            if let l = labels.first(where: { $0.hasPrefix(label + ",") }) {
                if let u = universalID { byUniversalID[u] = l }
                return l
            }
            return label
        }
    }
}

/// How BoltOdds' `error` actions are answered: the re-subscribe limit is waited out on the same
/// connection, a bad key or a plan without the feed stops, anything else is shown once.
func classifyError(_ text: String, resend: String?) -> Inbound {
    let t = text.lowercased()
    if t.contains("rate limit") && t.contains("subscri") {
        return .retry(reason: text, after: BoltOddsOddsFeed.resubscribeSpacing, resend: resend.map { [$0] } ?? [])
    }
    if t.contains("unauthori") || t.contains("authenticat") || (t.contains("key") && ["invalid", "missing", "unknown", "not valid", "expired"].contains(where: t.contains)) {
        return .fatal(.authentication(.boltodds, text))
    }
    if ["plan", "not available to", "permission", "access denied", "upgrade"].contains(where: t.contains) {
        return .fatal(.accessDenied(.boltodds, text))
    }
    return .notice(text)
}

/// The odds stream: `socket_connected`, then one `subscribe` with the filters; initial_state and
/// the updates that follow, one object or an array of them per frame.
public final class BoltOddsOddsFeed: FeedAdapter, @unchecked Sendable {
    // @unchecked: `link`, `filters`, `lastSubscribe` are behind `lock`; the rest is immutable.
    public let provider = ProviderID.boltodds
    public let connectionName = "odds"
    public let connectionsPerMinute: Int? = BoltOddsClient.connectionsPerMinute
    public let silenceLimit: TimeInterval?
    let settings: ProviderSettings
    let index: BoltOddsGameIndex
    private let lock = NIOLock()
    private var link: FeedLink?
    private var filters: BoltOddsFilters
    private var lastSubscribe: Date?
    /// Documented: at most one subscribe every 5 seconds; a quarter second more, so that a server
    /// timing them on arrival never sees two closer than that.
    public static let resubscribeSpacing: TimeInterval = 5.25
    /// The zone `info.when` is read in, when configured other than US Eastern (`when_timezone`).
    let whenZone: TimeZone?
    /// The clock a game's start is compared with (the tests' own).
    var now: @Sendable () -> Date = { Date() }
    /// The clock the 5-second rule is kept on.
    let clock: any FeedClock

    init(settings: ProviderSettings, filters: BoltOddsFilters, index: BoltOddsGameIndex, clock: any FeedClock = SystemClock()) {
        self.clock = clock
        self.settings = settings
        self.filters = filters
        self.index = index
        let zone = settings.options["when_timezone"].flatMap { $0 == BoltOddsTime.defaultZone ? nil : $0 }
        self.whenZone = zone.flatMap(TimeZone.init(identifier:))
        // Inferred: the docs name a ping but not its period.
        self.silenceLimit = settings.options["silence_seconds"].flatMap(Double.init) ?? 90
    }

    public func endpoint() throws -> (url: String, headers: [(String, String)]) {
        (appendQuery(settings.webSocketURL, [("key", try settings.requireKey(.boltodds))]), [])
    }

    public func didConnect(_ link: FeedLink) {
        // The subscription goes once `socket_connected` says the key was accepted.
        lock.withLock { self.link = link; lastSubscribe = nil }
    }

    /// Sends the subscription now, or as soon as the 5-second rule allows.
    func subscribe() {
        let (link, message, wait): (FeedLink?, String, TimeInterval) = lock.withLock {
            let now = clock.now
            let wait = lastSubscribe.map { max(0, BoltOddsOddsFeed.resubscribeSpacing - now.timeIntervalSince($0)) } ?? 0
            lastSubscribe = now.addingTimeInterval(wait)
            return (self.link, filters.subscribeMessage, wait)
        }
        guard let link else { return }
        if wait > 0 { link.send(message, after: wait) } else { link.send(message) }
    }

    /// New filters for the live connection (never sooner than 5 s after the last subscribe).
    public func update(filters: BoltOddsFilters) {
        lock.withLock { self.filters = filters }
        subscribe()
    }

    public func receive(_ frame: [UInt8], first: Bool) throws -> Inbound {
        try frame.withUnsafeBufferPointer { try receive(span: $0, first: first) }
    }

    public func receive(span frame: UnsafeBufferPointer<UInt8>, first: Bool) throws -> Inbound {
        try receive(span: frame, first: first, mergingBookViews: false)
    }

    public func receive(span frame: UnsafeBufferPointer<UInt8>, first: Bool, mergingBookViews: Bool) throws -> Inbound {
        try read(span: frame, mergingBookViews: mergingBookViews).stamped(ProviderTime.read(frame, key: "timestamp"))
    }

    private func read(span frame: UnsafeBufferPointer<UInt8>, mergingBookViews: Bool) throws -> Inbound {
        // The byte scanner for plain data frames (the initial state is tens of MB); the generic decoder otherwise.
        if let read = BoltOddsFast.frame(frame, dating: dating(), merging: mergingBookViews) {
            guard !read.later.isEmpty else { return .data(kept(read.updates, games: read.games)) }
            // Read in two halves: the halves' lists go on as they are (the games are listed by the first).
            return .batch([.data(kept(read.updates, games: read.games)), .data(kept(read.later, games: []))], skipped: [])
        }
        return try generic(frame)
    }

    /// A frame (or one element of a large one) read by the generic decoder.
    fileprivate func generic(_ frame: UnsafeBufferPointer<UInt8>) throws -> Inbound {
        var skipped: [String] = []
        let (messages, bad) = try BoltOddsWire.messages(Array(frame)) { try BoltOddsWire.oddsMessage($0, skipped: &skipped) }
        let items = messages.map(inbound)
        if items.count == 1, bad.isEmpty, skipped.isEmpty { return items[0] }
        return .batch(items, skipped: bad + skipped)
    }

    /// A large frame (the initial state, tens of MB) is read message by message as it arrives.
    public func elementReader(first: Bool) -> (any FeedElementReader)? { Elements(feed: self) }

    /// The messages of one large frame, each read as a frame of its own would be, by the byte scanner
    /// with what the messages before it taught it (the next book of the same game repeats its bytes).
    final class Elements: FeedElementReader {
        let feed: BoltOddsOddsFeed
        var session = BoltOddsFast.Session()
        var generation = -1

        init(feed: BoltOddsOddsFeed) {
            self.feed = feed
            session.memo.dating = feed.dating()
        }

        func element(_ bytes: UnsafeBufferPointer<UInt8>, generation: Int) throws -> Inbound {
            try read(bytes, generation: generation).stamped(ProviderTime.read(bytes, key: "timestamp"))
        }

        private func read(_ bytes: UnsafeBufferPointer<UInt8>, generation: Int) throws -> Inbound {
            // As in a frame read whole: an element is one message, never a batch of its own.
            guard bytes.first == UInt8(ascii: "{") else { throw MalformedMessage("expected an object") }
            if generation != self.generation {
                session.templates = BoltOddsFast.Templates()
                self.generation = generation
            }
            if let read = BoltOddsFast.message(bytes, session: &session) {
                return .data(feed.kept(read.updates, games: read.games))
            }
            // A read that failed part way may have remembered part of this message.
            session.templates = BoltOddsFast.Templates()
            return try feed.generic(bytes)
        }
    }

    private func inbound(_ message: BoltOddsWire.OddsMessage) -> Inbound {
        switch message {
        case .connected:
            subscribe()
            return .keepalive
        case .ping, .subscriptionUpdated:
            return .keepalive
        case .error(let text):
            return classifyError(text, resend: lock.withLock { filters.subscribeMessage })
        case .updates(var updates):
            dated(&updates)
            return .data(kept(updates))
        }
    }

    /// The updates of the sport asked for (without a competition list, the sport is kept here); the
    /// games they name (the books' views', when the decoder has listed them) go into the index.
    fileprivate func kept(_ updates: consuming [FeedUpdate], games listed: [String]? = nil) -> [FeedUpdate] {
        let sport = lock.withLock { filters.sport }
        var kept = updates
        if let sport {
            kept.removeAll {
                switch $0 {
                case .bookUpsert(let e, _), .bookViews(let e, _): return e.sport != sport
                default: return false
                }
            }
        }
        // The decoder's list holds every game of the frame: it is the answer only when nothing was left out.
        let games = sport == nil ? listed ?? BoltOddsOddsFeed.games(in: kept) : BoltOddsOddsFeed.games(in: kept)
        if !games.isEmpty { index.add(games) }
        return kept
    }

    /// Each book's view of a game with its true status: a game whose start (`info.when`) is still to
    /// come is scheduled, one whose start has passed is live (until the scores feeds say it ended: the
    /// store keeps their word), one without a start is of unknown status. With `when_timezone` set,
    /// the start is read in that zone.
    func dated(_ updates: inout [FeedUpdate]) {
        let dating = self.dating()
        for i in updates.indices {
            guard case .bookUpsert(var e, let book) = updates[i] else { continue }
            if let start = e.startTime { e.startTime = dating.start(start) }
            let status = dating.status(startingAt: e.startTime)
            guard status != e.status || dating.zone != nil else { continue }
            e.status = status
            updates[i] = .bookUpsert(e, book: book)
        }
    }

    fileprivate func dating() -> BoltOddsFast.Dating { BoltOddsFast.Dating(now: now(), zone: whenZone) }

    /// The games the books' views among `updates` name, in order.
    private static func games(in updates: [FeedUpdate]) -> [String] {
        var games: [String] = []
        for u in updates {
            switch u {
            case .bookUpsert(let e, _), .bookViews(let e, _): if games.last != e.id { games.append(e.id) }
            default: break
            }
        }
        return games
    }

    /// BoltOdds documents no close codes: every close or drop reconnects with backoff.
    public func closeAction(code: Int?) -> CloseAction {
        .reconnect(reason: code.map { "connection closed (code \($0))" } ?? "connection dropped")
    }
}

/// Play-by-play or live scores: subscribe with the games (given, or those the odds stream names),
/// then scoreboards and plays filed under the odds stream's labels.
public final class BoltOddsGamesFeed: FeedAdapter, @unchecked Sendable {
    // @unchecked: mutable state is behind `lock`.
    public enum Kind: String, Sendable { case pbp, scores }
    public let provider = ProviderID.boltodds
    public let connectionsPerMinute: Int? = BoltOddsClient.connectionsPerMinute
    public let silenceLimit: TimeInterval? = nil
    public var connectionName: String { kind.rawValue }
    let kind: Kind
    let clock: any FeedClock
    let settings: ProviderSettings
    let index: BoltOddsGameIndex
    /// Games named by the user; nil: follow the odds stream.
    let games: [String]?
    private let lock = NIOLock()
    private var link: FeedLink?
    private var connected = false
    private var lastSubscribe: Date?
    private var pending: Task<Void, Never>?
    /// Plays already told, per game (the first messages repeat the last plays).
    private var seenPlays: [String: Set<String>] = [:]

    init(kind: Kind, settings: ProviderSettings, games: [String]?, index: BoltOddsGameIndex, clock: any FeedClock = SystemClock()) {
        self.kind = kind; self.settings = settings; self.games = games; self.index = index; self.clock = clock
        if games == nil { index.onNewGames { [weak self] in self?.scheduleSubscribe() } }
    }

    public func endpoint() throws -> (url: String, headers: [(String, String)]) {
        let key = try settings.requireKey(.boltodds)
        let url = kind == .pbp ? settings.options["pbp_url"] ?? BoltOddsClient.defaultPlayByPlayURL
                               : settings.options["scores_url"] ?? BoltOddsClient.defaultLiveScoresURL
        return (appendQuery(url, [("key", key)]), [])
    }

    public func didConnect(_ link: FeedLink) {
        lock.withLock { self.link = link; connected = false; lastSubscribe = nil; pending?.cancel(); pending = nil }
    }

    /// Subscribes a moment after the last new game (games arrive in bursts), and never sooner than
    /// 5 s after the previous subscribe.
    func scheduleSubscribe() {
        lock.withLock {
            guard connected else { return }
            pending?.cancel()
            let clock = self.clock
            let now = clock.now
            let earliest = lastSubscribe.map { $0.addingTimeInterval(BoltOddsOddsFeed.resubscribeSpacing) } ?? now
            let at = max(earliest, now.addingTimeInterval(0.3))
            pending = Task { [weak self] in
                // The moment may be past already (a busy loop): then at once.
                let wait = min(max(0, at.timeIntervalSince(clock.now)), 60)
                do { try await clock.sleep(wait) } catch { return }
                self?.subscribeNow()
            }
        }
    }

    private func subscribeNow() {
        let games = self.games ?? index.all
        guard !games.isEmpty else { return }
        let message = JSONOutput.object([("action", .string("subscribe")),
                                         ("filters", .object([("games", .array(games.map { .string($0) }))]))]).rendered
        let link: FeedLink? = lock.withLock { lastSubscribe = clock.now; return self.link }
        link?.send(message)
    }

    public func receive(_ frame: [UInt8], first: Bool) throws -> Inbound {
        let pbp = kind == .pbp
        let (messages, bad) = try BoltOddsWire.messages(frame) { v -> BoltOddsWire.ScoresMessage in
            pbp ? try BoltOddsWire.playMessage(v) : try BoltOddsWire.scoresMessage(v)
        }
        let items = messages.map(inbound)
        if items.count == 1, bad.isEmpty { return items[0] }
        return .batch(items, skipped: bad)
    }

    private func inbound(_ message: BoltOddsWire.ScoresMessage) -> Inbound {
        switch message {
        case .connected:
            lock.withLock { connected = true }
            if games != nil { subscribeNow() } else { scheduleSubscribe() }
            return .keepalive
        case .ping, .subscriptionUpdated:
            return .keepalive
        case .error(let text):
            // Scores of a game not under way are the expected answer for a scheduled game, not news: the
            // subscription names every game the odds carry. Any other error about one game stops nothing.
            if BoltOddsGamesFeed.isNotLive(text) { return .keepalive }
            return classifyError(text, resend: nil)
        case .scoreboard(var board, let universalID):
            board.eventID = index.resolve(board.eventID, universalID: universalID)
            return .data([.scoreboard(board)])
        case .plays(let board, let plays, let universalID):
            var updates: [FeedUpdate] = []
            var id = board?.eventID
            if var board {
                board.eventID = index.resolve(board.eventID, universalID: universalID)
                id = board.eventID
                if board.score != nil || board.clock != nil || board.period != nil || board.home != nil {
                    updates.append(.scoreboard(board))
                }
            }
            if let id {
                let fresh: [BoltOddsWire.Play] = lock.withLock {
                    var seen = seenPlays[id, default: []]
                    if seen.count > 2_000 { seen.removeAll() }
                    let fresh = plays.filter { seen.insert($0.id).inserted }
                    seenPlays[id] = seen
                    if seenPlays.count > 500 { seenPlays = [id: seen] }
                    return fresh
                }
                updates += fresh.map { .incident(eventID: id, $0.incident) }
            }
            return .data(updates)
        }
    }

    public func closeAction(code: Int?) -> CloseAction {
        .reconnect(reason: code.map { "connection closed (code \($0))" } ?? "connection dropped")
    }

    /// Whether an error says only that a game has no live data yet ("Code 1: game is not live: …", "No live
    /// data available for game …"; inferred: the docs say only that live games give updates).
    static func isNotLive(_ text: String) -> Bool {
        let t = text.lowercased()
        return t.contains("not live") || t.contains("no live data") || t.contains("not started") || t.contains("not in progress")
    }
}

/// BoltOdds' two odds-stream decoders, for the fuzzer and the tests to compare.
public enum BoltOddsDecoders {
    /// An odds feed with no filters whose clock reads `now`.
    private static func feed(now: Date) -> BoltOddsOddsFeed {
        let feed = BoltOddsOddsFeed(settings: ProviderSettings(key: nil, restURL: "", webSocketURL: ""),
                                    filters: BoltOddsFilters(), index: BoltOddsGameIndex())
        feed.now = { now }
        return feed
    }

    /// The odds connection of a feed with no filters whose clock reads `now`, as a replay uses it.
    public static func oddsAdapter(now: Date) -> any FeedAdapter { feed(now: now) }

    /// A frame's updates as the fast path reads it whole (never in halves), with the clock at `now`;
    /// nil when the fast path does not answer.
    public static func wholeUpdates(_ bytes: [UInt8], now: Date) -> [FeedUpdate]? {
        bytes.withUnsafeBufferPointer { BoltOddsFast.frame($0, dating: BoltOddsFast.Dating(now: now, zone: nil), splitAt: .max)?.all }
    }

    /// A frame read element by element as `FeedRunner` reads a large message arriving in parts (cut
    /// at `cuts`, through a `window` that moves often when small): every element's updates in order,
    /// how many elements were skipped and the notices said; nil when the bytes are not an array the
    /// splitter reads to its end.
    public static func elements(_ bytes: [UInt8], cuts: [Int], now: Date, window: Int = 256)
        -> (updates: [FeedUpdate], skipped: Int, notices: [String])? {
        guard let reader = feed(now: now).elementReader(first: false) else { return nil }
        let stream = JSONArrayStream(window: window)
        var updates: [FeedUpdate] = [], skipped = 0, notices: [String] = [], start = 0
        do {
            for end in cuts.sorted() + [bytes.count] where end >= start && end <= bytes.count {
                try bytes[start..<end].withUnsafeBytes { raw in
                    try stream.feed(raw) { element in
                        do {
                            let inbound = try reader.element(element, generation: stream.generation)
                            updates += inbound.updates
                            skipped += inbound.skipped.count
                            notices += inbound.notices
                        } catch {
                            skipped += 1
                        }
                    }
                }
                start = end
            }
            try stream.finish()
        } catch {
            return nil
        }
        return (updates, skipped, notices)
    }

    /// True when a frame read element by element gives what it gives read whole, wherever the whole
    /// read reads it (a frame that is not JSON, or not an array, is read whole only).
    public static func elementsAgree(_ bytes: [UInt8]) -> Bool {
        let now = Date(timeIntervalSince1970: 1_795_440_000)
        guard let whole = try? feed(now: now).receive(bytes, first: false), bytes.first == UInt8(ascii: "[") else { return true }
        var cuts: [Int] = []
        var x = UInt64(bytes.count) &* 0x9E3779B97F4A7C15
        for _ in 0..<min(16, bytes.count) {
            x ^= x >> 31; x &*= 0xBF58476D1CE4E5B9; x ^= x >> 29
            cuts.append(Int(x % UInt64(bytes.count + 1)))
        }
        guard let read = elements(bytes, cuts: cuts, now: now) else { return false }
        return read.updates == whole.updates && read.skipped == whole.skipped.count && read.notices == whole.notices
    }

    /// True when a store folds the frame's books' views merged (`BookViewRun`, read whole and in
    /// halves) into what it folds from the views one by one: into an empty store, and into one that
    /// holds the frame already (each book's markets then replaced in turn, their price moves noted).
    public static func mergedAgree(_ bytes: [UInt8]) -> Bool {
        let now = Date(timeIntervalSince1970: 1_795_440_000)
        let dating = BoltOddsFast.Dating(now: now, zone: nil)
        let read = bytes.withUnsafeBufferPointer { buffer in
            (plain: BoltOddsFast.frame(buffer, dating: dating, splitAt: .max)?.all,
             whole: BoltOddsFast.frame(buffer, dating: dating, splitAt: .max, merging: true)?.all,
             halves: BoltOddsFast.frame(buffer, dating: dating, splitAt: 0, merging: true)?.all)
        }
        guard let plain = read.plain else { return read.whole == nil && read.halves == nil }
        guard let whole = read.whole, let halves = read.halves else { return false }
        func fold(_ lists: [[FeedUpdate]]) -> [(Event, [SelectionKey: PriceMove])] {
            var store = LiveStore()
            for (i, list) in lists.enumerated() {
                for u in list { store.apply(FeedMessage(provider: .boltodds, receivedAt: now + Double(i), update: u)) }
            }
            return store.currentEvents().map { ($0, store.events[EventKey(provider: .boltodds, id: $0.id)]?.moves ?? [:]) }
        }
        func same(_ a: [(Event, [SelectionKey: PriceMove])], _ b: [(Event, [SelectionKey: PriceMove])]) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        }
        let once = fold([plain]), twice = fold([plain, plain])
        return same(once, fold([whole])) && same(once, fold([halves])) && same(twice, fold([plain, whole]))
            && same(twice, fold([plain, halves]))
    }

    /// True when the fast path answers for this frame.
    public static func fastAnswers(_ bytes: [UInt8]) -> Bool { BoltOddsFast.frame(bytes) != nil }

    /// The frame read in two halves at once, cut at `cut` (default: where a large frame is cut,
    /// `JSONArraySplit.cut`): whether that answer is the one reading it whole gives (games included),
    /// and whether the second half's answer was used (false: no cut, or the first half found no
    /// message starting there and read the whole frame).
    public static func split(_ bytes: [UInt8], at cut: Int? = nil) -> (agrees: Bool, halves: Bool) {
        bytes.withUnsafeBufferPointer { buffer in
            let whole = BoltOddsFast.whole(buffer, dating: nil, stoppingAt: nil).read
            guard let cut = cut ?? JSONArraySplit.cut(buffer) else { return (BoltOddsFast.frame(buffer, splitAt: 0)?.all == whole?.all, false) }
            let split = BoltOddsFast.halves(buffer, cut: cut, dating: nil)
            return (whole?.all == split.read?.all && whole?.games == split.read?.games, split.halves)
        }
    }

    /// True when the fast path, where it answers, gives exactly the generic decoder's messages, and
    /// the generic decoder skipped nothing in them.
    public static func agree(_ bytes: [UInt8]) -> Bool {
        guard let fast = BoltOddsFast.frame(bytes)?.all else { return true }
        var skipped: [String] = []
        guard let generic = try? BoltOddsWire.messages(bytes, { try BoltOddsWire.oddsMessage($0, skipped: &skipped) }) else { return false }
        var updates: [FeedUpdate] = []
        for m in generic.messages {
            guard case .updates(let u) = m else { return false }
            updates += u
        }
        return generic.skipped.isEmpty && skipped.isEmpty && updates == fast
    }
}
