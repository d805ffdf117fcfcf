import Foundation
import Logging
import OddsModel
@testable import OddsSimulator
import OddsSimulatorFaults
@testable import OddsSportsAPI
import OddsStore
import OddsTransport
import OddsTestSupport
import Testing

/// SportsAPIPro v2 and v1 clients against the simulator over loopback, per message type and channel.
@Suite("SportsAPIPro over loopback", .timeLimit(.minutes(2)))
struct SportsAPIProSocketTests {
    // The suite's tests run beside the rest on two cores: a one-shot answer may take longer than the 15 s a
    // user waits (it did in CI), so the clients here wait as long as the conformance suite's.
    static func v2(_ sim: Simulator, _ transport: Transport, key: String = testKey, options: [String: String] = [:]) -> SportsAPIProClient {
        let client = SportsAPIProClient(settings: settings(sim, .sportsapi, key: key, options: options), transport: transport)
        client.answerTimeout = 45
        client.snapshotWait = 6
        return client
    }

    static func v1(_ sim: Simulator, _ transport: Transport, key: String = testKey, options: [String: String] = [:]) -> SportsAPIProV1Client {
        let client = SportsAPIProV1Client(settings: settings(sim, .sportsapiV1, key: key, options: options), transport: transport)
        client.answerTimeout = 45
        client.snapshotWait = 6
        return client
    }

    static func store(_ probe: FeedProbe) -> LiveStore {
        var store = LiveStore()
        for m in probe.messages { store.apply(m) }
        return store
    }

    /// A live soccer match id of the simulator, through the client.
    static func liveMatch(_ client: SportsAPIProClient) async throws -> Event {
        let live = try await client.liveEvents(sport: "soccer")
        return try #require(live.first { $0.score != nil })
    }

    @Test("live: the live-scores snapshot gives live matches with score, clock and status; x-sport scopes it")
    func live() async throws {
        try await withSimulator { sim, transport in
            let client = SportsAPIProSocketTests.v2(sim, transport)
            let soccer = try await client.liveEvents(sport: "soccer")
            #expect(!soccer.isEmpty)
            for e in soccer {
                #expect(e.sport == "soccer" && e.provider == .sportsapi)
                #expect(e.status == .live || e.status == .halftime)
                #expect(e.score != nil && !e.home.isEmpty && e.away != nil)
            }
            #expect(soccer.contains { $0.clock != nil })
            let basketball = try await client.liveEvents(sport: "basketball")
            #expect(basketball.allSatisfy { $0.sport == "basketball" })
            #expect(Set(basketball.map(\.id)).isDisjoint(with: soccer.map(\.id)))
            await #expect(throws: OddsError.self) { try await client.liveEvents(sport: "curling") }
        }
    }

    @Test("A one-shot answer waits for what the feed had passed on when its channels settled, not for what it passes on since")
    func settling() {
        let answer = Settling()
        var settled = false
        #expect(!answer.done(applied: 100, emitted: 5) { settled })
        settled = true
        #expect(!answer.done(applied: 3, emitted: 5) { settled })
        // The feed has passed on 45 more since: the store holds what the snapshots brought, and that is the answer.
        #expect(answer.done(applied: 5, emitted: 50) { settled })
    }

    @Test("live: each listed match comes with its odds (every book's, both shapes of the odds channel), at most oddsLimit of them")
    func liveOdds() async throws {
        try await withSimulator { sim, transport in
            let client = SportsAPIProSocketTests.v2(sim, transport)
            let soccer = try await client.liveEvents(sport: "soccer")
            #expect(soccer.count >= 3)
            for e in soccer {
                let columns = e.mainColumns.cells
                #expect(columns[0] != nil && columns[2] != nil, "\(e.id): \(e.markets.map(\.id))")
                // SofaScore's own shape (ids that are multiples of 3) is the feed's one book; the others name several.
                let books = Set(e.markets.compactMap(\.book))
                if let n = Int(e.id), n % 3 != 0 { #expect(books.count >= 2, "\(e.id): \(books)") }
            }
            // Past the limit, the rest are listed without odds (and the log says so).
            let limited = SportsAPIProSocketTests.v2(sim, transport)
            limited.oddsLimit = 1
            let few = try await limited.liveEvents(sport: "soccer")
            #expect(few.count == soccer.count)
            #expect(few.filter { !$0.markets.isEmpty }.count == 1)
        }
    }

    @Test("live: odds channels refused for the plan, refused one by one, or never answered leave the scores without prices, never fail them")
    func liveOddsRefused() async throws {
        try await withSimulator { sim, transport in
            // A plan without odds: the server's error stops the connection, and the scores that came are the answer.
            await sim.refuseSportsAPIOdds("Your plan does not include odds; upgrade to subscribe to this channel")
            let planned = SportsAPIProSocketTests.v2(sim, transport)
            let scores = try await planned.liveEvents(sport: "soccer")
            #expect(scores.count >= 3 && scores.allSatisfy { $0.markets.isEmpty && $0.score != nil })
            // An error per channel is that channel's answer: no wait for the quiet period, let alone oddsWait.
            await sim.refuseSportsAPIOdds("Odds unavailable for this match")
            let refused = SportsAPIProSocketTests.v2(sim, transport)
            refused.oddsWait = 60
            let started = Date()
            let some = try await refused.liveEvents(sport: "soccer")
            #expect(Date().timeIntervalSince(started) < refused.snapshotWait + 10)
            #expect(some.count == scores.count && some.allSatisfy(\.markets.isEmpty))
            // No answer at all: the table comes after oddsWait, with the scores.
            await sim.refuseSportsAPIOdds("")
            let silent = SportsAPIProSocketTests.v2(sim, transport)
            silent.oddsWait = 1
            let quiet = try await silent.liveEvents(sport: "soccer")
            #expect(quiet.count == scores.count && quiet.allSatisfy(\.markets.isEmpty))
            // And as the docs say again: prices.
            await sim.refuseSportsAPIOdds(nil)
            #expect(try await SportsAPIProSocketTests.v2(sim, transport).liveEvents(sport: "soccer").allSatisfy { !$0.markets.isEmpty })
        }
    }

    @Test("match: score, incidents, statistics, lineups and odds of several books in one answer; prices as sent")
    func match() async throws {
        try await withSimulator({ $0.secondsPerTick = 60 }) { sim, transport in
            // Play some of each match, so that there are incidents to tell.
            await sim.tick(30)
            let client = SportsAPIProSocketTests.v2(sim, transport)
            let live = try await client.liveEvents(sport: "soccer")
            // Matches whose id is a multiple of 3 send SofaScore's own odds shape (one book): the others have several.
            let id = try #require(live.filter { Int($0.id).map { $0 % 3 != 0 } ?? false }
                .max { $0.score.map { $0.home + $0.away } ?? 0 < $1.score.map { $0.home + $0.away } ?? 0 }?.id)
            let e = try await client.match(id: id, parts: SportsAPIProChannel.all(match: id))
            #expect(!e.home.isEmpty && e.score != nil)
            #expect(e.incidents.contains { $0.kind == .goal && $0.player != nil }, "\(e.incidents)")
            let goals = e.incidents.filter { $0.kind == .goal }.count
            #expect(goals == (e.score.map { $0.home + $0.away } ?? -1), "every goal once: \(e.incidents.map(\.kind))")
            #expect(Set(e.incidents.map(\.identity)).count == e.incidents.count)
            #expect(e.stats.contains { $0.name.lowercased().contains("possession") })
            #expect(e.lineups?.home?.starters.count == 11 && e.lineups?.home?.formation != nil)
            #expect(e.books.count >= 2, "\(e.books)")
            for m in e.markets {
                for s in m.selections {
                    guard let p = s.price else { #expect(s.suspended); continue }
                    // The text is the provider's: a fraction or a decimal, never re-rendered.
                    #expect(p.text.contains("/") ? p.format == .fractional : p.format == .decimal)
                }
            }
            // A match in SofaScore's own odds shape: the feed's own book, fractions as sent.
            if let own = live.first(where: { Int($0.id).map { $0 % 3 == 0 } ?? false }) {
                let o = try await client.match(id: own.id, parts: [.odds(own.id)])
                #expect(o.books == [SportsAPIProWire.ownBook], "\(o.books)")
                #expect(o.markets.flatMap(\.selections).contains { $0.price?.format == .fractional })
            } else {
                Issue.record("no match with SofaScore's odds shape among \(live.map(\.id))")
            }
            await #expect(throws: OddsError.self) { try await client.match(id: "99999999", parts: []) }
        }
    }

    @Test("The live list alone (odds watch's look-up) asks for no match's odds channel, and warns of none left out; the live view does")
    func liveListWithoutOdds() async throws {
        let log = LogLines()
        try await withSimulator { sim, _ in try await withTransport(logger: Logger(label: "test") { _ in log }) { transport in
            let client = SportsAPIProSocketTests.v2(sim, transport)
            let list = try await client.liveList(sport: "soccer")
            #expect(!list.isEmpty && list.allSatisfy { $0.markets.isEmpty })
            let asked = await sim.receivedTexts
            #expect(!asked.contains { $0.contains(":odds") }, "\(asked.filter { $0.contains(":odds") }.prefix(3))")
            #expect(log.all.isEmpty, "\(log.all)")
            _ = try await client.liveEvents(sport: "soccer")
            #expect(await sim.receivedTexts.contains { $0.contains(":odds") })
        } }
    }

    @Test("A finished match is still a match: its incidents answer, in match order, ending with full time")
    func finishedMatch() async throws {
        try await withSimulator({ $0.secondsPerTick = 60 }) { sim, transport in
            let m = try #require(await sim.worldNow.live.filter { $0.sport == "soccer" && $0.phase != .ended }.max { $0.elapsed < $1.elapsed })
            var ticks = 0
            while await sim.worldNow.match(m.serial)?.phase != .ended, ticks < 150 { await sim.tick(); ticks += 1 }
            let id = String(SportsAPIProV2.matchID(m.serial))
            let e = try await SportsAPIProSocketTests.v2(sim, transport).match(id: id, parts: [.incidents(id)])
            #expect(e.status == .ended)
            #expect(e.incidents.last?.detail == "FT" && e.incidents.last?.endsMatch == true, "\(e.incidents.map(\.detail))")
            #expect(e.incidents.contains { $0.detail == "HT" })
            let keys = e.incidents.map(\.timelineKey)
            #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 <= $1 })
        }
    }

    @Test("The detail pane's match channels are subscribed while it is open and unsubscribed when it closes")
    func focusSubscribesAndUnsubscribes() async throws {
        try await withSimulator { sim, transport in
            let client = SportsAPIProSocketTests.v2(sim, transport)
            let id = try await SportsAPIProSocketTests.liveMatch(client).id
            let feed = try client.feed(sport: "soccer")
            let probe = FeedProbe(FeedRunner.run(feed, transport: transport, stats: FeedStats()))
            defer { probe.stop() }
            try await probe.wait("live scores") { !SportsAPIProSocketTests.store($0).events.isEmpty }
            #expect(await sim.sportsAPIChannels() == [["live-scores"]])
            let focus = MatchChannelFocus(feed: feed)
            focus.focus(id)
            let matchChannels = SportsAPIProChannel.all(match: id).map(\.name)
            try await waitFor("the match channels on the server") { await sim.sportsAPIChannels() == [["live-scores"] + matchChannels] }
            try await probe.wait("the match's incidents and stats") { p in
                let e = SportsAPIProSocketTests.store(p).events[EventKey(provider: .sportsapi, id: id)]?.event
                return e.map { !$0.stats.isEmpty && $0.lineups != nil } ?? false
            }
            focus.focus(nil)
            try await waitFor("the match channels gone") { await sim.sportsAPIChannels() == [["live-scores"]] }
            // The rows on screen follow their incidents and odds; rows that scroll away are let go.
            let ids = SportsAPIProSocketTests.store(probe).currentEvents().map(\.id)
            #expect(ids.count >= 3)
            focus.rows(Array(ids.prefix(2)))
            try await waitFor("two rows' incidents and odds") {
                await sim.sportsAPIChannels() == [["live-scores"] + ids.prefix(2).flatMap { ["match:\($0):incidents", "match:\($0):odds"] }]
            }
            // Their prices reach the table: the best across books in 1 / X / 2.
            try await probe.wait("a row's prices") { p in
                let e = SportsAPIProSocketTests.store(p).events[EventKey(provider: .sportsapi, id: ids[0])]?.event
                return e.map { $0.mainColumns.cells.compactMap { $0 }.count >= 2 } ?? false
            }
            focus.focus(ids[1])
            focus.rows([ids[2]])
            focus.focus(nil)
            try await waitFor("the third row's channels alone") {
                await sim.sportsAPIChannels() == [["live-scores", "match:\(ids[2]):incidents", "match:\(ids[2]):odds"]]
            }
            #expect(feed.subscribedChannels == ["live-scores", "match:\(ids[2]):incidents", "match:\(ids[2]):odds"])
            let sent = await sim.receivedTexts
            for c in matchChannels { #expect(sent.contains(#"{"action":"unsubscribe","channel":"\#(c)"}"#)) }
        }
    }

    @Test("After a reconnect, exactly what was subscribed is subscribed again")
    func resubscribeAfterReconnect() async throws {
        try await withSimulator { sim, transport in
            let client = SportsAPIProSocketTests.v2(sim, transport)
            let id = try await SportsAPIProSocketTests.liveMatch(client).id
            let feed = try client.feed(sport: nil, channels: [.liveScores(sport: "basketball"), .match(id), .incidents(id)])
            feed.unsubscribe([.match(id)])
            feed.subscribe([.odds(id)])
            let stats = FeedStats()
            let probe = FeedProbe(FeedRunner.run(feed, transport: transport, stats: stats, policy: fastReconnect))
            defer { probe.stop() }
            let expected = ["live-scores:basketball", "match:\(id):incidents", "match:\(id):odds"]
            try await waitFor("the subscriptions") { await sim.sportsAPIChannels() == [expected] }
            await sim.dropAll()
            try await waitFor("a second connection") { stats.connects == 2 }
            try await waitFor("the same subscriptions again") { await sim.sportsAPIChannels() == [expected] }
        }
    }

    @Test("Incidents resent by nats updates and safety-net polls reach the stream once")
    func incidentsAreDeduplicated() async throws {
        try await withSimulator({ $0.secondsPerTick = 60 }) { sim, transport in
            await sim.tick(20)
            let client = SportsAPIProSocketTests.v2(sim, transport)
            let live = try await client.liveEvents(sport: "soccer")
            let id = try #require(live.max { ($0.score.map { $0.home + $0.away } ?? 0) < ($1.score.map { $0.home + $0.away } ?? 0) }?.id)
            let feed = try client.feed(sport: nil, channels: [.match(id), .incidents(id)])
            let probe = FeedProbe(FeedRunner.run(feed, transport: transport, stats: FeedStats()))
            defer { probe.stop() }
            func incidents() -> [Incident] {
                probe.updates.compactMap { if case .incident(let e, let i) = $0, e == id { return i }; return nil }
            }
            try await probe.wait("the incidents snapshot") { _ in !incidents().isEmpty }
            let first = incidents().count
            // One socket keeps its order: once a channel subscribed after the polls answers, every poll has been read.
            for _ in 0..<3 { await sim.sportsAPIPollNow() }
            feed.subscribe([.lineups(id)])
            try await probe.wait("the lineups snapshot after the polls") { p in p.count { if case .lineups = $0 { return true }; return false } > 0 }
            #expect(incidents().count == first)
            // The match goes on: new incidents arrive, each once, through updates and polls alike.
            for _ in 0..<40 { await sim.tick(); await sim.sportsAPIPollNow() }
            feed.subscribe([.liveScores(sport: nil)])
            try await probe.wait("the live scores after the polls") { p in
                p.updates.contains { if case .scoreboard(let b) = $0 { return b.eventID != id }; return false }
            }
            // One reading of what came, for the list and the store alike: on a loaded machine more may still be arriving.
            let messages = probe.messages
            let all = messages.compactMap { m -> Incident? in if case .incident(let e, let i) = m.update, e == id { return i }; return nil }
            #expect(Set(all.map(\.identity)).count == all.count, "\(all.map(\.identity))")
            var store = LiveStore()
            for m in messages { store.apply(m) }
            #expect(store.events[EventKey(provider: .sportsapi, id: id)]?.event.incidents.count == all.count)
        }
    }

    @Test("A pong to each ping keeps a quiet connection alive, a held-up process is not silence, no pong for two pings is")
    func pingKeepsAlive() async throws {
        // Pings, pongs and the watchdog go by a virtual clock over real sockets: however busy the machine, the
        // silence the client sees is only what the clock says.
        let clock = VirtualClock()
        // No safety-net polls (they keep the wall clock's time): pongs are the only messages.
        let noPolls: (inout Simulator.Options) -> Void = {
            $0.sportsAPIIncidentsPollInterval = 0; $0.sportsAPIStatsPollInterval = 0; $0.sportsAPILineupsPollInterval = 0
        }
        try await withSimulator(noPolls, clock: clock) { sim, transport in
            let client = SportsAPIProSocketTests.v2(sim, transport, options: ["ping_seconds": "3"])
            let feed = try client.feed(sport: nil, channels: [.liveScores(sport: nil)])
            #expect(feed.silenceLimit == 6)
            let stats = FeedStats()
            let probe = FeedProbe(FeedRunner.run(feed, transport: transport, stats: stats, policy: fastReconnect))
            defer { probe.stop() }
            let ping = #"{"action":"ping","channel":"live-scores"}"#
            func heartbeats() -> Int { probe.count { if case .heartbeat = $0 { return true }; return false } }
            try await probe.wait("the live scores") { p in p.updates.contains { if case .scoreboard = $0 { return true }; return false } }
            // `welcome` and `subscribed` came before the snapshot, each a heartbeat; from here on, only pongs come.
            let before = heartbeats()
            func pongs() -> Int { heartbeats() - before }
            // The pinger and the watchdog (a quarter of the limit) sleep on the clock.
            try await clock.waitForSleeper(count: 2)
            // Four pings, each answered: twice the silence limit goes by on one connection.
            for n in 1...4 {
                clock.advance(by: 1.5)
                try await clock.waitForSleeper(count: 2)
                clock.advance(by: 1.5)
                try await waitFor("pong \(n)") { pongs() >= n }
                try await clock.waitForSleeper(count: 2)
            }
            #expect(await sim.receivedTexts.filter { $0 == ping }.count == 4)
            #expect(stats.connects == 1)
            // Held up 20 s at once (suspended, starved of CPU): the watchdog wakes once to a late clock, and a ping
            // answered then is life, not 20 s of silence.
            clock.advance(by: 20)
            try await waitFor("pong 5, or a reconnect") { pongs() >= 5 || probe.updates.contains { $0.isReconnecting } }
            try #require(!probe.updates.contains { $0.isReconnecting }, "20 s held up was taken for 20 s of silence")
            try await clock.waitForSleeper(count: 2)
            #expect(stats.connects == 1)
            // The server stops answering: more than 6 s of silence on time ends the connection, and the feed reconnects.
            await sim.setSilent(true)
            var steps = 0
            while !probe.updates.contains(where: { $0.isReconnecting }) {
                steps += 1
                try #require(steps <= 8, "no reconnect after \(Double(steps - 1) * 1.5) s without a pong")
                clock.advance(by: 1.5)
                try await waitFor("the watchdog's next look") { clock.sleeping >= 2 || probe.updates.contains { $0.isReconnecting } }
            }
            // Dead on the first look more than 6 s after the last pong: the fifth, or the sixth when the client finished
            // with that pong only after the first step (its time is when it finished). Never on the fourth, at 6 s.
            #expect((5...6).contains(steps), "dead after \(Double(steps) * 1.5) s without a pong")
            let reason = probe.updates.lazy.compactMap { u -> String? in
                if case .connection(.reconnecting(_, _, let r)) = u { return r } else { return nil }
            }.first
            #expect(reason == "no message for 6 s")
            await sim.setSilent(false)
            clock.advance(by: 1)
            try await waitFor("a new connection") { stats.connects == 2 }
        }
    }

    @Test("natsConnected false: the connection shows as degraded; live scores still come (by poll)")
    func degraded() async throws {
        try await withSimulator({ $0.sportsAPINATSConnected = false }) { sim, transport in
            let client = SportsAPIProSocketTests.v2(sim, transport)
            let probe = FeedProbe(client.stream(sport: "soccer", stats: FeedStats()))
            defer { probe.stop() }
            try await probe.wait("a degraded connection and live scores") { p in
                p.count { if case .connection(.degraded) = $0 { return true }; return false } == 1
                    && !SportsAPIProSocketTests.store(p).events.isEmpty
            }
            var store = LiveStore()
            for m in probe.messages { store.apply(m) }
            #expect(store.feeds[.sportsapi]?.connections["live"]?.label == "degraded")
            // One-shot answers do not wait on the state line.
            #expect(!(try await client.liveEvents(sport: "soccer")).isEmpty)
        }
    }

    @Test("A bad key is refused at the handshake with HTTP 401: the feed stops with exit code 3")
    func badKey() async throws {
        try await withSimulator { sim, transport in
            for stream in [SportsAPIProSocketTests.v2(sim, transport, key: "wrong-key").stream(sport: nil, stats: FeedStats()),
                           SportsAPIProSocketTests.v1(sim, transport, key: "wrong-key").stream(sport: nil, stats: FeedStats())] {
                do {
                    for try await _ in stream {}
                    Issue.record("the feed ended without an error")
                } catch let error as OddsError {
                    #expect(error.exitCode == 3, "\(error)")
                }
            }
        }
    }

    @Test("An unknown channel gets the server's error shown once; the connection goes on")
    func unknownChannel() async throws {
        try await withSimulator { sim, transport in
            let client = SportsAPIProSocketTests.v2(sim, transport)
            let feed = try client.feed(sport: nil, channels: [.liveScores(sport: nil)])
            let stats = FeedStats()
            let probe = FeedProbe(FeedRunner.run(feed, transport: transport, stats: stats))
            defer { probe.stop() }
            try await probe.wait("live scores") { !SportsAPIProSocketTests.store($0).events.isEmpty }
            // A channel of a match the server does not know.
            feed.subscribe([.stats("1")])
            feed.subscribe([.odds("1")])
            // Then a match it knows: once that answers, the errors before it have been read.
            let known = try #require(SportsAPIProSocketTests.store(probe).events.keys.first { $0.provider == .sportsapi }?.id)
            func boards(_ p: FeedProbe) -> Int { p.count { if case .scoreboard(let b) = $0 { return b.eventID == known }; return false } }
            let before = boards(probe)
            feed.subscribe([.match(known)])
            try await probe.wait("the known match after the errors") { boards($0) > before }
            #expect(probe.error == nil && !probe.finished && stats.connects == 1)
        }
    }

    @Test("Malformed and wrong-typed messages are skipped and counted on both versions; the stream goes on", arguments: [true, false])
    func malformed(_ v2: Bool) async throws {
        try await withSimulator { sim, transport in
            let stats = FeedStats()
            let stream = v2 ? SportsAPIProSocketTests.v2(sim, transport).stream(sport: nil, stats: stats)
                            : SportsAPIProSocketTests.v1(sim, transport).stream(sport: nil, stats: stats)
            let probe = FeedProbe(stream)
            defer { probe.stop() }
            try await probe.wait("the first scores") { !SportsAPIProSocketTests.store($0).events.isEmpty }
            await sim.injectMalformed(count: 5)
            if v2 {
                await sim.injectText(#"{"type":"update","channel":"match:1:stats","data":"oops"}"#)
                await sim.injectText(#"{"type":"snapshot","channel":"live-scores","data":{"events":[{"id":{"no":1}}]}}"#)
            } else {
                await sim.injectText(#"{"type":"scores","channel":"live","games":"oops","updateId":1}"#)
            }
            try await waitFor("the bad messages counted") { stats.malformed >= (v2 ? 7 : 6) }
            #expect(probe.error == nil && !probe.finished && stats.connects == 1)
            // Still reading: a ping's pong (v2) or the next scores (v1) arrive.
            let before = probe.messages.count
            if v2 { await sim.injectText(#"{"type":"pong","channel":"live-scores","timestamp":1}"#) }
            else { await sim.sportsAPIV1SendScores(updateID: await sim.sportsAPIV1UpdateID + 10, channel: "live") }
            try await probe.wait("a message after the bad ones") { $0.messages.count > before }
        }
    }

    // MARK: - v1

    @Test("v1: the sport fills the host template; the server's all is narrowed to the sport asked for; live games")
    func v1Live() async throws {
        try await withSimulator { sim, transport in
            let client = SportsAPIProSocketTests.v1(sim, transport)
            let feed = try client.feed(sport: "soccer", channels: ["football"])
            #expect(try feed.endpoint().url.hasPrefix(sim.sportsAPIV1URL(sport: "football")))
            let probe = FeedProbe(FeedRunner.run(feed, transport: transport, stats: FeedStats()))
            defer { probe.stop() }
            try await waitFor("the narrowed subscription") { await sim.sportsAPIChannels(.sportsapiV1) == [["football"]] }
            try await probe.wait("football scores") { !SportsAPIProSocketTests.store($0).events.isEmpty }
            let events = SportsAPIProSocketTests.store(probe).currentEvents()
            #expect(events.allSatisfy { $0.sport == "soccer" })
            probe.stop()
            let live = try await client.liveEvents(sport: "ice-hockey")
            #expect(live.allSatisfy { $0.sport == "ice-hockey" && ($0.status == .live || $0.status == .halftime) })
            let all = try await client.liveEvents(sport: nil)
            #expect(all.count >= live.count && all.contains { $0.sport == "soccer" })
            #expect(all.allSatisfy { $0.score != nil }, "a live game has a score; -1 is only for games not started")
        }
    }

    @Test("v1: a smaller or repeated updateId is ignored; a larger one is applied")
    func v1UpdateOrder() async throws {
        try await withSimulator { sim, transport in
            let client = SportsAPIProSocketTests.v1(sim, transport)
            let probe = FeedProbe(FeedRunner.run(try client.feed(sport: nil, channels: ["all"]), transport: transport, stats: FeedStats()))
            defer { probe.stop() }
            func boards() -> Int { probe.count { if case .scoreboard = $0 { return true }; return false } }
            // The server's own first scores, then one with an id well above its counter.
            try await probe.wait("the first scores") { _ in boards() > 0 }
            let opening = boards()
            let current = await sim.sportsAPIV1UpdateID + 1_000
            await sim.sportsAPIV1SendScores(updateID: current)
            // One scores message is one batch: all of its games arrive together.
            try await probe.wait("scores with a larger id") { _ in boards() > opening }
            let before = boards(), each = before - opening
            await sim.sportsAPIV1SendScores(updateID: current)
            await sim.sportsAPIV1SendScores(updateID: current - 5)
            // The socket keeps its order: once the newer scores are in, the stale ones before them have been read.
            await sim.sportsAPIV1SendScores(updateID: current + 1)
            try await probe.wait("the newer scores") { _ in boards() > before }
            #expect(boards() == before + each, "the same id again, or a smaller one, was taken")
        }
    }

    @Test("v1: pings are answered and subscriptions change while connected")
    func v1PingAndChannels() async throws {
        try await withSimulator { sim, transport in
            let client = SportsAPIProSocketTests.v1(sim, transport, options: ["ping_seconds": "1"])
            let feed = try client.feed(sport: "basketball", channels: ["live"])
            let probe = FeedProbe(FeedRunner.run(feed, transport: transport, stats: FeedStats()))
            defer { probe.stop() }
            try await waitFor("live") { await sim.sportsAPIChannels(.sportsapiV1) == [["live"]] }
            feed.subscribe("match:4400001")
            try await waitFor("live and one match") { await sim.sportsAPIChannels(.sportsapiV1) == [["live", "match:4400001"]] }
            feed.unsubscribe("live")
            try await waitFor("the match alone") { await sim.sportsAPIChannels(.sportsapiV1) == [["match:4400001"]] }
            try await waitFor("two pings", timeout: 30) { await sim.receivedTexts.filter { $0 == #"{"type":"ping"}"# }.count >= 2 }
            try await probe.wait("two pongs") { p in p.count { if case .heartbeat = $0 { return true }; return false } >= 2 }
        }
    }
}
