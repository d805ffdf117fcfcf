import Foundation
import Logging
import OddsModel
import OddsSimulator
import OddsTransport
import Testing

public enum Fixture {
    public static func text(_ name: String) throws -> String {
        try String(contentsOfFile: path(name), encoding: .utf8)
    }

    public struct FixtureMissing: Error {
        public let name: String
        public init(name: String) { self.name = name }
    }

    /// The path of a fixture file, for code that reads files itself.
    public static func path(_ name: String) throws -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") else {
            throw FixtureMissing(name: name)
        }
        return url.path
    }

    /// The tests' own CA (`tls/ca.pem`) and a certificate it issued for localhost and 127.0.0.1.
    public static func simulatorTLS() throws -> Simulator.TLS {
        Simulator.TLS(certificateChainFile: try path("tls/server.pem"), privateKeyFile: try path("tls/server-key.pem"))
    }
}

public struct TimedOut: Error, CustomStringConvertible {
    public let what: String
    public var description: String { "timed out waiting for \(what)" }
    public init(what: String) { self.what = what }
}

/// A simulator on 127.0.0.1 with manual ticks, and a transport to reach it; both stopped after `body`.
/// `clock` is the transport's: a `VirtualClock` puts every wait of the feeds on the test's time.
public func withSimulator<T>(_ configure: (inout Simulator.Options) -> Void = { _ in }, trustRoots: TrustRoots = .system,
                             clock: any FeedClock = SystemClock(),
                             _ body: (Simulator, Transport) async throws -> T) async throws -> T {
    var options = Simulator.Options()
    options.tickInterval = 0
    options.keys = ["test-key-0123456789": .max, "basic-key-0123456789": .basic, "pro-key-0123456789": .pro]
    options.expiredKeys = ["expired-key-0123456789"]
    configure(&options)
    let sim = Simulator(options: options)
    try sim.start()
    do {
        let result = try await withTransport(redactor: Redactor(secrets: Array(options.keys.keys)), trustRoots: trustRoots, clock: clock) {
            try await body(sim, $0)
        }
        await sim.stop()
        return result
    } catch {
        await sim.stop()
        throw error
    }
}

/// A transport of its own for `body`, shut down however `body` ends: one dropped without `shutdown` leaves its
/// event loop thread and kept connections behind for the rest of the test process.
public func withTransport<T>(logger: Logger? = nil, redactor: Redactor = Redactor(secrets: []), trustRoots: TrustRoots = .system,
                             clock: any FeedClock = SystemClock(), _ body: (Transport) async throws -> T) async throws -> T {
    var quiet = Logger(label: "test")
    quiet.logLevel = .critical
    let transport = Transport(logger: logger ?? quiet, redactor: redactor, trustRoots: trustRoots, clock: clock)
    do {
        let result = try await body(transport)
        await transport.shutdown()
        return result
    } catch {
        await transport.shutdown()
        throw error
    }
}

public let testKey = "test-key-0123456789"

public func settings(_ sim: Simulator, _ provider: SimProvider, key: String = testKey,
              options: [String: String] = [:]) -> ProviderSettings {
    ProviderSettings(key: key, restURL: sim.restURL(provider), webSocketURL: sim.webSocketURL(provider), options: options)
}

/// Fast retries for tests: the same exponential shape, in milliseconds.
public let fastRetry = BackoffPolicy(initial: 0.02, maximum: 0.1, maxAttempts: 3)
public let fastReconnect = BackoffPolicy(initial: 0.05, maximum: 0.2, maxAttempts: 20)

/// Reads a feed in the background so a test can wait for conditions on what has arrived.
public final class FeedProbe: @unchecked Sendable {
    private let lock = NSLock()
    private var _messages: [FeedMessage] = []
    private var _error: Error?
    private var _finished = false
    private var task: Task<Void, Never>?
    private let stream: FeedStream

    public init(_ stream: FeedStream) {
        self.stream = stream
        task = Task { [weak self] in
            do {
                for try await m in stream { self?.append(m) }
                self?.finish(nil)
            } catch {
                self?.finish(error)
            }
        }
    }

    private func append(_ m: FeedMessage) { lock.lock(); _messages.append(m); lock.unlock() }
    private func finish(_ e: Error?) { lock.lock(); _error = e; _finished = true; lock.unlock() }

    public var messages: [FeedMessage] { lock.lock(); defer { lock.unlock() }; return _messages }
    public var updates: [FeedUpdate] { messages.map(\.update) }
    public var error: Error? { lock.lock(); defer { lock.unlock() }; return _error }
    public var finished: Bool { lock.lock(); defer { lock.unlock() }; return _finished }

    /// Waits (polling, bounded by `timeout`) until `condition` holds.
    public func wait(_ what: String, timeout: Double = 90, _ condition: (FeedProbe) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition(self) {
            if Date() > deadline {
                let seen = updates.map { u -> String in
                    switch u {
                    case .snapshot(let e): return "snapshot(\(e.count))"
                    case .connection(let c): return "connection(\(c))"
                    default: return String(describing: u).prefix(40).description
                    }
                }
                throw TimedOut(what: "\(what); received \(seen.suffix(12)), finished: \(finished)")
            }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
    }

    public func count(_ predicate: (FeedUpdate) -> Bool) -> Int { updates.filter(predicate).count }

    /// Whether the probe holds every message the feed has sent so far: an ordered barrier, no sleep.
    public var caughtUp: Bool { let sent = stream.accepted; return messages.count == sent }

    public func stop() { task?.cancel() }
}

extension FeedUpdate {
    public var isSnapshot: Bool { if case .snapshot = self { return true } else { return false } }
    public var isLive: Bool { if case .connection(.live) = self { return true } else { return false } }
    public var isReconnecting: Bool { if case .connection(.reconnecting) = self { return true } else { return false } }
    public var isStopped: Bool { if case .connection(.stopped) = self { return true } else { return false } }
    public var snapshotEvents: [Event]? { if case .snapshot(let e) = self { return e } else { return nil } }
}

/// Polls an async condition every 10 ms for at most `timeout` seconds.
public func waitFor(_ what: String, timeout: Double = 60, _ condition: () async -> Bool) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !(await condition()) {
        if Date() > deadline { throw TimedOut(what: what) }
        try await Task.sleep(nanoseconds: 10_000_000)
    }
}
