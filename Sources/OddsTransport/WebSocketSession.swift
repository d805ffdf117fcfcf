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
    /// A text (or binary) message under 1 MiB, whole, in a buffer of its own.
    case frame(ByteBuffer)
    /// The next bytes of a larger message, as they arrived (where NIO received them); `final` on its
    /// last part. A message of tens of MB is never held whole unless its consumer puts it together.
    case part(ByteBuffer, final: Bool)
    /// The connection ended; `code` is the close code when the server sent one, `error` the
    /// protocol failure that ended it (a frame over the size bound), if any.
    case closed(code: Int?, error: WebSocketFailure?)
}

extension WebSocketEvent {
    /// A message's (or part's) bytes, copied (for tests and tools; a feed reads them in place); nil
    /// for a close.
    public var bytes: [UInt8]? {
        switch self {
        case .frame(let buffer), .part(let buffer, _): return Array(buffer.readableBytesView)
        case .closed: return nil
        }
    }
}

/// A failure of the WebSocket protocol itself, as opposed to a close the server chose.
public enum WebSocketFailure: Error, Sendable, Equatable {
    /// A message larger than the configured bound (`bytes`).
    case frameTooLarge(limit: Int)
}

/// Bytes of frames received and not yet taken by the consumer, shared by the reader (adds) and the
/// consumer's iterator (subtracts).
public final class BufferedBytes: Sendable {
    private let box = NIOLockedValueBox(0)
    public var value: Int { box.withLockedValue { $0 } }
    func add(_ n: Int) { box.withLockedValue { $0 += n } }
}

/// Back-pressure by bytes, not frame count: the socket is read (and pings answered) while less than
/// `high` bytes wait, and reading resumes below `low` or when the buffer is empty. Small frames then
/// flow freely, and a few big ones (BoltOdds' initial state) still stop the reading.
public struct ByteWatermark: NIOAsyncSequenceProducerBackPressureStrategy {
    let bytes: BufferedBytes
    let low: Int
    let high: Int
    public mutating func didYield(bufferDepth: Int) -> Bool { bytes.value < high }
    public mutating func didConsume(bufferDepth: Int) -> Bool { bufferDepth == 0 || bytes.value < low }
}

typealias FrameProducer = NIOAsyncSequenceProducer<WebSocketEvent, ByteWatermark, ReadDemand>

/// Frames waiting between the socket and the consumer: NIO stops reading the socket at the high mark
/// and resumes at the low one, so a slow consumer slows the server through TCP instead of growing memory.
public struct WebSocketEvents: AsyncSequence, Sendable {
    public typealias Element = WebSocketEvent
    let frames: FrameProducer
    let bytes: BufferedBytes

    public struct AsyncIterator: AsyncIteratorProtocol {
        var inner: FrameProducer.AsyncIterator
        let bytes: BufferedBytes
        public mutating func next() async -> WebSocketEvent? {
            let event = await inner.next()
            switch event {
            case .frame(let b)?, .part(let b, _)?: bytes.add(-b.readableBytes)
            default: break
            }
            return event
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(inner: frames.makeAsyncIterator(), bytes: bytes) }
}

/// One open WebSocket connection on SwiftNIO's typed upgrade pipeline: custom upgrade headers,
/// messages up to `Transport.maxFrameSize` (fragments together; from 1 MiB handed on in parts as
/// they arrive), pings answered, close codes read, and back-pressure from the consumer to the socket.
public final class WebSocketSession: @unchecked Sendable {
    // @unchecked: `channel` is a let of a thread-safe Channel; `events` is a Sendable sequence.
    private let channel: Channel
    /// Text frames and the final close, in order; about `Transport.webSocketBuffer` bytes are buffered at most.
    public let events: WebSocketEvents

    private init(channel: Channel, events: WebSocketEvents) {
        self.channel = channel
        self.events = events
    }

    enum Upgrade: @unchecked Sendable {
        // @unchecked: WebSocketEvents is Sendable; the case only carries it with a Channel.
        case upgraded(Channel, WebSocketEvents)
        case rejected(EventLoopFuture<Int>)
    }

    /// Opens a connection to a `ws://` or `wss://` URL, sending `headers` on the upgrade request.
    public static func connect(url: String, headers: [(String, String)], transport: Transport,
                               timeout: TimeInterval = 10) async throws -> WebSocketSession {
        guard let target = HTTPTarget(url, plain: "ws", secure: "wss") else {
            throw TransportError.invalidURL(transport.redactor.redact(url))
        }
        let sslContext: NIOSSLContext?
        do { sslContext = target.tls ? try transport.clientSSLContext() : nil } catch {
            throw TransportError.connectionFailed("cannot set up TLS: \(error)")
        }
        let tlsErrors = FirstErrorRecorder()
        let maxFrame = transport.maxFrameSize, streamFrom = transport.streamMessagesFrom
        // Bytes buffered before the socket stops being read, and the mark at which reading resumes.
        let high = max(1 << 18, transport.webSocketBuffer), low = high / 4
        transport.logger.debug("WebSocket connect \(transport.redactor.redact(url))")

        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target.uri)
        head.headers.add(name: "Host", value: target.hostHeader)
        head.headers.add(name: "User-Agent", value: "odds/\(OddsVersion.current)")
        for (n, v) in headers { head.headers.add(name: n, value: v) }
        let requestHead = head

        let connect: @Sendable () async throws -> Upgrade = {
            let initializer: @Sendable (Channel) -> EventLoopFuture<EventLoopFuture<Upgrade>> = { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let sslContext {
                        try channel.pipeline.syncOperations.addHandlers(
                            NIOSSLClientHandler(context: sslContext, serverHostname: target.serverName), tlsErrors)
                    }
                    let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(
                        maxFrameSize: maxFrame, enableAutomaticErrorHandling: false,
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                let ops = channel.pipeline.syncOperations
                                let demand = ReadDemand(eventLoop: channel.eventLoop)
                                let buffered = BufferedBytes()
                                let made = FrameProducer.makeSequence(
                                    backPressureStrategy: ByteWatermark(bytes: buffered, low: low, high: high),
                                    finishOnDeinit: true, delegate: demand)
                                let reader = FrameReader(source: made.source, buffered: buffered, maxFrameSize: maxFrame,
                                                         streamFrom: streamFrom)
                                demand.reader = reader
                                // NIO's decoder holds a frame until its last byte: the reader reads the
                                // bytes in its place (before it, so that it never sees any) and it goes.
                                let decoder = try ops.handler(type: ByteToMessageHandler<WebSocketFrameDecoder>.self)
                                try ops.addHandler(reader, position: .before(decoder))
                                ops.removeHandler(decoder, promise: nil)
                                // If the server closed before the reader was in place, it never sees channelInactive.
                                let boundReader = NIOLoopBound(reader, eventLoop: channel.eventLoop)
                                channel.closeFuture.whenComplete { _ in channel.eventLoop.execute { boundReader.value.finish() } }
                                return .upgraded(channel, WebSocketEvents(frames: made.sequence, bytes: buffered))
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
            let bootstrap = target.bootstrap(transport, timeout: .milliseconds(Int64(timeout * 1000)))
            let upgrade: EventLoopFuture<Upgrade>
            if let address = target.address {
                upgrade = try await bootstrap.connect(to: address, channelInitializer: initializer)
            } else {
                upgrade = try await bootstrap.connect(host: target.host, port: target.port, channelInitializer: initializer)
            }
            return try await upgrade.get()
        }

        let result: Upgrade
        do {
            // A connect that outlives the timeout is closed when it finally completes.
            guard let upgrade = try await withTimeout(timeout, connect, late: { late in
                if case .upgraded(let channel, _) = late { channel.close(promise: nil) }
            }) else {
                throw TransportError.timedOut("WebSocket connect to \(transport.redactor.redact(url))")
            }
            result = upgrade
        } catch let error as TransportError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            let cause = tlsErrors.error ?? error
            throw TransportError.connectionFailed(transport.redactor.redact(describeConnectionFailure(cause, host: target.host)))
        }
        switch result {
        case .upgraded(let channel, let events):
            return WebSocketSession(channel: channel, events: events)
        case .rejected(let status):
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

/// Asks the reader for more frames when the consumer has drained the buffer, and closes the
/// connection when the consumer is gone. Called from any thread; acts on the channel's loop.
public final class ReadDemand: NIOAsyncSequenceProducerDelegate, @unchecked Sendable {
    // @unchecked: `reader` is set once on the event loop before the sequence is handed out, and is
    // only used inside `eventLoop.execute`, i.e. on that loop.
    let eventLoop: EventLoop
    var reader: FrameReader?

    init(eventLoop: EventLoop) { self.eventLoop = eventLoop }

    public func produceMore() {
        eventLoop.execute { self.reader?.resumeReading() }
    }

    public func didTerminate() {
        eventLoop.execute { self.reader?.consumerGone() }
    }
}

/// Reads the server's bytes as WebSocket frames (`WebSocketReader`) and turns them into
/// `WebSocketEvent`s: answers pings, echoes the server's close, reports its code, closes on bytes
/// that break the protocol, and stops reading the socket while the consumer's buffer is full. Lives
/// on the channel's loop.
final class FrameReader: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    let source: FrameProducer.Source
    let buffered: BufferedBytes
    let maxFrameSize: Int
    var wire: WebSocketReader
    var inputs: [WebSocketInput] = []
    var context: ChannelHandlerContext?
    var closeCode: Int?
    var failure: WebSocketFailure?
    var closing = false
    var finished = false
    /// Set once the server's bytes broke the protocol: the rest is not read.
    var broken = false
    /// False while the consumer's buffer is above its high mark: reads are held back.
    var producing = true
    var readPending = false

    init(source: FrameProducer.Source, buffered: BufferedBytes, maxFrameSize: Int, streamFrom: Int) {
        self.source = source
        self.buffered = buffered
        self.maxFrameSize = maxFrameSize
        self.wire = WebSocketReader(maxMessageSize: maxFrameSize, streamFrom: streamFrom)
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    func read(context: ChannelHandlerContext) {
        if producing { context.read() } else { readPending = true }
    }

    func resumeReading() {
        producing = true
        if readPending, let context {
            readPending = false
            context.read()
        }
    }

    func consumerGone() {
        context?.close(promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !broken else { return }
        var bytes = unwrapInboundIn(data)
        var bad: WebSocketReadError?
        do {
            try wire.read(&bytes, allocator: context.channel.allocator, into: &inputs)
        } catch {
            bad = error as? WebSocketReadError ?? .violation(String(describing: error))
        }
        // What came before the bad bytes is handed on first.
        for input in inputs { handle(input, context: context) }
        inputs.removeAll(keepingCapacity: true)
        if let bad { self.error(bad, context: context) }
    }

    private func yield(_ event: WebSocketEvent, bytes: Int) {
        buffered.add(bytes)
        if case .stopProducing = source.yield(event) { producing = false }
    }

    private func handle(_ input: WebSocketInput, context: ChannelHandlerContext) {
        switch input {
        case .message(let bytes):
            guard !finished else { return }
            yield(.frame(bytes), bytes: bytes.readableBytes)
        case .part(let bytes, let final):
            guard !finished else { return }
            yield(.part(bytes, final: final), bytes: bytes.readableBytes)
        case .ping(let payload):
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: payload)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .pong:
            break
        case .close(var payload):
            closeCode = payload.readWebSocketErrorCode().map { Int(UInt16(webSocketErrorCode: $0)) }
            guard !closing else { context.close(promise: nil); return }
            closing = true
            sendClose(WebSocketErrorCode(codeNumber: closeCode ?? 1000), context: context)
        }
    }

    /// The server broke the protocol or sent too much: say why in a close frame, then close.
    private func error(_ error: WebSocketReadError, context: ChannelHandlerContext) {
        guard !broken else { return }
        broken = true
        if error == .tooLarge { failure = .frameTooLarge(limit: maxFrameSize) }
        closing = true
        sendClose(error == .tooLarge ? .messageTooLarge : .protocolError, context: context)
    }

    /// A close frame, and the connection closed once it is written.
    private func sendClose(_ code: WebSocketErrorCode, context: ChannelHandlerContext) {
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: data)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in bound.value.close(promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        // End the stream on the next turn of the loop, once whatever closed the channel is known.
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        context.eventLoop.execute { bound.value.finish() }
        context.fireChannelInactive()
    }

    /// Ends the event stream once, with the close code if one arrived. Runs on the channel's loop.
    func finish() {
        guard !finished else { return }
        finished = true
        _ = source.yield(.closed(code: closeCode, error: failure))
        source.finish()
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
    // Whoever takes the continuation first resumes it; the others find nil.
    @Sendable func take() -> CheckedContinuation<T?, Error>? {
        gate.withLockedValue { g in defer { g = nil }; return g }
    }
    let timer = NIOLockedValueBox<Task<Void, Never>?>(nil)
    defer { timer.withLockedValue { $0?.cancel() } }
    // Cancelled (the user quit): give up at once; a connection that completes later goes to `late`.
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<T?, Error>) in
            gate.withLockedValue { $0 = c }
            if Task.isCancelled { take()?.resume(throwing: CancellationError()); return }
            Task {
                do {
                    let value = try await operation()
                    if let c = take() { c.resume(returning: value) } else { late(value) }
                } catch {
                    take()?.resume(throwing: error)
                }
            }
            timer.withLockedValue { $0 = Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                take()?.resume(returning: nil)
            } }
        }
    } onCancel: {
        take()?.resume(throwing: CancellationError())
    }
}
