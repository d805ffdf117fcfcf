import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL
import OddsModel

/// A response body and status, as received.
public struct HTTPResult: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}

/// Why a request failed below the HTTP status level.
public enum TransportError: Error, Sendable, CustomStringConvertible {
    case invalidURL(String)
    case timedOut(String)
    case connectionFailed(String)
    case upgradeRejected(status: Int)

    public var description: String {
        switch self {
        case .invalidURL(let u): return "invalid URL \(u)"
        case .timedOut(let what): return "timed out: \(what)"
        case .connectionFailed(let why): return "connection failed: \(why)"
        case .upgradeRejected(let s): return "WebSocket upgrade rejected with HTTP \(s)"
        }
    }
}

/// The networking stack: one event loop group, HTTP/1.1 connections kept per origin, and WebSocket
/// connections. The only module that imports SwiftNIO on the client side.
public final class Transport: @unchecked Sendable {
    /// The event loop (one thread) and the TLS configuration, made at first use: a command that never
    /// reaches the network (a replay, `odds help`) never starts the thread.
    private struct Stack {
        let group: MultiThreadedEventLoopGroup
        let tls: TLSConfiguration
    }
    /// What the transport keeps, under one lock. Not a box of each: each generic box (of a dictionary of
    /// UUIDs and tasks, of an SSL context) cost the runtime a scan of every protocol conformance at start.
    private struct State {
        var stack: Stack?
        /// The WebSocket client's TLS context, built once (it loads the trust store).
        var sslContext: NIOSSLContext?
        /// Live feeds started on this transport; `shutdown()` stops and awaits them first.
        var feeds: [UUID: Task<Void, Never>] = [:]
        /// REST connections between requests, by origin (a few each), reused by the next request there.
        var idle: [String: [Channel]] = [:]
    }
    /// Idle connections kept per origin.
    static let idlePerOrigin = 4
    private let state = NIOLockedValueBox(State())
    private let trustRoots: TrustRoots

    /// Whether the event loop has been made (and not shut down since).
    var isStarted: Bool { state.withLockedValue { $0.stack != nil } }

    public var group: MultiThreadedEventLoopGroup { started().group }
    /// TLS for HTTPS and WSS alike: full verification against the system's authorities and `trustRoots`.
    var tlsConfiguration: TLSConfiguration { started().tls }

    private func started() -> Stack {
        state.withLockedValue { state in
            if let stack = state.stack { return stack }
            let made = Stack(group: MultiThreadedEventLoopGroup(numberOfThreads: 1), tls: trustRoots.clientConfiguration)
            state.stack = made
            return made
        }
    }
    public let logger: Logger
    public let redactor: Redactor
    /// Largest WebSocket message accepted (fragments together). BoltOdds' initial state runs to tens of
    /// MB; NIO's default is 16 KiB. A bigger message stops the feed with one clear error.
    public var maxFrameSize = Transport.defaultMaxFrameSize
    public static let defaultMaxFrameSize = 64 << 20
    /// Bytes of frames each WebSocket buffers before its socket stops being read (resumed at a quarter of it).
    /// Several feeds into one consumer share the default between them (`odds stream --provider all`), so
    /// that a reader who stops reading holds about the same memory whatever the number of connections.
    public var webSocketBuffer = Transport.defaultWebSocketBuffer
    public static let defaultWebSocketBuffer = 4 << 20
    /// WebSocket messages of this size or more are handed on in parts as their bytes arrive (and read
    /// element by element where the provider can), never held whole; smaller ones come whole.
    public var streamMessagesFrom = WebSocketReader.defaultStreamFrom
    /// Receives every WebSocket frame and REST body before it is decoded (`odds record`). Set before use.
    public var frameTap: FrameTap?
    /// Largest REST body accepted, after decompression: a small "zip bomb" cannot exhaust memory.
    public var maxBodySize = 256 << 20
    /// The whole of a REST request, connection and redirects included.
    public var requestTimeout: TimeAmount = .seconds(20)
    /// The part of it a connection may take. A refused connection or a rejected certificate is reported at
    /// once, never retried here: REST retries its own statuses and live feeds reconnect with their backoff.
    public var connectTimeout: TimeAmount = .seconds(10)

    /// The time every wait of this transport's feeds and requests goes by.
    public let clock: any FeedClock

    public init(logger: Logger, redactor: Redactor, trustRoots: TrustRoots = .system, clock: any FeedClock = SystemClock()) {
        self.clock = clock
        self.trustRoots = trustRoots
        self.logger = logger
        self.redactor = redactor
    }

    /// The WebSocket client's TLS context, built once (it loads the trust store).
    func clientSSLContext() throws -> NIOSSLContext {
        let tls = tlsConfiguration
        return try state.withLockedValue { state in
            if let cached = state.sslContext { return cached }
            let context = try NIOSSLContext(configuration: tls)
            state.sslContext = context
            return context
        }
    }

    func track(_ id: UUID, _ task: Task<Void, Never>) { state.withLockedValue { $0.feeds[id] = task } }
    func untrack(_ id: UUID) { state.withLockedValue { _ = $0.feeds.removeValue(forKey: id) } }

    /// Stops every feed, then closes kept connections and releases the thread, if it was made. Call once, before exit.
    public func shutdown() async {
        let running = state.withLockedValue { s -> [Task<Void, Never>] in defer { s.feeds = [:] }; return Array(s.feeds.values) }
        for task in running { task.cancel() }
        for task in running { await task.value }
        // Nothing to stop when nothing reached the network. Taken out: a use after this makes a new stack.
        let (stack, idle) = state.withLockedValue { s -> (Stack?, [Channel]) in
            defer { s.stack = nil; s.sslContext = nil; s.idle = [:] }
            return (s.stack, s.idle.values.flatMap { $0 })
        }
        for channel in idle { try? await channel.close() }
        guard let stack else { return }
        try? await stack.group.shutdownGracefully()
    }

    /// A kept connection to `origin` that is still open, if any.
    private func takeIdle(_ origin: String) -> Channel? {
        state.withLockedValue { state in
            while let channel = state.idle[origin]?.popLast() {
                if channel.isActive { return channel }
            }
            return nil
        }
    }

    /// Keeps a connection whose response ended and that both sides leave open; closes it otherwise.
    private func keep(_ channel: Channel, origin: String, reusable: Bool) {
        let kept = reusable && channel.isActive && state.withLockedValue { state in
            guard state.stack != nil, state.idle[origin, default: []].count < Self.idlePerOrigin else { return false }
            state.idle[origin, default: []].append(channel)
            return true
        }
        if !kept { channel.close(promise: nil) }
    }

    /// Performs a GET and returns whatever status came back; throws only for transport failures.
    public func get(_ url: String, headers: [(String, String)]) async throws -> HTTPResult {
        try await perform(.GET, url, headers: headers, body: nil)
    }

    /// Performs a POST of a JSON body and returns whatever status came back.
    public func post(_ url: String, headers: [(String, String)], json body: [UInt8]) async throws -> HTTPResult {
        try await perform(.POST, url, headers: headers + [("Content-Type", "application/json")], body: body)
    }

    private func perform(_ method: HTTPMethod, _ url: String, headers: [(String, String)], body: [UInt8]?) async throws -> HTTPResult {
        let deadline = NIODeadline.now() + requestTimeout
        var method = method, url = url, body = body
        // Redirects are followed within the origin (or from http to https on the same host), at most five:
        // the request's headers, the key's among them, never go to another host.
        for _ in 0...5 {
            guard let target = HTTPTarget(url) else { throw TransportError.invalidURL(redactor.redact(url)) }
            var head = HTTPRequestHead(version: .http1_1, method: method, uri: target.uri)
            head.headers.add(name: "Host", value: target.hostHeader)
            head.headers.add(name: "Accept", value: "application/json")
            head.headers.add(name: "User-Agent", value: "odds/\(OddsVersion.current)")
            for (name, value) in headers { head.headers.add(name: name, value: value) }
            if let body { head.headers.add(name: "Content-Length", value: String(body.count)) }
            logger.debug("\(method.rawValue) \(redactor.redact(url))")
            let response = try await exchange(head, body: body, target: target, url: url, deadline: deadline)
            let status = Int(response.head.status.code)
            logger.debug("HTTP \(status) \(response.body.readableBytes) bytes from \(redactor.redact(url))")
            if [301, 302, 303, 307, 308].contains(status), let location = response.head.headers.first(name: "Location"),
               let next = URL(string: location, relativeTo: URL(string: url))?.absoluteString,
               let nextTarget = HTTPTarget(next), nextTarget.host.lowercased() == target.host.lowercased(),
               nextTarget.origin == target.origin || (nextTarget.tls && !target.tls) {
                if status == 303 || (method == .POST && status <= 302) { method = .GET; body = nil }
                url = next
                continue
            }
            return HTTPResult(status: status, headers: response.head.headers.map { ($0.name, $0.value) },
                              body: Array(response.body.readableBytesView))
        }
        throw TransportError.connectionFailed("too many redirects from \(redactor.redact(host(of: url)))")
    }

    /// One request and its response, on a kept connection to the origin if one is open, else on a new one.
    /// Connecting, sending and a GET's second try are one chain of futures on the event loop; the task waits
    /// once, for the end. Past the deadline, or when the task is cancelled, the connection is closed.
    private func exchange(_ head: HTTPRequestHead, body: [UInt8]?, target: HTTPTarget, url: String,
                          deadline: NIODeadline) async throws -> HTTPResponseRead {
        let loop = group.next()
        let limit = maxBodySize, connectTimeout = self.connectTimeout, redactedURL = redactor.redact(url)
        let outcome = loop.makePromise(of: HTTPResponseRead.self)
        // The connection in use, and whether the outcome is settled (by the response, the deadline or a cancel).
        let race = NIOLockedValueBox<(channel: Channel?, settled: Bool)>((nil, false))
        /// True for the first of the response, the deadline and a cancel; the others then do nothing.
        @Sendable func claim() -> Bool { race.withLockedValue { r in defer { r.settled = true }; return !r.settled } }
        @Sendable func abandon(_ error: Error) {
            guard claim() else { return }
            race.withLockedValue { $0.channel }?.close(promise: nil)
            outcome.fail(error)
        }
        @Sendable func send(on connection: HTTPConnection) -> EventLoopFuture<HTTPResponseRead> {
            let live = race.withLockedValue { r in r.channel = connection.channel; return !r.settled }
            guard live else {
                connection.channel.close(promise: nil)
                return loop.makeFailedFuture(CancellationError())
            }
            return connection.send(head, body: body, limit: limit)
        }
        @Sendable func fresh() -> EventLoopFuture<HTTPResponseRead> {
            let remaining = deadline - .now()
            guard remaining > .zero else { return loop.makeFailedFuture(TransportError.timedOut(redactedURL)) }
            return HTTPConnection.connect(to: target, transport: self, bodyLimit: limit, timeout: min(remaining, connectTimeout))
                .flatMap { send(on: $0) }
        }
        let response: EventLoopFuture<HTTPResponseRead>
        if let kept = takeIdle(target.origin) {
            // The server may have closed the kept connection meanwhile: a GET goes again on a new one.
            response = send(on: HTTPConnection(channel: kept, errors: FirstErrorRecorder())).flatMapError { error in
                if case HTTPExchangeError.closed(headRead: false) = error, head.method == .GET { return fresh() }
                return loop.makeFailedFuture(error)
            }
        } else {
            response = fresh()
        }
        response.whenComplete { result in
            let channel = race.withLockedValue { $0.channel }
            guard claim() else { channel?.close(promise: nil); return }
            // Kept before the caller hears of the response: its next request finds the connection.
            if case .success(let read) = result, let channel {
                self.keep(channel, origin: target.origin, reusable: read.head.isKeepAlive && head.isKeepAlive)
            } else {
                channel?.close(promise: nil)
            }
            outcome.completeWith(result)
        }
        let timer = loop.scheduleTask(deadline: deadline) { abandon(TransportError.timedOut(redactedURL)) }
        defer { timer.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await outcome.futureResult.get()
            } onCancel: {
                abandon(CancellationError())
            }
        } catch let error as TransportError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch HTTPExchangeError.bodyTooLarge, NIOHTTPDecompression.DecompressionError.limit {
            // The decompressor's limit stops a compressed body as it grows past the bound (a "zip bomb").
            throw TransportError.connectionFailed("the response from \(target.host) is larger than \(limit >> 20) MB")
        } catch is NIOHTTPDecompression.DecompressionError, is NIOHTTPDecompression.ExtraDecompressionError {
            throw TransportError.connectionFailed("the response from \(target.host) is not valid gzip or deflate")
        } catch ChannelError.connectTimeout {
            throw TransportError.timedOut(redactedURL)
        } catch HTTPExchangeError.closed {
            if Task.isCancelled { throw CancellationError() }
            throw TransportError.connectionFailed("\(target.host) closed the connection before the response ended")
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw TransportError.connectionFailed(redactor.redact(describeConnectionFailure(error, host: target.host)))
        }
    }
}

/// The host of a URL, for error messages.
func host(of url: String) -> String {
    URLComponents(string: url)?.host ?? url
}
