import Foundation
import GRDB
import OddsCommandSupport
@testable import OddsCLI
import OddsDashboard
import OddsFusion
import OddsJSON
@testable import OddsHistory
import OddsModel
import OddsStore
@testable import OddsTickOdds
import OddsTestSupport
import Testing

/// A history of each kind, made fresh for one test and removed after it: a SQLite file in a new folder, or a new
/// database on the tests' own PostgreSQL server.
struct HistoryHarness {
    enum Kind: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case sqlite
        case postgres
        var testDescription: String { rawValue }
    }

    let kind: Kind
    let location: HistoryLocation
    private let folder: String

    /// Nil when `kind` cannot be reached here (no PostgreSQL server; said once, and a failure in CI).
    static func make(_ kind: Kind) throws -> HistoryHarness? {
        if kind == .postgres, try PostgresTestServer.shared() == nil { return nil }
        return try HistoryHarness(kind)
    }

    private init(_ kind: Kind) throws {
        self.kind = kind
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("odds-history-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        switch kind {
        case .sqlite: location = .sqlite(path: folder + "/history.sqlite")
        case .postgres: location = .postgres(url: try PostgresTestServer.shared()!.createDatabase())
        }
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }

    /// Writes `messages` as a stream command does: each applied to a store, then handed to the writer.
    func write(_ messages: [FeedMessage], capacity: Int = 200_000) throws -> HistoryWriter.Counts {
        let writer = HistoryWriter(backend: try History.open(location, writing: true), capacity: capacity, retentionDays: nil) { _ in }
        var store = LiveStore()
        for m in messages {
            store.apply(m)
            writer.record(m, in: store)
        }
        return writer.finish()
    }

    func read<T>(_ body: (any HistoryBackend) throws -> T) throws -> T {
        let h = try History.open(location, writing: false)
        defer { h.close() }
        return try body(h)
    }
}

@Suite("History, over every backend", .heavyLane)
struct HistoryBackendTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func price(_ text: String) -> Price { Price(decimal: text)! }

    /// Saka's goal at 12 minutes, 1-0.
    static let goal = Incident(kind: .goal, minute: 12, team: .home, player: "Saka", detail: "Goal", id: "g1", score: Score(home: 1, away: 0))

    static func event(home: String = "Arsenal", away: String = "Chelsea", status: EventStatus = .live, score: Score? = Score(home: 0, away: 0),
                      clock: String? = "10:00", prices: [String?] = ["2.10", "3.40", "3.60"], suspended: Bool = false,
                      incidents: [Incident] = [], id: String = "100") -> Event {
        let names = [home, "Draw", away]
        let selections = zip(["home", "draw", "away"], zip(names, prices)).map { id, pair in
            Selection(id: id, name: pair.0, price: pair.1.map(price), suspended: suspended)
        }
        return Event(provider: .tickodds, id: id, sport: "soccer", league: "Premier League", home: home, away: away, status: status,
                     score: score, clock: clock, period: "1st Half",
                     markets: [Market(id: "full_time_result:full_game", name: "Fulltime Result", book: "tickodds", selections: selections)],
                     incidents: incidents)
    }

    static func message(_ e: Event, at seconds: Double) -> FeedMessage {
        FeedMessage(provider: .tickodds, receivedAt: t0.addingTimeInterval(seconds), update: .upsert(e))
    }

    @Test("One row per change: a resent price, a clock that alone moved, an incident told again are not changes", arguments: HistoryHarness.Kind.allCases)
    func oneRowPerChange(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        let goal = Self.goal
        let messages = [
            Self.message(Self.event(), at: 0),
            Self.message(Self.event(clock: "10:05"), at: 1),                                   // nothing new
            Self.message(Self.event(clock: "10:10", prices: ["2.05", "3.40", "3.60"]), at: 2),  // one price
            Self.message(Self.event(prices: ["2.05", "3.40", "3.60"], suspended: true), at: 3), // three suspensions
            Self.message(Self.event(score: Score(home: 1, away: 0), prices: ["1.50", "4.20", "6.50"], incidents: [goal]), at: 4),
            Self.message(Self.event(score: Score(home: 1, away: 0), prices: ["1.50", "4.20", "6.50"], incidents: [goal]), at: 5),
        ]
        let counts = try h.write(messages)
        #expect(counts.dropped == 0 && counts.lost == 0)
        try h.read { history in
            let sources = try history.matches(MatchQuery())
            #expect(sources.count == 1)
            let s = try #require(sources.first)
            #expect(s.home == "Arsenal" && s.away == "Chelsea" && s.league == "Premier League" && s.status == "live")
            #expect(s.firstSeen == Self.t0 && s.lastSeen == Self.t0.addingTimeInterval(5))
            let t = try history.timeline(of: sources, filter: TimelineFilter())
            // 3 first prices, 1 move, 3 suspended, 3 after the goal.
            #expect(t.prices.count == 10, "\(t.prices.map { "\($0.selectionName) \($0.text ?? "-") \($0.suspended)" })")
            #expect(s.priceChanges == 10)
            let home = t.prices.filter { $0.selectionID == "home" }
            #expect(home.map(\.text) == ["2.10", "2.05", "2.05", "1.50"])
            #expect(home.map(\.suspended) == [false, false, true, false])
            #expect(home.last?.odds == Rational(3, 2))
            #expect(home.map(\.at) == [0, 2, 3, 4].map { Self.t0.addingTimeInterval($0) })
            // No provider time was told: none is made up (the store's own time is not the provider's).
            #expect(t.prices.allSatisfy { $0.providerAt == nil })
            // The first score, then the goal.
            #expect(t.scores.map { "\($0.state.home ?? -1)-\($0.state.away ?? -1)" } == ["0-0", "1-0"])
            #expect(t.incidents.count == 1 && t.incidents.first?.incident.player == "Saka" && t.incidents.first?.incident.score == Score(home: 1, away: 0))
        }
    }

    @Test("The provider's own time is kept beside the time received, on prices, scores and incidents", arguments: HistoryHarness.Kind.allCases)
    func providerTime(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        let goal = Self.goal
        var first = Self.message(Self.event(), at: 0)
        first.providerTime = Self.t0.addingTimeInterval(-0.25)
        var second = Self.message(Self.event(score: Score(home: 1, away: 0), prices: ["1.50", "4.00", "6.00"], incidents: [goal]), at: 5)
        second.providerTime = Self.t0.addingTimeInterval(4.9)
        let unstamped = Self.message(Self.event(score: Score(home: 1, away: 0), prices: ["1.45", "4.00", "6.00"], incidents: [goal]), at: 6)
        _ = try h.write([first, second, unstamped])
        try h.read { history in
            let t = try history.timeline(of: try history.matches(MatchQuery()), filter: TimelineFilter())
            func ms(_ d: Date?) -> Int64? { d.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } }
            let (a, b) = (ms(first.providerTime), ms(second.providerTime))
            #expect(t.prices.map { ms($0.providerAt) } == [a, a, a, b, b, b, nil])
            #expect(t.scores.map { ms($0.providerAt) } == [a, b])
            #expect(t.incidents.map { ms($0.providerAt) } == [b])
        }
    }

    @Test("A timeline without prices reads the same scores and incidents, and no price", arguments: HistoryHarness.Kind.allCases)
    func withoutPrices(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        let goal = Self.goal
        _ = try h.write([Self.message(Self.event(), at: 0),
                         Self.message(Self.event(score: Score(home: 1, away: 0), prices: ["1.50", "4.00", "6.00"], incidents: [goal]), at: 5)])
        try h.read { history in
            let sources = try history.matches(MatchQuery())
            let whole = try history.timeline(of: sources, filter: TimelineFilter())
            let bare = try history.timeline(of: sources, filter: TimelineFilter(prices: false))
            #expect(whole.prices.count == 6 && whole.scores.count == 2 && whole.incidents.count == 1)
            #expect(bare.prices.isEmpty)
            #expect(bare.scores == whole.scores && bare.incidents == whole.incidents)
            let summary = try history.summary(of: sources, filter: TimelineFilter(prices: false), recent: 10)
            #expect(summary.lines.isEmpty && summary.recent.prices.isEmpty && summary.recent.scores == whole.scores)
        }
    }

    @Test("A timeline read row by row: the scores and incidents first, once, then every price in time order, as read whole",
          arguments: HistoryHarness.Kind.allCases)
    func timelineRowByRow(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        _ = try h.write([Self.message(Self.event(), at: 0),
                         Self.message(Self.event(score: Score(home: 1, away: 0), prices: ["1.50", "4.00", "6.00"], incidents: [Self.goal]), at: 5),
                         Self.message(Self.event(score: Score(home: 1, away: 0), prices: ["1.40", "4.50", "7.00"]), at: 9)])
        try h.read { history in
            let sources = try history.matches(MatchQuery())
            let whole = try history.timeline(of: sources, filter: TimelineFilter())
            var heads: [Timeline] = [], prices: [StoredPrice] = [], pricesBeforeHead = 0
            try history.timeline(of: sources, filter: TimelineFilter(), head: { heads.append($0) }, prices: { p in
                if heads.isEmpty { pricesBeforeHead += 1 }
                prices.append(p)
            })
            #expect(heads.count == 1 && pricesBeforeHead == 0)
            #expect(heads.first?.prices.isEmpty == true && heads.first?.scores == whole.scores && heads.first?.incidents == whole.incidents)
            #expect(heads.first?.selections == whole.selections)
            #expect(prices == whole.prices && prices.count == 9)
            #expect(zip(prices, prices.dropFirst()).allSatisfy { $0.at <= $1.at })
            // No source: the head still comes, empty.
            heads = []
            try history.timeline(of: [], filter: TimelineFilter(), head: { heads.append($0) }, prices: { _ in Issue.record("a price of no source") })
            #expect(heads == [Timeline()])
        }
    }

    @Test("A dashboard started later draws what the history kept of the match: its lines, and the prices around its goal",
          arguments: HistoryHarness.Kind.allCases)
    func dashboardReadsHistory(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        let goal = Self.goal
        _ = try h.write([Self.message(Self.event(), at: 0),
                         Self.message(Self.event(prices: ["2.40", "3.40", "3.60"]), at: 60),
                         Self.message(Self.event(score: Score(home: 1, away: 0), prices: ["2.40", "3.40", "3.60"], incidents: [goal]), at: 120),
                         Self.message(Self.event(score: Score(home: 1, away: 0), prices: ["1.50", "4.20", "6.00"], incidents: [goal]), at: 130)])
        var model = DashboardModel(provider: .tickodds, sport: "soccer", demo: false, oddsFormat: .decimal, now: Self.t0.addingTimeInterval(200))
        _ = update(&model, .resize(width: 120, height: 50))
        let now = Self.event(score: Score(home: 1, away: 0), prices: ["1.45", "4.20", "6.00"], incidents: [goal])
        _ = update(&model, .feed(FeedMessage(provider: .tickodds, receivedAt: Self.t0.addingTimeInterval(200), update: .snapshot([now]))))
        let row = EventKey(provider: .tickodds, id: "100")
        let request = try #require(model.historyRequest(row))
        let seed = try DashboardHistoryReader.read(h.location, sources: request.sources, main: request.main)
        _ = update(&model, .history(row: row, seed: seed))
        let home = PriceTrails.Key(event: row, market: "full_time_result:full_game", book: "tickodds", selection: "home")
        #expect(model.trails.points(home).map(\.odds) == [2.10, 2.40, 1.50, 1.45])
        let mark = try #require(model.trails.marks[row]?.first)
        #expect(mark.before.map { $0?.text } == ["2.40", "3.40", "3.60"] && mark.after?.map { $0?.text } == ["1.50", "4.20", "6.00"], "\(mark)")
        _ = update(&model, .key(.enter))
        let pane = DashboardLayout.layout(model).text
        #expect(pane.contains("Prices around incidents") && pane.contains("1 2.40  X 3.40  2 3.60  →  1 1.50  X 4.20  2 6.00"), "\(pane)")
        // Lines and incidents from before the dashboard started are said to be the history's, not what it saw.
        #expect(pane.contains("lines: since \(ISODate.timeOfDay(Self.t0)) UTC, as the history kept them")
                && pane.contains("Prices around incidents (as the history kept them)") && !pane.contains("as this dashboard saw them"), "\(pane)")
    }

    @Test("A dashboard's sparklines from a history leave blank the time no writer watched", arguments: HistoryHarness.Kind.allCases)
    func dashboardUnwatched(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        // Two collectors: one from 0 to 20 s, the next from 150 s.
        _ = try h.write([Self.message(Self.event(), at: 0), Self.message(Self.event(prices: ["2.40", "3.40", "3.60"]), at: 20)])
        _ = try h.write([Self.message(Self.event(prices: ["2.20", "3.40", "3.60"]), at: 150), Self.message(Self.event(prices: ["2.30", "3.40", "3.60"]), at: 170)])
        var model = DashboardModel(provider: .tickodds, sport: "soccer", demo: false, oddsFormat: .decimal, now: Self.t0.addingTimeInterval(200))
        _ = update(&model, .resize(width: 120, height: 50))
        _ = update(&model, .feed(FeedMessage(provider: .tickodds, receivedAt: Self.t0.addingTimeInterval(200),
                                             update: .snapshot([Self.event(prices: ["2.30", "3.40", "3.60"])]))))
        let row = EventKey(provider: .tickodds, id: "100")
        let request = try #require(model.historyRequest(row))
        let seed = try DashboardHistoryReader.read(h.location, sources: request.sources, main: request.main)
        #expect(seed.unwatched == [row: [Self.t0.addingTimeInterval(20)...Self.t0.addingTimeInterval(150)]])
        _ = update(&model, .history(row: row, seed: seed))
        _ = update(&model, .key(.enter))
        let pane = DashboardLayout.layout(model).text
        let line = try #require(pane.split(separator: "\n").first { $0.contains("Arsenal") && $0.contains("▁") }, "\(pane)")
        let cells = Array(line.drop { !"▁▂▃▄▅▆▇█".contains($0) })
        // Known to 20 s of 200, unknown to 150 s, known again after: blocks, a run of blanks, blocks.
        let blocks = cells.indices.filter { "▁▂▃▄▅▆▇█".contains(cells[$0]) }
        let gap = (blocks.first!...blocks.last!).filter { cells[$0] == " " }
        #expect(blocks.count >= 6 && gap.count >= 10 && gap.count == gap.last! - gap.first! + 1, "\(line)")
    }

    @Test("A writer started again on the same history stores nothing twice, and carries on", arguments: HistoryHarness.Kind.allCases)
    func restartNoDuplicates(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        let goal = Incident(kind: .goal, minute: 12, team: .home, player: "Saka", detail: "Goal", id: "g1")
        _ = try h.write([Self.message(Self.event(incidents: [goal]), at: 0)])
        // The same state again (a snapshot after a restart), then one change.
        _ = try h.write([Self.message(Self.event(clock: "11:00", incidents: [goal]), at: 60),
                         Self.message(Self.event(prices: ["2.10", "3.30", "3.60"], incidents: [goal]), at: 61)])
        try h.read { history in
            let t = try history.timeline(of: try history.matches(MatchQuery()), filter: TimelineFilter())
            #expect(t.prices.count == 4)
            #expect(t.prices.last?.text == "3.30" && t.prices.last?.at == Self.t0.addingTimeInterval(61))
            #expect(t.scores.count == 1)
            #expect(t.incidents.count == 1)
        }
    }

    @Test("Two writers on one SQLite history: the second is refused with one sentence; readers are fine meanwhile")
    func oneWriter() throws {
        let h = try #require(try HistoryHarness.make(.sqlite))
        defer { h.remove() }
        let first = try History.open(h.location, writing: true)
        do {
            _ = try History.open(h.location, writing: true)
            Issue.record("a second writer was allowed")
        } catch let e as OddsError {
            #expect(e.exitCode == 9 && e.message.contains("Another odds is writing"), "\(e.message)")
        }
        #expect(try h.read { try $0.matches(MatchQuery()) }.isEmpty)
        first.close()
        // Closed (or its process gone): the next writer carries on.
        let second = try History.open(h.location, writing: true)
        second.close()
    }

    @Test("Hostile provider text is stored and read back exactly: escapes, quotes, SQL, a 1 MB name", arguments: HistoryHarness.Kind.allCases)
    func hostileText(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        let hostile = "Robert'); DROP TABLE source;-- \u{1B}]0;pwned\u{07} \"q\" \\ \u{202E}"
        let huge = String(repeating: "Ω", count: 512 * 1024)
        var e = Self.event(home: hostile, away: huge)
        e.league = "'; DELETE FROM price_change; --"
        // A player's name of 1 MB in an incident without an id (its identity holds the name); an id of 10 kB, which
        // no index can hold, is not kept (counted), and the rest goes on.
        e.incidents = [Incident(kind: .goal, minute: 3, team: .away, player: huge, detail: "Goal")]
        var long = Self.event(id: String(repeating: "9", count: 10_000))
        long.markets[0].selections[0].id = String(repeating: "s", count: 3_000)
        var tooLongSelection = Self.event(id: "200")
        tooLongSelection.markets[0].selections[0].id = String(repeating: "s", count: 3_000)
        let counts = try h.write([Self.message(e, at: 0), Self.message(long, at: 1), Self.message(tooLongSelection, at: 2)])
        #expect(counts.skipped == 2 && counts.lost == 0, "\(counts)")
        try h.read { history in
            let s = try history.matches(MatchQuery()).filter { $0.key.eventID == "100" }
            #expect(s.count == 1 && s.first?.home == hostile && s.first?.away == huge && s.first?.league == e.league)
            let t = try history.timeline(of: s, filter: TimelineFilter())
            #expect(t.prices.count == 3 && t.incidents.first?.incident.player == huge)
            let other = try history.matches(MatchQuery()).filter { $0.key.eventID == "200" }
            #expect(try history.timeline(of: other, filter: TimelineFilter()).prices.count == 2)
        }
    }

    @Test("A queue that is full drops and counts, never blocks the live path; it ends the watch: what was dropped lies in no span",
          arguments: HistoryHarness.Kind.allCases)
    func boundedQueue(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        let messages = (0..<500).map { i in Self.message(Self.event(prices: ["\(2 + i % 7).10", "3.40", "3.60"], id: String(i)), at: Double(i)) }
        let counts = try h.write(messages, capacity: 10)
        #expect(counts.dropped > 0)
        try h.read { history in
            let kept = Set(try history.matches(MatchQuery()).map(\.key.eventID))
            #expect(counts.dropped + kept.count == 500)
            let spans = try history.watches(of: [.tickodds], during: Self.t0...Self.t0.addingTimeInterval(500))
            for i in 0..<500 {
                let at = Self.t0.addingTimeInterval(Double(i))
                #expect(spans.contains { $0.from <= at && at <= $0.to } == kept.contains(String(i)), "message \(i)")
            }
        }
    }

    @Test("A full disk: one warning, the live path goes on, what could not be written is counted; writing resumes without duplicates")
    func fullDisk() throws {
        let h = try #require(try HistoryHarness.make(.sqlite))
        defer { h.remove() }
        guard case .sqlite(let path) = h.location else { return }
        let backend = try SQLiteHistory(path: path, writing: true)
        let live = LiveWriter(backend)
        let (writer, warnings, send) = (live.writer, live.warnings, live.send)
        send(Self.event(id: "1"), 0)
        try waitUntil("the first batch", { writer.counts.written == 4 })
        try backend.capSize(true)
        // New matches need new pages: none can be written.
        for i in 2..<40 { send(Self.event(home: "Team \(i) " + String(repeating: "x", count: 2000), id: String(i)), Double(i)) }
        try waitUntil("the warning", { !warnings.all.isEmpty })
        #expect(warnings.all.count == 1 && warnings.all[0].contains("live view goes on"), "\(warnings.all)")
        try backend.capSize(false)
        send(Self.event(prices: ["2.00", "3.40", "3.60"], id: "1"), 100)
        send(Self.event(prices: ["2.00", "3.40", "3.60"], id: "1"), 101)
        let counts = writer.finish()
        #expect(counts.lost > 0)
        #expect(warnings.all.count == 2 && warnings.all[1].contains("again"), "\(warnings.all)")
        try h.read { history in
            let one = try history.matches(MatchQuery()).filter { $0.key.eventID == "1" }
            let t = try history.timeline(of: one, filter: TimelineFilter())
            // Before the outage three prices; after it the one change, once.
            #expect(t.prices.map(\.text) == ["2.10", "3.40", "3.60", "2.00"], "\(t.prices.map(\.text))")
        }
    }

    @Test("A history that is missing, or not a history, is one sentence (exit 9)", arguments: HistoryHarness.Kind.allCases)
    func missing(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        #expect(throws: OddsError.self) { try History.open(h.location, writing: false) }
        do { _ = try History.open(h.location, writing: false) } catch let e as OddsError {
            #expect(e.exitCode == 9 && e.message.contains("no history"), "\(e.message)")
        }
    }

    @Test("Retention drops what is older than the cutoff and says so in the stats", arguments: HistoryHarness.Kind.allCases)
    func prune(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        _ = try h.write([Self.message(Self.event(id: "old"), at: 0), Self.message(Self.event(id: "new"), at: 86_400 * 10)])
        let history = try History.open(h.location, writing: true)
        let dropped = try history.prune(before: Self.t0.addingTimeInterval(86_400))
        history.close()
        #expect(dropped == 4)  // three prices and a score
        try h.read { history in
            #expect(try history.matches(MatchQuery()).map(\.key.eventID) == ["new"])
            let stats = try history.stats()
            #expect(stats.priceChanges == 3 && stats.lastPrune?.changes == 4 && stats.schemaVersion == HistorySchema.version)
        }
    }
}

extension HistoryBackendTests {
    @Test("A match's summary is what its whole timeline says: lines, the latest rows, the prices around each incident",
          arguments: HistoryHarness.Kind.allCases)
    func summaryIsTheTimeline(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        let goal = Self.goal
        let red = Incident(kind: .card, minute: 30, team: .away, player: "James", detail: "Red card", id: "r1")
        // Suspended before it is priced, then forty moves before kick-off (more than a sparkline's cells), two
        // changes in one millisecond (the later one lower), kick-off, a goal, a red card, and moves after.
        var messages = [Self.message(Self.event(status: .scheduled, score: nil, suspended: true), at: 0)]
        for i in 1...40 {
            let p = ["\(2 + Double(i % 7) / 10)", "3.\(10 + i % 13)", "\(3 + Double(i % 5) / 4)"]
            messages.append(Self.message(Self.event(status: .scheduled, score: nil, prices: p), at: Double(i)))
        }
        messages.append(Self.message(Self.event(status: .scheduled, score: nil, prices: ["2.50", "3.30", "3.10"]), at: 41))
        messages.append(Self.message(Self.event(status: .scheduled, score: nil, prices: ["2.20", "3.30", "3.10"]), at: 41))
        messages.append(Self.message(Self.event(prices: ["2.20", "3.30", "3.10"]), at: 50))
        messages.append(Self.message(Self.event(score: Score(home: 1, away: 0), prices: ["1.40", "4.50", "7.00"], incidents: [goal]), at: 60))
        for i in 1...10 {
            messages.append(Self.message(Self.event(score: Score(home: 1, away: 0), prices: ["1.\(40 + i)", "4.50", "7.00"], incidents: [goal]),
                                         at: 60 + Double(i)))
        }
        messages.append(Self.message(Self.event(score: Score(home: 1, away: 0), prices: ["1.20", "6.00", "11.00"], incidents: [goal, red]), at: 80))
        messages.append(Self.message(Self.event(score: Score(home: 1, away: 0), prices: ["1.20", "6.00", "11.00"], suspended: true,
                                                incidents: [goal, red]), at: 81))
        _ = try h.write(messages)
        try h.read { history in
            let sources = try history.matches(MatchQuery())
            let filters = [TimelineFilter(), TimelineFilter(since: Self.t0.addingTimeInterval(20)), TimelineFilter(market: "FULLTIME RESULT"),
                           TimelineFilter(book: "TickOdds"), TimelineFilter(market: "no such market")]
            for filter in filters {
                let t = try history.timeline(of: sources, filter: filter)
                for recent in [0, 7, Int.max] {
                    let s = try history.summary(of: sources, filter: filter, recent: recent)
                    #expect(s.lines == HistoryReport.lines(t), "\(filter)")
                    #expect(s.around == HistoryReport.aroundIncidents(t), "\(filter)")
                    #expect(s.rows == t.prices.count + t.scores.count + t.incidents.count)
                    #expect(s.recent.prices == Array(t.prices.suffix(recent)))
                    #expect(s.recent.scores == t.scores && s.recent.incidents == t.incidents)
                }
            }
            // What the comparison covered: a close, sampled moves, a tie kept in the order written, incidents.
            let s = try history.summary(of: sources, filter: TimelineFilter(), recent: 40)
            let home = try #require(s.lines.first { $0.selection.selectionID == "home" })
            #expect(home.open.suspended && home.close?.text == "2.20" && home.last.suspended && home.changes == 56)
            #expect(home.moves.count == HistoryReport.sparkCells && home.high.text == "2.6" && home.low.text == "1.20")
            #expect(s.around.count == 2 && s.around[0].selections[0].before?.text == "2.20" && s.around[0].selections[0].after?.text == "1.40")
            #expect(s.lines.count == 3 && s.recent.prices.count == 40)
        }
    }
}

extension HistoryBackendTests {
    @Test("The prices around a goal pass over the suspension either side: the last open price before, the price the market reopened at",
          arguments: HistoryHarness.Kind.allCases)
    func aroundSuspendedGoal(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        // Open at 2.20; suspended on the attack; the goal arrives with the market suspended; reopened at 1.40.
        _ = try h.write([
            Self.message(Self.event(prices: ["2.20", "3.30", "3.10"]), at: 0),
            Self.message(Self.event(prices: ["2.20", "3.30", "3.10"], suspended: true), at: 5),
            Self.message(Self.event(score: Score(home: 1, away: 0), prices: ["2.20", "3.30", "3.10"], suspended: true, incidents: [Self.goal]), at: 6),
            Self.message(Self.event(score: Score(home: 1, away: 0), prices: ["1.40", "4.50", "7.00"], incidents: [Self.goal]), at: 9),
        ])
        try h.read { history in
            let sources = try history.matches(MatchQuery())
            let s = try history.summary(of: sources, filter: TimelineFilter(), recent: 10)
            let around = try #require(s.around.first)
            #expect(s.around.count == 1 && around.selections.map(\.name) == ["Arsenal", "Draw", "Chelsea"])
            #expect(around.selections.map { $0.before?.text } == ["2.20", "3.30", "3.10"], "\(around)")
            #expect(around.selections.map { $0.after?.text } == ["1.40", "4.50", "7.00"], "\(around)")
            #expect(around.selections.allSatisfy { $0.before?.suspended == false && $0.after?.suspended == false })
            #expect(s.around == HistoryReport.aroundIncidents(try history.timeline(of: sources, filter: TimelineFilter())))
        }
    }
}

extension HistoryBackendTests {
    /// One match from TickOdds and from a BoltOdds book, which names its markets and teams its own way.
    static func twoSources() -> [FeedMessage] {
        var tick = event(prices: ["2.10", "3.40", "3.60"])
        tick.markets.append(Market(id: "total_goals:full_game", name: "Over/Under 2.5 Goals", book: "tickodds", selections: [
            Selection(id: "over", name: "Over 2.5", line: "2.5", price: price("1.90")),
            Selection(id: "under", name: "Under 2.5", line: "2.5", price: price("1.95")),
        ]))
        func total(_ line: String, _ over: String, _ under: String) -> [Selection] {
            [Selection(id: "o\(line)", name: "Over", line: line, price: price(over)), Selection(id: "u\(line)", name: "Under", line: line, price: price(under))]
        }
        let bolt = Event(provider: .boltodds, id: "Arsenal FC vs Chelsea FC, 2027-01-15, 08", sport: "soccer", league: "EPL",
                         home: "Arsenal FC", away: "Chelsea FC", status: .live, markets: [
                             Market(id: "moneyline", name: "Moneyline", book: "draftkings", selections: [
                                 Selection(id: "ml-a", name: "Arsenal FC", price: price("2.15")),
                                 Selection(id: "ml-d", name: "Draw", price: price("3.30")),
                                 Selection(id: "ml-c", name: "Chelsea FC", price: price("3.50")),
                             ]),
                             Market(id: "total_goals", name: "Total Goals", book: "draftkings", selections: total("1.5", "1.30", "3.40") + total("2.5", "1.85", "2.00")),
                         ])
        return [message(tick, at: 0), FeedMessage(provider: .boltodds, receivedAt: t0.addingTimeInterval(1), update: .upsert(bolt))]
    }

    @Test("A market asked for by its name, id or meaning brings the same market of every source and book",
          arguments: HistoryHarness.Kind.allCases)
    func marketByMeaning(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        _ = try h.write(Self.twoSources())
        try h.read { history in
            let sources = try history.matches(MatchQuery())
            #expect(sources.count == 2)
            func kept(_ market: String) throws -> [String] {
                let t = try history.timeline(of: sources, filter: TimelineFilter(market: market))
                let s = try history.summary(of: sources, filter: TimelineFilter(market: market), recent: Int.max)
                #expect(s.lines == HistoryReport.lines(t), "\(market)")
                return t.prices.map { "\($0.book) \($0.selectionName)\($0.line.isEmpty ? "" : " " + $0.line)" }.sorted()
            }
            let result = ["draftkings Arsenal FC", "draftkings Chelsea FC", "draftkings Draw", "tickodds Arsenal", "tickodds Chelsea", "tickodds Draw"]
            #expect(try kept("FULLTIME RESULT") == result)
            #expect(try kept("moneyline") == result)
            #expect(try kept("Match result") == result)
            // One line of a market of several: the other line is not the same market.
            let two = try kept("over/under 2.5 goals")
            #expect(two == ["draftkings Over 2.5", "draftkings Under 2.5", "tickodds Over 2.5 2.5", "tickodds Under 2.5 2.5"], "\(two)")
            #expect(try kept("Total Goals").count == 6)
            #expect(try kept("no such market").isEmpty)

            // The chart: the match result of both, home unless named, a line a book.
            let t = try history.timeline(of: sources, filter: TimelineFilter())
            let home = try #require(PriceChart.make(t, sources: sources, market: nil, selection: nil, book: nil, best: false, title: "Arsenal v Chelsea"))
            #expect(home.series.map(\.name) == ["tickodds", "draftkings"] && home.title == "Arsenal v Chelsea · Match result · Arsenal", "\(home.title)")
            #expect(home.low == Rational(21, 10)! && home.high == Rational(43, 20)!)
            let draw = try #require(PriceChart.make(t, sources: sources, market: "Fulltime Result", selection: "draw", book: nil, best: true, title: "x"))
            #expect(draw.series.first?.points.map(\.odds) == [Rational(17, 5)!])
            let under = try #require(PriceChart.make(t, sources: sources, market: "total:2.5", selection: "Under 2.5", book: nil, best: false, title: "x"))
            #expect(under.series.map(\.name) == ["tickodds", "draftkings"] && under.high == Rational(2, 1)!)
            // Without the sources' teams, each source's market is its own.
            let alone = try #require(PriceChart.make(t, sources: [], market: nil, selection: nil, book: nil, best: false, title: "x"))
            #expect(alone.series.count == 1)
        }
    }
}

extension HistoryBackendTests {
    @Test("A goal both providers of a match told is one incident in the prices around incidents; one only one told stays",
          arguments: HistoryHarness.Kind.allCases)
    func incidentToldTwice(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        var messages = Self.twoSources()
        guard case .upsert(var tick) = messages[0].update, case .upsert(var bolt) = messages[1].update else { Issue.record("not upserts"); return }
        // TickOdds tells Saka's goal; BoltOdds the same goal a second later without the scorer, and a red card of its own.
        let red = Incident(kind: .card, minute: 30, team: .away, player: "James", detail: "Red Card", id: "r1")
        tick.incidents = [Self.goal]
        tick.score = Score(home: 1, away: 0)
        bolt.incidents = [Incident(kind: .goal, minute: 12, team: .home, detail: "Goal", id: "b-g1", score: Score(home: 1, away: 0)), red]
        bolt.score = Score(home: 1, away: 0)
        messages[0].update = .upsert(tick)
        messages[1].update = .upsert(bolt)
        _ = try h.write(messages)
        try h.read { history in
            let sources = try history.matches(MatchQuery())
            let t = try history.timeline(of: sources, filter: TimelineFilter())
            #expect(t.incidents.filter { $0.incident.kind == .goal }.count == 2, "each source's telling is kept")
            let around = try history.summary(of: sources, filter: TimelineFilter(), recent: 10).around
            #expect(around.map { "\($0.incident.source.provider.rawValue) \($0.incident.incident.kind.rawValue)" } == ["tickodds goal", "boltodds card"],
                    "\(around.map(\.incident))")
            #expect(around == HistoryReport.aroundIncidents(t))
            // One source alone keeps its own telling.
            let bolts = sources.filter { $0.key.provider == .boltodds }
            #expect(try history.summary(of: bolts, filter: TimelineFilter(), recent: 10).around.map(\.incident.incident.kind) == [.goal, .card])
        }
    }
}

extension HistoryBackendTests {
    @Test("A book, market or selection that names nothing a match keeps is one sentence of what it keeps; one that names something is none",
          arguments: HistoryHarness.Kind.allCases)
    func keptNames(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        _ = try h.write(Self.twoSources())
        try h.read { history in
            let sources = try history.matches(MatchQuery())
            let selections = try history.selections(of: sources)
            // Every book's, read as a timeline reads them, and none of no source.
            #expect(selections == (try history.timeline(of: sources, filter: TimelineFilter())).selections && selections.count == 12)
            #expect(Set(selections.map(\.book)) == ["tickodds", "draftkings"])
            #expect(try history.selections(of: []).isEmpty)
            let names = KeptNames(selections, sources: sources, title: "Arsenal v Chelsea")
            for (book, market, selection) in [(nil, "FULLTIME RESULT", "draw"), ("DraftKings", "Fulltime Result", "Arsenal FC"), ("tickodds", "total:2.5", "under"),
                                              (nil, "moneyline", nil), (nil, nil, "away"), ("draftkings", "total goals", "Over")] as [(String?, String?, String?)] {
                #expect(names.miss(book: book, market: market, selection: selection) == nil, "\(book ?? "-") \(market ?? "-") \(selection ?? "-")")
            }
            // A book by its key in any case, or as tables name it: the key kept.
            #expect(names.book("DraftKings") == "draftkings" && names.book("Draft Kings") == "draftkings" && names.book("TICKODDS") == "tickodds")
            #expect(names.book("pinnacle") == nil && names.book("--") == nil && names.miss(book: "Draft Kings", market: "moneyline") == nil)
            let book = try #require(names.miss(book: "pinnacle"))
            #expect(book == "'pinnacle' is not a book of Arsenal v Chelsea in the history; its books: tickodds, draftkings.", "\(book)")
            let market = try #require(names.miss(market: "corners"))
            #expect(market.hasPrefix("'corners' names no market of Arsenal v Chelsea") && market.contains("Fulltime Result, Over/Under 2.5 Goals, Moneyline, Total Goals")
                    && market.contains("by meaning: result, total:2.5, total:1.5"), "\(market)")
            // A market the match has, but not in that book: TickOdds has no 1.5 line.
            let there = try #require(names.miss(book: "tickodds", market: "total:1.5"))
            #expect(there.hasPrefix("tickodds kept no 'total:1.5' of Arsenal v Chelsea; its markets there: Fulltime Result, Over/Under 2.5 Goals"), "\(there)")
            let nobody = try #require(names.miss(market: "moneyline", selection: "nobody"))
            #expect(nobody.hasPrefix("'nobody' names no selection of 'moneyline' in Arsenal v Chelsea; its selections: ")
                    && nobody.contains("Arsenal FC") && nobody.contains("home"), "\(nobody)")
            #expect(names.miss(selection: "over")?.contains("of the match result") == true)
            // Nothing kept at all: nothing to name, no sentence.
            #expect(KeptNames([], sources: sources, title: "x").miss(book: "pinnacle", market: "corners") == nil)
        }
    }
}

extension HistoryBackendTests {
    @Test("A chart from its market's rows alone (as history chart reads them) is the chart from every row",
          arguments: HistoryHarness.Kind.allCases)
    func chartFromItsMarket(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        // A second market of a main market's name, its away side listed first: read alone it would pass for the main
        // market, and its home side for the selection to chart.
        var messages = Self.twoSources()
        guard case .upsert(var bolt) = messages[1].update else { Issue.record("not an upsert"); return }
        bolt.markets.append(Market(id: "winner", name: "Winner", book: "draftkings", selections: [
            Selection(id: "w-c", name: "Chelsea FC", price: Self.price("3.45")), Selection(id: "w-a", name: "Arsenal FC", price: Self.price("2.20"))]))
        messages[1].update = .upsert(bolt)
        _ = try h.write(messages)
        try h.read { history in
            let sources = try history.matches(MatchQuery())
            let t = try history.timeline(of: sources, filter: TimelineFilter())
            for (market, selection) in [(nil, nil), ("Fulltime Result", "draw"), ("total:2.5", "Under 2.5"), ("moneyline", "away"), ("Winner", nil)]
                as [(String?, String?)] {
                let narrowed = try history.timeline(of: sources, filter: TimelineFilter(market: market ?? FusedMatch.resultMarketID))
                #expect(narrowed.prices.count < t.prices.count && narrowed.selections == t.selections)
                for best in [false, true] {
                    let whole = PriceChart.make(t, sources: sources, market: market, selection: selection, book: nil, best: best, title: "x")
                    #expect(whole != nil && PriceChart.make(narrowed, sources: sources, market: market, selection: selection, book: nil, best: best,
                                                            title: "x") == whole, "\(market ?? "result") \(selection ?? "") best \(best)")
                }
            }
            let winner = try #require(PriceChart.make(t, sources: sources, market: "Winner", selection: nil, book: nil, best: false, title: "x"))
            #expect(winner.title == "x · Winner · Chelsea FC", "\(winner.title)")
        }
    }
}

@Suite("History reports", .heavyLane)
struct HistoryReportTests {
    @Test("Open, high, low, last and close (the last price before kick-off); prices around a goal")
    func lines() throws {
        let t0 = HistoryBackendTests.t0
        let key = SourceKey(provider: .tickodds, eventID: "1")
        func p(_ s: Double, _ text: String?, suspended: Bool = false) -> StoredPrice {
            StoredPrice(at: t0.addingTimeInterval(s), providerAt: nil, source: key, book: "b", marketID: "m", marketName: "Match Result", line: "",
                        selectionID: "home", selectionName: "Home", text: text, odds: text.flatMap { Price(decimal: $0)?.decimalOdds }, suspended: suspended)
        }
        var t = Timeline()
        t.prices = [p(0, "2.00"), p(10, "2.40"), p(20, "1.90"), p(30, nil, suspended: true), p(40, "1.20")]
        t.scores = [StoredScore(at: t0, source: key, state: ScoreState(home: nil, away: nil, scoreText: nil, status: "scheduled", period: nil, clock: nil)),
                    StoredScore(at: t0.addingTimeInterval(25), source: key, state: ScoreState(home: 0, away: 0, scoreText: nil, status: "live", period: nil, clock: nil))]
        t.incidents = [StoredIncident(at: t0.addingTimeInterval(35), source: key, incident: Incident(kind: .goal, minute: 5, team: .home, detail: "Goal"))]
        let line = try #require(HistoryReport.lines(t).first)
        #expect(line.open.text == "2.00" && line.high.text == "2.40" && line.low.text == "1.20" && line.last.text == "1.20")
        #expect(line.close?.text == "1.90")
        #expect(line.moves.count == 4 && line.changes == 5)
        let around = try #require(HistoryReport.aroundIncidents(t).first)
        #expect(around.selections.first?.before?.text == "1.90" && around.selections.first?.after?.text == "1.20")
        #expect(HistoryReport.sparkline(line.moves, width: 8, ascii: false) == "▆█▅▁")
        #expect(HistoryReport.sparkline(line.moves, width: 8, ascii: true).allSatisfy { $0.isASCII })
    }

    @Test("A price row written straight to bytes is the record the other formats print, with hostile text, labels and no price")
    func priceRowBytes() throws {
        let key = SourceKey(provider: .boltodds, eventID: "ev\"1\u{7}")
        let rows = [
            StoredPrice(at: HistoryBackendTests.t0, providerAt: HistoryBackendTests.t0.addingTimeInterval(-0.5), source: key, book: "Draft\\Kings",
                        marketID: "m", marketName: "Total \u{1B}[31m", line: "2.5", selectionID: "over", selectionName: "Over \u{202E}",
                        text: "+150", odds: Price(american: "+150")?.decimalOdds, suspended: false),
            StoredPrice(at: Date(timeIntervalSince1970: 1_800_000_000.0009), providerAt: nil, source: key, book: "", marketID: "m", marketName: "",
                        line: "", selectionID: "x", selectionName: "", text: nil, odds: nil, suspended: true),
        ]
        for labels in [[], [("demo", JSONOutput.bool(true)), ("replay", .bool(true))]] as [[(String, JSONOutput)]] {
            var tail = Array(JSONOutput.object(labels).rendered.utf8.dropFirst())
            if !labels.isEmpty { tail.insert(UInt8(ascii: ","), at: 0) }
            for p in rows {
                for format in [OddsFormat.decimal, .american, .fractional] {
                    var bytes: [UInt8] = []
                    HistoryViews.writePrice(p, format, tail, into: &bytes)
                    #expect(String(decoding: bytes, as: UTF8.self) == JSONOutput.object(HistoryViews.record(.price(p), format) + labels).rendered)
                }
            }
        }
    }

    @Test("A chart: one line per book or the best price, exact prices on the axis, goals marked; SVG text escaped")
    func chart() throws {
        let t0 = HistoryBackendTests.t0
        let key = SourceKey(provider: .boltodds, eventID: "g")
        func p(_ s: Double, _ book: String, _ text: String) -> StoredPrice {
            StoredPrice(at: t0.addingTimeInterval(s), providerAt: nil, source: key, book: book, marketID: "moneyline", marketName: "Moneyline",
                        line: "", selectionID: "home", selectionName: "Arsenal <FC>", text: text, odds: Price(decimal: text)?.decimalOdds, suspended: false)
        }
        var t = Timeline()
        t.prices = [p(0, "draftkings", "2.00"), p(0, "fanduel", "2.10"), p(60, "draftkings", "2.40"), p(120, "fanduel", "1.50")]
        t.incidents = [StoredIncident(at: t0.addingTimeInterval(100), source: key, incident: Incident(kind: .goal, minute: 30, team: .away, player: "Palmer", detail: "Goal"))]
        let books = try #require(PriceChart.make(t, sources: [], market: nil, selection: nil, book: nil, best: false, title: "Arsenal v Chelsea"))
        #expect(books.series.map(\.name) == ["draftkings", "fanduel"])
        #expect(books.low == Rational(3, 2)! && books.high == Rational(12, 5)!)
        #expect(books.marks.map(\.symbol) == ["G"])
        let best = try #require(PriceChart.make(t, sources: [], market: "Moneyline", selection: "home", book: nil, best: true, title: "x"))
        #expect(best.series.first?.points.map(\.odds) == [Rational(2, 1)!, Rational(21, 10)!, Rational(12, 5)!])
        #expect(PriceChart.make(t, sources: [], market: nil, selection: "nobody", book: nil, best: false, title: "x") == nil)
        let lines = ChartDrawing.terminal(books, width: 60, height: 8, unicode: true, colour: false) { Price(decimalOdds: $0)!.formatted(.decimal) }
        #expect(lines[1].hasPrefix("2.40 ┤") && lines[8].hasPrefix("1.50 ┤"), "\(lines)")
        // Every line within the width (the times with their UTC too); a price every fourth row between.
        #expect(lines.allSatisfy { $0.count <= 60 }, "\(lines)")
        #expect(lines[5].hasPrefix("1.89 ┤") && lines.dropFirst().prefix(8).filter { !$0.hasPrefix("     ┤") }.count == 3, "\(lines)")
        #expect(lines.contains { $0.contains("G") } && lines.last?.contains("G 30' Goal Palmer") == true)
        #expect(lines.dropFirst().prefix(8).joined().unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) })
        let plain = ChartDrawing.terminal(books, width: 60, height: 8, unicode: false, colour: false) { Price(decimalOdds: $0)!.formatted(.decimal) }
        #expect(plain.allSatisfy { $0.unicodeScalars.allSatisfy { $0.isASCII } || $0.contains("Arsenal") })
        let svg = ChartDrawing.svg(books) { Price(decimalOdds: $0)!.formatted(.decimal) }
        #expect(svg.hasPrefix("<?xml") && svg.contains("<polyline") && svg.contains("Arsenal &lt;FC&gt;") && !svg.contains("<FC>"))
        // Simulated prices say so in the file, below the title and above the plot; real ones do not.
        #expect(!svg.contains("DEMO DATA"))
        let demo = ChartDrawing.svg(books, demo: true) { Price(decimalOdds: $0)!.formatted(.decimal) }.split(separator: "\n")
        let label = try #require(demo.firstIndex { $0.contains(">\(DemoLabel.banner)</text>") })
        let title = try #require(demo.firstIndex { $0.contains("Arsenal &lt;FC&gt;") }), plot = try #require(demo.firstIndex { $0.hasPrefix("<line") })
        #expect(title < label && label < plot)

        // Many books: a dozen lines in the terminal are a dozen colours; in the SVG no two lines of 30 are drawn alike.
        var many = Timeline()
        many.prices = (0..<30).map { p(Double($0), "book\($0)", "2.\($0 + 10)") }
        let all = try #require(PriceChart.make(many, sources: [], market: nil, selection: nil, book: nil, best: false, title: "x"))
        #expect(all.series.count == 30)
        // The legend after the times, in as many lines as 80 columns need.
        let drawn = ChartDrawing.terminal(all, width: 80, height: 8, unicode: true, colour: true) { Price(decimalOdds: $0)!.formatted(.decimal) }
        let legendLines = drawn.drop { !$0.hasSuffix(" UTC") }.dropFirst()
        #expect(legendLines.count > 1 && legendLines.allSatisfy { $0.replacingOccurrences(of: #"\u{1B}\[[0-9]*m"#, with: "", options: .regularExpression).count <= 80 })
        let legend = legendLines.joined(separator: "   ")
        let swatches = legend.components(separatedBy: "━━").dropLast().map { $0.components(separatedBy: "\u{1B}[").last ?? "" }
        #expect(swatches.count == 30 && Set(swatches.prefix(12)).count == 12, "\(swatches)")
        let strokes = ChartDrawing.svg(all) { Price(decimalOdds: $0)!.formatted(.decimal) }.split(separator: "\n")
            .filter { $0.hasPrefix("<polyline") }.map { $0.replacingOccurrences(of: #" points="[^"]*""#, with: "", options: .regularExpression) }
        #expect(strokes.count == 30 && Set(strokes).count == 30, "\(strokes)")
    }

    @Test("A chart's line breaks while its price is suspended, and runs on to when its match was last seen")
    func chartSuspension() throws {
        let t0 = HistoryBackendTests.t0
        let key = SourceKey(provider: .boltodds, eventID: "g")
        func p(_ s: Double, _ text: String?) -> StoredPrice {
            StoredPrice(at: t0.addingTimeInterval(s), providerAt: nil, source: key, book: "draftkings", marketID: "moneyline", marketName: "Moneyline",
                        line: "", selectionID: "home", selectionName: "Arsenal", text: text ?? "2.00", odds: Price(decimal: text ?? "2.00")?.decimalOdds,
                        suspended: text == nil)
        }
        var t = Timeline()
        t.prices = [p(0, "2.00"), p(60, nil), p(120, "2.50")]
        let source = StoredSource(rowID: 1, key: key, sport: "soccer", league: nil, home: "Arsenal", away: "Chelsea", startTime: nil, firstSeen: t0,
                                  lastSeen: t0.addingTimeInterval(600), priceChanges: 3, matchKey: nil, demo: false, status: "live")
        for best in [false, true] {
            let chart = try #require(PriceChart.make(t, sources: [source], market: nil, selection: nil, book: nil, best: best, title: "x"))
            #expect(chart.series.first?.points.map(\.odds) == [Rational(2, 1)!, nil, Rational(5, 2)!], "best \(best)")
            #expect(chart.from == t0 && chart.to == t0.addingTimeInterval(600) && chart.low == Rational(2, 1)!)
        }
        let chart = try #require(PriceChart.make(t, sources: [source], market: nil, selection: nil, book: nil, best: false, title: "x"))
        let lines = ChartDrawing.terminal(chart, width: 60, height: 8, unicode: false, colour: false) { Price(decimalOdds: $0)!.formatted(.decimal) }
        let plot = lines[1...8].map { String($0.drop { $0 != "|" }.dropFirst()) }
        // 2.00 from the start to the suspension, a tenth of the way; 2.50 from a fifth of the way to the end; nothing between.
        let low = plot[7], high = plot[0]
        #expect(low.hasPrefix("*") && (low.lastIndex(of: "*").map { low.distance(from: low.startIndex, to: $0) } ?? 99) <= low.count / 10 + 1, "\(lines)")
        #expect(high.hasSuffix("*") && high.prefix(high.count / 5 - 1).allSatisfy { $0 == " " }, "\(lines)")
        #expect(plot[1...6].allSatisfy { $0.allSatisfy { $0 == " " } }, "\(lines)")
        let svg = ChartDrawing.svg(chart) { Price(decimalOdds: $0)!.formatted(.decimal) }
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 2)
    }

    @Test("A match named by id, short id, fused id or team: the best named, then the live one, first; the others named")
    func finder() throws {
        func s(_ id: Int64, _ provider: ProviderID, _ event: String, _ home: String, _ away: String, status: String, seen: Double, match: String? = nil) -> StoredSource {
            StoredSource(rowID: id, key: SourceKey(provider: provider, eventID: event), sport: "soccer", league: nil, home: home, away: away,
                         startTime: nil, firstSeen: HistoryBackendTests.t0, lastSeen: HistoryBackendTests.t0.addingTimeInterval(seen),
                         priceChanges: 1, matchKey: match, demo: false, status: status)
        }
        let label = "Arsenal vs Chelsea, 2026-11-27, 15"
        let all = [s(1, .tickodds, "100", "Arsenal", "Chelsea", status: "ended", seen: 100),
                   s(2, .tickodds, "200", "Arsenal", "Spurs", status: "live", seen: 50, match: "m1"),
                   s(3, .boltodds, label, "Arsenal FC", "Tottenham Hotspur", status: "live", seen: 40, match: "m1")]
        let byTeam = try #require(StoredMatchFinder.find("arsenal", in: all))
        #expect(Set(byTeam.sources.map(\.rowID)) == [2, 3] && byTeam.others.map(\.rowID) == [1])
        #expect(StoredMatchFinder.find("100", in: all)?.sources.map(\.rowID) == [1])
        #expect(StoredMatchFinder.find(Event.shortID(for: label), in: all)?.sources.count == 2)
        #expect(StoredMatchFinder.find("m1", in: all)?.sources.count == 2)
        #expect(StoredMatchFinder.find("Liverpool", in: all) == nil)
        // A source whose feed dropped its finished match stays live by its own last status; another provider of
        // the match saying it ended makes it over, and the team's latest match is chosen.
        let celta = [s(7, .pulsescore, "700", "Celta Vigo", "Getafe", status: "live", seen: 200, match: "m9"),
                     s(8, .sportsapi, "800", "Celta Vigo", "Getafe", status: "ended", seen: 190, match: "m9"),
                     s(10, .tickodds, "1000", "Celta Vigo", "Osasuna", status: "scheduled", seen: 220)]
        #expect(StoredMatchFinder.find("Celta", in: celta)?.sources.map(\.rowID) == [10])
        #expect(StoredMatchFinder.find("Celta", in: Array(celta.dropLast()))?.sources.map(\.rowID).sorted() == [7, 8])
        // The best named before the live or the latest: "Inter" is Internazionale (the shipped alias), Inter Miami
        // is named too; "Miami" names Inter Miami alone.
        let inter = [s(4, .sportsapi, "400", "Inter Miami CF", "Atlanta United", status: "live", seen: 90),
                     s(5, .sportsapi, "500", "FC Internazionale Milano", "Napoli", status: "live", seen: 10),
                     s(6, .sportsapi, "600", "Internazionale", "Roma", status: "ended", seen: 95)]
        let byAlias = try #require(StoredMatchFinder.find("Inter", in: inter))
        #expect(byAlias.sources.map(\.rowID) == [5] && byAlias.others.map(\.rowID) == [6, 4], "\(byAlias)")
        #expect(StoredMatchFinder.find("Miami", in: inter)?.sources.map(\.rowID) == [4])
        #expect(StoredMatchFinder.find("Internazionale", in: inter)?.sources.map(\.rowID) == [5])
    }

    @Test("A bare --history means the default file; a value is kept")
    func bareHistory() {
        #expect(HistoryOptions.normalize(["stream", "--history"]) == ["stream", "--history=@default"])
        #expect(HistoryOptions.normalize(["stream", "--history", "--demo"]) == ["stream", "--history=@default", "--demo"])
        #expect(HistoryOptions.normalize(["stream", "--history", "h.sqlite"]) == ["stream", "--history", "h.sqlite"])
        #expect(HistoryOptions.normalize(["watch", "--", "--history"]) == ["watch", "--", "--history"])
        #expect(HistoryLocation.parse("", environment: ["HOME": "/home/u"]) == .sqlite(path: "/home/u/.local/share/odds/history.sqlite"))
        #expect(HistoryLocation.parse("", environment: ["XDG_DATA_HOME": "/x"]) == .sqlite(path: "/x/odds/history.sqlite"))
        #expect(HistoryLocation.parse("postgresql://u:pw@h/db", environment: [:]).description == "postgresql://***@h/db")
        #expect(HistoryLocation.parse("postgres://h/db?user=u&password=pw&sslmode=require", environment: [:]).description
                == "postgres://h/db?user=u&password=***&sslmode=require")
    }
}

/// A writer fed as a live command feeds it (each message applied to a store, then recorded), its warnings kept.
final class LiveWriter: @unchecked Sendable {  // used from one test's thread
    let writer: HistoryWriter
    let warnings = Lines()
    private var store = LiveStore()

    init(_ backend: any HistoryBackend) {
        let warnings = self.warnings
        writer = HistoryWriter(backend: backend, retentionDays: nil) { warnings.append($0) }
    }

    func send(_ e: Event, _ seconds: Double) {
        let m = HistoryBackendTests.message(e, at: seconds)
        store.apply(m)
        writer.record(m, in: store)
    }
}

/// Lines gathered from another thread.
final class Lines: @unchecked Sendable {  // `lines` is behind `lock`
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

/// Waits (a synchronous test, on its own lane) until `condition` holds, 15 s at most.
func waitUntil(_ what: String, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(15)
    while !condition() {
        if Date() > deadline { throw TimedOut(what: what) }
        usleep(5_000)
    }
}


extension HistoryBackendTests {
    @Test("Changes older than the match's first sighting (a collector that began earlier, writing later) are read back",
          arguments: HistoryHarness.Kind.allCases)
    func olderDaysReadBack(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        let batch = { (seconds: Double, prices: [(market: String, selection: String, text: String)]) in
            Self.batch(at: seconds, prices.map { ($0.market, $0.selection, $0.text, Self.price($0.text).decimalOdds, false) })
        }
        // One collector stores the match today; another, which has followed it for two days, then stores what it saw
        // then: a market the first never saw, in earlier days (in PostgreSQL, earlier partitions) than the match's
        // first sighting.
        for b in [batch(0, [("full_time_result", "home", "2.10")]), batch(60, [("full_time_result", "home", "2.05")]),
                  batch(-2 * 86_400, [("btts", "yes", "1.90"), ("btts", "no", "1.95")])] {
            let backend = try History.open(h.location, writing: true)
            defer { backend.close() }
            _ = try backend.write(b)
        }
        try h.read { history in
            let sources = try history.matches(MatchQuery())
            #expect(sources.count == 1 && sources.first?.firstSeen == Self.t0)
            let t = try history.timeline(of: sources, filter: TimelineFilter())
            #expect(t.prices.map(\.text) == ["1.90", "1.95", "2.10", "2.05"])
            let s = try history.summary(of: sources, filter: TimelineFilter(), recent: 100)
            #expect(s.lines == HistoryReport.lines(t) && s.lines.contains { $0.selection.selectionID == "no" && $0.open.text == "1.95" })
            #expect(s.rows == t.prices.count && s.recent.prices == t.prices)
        }
        // Each writer kept its selections' first change (least of all), the span a reader bounds its reads by.
        let sql = "SELECT selection_key || '=' || first_at FROM selection ORDER BY selection_key"
        let firsts: [String] = switch h.location {
        case .sqlite(let path): try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: sql) }
        case .postgres(let url):
            try #require(try PostgresTestServer.shared()).psql(sql, database: String(url.split(separator: "/").last!)).split(separator: "\n").map(String.init)
        }
        let day = Self.t0.addingTimeInterval(-2 * 86_400).historyMillis
        #expect(firsts == ["home=\(Self.t0.historyMillis)", "no=\(day)", "yes=\(day)"])
    }
}

extension HistoryBackendTests {
    /// A batch of one source's price changes at `seconds` after `t0`, as a writer hands it to a backend.
    static func batch(at seconds: Double, _ prices: [(market: String, selection: String, text: String?, odds: Rational?, suspended: Bool)])
        -> HistoryBatch {
        let key = SourceKey(provider: .tickodds, eventID: "100")
        let at = t0.addingTimeInterval(seconds)
        var b = HistoryBatch()
        b.sources[key] = SourceRow(key: key, sport: "soccer", league: nil, home: "Arsenal", away: "Chelsea", startTime: nil,
                                   firstSeenAt: at, seenAt: at, demo: false)
        b.prices = prices.map { p in
            PriceRow(ref: SelectionRef(source: key, book: "tickodds", marketID: p.market, line: "", selectionID: p.selection),
                     marketName: p.market, selectionName: p.selection, receivedAt: at, providerAt: nil, text: p.text, odds: p.odds,
                     suspended: p.suspended)
        }
        return b
    }

    @Test("Prices of any size, none and suspended: the summary's lines are the timeline's, exactly", arguments: HistoryHarness.Kind.allCases)
    func widePrices(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        // Numerators and denominators past 2^31 and 2^30 (which PostgreSQL's read cannot pack), next to ordinary ones.
        let steps: [(String?, Rational?, Bool)] = [
            ("2.10", Rational(21, 10), false), ("1.0000000001", Rational(10_000_000_001, 10_000_000_000), false),
            ("3000000000", Rational(3_000_000_000, 1), false), (nil, nil, true), ("3000000000", Rational(3_000_000_000, 1), true),
            ("1.5", Rational(3, 2), true), ("2.20", Rational(11, 5), false), ("2147483647.5", Rational(4_294_967_295, 2), false),
        ]
        let backend = try History.open(h.location, writing: true)
        for (i, step) in steps.enumerated() {
            _ = try backend.write(Self.batch(at: Double(i), [("full_time_result", "home", step.0, step.1, step.2)]))
        }
        backend.close()
        try h.read { history in
            let sources = try history.matches(MatchQuery())
            let t = try history.timeline(of: sources, filter: TimelineFilter())
            #expect(t.prices.map(\.odds) == steps.map(\.1) && t.prices.map(\.suspended) == steps.map(\.2))
            let s = try history.summary(of: sources, filter: TimelineFilter(), recent: 3)
            #expect(s.lines == HistoryReport.lines(t))
            let line = try #require(s.lines.first)
            #expect(line.high.text == "3000000000" && line.low.text == "1.0000000001" && line.changes == steps.count)
            #expect(line.moves == [Rational(21, 10), Rational(10_000_000_001, 10_000_000_000), Rational(3_000_000_000, 1), Rational(11, 5),
                                   Rational(4_294_967_295, 2)].compactMap { $0 })
            #expect(s.recent.prices == Array(t.prices.suffix(3)))
        }
    }
}

extension HistoryBackendTests {
    @Test("A whole event sent again after one price moved alone: the price that moved back is a change", arguments: HistoryHarness.Kind.allCases)
    func priceMovedBack(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        let moved = PriceUpdate(eventID: "100", marketID: "full_time_result:full_game", marketName: "Fulltime Result", book: "tickodds",
                                selection: Selection(id: "home", name: "Arsenal", price: Self.price("2.05")))
        let counts = try h.write([Self.message(Self.event(), at: 0),
                                  FeedMessage(provider: .tickodds, receivedAt: Self.t0.addingTimeInterval(1), update: .price(moved)),
                                  Self.message(Self.event(), at: 2), Self.message(Self.event(), at: 3)])
        #expect(counts.lost == 0 && counts.dropped == 0, "\(counts)")
        try h.read { history in
            let t = try history.timeline(of: try history.matches(MatchQuery()), filter: TimelineFilter())
            #expect(t.prices.filter { $0.selectionID == "home" }.map(\.text) == ["2.10", "2.05", "2.10"])
            #expect(t.prices.count == 5)
        }
    }
}

extension HistoryBackendTests {
    @Test("A price change, then its whole event (TickOdds' order): the event is not read again market by market; what moved is still a change",
          arguments: HistoryHarness.Kind.allCases)
    func priceThenEvent(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        let backend = try History.open(h.location, writing: true)
        defer { backend.close() }
        var tracker = ChangeTracker(), store = LiveStore(), batch = HistoryBatch()
        func event(_ prices: [String], total: String = "1.90") -> Event {
            var e = Self.event(prices: prices)
            e.markets.append(Market(id: "total_goals:full_game", name: "Over/Under 2.5 Goals", book: "tickodds", selections: [
                Selection(id: "over", name: "Over 2.5", line: "2.5", price: Self.price(total)),
                Selection(id: "under", name: "Under 2.5", line: "2.5", price: Self.price("1.95"))]))
            return e
        }
        func feed(_ m: FeedMessage, observed: Bool = true) throws {
            store.apply(m)
            guard observed else { return }
            for input in HistoryInput.of(m, in: store) { try tracker.observe(input, lookup: backend, into: &batch) }
        }
        func moved(_ selection: String, _ name: String, _ text: String, at seconds: Double) -> FeedMessage {
            FeedMessage(provider: .tickodds, receivedAt: Self.t0.addingTimeInterval(seconds), update: .price(PriceUpdate(
                eventID: "100", marketID: "full_time_result:full_game", marketName: "Fulltime Result", book: "tickodds",
                selection: Selection(id: selection, name: name, price: Self.price(text)))))
        }
        try feed(Self.message(event(["2.10", "3.40", "3.60"]), at: 0))
        #expect(tracker.marketsRead == 2)
        try feed(moved("home", "Arsenal", "2.05", at: 1))
        try feed(Self.message(event(["2.05", "3.40", "3.60"]), at: 1))
        #expect(tracker.marketsRead == 3, "the event after its price change was read again: \(tracker.marketsRead)")
        try feed(Self.message(event(["2.10", "3.40", "3.60"]), at: 2))
        #expect(tracker.marketsRead == 4)
        // The draw moves in an update the tracker never sees (dropped): the next price change cannot move the compared
        // market on, and the whole event after it is read again, the draw's move with it.
        try feed(Self.message(event(["2.10", "3.50", "3.60"]), at: 3), observed: false)
        try feed(moved("home", "Arsenal", "2.00", at: 4))
        try feed(Self.message(event(["2.00", "3.50", "3.60"]), at: 4))
        #expect(tracker.marketsRead == 7)
        func texts(_ id: String) -> [String?] { batch.prices.filter { $0.ref.selectionID == id }.map(\.text) }
        #expect(texts("home") == ["2.10", "2.05", "2.10", "2.00"])
        #expect(texts("draw") == ["3.40", "3.50"] && texts("away") == ["3.60"] && texts("over") == ["1.90"])
        #expect(batch.prices.filter { $0.ref.selectionID == "draw" }.last?.receivedAt == Self.t0.addingTimeInterval(4))
    }
}

extension HistoryReportTests {
    @Test("A whole event stands for the price change just before it only when received with it and holding that price")
    func eventCoversPrice() throws {
        let t = HistoryBackendTests.self
        var store = LiveStore()
        store.apply(t.message(t.event(), at: 0))
        func input(_ m: FeedMessage) throws -> HistoryInput {
            store.apply(m)
            return try #require(HistoryInput.of(m, in: store).first)
        }
        func moved(_ text: String, at seconds: Double) -> FeedMessage {
            FeedMessage(provider: .tickodds, receivedAt: t.t0.addingTimeInterval(seconds), update: .price(PriceUpdate(
                eventID: "100", marketID: "full_time_result:full_game", marketName: "Fulltime Result", book: "tickodds",
                selection: Selection(id: "home", name: "Arsenal", price: t.price(text)))))
        }
        let price = try input(moved("2.05", at: 1))
        let event = try input(t.message(t.event(prices: ["2.05", "3.40", "3.60"]), at: 1))
        #expect(event.covers(price) && !price.covers(event))
        // Received later, holding another price, or without the market: the price change is its own.
        #expect(!(try input(t.message(t.event(prices: ["2.05", "3.40", "3.60"]), at: 2))).covers(price))
        #expect(!(try input(t.message(t.event(prices: ["2.00", "3.40", "3.60"]), at: 1))).covers(price))
        var bare = t.event()
        bare.markets = []
        #expect(!(try input(t.message(bare, at: 1))).covers(price))
        var joined = event
        joined.member = (matchKey: "m1", reason: "teams")
        #expect(!joined.covers(price))
        var stamped = event
        stamped.providerTime = t.t0
        #expect(!stamped.covers(price))
    }

    @Test("A price path is bounded: the open and the latest kept, every other point let go when full, repeats not points")
    func pricePath() throws {
        let t0 = HistoryBackendTests.t0
        var path = PricePath()
        let odds = (0..<1_000).map { Rational(200 + Int64($0 % 50), 100) }
        for (i, o) in odds.enumerated() {
            path.add(at: t0.addingTimeInterval(Double(i)), odds: o)
            path.add(at: t0.addingTimeInterval(Double(i) + 0.5), odds: o)      // the same again: not a point
        }
        path.add(at: t0.addingTimeInterval(2_000), odds: nil)                   // suspended
        let points = path.points
        #expect(points.count <= PricePath.capacity + 1 && points.count > PricePath.capacity / 2)
        #expect(points.first == PricePath.Point(at: t0, odds: Rational(2, 1)))
        #expect(points.last == PricePath.Point(at: t0.addingTimeInterval(2_000), odds: nil))
        #expect(zip(points, points.dropFirst()).allSatisfy { $0.at < $1.at })
        // Evenly thinned: the kept points are whole seconds at one stride.
        let gaps = Set(zip(points.dropLast(), points.dropLast().dropFirst()).map { $1.at.timeIntervalSince($0.at) })
        #expect(gaps.count == 1, "\(gaps)")
        var short = PricePath()
        short.add(at: t0, odds: Rational(2, 1))
        short.add(at: t0.addingTimeInterval(1), odds: Rational(2, 1))
        #expect(short.points == [PricePath.Point(at: t0, odds: Rational(2, 1))])
    }
}

extension HistoryBackendTests {
    @Test("A dashboard reads a long match's lines bounded: the open, the latest, and no more points than a path keeps",
          arguments: HistoryHarness.Kind.allCases)
    func dashboardReadsLongMatch(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        let prices = (0..<600).map { i in [String(format: "2.%02d", i % 40), "3.40", "3.60"] }
        _ = try h.write(prices.enumerated().map { Self.message(Self.event(prices: $1), at: Double($0)) })
        let row = EventKey(provider: .tickodds, id: "100")
        let seed = try DashboardHistoryReader.read(h.location, sources: [row], main: [])
        let home = try #require(seed.points[PriceTrails.Key(event: row, market: "full_time_result:full_game", book: "tickodds", selection: "home")])
        #expect(home.count <= PricePath.capacity + 1 && home.count > 8)
        #expect(home.first?.at == Self.t0 && home.first?.odds == 2.0 && home.last?.at == Self.t0.addingTimeInterval(599) && home.last?.odds == 2.39)
        #expect(seed.points.count == 3 && seed.points.values.allSatisfy { $0.count <= PricePath.capacity + 1 })
    }
}

extension HistoryBackendTests {
    @Test("A selection whose last price is stored without its text or suspension (as another tool may leave it) is read, not a crash",
          arguments: HistoryHarness.Kind.allCases)
    func lastPriceWithoutDetails(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        _ = try h.write([Self.message(Self.event(), at: 0)])
        let sql = "UPDATE selection SET last_text = NULL, last_suspended = NULL"
        switch h.location {
        case .sqlite(let path): try DatabaseQueue(path: path).write { try $0.execute(sql: sql) }
        case .postgres(let url):
            _ = try #require(try PostgresTestServer.shared()).psql(sql, database: String(url.split(separator: "/").last!))
        }
        // A writer started again looks up what is stored, then stores the next change of each price.
        let counts = try h.write([Self.message(Self.event(prices: ["2.05", "3.40", "3.60"]), at: 10)])
        #expect(counts.lost == 0)
        try h.read { history in
            let t = try history.timeline(of: try history.matches(MatchQuery()), filter: TimelineFilter())
            #expect(t.prices.filter { $0.selectionID == "home" }.map(\.text) == ["2.10", "2.05"])
        }
    }
}

extension HistoryBackendTests {
    static func span(_ from: Double, _ to: Double) -> WatchSpan {
        WatchSpan(provider: .tickodds, from: t0.addingTimeInterval(from), to: t0.addingTimeInterval(to))
    }

    @Test("A writer keeps when it watched each feed: a span a run, ended by a connection down, opened again by the next message",
          arguments: HistoryHarness.Kind.allCases)
    func watchSpans(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        func note(_ update: FeedUpdate, at seconds: Double) -> FeedMessage {
            FeedMessage(provider: .tickodds, receivedAt: Self.t0.addingTimeInterval(seconds), update: update)
        }
        // A connection state alone opens no span; a heartbeat moves one on; reconnecting ends it.
        _ = try h.write([note(.connection(.connecting), at: -5), Self.message(Self.event(), at: 0),
                         Self.message(Self.event(prices: ["2.20", "3.40", "3.60"]), at: 10), note(.heartbeat, at: 12),
                         note(.connection(.reconnecting(seconds: 1, attempt: 1, reason: "closed")), at: 13), note(.connection(.live), at: 19),
                         Self.message(Self.event(prices: ["2.30", "3.40", "3.60"]), at: 20), Self.message(Self.event(prices: ["2.40", "3.40", "3.60"]), at: 25)])
        // A second run later: a span of its own.
        _ = try h.write([Self.message(Self.event(prices: ["2.50", "3.40", "3.60"]), at: 100), note(.heartbeat, at: 110)])
        try h.read { history in
            let all = Self.t0.addingTimeInterval(-1000)...Self.t0.addingTimeInterval(1000)
            let spans = try history.watches(of: [.tickodds], during: all)
            #expect(spans == [Self.span(0, 12), Self.span(20, 25), Self.span(100, 110)])
            #expect(try history.watches(of: [.boltodds], during: all).isEmpty)
            // Only the spans that reach into the range asked for.
            #expect(try history.watches(of: [.tickodds], during: Self.t0.addingTimeInterval(24)...Self.t0.addingTimeInterval(50)) == [Self.span(20, 25)])
            #expect(WatchSpan.gaps(spans, in: Self.t0...Self.t0.addingTimeInterval(110))
                    == [Self.t0.addingTimeInterval(12)...Self.t0.addingTimeInterval(20), Self.t0.addingTimeInterval(25)...Self.t0.addingTimeInterval(100)])
            // The stats name each provider's latest span: when a writer last watched it.
            #expect(try history.stats().watched == [Self.span(100, 110)])
        }
        // A span written again as it moves on is one row; another writer's span of the same number is its own.
        for (from, to) in [(200.0, 205.0), (200.0, 209.0)] {
            let writer = try History.open(h.location, writing: true)
            var batch = HistoryBatch()
            batch.watches = [WatchRow(span: 0, watched: Self.span(from, to))]
            _ = try writer.write(batch)
            batch.watches[0].watched.to = Self.t0.addingTimeInterval(to + 1)
            _ = try writer.write(batch)
            writer.close()
        }
        let rewritten = try h.read { try $0.watches(of: [.tickodds], during: Self.t0.addingTimeInterval(150)...Self.t0.addingTimeInterval(300)) }
        #expect(rewritten == [Self.span(200, 206), Self.span(200, 210)])
        // Retention drops the spans that ended before its cutoff.
        let writer = try History.open(h.location, writing: true)
        _ = try writer.prune(before: Self.t0.addingTimeInterval(50))
        writer.close()
        let left = try h.read { try $0.watches(of: [.tickodds], during: Self.t0.addingTimeInterval(-1000)...Self.t0.addingTimeInterval(1000)) }
        #expect(left == [Self.span(100, 110), Self.span(200, 206), Self.span(200, 210)])
    }
}

extension HistoryBackendTests {
    @Test("A first price after a goal that came only after no writer watched is told apart from the market's reaction",
          arguments: HistoryHarness.Kind.allCases)
    func afterGap(_ kind: HistoryHarness.Kind) throws {
        for gap in [false, true] {
            guard let h = try HistoryHarness.make(kind) else { return }
            defer { h.remove() }
            let scored = Score(home: 1, away: 0)
            let before = [Self.message(Self.event(), at: 0), Self.message(Self.event(score: scored, incidents: [Self.goal]), at: 10)]
            let after = [Self.message(Self.event(score: scored, prices: ["1.50", "4.20", "6.00"], incidents: [Self.goal]), at: 300)]
            // One writer throughout (a heartbeat a minute keeps it watching), or two with nobody between.
            let beats = (1...4).map { FeedMessage(provider: .tickodds, receivedAt: Self.t0.addingTimeInterval(Double($0) * 60), update: .heartbeat) }
            if gap {
                _ = try h.write(before)
                _ = try h.write(after)
            } else {
                _ = try h.write(before + beats + after)
            }
            try h.read { history in
                let sources = try history.matches(MatchQuery())
                let unwatched = try history.unwatched(sources)
                let around = try #require(try history.summary(of: sources, filter: TimelineFilter(), recent: 0).around.first)
                #expect(around.selections.first?.after?.text == "1.50")
                #expect(unwatched == (gap ? [UnwatchedGap(provider: .tickodds, gap: Self.t0.addingTimeInterval(10)...Self.t0.addingTimeInterval(300))] : []))
                #expect(around.afterGap(unwatched) == gap)
            }
        }
    }
}

extension HistoryReportTests {
    @Test("Where no writer watched, a chart's line breaks and its axis is dotted; lines of a watched provider run on")
    func chartGaps() throws {
        let t0 = HistoryBackendTests.t0
        func p(_ s: Double, _ provider: ProviderID, _ book: String, _ text: String) -> StoredPrice {
            StoredPrice(at: t0.addingTimeInterval(s), providerAt: nil, source: SourceKey(provider: provider, eventID: "g"), book: book,
                        marketID: "moneyline", marketName: "Moneyline", line: "", selectionID: "home", selectionName: "Arsenal", text: text,
                        odds: Price(decimal: text)?.decimalOdds, suspended: false)
        }
        var t = Timeline()
        t.prices = [p(0, .tickodds, "tickodds", "2.00"), p(0, .boltodds, "draftkings", "3.00"), p(150, .tickodds, "tickodds", "2.50"),
                    p(200, .boltodds, "draftkings", "3.00")]
        // TickOdds was watched from 0 to 40 and from 100 on; BoltOdds throughout.
        let spans = [HistoryBackendTests.span(0, 40), HistoryBackendTests.span(100, 200), WatchSpan(provider: .boltodds, from: t0, to: t0.addingTimeInterval(200))]
        var chart = try #require(PriceChart.make(t, sources: [], market: nil, selection: nil, book: nil, best: false, title: "x"))
        chart.watched(spans)
        let tick = try #require(chart.series.first { $0.name == "tickodds" }), bolt = try #require(chart.series.first { $0.name == "draftkings" })
        #expect(tick.gaps == [t0.addingTimeInterval(40)...t0.addingTimeInterval(100)] && bolt.gaps.isEmpty)
        // Some line is known throughout: the axis is whole.
        #expect(chart.gaps.isEmpty)
        let two = Rational(2, 1)!, five = Rational(5, 2)!
        #expect(chart.held(tick) == [PriceChart.Held(from: t0, to: t0.addingTimeInterval(40), odds: two),
                                     PriceChart.Held(from: t0.addingTimeInterval(100), to: t0.addingTimeInterval(150), odds: two),
                                     PriceChart.Held(from: t0.addingTimeInterval(150), to: t0.addingTimeInterval(200), odds: five)])
        // Without spans (a history written before they were kept) nothing breaks.
        var unknown = chart
        unknown.watched([])
        #expect(unknown.held(unknown.series[0]).count == 2 && unknown.series.allSatisfy { $0.gaps.isEmpty } && unknown.series[0].name == "tickodds")

        // TickOdds alone: its line breaks, the axis is dotted under the gap, the legend says what it means.
        t.prices = t.prices.filter { $0.source.provider == .tickodds }
        var alone = try #require(PriceChart.make(t, sources: [], market: nil, selection: nil, book: nil, best: false, title: "x"))
        alone.watched(spans)
        #expect(alone.gaps == [t0.addingTimeInterval(40)...t0.addingTimeInterval(100)])
        let lines = ChartDrawing.terminal(alone, width: 70, height: 8, unicode: false, colour: false) { Price(decimalOdds: $0)!.formatted(.decimal) }
        let plot = lines[1...8].map { String($0.drop { $0 != "|" }.dropFirst()) }
        let cols = plot[0].count
        // The chart runs to the last change, at 150 s: 2.00 (the bottom row) from 0 to 40 s, nothing from 40 to 100, then
        // 2.00 again to the change.
        let low = Array(plot[7])
        let blank = (Int(Double(cols) * 0.3)...Int(Double(cols) * 0.6))
        #expect(blank.allSatisfy { low[$0] == " " } && low[0] == "*" && low[Int(Double(cols) * 0.2)] == "*" && low[Int(Double(cols) * 0.8)] == "*",
                "\(lines)")
        let axis = try #require(lines.first { $0.contains("+--") })
        #expect(axis.range(of: "-\\.{\(Int(Double(cols) * 0.35)),}-", options: .regularExpression) != nil, "\(lines)")
        #expect(lines.last?.contains(".. no writer watching: price unknown") == true, "\(lines)")
        let unicode = ChartDrawing.terminal(alone, width: 70, height: 8, unicode: true, colour: false) { Price(decimalOdds: $0)!.formatted(.decimal) }
        #expect(unicode.contains { $0.contains("└─") && $0.contains("┄┄┄") } && unicode.last?.contains("┄┄ no writer watching") == true)
        // The SVG: the gap shaded and titled; the line in two polylines either side of it.
        let svg = ChartDrawing.svg(alone) { Price(decimalOdds: $0)!.formatted(.decimal) }
        #expect(svg.contains("fill=\"#eeeeee\"><title>no writer watching: price unknown</title></rect>"))
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 2)
        // The best price breaks only where no provider in it was watched.
        var best = try #require(PriceChart.make(t, sources: [], market: nil, selection: nil, book: nil, best: true, title: "x"))
        best.watched(spans)
        #expect(best.series.first?.providers == [.tickodds] && best.gaps == alone.gaps)
    }
}
