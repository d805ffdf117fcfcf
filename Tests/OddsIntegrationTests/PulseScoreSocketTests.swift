import Foundation
import OddsModel
@testable import OddsPulseScore
import OddsSimulator
import OddsSimulatorFaults
import OddsTransport
import OddsTestSupport
import Testing

/// The real PulseScore client against the simulator over loopback sockets.
@Suite("PulseScore over loopback", .timeLimit(.minutes(2)))
struct PulseScoreSocketTests {
    func client(_ sim: Simulator, _ transport: Transport, key: String = testKey) -> PulseScoreClient {
        PulseScoreClient(settings: settings(sim, .pulsescore, key: key), transport: transport, retry: fastRetry)
    }

    @Test("GET /live-events returns the simulator's live matches with exact prices")
    func liveEvents() async throws {
        try await withSimulator { sim, transport in
            let events = try await client(sim, transport).liveEvents(sport: "soccer")
            let world = await sim.worldNow.live(for: .pulsescore).filter { $0.sport == "soccer" }
            #expect(events.count == world.count)
            #expect(events.count > 0)
            let first = try #require(events.first)
            let match = try #require(world.first { $0.home == first.home })
            #expect(first.away == match.away && first.league == match.league && first.status == .live)
            let expected = match.markets[0].selections.map { String(format: "%d.%02d", $0.price / 100, $0.price % 100) }
            #expect(first.mainMarket?.selections.map { $0.price?.text ?? "" } == expected)
            // Every line the world has suspended (settled lines, matches suspended after a goal) arrives suspended.
            for match in world {
                let event = try #require(events.first { $0.home == match.home })
                let suspended = match.markets.flatMap { m in m.selections.map { match.suspended || $0.suspended } }
                #expect(event.markets.flatMap { $0.selections.map(\.suspended) } == suspended, "\(match.home)")
            }
            #expect(world.contains { $0.markets.contains { $0.selections.contains(where: \.suspended) } })
            let tennis = try await client(sim, transport).liveEvents(sport: "tennis")
            #expect(tennis.allSatisfy { $0.sport == "tennis" } && !tennis.isEmpty)
        }
    }

    @Test("Live sports, live event by id, and 404 for an unknown id")
    func liveSportsAndEvent() async throws {
        try await withSimulator { sim, transport in
            let c = client(sim, transport)
            let sports = try await c.liveSports()
            #expect(Set(sports.map(\.sport)) == ["soccer", "basketball", "tennis"])
            let liveSoccer = await sim.worldNow.live(for: .pulsescore).filter { $0.sport == "soccer" }.count
            #expect(sports.first { $0.sport == "soccer" }?.count == liveSoccer)
            let id = try #require(try await c.liveEvents(sport: "soccer").first?.id)
            #expect(try await c.liveEvent(id: id).id == id)
            // Unknown on the inferred path, then on the documented one too.
            await #expect(throws: OddsError.notFound("PulseScore has no event 1 (HTTP 404).")) {
                _ = try await c.liveEvent(id: "1")
            }
        }
    }

    @Test("A live event whose inferred path answers 404 is asked once at the documented /events/{fi}")
    func liveEventFallback() async throws {
        try await withSimulator { sim, transport in
            let c = PulseScoreClient(settings: settings(sim, .pulsescore, options: ["live_event_path": "/live-events/gone/{id}"]),
                                     transport: transport, retry: fastRetry)
            let id = try #require(try await c.liveEvents(sport: "soccer").first?.id)
            let before = await sim.counters.requests
            let event = try await c.liveEvent(id: id)
            #expect(event.id == id && event.sport == "soccer")
            #expect(await sim.counters.requests - before == 2)
        }
    }

    @Test("Events that do not name their sport are of the sport asked for, or unknown: never guessed as soccer")
    func sportNotGuessed() throws {
        let json = #"[{"fi":"1","home":"A","away":"B","live":1,"mg":[]}]"#
        #expect(try PulseScoreWire.events(PulseScoreWire.parse(json), sport: "tennis").first?.sport == "tennis")
        #expect(try PulseScoreWire.events(PulseScoreWire.parse(json)).first?.sport == "unknown")
        #expect(try PulseScoreWire.events(PulseScoreWire.parse(#"[{"fi":"1","home":"A","sport":"Ice Hockey"}]"#)).first?.sport == "ice-hockey")
    }

    @Test("Pre-match: soccer at the root, other sports under a prefix, races without an away side, the tab filter")
    func prematch() async throws {
        try await withSimulator { sim, transport in
            let c = client(sim, transport)
            let soccer = try await c.leagues(sport: "soccer")
            #expect(soccer.map(\.name).contains("Premier League"))
            let tennis = try await c.leagues(sport: "tennis")
            #expect(tennis.allSatisfy { $0.sport == "tennis" } && !tennis.isEmpty)
            let races = try await c.leagues(sport: "horse-racing")
            #expect(!races.isEmpty && races.allSatisfy { $0.events.allSatisfy { $0.away == nil } })

            let events = try await c.events(sport: "soccer", league: "Premier League", tab: nil)
            #expect(!events.isEmpty && events.allSatisfy { $0.status == .scheduled && $0.markets.count == 3 })
            let goals = try await c.events(sport: "soccer", league: "Premier League", tab: "Goals")
            #expect(goals.allSatisfy { $0.markets.map(\.name) == ["Both Teams to Score"] })

            let fixture = try #require(events.first)
            #expect(try await c.event(sport: "soccer", fixtureID: fixture.id).home == fixture.home)
            let race = try #require(races.first?.events.first)
            let raceEvent = try await c.event(sport: "horse-racing", fixtureID: race.id)
            #expect(raceEvent.away == nil && raceEvent.markets.map(\.name) == ["Win", "Each Way"])
            // As in the docs' cURL example, a live fixture id answers at /events/{fi} too.
            let live = try #require(try await c.liveEvents(sport: "soccer").first)
            #expect(try await c.event(sport: "soccer", fixtureID: live.id).home == live.home)
            await #expect(throws: OddsError.self) { _ = try await c.event(sport: "tennis", fixtureID: live.id) }
        }
    }

    @Test("A wrong key is an authentication error (exit 3) and the key never appears in it")
    func wrongKey() async throws {
        try await withSimulator { sim, transport in
            do {
                _ = try await client(sim, transport, key: "wrong-key-abcdef").liveEvents(sport: "soccer")
                Issue.record("expected an error")
            } catch let e as OddsError {
                #expect(e.exitCode == 3)
                #expect(!e.message.contains("wrong-key-abcdef"))
            }
        }
    }

    @Test("429 is retried with backoff; persistent 429 becomes a rate-limit error (exit 6)")
    func rateLimit() async throws {
        try await withSimulator { sim, transport in
            let c = client(sim, transport)
            await sim.failNextRequests(status: 429, count: 2, retryAfter: nil)
            let events = try await c.liveEvents(sport: "soccer")
            #expect(!events.isEmpty)
            let requests = await sim.counters.requests
            #expect(requests == 3)
            await sim.failNextRequests(status: 429, count: 10, retryAfter: nil)
            await #expect(throws: OddsError.rateLimited(.pulsescore)) { _ = try await c.liveEvents(sport: "soccer") }
        }
    }

    @Test("Retry-After is a floor for the next try, in seconds or as an HTTP date; a long one fails at once and says so")
    func retryAfter() async throws {
        try await withSimulator { sim, transport in
            let c = client(sim, transport)
            // The backoff alone would retry after 0.02 s; the server asks for 1 s.
            await sim.failNextRequests(status: 429, count: 1, retryAfter: "1")
            var started = Date()
            #expect(try await !c.liveSports().isEmpty)
            #expect(Date().timeIntervalSince(started) >= 1)

            let format = DateFormatter()
            format.locale = Locale(identifier: "en_US_POSIX")
            format.timeZone = TimeZone(identifier: "GMT")
            format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            // An HTTP date has whole seconds: two seconds ahead is at least one second of wait.
            await sim.failNextRequests(status: 429, count: 1, retryAfter: format.string(from: Date().addingTimeInterval(2)))
            started = Date()
            #expect(try await !c.liveSports().isEmpty)
            #expect(Date().timeIntervalSince(started) >= 1)

            await sim.failNextRequests(status: 429, count: 1, retryAfter: "120")
            let before = await sim.counters.requests
            do {
                _ = try await c.liveSports()
                Issue.record("expected a rate-limit error")
            } catch let error as OddsError {
                #expect(error == .rateLimited(.pulsescore, retryAfter: 120))
                #expect(error.exitCode == 6)
                #expect(error.message == "PulseScore rate limit exceeded (HTTP 429); it asks to wait 120 s before the next request.")
            }
            let after = await sim.counters.requests
            #expect(after == before + 1)
        }
    }

    @Test("403 is a plan error (exit 4); 500 is retried, then a provider error (exit 8)")
    func otherStatuses() async throws {
        try await withSimulator { sim, transport in
            let c = client(sim, transport)
            await sim.failNextRequests(status: 403)
            do { _ = try await c.liveSports(); Issue.record("expected 403") } catch let e as OddsError { #expect(e.exitCode == 4) }
            await sim.failNextRequests(status: 500, count: 1)
            #expect(try await !c.liveSports().isEmpty)
            await sim.failNextRequests(status: 500, count: 10)
            do { _ = try await c.liveSports(); Issue.record("expected 500") } catch let e as OddsError { #expect(e.exitCode == 8) }
        }
    }

    @Test("The client stays under 3 requests a second with a margin: the simulator's own limit never fires")
    func clientSideRateLimit() async throws {
        #expect(1 / PulseScoreClient.requestsPerSecond >= 0.35, "spacing at the limit leaves no margin")
        try await withSimulator({ $0.enforceRateLimit = true }) { sim, transport in
            let c = client(sim, transport)
            let started = Date()
            for _ in 0..<8 { _ = try await c.liveSports() }
            let counters = await sim.counters
            #expect(counters.rateLimited == 0)
            #expect(counters.requests == 8)
            // Eight requests spaced 350 ms apart take at least 7 × 0.35 s (minus what a process-wide
            // limiter already waited for before this test).
            #expect(Date().timeIntervalSince(started) >= 7 * 0.35 - 0.4)
        }
    }

    @Test("An unreachable server is a network error (exit 7)")
    func unreachable() async throws {
        try await withSimulator { _, transport in
            let s = ProviderSettings(key: testKey, restURL: "http://127.0.0.1:1/api", webSocketURL: "ws://127.0.0.1:1/ws")
            do {
                _ = try await PulseScoreClient(settings: s, transport: transport, retry: fastRetry).liveSports()
                Issue.record("expected a network error")
            } catch let e as OddsError {
                #expect(e.exitCode == 7)
            }
        }
    }

    // MARK: WebSocket

    func feed(_ sim: Simulator, _ transport: Transport, key: String = testKey, sport: String = "soccer",
              stats: FeedStats = FeedStats()) -> FeedProbe {
        let adapter = PulseScoreFeed(settings: settings(sim, .pulsescore, key: key), sport: sport)
        return FeedProbe(FeedRunner.run(adapter, transport: transport, stats: stats, policy: fastReconnect))
    }

    @Test("The broadcast becomes a snapshot, then price and event updates as the world moves")
    func stream() async throws {
        try await withSimulator { sim, transport in
            let probe = feed(sim, transport)
            defer { probe.stop() }
            try await probe.wait("snapshot") { $0.updates.contains { $0.isSnapshot } }
            let snapshot = try #require(probe.updates.first { $0.isSnapshot }?.snapshotEvents)
            let liveSoccer = await sim.worldNow.live(for: .pulsescore).filter { $0.sport == "soccer" && $0.phase != .ended }.count
            #expect(snapshot.count == liveSoccer)
            for _ in 0..<60 where probe.count({ if case .price = $0 { return true } else { return false } }) == 0 {
                await sim.tick()
                try await Task.sleep(nanoseconds: 20_000_000)
            }
            try await probe.wait("a price update") { p in p.count { if case .price = $0 { return true } else { return false } } > 0 }
        }
    }

    @Test("Close codes 4011 and 4012 reconnect with backoff and resync", arguments: [4011, 4012])
    func retryCodes(code: Int) async throws {
        try await withSimulator { sim, transport in
            await sim.closeNextConnection(code: code)
            let stats = FeedStats()
            let probe = feed(sim, transport, stats: stats)
            defer { probe.stop() }
            try await probe.wait("reconnect and second snapshot") { p in
                p.count(\.isSnapshot) >= 2 && p.count(\.isReconnecting) >= 1
            }
            #expect(stats.connects == 2)
            let reason = probe.updates.compactMap { u -> String? in
                if case .connection(.reconnecting(_, _, let r)) = u { return r } else { return nil }
            }.first
            #expect(reason?.contains("\(code)") == true)
            #expect(probe.error == nil)
        }
    }

    @Test("Close codes 4001, 4003, 4004, 4005, 4010 and 4029 stop with a clear error",
          arguments: [(4001, Int32(3)), (4003, 4), (4004, 64), (4005, 4), (4010, 3), (4029, 4)])
    func stopCodes(code: Int, exit: Int32) async throws {
        try await withSimulator { sim, transport in
            await sim.closeNextConnection(code: code)
            let stats = FeedStats()
            let probe = feed(sim, transport, stats: stats)
            defer { probe.stop() }
            try await probe.wait("the feed to stop") { $0.finished }
            let error = try #require(probe.error as? OddsError)
            #expect(error.exitCode == exit)
            #expect(probe.updates.contains { $0.isStopped })
            #expect(stats.connects == 1)
        }
    }

    @Test("The simulator's own checks: wrong key 4001, BASIC plan 4003, bad sport 4004, expired key 4010, connection limit 4029")
    func protocolCloses() async throws {
        try await withSimulator { sim, transport in
            let cases: [(String, String, Int32)] = [
                ("nope-key-0123456789", "soccer", 3), ("basic-key-0123456789", "soccer", 4), (testKey, "curling", 64),
                ("expired-key-0123456789", "soccer", 3),
            ]
            for (key, sport, exit) in cases {
                let probe = feed(sim, transport, key: key, sport: sport)
                try await probe.wait("stop for \(key)/\(sport)") { $0.finished }
                #expect((probe.error as? OddsError)?.exitCode == exit, "\(key) \(sport)")
            }
            // PRO allows one connection: the second is refused with 4029.
            let first = feed(sim, transport, key: "pro-key-0123456789")
            defer { first.stop() }
            try await first.wait("first PRO connection") { $0.updates.contains { $0.isSnapshot } }
            let second = feed(sim, transport, key: "pro-key-0123456789")
            try await second.wait("second PRO connection refused") { $0.finished }
            #expect(second.error as? OddsError == .accessDenied(.pulsescore, "connection limit of the plan reached (close 4029)"))
        }
    }

    @Test("A dropped connection reconnects and resyncs with a fresh snapshot")
    func dropped() async throws {
        try await withSimulator { sim, transport in
            let stats = FeedStats()
            let probe = feed(sim, transport, stats: stats)
            defer { probe.stop() }
            try await probe.wait("snapshot") { $0.count(\.isSnapshot) == 1 }
            await sim.dropAll()
            try await probe.wait("resync") { $0.count(\.isSnapshot) == 2 }
            #expect(stats.connects == 2)
            #expect(probe.updates.contains { $0.isReconnecting })
        }
    }

    @Test("Malformed messages are skipped and counted; the stream goes on")
    func malformed() async throws {
        try await withSimulator { sim, transport in
            let stats = FeedStats()
            let probe = feed(sim, transport, stats: stats)
            defer { probe.stop() }
            try await probe.wait("snapshot") { $0.count(\.isSnapshot) == 1 }
            await sim.injectMalformed(count: 4)
            let before = probe.updates.count
            for _ in 0..<60 where probe.updates.count == before {
                await sim.tick()
                try await Task.sleep(nanoseconds: 20_000_000)
            }
            try await probe.wait("updates after the malformed frames") { $0.updates.count > before }
            #expect(stats.malformed == 4)
            #expect(stats.connects == 1)
            #expect(probe.error == nil)
        }
    }

    @Test("A frame of 40 MB (under the 64 MiB bound) arrives whole")
    func bigFrame() async throws {
        try await withSimulator { sim, transport in
            await sim.setPadding(bytes: 40 << 20)
            let stats = FeedStats()
            let probe = feed(sim, transport, stats: stats)
            defer { probe.stop() }
            try await probe.wait("the big snapshot", timeout: 90) { $0.count(\.isSnapshot) == 1 }
            #expect(stats.malformed == 0)
            #expect(stats.connects == 1)
        }
    }

    @Test("A message over the frame bound stops the feed with one clear error (exit 8), not a crash or a reconnect loop")
    func frameOverBound() async throws {
        try await withSimulator { sim, transport in
            transport.maxFrameSize = 1 << 20
            await sim.setPadding(bytes: 2 << 20)
            let stats = FeedStats()
            let probe = feed(sim, transport, stats: stats)
            defer { probe.stop() }
            try await probe.wait("the feed to stop", timeout: 30) { $0.finished }
            let error = try #require(probe.error as? OddsError)
            #expect(error.exitCode == 8)
            #expect(error.message.contains("1 MiB limit"))
            #expect(stats.connects == 1)
        }
    }
}
