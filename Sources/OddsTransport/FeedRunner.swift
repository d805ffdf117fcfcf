import Foundation
import NIOConcurrencyHelpers
import NIOCore
import OddsJSON
import OddsModel

/// What to do when a live connection ends.
public enum CloseAction: Sendable, Equatable {
    case reconnect(reason: String)
    case stop(OddsError)
}

/// What one inbound message is, as its provider's protocol defines it.
public enum Inbound: Sendable, Equatable {
    /// Normalized updates (possibly none).
    case data([FeedUpdate])
    /// Proof of life and nothing else (a heartbeat, a pong, an unchanged rebroadcast).
    case keepalive
    /// A recoverable error answered on the same connection: after `after` seconds, `resend` is sent
    /// again (BoltOdds' re-subscribe rate limit).
    case retry(reason: String, after: TimeInterval, resend: [String])
    /// A recoverable error that needs a new connection (with backoff).
    case reconnect(reason: String)
    /// The feed cannot go on: stop with this error and its exit code (a bad key sent as a message).
    case fatal(OddsError)
    /// Something the provider says to the user that stops nothing (an error about one game): shown
    /// once on stderr.
    case notice(String)
    /// The messages of one frame, each classified on its own (BoltOdds batches them in a JSON array);
    /// `skipped` says why elements that could not be read were left out (each counts as malformed).
    indirect case batch([Inbound], skipped: [String])
    /// A message with the time the provider put on it (its envelope's timestamp), kept beside the time it was
    /// received.
    indirect case stamped(Inbound, at: Date)
}

extension Inbound {
    /// What the message adds to the stream: its updates, a heartbeat for a keepalive, nothing for
    /// an error (acted on by the runner).
    public var updates: [FeedUpdate] {
        switch self {
        case .data(let updates): return updates
        case .keepalive: return [.heartbeat]
        case .batch(let items, _): return items.flatMap(\.updates)
        case .stamped(let inner, _): return inner.updates
        case .retry, .reconnect, .fatal, .notice: return []
        }
    }

    /// How many updates the message holds, its batch's included (without listing them).
    public var count: Int {
        switch self {
        case .data(let updates): return updates.count
        case .batch(let items, _): return items.reduce(0) { $0 + $1.count }
        case .stamped(let inner, _): return inner.count
        default: return 0
        }
    }

    /// `updates`, leaving a keepalive behind: the array is then the caller's alone, so that it can
    /// be let go of one update at a time (a frame of 24,000 games is not held twice).
    public mutating func takeUpdates() -> [FeedUpdate] {
        if case .stamped(var inner, _) = self {
            self = .keepalive
            return inner.takeUpdates()
        }
        guard case .data(let updates) = self else { return updates }
        self = .keepalive
        return updates
    }

    /// Why the message's unreadable elements were left out (each one counts as malformed).
    public var skipped: [String] {
        if case .stamped(let inner, _) = self { return inner.skipped }
        guard case .batch(let items, let skipped) = self else { return [] }
        return skipped + items.flatMap(\.skipped)
    }

    /// The provider's own time of the message, when it put one on it.
    public var providerTime: Date? {
        guard case .stamped(_, let at) = self else { return nil }
        return at
    }

    /// What the message (or its batch's messages) says to the user, in order.
    public var notices: [String] {
        switch self {
        case .notice(let text): return [text]
        case .batch(let items, _): return items.flatMap(\.notices)
        case .stamped(let inner, _): return inner.notices
        default: return []
        }
    }
}

/// A message the client sends on a cadence to keep a connection alive (SportsAPIPro's
/// `{"action":"ping"}` every 30 s). WebSocket protocol pings are answered by the transport.
public struct ApplicationPing: Sendable, Equatable {
    public var every: TimeInterval
    public var text: String
    public init(every: TimeInterval, text: String) { self.every = every; self.text = text }
}

/// Reads one frame's bytes (valid only during the call) into its updates, or throws for a malformed
/// one: a connection's `detachedDecoder`, used by one thread at a time.
public typealias DetachedDecoder = (UnsafeBufferPointer<UInt8>) throws -> [FeedUpdate]

/// One connection of a provider's live feed: how to connect, subscribe, classify messages and
/// react to closes. One adapter serves one connection for its whole life, across reconnects; a
/// provider with several sockets (BoltOdds: odds, play-by-play, scores) has one adapter for each.
public protocol FeedAdapter: AnyObject {
    var provider: ProviderID { get }
    /// The connection's name: in recordings (`"<provider>/<connection>"`), logs and the dashboard.
    var connectionName: String { get }
    /// URL (key included where the protocol puts it there) and upgrade headers.
    func endpoint() throws -> (url: String, headers: [(String, String)])
    /// Called each time a connection is up; sends subscriptions. The link is the same across
    /// reconnects and may be kept and sent on at any time (a send while down is dropped, so an
    /// adapter re-sends its subscriptions here).
    func didConnect(_ link: FeedLink)
    /// Classifies and decodes one message (its bytes as received). Throws for a malformed message,
    /// which is skipped and counted. `first` is true for the first frame of a connection.
    func receive(_ frame: [UInt8], first: Bool) throws -> Inbound
    /// `receive` of bytes that are not an array of their own (a recording's line where it was read):
    /// valid only during the call. By default they are copied into one; a decoder that reads bytes
    /// in place takes them as they are.
    func receive(span frame: UnsafeBufferPointer<UInt8>, first: Bool) throws -> Inbound
    /// `receive(span:first:)` for a store: a decoder may give runs of one event's book views as one
    /// `bookViews` update each (`BookViewRun`), which a store folds once. By default, `receive(span:first:)`.
    func receive(span frame: UnsafeBufferPointer<UInt8>, first: Bool, mergingBookViews: Bool) throws -> Inbound
    /// A reader of a large message's elements as they arrive, when the message is a JSON array of
    /// messages (BoltOdds' initial state), so that it is never held whole; nil (the default) to read
    /// every message whole with `receive`.
    func elementReader(first: Bool) -> (any FeedElementReader)?
    /// A second reader of this connection's frames, for another thread: what `receive` reads from a
    /// frame's bytes alone, with a memo of its own and without the connection's state, which
    /// `receive(decoded:first:)` then applies on the connection's thread, frame by frame in order.
    /// A replay decodes on two threads at once with these. Nil (the default): `receive` only.
    func detachedDecoder() -> DetachedDecoder?
    /// `receive` of a frame that a `detachedDecoder` read.
    func receive(decoded: consuming [FeedUpdate], first: Bool) -> Inbound
    /// What a close code (nil: dropped without one) means for this provider.
    func closeAction(code: Int?) -> CloseAction
    /// A connection silent this long is dead (nil: no watchdog).
    var silenceLimit: TimeInterval? { get }
    /// A message to send on a cadence while connected (nil: none).
    var ping: ApplicationPing? { get }
    /// The provider's documented limit of new connections a minute (nil: none documented). Shared
    /// by all connections of one feed.
    var connectionsPerMinute: Int? { get }
}

/// Reads the elements of one large message in order, as they arrive (`FeedAdapter.elementReader`).
public protocol FeedElementReader: AnyObject {
    /// One element, complete, as `receive` would read a message of its own. Its bytes stay valid,
    /// unmoved, while `generation` is unchanged: a reader may keep pointers into earlier elements of
    /// the same generation. Throws for an element that cannot be read (skipped and counted).
    func element(_ bytes: UnsafeBufferPointer<UInt8>, generation: Int) throws -> Inbound
}

extension FeedAdapter {
    public func receive(span frame: UnsafeBufferPointer<UInt8>, first: Bool) throws -> Inbound {
        try receive(Array(frame), first: first)
    }

    public func receive(span frame: UnsafeBufferPointer<UInt8>, first: Bool, mergingBookViews: Bool) throws -> Inbound {
        try receive(span: frame, first: first)
    }

    public func elementReader(first: Bool) -> (any FeedElementReader)? { nil }

    public func detachedDecoder() -> DetachedDecoder? { nil }
    public func receive(decoded: consuming [FeedUpdate], first: Bool) -> Inbound { .data(decoded) }

    public var connectionName: String { "live" }
    public var connectionsPerMinute: Int? { nil }
    public var ping: ApplicationPing? { nil }
    public func didConnect(_ link: FeedLink) {}

    /// `"<provider>/<connection>"`, as in recordings.
    public var feedName: String { "\(provider.rawValue)/\(connectionName)" }

    /// The updates of one message (a keepalive is a heartbeat; errors carry none). Replays, the
    /// benchmark and the fuzzer use this.
    public func decode(_ frame: [UInt8], first: Bool) throws -> [FeedUpdate] {
        try receive(frame, first: first).updates
    }

    /// Decodes a message given as text (tests and recorded examples).
    public func decode(_ text: String, first: Bool) throws -> [FeedUpdate] {
        try decode(Array(text.utf8), first: first)
    }
}

/// A connection's way out: the same object across reconnects, sending on whichever socket is open.
public final class FeedLink: @unchecked Sendable {
    // @unchecked: all state is behind `lock`.
    private let lock = NIOLock()
    private var session: WebSocketSession?
    private var generation = 0
    private var pending: [Task<Void, Never>] = []
    /// Every text sent, for `--verbose`.
    private let log: (@Sendable (String) -> Void)?
    private let clock: any FeedClock

    public init(clock: any FeedClock = SystemClock(), log: (@Sendable (String) -> Void)? = nil) { self.clock = clock; self.log = log }

    /// True while a connection is up.
    public var isOpen: Bool { lock.withLock { session != nil } }

    /// Sends one text message now. False (and nothing sent) while no connection is up.
    @discardableResult
    public func send(_ text: String) -> Bool {
        guard let session = lock.withLock({ self.session }) else { return false }
        log?(text)
        session.send(text)
        return true
    }

    /// Sends `text` after `seconds`, if the connection that is up now is still up then.
    public func send(_ text: String, after seconds: TimeInterval) {
        lock.withLock {
            let generation = self.generation
            pending.removeAll { $0.isCancelled }
            pending.append(Task { [weak self] in
                guard let clock = self?.clock else { return }
                try? await clock.sleep(max(0, min(seconds, 3600)))
                guard let self, !Task.isCancelled else { return }
                let session = self.lock.withLock { self.generation == generation ? self.session : nil }
                guard let session else { return }
                self.log?(text)
                session.send(text)
            })
        }
    }

    func attach(_ session: WebSocketSession) {
        lock.withLock { self.session = session; generation += 1 }
    }

    /// The connection is down: sends are dropped and delayed sends cancelled.
    func detach() {
        let tasks: [Task<Void, Never>] = lock.withLock {
            session = nil
            generation += 1
            defer { pending = [] }
            return pending
        }
        for t in tasks { t.cancel() }
    }
}

/// Receives every frame before it is decoded: the recorder. Called in arrival order.
public protocol FrameTap: Sendable {
    /// `feed` is `"<provider>/<connection>"`; `bytes` the frame or body exactly as received (valid
    /// during the call only).
    func frame(feed: String, bytes: UnsafeBufferPointer<UInt8>, at: Date)
}

/// A feed's normalized messages, in order. Bounded: the feed stops reading its socket while this is full.
public typealias FeedStream = BoundedQueue<FeedMessage>

/// Counters of one feed, readable while it runs.
public final class FeedStats: @unchecked Sendable {
    private let lock = NIOLock()
    private var _frames = 0
    private var _bytes = 0
    private var _malformed = 0
    private var _connects = 0
    private var _streamed = 0
    private var _lastMalformed: String?

    public init() {}

    public var frames: Int { lock.withLock { _frames } }
    /// Frames that could not be decoded and were skipped.
    public var malformed: Int { lock.withLock { _malformed } }
    /// Successful connections, the first included.
    public var connects: Int { lock.withLock { _connects } }
    /// Large messages read element by element as their bytes arrived, never held whole.
    public var streamed: Int { lock.withLock { _streamed } }
    public var lastMalformedReason: String? { lock.withLock { _lastMalformed } }

    /// Bytes of every frame received.
    public var bytes: Int { lock.withLock { _bytes } }

    func frame(bytes: Int) { lock.withLock { _frames += 1; _bytes += bytes } }
    /// Several frames at once (a replay counts its frames as it goes, under one lock).
    func frames(_ count: Int, bytes: Int) { lock.withLock { _frames += count; _bytes += bytes } }
    func connected() { lock.withLock { _connects += 1 } }
    func streamedMessage(bytes: Int) { lock.withLock { _frames += 1; _bytes += bytes; _streamed += 1 } }
    func skipped(_ reason: String) { lock.withLock { _malformed += 1; _lastMalformed = reason } }
}

/// Runs a live feed: connects, decodes, reconnects with backoff, and ends on a fatal close.
public enum FeedRunner {
    /// Messages buffered between the feed and its consumer; past this the feed waits (and stops reading).
    public static let bufferCapacity = 256
    /// A connection that stayed up this long has proved itself: the next failure starts the backoff afresh.
    public static let healthyAfter: TimeInterval = 60

    /// Starts a feed of one connection. See `run(_:transport:stats:policy:)`.
    public static func run(_ adapter: some FeedAdapter, transport: Transport, stats: FeedStats,
                           policy: BackoffPolicy = .reconnect) -> FeedStream {
        run([adapter], transport: transport, stats: stats, policy: policy)
    }

    /// Starts a feed of one or more connections of one provider, merged into one stream in arrival
    /// order; each message says its connection. Each connection reconnects on its own; their new
    /// connections share the provider's connection rate. The stream ends by throwing the `OddsError`
    /// that stopped a connection (the others are then closed), or when the consumer stops iterating.
    public static func run(_ adapters: [any FeedAdapter], transport: Transport, stats: FeedStats,
                           policy: BackoffPolicy = .reconnect) -> FeedStream {
        let queue = FeedStream(capacity: bufferCapacity)
        let gate = ConnectionGate(perMinute: adapters.compactMap(\.connectionsPerMinute).min())
        let boxes = adapters.map { UncheckedBox($0) }
        let id = UUID()
        let task = Task {
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for box in boxes {
                        group.addTask {
                            let adapter = box.value
                            let provider = adapter.provider, name = adapter.connectionName
                            try await loop(adapter, transport: transport, stats: stats, policy: policy, gate: gate) { update, stamped in
                                await queue.send(FeedMessage(provider: provider, connection: name, receivedAt: Date(), providerTime: stamped,
                                                             update: update))
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                queue.finish()
            } catch {
                queue.finish(throwing: error)
            }
            transport.untrack(id)
        }
        transport.track(id, task)
        queue.setOnTermination { task.cancel() }
        return queue
    }

    /// The name logs use: the provider, and the connection when it has a name of its own.
    static func label(_ adapter: some FeedAdapter) -> String {
        adapter.connectionName == "live" ? adapter.provider.displayName
            : "\(adapter.provider.displayName) \(adapter.connectionName)"
    }

    static func loop(_ adapter: some FeedAdapter, transport: Transport, stats: FeedStats, policy: BackoffPolicy,
                     gate: ConnectionGate, emit: (FeedUpdate, Date?) async -> Void) async throws {
        let name = label(adapter)
        let logger = transport.logger
        let redactor = transport.redactor
        let clock = transport.clock
        let link = FeedLink(clock: clock) { text in logger.debug("\(name): sent \(redactor.redact(text))") }
        defer { link.detach() }
        var attempt = 0
        await emit(.connection(.connecting), nil)
        while !Task.isCancelled {
            let reason: String
            var connectedAt: Date?
            do {
                while let wait = gate.reserve(now: clock.now) {
                    logger.info("\(name): at the limit of \(gate.perMinute ?? 0) connections a minute; waiting \(String(format: "%.1f", wait)) s")
                    do { try await clock.sleep(wait) } catch { return }
                }
                let (url, headers) = try adapter.endpoint()
                let session = try await WebSocketSession.connect(url: url, headers: headers, transport: transport)
                connectedAt = clock.now
                stats.connected()
                logger.info("\(name): connected")
                await emit(.connection(.live), nil)
                link.attach(session)
                adapter.didConnect(link)
                let ended = try await pump(session, adapter: adapter, link: link, name: name, stats: stats,
                                           transport: transport, emit: emit)
                link.detach()
                switch ended {
                case .cancelled:
                    await session.close()
                    return
                case .silent(let seconds):
                    reason = "no message for \(Int(seconds)) s"
                case .tooLarge(let limit):
                    let e = OddsError.provider(adapter.provider, "sent a message over the \(limit >> 20) MiB limit (max_frame_mb raises it)")
                    await emit(.connection(.stopped(reason: e.message)), nil)
                    throw e
                case .fatal(let e):
                    await session.close()
                    await emit(.connection(.stopped(reason: e.message)), nil)
                    throw e
                case .reconnect(let why):
                    await session.close()
                    reason = why
                case .closed(let code):
                    switch adapter.closeAction(code: code) {
                    case .stop(let error):
                        await emit(.connection(.stopped(reason: error.message)), nil)
                        throw error
                    case .reconnect(let why):
                        reason = why
                    }
                }
            } catch is CancellationError {
                // The consumer is gone (quit, signal): no reconnect, no state to report.
                return
            } catch let error as TransportError {
                switch error {
                case .upgradeRejected(let status) where status == 401:
                    let e = OddsError.authentication(adapter.provider, "HTTP 401 on the WebSocket upgrade")
                    await emit(.connection(.stopped(reason: e.message)), nil)
                    throw e
                case .upgradeRejected(let status) where status == 403:
                    let e = OddsError.accessDenied(adapter.provider, "HTTP 403 on the WebSocket upgrade")
                    await emit(.connection(.stopped(reason: e.message)), nil)
                    throw e
                case .invalidURL(let u):
                    throw OddsError.usage("Invalid \(name) WebSocket URL \(u).")
                default:
                    reason = redactor.redact(error.description)
                }
            }
            // Only a connection that stayed up proves the server healthy: one that sends a snapshot and
            // drops keeps its backoff growing.
            if let connectedAt, clock.now.timeIntervalSince(connectedAt) >= healthyAfter { attempt = 0 }
            attempt += 1
            guard policy.allows(attempt: attempt) else {
                let e = OddsError.network("\(name) live feed lost and \(attempt - 1) reconnects failed: \(reason).")
                await emit(.connection(.stopped(reason: e.message)), nil)
                throw e
            }
            let delay = policy.delay(attempt: attempt, jitter: Double.random(in: 0..<1))
            logger.info("\(name): \(reason); reconnecting in \(String(format: "%.2f", delay)) s (attempt \(attempt))")
            await emit(.connection(.reconnecting(seconds: delay, attempt: attempt, reason: reason)), nil)
            do { try await clock.sleep(delay) } catch { return }
        }
    }

    enum Ending { case closed(Int?), silent(TimeInterval), tooLarge(Int), reconnect(String), fatal(OddsError), cancelled }

    /// A message arriving in parts: read element by element, put together whole, or (malformed part
    /// way) the rest skipped.
    enum Parts { case elements(JSONArrayStream, any FeedElementReader), whole(ByteBuffer), skipping }

    /// Reads one connection until it ends, sending the adapter's application ping on its cadence.
    /// Time spent waiting for the consumer does not count as silence: the server is then held back
    /// by us, through TCP.
    static func pump(_ session: WebSocketSession, adapter: some FeedAdapter, link: FeedLink, name: String,
                     stats: FeedStats, transport: Transport, emit: (FeedUpdate, Date?) async -> Void) async throws -> Ending {
        let clock = transport.clock
        let activity = NIOLockedValueBox(Activity(last: clock.now, busy: false))
        let silentFor = NIOLockedValueBox<TimeInterval?>(nil)
        var watchdog: Task<Void, Never>?
        if let limit = adapter.silenceLimit {
            watchdog = Task {
                let step = max(0.05, limit / 4)
                // Silence counts only while the watchdog keeps its time: a process held up (suspended,
                // starved of CPU) was not listening, and what the server sent meanwhile is still unread.
                var quiet: TimeInterval = 0
                var previous = clock.now
                while !Task.isCancelled {
                    do { try await clock.sleep(step) } catch { return }
                    let now = clock.now
                    let watched = min(max(0, now.timeIntervalSince(previous)), step)
                    previous = now
                    let a = activity.withLockedValue { $0 }
                    quiet = a.busy ? 0 : min(max(0, now.timeIntervalSince(a.last)), quiet + watched)
                    if quiet > limit {
                        silentFor.withLockedValue { $0 = limit }
                        session.abort()
                        return
                    }
                }
            }
        }
        var pinger: Task<Void, Never>?
        if let ping = adapter.ping, ping.every > 0, ping.every.isFinite {
            pinger = Task {
                while !Task.isCancelled {
                    do { try await clock.sleep(ping.every) } catch { return }
                    guard link.send(ping.text) else { return }
                }
            }
        }
        defer { watchdog?.cancel(); pinger?.cancel() }
        var first = true
        var code: Int?
        var failure: WebSocketFailure?
        let tap = transport.frameTap
        let feed = adapter.feedName
        var notices = Set<String>()
        // Skipped messages are said once, then counted per interval (a frame of many bad messages is
        // not a line each); the counts left are said when the connection ends.
        var warnings = WarningGate()
        let skippedKind = "\(name): skipped a malformed message"
        func skip(_ reason: String) {
            let reason = transport.redactor.redact(reason)
            stats.skipped(reason)
            for line in warnings.note(skippedKind, reason, now: clock.now) { transport.logger.warning("\(line)") }
        }
        defer { for line in warnings.due(now: clock.now, force: true) { transport.logger.warning("\(line)") } }
        func sayDueWarnings() {
            if warnings.hasPending { for line in warnings.due(now: clock.now) { transport.logger.warning("\(line)") } }
        }
        /// Emits the message's updates and acts on its errors; an ending stops the connection.
        func act(on inbound: Inbound, stamped: Date? = nil) async -> Ending? {
            switch inbound {
            case .data, .keepalive:
                for u in inbound.updates { await emit(u, stamped) }
            case .batch(let items, let skipped):
                for reason in skipped { skip(reason) }
                for item in items { if let ending = await act(on: item, stamped: stamped) { return ending } }
            case .stamped(let inner, let at):
                return await act(on: inner, stamped: at)
            case .notice(let text):
                let text = ProviderText.excerpt(transport.redactor.redact(text))
                if notices.count < 100, notices.insert(text).inserted { transport.logger.warning("\(name): \(text)") }
            case .retry(let reason, let after, let resend):
                transport.logger.warning("\(name): \(ProviderText.excerpt(transport.redactor.redact(reason))); sending again in \(String(format: "%.1f", after)) s")
                for text in resend { link.send(text, after: after) }
            case .reconnect(let reason):
                return .reconnect(transport.redactor.redact(reason))
            case .fatal(let error):
                return .fatal(error)
            }
            return nil
        }
        /// A frame decoded where NIO holds it; the frame is let go of when this returns, before its
        /// updates are handed on (a frame of tens of MB is not held while the consumer works).
        func decode(_ frame: consuming ByteBuffer, at now: Date) throws -> Inbound {
            stats.frame(bytes: frame.readableBytes)
            return try frame.withUnsafeReadableBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                tap?.frame(feed: feed, bytes: bytes, at: now)
                return try adapter.receive(span: bytes, first: first)
            }
        }
        // A message of 1 MiB or more arrives in parts. An array of messages whose adapter reads
        // elements is read element by element as it arrives; anything else is put together first.
        var parts: Parts?
        var partBytes = 0
        // While recording, a message read element by element is also put together for the recorder,
        // which writes it whole once its last part is in (dated when its first part arrived).
        var recording: (bytes: ByteBuffer, at: Date)?
        func endParts(streamed: Bool) {
            if let r = recording {
                r.bytes.withUnsafeReadableBytes { tap?.frame(feed: feed, bytes: $0.bindMemory(to: UInt8.self), at: r.at) }
            }
            recording = nil
            if streamed { stats.streamedMessage(bytes: partBytes) } else { stats.frame(bytes: partBytes) }
            first = false
            parts = nil
            partBytes = 0
        }
        var events = session.events.makeAsyncIterator()
        while let event = await events.next() {
            if Task.isCancelled { return .cancelled }
            var frame: ByteBuffer
            switch consume event {
            case .frame(let bytes):
                frame = bytes
            case .part(var bytes, let final):
                activity.withLockedValue { $0 = Activity(last: clock.now, busy: true) }
                defer { activity.withLockedValue { $0 = Activity(last: clock.now, busy: false) } }
                partBytes += bytes.readableBytes
                if parts == nil {
                    parts = .whole(ByteBuffer())
                    if let reader = adapter.elementReader(first: first),
                       bytes.withUnsafeReadableBytes(JSONArrayStream.startsArray) == true {
                        parts = .elements(JSONArrayStream(), reader)
                        if tap != nil { recording = (ByteBuffer(), clock.now) }
                    }
                }
                if recording != nil { recording!.bytes.writeImmutableBuffer(bytes) }
                switch parts! {
                case .whole(var whole):
                    parts = nil
                    whole.writeBuffer(&bytes)
                    guard final else { parts = .whole(whole); continue }
                    partBytes = 0
                    frame = whole
                case .elements(let stream, let reader):
                    var items: [Inbound] = []
                    do {
                        try bytes.withUnsafeReadableBytes { raw in
                            try stream.feed(raw) { element in
                                do {
                                    items.append(try reader.element(element, generation: stream.generation))
                                } catch {
                                    items.append(.batch([], skipped: [String(describing: error)]))
                                }
                            }
                        }
                        if final { try stream.finish() }
                    } catch {
                        items.append(.batch([], skipped: [String(describing: error)]))
                        parts = .skipping
                    }
                    for item in items { if let ending = await act(on: item) { return ending } }
                    if final { endParts(streamed: true) }
                    sayDueWarnings()
                    continue
                case .skipping:
                    if final { endParts(streamed: false) }
                    continue
                }
            case .closed(let c, let error):
                code = c
                failure = error
                continue
            }
            let now = clock.now
            activity.withLockedValue { $0 = Activity(last: now, busy: true) }
            do {
                let inbound = try decode(consume frame, at: now)
                first = false
                if let ending = await act(on: inbound) { return ending }
            } catch {
                skip(String(describing: error))
            }
            sayDueWarnings()
            activity.withLockedValue { $0 = Activity(last: clock.now, busy: false) }
        }
        if Task.isCancelled { return .cancelled }
        if case .frameTooLarge(let limit) = failure { return .tooLarge(limit) }
        if let quiet = silentFor.withLockedValue({ $0 }) { return .silent(quiet) }
        return .closed(code)
    }
}

/// The connection rate shared by the connections of one feed.
final class ConnectionGate: @unchecked Sendable {
    // @unchecked: `rate` is behind `lock`.
    private let lock = NIOLock()
    private var rate: ConnectionRate
    var perMinute: Int? { rate.perMinute }

    init(perMinute: Int?) { rate = ConnectionRate(perMinute: perMinute) }

    /// Takes a place for a new connection now, or says how long to wait before asking again.
    func reserve(now: Date) -> TimeInterval? {
        lock.withLock {
            if let wait = rate.wait(now: now), wait > 0 { return wait }
            rate.record(now)
            return nil
        }
    }
}

/// When a connection last delivered a frame, and whether the consumer is busy with it.
private struct Activity: Sendable { var last: Date; var busy: Bool }

/// A provider's documented limit of new connections a minute, as a sliding window.
public struct ConnectionRate: Sendable {
    public let perMinute: Int?
    private var recent: [Date] = []

    public init(perMinute: Int?) { self.perMinute = perMinute }

    /// Seconds to wait before the next connection may start (nil: at once).
    public func wait(now: Date) -> TimeInterval? {
        guard let perMinute, recent.count >= perMinute else { return nil }
        let oldest = recent[recent.count - perMinute]
        let wait = 60 - now.timeIntervalSince(oldest)
        return wait > 0 ? wait : nil
    }

    public mutating func record(_ now: Date) {
        recent.append(now)
        if let perMinute, recent.count > perMinute { recent.removeFirst(recent.count - perMinute) }
    }
}

/// Carries a non-Sendable value (a feed adapter) into the one task that uses it from then on.
/// @unchecked Sendable: the value is handed over, never used by two tasks at once.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
