import AsyncHTTPClient
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
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

/// The networking stack: one event loop group, one HTTP client, and WebSocket connections.
/// The only module that imports SwiftNIO on the client side.
public final class Transport: @unchecked Sendable {
    /// The event loop (one thread), the HTTP client and the TLS configuration, made at first use: a
    /// command that never reaches the network (a replay, `odds help`) neither starts the thread nor
    /// builds the client, about a millisecond of every one-shot replay.
    private struct Stack {
        let group: MultiThreadedEventLoopGroup
        let http: HTTPClient
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
    }
    private let state = NIOLockedValueBox(State())
    private let trustRoots: TrustRoots

    /// Whether the event loop and HTTP client have been made (and not shut down since).
    var isStarted: Bool { state.withLockedValue { $0.stack != nil } }

    public var group: MultiThreadedEventLoopGroup { started().group }
    var http: HTTPClient { started().http }
    /// TLS for HTTPS and WSS alike: full verification against the system's authorities and `trustRoots`.
    var tlsConfiguration: TLSConfiguration { started().tls }

    private func started() -> Stack {
        state.withLockedValue { state in
            if let stack = state.stack { return stack }
            let tls = trustRoots.clientConfiguration
            var config = HTTPClient.Configuration(tlsConfiguration: tls)
            config.timeout = .init(connect: .seconds(10), read: .seconds(30))
            // A compressed body may expand only to the body bound: a small "zip bomb" cannot exhaust memory.
            config.decompression = .enabled(limit: .size(256 << 20))
            // A refused connection or a rejected certificate is reported at once instead of after the connect
            // timeout; REST retries its own statuses and the live feeds reconnect with their own backoff.
            config.connectionPool.retryConnectionEstablishment = false
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            let made = Stack(group: group, http: HTTPClient(eventLoopGroupProvider: .shared(group), configuration: config), tls: tls)
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
    /// Largest REST body accepted.
    public var maxBodySize = 256 << 20
    public var requestTimeout: TimeAmount = .seconds(20)

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

    /// Stops every feed, then releases the HTTP client and the thread, if they were made. Call once, before exit.
    public func shutdown() async {
        let running = state.withLockedValue { s -> [Task<Void, Never>] in defer { s.feeds = [:] }; return Array(s.feeds.values) }
        for task in running { task.cancel() }
        for task in running { await task.value }
        // Nothing to stop when nothing reached the network. Taken out: a use after this makes a new stack.
        guard let stack = state.withLockedValue({ s -> Stack? in defer { s.stack = nil; s.sslContext = nil }; return s.stack }) else { return }
        try? await stack.http.shutdown()
        try? await stack.group.shutdownGracefully()
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
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "odds/\(OddsVersion.current)")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        logger.debug("\(method.rawValue) \(redactor.redact(url))")
        do {
            let response = try await http.execute(request, timeout: requestTimeout)
            let body = try await response.body.collect(upTo: maxBodySize)
            let bytes = body.getBytes(at: body.readerIndex, length: body.readableBytes) ?? []
            logger.debug("HTTP \(response.status.code) \(bytes.count) bytes from \(redactor.redact(url))")
            return HTTPResult(status: Int(response.status.code),
                              headers: response.headers.map { ($0.name, $0.value) }, body: bytes)
        } catch let error as HTTPClientError {
            if error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
                throw TransportError.timedOut(redactor.redact(url))
            }
            if error == .invalidURL || error == .emptyHost || error == .unsupportedScheme(url) {
                throw TransportError.invalidURL(redactor.redact(url))
            }
            throw TransportError.connectionFailed(redactor.redact(describeConnectionFailure(error, host: host(of: url))))
        } catch {
            throw TransportError.connectionFailed(redactor.redact(describeConnectionFailure(error, host: host(of: url))))
        }
    }
}

/// The host of a URL, for error messages.
func host(of url: String) -> String {
    URLComponents(string: url)?.host ?? url
}

/// The tool's version, shown by `--version` and sent as the User-Agent: the one place it is written (the
/// Makefile reads it from here for `make dist`).
public enum OddsVersion {
    public static let current = "0.1.0"
}
