import Foundation
import Logging
import OddsJSON
import OddsModel
import OddsOutput
import OddsStore
@testable import OddsSportsAPI
@testable import OddsBoltOdds
@testable import OddsCLI
@testable import OddsTransport
import OddsTickOdds
import OddsSimulator
import OddsSimulatorFaults
import OddsTestSupport
import Testing

/// Hostile input over loopback (issue 18).
@Suite("Hostile input over loopback", .timeLimit(.minutes(2)))
struct HostileInputLoopbackTests {
    @Test("Over loopback: 3,000 bad messages and a 100 KB error text make a few short warning lines, and the feed goes on")
    func warningsOverLoopback() async throws {
        let log = LogLines()
        try await withSimulator { sim, _ in try await withTransport(logger: Logger(label: "test") { _ in log }, redactor: Redactor(secrets: [testKey])) { transport in
            let client = SportsAPIProSocketTests.v2(sim, transport)
            let stats = FeedStats()
            let probe = FeedProbe(FeedRunner.run(try client.feed(sport: "soccer"), transport: transport, stats: stats))
            defer { probe.stop() }
            try await probe.wait("live scores") { !SportsAPIProSocketTests.store($0).events.isEmpty }
            for _ in 0..<3_000 { await sim.injectText("not json") }
            await sim.injectText(#"{"type":"error","message":"\#(String(repeating: "y", count: 100_000))"}"#)
            try await waitFor("3,000 skipped") { stats.malformed >= 3_000 }
            try await waitFor("the error notice") { log.all.contains { $0.contains("yyyy") } }
            await sim.injectText(#"{"channel":"live-scores","type":"update","data":[{"id":999,"homeTeam":"After","awayTeam":"Bad"}]}"#)
            try await probe.wait("the feed going on") { SportsAPIProSocketTests.store($0).events[EventKey(provider: .sportsapi, id: "999")] != nil }
            let lines = log.all
            #expect(lines.filter { $0.contains("skipped") }.count <= 3, "\(lines.prefix(5))")
            #expect(lines.allSatisfy { $0.count < 600 }, "\(lines.map(\.count))")
        } }
    }
}

/// A command that never reaches the network starts no networking (a replay would pay for it at every start).
@Suite("The transport's networking stack", .timeLimit(.minutes(2)))
struct TransportStackTests {
    @Test("The event loop and HTTP client are made at the first request, and shut down with the transport")
    func madeAtFirstUse() async throws {
        try await withSimulator { sim, _ in
            let transport = Transport(logger: Logger(label: "test"), redactor: Redactor(secrets: [testKey]))
            #expect(!transport.isStarted)
            let result = try await transport.get(sim.restURL(.tickodds) + "/sports", headers: [])
            #expect(result.status > 0)
            #expect(transport.isStarted)
            await transport.shutdown()
            #expect(!transport.isStarted)
            // A transport shut down unused has nothing to stop.
            let unused = Transport(logger: Logger(label: "test"), redactor: Redactor(secrets: []))
            await unused.shutdown()
            #expect(!unused.isStarted)
        }
    }
}
