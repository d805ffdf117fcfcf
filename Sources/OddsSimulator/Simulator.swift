import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import OddsJSON

/// A provider plan, as the simulator enforces it.
public enum SimPlan: String, Sendable, CaseIterable {
    /// REST only: the PulseScore WebSocket closes with 4003; no TickOdds live feed.
    case basic
    /// One concurrent PulseScore WebSocket.
    case pro
    /// Three concurrent PulseScore WebSockets.
    case max

    var connectionLimit: Int {
        switch self { case .basic: return 0; case .pro: return 1; case .max: return 3 }
    }
}

/// A named load pattern for the simulator.
public enum SimScenario: String, Sendable, CaseIterable {
    /// One tick a second: a living world at a human pace (the demo).
    case normal
    /// 200 ticks a second: a flood of TickOdds updates, for memory and speed measurements.
    case firehose
}

/// Which provider protocol a simulated endpoint speaks: the provider's id as the registry names it.
/// Each provider's simulator files declare their own.
public struct SimProvider: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// Where a provider's client reaches the simulator: REST base (nil: the provider has no REST here),
/// WebSocket URL, and provider settings by config key (BoltOdds' `pbp_url`).
public struct SimEndpoints: Sendable {
    public var restURL: String?
    public var webSocketURL: String
    public var options: [(key: String, value: String)]
    public init(restURL: String?, webSocketURL: String, options: [(key: String, value: String)] = []) {
        self.restURL = restURL; self.webSocketURL = webSocketURL; self.options = options
    }
}

/// A protocol-faithful simulator of the providers' REST and WebSocket APIs, on loopback.
///
/// All state lives on one event loop; the public methods are safe to call from any thread.
public final class Simulator: @unchecked Sendable {
    public struct Options: Sendable {
        public var seed: UInt64 = 42
        /// Seconds between world ticks; 0 ticks only when `tick()` is called.
        public var tickInterval: TimeInterval = 1
        /// TickOdds heartbeat period (the provider documents 15 s).
        public var heartbeatInterval: TimeInterval = 15
        /// TickOdds' server ping period; a client that has not answered two pings is disconnected.
        public var pingInterval: TimeInterval = 15
        /// Accepted API keys and their plans.
        public var keys: [String: SimPlan] = ["demo-key": .max]
        /// Keys that have expired (PulseScore WebSocket closes 4010).
        public var expiredKeys: Set<String> = []
        public var host = "127.0.0.1"
        /// 0 picks a free port.
        public var port = 0
        /// Answer 429 when a key makes more than 3 REST requests in one second, as the provider does.
        public var enforceRateLimit = true
        /// Concurrent TickOdds WebSockets per key (documented: 50); one more is refused at the upgrade
        /// with HTTP 429 (inferred: the docs do not say how).
        public var tickOddsConnectionLimit = 50
        /// Serve HTTPS and WSS with this certificate instead of plain HTTP and WS.
        public var tls: TLS?
        /// The chance, each minute of a live match's play, that one BoltOdds book is slow to move its match-result
        /// price: for that minute its favourite is priced long enough that the best prices across books make an
        /// arbitrage of about 1.5 %, which closes when the minute ends (inferred: a lagging book is how real
        /// arbitrage opens). The default gives a few such markets an hour across the demo's world.
        public var bookLagChance = 0.000_1
        /// Match seconds that pass in one tick.
        public var secondsPerTick = 15
        /// Bytes a client may leave unread before its data frames are skipped, so that a slow reader is
        /// not buffered for without bound (TickOdds' refreshed events make up for a skipped update).
        /// Nil: every frame is kept for the client, however slow (the tests count on every message).
        public var slowClientBuffer: Int?
        /// BoltOdds' keep-alive `ping` period on the odds socket (inferred: the docs give none); 0: none.
        public var boltOddsPingInterval: TimeInterval = 20
        /// BoltOdds' minimum seconds between two subscribes on one odds socket (documented: 5).
        public var boltOddsResubscribeInterval: TimeInterval = 5
        /// BoltOdds' new WebSockets per key (all three sockets) within `boltOddsConnectionWindow` seconds
        /// (documented: 12 per minute); one more is refused at the upgrade with 429. Off with `enforceRateLimit`.
        public var boltOddsConnectionsPerWindow = 12
        public var boltOddsConnectionWindow: TimeInterval = 60
        /// SportsAPIPro v2's `natsConnected` in `welcome`; false: channels deliver by safety-net poll only.
        public var sportsAPINATSConnected = true
        /// SportsAPIPro v2's NATS-triggered fetch of `:incidents` and `:stats` (documented: ~300 ms): the data as
        /// of the change, sent this long after the change's score push; 0: at once.
        public var sportsAPIFetchDelay: TimeInterval = 0.3
        /// SportsAPIPro v2's safety-net poll of `:incidents` (documented: 15 s); 0: none.
        public var sportsAPIIncidentsPollInterval: TimeInterval = 15
        /// SportsAPIPro v2's safety-net poll of `:stats` (documented: 30 s); 0: none.
        public var sportsAPIStatsPollInterval: TimeInterval = 30
        /// SportsAPIPro v2's polling of `:lineups` (documented: 60 s); 0: none.
        public var sportsAPILineupsPollInterval: TimeInterval = 60
        public init() {}

        /// Options for a named scenario.
        public init(scenario: SimScenario) {
            self.init()
            switch scenario {
            case .normal: break
            case .firehose:
                // 200 ticks a second, one match second each: a steady flood of price changes.
                tickInterval = 0.005
                secondsPerTick = 1
                slowClientBuffer = 4 << 20
            }
        }
    }

    /// Why the simulator could not start, as a phrase ("address already in use").
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// A server certificate chain and its private key, as PEM files.
    public struct TLS: Sendable {
        public var certificateChainFile: String
        public var privateKeyFile: String
        public init(certificateChainFile: String, privateKeyFile: String) {
            self.certificateChainFile = certificateChainFile
            self.privateKeyFile = privateKeyFile
        }
    }

    public let options: Options
    let group: MultiThreadedEventLoopGroup
    var loop: EventLoop { group.next() }
    var channel: Channel?
    var tickTask: RepeatedTask?

    // Loop-confined state.
    var world: SimWorld
    package var connections: [ObjectIdentifier: any SimSocket] = [:]
    var boltOdds = BoltOddsState()
    var sportsAPI: SportsAPIProState
    var restLog: [String: [Date]] = [:]
    package var failREST: [(status: Int, remaining: Int, retryAfter: String?)] = []
    package var closeNextCodes: [Int] = []
    /// Text messages clients sent, oldest first (the last 1,000), with when they arrived.
    var inbound: [String] = []
    var inboundAt: [Date] = []
    package var silent = false
    package var padding = 0
    /// SportsAPIPro v2's answer to an odds channel's subscription: nil as the docs say; "" none at all; any
    /// other text an error naming the channel.
    package var sportsAPIOddsRefusal: String?
    var requestCount = 0
    var connectionCount = 0
    var rateLimited = 0
    var skippedSlow = 0

    public init(options: Options = Options()) {
        self.options = options
        self.world = SimWorld(seed: options.seed)
        self.world.secondsPerTick = options.secondsPerTick
        self.sportsAPI = SportsAPIProState(world: world, natsConnected: options.sportsAPINATSConnected)
        self.group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    }

    /// The bound port, after `start()`.
    public private(set) var port = 0

    /// Binds 127.0.0.1 (or `options.host`) and starts ticking. Returns the port.
    @discardableResult
    public func start() throws -> Int {
        let sslContext: NIOSSLContext?
        do {
            sslContext = try options.tls.map { tls in
                try NIOSSLContext(configuration: .makeServerConfiguration(
                    certificateChain: NIOSSLCertificate.fromPEMFile(tls.certificateChainFile).map { .certificate($0) },
                    privateKey: .privateKey(NIOSSLPrivateKey(file: tls.privateKeyFile, format: .pem))))
            }
        } catch {
            throw StartError(description: "cannot load the TLS certificate and key (PEM files expected)")
        }
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(ChannelOptions.writeBufferWaterMark,
                                value: options.slowClientBuffer.map { .init(low: $0 / 2, high: $0) } ?? .init(low: 32 << 10, high: 64 << 10))
            .childChannelInitializer { [unowned self] channel in
                let http = SimHTTPHandler(sim: self)
                let upgrader = NIOWebSocketServerUpgrader(
                    maxFrameSize: 1 << 20, automaticErrorHandling: true,
                    shouldUpgrade: { channel, head in
                        channel.eventLoop.makeSucceededFuture(self.acceptsUpgrade(head) ? HTTPHeaders() : nil)
                    },
                    upgradePipelineHandler: { channel, head in
                        let (path, query) = splitURI(head.uri)
                        guard let service = Simulator.services.first(where: { $0.acceptsUpgrade(self, head, path, query) != nil }) else {
                            return channel.close()
                        }
                        return service.connect(self, channel, head, path)
                    })
                let tls: EventLoopFuture<Void> = channel.eventLoop.makeCompletedFuture {
                    if let sslContext { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext)) }
                }
                return tls.flatMap {
                    channel.pipeline.configureHTTPServerPipeline(
                        withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in
                            channel.pipeline.removeHandler(http, promise: nil)
                        })
                    )
                }.flatMap { channel.pipeline.addHandler(http) }
            }
        let channel: Channel
        do {
            channel = try bootstrap.bind(host: options.host, port: options.port).wait()
        } catch let error as IOError {
            throw StartError(description: String(cString: strerror(error.errnoCode)).lowercased())
        }
        self.channel = channel
        port = channel.localAddress?.port ?? 0
        if options.tickInterval > 0 {
            let ms = Int64(options.tickInterval * 1000)
            tickTask = loop.scheduleRepeatedTask(initialDelay: .milliseconds(ms), delay: .milliseconds(ms)) { [weak self] _ in
                self?.tickOnLoop()
            }
        }
        return port
    }

    /// Closes every connection and the listening socket, and stops the threads.
    public func stop() async {
        try? await loop.submit {
            self.tickTask?.cancel()
            for c in self.connections.values { c.drop() }
        }.get()
        try? await channel?.close().get()
        try? await group.shutdownGracefully()
    }

    /// The URL prefix of everything the simulator serves.
    public var baseURL: String { "\(options.tls == nil ? "http" : "https")://\(options.host):\(port)" }

    private var webSocketBase: String { "\(options.tls == nil ? "ws" : "wss")://\(options.host):\(port)" }

    /// The REST base URL of a provider, as `ODDS_<PROVIDER>_URL` takes it (the base URL when it has no REST here).
    public func restURL(_ provider: SimProvider) -> String {
        baseURL + (service(provider)?.restPath ?? "")
    }

    /// The WebSocket URL of a provider, as `ODDS_<PROVIDER>_WS_URL` takes it.
    public func webSocketURL(_ provider: SimProvider) -> String {
        webSocketBase + (service(provider)?.webSocketPath ?? "")
    }

    /// Where a client of the provider named `name` (its registry id: "boltodds", "sportsapi-v1") reaches
    /// this simulator: the settings `--demo` gives it and `odds sim` exports. Nil for a provider not simulated.
    public func endpoints(forProvider name: String) -> SimEndpoints? {
        guard let service = service(SimProvider(rawValue: name)) else { return nil }
        return SimEndpoints(restURL: service.restPath.map { baseURL + $0 }, webSocketURL: webSocketBase + service.webSocketPath,
                            options: service.options(self))
    }

    /// Runs `body` on the simulator's loop without blocking the caller's thread.
    package func onLoop<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        try! await loop.submit(body).get()
    }

    // MARK: - The world's pace and what tests may read (faults are OddsSimulatorFaults', a test-only target)

    /// Advances the world `count` ticks now and pushes the changes.
    public func tick(_ count: Int = 1) async { await onLoop { for _ in 0..<count { self.tickOnLoop() } } }

    /// The text messages clients sent, oldest first (the last 1,000).
    public var receivedTexts: [String] { get async { await onLoop { self.inbound } } }

    /// The text messages clients sent with the time each arrived, oldest first (the last 1,000).
    public var receivedTextTimes: [(text: String, at: Date)] {
        get async { await onLoop { Array(zip(self.inbound, self.inboundAt)).map { (text: $0.0, at: $0.1) } } }
    }

    func recordInbound(_ text: String) {
        inbound.append(text)
        inboundAt.append(Date())
        if inbound.count > 1000 {
            inbound.removeFirst(inbound.count - 1000)
            inboundAt.removeFirst(inboundAt.count - 1000)
        }
    }

    /// Counters for tests: REST requests served, WebSocket connections accepted, 429s sent for excess rate.
    public var counters: (requests: Int, connections: Int, rateLimited: Int) {
        get async { await onLoop { (self.requestCount, self.connectionCount, self.rateLimited) } }
    }

    /// Data frames not sent because their client was not reading.
    public var skippedForSlowClients: Int { get async { await onLoop { self.skippedSlow } } }

    /// How many WebSockets are open now.
    public var openConnections: Int { get async { await onLoop { self.connections.count } } }

    /// A copy of the world now.
    public var worldNow: SimWorld { get async { await onLoop { self.world } } }

    // MARK: - Loop-side behaviour

    func tickOnLoop() {
        let changes = world.tick()
        for service in Simulator.services { service.tick(self, changes) }
        for c in connections.values { c.worldChanged(changes) }
    }

    /// Whether some provider takes this WebSocket upgrade (a refused one is answered by the REST handler).
    func acceptsUpgrade(_ head: HTTPRequestHead) -> Bool {
        let (path, query) = splitURI(head.uri)
        for service in Simulator.services {
            if let accepted = service.acceptsUpgrade(self, head, path, query) { return accepted }
        }
        return false
    }

    func register(_ c: any SimSocket) {
        connections[ObjectIdentifier(c)] = c
        connectionCount += 1
    }

    func unregister(_ c: any SimSocket) { connections[ObjectIdentifier(c)] = nil }

    func takeCloseCode() -> Int? { closeNextCodes.isEmpty ? nil : closeNextCodes.removeFirst() }

    func openConnections(provider: SimProvider, key: String) -> Int {
        connections.values.filter { $0.provider == provider && $0.key == key && $0.isOpen }.count
    }
}

/// Splits "/path?a=1&b=2" into the path and decoded query items.
func splitURI(_ uri: String) -> (String, [String: String]) {
    let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    let path = String(parts[0])
    var query: [String: String] = [:]
    if parts.count > 1 {
        for pair in parts[1].split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(kv[0]).removingPercentEncoding ?? String(kv[0])
            let value = kv.count > 1 ? (String(kv[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "") : ""
            query[name] = value
        }
    }
    return (path.removingPercentEncoding ?? path, query)
}
