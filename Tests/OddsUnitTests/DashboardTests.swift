import Foundation
@testable import OddsDashboard
import OddsFusion
import OddsJSON
import OddsModel
import OddsOutput
@testable import OddsSimulator
import OddsStore
@testable import OddsTickOdds
import OddsTestSupport
import OddsValue
import Testing

/// A dashboard fed with the simulator's deterministic world, through the real TickOdds decoder.
enum DashboardFixture {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func events() throws -> [Event] {
        let world = SimWorld(seed: 42)
        return try world.live(for: .tickodds).map { try TickOddsWire.event(JSONParser.parse(TickOddsFormat.event($0).rendered)) }
    }

    static func model(width: Int = 120, height: Int = 40, demo: Bool = true) throws -> DashboardModel {
        var model = DashboardModel(provider: .tickodds, sport: "soccer", demo: demo, oddsFormat: .decimal, now: t0)
        _ = update(&model, .resize(width: width, height: height))
        _ = update(&model, .feed(FeedMessage(provider: .tickodds, receivedAt: t0, update: .connection(.live))))
        _ = update(&model, .feed(FeedMessage(provider: .tickodds, receivedAt: t0, update: .snapshot(try events()))))
        // One price moves, one match scores, one line is suspended.
        let e = try events()
        let first = e[0], second = e[1]
        var moved = first.mainMarket!.selections[0]
        moved.price = Price(decimal: "1.95")
        _ = update(&model, .feed(FeedMessage(provider: .tickodds, receivedAt: t0.addingTimeInterval(0.5), update:
            .price(PriceUpdate(eventID: first.id, marketID: first.mainMarket!.id, marketName: "Fulltime Result", book: first.mainMarket!.book, selection: moved)))))
        _ = update(&model, .feed(FeedMessage(provider: .tickodds, receivedAt: t0.addingTimeInterval(0.6), update:
            .score(eventID: second.id, from: second.score, to: Score(home: 1, away: 0)))))
        _ = update(&model, .feed(FeedMessage(provider: .tickodds, receivedAt: t0.addingTimeInterval(0.6), update:
            .incident(eventID: second.id, Incident(kind: .goal, minute: 74, team: .home, player: "Mo Salah", detail: "Goal")))))
        var suspended = second.mainMarket!.selections[1]
        suspended.suspended = true
        _ = update(&model, .feed(FeedMessage(provider: .tickodds, receivedAt: t0.addingTimeInterval(0.7), update:
            .price(PriceUpdate(eventID: second.id, marketID: second.mainMarket!.id, marketName: "Fulltime Result", book: second.mainMarket!.book, selection: suspended)))))
        _ = update(&model, .tick(t0.addingTimeInterval(1)))
        return model
    }
}

@Suite("Dashboard layout and update", .unitLane)
struct DashboardTests {
    @Test("Golden frames at 80×24, 120×40 and 200×60", arguments: [(80, 24), (120, 40), (200, 60)])
    func goldenFrames(width: Int, height: Int) throws {
        let model = try DashboardFixture.model(width: width, height: height)
        let screen = DashboardLayout.layout(model)
        #expect(screen.width == width && screen.height == height)
        try CLI.expectGolden(screen.text + "\n", "dash-\(width)x\(height).txt")
    }

    @Test("Header and footer give way whole pieces at a time: the state, the filter and the quit key always show",
          arguments: [60, 66, 72, 80, 96, 120, 200])
    func headerAndFooterFit(width: Int) throws {
        var model = try DashboardFixture.model(width: width, height: 24)
        _ = update(&model, .key(.character("/")))
        for c in "Liga" { _ = update(&model, .key(.character(c))) }
        _ = update(&model, .key(.enter))
        _ = update(&model, .key(.character("p")))
        let frame = DashboardLayout.layout(model)
        let header = frame.line(0), footer = frame.line(frame.height - 1).trimmingCharacters(in: .whitespaces)
        #expect(header.contains("DEMO DATA") && header.contains("TickOdds") && header.contains("● live"), "\(header)")
        #expect(header.contains("PAUSED") && header.contains("filter: Liga"), "\(header)")
        #expect(!header.hasSuffix("·") && !header.trimmingCharacters(in: .whitespaces).hasSuffix("·"))
        #expect(footer.hasSuffix("? help · q quit"), "\(footer)")
        if width >= 200 { #expect(header.contains("msg/s") && header.contains("sort: kick-off") && footer.contains("PgUp/PgDn")) }
    }

    @Test("A tiny terminal says so instead of drawing the table")
    func tiny() throws {
        let model = try DashboardFixture.model(width: 40, height: 10)
        let screen = DashboardLayout.layout(model)
        try CLI.expectGolden(screen.text + "\n", "dash-40x10.txt")
        #expect(screen.text.contains("terminal too small"))
        #expect(DashboardLayout.layout(try DashboardFixture.model(width: 0, height: 0)).text.isEmpty)
    }

    @Test("DEMO is in the header; moves are marked; suspended shows SUSP; the goal is in the ticker")
    func content() throws {
        let model = try DashboardFixture.model()
        let screen = DashboardLayout.layout(model)
        #expect(screen.line(0).contains("DEMO DATA"))
        #expect(screen.line(0).contains("● live"))
        #expect(screen.text.contains("1.95▼"))
        #expect(screen.text.contains("SUSP"))
        #expect(screen.text.contains("74' goal Mo Salah"))
        // The marker fades after the move window.
        var later = model
        _ = update(&later, .tick(DashboardFixture.t0.addingTimeInterval(10)))
        #expect(!DashboardLayout.layout(later).text.contains("1.95▼"))
        #expect(DashboardLayout.layout(later).text.contains("1.95"))
    }

    @Test("Several sports asked for (all, or repeated): a SPORT column after TIME; one sport, none")
    func sportColumn() throws {
        var model = try DashboardFixture.model(width: 120, height: 40)
        #expect(!DashboardLayout.layout(model).line(1).contains("SPORT"))
        for sport in ["all", "soccer,basketball"] {
            model.sport = sport
            let screen = DashboardLayout.layout(model)
            #expect(screen.line(1).contains("TIME    SPORT      LEAGUE"), "\(screen.line(1))")
            #expect(screen.text.contains("basketball") && screen.text.contains("soccer     "))
        }
        // Narrow terminals keep their columns for the names.
        _ = update(&model, .resize(width: 80, height: 24))
        #expect(!DashboardLayout.layout(model).line(1).contains("SPORT"))
    }

    @Test("A feed of several connections shows each one's state in the header, with its own countdown")
    func connections() throws {
        var model = try DashboardFixture.model(width: 200)
        #expect(model.connections.map(\.name) == ["live"])
        #expect(DashboardLayout.layout(model).line(0).contains("· ● live ·"))
        let t = DashboardFixture.t0.addingTimeInterval(2)
        _ = update(&model, .feed(FeedMessage(provider: .tickodds, connection: "scores", receivedAt: t, update: .connection(.live))))
        _ = update(&model, .feed(FeedMessage(provider: .tickodds, connection: "pbp", receivedAt: t, update:
            .connection(.reconnecting(seconds: 8, attempt: 2, reason: "connection dropped")))))
        _ = update(&model, .tick(t.addingTimeInterval(3)))
        let screen = DashboardLayout.layout(model)
        #expect(screen.line(0).contains("live ● live, pbp reconnecting in 5s (attempt 2), scores ● live"), "\(screen.line(0))")
        #expect(model.connection.label == "reconnecting")
        #expect(screen.rows[0].contains { $0.text == "p" && $0.attributes.contains(.yellow) })
    }

    @Test("Rows older than the staleness bound are marked stale, and the header says so")
    func stale() throws {
        var model = try DashboardFixture.model()
        _ = update(&model, .tick(DashboardFixture.t0.addingTimeInterval(45)))
        let screen = DashboardLayout.layout(model)
        #expect(screen.line(0).contains("stale"))
        #expect(screen.line(2).contains("stale"))
        #expect(screen.rows[2][2].attributes.contains(.dim))
    }

    @Test("A feed of scoreboards only (SportsAPIPro) selects its first row; Enter focuses it, with its stats and lineups in the pane; Esc leaves it")
    func scoreboardRowsAndFocus() throws {
        let t0 = DashboardFixture.t0
        var model = DashboardModel(provider: .sportsapi, sport: "soccer", demo: true, oddsFormat: .decimal, now: t0)
        _ = update(&model, .resize(width: 120, height: 40))
        for (id, home, away) in [("1", "Arsenal", "Chelsea"), ("2", "Everton", "Fulham")] {
            _ = update(&model, .feed(FeedMessage(provider: .sportsapi, receivedAt: t0, update:
                .scoreboard(Scoreboard(eventID: id, home: home, away: away, sport: "soccer", score: Score(home: 0, away: 0), status: .live)))))
        }
        #expect(model.selected != nil && model.visibleRows.count == 2 && model.focused == nil)
        _ = update(&model, .feed(FeedMessage(provider: .sportsapi, receivedAt: t0, update: .connection(.degraded(reason: "natsConnected: false")))))
        #expect(DashboardLayout.layout(model).text.split(separator: "\n").first?.contains("degraded: polled") == true)
        _ = update(&model, .key(.enter))
        let focused = try #require(model.focused)
        #expect(model.visibleRows.isEmpty)
        _ = update(&model, .feed(FeedMessage(provider: .sportsapi, receivedAt: t0, update:
            .stats(eventID: focused.id, [TeamStat(name: "Ball possession", home: "61%", away: "39%")]))))
        _ = update(&model, .feed(FeedMessage(provider: .sportsapi, receivedAt: t0, update:
            .lineups(eventID: focused.id, Lineups(home: Lineup(formation: "4-3-3", starters: [LineupPlayer(name: "David Raya", number: "22")]))))))
        let screen = DashboardLayout.layout(model).text
        #expect(screen.contains("Statistics") && screen.contains("Ball possession") && screen.contains("61%"))
        #expect(screen.contains("Lineups") && screen.contains("4-3-3") && screen.contains("22 David Raya"))
        _ = update(&model, .key(.escape))
        #expect(model.focused == nil)
    }

    @Test("Moving, paging, first and last")
    func movement() throws {
        var model = try DashboardFixture.model(width: 120, height: 24)
        let rows = model.rows
        _ = update(&model, .key(.down))
        #expect(model.selected == rows[1])
        _ = update(&model, .key(.character("k")))
        #expect(model.selected == rows[0])
        _ = update(&model, .key(.character("G")))
        #expect(model.selected == rows.last)
        _ = update(&model, .key(.character("g")))
        #expect(model.selected == rows[0])
        _ = update(&model, .key(.pageDown))
        #expect(model.selected == rows[min(rows.count - 1, model.visibleRowCount)])
        _ = update(&model, .key(.up))
        _ = update(&model, .key(.pageUp))
        #expect(model.selected == rows[0])
    }

    @Test("The detail pane scrolls within its lines: paging past the end stops there, one page up moves back; G the end, g the top")
    func detailScrolling() throws {
        var model = try DashboardFixture.model(width: 120, height: 12)
        _ = update(&model, .key(.enter))
        let key = try #require(model.focused)
        let lines = DashboardLayout.detailLines(model, key: key).count
        let limit = lines - (model.height - 2)
        try #require(limit > model.visibleRowCount, "the pane is more than a page longer than the screen (\(lines) lines)")
        func top() -> String { DashboardLayout.layout(model).line(1) }
        let first = top()
        for _ in 0..<20 { _ = update(&model, .key(.pageDown)) }
        #expect(model.detailScroll == limit)
        let end = top()
        _ = update(&model, .key(.pageUp))
        #expect(model.detailScroll == limit - model.visibleRowCount && top() != end, "one page up moves at once")
        _ = update(&model, .key(.character("g")))
        #expect(model.detailScroll == 0 && top() == first)
        _ = update(&model, .key(.character("G")))
        #expect(model.detailScroll == limit && top() == end)
        _ = update(&model, .key(.up))
        #expect(model.detailScroll == limit - 1)
    }

    @Test("Filter by team or league; Esc clears")
    func filter() throws {
        var model = try DashboardFixture.model()
        for c in "/bundes" { _ = update(&model, .key(.character(c))) }
        #expect(model.editingFilter)
        #expect(DashboardLayout.layout(model).line(model.height - 1).contains("/bundes"))
        _ = update(&model, .key(.enter))
        #expect(!model.editingFilter)
        #expect(!model.rows.isEmpty)
        #expect(model.rows.allSatisfy { model.store.events[$0]?.event.league == "Bundesliga" })
        #expect(DashboardLayout.layout(model).line(0).contains("filter: bundes"))
        _ = update(&model, .key(.escape))
        #expect(model.filter.isEmpty)
        for c in "/zzzz" { _ = update(&model, .key(.character(c))) }
        #expect(DashboardLayout.layout(model).text.contains("No match"))
    }

    @Test("The filter line edits as a shell's: Ctrl-U clears it, Ctrl-W deletes a word, control characters are not typed")
    func filterEditing() throws {
        var model = try DashboardFixture.model()
        for c in "/premier league" { _ = update(&model, .key(.character(c))) }
        _ = update(&model, .key(.deleteWord))
        #expect(model.filter == "premier ")
        _ = update(&model, .key(.deleteWord))
        #expect(model.filter == "")
        _ = update(&model, .key(.deleteWord))
        #expect(model.filter == "" && model.editingFilter)
        for c in "zzz" { _ = update(&model, .key(.character(c))) }
        _ = update(&model, .key(.clearLine))
        #expect(model.filter == "" && model.editingFilter)
        for c: Character in ["b", "\u{15}", "\u{1B}", "u", "\u{202E}", "\u{7F}", "n", "d"] { _ = update(&model, .key(.character(c))) }
        #expect(model.filter == "bund")
        #expect(DashboardLayout.layout(model).line(model.height - 1).contains("/bund▏"))
        _ = update(&model, .key(.enter))
        #expect(model.rows.allSatisfy { model.store.events[$0]?.event.league == "Bundesliga" })
    }

    @Test("Enter opens the detail pane with every market and the incidents; Esc returns")
    func detail() throws {
        var model = try DashboardFixture.model()
        _ = update(&model, .key(.down))
        let key = try #require(model.selected)
        _ = update(&model, .key(.enter))
        #expect(model.mode == .detail(key))
        let text = DashboardLayout.layout(model).text
        #expect(text.contains("Fulltime Result") && text.contains("Over/Under 2.5 Goals") && text.contains("Both Teams to Score"))
        #expect(text.contains("Incidents"))
        _ = update(&model, .key(.escape))
        #expect(model.mode == .table)
    }

    @Test("Sort cycles through kick-off, league, price move and incident")
    func sort() throws {
        var model = try DashboardFixture.model()
        var seen: [DashboardSort] = [model.sort]
        for _ in 0..<4 { _ = update(&model, .key(.character("s"))); seen.append(model.sort) }
        #expect(seen == [.kickoff, .league, .priceMove, .incident, .kickoff])
        _ = update(&model, .key(.character("s")))
        _ = update(&model, .key(.character("s")))
        // Biggest recent price move first: the one selection that moved.
        let first = try DashboardFixture.events()[0]
        #expect(model.rows.first == EventKey(provider: .tickodds, id: first.id))
        _ = update(&model, .key(.character("s")))
        let scorer = try DashboardFixture.events()[1]
        #expect(model.rows.first == EventKey(provider: .tickodds, id: scorer.id))
    }

    @Test("f pins a favourite on top and asks to save it")
    func favourite() throws {
        var model = try DashboardFixture.model()
        _ = update(&model, .key(.character("G")))
        let last = try #require(model.selected)
        let team = try #require(model.store.events[last]?.event.home)
        let effects = update(&model, .key(.character("f")))
        #expect(effects == [.saveFavourites([team])])
        #expect(model.rows.first == last)
        #expect(DashboardLayout.layout(model).line(2).hasPrefix("★"))
        _ = update(&model, .key(.character("f")))
        #expect(model.favourites.isEmpty)
    }

    @Test("o cycles the odds format everywhere in the table")
    func oddsFormat() throws {
        var model = try DashboardFixture.model()
        // The first row's first price, in both formats (the row's score has a '-' of its own).
        let row = try #require(model.rows.first.flatMap { model.store.events[$0]?.event })
        let price = try #require(row.mainMarket?.selections.first?.price)
        #expect(DashboardLayout.layout(model).line(2).contains(price.formatted(.decimal)))
        _ = update(&model, .key(.character("o")))
        #expect(model.oddsFormat == .american)
        let american = DashboardLayout.layout(model).line(2)
        #expect(american.contains(price.formatted(.american)), "\(american)")
        #expect(!american.contains(price.formatted(.decimal)), "\(american)")
        for _ in 0..<3 { _ = update(&model, .key(.character("o"))) }
        #expect(model.oddsFormat == .decimal)
    }

    @Test("p pauses the view while the store keeps folding updates")
    func pause() throws {
        var model = try DashboardFixture.model()
        _ = update(&model, .key(.character("p")))
        #expect(model.paused)
        let before = DashboardLayout.layout(model).text
        let e = try DashboardFixture.events()[2]
        _ = update(&model, .feed(FeedMessage(provider: .tickodds, receivedAt: DashboardFixture.t0.addingTimeInterval(0.8),
                                             update: .score(eventID: e.id, from: nil, to: Score(home: 7, away: 7)))))
        #expect(model.store.events[EventKey(provider: .tickodds, id: e.id)]?.event.score == Score(home: 7, away: 7))
        #expect(!DashboardLayout.layout(model).text.contains("7-7"))
        #expect(DashboardLayout.layout(model).line(0).contains("PAUSED"))
        _ = update(&model, .key(.character("p")))
        #expect(DashboardLayout.layout(model).text.contains("7-7"))
        #expect(before != DashboardLayout.layout(model).text)
    }

    @Test("? shows the help; any key closes it; q quits")
    func helpAndQuit() throws {
        var model = try DashboardFixture.model()
        _ = update(&model, .key(.character("?")))
        let frame = DashboardLayout.layout(model).text
        // Every line of the help is shown whole at the usual size.
        for line in DashboardLayout.helpLines where !line.isEmpty { #expect(frame.contains(line), "\(line)") }
        _ = update(&model, .key(.character("x")))
        #expect(!model.showHelp)
        #expect(update(&model, .key(.character("q"))) == [.quit])
    }

    @Test("Reconnecting and stopped states show in the header")
    func connectionStates() throws {
        var model = try DashboardFixture.model()
        _ = update(&model, .feed(FeedMessage(provider: .tickodds, receivedAt: DashboardFixture.t0.addingTimeInterval(2),
                                             update: .connection(.reconnecting(seconds: 4, attempt: 2, reason: "dropped")))))
        _ = update(&model, .tick(DashboardFixture.t0.addingTimeInterval(3)))
        #expect(DashboardLayout.layout(model).line(0).contains("reconnecting in 3s (attempt 2)"))
        _ = update(&model, .feed(FeedMessage(provider: .tickodds, receivedAt: DashboardFixture.t0.addingTimeInterval(4),
                                             update: .connection(.stopped(reason: "bad key")))))
        #expect(DashboardLayout.layout(model).line(0).contains("stopped: bad key"))
    }

    @Test("Resizing keeps the selection visible and never crashes", arguments: [(60, 12), (61, 13), (300, 100), (59, 30), (100, 11), (1, 1)])
    func resize(width: Int, height: Int) throws {
        var model = try DashboardFixture.model()
        _ = update(&model, .key(.character("G")))
        _ = update(&model, .resize(width: width, height: height))
        let screen = DashboardLayout.layout(model)
        #expect(screen.width == width && screen.height == height)
        if width >= DashboardLayout.minimumWidth && height >= DashboardLayout.minimumHeight {
            let home = try #require(model.store.events[model.selected!]?.event.home)
            #expect(screen.text.contains(home.prefix(6)))
        }
    }

    @Test("Wide characters take two cells and line up")
    func wideCharacters() {
        var screen = Screen(width: 10, height: 1)
        let end = screen.put("鹿島ab", x: 0, y: 0)
        #expect(end == 6)
        #expect(screen.line(0) == "鹿島ab    ")
        var clipped = Screen(width: 3, height: 1)
        clipped.put("鹿島", x: 0, y: 0)
        #expect(clipped.line(0) == "鹿 ")
    }

    @Test("A cell written to a width is what the padded text wrote: padded either side, cut with …, clipped at the edge")
    func widthCells() {
        for (text, width, right) in [("2.10", 8, true), ("Arsenal", 10, false), ("Wolverhampton", 8, false), ("鹿島ab", 8, true),
                                     ("鹿島アントラーズ", 7, false), ("", 3, false), ("x", 0, false)] {
            var padded = Screen(width: 12, height: 1), direct = Screen(width: 12, height: 1)
            padded.fill(y: 0, attributes: .bold); direct.fill(y: 0, attributes: .bold)
            padded.put(TextWidth.pad(text, to: width, right: right), x: 2, y: 0, attributes: .dim)
            direct.put(text, x: 2, y: 0, attributes: .dim, width: width, right: right)
            #expect(direct.line(0) == padded.line(0) && direct.rows[0].map(\.attributes) == padded.rows[0].map(\.attributes), "\(text)")
        }
        // Past the right edge and on no row: nothing written, nothing broken.
        var edge = Screen(width: 4, height: 1)
        edge.put("long text", x: 3, y: 0, width: 6)
        edge.put("abc", x: 9, y: 0, width: 3, right: true)
        edge.put("abc", x: 0, y: 5, width: 3)
        #expect(edge.line(0) == "   l")
    }
}

/// The dashboard over several providers (issue 20): one row per real match, each provider's state in the header.
@Suite("Dashboard of fused matches", .unitLane)
struct FusedDashboardTests {
    static let t0 = DashboardFixture.t0

    static func event(_ provider: ProviderID, _ id: String, _ home: String, _ away: String, book: String? = nil,
                      prices: [String], incidents: [Incident] = []) -> Event {
        var e = Event(provider: provider, id: id, sport: "soccer", league: "Premier League", home: home, away: away, status: .live,
                      startTime: t0, markets: [Market(id: "ftr", name: "Fulltime Result", book: book, selections: zip([home, "Draw", away], prices).map {
                          Selection(id: $0.0, name: $0.0, price: Price(decimal: $0.1))
                      })])
        e.incidents = incidents
        return e
    }

    static func feed(_ model: inout DashboardModel, _ provider: ProviderID, at seconds: Double, _ update: FeedUpdate) {
        _ = OddsDashboard.update(&model, .feed(FeedMessage(provider: provider, receivedAt: t0.addingTimeInterval(seconds), update: update)))
    }

    static let goal = Incident(kind: .goal, minute: 10, team: .home, player: "Bukayo Saka", detail: "Goal")

    /// TickOdds and BoltOdds, the same Arsenal match under their own names, and a match only TickOdds has.
    static func model() -> DashboardModel {
        var model = DashboardModel(provider: .tickodds, sport: "soccer", demo: true, oddsFormat: .decimal, now: t0,
                                   fusing: [.tickodds, .boltodds])
        model.bookShortNames = ["tickodds": "TickO", "draftkings": "DK", "fanduel": "FD"]
        model.stalenessBounds = [.tickodds: 1_000, .boltodds: 30]
        _ = update(&model, .resize(width: 140, height: 40))
        feed(&model, .tickodds, at: 0, .connection(.live))
        feed(&model, .boltodds, at: 0, .connection(.reconnecting(seconds: 5, attempt: 2, reason: "closed")))
        feed(&model, .tickodds, at: 0, .snapshot([event(.tickodds, "t1", "Arsenal", "Chelsea", prices: ["2.00", "3.40", "3.80"]),
                                                  event(.tickodds, "t2", "Liverpool", "Everton", prices: ["1.50", "4.00", "6.00"])]))
        feed(&model, .boltodds, at: 0.5, .upsert(event(.boltodds, "b1", "Arsenal FC", "Chelsea FC", book: "fanduel", prices: ["2.10", "3.30", "3.90"])))
        _ = update(&model, .tick(t0.addingTimeInterval(1)))
        return model
    }

    @Test("One row per real match: SRC counts its sources, the best price of either names its book, the header shows each provider's state")
    func rows() throws {
        let model = Self.model()
        #expect(model.isFused && model.rows.count == 2)
        let screen = DashboardLayout.layout(model)
        #expect(screen.line(0).contains("tickodds ●") && screen.line(0).contains("boltodds ↻"))
        #expect(screen.line(1).contains("SRC"))
        let arsenal = try #require((2..<6).map(screen.line).first { $0.contains("Arsenal") })
        #expect(arsenal.contains(" 2 ") && arsenal.contains("2.10 FanDuel") && arsenal.contains("3.40 TickO") && arsenal.contains("3.90 FanDuel"), "\(arsenal)")
        let liverpool = try #require((2..<6).map(screen.line).first { $0.contains("Liverpool") })
        #expect(liverpool.contains(" 1 ") && liverpool.contains("1.50 TickO"))
        // Too narrow for every provider's name: counts by state.
        var narrow = model
        _ = update(&narrow, .resize(width: 64, height: 24))
        #expect(DashboardLayout.layout(narrow).line(0).contains("2 feeds: 1 live, 1 reconnecting"))
    }

    @Test("A book's name in the room its cell has: whole when it fits, else its short name (however spelled), else whole words, else initials, else cut")
    func bookLabels() throws {
        let short = ["draftkings": "DK", "fanduel": "FD", "betmgm": "MGM", "williamhill": "WH", "unibet": "UNI"]
        #expect(BookLabel.fit("fanduel", width: 7, short: short) == "fanduel")
        #expect(BookLabel.fit("fanduel", width: 5, short: short) == "FD")
        #expect(BookLabel.fit("DraftKings", width: 9, short: short) == "DK")
        #expect(BookLabel.fit("William Hill US", width: 12, short: short) == "William Hill")
        #expect(BookLabel.fit("betwinnerplus", width: 6, short: short) == "betwin")
        // A book spelled another way than the short names' key (SofaScore's "Bet MGM", "William Hill"); initials
        // before a word cut short.
        #expect(BookLabel.fit("Bet MGM", width: 4, short: short) == "MGM")
        #expect(BookLabel.fit("William Hill", width: 6, short: short) == "WH")
        #expect(BookLabel.fit("Unibet", width: 4, short: short) == "UNI")
        #expect(BookLabel.fit("Paddy Power", width: 4, short: short) == "PP")
        #expect(BookLabel.fit("Paddy Power", width: 1, short: short) == "P")
        #expect(BookLabel.fit("x", width: 0, short: short) == "")
        // In the table: a long price leaves less room, so the same book reads shorter; the grid's header as well.
        var model = Self.model()
        Self.feed(&model, .boltodds, at: 2, .upsert(Self.event(.boltodds, "b1", "Arsenal FC", "Chelsea FC", book: "draftkings",
                                                               prices: ["2.10", "103.50", "3.90"])))
        let screen = DashboardLayout.layout(model)
        let arsenal = try #require((2..<6).map(screen.line).first { $0.contains("Arsenal") })
        #expect(arsenal.contains("2.10 DK") && arsenal.contains("103.50 DK"), "\(arsenal)")
        for key in "/Arsenal" { _ = update(&model, .key(.character(key))) }
        _ = update(&model, .key(.enter))
        _ = update(&model, .key(.enter))
        let header = try #require((0..<40).map(DashboardLayout.layout(model).line).first { $0.contains("TickOdds") && $0.contains("DK") })
        #expect(!header.contains("draftking"))
    }

    @Test("A richer telling from the first source, after another's, is not news again: one ticker line per incident")
    func incidentToldTwiceInTheOtherOrder() throws {
        var model = Self.model()
        let bare = Incident(kind: .substitution, minute: 66, team: .home, detail: "Substitution")
        var rich = Incident(kind: .substitution, minute: 67, team: .home, player: "Cole Palmer", detail: "Substitution")
        rich.playerOut = "Raheem Sterling"
        // BoltOdds (the second source) tells it first; TickOdds (the first, whose telling is kept) a second later.
        Self.feed(&model, .boltodds, at: 2, .upsert(Self.event(.boltodds, "b1", "Arsenal FC", "Chelsea FC", book: "fanduel",
                                                               prices: ["2.10", "3.30", "3.90"], incidents: [bare])))
        Self.feed(&model, .tickodds, at: 3, .upsert(Self.event(.tickodds, "t1", "Arsenal", "Chelsea", prices: ["2.00", "3.40", "3.80"], incidents: [rich])))
        let told = model.ticker.filter { $0.incident?.kind == .substitution }
        #expect(told.count == 1, "\(told.map { $0.incident!.headline })")
        // A second substitution of the same side and minute from the same source is news.
        var another = rich
        another.player = "Kai Havertz"
        Self.feed(&model, .tickodds, at: 4, .upsert(Self.event(.tickodds, "t1", "Arsenal", "Chelsea", prices: ["2.00", "3.40", "3.80"], incidents: [rich, another])))
        #expect(model.ticker.filter { $0.incident?.kind == .substitution }.count == 2)
    }

    @Test("MOVE of a fused row: its sources' own prices moved (the fused match result is read back to each source's ids)")
    func fusedMove() throws {
        var model = Self.model()
        // Arsenal drifts at FanDuel: 2.10 to 2.52, 20 % longer, the best price of the 1 column.
        Self.feed(&model, .boltodds, at: 2, .upsert(Self.event(.boltodds, "b1", "Arsenal FC", "Chelsea FC", book: "fanduel", prices: ["2.52", "3.30", "3.90"])))
        _ = update(&model, .tick(Self.t0.addingTimeInterval(3)))
        let screen = DashboardLayout.layout(model)
        #expect(screen.line(1).contains("MOVE"))
        let arsenal = try #require((2..<6).map(screen.line).first { $0.contains("Arsenal") })
        #expect(arsenal.contains("1▲20%"), "\(arsenal)")
        // The detail pane's lines: the fused result's rows draw what each source sent.
        let row = try #require(model.rows.first { model.shown.events[$0]?.event.home.hasPrefix("Arsenal") == true })
        let event = try #require(model.shown.events[row]?.event)
        let market = try #require(event.markets.first { $0.id == "result" && $0.book == "fanduel" })
        let trail = try #require(model.trailKey(row, market, selection: "home"))
        #expect(trail.market == "ftr" && trail.selection == "Arsenal FC" && model.trails.points(trail).count == 2, "\(trail)")
    }

    @Test("The detail pane: each source with its own names and age, a grid of selections × sources, the best bold")
    func detail() throws {
        var model = Self.model()
        for key in "/Arsenal" { _ = update(&model, .key(.character(key))) }
        _ = update(&model, .key(.enter))
        _ = update(&model, .key(.enter))
        let screen = DashboardLayout.layout(model)
        let text = (0..<40).map(screen.line).joined(separator: "\n")
        #expect(text.contains("fused m") && text.contains("tickodds") && text.contains("Arsenal FC v Chelsea FC [b1]"))
        let header = try #require((0..<40).map(screen.line).first { $0.contains("FanDuel") })
        #expect(header.contains("TickOdds"))
        #expect(text.contains("age"))
        let home = try #require((0..<40).first { screen.line($0).contains("  Arsenal ") && screen.line($0).contains("2.10") })
        let cell = screen.line(home).range(of: "2.10")!
        let x = screen.line(home).distance(from: screen.line(home).startIndex, to: cell.lowerBound)
        #expect(screen.rows[home][x].attributes.contains(.bold))
    }

    @Test("An incident both sources tell is one ticker line; a stale source's prices never win, and come back when it does")
    func incidentsAndStaleness() throws {
        var model = Self.model()
        Self.feed(&model, .tickodds, at: 2, .incident(eventID: "t1", Self.goal))
        #expect(model.ticker.count == 1)
        Self.feed(&model, .boltodds, at: 3, .upsert(Self.event(.boltodds, "b1", "Arsenal FC", "Chelsea FC", book: "fanduel",
                                                               prices: ["2.10", "3.30", "3.90"], incidents: [Self.goal])))
        #expect(model.ticker.count == 1)
        let row = try #require(model.rows.first { model.shown.events[$0]?.event.home.hasPrefix("Arsenal") == true })
        func bestHome() -> String? { model.shown.events[row]?.event.bestPrices(marketID: FusedMatch.resultMarketID)[SelectionRef(id: "home", line: nil)]?.price.text }
        #expect(bestHome() == "2.10")
        // BoltOdds silent past its 30 s: its prices are suspended; TickOdds' stand.
        _ = update(&model, .tick(Self.t0.addingTimeInterval(60)))
        #expect(bestHome() == "2.00")
        Self.feed(&model, .boltodds, at: 61, .heartbeat)
        _ = update(&model, .tick(Self.t0.addingTimeInterval(61.5)))
        #expect(bestHome() == "2.10")
    }

    @Test("A dashboard of one provider fuses when a second provider's messages arrive (a recording of several)")
    func fusesOnASecondProvider() throws {
        var model = DashboardModel(provider: .tickodds, sport: "soccer", demo: false, oddsFormat: .decimal, now: Self.t0)
        _ = update(&model, .resize(width: 140, height: 40))
        Self.feed(&model, .tickodds, at: 0, .snapshot([Self.event(.tickodds, "t1", "Arsenal", "Chelsea", prices: ["2.00", "3.40", "3.80"])]))
        #expect(!model.isFused && model.rows.count == 1)
        Self.feed(&model, .boltodds, at: 1, .upsert(Self.event(.boltodds, "b1", "Arsenal", "Chelsea", book: "fanduel", prices: ["2.10", "3.30", "3.90"])))
        #expect(model.isFused && model.rows.count == 1)
        #expect(model.shown.events[model.rows[0]]?.event.match?.sources.count == 2)
        // A source gone leaves its match; the last one gone, the row goes.
        Self.feed(&model, .boltodds, at: 2, .remove(eventID: "b1"))
        #expect(model.shown.events[model.rows[0]]?.event.match?.sources.count == 1)
        Self.feed(&model, .tickodds, at: 3, .remove(eventID: "t1"))
        #expect(model.rows.isEmpty)
    }
}

/// Value mode (issue 21): `v` adds MARGIN, marks prices whose EV passes the threshold, flags arbitrage, and
/// gives the detail pane each book's margin, the fair prices and each price's EV.
@Suite("Dashboard value mode", .unitLane)
struct DashboardValueTests {
    static let t0 = DashboardFixture.t0

    /// A basketball game from three books of one provider.
    static func game(_ books: [(String, [String])]) -> Event {
        Event(provider: .boltodds, id: "g1", sport: "basketball", league: "NBA", home: "Home FC", away: "Away FC", status: .live,
              startTime: t0, markets: books.map { book, prices in
                  Market(id: "ml", name: "Match Winner", book: book, selections: zip(["Home FC", "Away FC"], prices).map {
                      Selection(id: $0.0, name: $0.0, price: Price(decimal: $0.1))
                  })
              })
    }

    static func model(_ books: [(String, [String])]) -> DashboardModel {
        var model = DashboardModel(provider: .boltodds, sport: "basketball", demo: true, oddsFormat: .decimal, now: t0)
        _ = update(&model, .resize(width: 140, height: 30))
        _ = update(&model, .feed(FeedMessage(provider: .boltodds, receivedAt: t0, update: .connection(.live))))
        _ = update(&model, .feed(FeedMessage(provider: .boltodds, receivedAt: t0, update: .snapshot([game(books)]))))
        _ = update(&model, .tick(t0.addingTimeInterval(1)))
        return model
    }

    static func row(_ screen: Screen) throws -> (Int, String) {
        let y = try #require((2..<10).first { screen.line($0).contains("Home FC") })
        return (y, screen.line(y))
    }

    @Test("v: MARGIN of the prices shown, the price with positive EV marked, off again with v")
    func table() throws {
        // Consensus of three books: a 0.5/0.5, b 0.4675/0.5325, c 0.5/0.5; medians 0.5 each: fair 2.00 / 2.00.
        var model = Self.model([("a", ["1.91", "1.91"]), ("b", ["2.05", "1.80"]), ("c", ["1.95", "1.95"])])
        #expect(!DashboardLayout.layout(model).line(1).contains("MARGIN"))
        _ = update(&model, .key(.character("v")))
        let screen = DashboardLayout.layout(model)
        #expect(screen.line(1).contains("MARGIN"))
        let (y, line) = try Self.row(screen)
        // 1/2.05 + 1/1.95 − 1 = 0.000625…: 0.06 %.
        #expect(line.contains("0.06%"))
        // 2.05 × 0.5 − 1 = +2.5 %: marked; 1.95 × 0.5 − 1 is negative: not.
        #expect(line.contains("2.05 B+") && line.contains("1.95 C "), "\(line)")
        let x = line.distance(from: line.startIndex, to: line.range(of: "2.05")!.lowerBound)
        #expect(screen.rows[y][x].attributes.contains(.cyan))
        // A threshold above 2.5 % marks nothing.
        var strict = model
        strict.minEV = Fraction(decimalText: "0.03")!
        #expect(!(try Self.row(DashboardLayout.layout(strict)).1.contains("2.05 b+")))
        _ = update(&model, .key(.character("v")))
        #expect(!DashboardLayout.layout(model).line(1).contains("MARGIN"))
    }

    @Test("A row with an arbitrage on fresh prices is flagged with its profit; stale prices flag nothing")
    func arbitrage() throws {
        var model = Self.model([("a", ["1.91", "1.91"]), ("b", ["2.05", "1.80"]), ("c", ["1.95", "2.00"])])
        _ = update(&model, .key(.character("v")))
        // 1/2.05 + 1/2.00 = 0.98780…; profit 1/0.98780… − 1 = 1.23 %.
        #expect(try Self.row(DashboardLayout.layout(model)).1.contains("ARB 1.23%"))
        // 20 s later in play (max age 10 s) no price is fresh: no arbitrage, no EV, the shown margin stays.
        _ = update(&model, .tick(Self.t0.addingTimeInterval(20)))
        let line = try Self.row(DashboardLayout.layout(model)).1
        #expect(!line.contains("ARB") && line.contains("-1.22%") && !line.contains("2.05 b+"))
    }

    @Test("The detail pane in value mode: each book's margin, the fair price per selection, EV per cell")
    func detail() throws {
        var model = Self.model([("a", ["1.91", "1.91"]), ("b", ["2.05", "1.80"]), ("c", ["1.95", "1.95"])])
        _ = update(&model, .key(.character("v")))
        _ = update(&model, .key(.enter))
        let screen = DashboardLayout.layout(model)
        let lines = (0..<30).map(screen.line)
        let margin = try #require(lines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("margin") })
        // a: 2/1.91 − 1 = 4.71 %; b: 1/2.05 + 1/1.80 − 1 = 4.34 %; c: 2/1.95 − 1 = 2.56 %.
        #expect(margin.contains("4.71%") && margin.contains("4.34%") && margin.contains("2.56%"))
        let home = try #require(lines.first { $0.contains("Home FC") && $0.contains("2.05") })
        #expect(home.contains("2.00") && home.contains("2.05 +2.50%") && home.contains("1.91 -4.50%") && home.contains("1.95 -2.50%"))
        let away = try #require(lines.first { $0.contains("Away FC") && $0.contains("1.80") })
        #expect(away.contains("1.80 -10.00%"))
    }
}
