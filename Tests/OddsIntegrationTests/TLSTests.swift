import Foundation
import OddsModel
import OddsPulseScore
import OddsSimulator
import OddsTickOdds
import OddsTransport
import OddsTestSupport
import Testing

/// HTTPS and WSS, the schemes the real providers use, against the simulator serving TLS on loopback
/// with a certificate from the tests' own CA.
@Suite("TLS over loopback", .timeLimit(.minutes(2)))
struct TLSTests {
    static func caRoots() throws -> TrustRoots { try TrustRoots(pemFile: Fixture.path("tls/ca.pem")) }

    @Test("HTTPS REST and a WSS feed work when the CA is trusted, by name and by IP address")
    func trusted() async throws {
        let tls = try Fixture.simulatorTLS()
        try await withSimulator({ $0.tls = tls }, trustRoots: Self.caRoots()) { sim, transport in
            #expect(sim.restURL(.tickodds).hasPrefix("https://127.0.0.1:"))
            #expect(sim.webSocketURL(.tickodds).hasPrefix("wss://127.0.0.1:"))
            for host in ["127.0.0.1", "localhost"] {
                var s = settings(sim, .tickodds)
                s.restURL = s.restURL.replacingOccurrences(of: "127.0.0.1", with: host)
                s.webSocketURL = s.webSocketURL.replacingOccurrences(of: "127.0.0.1", with: host)
                let client = TickOddsClient(settings: s, transport: transport, retry: fastRetry)
                let events = try await client.liveEvents(sport: "soccer")
                #expect(!events.isEmpty, "\(host)")

                let feed = TickOddsFeed(settings: s, sport: "soccer")
                let probe = FeedProbe(FeedRunner.run(feed, transport: transport, stats: FeedStats(), policy: fastReconnect))
                defer { probe.stop() }
                try await probe.wait("a snapshot over wss://\(host)") { $0.count(\.isSnapshot) == 1 }
                let snapshot = try #require(probe.updates.first { $0.isSnapshot }?.snapshotEvents)
                #expect(Set(snapshot.map(\.id)) == Set(events.map(\.id)))
            }
            // PulseScore's REST and WebSocket over the same TLS listener.
            let pulse = PulseScoreClient(settings: settings(sim, .pulsescore), transport: transport, retry: fastRetry)
            #expect(try await !pulse.liveEvents(sport: "soccer").isEmpty)
            let probe = FeedProbe(pulse.stream(sport: "soccer", stats: FeedStats()))
            defer { probe.stop() }
            try await probe.wait("a PulseScore snapshot over wss") { $0.count(\.isSnapshot) == 1 }
        }
    }

    @Test("An untrusted certificate is a network error in one sentence that says so, over HTTPS and WSS")
    func untrusted() async throws {
        let tls = try Fixture.simulatorTLS()
        try await withSimulator({ $0.tls = tls }) { sim, transport in
            let client = TickOddsClient(settings: settings(sim, .tickodds), transport: transport, retry: fastRetry)
            do {
                _ = try await client.liveEvents(sport: nil)
                Issue.record("a certificate from an unknown CA was accepted over HTTPS")
            } catch let error as OddsError {
                #expect(error.exitCode == OddsError.network("").exitCode)
                #expect(error.message.contains("TLS certificate of 127.0.0.1 is not trusted"), "\(error.message)")
                #expect(!error.message.contains(testKey))
            }

            let feed = TickOddsFeed(settings: settings(sim, .tickodds), sport: "soccer")
            let probe = FeedProbe(FeedRunner.run(feed, transport: transport, stats: FeedStats(), policy: fastReconnect))
            defer { probe.stop() }
            try await probe.wait("a reconnect that names the certificate") { p in
                p.updates.contains { u in
                    if case .connection(.reconnecting(_, _, let reason)) = u { return reason.contains("not trusted") }
                    return false
                }
            }
            #expect(probe.count(\.isSnapshot) == 0)
            #expect(!probe.updates.map { String(describing: $0) }.joined().contains(testKey))
        }
    }

    @Test("A CA file that is missing or holds no certificate is refused with one sentence")
    func badCAFile() throws {
        #expect(throws: TrustRoots.LoadError.self) { try TrustRoots(pemFile: "/nonexistent/ca.pem") }
        let notPEM = try Fixture.path("docs/tickodds-heartbeat.json")
        do {
            _ = try TrustRoots(pemFile: notPEM)
            Issue.record("a JSON file was accepted as a CA file")
        } catch let error as TrustRoots.LoadError {
            #expect(error.description == "The CA file \(notPEM) holds no PEM certificate.")
        }
    }
}
