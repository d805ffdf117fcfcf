import Foundation
import NIOConcurrencyHelpers
import OddsModel

/// What to do when a live connection ends.
public enum CloseAction: Sendable, Equatable {
    case reconnect(reason: String)
    case stop(OddsError)
}

/// A provider's live WebSocket protocol: how to connect, subscribe, decode and react to closes.
/// One adapter serves one feed for its whole life, across reconnects.
public protocol FeedAdapter: AnyObject {
    var provider: ProviderID { get }
    /// The connection's name in recordings (`"<provider>/<connection>"`).
    var connectionName: String { get }
    /// URL (key included where the protocol puts it there) and upgrade headers.
    func endpoint() throws -> (url: String, headers: [(String, String)])
    /// Called once the upgrade completed; sends subscriptions. The session may be kept and sent on
    /// at any time while it is open.
    func didConnect(_ session: WebSocketSession)
    /// Decodes one message (its bytes as received) into normalized updates. Throws for a malformed
    /// message, which is skipped and counted. `first` is true for the first frame of a connection.
    func decode(_ frame: [UInt8], first: Bool) throws -> [FeedUpdate]
    /// What a close code (nil: dropped without one) means for this provider.
    func closeAction(code: Int?) -> CloseAction
    /// A connection silent this long is dead (nil: no watchdog).
    var silenceLimit: TimeInterval? { get }
    /// The provider's documented limit of new connections a minute (nil: none documented).
    var connectionsPerMinute: Int? { get }
}

extension FeedAdapter {
    public var connectionName: String { "live" }
    public var connectionsPerMinute: Int? { nil }

    /// Decodes a message given as text (tests and recorded examples).
    public func decode(_ text: String, first: Bool) throws -> [FeedUpdate] {
        try decode(Array(text.utf8), first: first)
    }
}

/// Receives every frame before it is decoded: the recorder. Called in arrival order.
public protocol FrameTap: Sendable {
    /// `feed` is `"<provider>/<connection>"`; `bytes` the frame or body exactly as received.
    func frame(feed: String, bytes: [UInt8], at: Date)
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
    private var _lastMalformed: String?

    public init() {}

    public var frames: Int { lock.withLock { _frames } }
    /// Frames that could not be decoded and were skipped.
    public var malformed: Int { lock.withLock { _malformed } }
    /// Successful connections, the first included.
    public var connects: Int { lock.withLock { _connects } }
    public var lastMalformedReason: String? { lock.withLock { _lastMalformed } }

    /// Bytes of every frame received.
    public var bytes: Int { lock.withLock { _bytes } }

    func frame(bytes: Int) { lock.withLock { _frames += 1; _bytes += bytes } }
    func connected() { lock.withLock { _connects += 1 } }
    func skipped(_ reason: String) { lock.withLock { _malformed += 1; _lastMalformed = reason } }
}

/// Runs a live feed: connects, decodes, reconnects with backoff, and ends on a fatal close.
public enum FeedRunner {
    /// Messages buffered between the feed and its consumer; past this the feed waits (and stops reading).
    public static let bufferCapacity = 256
    /// A connection that stayed up this long has proved itself: the next failure starts the backoff afresh.
    public static let healthyAfter: TimeInterval = 60

    /// Starts the feed. The stream ends by throwing the `OddsError` that stopped it, or when
    /// the consumer stops iterating.
    public static func run(_ adapter: some FeedAdapter, transport: Transport, stats: FeedStats,
                           policy: BackoffPolicy = .reconnect) -> FeedStream {
        let box = UncheckedBox(adapter)
        let queue = FeedStream(capacity: bufferCapacity)
        let id = UUID()
        let task = Task {
            do {
                try await loop(box.value, transport: transport, stats: stats, policy: policy) { update in
                    await queue.send(FeedMessage(provider: box.value.provider, receivedAt: Date(), update: update))
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

    static func loop(_ adapter: some FeedAdapter, transport: Transport, stats: FeedStats, policy: BackoffPolicy,
                     emit: (FeedUpdate) async -> Void) async throws {
        let name = adapter.provider.displayName
        let feedName = "\(adapter.provider.rawValue)/\(adapter.connectionName)"
        var attempt = 0
        var rate = ConnectionRate(perMinute: adapter.connectionsPerMinute)
        await emit(.connection(.connecting))
        while !Task.isCancelled {
            let reason: String
            var connectedAt: Date?
            do {
                if let wait = rate.wait(now: Date()), wait > 0 {
                    transport.logger.info("\(name): at its limit of \(adapter.connectionsPerMinute ?? 0) connections a minute; waiting \(String(format: "%.1f", wait)) s")
                    do { try await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000)) } catch { return }
                }
                rate.record(Date())
                let (url, headers) = try adapter.endpoint()
                let session = try await WebSocketSession.connect(url: url, headers: headers, transport: transport)
                connectedAt = Date()
                stats.connected()
                await emit(.connection(.live))
                adapter.didConnect(session)
                let ended = try await pump(session, adapter: adapter, feed: feedName, stats: stats, transport: transport,
                                           emit: emit)
                switch ended {
                case .cancelled:
                    await session.close()
                    return
                case .silent(let seconds):
                    reason = "no message for \(Int(seconds)) s"
                case .tooLarge(let limit):
                    let e = OddsError.provider(adapter.provider, "sent a message over the \(limit >> 20) MiB limit (max_frame_mb raises it)")
                    await emit(.connection(.stopped(reason: e.message)))
                    throw e
                case .closed(let code):
                    switch adapter.closeAction(code: code) {
                    case .stop(let error):
                        await emit(.connection(.stopped(reason: error.message)))
                        throw error
                    case .reconnect(let why):
                        reason = why
                    }
                }
            } catch let error as TransportError {
                switch error {
                case .upgradeRejected(let status) where status == 401:
                    let e = OddsError.authentication(adapter.provider, "HTTP 401 on the WebSocket upgrade")
                    await emit(.connection(.stopped(reason: e.message)))
                    throw e
                case .upgradeRejected(let status) where status == 403:
                    let e = OddsError.accessDenied(adapter.provider, "HTTP 403 on the WebSocket upgrade")
                    await emit(.connection(.stopped(reason: e.message)))
                    throw e
                case .invalidURL(let u):
                    throw OddsError.usage("Invalid \(name) WebSocket URL \(u).")
                default:
                    reason = transport.redactor.redact(error.description)
                }
            }
            // Only a connection that stayed up proves the server healthy: one that sends a snapshot and
            // drops keeps its backoff growing.
            if let connectedAt, Date().timeIntervalSince(connectedAt) >= healthyAfter { attempt = 0 }
            attempt += 1
            guard policy.allows(attempt: attempt) else {
                let e = OddsError.network("\(name) live feed lost and \(attempt - 1) reconnects failed: \(reason).")
                await emit(.connection(.stopped(reason: e.message)))
                throw e
            }
            let delay = policy.delay(attempt: attempt, jitter: Double.random(in: 0..<1))
            transport.logger.info("\(name): \(reason); reconnecting in \(String(format: "%.2f", delay)) s (attempt \(attempt))")
            await emit(.connection(.reconnecting(seconds: delay, attempt: attempt, reason: reason)))
            do { try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000)) } catch { return }
        }
    }

    enum Ending { case closed(Int?), silent(TimeInterval), tooLarge(Int), cancelled }

    /// Reads one connection until it ends. Time spent waiting for the consumer does not count as
    /// silence: the server is then held back by us, through TCP.
    static func pump(_ session: WebSocketSession, adapter: some FeedAdapter, feed: String, stats: FeedStats,
                     transport: Transport, emit: (FeedUpdate) async -> Void) async throws -> Ending {
        let activity = NIOLockedValueBox(Activity())
        let silentFor = NIOLockedValueBox<TimeInterval?>(nil)
        var watchdog: Task<Void, Never>?
        if let limit = adapter.silenceLimit {
            watchdog = Task {
                let step = max(0.05, limit / 4)
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: UInt64(step * 1_000_000_000))
                    let a = activity.withLockedValue { $0 }
                    if !a.busy && Date().timeIntervalSince(a.last) > limit {
                        silentFor.withLockedValue { $0 = limit }
                        session.abort()
                        return
                    }
                }
            }
        }
        defer { watchdog?.cancel() }
        var first = true
        var code: Int?
        var failure: WebSocketFailure?
        let tap = transport.frameTap
        for await event in session.events {
            if Task.isCancelled { return .cancelled }
            switch event {
            case .frame(let bytes):
                let now = Date()
                activity.withLockedValue { $0 = Activity(last: now, busy: true) }
                stats.frame(bytes: bytes.count)
                tap?.frame(feed: feed, bytes: bytes, at: now)
                do {
                    let updates = try adapter.decode(bytes, first: first)
                    first = false
                    for u in updates { await emit(u) }
                } catch {
                    let reason = transport.redactor.redact(String(describing: error))
                    stats.skipped(reason)
                    transport.logger.warning("\(adapter.provider.displayName): skipped a malformed message: \(reason)")
                }
                activity.withLockedValue { $0 = Activity(last: Date(), busy: false) }
            case .closed(let c, let error):
                code = c
                failure = error
            }
        }
        if Task.isCancelled { return .cancelled }
        if case .frameTooLarge(let limit) = failure { return .tooLarge(limit) }
        if let quiet = silentFor.withLockedValue({ $0 }) { return .silent(quiet) }
        return .closed(code)
    }
}

/// When a connection last delivered a frame, and whether the consumer is busy with it.
private struct Activity: Sendable { var last = Date(); var busy = false }

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

struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
