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
    /// URL (key included where the protocol puts it there) and upgrade headers.
    func endpoint() throws -> (url: String, headers: [(String, String)])
    /// Called once the upgrade completed; sends subscriptions.
    func didConnect(_ session: WebSocketSession)
    /// Decodes one text frame into normalized updates. Throws for a malformed message,
    /// which is skipped and counted. `first` is true for the first frame of a connection.
    func decode(_ text: String, first: Bool) throws -> [FeedUpdate]
    /// What a close code (nil: dropped without one) means for this provider.
    func closeAction(code: Int?) -> CloseAction
    /// A connection silent this long is dead (nil: no watchdog).
    var silenceLimit: TimeInterval? { get }
}

/// Counters of one feed, readable while it runs.
public final class FeedStats: @unchecked Sendable {
    private let lock = NIOLock()
    private var _frames = 0
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

    func frame() { lock.withLock { _frames += 1 } }
    func connected() { lock.withLock { _connects += 1 } }
    func skipped(_ reason: String) { lock.withLock { _malformed += 1; _lastMalformed = reason } }
}

/// Runs a live feed: connects, decodes, reconnects with backoff, and ends on a fatal close.
public enum FeedRunner {
    /// Starts the feed. The stream ends by throwing the `OddsError` that stopped it, or when
    /// the consumer stops iterating.
    public static func run(_ adapter: some FeedAdapter, transport: Transport, stats: FeedStats,
                           policy: BackoffPolicy = .reconnect) -> AsyncThrowingStream<FeedMessage, Error> {
        let box = UncheckedBox(adapter)
        return AsyncThrowingStream(bufferingPolicy: .unbounded) { continuation in
            let id = UUID()
            let task = Task {
                do {
                    try await loop(box.value, transport: transport, stats: stats, policy: policy) { update in
                        continuation.yield(FeedMessage(provider: box.value.provider, receivedAt: Date(), update: update))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
                transport.untrack(id)
            }
            transport.track(id, task)
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    static func loop(_ adapter: some FeedAdapter, transport: Transport, stats: FeedStats, policy: BackoffPolicy,
                     emit: (FeedUpdate) -> Void) async throws {
        let name = adapter.provider.displayName
        var attempt = 0
        emit(.connection(.connecting))
        while !Task.isCancelled {
            let reason: String
            do {
                let (url, headers) = try adapter.endpoint()
                let session = try await WebSocketSession.connect(url: url, headers: headers, transport: transport)
                stats.connected()
                emit(.connection(.live))
                adapter.didConnect(session)
                let ended = try await pump(session, adapter: adapter, stats: stats, transport: transport, emit: emit) {
                    attempt = 0
                }
                switch ended {
                case .cancelled:
                    await session.close()
                    return
                case .silent(let seconds):
                    reason = "no message for \(Int(seconds)) s"
                case .closed(let code):
                    switch adapter.closeAction(code: code) {
                    case .stop(let error):
                        emit(.connection(.stopped(reason: error.message)))
                        throw error
                    case .reconnect(let why):
                        reason = why
                    }
                }
            } catch let error as TransportError {
                switch error {
                case .upgradeRejected(let status) where status == 401:
                    let e = OddsError.authentication(adapter.provider, "HTTP 401 on the WebSocket upgrade")
                    emit(.connection(.stopped(reason: e.message)))
                    throw e
                case .upgradeRejected(let status) where status == 403:
                    let e = OddsError.accessDenied(adapter.provider, "HTTP 403 on the WebSocket upgrade")
                    emit(.connection(.stopped(reason: e.message)))
                    throw e
                case .invalidURL(let u):
                    throw OddsError.usage("Invalid \(name) WebSocket URL \(u).")
                default:
                    reason = transport.redactor.redact(error.description)
                }
            }
            attempt += 1
            guard policy.allows(attempt: attempt) else {
                let e = OddsError.network("\(name) live feed lost and \(attempt - 1) reconnects failed: \(reason).")
                emit(.connection(.stopped(reason: e.message)))
                throw e
            }
            let delay = policy.delay(attempt: attempt)
            transport.logger.info("\(name): \(reason); reconnecting in \(delay) s (attempt \(attempt))")
            emit(.connection(.reconnecting(seconds: delay, attempt: attempt, reason: reason)))
            do { try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000)) } catch { return }
        }
    }

    enum Ending { case closed(Int?), silent(TimeInterval), cancelled }

    /// Reads one connection until it ends.
    static func pump(_ session: WebSocketSession, adapter: some FeedAdapter, stats: FeedStats, transport: Transport,
                     emit: (FeedUpdate) -> Void, onGoodFrame: () -> Void) async throws -> Ending {
        let lastFrame = NIOLockedValueBox(Date())
        let silentFor = NIOLockedValueBox<TimeInterval?>(nil)
        var watchdog: Task<Void, Never>?
        if let limit = adapter.silenceLimit {
            watchdog = Task {
                let step = max(0.05, limit / 4)
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: UInt64(step * 1_000_000_000))
                    let quiet = Date().timeIntervalSince(lastFrame.withLockedValue { $0 })
                    if quiet > limit {
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
        for await event in session.events {
            if Task.isCancelled { return .cancelled }
            switch event {
            case .text(let text):
                lastFrame.withLockedValue { $0 = Date() }
                stats.frame()
                do {
                    let updates = try adapter.decode(text, first: first)
                    first = false
                    onGoodFrame()
                    for u in updates { emit(u) }
                } catch {
                    let reason = transport.redactor.redact(String(describing: error))
                    stats.skipped(reason)
                    transport.logger.warning("\(adapter.provider.displayName): skipped a malformed message: \(reason)")
                }
            case .closed(let c):
                code = c
            }
        }
        if Task.isCancelled { return .cancelled }
        if let quiet = silentFor.withLockedValue({ $0 }) { return .silent(quiet) }
        return .closed(code)
    }
}

struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
