import Foundation
@testable import OddsCLI
@testable import OddsDashboard
import OddsModel
import OddsStore
import OddsTestSupport
import Testing

/// What the dashboard keeps of each price since it started: lines in the detail pane, incidents on them, the
/// prices around each incident, and the table's MOVE column; bounded in memory.
@Suite("Dashboard price trails", .unitLane)
struct DashboardTrailTests {
    static let t0 = DashboardFixture.t0
    static let key = PriceTrails.Key(event: EventKey(provider: .tickodds, id: "1"), market: "m", book: "", selection: "home")

    static func price(_ text: String?, suspended: Bool = false) -> FeedUpdate { price("1", text, suspended: suspended) }

    static func price(_ event: String, _ text: String?, suspended: Bool = false) -> FeedUpdate {
        .price(PriceUpdate(eventID: event, marketID: "m", marketName: "Match", book: nil,
                           selection: Selection(id: "home", name: "Home", price: text.flatMap(Price.init(decimal:)), suspended: suspended)))
    }

    @Test("A line keeps its open and reaches back to it when full; a price sent again is not a point")
    func bounded() {
        var trails = PriceTrails()
        trails.record(Self.price("2.00"), provider: .tickodds, at: Self.t0)
        trails.record(Self.price("2.00"), provider: .tickodds, at: Self.t0.addingTimeInterval(1))
        #expect(trails.points(Self.key).count == 1)
        for i in 1...500 {
            trails.record(Self.price(i % 2 == 0 ? "2.10" : "2.20"), provider: .tickodds, at: Self.t0.addingTimeInterval(Double(i)))
        }
        trails.record(Self.price(nil, suspended: true), provider: .tickodds, at: Self.t0.addingTimeInterval(600))
        let points = trails.points(Self.key)
        #expect(points.count <= PriceTrails.pointsPerSelection)
        #expect(points.first == PriceTrails.Point(at: Self.t0, odds: 2.0))
        #expect(points.last == PriceTrails.Point(at: Self.t0.addingTimeInterval(600), odds: nil))
        #expect(points.map(\.at) == points.map(\.at).sorted())
    }

    @Test("No more than so many selections: those not changed lately go first")
    func selectionsBounded() {
        var trails = PriceTrails()
        for i in 0..<(PriceTrails.maxSelections + 100) {
            trails.record(Self.price(String(i), "2.00"), provider: .tickodds, at: Self.t0.addingTimeInterval(Double(i)))
        }
        #expect(trails.count <= PriceTrails.maxSelections)
        #expect(trails.points(PriceTrails.Key(event: EventKey(provider: .tickodds, id: "0"), market: "m", book: "", selection: "home")).isEmpty)
        let newest = String(PriceTrails.maxSelections + 99)
        #expect(!trails.points(PriceTrails.Key(event: EventKey(provider: .tickodds, id: newest), market: "m", book: "", selection: "home")).isEmpty)
    }

    @Test("An event sent whole again: only its selections whose price moved are recorded, its markets found wherever they are")
    func wholeEventAgain() {
        var store = LiveStore()
        var trails = PriceTrails()
        var e = FusedDashboardTests.event(.tickodds, "t1", "Arsenal", "Chelsea", prices: ["2.00", "3.40", "3.80"])
        e.markets.append(Market(id: "ou", name: "Over/Under 2.5", book: nil, selections: [
            Selection(id: "over", name: "Over", price: Price(decimal: "1.90")), Selection(id: "under", name: "Under", price: Price(decimal: "1.95")),
        ]))
        func send(_ e: Event, at s: Double) {
            let m = FeedMessage(provider: .tickodds, receivedAt: Self.t0.addingTimeInterval(s), update: .upsert(e))
            trails.record(m.update, provider: .tickodds, at: m.receivedAt, held: store)
            store.apply(m)
        }
        func points(_ market: Int, _ selection: Int) -> [PriceTrails.Point] {
            trails.points(PriceTrails.Key(event: EventKey(provider: .tickodds, id: "t1"), market: e.markets[market],
                                          selection: e.markets[market].selections[selection].id))
        }
        // First sight: every selection.
        send(e, at: 0)
        #expect(trails.count == 5 && points(1, 1) == [PriceTrails.Point(at: Self.t0, odds: 1.95)])
        // Every line let go (other selections' changes fill the bound).
        for i in 0..<PriceTrails.maxSelections {
            trails.record(Self.price("other\(i)", "2.00"), provider: .tickodds, at: Self.t0.addingTimeInterval(1))
        }
        #expect(points(0, 0).isEmpty && points(1, 0).isEmpty)
        // Sent again unchanged, its markets in another order: nothing is recorded again.
        var reordered = e
        reordered.markets.reverse()
        send(reordered, at: 2)
        #expect((0..<3).allSatisfy { points(0, $0).isEmpty } && (0..<2).allSatisfy { points(1, $0).isEmpty })
        // One price moved, one selection suspended, one price rewritten with the same value: those three, no others.
        e.markets[0].selections[1].price = Price(decimal: "3.50")
        e.markets[1].selections[0].suspended = true
        e.markets[1].selections[1].price = Price(decimal: "1.950")
        send(e, at: 3)
        let at3 = Self.t0.addingTimeInterval(3)
        #expect(points(0, 1) == [PriceTrails.Point(at: at3, odds: 3.5)])
        #expect(points(1, 0) == [PriceTrails.Point(at: at3, odds: nil)])
        #expect(points(1, 1) == [PriceTrails.Point(at: at3, odds: 1.95)] && trails.lastOpen(PriceTrails.Key(
            event: EventKey(provider: .tickodds, id: "t1"), market: e.markets[1], selection: "under"))?.text == "1.950")
        #expect(points(0, 0).isEmpty && points(0, 2).isEmpty)
    }

    @Test("The price after a goal is the line's first change with a price open: the suspension on the goal is passed over")
    func afterSuspension() {
        var trails = PriceTrails()
        let row = Self.key.event
        let goal = Incident(kind: .goal, minute: 5, team: .home, detail: "Goal")
        let open = ["2.20", "3.30", "3.10"].map(Price.init(decimal:)), reopened = ["1.40", "4.50", "7.00"].map(Price.init(decimal:))
        trails.mark(goal, row: row, at: Self.t0, prices: open)
        trails.mainLine(row, [nil, nil, nil], at: Self.t0.addingTimeInterval(1))
        #expect(trails.awaitsChange(row) && trails.marks[row]?.first?.after == nil)
        trails.mainLine(row, reopened, at: Self.t0.addingTimeInterval(3))
        #expect(trails.marks[row]?.first?.after == reopened && !trails.awaitsChange(row))
    }

    @Test("The price before a goal that arrives with the line suspended is its last price seen open, cell by cell")
    func beforeSuspension() throws {
        var model = try DashboardFixture.model()
        let e = try DashboardFixture.events()[2]
        let main = try #require(e.mainMarket)
        let row = EventKey(provider: .tickodds, id: e.id)
        let open = model.mainPrices(row)
        #expect(open.count == 3 && open.allSatisfy { $0 != nil })
        // The book suspends the line on the goal before the feed tells of it, and keeps the draw's price a moment.
        for (i, selection) in main.selections.enumerated() where i != 1 {
            var s = selection
            s.suspended = true
            _ = update(&model, .feed(FeedMessage(provider: .tickodds, receivedAt: Self.t0.addingTimeInterval(2), update:
                .price(PriceUpdate(eventID: e.id, marketID: main.id, marketName: main.name, book: main.book, selection: s)))))
        }
        #expect(model.mainPrices(row).compactMap { $0 }.count == 1)
        _ = update(&model, .feed(FeedMessage(provider: .tickodds, receivedAt: Self.t0.addingTimeInterval(3), update:
            .incident(eventID: e.id, Incident(kind: .goal, minute: 12, team: .away, player: "A. Player", detail: "Goal")))))
        let mark = try #require(model.trails.marks[row]?.last)
        #expect(mark.before.map { $0?.text } == open.map { $0?.text }, "\(mark.before)")
        #expect(mark.after == nil && model.trails.awaitsChange(row))
        // The goal ruled out: the line reopens at the prices it had. That is the price after, though no price moved.
        _ = update(&model, .feed(FeedMessage(provider: .tickodds, receivedAt: Self.t0.addingTimeInterval(4), update: .upsert(e))))
        let reopened = try #require(model.trails.marks[row]?.last)
        #expect(reopened.after?.map { $0?.text } == open.map { $0?.text }, "\(String(describing: reopened.after))")
    }

    @Test("A fused row's price before a goal with its line suspended is its source's last price seen open")
    func beforeSuspensionFused() throws {
        var model = FusedDashboardTests.model()
        let prices = ["1.50", "4.00", "6.00"]
        var suspended = FusedDashboardTests.event(.tickodds, "t2", "Liverpool", "Everton", prices: prices)
        for i in suspended.markets[0].selections.indices { suspended.markets[0].selections[i].suspended = true }
        FusedDashboardTests.feed(&model, .tickodds, at: 2, .upsert(suspended))
        FusedDashboardTests.feed(&model, .tickodds, at: 3, .incident(eventID: "t2", FusedDashboardTests.goal))
        let row = try #require(model.rows.first { model.shown.events[$0]?.event.home == "Liverpool" })
        #expect(model.mainPrices(row).allSatisfy { $0 == nil })
        let mark = try #require(model.trails.marks[row]?.last)
        #expect(mark.before.map { $0?.text } == prices, "\(mark.before)")
    }

    @Test("What a history kept goes in front of each line, bounded as always; earlier incidents before the row's own")
    func seeded() {
        var trails = PriceTrails()
        trails.record(Self.price("2.00"), provider: .tickodds, at: Self.t0.addingTimeInterval(1000))
        let stored = (0..<100).map { PriceTrails.Point(at: Self.t0.addingTimeInterval(Double($0)), odds: 3.0 + Double($0 % 7) / 10) }
        let goal = Incident(kind: .goal, minute: 5, team: .home, detail: "Goal")
        let row = Self.key.event
        trails.mark(goal, row: row, at: Self.t0.addingTimeInterval(1001), prices: [])
        trails.seed(row, TrailSeed(points: [Self.key: stored + [PriceTrails.Point(at: Self.t0.addingTimeInterval(1000), odds: 2.0)]],
                                   marks: [PriceTrails.Mark(at: Self.t0.addingTimeInterval(50), incident: goal, before: [], after: nil)]))
        let points = trails.points(Self.key)
        #expect(points.count == PriceTrails.pointsPerSelection)
        #expect(points.first == stored.first && points.last == PriceTrails.Point(at: Self.t0.addingTimeInterval(1000), odds: 2.0))
        #expect(trails.marks[row]?.map(\.at) == [Self.t0.addingTimeInterval(50), Self.t0.addingTimeInterval(1001)])
    }

    @Test("A sparkline leaves blank the cells no writer watched; a price changed within a gap shows from its change")
    func sparklineUnwatched() {
        let t0 = Self.t0
        let points = [PriceTrails.Point(at: t0, odds: 2.0), PriceTrails.Point(at: t0.addingTimeInterval(50), odds: 3.0),
                      PriceTrails.Point(at: t0.addingTimeInterval(70), odds: 2.5)]
        let whole = DashboardLayout.sparkline(points, from: t0, to: t0.addingTimeInterval(100), width: 10)
        #expect(whole == "▁▁▁▁██▅▅▅▅")
        let gap = [t0.addingTimeInterval(20)...t0.addingTimeInterval(50)]
        #expect(DashboardLayout.sparkline(points, from: t0, to: t0.addingTimeInterval(100), width: 10, unwatched: gap) == "▁   ██▅▅▅▅")
        var trails = PriceTrails()
        trails.seed(Self.key.event, TrailSeed(points: [:], marks: [], unwatched: [Self.key.event: gap]))
        #expect(trails.unwatched(Self.key.event) == gap && trails.unwatched(EventKey(provider: .boltodds, id: "x")).isEmpty)
    }

    @Test("A move since the open, or over a window")
    func moves() throws {
        var trails = PriceTrails()
        for (s, text) in [(0.0, "2.00"), (100, "2.50"), (200, "2.40")] {
            trails.record(Self.price(text), provider: .tickodds, at: Self.t0.addingTimeInterval(s))
        }
        let now = Self.t0.addingTimeInterval(250)
        #expect(abs(try #require(trails.move(Self.key, window: nil, now: now)) - 0.2) < 1e-9)
        // Over the last 120 s: from 2.50 (the price 120 s ago) to 2.40.
        #expect(abs(try #require(trails.move(Self.key, window: 120, now: now)) - (2.4 / 2.5 - 1)) < 1e-9)
    }

    @Test("The detail pane: each selection's line since the dashboard saw it, the goal marked, the prices around it")
    func detailPane() throws {
        var model = try DashboardFixture.model()
        let events = try DashboardFixture.events()
        let scorer = events[1]
        let main = scorer.mainMarket!
        // After the goal the home side shortens: the first change after it.
        var home = main.selections[0]
        home.price = Price(decimal: "1.40")
        _ = update(&model, .feed(FeedMessage(provider: .tickodds, receivedAt: Self.t0.addingTimeInterval(30), update:
            .price(PriceUpdate(eventID: scorer.id, marketID: main.id, marketName: main.name, book: main.book, selection: home)))))
        _ = update(&model, .tick(Self.t0.addingTimeInterval(60)))
        let row = EventKey(provider: .tickodds, id: scorer.id)
        let marks = try #require(model.trails.marks[row])
        // The goal came with the draw on offer; the first change after it suspended the draw (the fixture's
        // next message), not the later 1.40.
        let mark = try #require(marks.first)
        #expect(marks.count == 1 && mark.before.count == 3 && mark.before[1] != nil)
        #expect(mark.after.map { $0[1] == nil && $0[0]?.text == main.selections[0].price?.text } == true, "\(mark)")

        while model.selected != row { _ = update(&model, .key(.down)) }
        _ = update(&model, .key(.enter))
        let text = DashboardLayout.layout(model, width: 120, height: 60).text
        // Without a history, all of it is what this dashboard saw.
        #expect(text.contains("lines: since") && text.contains(", as this dashboard saw them;"))
        #expect(text.contains("Prices around incidents (as this dashboard saw them)"))
        #expect(text.contains("X -  2"), "\(text)")
        // The home line: long, then short after the goal; the goal's G on the ruler above the lines.
        let lines = text.split(separator: "\n")
        let homeLine = try #require(lines.first { $0.contains(selectionLabel(home)) && $0.contains("1.40") })
        #expect(homeLine.contains("█") && homeLine.contains("▁"), "\(homeLine)")
        #expect(lines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("G") })
    }

    @Test("A fused row's detail pane: each selection's line beside its grid of books, the best price's")
    func detailPaneFused() throws {
        var model = FusedDashboardTests.model()
        // TickOdds' Arsenal price drifts, then shortens: the best price's line (TickOdds' own) moves both ways.
        for (s, home) in [(2.0, "2.20"), (3.0, "2.30"), (4.0, "2.25")] {
            FusedDashboardTests.feed(&model, .tickodds, at: s, .upsert(FusedDashboardTests.event(.tickodds, "t1", "Arsenal", "Chelsea",
                                                                                                   prices: [home, "3.40", "3.80"])))
        }
        _ = update(&model, .tick(Self.t0.addingTimeInterval(5)))
        let row = try #require(model.rows.first { model.shown.events[$0]?.event.home == "Arsenal" })
        #expect(model.shown.events[row]?.event.match != nil)
        while model.selected != row { _ = update(&model, .key(.down)) }
        _ = update(&model, .key(.enter))
        let lines = DashboardLayout.layout(model, width: 140, height: 40).text.split(separator: "\n")
        let home = try #require(lines.first { $0.contains("Arsenal") && $0.contains("2.25") }, "\(lines)")
        #expect(home.contains("█") && home.contains("▁"), "\(home)")
        // Before the books: a grid wider than the screen still shows it.
        let spark = try #require(home.firstIndex(of: "█")), price = try #require(home.range(of: "2.25"))
        #expect(spark < price.lowerBound, "\(home)")
        #expect(lines.contains { $0.contains("the best's line") && $0.contains("TickOdds") })
        // The draw never moved: a flat line, still drawn.
        let draw = try #require(lines.first { $0.contains("Draw") && $0.contains("3.40") })
        #expect(draw.contains("▄"), "\(draw)")
        // A spread's away side by meaning has an unsigned line: shown with its sign, as books write it.
        var bolt = FusedDashboardTests.event(.boltodds, "b1", "Arsenal FC", "Chelsea FC", book: "fanduel", prices: ["2.10", "3.30", "3.90"])
        bolt.markets.append(Market(id: "Spread", name: "Spread", book: "fanduel", selections: [
            Selection(id: "h", name: "Arsenal FC", line: "-0.5", price: Price(decimal: "2.05")),
            Selection(id: "a", name: "Chelsea FC", line: "+0.5", price: Price(decimal: "1.80")),
        ]))
        FusedDashboardTests.feed(&model, .boltodds, at: 5, .upsert(bolt))
        let grid = DashboardLayout.detailLines(model, key: row).map { $0.map(\.0).joined() }
        #expect(grid.contains { $0.contains("Chelsea FC +0.5") && $0.contains("1.80") }, "\(grid)")
        #expect(!grid.contains { $0.contains("Chelsea FC 0.5") })
        #expect(grid.contains { $0.contains("Arsenal FC -0.5") })
    }

    func selectionLabel(_ s: Selection) -> String { DashboardLayout.selectionName(s) }

    @Test("The MOVE column: the biggest change of the row's 1 / X / 2, over --move-window when given")
    func moveColumn() throws {
        var model = try DashboardFixture.model(width: 120)
        #expect(DashboardLayout.layout(model).text.contains("1▼8.9%"))
        // Over the last 0.2 s the move (0.5 s after the open, now 1 s) is out of the window.
        model.moveWindow = 0.2
        #expect(!DashboardLayout.layout(model).text.contains("1▼8.9%"))
        // Tenths below ten per cent, whole per cents above.
        #expect([0.089, 0.0994, 0.0996, 0.2, 9.95, 0].map(DashboardLayout.percentText) == ["8.9%", "9.9%", "10%", "20%", "995%", "0.0%"])
        // Narrow terminals keep their columns.
        let narrow = try DashboardFixture.model(width: 80, height: 24)
        #expect(!DashboardLayout.layout(narrow).text.contains("MOVE"))
    }

    @Test("--move-window takes a duration")
    func moveWindowOption() throws {
        #expect(throws: (any Error).self) { try Dash.parse(["--move-window", "soon"]) }
        #expect(throws: (any Error).self) { try Dash.parse(["--move-window", "0"]) }
        #expect(try Dash.parse(["--move-window", "5m"]).moveWindow == "5m")
    }
}
