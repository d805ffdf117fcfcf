import Foundation
import OddsModel
@testable import OddsSimulator
import OddsSimulatorFaults
import OddsStore
@testable import OddsPulseScore
@testable import OddsTickOdds
@testable import OddsTransport
import OddsTestSupport
import Testing

/// A connection of its own over the simulator's TickOdds socket, to exercise the feed core: a name,
/// an application ping, a connection rate, and messages the test injects that it classifies as a
/// recoverable error (answered on the same connection or by a new one) or a fatal one.
final class ScriptedFeed: FeedAdapter {
    let inner: TickOddsFeed
    let connectionName: String
    let ping: ApplicationPing?
    let connectionsPerMinute: Int?
    let silenceLimit: TimeInterval? = nil
    private(set) var link: FeedLink?
    static let resend = "{\"subscribe\":[\"Tennis\"]}"

    init(_ sim: Simulator, name: String, ping: ApplicationPing? = nil, perMinute: Int? = nil) {
        inner = TickOddsFeed(settings: settings(sim, .tickodds), sport: nil)
        connectionName = name
        self.ping = ping
        connectionsPerMinute = perMinute
    }

    var provider: ProviderID { .tickodds }
    func endpoint() throws -> (url: String, headers: [(String, String)]) { try inner.endpoint() }
    func didConnect(_ link: FeedLink) { self.link = link; inner.didConnect(link) }
    func closeAction(code: Int?) -> CloseAction { inner.closeAction(code: code) }

    func receive(_ frame: [UInt8], first: Bool) throws -> Inbound {
        switch String(decoding: frame, as: UTF8.self) {
        case "{\"test\":\"retry\"}": return .retry(reason: "re-subscription rate limit hit", after: 0.3, resend: [ScriptedFeed.resend])
        case "{\"test\":\"reconnect\"}": return .reconnect(reason: "the server asked for a new connection")
        case "{\"test\":\"fatal\"}": return .fatal(.authentication(.tickodds, "key revoked (sent as a message)"))
        default: return try inner.receive(frame, first: first)
        }
    }
}

extension FeedProbe {
    func states(of connection: String) -> [ConnectionState] {
        messages.compactMap { m in
            guard m.connection == connection, case .connection(let s) = m.update else { return nil }
            return s
        }
    }
}

@Suite("Feed interface over loopback")
struct FeedInterfaceTests {
    @Test("Two connections of one provider: one stream, each message names its connection, each reconnects on its own")
    func twoConnections() async throws {
        try await withSimulator { sim, transport in
            let stats = FeedStats()
            let odds = ScriptedFeed(sim, name: "odds"), scores = ScriptedFeed(sim, name: "scores")
            let probe = FeedProbe(FeedRunner.run([odds, scores], transport: transport, stats: stats, policy: fastReconnect))
            defer { probe.stop() }
            try await probe.wait("both connections live with a snapshot each") { p in
                ["odds", "scores"].allSatisfy { name in p.messages.contains { $0.connection == name && $0.update.isSnapshot } }
            }
            #expect(await sim.openConnections == 2)
            var store = LiveStore()
            store.apply(probe.messages)
            #expect(store.feeds[.tickodds]?.connections == ["odds": .live, "scores": .live])
            #expect(store.feeds[.tickodds]?.connection == .live)

            await sim.dropAll()
            try await probe.wait("both back after the drop") { p in
                ["odds", "scores"].allSatisfy { p.states(of: $0).suffix(2).map(\.label) == ["reconnecting", "live"] }
            }
            #expect(stats.connects == 4)
            #expect(probe.error == nil)
        }
    }

    @Test("A connection's link sends at any time while it is up, and drops a send while it is down")
    func sendAnyTime() async throws {
        try await withSimulator { sim, transport in
            let feed = ScriptedFeed(sim, name: "live")
            let probe = FeedProbe(FeedRunner.run(feed, transport: transport, stats: FeedStats(), policy: fastReconnect))
            try await probe.wait("live") { $0.updates.contains(where: \.isSnapshot) }
            let link = try #require(feed.link)
            #expect(link.isOpen)
            #expect(link.send("{\"unsubscribe\":[\"Soccer\"]}"))
            try await waitUntil("the server got the send") { await sim.receivedTexts.contains("{\"unsubscribe\":[\"Soccer\"]}") }
            probe.stop()
            try await waitFor("the link is down once the feed stopped") { !link.isOpen }
            #expect(!link.send("{\"subscribe\":[\"Soccer\"]}"))
        }
    }

    @Test("An application ping goes out on its cadence while connected (virtual clock), and stops with the connection")
    func applicationPing() async throws {
        let clock = VirtualClock()
        try await withSimulator(clock: clock) { sim, transport in
            let ping = "{\"action\":\"ping\",\"channel\":\"test\"}"
            let feed = ScriptedFeed(sim, name: "live", ping: ApplicationPing(every: 10, text: ping))
            let probe = FeedProbe(FeedRunner.run(feed, transport: transport, stats: FeedStats(), policy: fastReconnect))
            try await probe.wait("connected") { $0.updates.contains(where: \.isLive) }
            func pings() async -> Int { await sim.receivedTexts.filter { $0 == ping }.count }
            // One ping per 10 s on the clock, none before.
            for n in 1...3 {
                try await clock.waitForSleeper()
                clock.advance(by: 9.9)
                #expect(await pings() == n - 1)
                clock.advance(by: 0.11)
                try await waitUntil("ping \(n)") { await pings() == n }
            }
            probe.stop()
            try await waitUntil("closed") { await sim.openConnections == 0 }
            // Stopped with the connection: nothing is left asleep to send another.
            try await waitFor("the pinger gone") { clock.sleeping == 0 }
            clock.advance(by: 60)
            #expect(await pings() == 3)
        }
    }

    @Test("A recoverable error is answered on the same connection: the resend goes out after its wait, no reconnect")
    func retrySameConnection() async throws {
        try await withLiveFeed { sim, stats, probe in
            let sentAt = Date()
            await sim.injectText("{\"test\":\"retry\"}")
            try await waitUntil("the resend") { await sim.receivedTexts.contains(ScriptedFeed.resend) }
            #expect(Date().timeIntervalSince(sentAt) >= 0.3)
            #expect(stats.connects == 1)
            #expect(stats.malformed == 0)
            #expect(probe.states(of: "live") == [.connecting, .live])
        }
    }

    @Test("A recoverable error that needs a new connection reconnects with backoff")
    func reconnectMessage() async throws {
        try await withLiveFeed { sim, stats, probe in
            await sim.injectText("{\"test\":\"reconnect\"}")
            try await probe.wait("back") { $0.states(of: "live").map(\.label) == ["connecting", "live", "reconnecting", "live"] }
            guard case .reconnecting(_, _, let reason) = probe.states(of: "live")[2] else { Issue.record("no reconnect"); return }
            #expect(reason == "the server asked for a new connection")
            #expect(stats.connects == 2)
        }
    }

    @Test("A fatal message stops the whole feed with its error and exit code, and closes the other connections")
    func fatalMessage() async throws {
        try await withSimulator { sim, transport in
            let odds = ScriptedFeed(sim, name: "odds"), scores = ScriptedFeed(sim, name: "scores")
            let probe = FeedProbe(FeedRunner.run([odds, scores], transport: transport, stats: FeedStats(), policy: fastReconnect))
            defer { probe.stop() }
            try await probe.wait("both live") { p in p.states(of: "odds").last == .live && p.states(of: "scores").last == .live }
            await sim.injectText("{\"test\":\"fatal\"}")
            try await probe.wait("stopped", { $0.finished })
            let error = try #require(probe.error as? OddsError)
            #expect(error.exitCode == OddsError.authentication(.tickodds, "").exitCode)
            #expect(error.message.contains("key revoked"))
            #expect(probe.messages.contains { if case .connection(.stopped) = $0.update { return true } else { return false } })
            try await waitUntil("every connection closed") { await sim.openConnections == 0 }
        }
    }

    @Test("Connections of one feed share the provider's connection rate: past it, a reconnect waits out the minute (virtual clock)")
    func sharedConnectionRate() async throws {
        let clock = VirtualClock()
        try await withSimulator(clock: clock) { sim, transport in
            let odds = ScriptedFeed(sim, name: "odds", perMinute: 3), scores = ScriptedFeed(sim, name: "scores", perMinute: 3)
            let probe = FeedProbe(FeedRunner.run([odds, scores], transport: transport, stats: FeedStats(), policy: fastReconnect))
            try await probe.wait("both live") { p in p.states(of: "odds").last == .live && p.states(of: "scores").last == .live }
            let t0 = clock.now
            await sim.dropAll()
            // Both back off (on the clock), then reconnect: the third connection of the minute goes, the
            // fourth waits for the first to be a minute old.
            try await clock.waitForSleeper(count: 2)
            clock.advance(by: fastReconnect.maximum)
            try await waitUntil("the third connection") { await sim.counters.connections >= 3 }
            try await waitFor("the fourth waiting for its minute") { clock.dues.contains { $0.timeIntervalSince(t0) > 30 } }
            #expect(await sim.counters.connections == 3)
            #expect(await sim.openConnections == 1)
            clock.advance(by: 60)
            try await waitUntil("the fourth connection, a minute on") { await sim.counters.connections == 4 }
            probe.stop()
        }
    }

    @Test("Keepalives are classified as such: a TickOdds heartbeat, an unchanged PulseScore rebroadcast")
    func keepalives() throws {
        let tick = TickOddsFeed(settings: ProviderSettings(key: nil, restURL: "", webSocketURL: ""), sport: nil)
        #expect(try tick.receive(Array(try Fixture.text("docs/tickodds-heartbeat.json").utf8), first: false) == .keepalive)
        let pulse = PulseScoreFeed(settings: ProviderSettings(key: nil, restURL: "", webSocketURL: ""), sport: "soccer")
        let broadcast = Array(try Fixture.text("docs/pulsescore-ws-data.json").utf8)
        guard case .data(let first) = try pulse.receive(broadcast, first: true).unstamped else { Issue.record("no snapshot"); return }
        #expect(first.first?.isSnapshot == true)
        #expect(try pulse.receive(broadcast, first: false) == .keepalive)
    }
}

/// Runs one scripted connection against the simulator until it is live with its snapshot.
func withLiveFeed(_ body: (Simulator, FeedStats, FeedProbe) async throws -> Void) async throws {
    try await withSimulator { sim, transport in
        let stats = FeedStats()
        let probe = FeedProbe(FeedRunner.run(ScriptedFeed(sim, name: "live"), transport: transport, stats: stats, policy: fastReconnect))
        defer { probe.stop() }
        try await probe.wait("live") { $0.updates.contains(where: \.isSnapshot) }
        try await body(sim, stats, probe)
    }
}

/// Polls `condition` every 10 ms for at most `timeout` seconds.
func waitUntil(_ what: String, timeout: Double = 60, _ condition: () async throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while try await !condition() {
        if Date() > deadline { throw TimedOut(what: what) }
        try await Task.sleep(nanoseconds: 10_000_000)
    }
}
