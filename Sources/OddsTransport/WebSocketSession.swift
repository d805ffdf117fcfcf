import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import OddsModel

/// What a WebSocket connection delivers.
public enum WebSocketEvent: Sendable {
    case text(String)
    /// The connection ended; `code` is the close code when the server sent one.
    case closed(code: Int?)
}

/// One open WebSocket connection on SwiftNIO's typed upgrade pipeline: custom upgrade headers,
/// frames up to `Transport.maxFrameSize` (fragments aggregated), pings answered, close codes read.
public final class WebSocketSession: @unchecked Sendable {
    private let channel: Channel
    /// Text frames and the final close, in order.
    public let events: AsyncStream<WebSocketEvent>

    private init(channel: Channel, events: AsyncStream<WebSocketEvent>) {
        self.channel = channel
        self.events = events
    }

    enum Upgrade: Sendable {
        case upgraded(Channel)
        case rejected(EventLoopFuture<Int>)
    }

    /// Opens a connection to a `ws://` or `wss://` URL, sending `headers` on the upgrade request.
    public static func connect(url: String, headers: [(String, String)], transport: Transport,
                               timeout: TimeInterval = 10) async throws -> WebSocketSession {
        guard let parsed = URLComponents(string: url), let scheme = parsed.scheme?.lowercased(),
              scheme == "ws" || scheme == "wss", let host = parsed.host, !host.isEmpty else {
            throw TransportError.invalidURL(transport.redactor.redact(url))
        }
        let tls = scheme == "wss"
        let port = parsed.port ?? (tls ? 443 : 80)
        var uri = parsed.percentEncodedPath.isEmpty ? "/" : parsed.percentEncodedPath
        if let q = parsed.percentEncodedQuery { uri += "?" + q }
        let sslContext: NIOSSLContext?
        do { sslContext = tls ? try transport.clientSSLContext() : nil } catch {
            throw TransportError.connectionFailed("cannot set up TLS: \(error)")
        }
        let tlsErrors = FirstErrorRecorder()
        let maxFrame = transport.maxFrameSize
        transport.logger.debug("WebSocket connect \(transport.redactor.redact(url))")

        let (stream, continuation) = AsyncStream<WebSocketEvent>.makeStream(bufferingPolicy: .unbounded)
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: uri)
        head.headers.add(name: "Host", value: parsed.port.map { "\(host):\($0)" } ?? host)
        head.headers.add(name: "User-Agent", value: "odds/\(OddsVersion.current)")
        for (n, v) in headers { head.headers.add(name: n, value: v) }
        let requestHead = head

        let connect: @Sendable () async throws -> Upgrade = {
            let upgrade: EventLoopFuture<Upgrade> = try await ClientBootstrap(group: transport.group)
                .connectTimeout(.milliseconds(Int64(timeout * 1000)))
                .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let sslContext {
                            let sni = isIPAddress(host) ? nil : host
                            try channel.pipeline.syncOperations.addHandlers(
                                NIOSSLClientHandler(context: sslContext, serverHostname: sni), tlsErrors)
                        }
                        let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(
                            maxFrameSize: maxFrame,
                            upgradePipelineHandler: { channel, _ in
                                channel.eventLoop.makeCompletedFuture {
                                    try channel.pipeline.syncOperations.addHandler(NIOWebSocketFrameAggregator(
                                        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1 << 16, maxAccumulatedFrameSize: maxFrame))
                                    let reader = FrameReader(continuation: continuation)
                                    try channel.pipeline.syncOperations.addHandler(reader)
                                    // If the server closed before the reader was in place, it never sees channelInactive.
                                    channel.closeFuture.whenComplete { _ in reader.finish() }
                                    return .upgraded(channel)
                                }
                            })
                        let configuration = NIOTypedHTTPClientUpgradeConfiguration<Upgrade>(
                            upgradeRequestHead: requestHead, upgraders: [upgrader],
                            notUpgradingCompletionHandler: { channel in
                                channel.eventLoop.makeCompletedFuture {
                                    let catcher = StatusCatcher(promise: channel.eventLoop.makePromise(of: Int.self))
                                    do { try channel.pipeline.syncOperations.addHandler(catcher) } catch {
                                        catcher.promise.fail(error)
                                        throw error
                                    }
                                    return .rejected(catcher.promise.futureResult)
                                }
                            })
                        // Frames that arrive in the same read as the 101 must be kept: the default drops them.
                        var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: configuration)
                        pipeline.leftOverBytesStrategy = .forwardBytes
                        return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(configuration: pipeline)
                    }
                }
            return try await upgrade.get()
        }

        let result: Upgrade
        do {
            // A connect that outlives the timeout is closed when it finally completes.
            guard let upgrade = try await withTimeout(timeout, connect, late: { late in
                if case .upgraded(let channel) = late { channel.close(promise: nil) }
            }) else {
                throw TransportError.timedOut("WebSocket connect to \(transport.redactor.redact(url))")
            }
            result = upgrade
        } catch let error as TransportError {
            continuation.finish()
            throw error
        } catch {
            continuation.finish()
            let cause = tlsErrors.error ?? error
            throw TransportError.connectionFailed(transport.redactor.redact(describeConnectionFailure(cause, host: host)))
        }
        switch result {
        case .upgraded(let channel):
            return WebSocketSession(channel: channel, events: stream)
        case .rejected(let status):
            continuation.finish()
            let code = (try? await status.get()) ?? 0
            throw TransportError.upgradeRejected(status: code)
        }
    }

    /// Sends one text frame (masked, as a client must).
    public func send(_ text: String) {
        let frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: channel.allocator.buffer(string: text))
        channel.writeAndFlush(frame, promise: nil)
    }

    /// Closes with a normal close frame; the `events` stream then ends.
    public func close() async {
        var data = channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: .normalClosure)
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: data)
        guard channel.isActive else { return }
        try? await channel.writeAndFlush(frame).get()
        try? await channel.close().get()
    }

    /// Drops the connection without a close handshake (after a heartbeat timeout).
    public func abort() {
        channel.close(promise: nil)
    }
}

/// True for IPv4 and IPv6 literals, which must not be sent as TLS SNI.
func isIPAddress(_ host: String) -> Bool {
    var v4 = in_addr(), v6 = in6_addr()
    return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
}

/// Turns frames into `WebSocketEvent`s: answers pings, echoes the server's close, reports its code.
final class FrameReader: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    let continuation: AsyncStream<WebSocketEvent>.Continuation
    var closeCode: Int?
    var closing = false
    var finished = false

    init(continuation: AsyncStream<WebSocketEvent>.Continuation) { self.continuation = continuation }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary:
            continuation.yield(.text(String(buffer: frame.unmaskedData)))
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            var payload = frame.unmaskedData
            closeCode = payload.readWebSocketErrorCode().map { Int(UInt16(webSocketErrorCode: $0)) }
            guard !closing else { context.close(promise: nil); return }
            closing = true
            var echo = context.channel.allocator.buffer(capacity: 2)
            echo.write(webSocketErrorCode: WebSocketErrorCode(codeNumber: closeCode ?? 1000))
            let reply = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: echo)
            context.writeAndFlush(wrapOutboundOut(reply)).whenComplete { _ in context.close(promise: nil) }
        default:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    /// Ends the event stream once, with the close code if one arrived. Runs on the channel's loop.
    func finish() {
        guard !finished else { return }
        finished = true
        continuation.yield(.closed(code: closeCode))
        continuation.finish()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}

/// When the server refuses the upgrade: reads the status of its HTTP answer, then closes.
final class StatusCatcher: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    let promise: EventLoopPromise<Int>
    var done = false

    init(promise: EventLoopPromise<Int>) { self.promise = promise }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data), !done {
            done = true
            promise.succeed(Int(head.status.code))
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !done { done = true; promise.succeed(0) }
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if !done { done = true; promise.succeed(0) }
    }
}

/// Runs `operation`, returning nil if it has not finished within `seconds`; it is not awaited past
/// that, and a result that arrives late is handed to `late`.
func withTimeout<T: Sendable>(_ seconds: TimeInterval, _ operation: @escaping @Sendable () async throws -> T,
                              late: @escaping @Sendable (T) -> Void) async throws -> T? {
    let gate = NIOLockedValueBox<CheckedContinuation<T?, Error>?>(nil)
    // Whoever takes the continuation first resumes it; the other finds nil.
    @Sendable func take() -> CheckedContinuation<T?, Error>? {
        gate.withLockedValue { g in defer { g = nil }; return g }
    }
    return try await withCheckedThrowingContinuation { (c: CheckedContinuation<T?, Error>) in
        gate.withLockedValue { $0 = c }
        Task {
            do {
                let value = try await operation()
                if let c = take() { c.resume(returning: value) } else { late(value) }
            } catch {
                take()?.resume(throwing: error)
            }
        }
        Task {
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            take()?.resume(returning: nil)
        }
    }
}
