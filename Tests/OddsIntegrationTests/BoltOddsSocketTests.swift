import Foundation
import Logging
@testable import OddsBoltOdds
import OddsModel
import OddsSimulator
import OddsSimulatorFaults
import OddsStore
import OddsTransport
import OddsTestSupport
import Testing

/// BoltOdds' client against the simulator over loopback: the odds stream, live scores, play-by-play
/// and REST, as the docs describe them.
@Suite("BoltOdds over loopback", .timeLimit(.minutes(2)))
struct BoltOddsSocketTests {
    static func client(_ sim: Simulator, _ transport: Transport, key: String = testKey) -> BoltOddsClient {
        BoltOddsClient(settings: ProviderSettings(key: key, restURL: sim.restURL(.boltodds), webSocketURL: sim.webSocketURL(.boltodds),
                                                  options: ["pbp_url": sim.boltOddsPlayByPlayURL, "scores_url": sim.boltOddsLiveScoresURL]),
                       transport: transport, limiter: BoltOddsClient.makeGetLimiter())
    }

    static func store(_ probe: FeedProbe) -> LiveStore {
        var store = LiveStore()
        for m in probe.messages { store.apply(m) }
        return store
    }

    @Test("live: the filters resolved through get_info are subscribed as spelled; every game of the competition with the books asked for, and its live score")
    func liveWithFilters() async throws {
        try await withSimulator({ $0.enforceRateLimit = false }) { sim, transport in
            let client = BoltOddsSocketTests.client(sim, transport)
            // Every game's score is checked: the answer may wait for the last one as long as a loaded machine needs.
            client.scoresWait = 30
            let filters = try await client.resolve(sport: "nba", books: ["DraftKings", "fanduel"])
            #expect(filters.sports == ["NBA"] && filters.sportsbooks == ["draftkings", "fanduel"])
            client.use(filters)
            let events = try await client.liveEvents(sport: nil)
            #expect(!events.isEmpty)
            for e in events {
                #expect(e.league == "NBA" && e.sport == "basketball")
                #expect(Set(e.books) == ["draftkings", "fanduel"], "\(e.id): \(e.books)")
                #expect(e.score != nil, "\(e.id) has no live score")
                // The best price across the two books, with the book that has it.
                let main = try #require(e.mainMarket)
                for cell in e.mainLine where !cell.selection.suspended {
                    let offered = e.markets.filter { $0.id == main.id }.compactMap { m in
                        m.selections.first { $0.ref == cell.selection.ref && $0.isAvailable }?.price?.decimalOdds
                    }
                    #expect(cell.selection.price?.decimalOdds == offered.max() && cell.book != nil)
                }
            }
            #expect(await sim.receivedTexts.contains(filters.subscribeMessage))
        }
    }

    @Test("An unknown sport or book is refused before connecting, with close matches")
    func unknownValues() async throws {
        try await withSimulator({ $0.enforceRateLimit = false }) { sim, transport in
            let client = BoltOddsSocketTests.client(sim, transport)
            await #expect(throws: OddsError.usage("BoltOdds has no sport or competition 'socer'; did you mean soccer?")) {
                try await client.resolve(sport: "socer", books: [])
            }
            do {
                _ = try await client.resolve(sport: nil, books: ["fanduell"])
                Issue.record("an unknown book was accepted")
            } catch let error as OddsError {
                #expect(error.exitCode == 64 && error.message.contains("did you mean fanduel"))
            }
            #expect(await sim.counters.connections == 0)
        }
    }

    @Test("book_clear and sport_clear over the socket remove exactly what they name; the stream goes on")
    func clears() async throws {
        try await withSimulator({ $0.enforceRateLimit = false }) { sim, transport in
            let client = BoltOddsSocketTests.client(sim, transport)
            let probe = FeedProbe(FeedRunner.run(client.feedConnections(filters: BoltOddsFilters(), pbp: false),
                                                 transport: transport, stats: FeedStats()))
            defer { probe.stop() }
            try await probe.wait("every book of every game") { p in
                let s = BoltOddsSocketTests.store(p)
                return !s.events.isEmpty && s.events.values.allSatisfy { $0.event.books.count == 8 }
            }
            let before = BoltOddsSocketTests.store(probe)
            let nba = before.events.values.filter { $0.event.league == "NBA" }.map(\.event.id)
            #expect(!nba.isEmpty)
            let count = probe.messages.count
            await sim.boltOddsClearSport("NBA", book: "ballybet")
            try await probe.wait("sport_clear") { p in p.messages.dropFirst(count).contains { if case .clear = $0.update { return true } else { return false } } }
            var after = BoltOddsSocketTests.store(probe)
            for (key, state) in after.events {
                let books = Set(state.event.books)
                if state.event.league == "NBA" { #expect(!books.contains("ballybet"), "\(key.id)") }
                else { #expect(books.contains("ballybet") || before.events[key]?.event.books.contains("ballybet") == false, "\(key.id)") }
            }
            let count2 = probe.messages.count
            await sim.boltOddsClearBook("fanduel")
            try await probe.wait("book_clear") { p in p.messages.dropFirst(count2).contains { $0.update == .clear(.book("fanduel")) } }
            after = BoltOddsSocketTests.store(probe)
            #expect(after.events.values.allSatisfy { !$0.event.books.contains("fanduel") })
            #expect(after.events.values.contains { $0.event.books.contains("draftkings") })
            // The stream goes on: a tick brings updates.
            let count3 = probe.messages.count
            for _ in 0..<3 { await sim.tick() }
            try await probe.wait("updates after the clears") { p in
                p.messages.dropFirst(count3).contains { m in
                    switch m.update { case .price, .bookUpsert, .scoreboard: return true; default: return false }
                }
            }
        }
    }

    @Test("New subscribes on a live connection keep 5 s apart on the feed's clock (virtual here: no real wait)")
    func resubscribeSpacing() async throws {
        let clock = VirtualClock()
        // The simulator keeps its own 5-second rule on the wall clock, which a virtual clock does not move.
        try await withSimulator({ $0.enforceRateLimit = false; $0.boltOddsResubscribeInterval = 0 }, clock: clock) { sim, transport in
            let client = BoltOddsSocketTests.client(sim, transport)
            let first = BoltOddsFilters(sports: ["EPL"]), second = BoltOddsFilters(sports: ["NBA"]), third = BoltOddsFilters(sports: ["La Liga"])
            let adapters = client.feedConnections(filters: first, scores: false, pbp: false)
            let odds = try #require(adapters.first as? BoltOddsOddsFeed)
            let probe = FeedProbe(FeedRunner.run(adapters, transport: transport, stats: FeedStats()))
            try await probe.wait("initial state") { $0.updates.contains { if case .bookUpsert = $0 { return true } else { return false } } }
            // The first subscribe went on `socket_connected`, at t0: the clock has not moved since.
            let t0 = clock.now
            let sleepers = clock.sleeping
            odds.update(filters: second)
            odds.update(filters: third)
            // Neither goes at once: each waits on the clock, the second 5.25 s after the first, the third 5.25 s later.
            try await clock.waitForSleeper(count: sleepers + 2)
            let spacing = BoltOddsOddsFeed.resubscribeSpacing
            #expect(clock.dues.contains(t0.addingTimeInterval(spacing)) && clock.dues.contains(t0.addingTimeInterval(2 * spacing)),
                    "\(clock.dues.map { $0.timeIntervalSince(t0) })")
            clock.advance(by: spacing - 0.01)
            #expect(clock.sleeping == sleepers + 2, "a subscribe was sent before its 5 s")
            clock.advance(by: 0.01)
            try await waitUntil("the second subscribe") { await sim.receivedTexts.contains(second.subscribeMessage) }
            #expect(!(await sim.receivedTexts.contains(third.subscribeMessage)))
            clock.advance(by: spacing)
            try await waitUntil("the third subscribe") { await sim.receivedTexts.contains(third.subscribeMessage) }
            try await probe.wait("La Liga games") { p in
                p.updates.contains { if case .bookUpsert(let e, _) = $0 { return e.league == "La Liga" } else { return false } }
            }
            #expect(await sim.counters.connections == 1)
            probe.stop()
        }
    }

    @Test("The server's re-subscribe error is waited out and the subscribe sent again on the same connection")
    func resubscribeErrorRetried() async throws {
        try await withSimulator({ $0.enforceRateLimit = false }) { sim, transport in
            let client = BoltOddsSocketTests.client(sim, transport)
            let filters = BoltOddsFilters(sports: ["La Liga"])
            let probe = FeedProbe(FeedRunner.run(client.feedConnections(filters: filters, scores: false, pbp: false),
                                                 transport: transport, stats: FeedStats()))
            defer { probe.stop() }
            try await probe.wait("initial state") { $0.updates.contains { if case .bookUpsert = $0 { return true } else { return false } } }
            await sim.injectText(#"{"action": "error", "message": "Re-subscription rate limit hit. Please wait 5 seconds before re-subscribing."}"#)
            try await waitUntil("the subscribe sent again", timeout: 15) {
                await sim.receivedTexts.filter { $0 == filters.subscribeMessage }.count >= 2
            }
            #expect(await sim.counters.connections == 1)
        }
    }

    @Test("An unknown key is refused at the upgrade and stops the feed with exit code 3")
    func badKey() async throws {
        try await withSimulator({ $0.enforceRateLimit = false }) { sim, transport in
            let client = BoltOddsSocketTests.client(sim, transport, key: "wrong-key-0123456789")
            let probe = FeedProbe(FeedRunner.run(client.feedConnections(filters: BoltOddsFilters(), scores: false, pbp: false),
                                                 transport: transport, stats: FeedStats()))
            defer { probe.stop() }
            try await probe.wait("the end") { $0.finished }
            #expect((probe.error as? OddsError)?.exitCode == 3, "\(String(describing: probe.error))")
        }
    }

    @Test("GET requests keep to 12 a minute with a burst of 3: the fourth waits instead of being refused")
    func getRateLimit() async throws {
        try await withSimulator { sim, transport in
            let client = BoltOddsSocketTests.client(sim, transport)
            let limiter = RateLimiter(perSecond: 12.0 / 60, burst: 3)
            var waits: [TimeInterval] = []
            for _ in 0..<4 { waits.append(await limiter.reserve()) }
            #expect(waits[0] == 0 && waits[1] == 0 && waits[2] == 0)
            #expect(waits[3] > 4.5 && waits[3] <= 5.5)
            // The client's own limiter against the simulator's, which counts on the wall clock: this one
            // stays in real time (four listings, none refused, the fourth some 5 s after the first).
            let start = Date()
            for _ in 0..<4 { _ = try await client.info() }
            #expect(await sim.counters.rateLimited == 0)
            #expect(Date().timeIntervalSince(start) >= 4)
        }
    }

    @Test("Play-by-play and live scores of the odds stream's games join the same events: score, period and incidents in one row")
    func joinedFeeds() async throws {
        try await withSimulator({ $0.enforceRateLimit = false }) { sim, transport in
            let client = BoltOddsSocketTests.client(sim, transport)
            let probe = FeedProbe(FeedRunner.run(client.feedConnections(filters: BoltOddsFilters(sports: ["EPL", "NBA", "La Liga", "Bundesliga"])),
                                                 transport: transport, stats: FeedStats()))
            defer { probe.stop() }
            try await probe.wait("scores of known games") { p in
                let s = BoltOddsSocketTests.store(p)
                return s.events.values.filter { $0.event.score != nil && !$0.event.markets.isEmpty }.count >= 3
            }
            for _ in 0..<40 { await sim.tick() }
            try await probe.wait("an incident from play-by-play") { p in p.updates.contains { if case .incident = $0 { return true } else { return false } } }
            let store = BoltOddsSocketTests.store(probe)
            // Every game the scores or play-by-play feeds named is one the odds stream knows: nothing filed under another label.
            let orphans = store.events.values.filter { $0.event.markets.isEmpty }.map(\.event.id)
            #expect(orphans.isEmpty, "\(orphans): \(probe.messages.filter { orphans.contains($0.update.eventID ?? "") }.map { "\($0.connection) \($0.update)" })")
            #expect(store.events.values.contains { !$0.event.incidents.isEmpty && !$0.event.markets.isEmpty })
        }
    }

    @Test("The scores endpoints POST {\"games\":[...]} with the key in the query; parlays and esports listings; answers kept as sent")
    func restEndpoints() async throws {
        try await withSimulator({ $0.enforceRateLimit = false }) { sim, transport in
            let client = BoltOddsSocketTests.client(sim, transport)
            let games = try await client.games()
            #expect(!games.isEmpty && games.allSatisfy { $0.label.contains(" vs ") && $0.universalID?.count == 12 })
            let live = try await client.liveEvents(sport: nil).map(\.id)
            let label = try #require(live.first)
            for endpoint in [BoltOddsClient.ScoresEndpoint.boxScores, .matchStats, .matchInfo] {
                let answer = try await client.scores(endpoint, games: [label, "Nobody vs Nothing, 2020-01-01, 01"])
                #expect(answer[label]?.isObject == true, "\(endpoint)")
                #expect(answer["Nobody vs Nothing, 2020-01-01, 01"] == nil, "an unknown game is simply absent")
            }
            let parlays = try await client.parlays(book: "draftkings")
            #expect(parlays.array?.first?["legs"]?.isObject == true)
            #expect(try await client.esports().array != nil)
            let markets = try await client.markets(books: ["fanduel"], leagues: ["NBA"])
            #expect(markets.count == 1 && markets[0].book == "fanduel" && markets[0].league == "NBA" && !markets[0].markets.isEmpty)
        }
    }

    @Test("A 429 from the REST limit is answered like the other providers': waited out when short, exit 6 when not")
    func restRateLimited() async throws {
        try await withSimulator { sim, transport in
            let client = BoltOddsClient(settings: BoltOddsSocketTests.client(sim, transport).settings, transport: transport,
                                        retry: BackoffPolicy(initial: 0.05, maximum: 0.1, maxAttempts: 2), limiter: RateLimiter(perSecond: 1000, burst: 1000))
            // Without the client's own limiter, the fourth GET in a row meets the server's.
            for _ in 0..<3 { _ = try await client.info() }
            await sim.failNextRequests(status: 429, count: 5, retryAfter: "120")
            do {
                _ = try await client.info()
                Issue.record("a 429 with Retry-After: 120 was not reported")
            } catch let error as OddsError {
                #expect(error.exitCode == 6)
            }
        }
    }

    @Test("A command that has to wait for the GET limit says so, once per wait, with how long")
    func waitIsSaid() async throws {
        let lines = LogLines()
        var logger = Logger(label: "test") { _ in lines }
        logger.logLevel = .info
        try await withSimulator({ $0.enforceRateLimit = false }) { sim, _ in try await withTransport(logger: logger) { transport in
            // A burst of 3, then one request every 30 s: the fourth waits however long the first three
            // took on a busy machine (the documented 5 s pace could be used up by slow requests).
            let client = BoltOddsClient(settings: BoltOddsSocketTests.client(sim, transport).settings, transport: transport,
                                        limiter: RateLimiter(perSecond: 1.0 / 30, burst: 3))
            for _ in 0..<3 { _ = try await client.info() }
            #expect(lines.all.isEmpty, "\(lines.all)")
            let fourth = Task { try await client.info() }
            defer { fourth.cancel() }
            try await waitFor("the wait said", timeout: 20) { !lines.all.isEmpty }
            let said = lines.all.filter { $0.contains("BoltOdds allows 12 requests a minute") }
            #expect(said.count == 1, "\(lines.all)")
            // A whole number of seconds, at most the 30 of the pace.
            let seconds = said.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) }
            #expect(seconds.map { (1...30).contains($0) } == true, "\(lines.all)")
        } }
    }
}

/// A log handler that keeps warnings and worse, for tests of what a command says on stderr.
final class LogLines: LogHandler, @unchecked Sendable {  // `lines` is touched under `lock`
    private let lock = NSLock()
    private var lines: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
        guard event.level >= .warning else { return }
        lock.lock(); lines.append("\(event.message)"); lock.unlock()
    }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}
