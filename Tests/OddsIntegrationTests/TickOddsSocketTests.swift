import Foundation
import OddsModel
import OddsPulseScore
import OddsSimulator
import OddsSimulatorFaults
import OddsStore
import OddsTickOdds
import OddsTransport
import OddsTestSupport
import Testing

/// The real TickOdds client against the simulator over loopback sockets.
@Suite("TickOdds over loopback", .timeLimit(.minutes(2)))
struct TickOddsSocketTests {
    func client(_ sim: Simulator, _ transport: Transport, key: String = testKey) -> TickOddsClient {
        TickOddsClient(settings: settings(sim, .tickodds, key: key), transport: transport, retry: fastRetry)
    }

    @Test("REST key placement: a 401 with the key in a header is retried once with ?apiKey=, and that is kept")
    func keyPlacementFallback() async throws {
        try await withSimulator { sim, transport in
            // The simulator reads X-API-Key or ?apiKey=: a header of another name is a missing key to it.
            let c = TickOddsClient(settings: settings(sim, .tickodds, options: ["key_header": "X-Not-The-Key"]),
                                   transport: transport, retry: fastRetry)
            let before = await sim.counters.requests
            #expect(!(try await c.liveSports()).isEmpty)
            #expect(await sim.counters.requests - before == 2)
            _ = try await c.liveSports()
            #expect(await sim.counters.requests - before == 3, "the query form that worked is used at once")
            // key_in = "query" from the start: one request.
            var s = settings(sim, .tickodds, options: ["key_in": "query"])
            s.restURL += "/"
            let q = TickOddsClient(settings: s, transport: transport, retry: fastRetry)
            let mark = await sim.counters.requests
            _ = try await q.liveSports()
            #expect(await sim.counters.requests - mark == 1)
            // A wrong key fails in both places: one clear authentication error.
            let bad = TickOddsClient(settings: settings(sim, .tickodds, key: "wrong-key-000000"), transport: transport, retry: fastRetry)
            await #expect(throws: OddsError.self) { _ = try await bad.liveSports() }
        }
    }

    @Test("REST: live events (with sport filter), event by id, sports, status")
    func rest() async throws {
        try await withSimulator { sim, transport in
            let c = client(sim, transport)
            let all = try await c.liveEvents(sport: nil)
            let liveCount = await sim.worldNow.live(for: .tickodds).count
            #expect(all.count == liveCount)
            let soccer = try await c.liveEvents(sport: "soccer")
            #expect(!soccer.isEmpty && soccer.allSatisfy { $0.sport == "soccer" && $0.score != nil && $0.clock != nil })
            let one = try #require(soccer.first)
            let again = try await c.liveEvent(id: one.id)
            #expect(again.id == one.id && again.markets == one.markets)
            let sports = try await c.liveSports()
            #expect(Set(sports.map(\.sport)) == ["soccer", "basketball", "tennis"])
            let status = try await c.status()
            #expect(status.contains { $0.0 == "status" && $0.1 == "ok" })
            await #expect(throws: OddsError.self) { _ = try await c.liveEvent(id: "42") }
        }
    }

    @Test("Each feed's staleness bound follows its own settings")
    func stalenessBounds() async throws {
        try await withSimulator { sim, transport in
            #expect(client(sim, transport).stalenessBound == 30)
            let fast = TickOddsClient(settings: settings(sim, .tickodds, options: ["heartbeat_seconds": "5"]), transport: transport)
            #expect(fast.stalenessBound == 10)
            let pulse = OddsPulseScore.PulseScoreClient(settings: settings(sim, .pulsescore, options: ["silence_seconds": "45"]),
                                                        transport: transport)
            #expect(pulse.stalenessBound == 45)
        }
    }

    @Test("REST: a wrong key is exit 3 and not echoed")
    func wrongKey() async throws {
        try await withSimulator { sim, transport in
            do {
                _ = try await client(sim, transport, key: "bad-key-987654").liveSports()
                Issue.record("expected an error")
            } catch let e as OddsError {
                #expect(e.exitCode == 3 && !e.message.contains("bad-key-987654"))
            }
        }
    }

    func feed(_ sim: Simulator, _ transport: Transport, key: String = testKey, sport: String? = "soccer",
              heartbeat: String = "15", stats: FeedStats = FeedStats()) -> FeedProbe {
        let adapter = TickOddsFeed(settings: settings(sim, .tickodds, key: key, options: ["heartbeat_seconds": heartbeat]), sport: sport)
        return FeedProbe(FeedRunner.run(adapter, transport: transport, stats: stats, policy: fastReconnect))
    }

    @Test("Subscribe, snapshot for the sport, then every message type and change kind")
    func everyMessage() async throws {
        try await withSimulator { sim, transport in
            let probe = feed(sim, transport)
            defer { probe.stop() }
            try await probe.wait("snapshot") { $0.count(\.isSnapshot) == 1 }
            let snapshot = try #require(probe.updates.first { $0.isSnapshot }?.snapshotEvents)
            #expect(!snapshot.isEmpty && snapshot.allSatisfy { $0.sport == "soccer" })

            func seen(_ p: FeedProbe) -> Set<String> {
                Set(p.updates.compactMap { u -> String? in
                    switch u {
                    // A settled line (over 2.5 after the third goal) suspended on its own, by an odds change.
                    case .price(let p) where p.selection.suspended: return "suspended line"
                    case .price: return "price"
                    case .score: return "score"
                    case .incident: return "incident"
                    case .status(_, .suspended, _): return "suspended"
                    case .status(_, .ended, _): return "end"
                    case .status: return "period"
                    case .remove: return "remove"
                    case .upsert: return "upsert"
                    default: return nil
                    }
                })
            }
            let wanted: Set<String> = ["price", "suspended line", "score", "incident", "suspended", "period", "end", "remove",
                                       "upsert"]
            var ticks = 0
            while !wanted.isSubset(of: seen(probe)) && ticks < 1500 {
                await sim.tick(10)
                ticks += 10
                try await Task.sleep(nanoseconds: 5_000_000)
            }
            try await probe.wait("every change kind, seen so far: \(seen(probe))") { wanted.isSubset(of: seen($0)) }

            // Folding the feed gives the same state as the simulator's world (which no longer moves:
            // it ticks only when told), once the last messages are in.
            let worldSoccer = await sim.worldNow.live(for: .tickodds).filter { $0.sport == "soccer" && $0.phase != .ended }
            func scores(_ p: FeedProbe) -> [String: String] {
                var store = LiveStore()
                store.apply(p.messages)
                return Dictionary(uniqueKeysWithValues: store.currentEvents().map { ($0.home, $0.score?.text ?? "") })
            }
            try? await probe.wait("the folded feed to match the world", timeout: 10) { p in
                let s = scores(p)
                return worldSoccer.allSatisfy { s[$0.home] == "\($0.scoreHome)-\($0.scoreAway)" }
            }
            let folded = scores(probe)
            for m in worldSoccer { #expect(folded[m.home] == "\(m.scoreHome)-\(m.scoreAway)", "\(m.home)") }
        }
    }

    @Test("Heartbeats arrive, and the server's pings are answered")
    func heartbeatAndPing() async throws {
        try await withSimulator({ $0.heartbeatInterval = 0.1; $0.pingInterval = 0.25 }) { sim, transport in
            let stats = FeedStats()
            let probe = feed(sim, transport, stats: stats)
            defer { probe.stop() }
            // Twenty heartbeats span eight pings: unanswered, the third would have closed the connection.
            try await probe.wait("heartbeats") { $0.count { $0 == .heartbeat } >= 20 }
            #expect(stats.connects == 1)
            #expect(!probe.updates.contains { $0.isReconnecting })
        }
    }

    @Test("No message for twice the heartbeat interval: the connection is dead and is replaced")
    func heartbeatLoss() async throws {
        try await withSimulator({ $0.heartbeatInterval = 0.2 }) { sim, transport in
            let stats = FeedStats()
            let probe = feed(sim, transport, heartbeat: "0.2", stats: stats)
            defer { probe.stop() }
            try await probe.wait("snapshot") { $0.count(\.isSnapshot) == 1 }
            await sim.setSilent(true)
            try await probe.wait("reconnecting after silence") { $0.updates.contains { $0.isReconnecting } }
            await sim.setSilent(false)
            try await probe.wait("resync") { $0.count(\.isSnapshot) >= 2 }
            let reason = probe.updates.compactMap { u -> String? in
                if case .connection(.reconnecting(_, _, let r)) = u { return r } else { return nil }
            }.first
            #expect(reason?.hasPrefix("no message for") == true)
            #expect(stats.connects >= 2)
        }
    }

    @Test("A wrong key is refused at the upgrade: exit 3, no retry")
    func wrongKeyStream() async throws {
        try await withSimulator { sim, transport in
            let stats = FeedStats()
            let probe = feed(sim, transport, key: "bad-key-0000000", stats: stats)
            try await probe.wait("stop") { $0.finished }
            #expect((probe.error as? OddsError)?.exitCode == 3)
            #expect(stats.connects == 0)
        }
    }

    @Test("A key without the live plan is refused at the upgrade with HTTP 403: exit 4, no retry")
    func basicPlan() async throws {
        try await withSimulator { sim, transport in
            let stats = FeedStats()
            let probe = feed(sim, transport, key: "basic-key-0123456789", stats: stats)
            try await probe.wait("stop") { $0.finished }
            #expect((probe.error as? OddsError)?.exitCode == 4)
            #expect(stats.connects == 0)
        }
    }

    @Test("One connection over the key's limit is refused at the upgrade (HTTP 429) and retried with backoff; the first stays live")
    func connectionLimit() async throws {
        try await withSimulator({ $0.tickOddsConnectionLimit = 1 }) { sim, transport in
            let first = feed(sim, transport)
            defer { first.stop() }
            try await first.wait("the first connection's snapshot") { $0.count(\.isSnapshot) == 1 }
            let second = feed(sim, transport)
            defer { second.stop() }
            try await second.wait("the second connection retried") { $0.count(\.isReconnecting) >= 2 }
            let reason = second.updates.compactMap { u -> String? in
                if case .connection(.reconnecting(_, _, let r)) = u { return r } else { return nil }
            }.first
            #expect(reason?.contains("429") == true)
            #expect(!second.finished)
            let open = await sim.openConnections
            #expect(!first.finished && open == 1)
            // Once the first goes away, the second gets in.
            first.stop()
            try await second.wait("the second connection live") { $0.count(\.isSnapshot) == 1 }
        }
    }

    @Test("TickOdds documents no close codes: any close, even an invented 'bad key' one, reconnects")
    func closeCodesReconnect() {
        let adapter = TickOddsFeed(settings: ProviderSettings(key: nil, restURL: "", webSocketURL: ""), sport: nil)
        for code in [nil, 1000, 1008, 1011, 4001, 4003, 4029] as [Int?] {
            guard case .reconnect = adapter.closeAction(code: code) else { Issue.record("close \(String(describing: code)) stops"); continue }
        }
    }

    @Test("Malformed messages are skipped and counted; a dropped connection resyncs")
    func malformedAndDrop() async throws {
        try await withSimulator { sim, transport in
            let stats = FeedStats()
            let probe = feed(sim, transport, sport: nil, stats: stats)
            defer { probe.stop() }
            try await probe.wait("snapshot") { $0.count(\.isSnapshot) == 1 }
            await sim.injectMalformed(count: 5)
            await sim.tick(5)
            try await probe.wait("malformed counted") { _ in stats.malformed == 5 }
            await sim.dropAll()
            try await probe.wait("resync") { $0.count(\.isSnapshot) == 2 }
            #expect(stats.connects == 2)
            #expect(probe.error == nil)
        }
    }
}
