import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
@testable import OddsBoltOdds
import OddsJSON
import OddsModel
@testable import OddsSimulator
import OddsStore
import OddsTransport
import OddsTestSupport
import Testing

/// Large WebSocket messages over a real loopback socket: handed on in parts as they arrive (never
/// held whole), and BoltOdds' initial state read element by element to the same state as read whole.
@Suite("Large messages over loopback", .timeLimit(.minutes(2)))
struct StreamingSocketTests {
    /// A WebSocket server on 127.0.0.1 that sends `frames` once a client has upgraded, then closes
    /// with 1000, and counts the pongs it gets back.
    final class ScriptedServer: @unchecked Sendable {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        private(set) var port = 0
        private let lock = NSLock()
        private var _pongs = 0
        var pongs: Int { lock.lock(); defer { lock.unlock() }; return _pongs }
        func pong() { lock.lock(); _pongs += 1; lock.unlock() }

        final class Script: ChannelInboundHandler, @unchecked Sendable {
            typealias InboundIn = WebSocketFrame
            typealias OutboundOut = WebSocketFrame
            let frames: [WebSocketFrame]
            let server: ScriptedServer
            init(frames: [WebSocketFrame], server: ScriptedServer) { self.frames = frames; self.server = server }

            func handlerAdded(context: ChannelHandlerContext) {
                for f in frames { context.write(wrapOutboundOut(f), promise: nil) }
                var code = context.channel.allocator.buffer(capacity: 2)
                code.write(webSocketErrorCode: .normalClosure)
                context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: code)), promise: nil)
            }

            func channelRead(context: ChannelHandlerContext, data: NIOAny) {
                let frame = unwrapInboundIn(data)
                if frame.opcode == .pong { server.pong() }
                if frame.opcode == .connectionClose { context.close(promise: nil) }
            }
        }

        init(frames: [WebSocketFrame]) throws {
            let bootstrap = ServerBootstrap(group: group)
                .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { [unowned self] channel in
                    let upgrader = NIOWebSocketServerUpgrader(
                        maxFrameSize: 1 << 24, automaticErrorHandling: true,
                        shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
                        upgradePipelineHandler: { channel, _ in
                            channel.pipeline.addHandler(Script(frames: frames, server: self))
                        })
                    return channel.pipeline.configureHTTPServerPipeline(withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
                }
            let channel = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
            port = channel.localAddress?.port ?? 0
        }

        func stop() async { try? await group.shutdownGracefully() }
    }

    static func bytes(_ n: Int, seed: UInt64) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        return (0..<n).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    @Test("Over a socket: a 3 MB frame, a message fragmented with pings between its fragments and a masked frame arrive in parts, byte for byte; small ones whole; pings answered")
    func partsOverSocket() async throws {
        let big = StreamingSocketTests.bytes(3_000_000, seed: 1)
        let frag = StreamingSocketTests.bytes(1_800_000, seed: 2)
        let masked = StreamingSocketTests.bytes(1_500_000, seed: 3)
        let small = Array("{\"action\":\"ping\"}".utf8)
        let alloc = ByteBufferAllocator()
        func f(_ op: WebSocketOpcode, _ b: some Collection<UInt8>, fin: Bool = true, mask: WebSocketMaskingKey? = nil) -> WebSocketFrame {
            WebSocketFrame(fin: fin, opcode: op, maskKey: mask, data: alloc.buffer(bytes: b))
        }
        let server = try ScriptedServer(frames: [
            f(.text, small), f(.text, big),
            f(.text, frag[0..<600_000], fin: false), f(.ping, Array("p1".utf8)),
            f(.continuation, frag[600_000..<1_200_000], fin: false), f(.ping, Array("p2".utf8)),
            f(.continuation, frag[1_200_000...]),
            f(.binary, masked, mask: WebSocketMaskingKey([7, 1, 9, 3])), f(.text, small),
        ])
        try await withTransport { transport in
            let session = try await WebSocketSession.connect(url: "ws://127.0.0.1:\(server.port)/", headers: [], transport: transport)
            var messages: [(bytes: [UInt8], parts: Int)] = []
            var pending: [UInt8] = [], parts = 0
            var close: Int??
            let deadline = Date().addingTimeInterval(60)
            for await event in session.events {
                switch event {
                case .frame(let b):
                    messages.append((Array(b.readableBytesView), 0))
                case .part(let b, let final):
                    pending += b.readableBytesView
                    parts += 1
                    if final {
                        messages.append((pending, parts))
                        pending = []
                        parts = 0
                    }
                case .closed(let code, _):
                    close = code
                }
                if Date() > deadline { break }
            }
            #expect(close == 1000)
            #expect(messages.map(\.bytes) == [small, big, frag, masked, small])
            // Small ones whole; each large one in parts, as they arrived (never put together first).
            #expect(messages[0].parts == 0 && messages[4].parts == 0)
            #expect(messages[1].parts > 3 && messages[2].parts > 3 && messages[3].parts > 3, "\(messages.map(\.parts))")
            try await waitFor("both pings answered") { server.pongs == 2 }
        }
        await server.stop()
    }

    /// Each book's view of each game after the odds stream's initial state, read with `configure`.
    static func initialState(streamFrom: Int?, record: Bool = false) async throws -> (events: [String: Event], stats: FeedStats, recorded: [[UInt8]]) {
        try await withSimulator({ $0.enforceRateLimit = false }) { sim, transport in
            if let streamFrom { transport.streamMessagesFrom = streamFrom }
            let tap = Tap()
            if record { transport.frameTap = tap }
            let client = BoltOddsSocketTests.client(sim, transport)
            let odds = client.feedConnections(sport: nil).filter { $0.connectionName == "odds" }
            #expect(odds.count == 1)
            let stats = FeedStats()
            let probe = FeedProbe(FeedRunner.run(odds, transport: transport, stats: stats))
            defer { probe.stop() }
            // The initial state comes in batches, a game's book a message: done when every one the simulator
            // sent has arrived (waiting for a quiet spell instead stopped early on loaded cores).
            let sent = await sim.onLoop {
                sim.boltOddsLive().filter { BoltOdds.ref($0) != nil }
                    .reduce(0) { n, m in n + BoltOdds.books.indices.filter { !BoltOdds.outcomes(m, book: $0).isEmpty }.count }
            }
            #expect(sent > 10)
            try await probe.wait("the initial state: \(sent) games' books") { p in
                p.count { if case .bookUpsert = $0 { true } else { false } } >= sent
            }
            var store = LiveStore()
            for m in probe.messages { store.apply(m) }
            let events = Dictionary(uniqueKeysWithValues: store.currentEvents(provider: .boltodds).map { ($0.id, $0) })
            return (events, stats, tap.frames)
        }
    }

    final class Tap: FrameTap, @unchecked Sendable {
        private let lock = NSLock()
        private var _frames: [[UInt8]] = []
        var frames: [[UInt8]] { lock.lock(); defer { lock.unlock() }; return _frames }
        func frame(feed: String, bytes: UnsafeBufferPointer<UInt8>, at: Date) {
            lock.lock(); _frames.append(Array(bytes)); lock.unlock()
        }
    }

    @Test("BoltOdds' initial state over the socket, read element by element as its batches arrive, gives the state read whole; a recording still gets every message whole")
    func boltOddsStreamedOverSocket() async throws {
        let whole = try await StreamingSocketTests.initialState(streamFrom: nil)
        let streamed = try await StreamingSocketTests.initialState(streamFrom: 512)
        #expect(whole.stats.streamed == 0)
        #expect(streamed.stats.streamed >= 1, "no message was read element by element")
        #expect(streamed.stats.malformed == 0 && whole.stats.malformed == 0)
        #expect(whole.events.count > 10)
        #expect(Set(streamed.events.keys) == Set(whole.events.keys))
        for (id, e) in whole.events {
            let s = try #require(streamed.events[id])
            #expect(s.books == e.books && s.markets == e.markets && s.status == e.status && s.startTime == e.startTime, "\(id)")
        }
        // Recording: read element by element all the same, and every message goes to the recorder whole.
        let recorded = try await StreamingSocketTests.initialState(streamFrom: 512, record: true)
        #expect(recorded.stats.streamed == streamed.stats.streamed)
        let big = recorded.recorded.filter { $0.count >= 512 }
        #expect(big.count == recorded.stats.streamed)
        #expect(big.allSatisfy { $0.first == UInt8(ascii: "[") && $0.last == UInt8(ascii: "]") && $0.withUnsafeBufferPointer(JSONScanner.isJSON) })
        #expect(recorded.recorded.count == recorded.stats.frames)
        #expect(Set(recorded.events.keys) == Set(whole.events.keys))
    }
}
