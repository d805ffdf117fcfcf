import Foundation
@testable import OddsDashboard
import OddsModel
import OddsStore
import OddsTestSupport
import Testing

/// The dashboard at scale: the table's order kept as events change (not sorted every frame), and frames
/// drawn only when something on screen changed.
@Suite("Dashboard at scale", .unitLane)
struct DashboardScaleTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static let leagues = ["Premier League", "La Liga", "NBA", "Serie A", "ATP"]

    static func event(_ i: Int, started: Bool) -> Event {
        let sport = i % 5 == 2 ? "basketball" : i % 5 == 4 ? "tennis" : "soccer"
        return Event(provider: .tickodds, id: "e\(i)", sport: sport, league: leagues[i % leagues.count],
                     home: "Home \(i % 37)", away: "Away \(i)", status: .live,
                     startTime: started ? t0.addingTimeInterval(Double((i * 7919) % 5000)) : nil,
                     clock: started ? nil : "\((i * 13) % 90):00",
                     markets: [Market(id: "ftr", name: "Fulltime Result", selections: [
                         Selection(id: "home", name: "Home", price: Price(decimal: "2.10")),
                         Selection(id: "draw", name: "Draw", price: Price(decimal: "3.30")),
                         Selection(id: "away", name: "Away", price: Price(decimal: "3.60")),
                     ])])
    }

    static func model(events n: Int, height: Int = 40) -> DashboardModel {
        var model = DashboardModel(provider: .tickodds, sport: "all", demo: true, oddsFormat: .decimal, now: t0)
        _ = update(&model, .resize(width: 160, height: height))
        _ = update(&model, .feed(FeedMessage(provider: .tickodds, receivedAt: t0, update: .connection(.live))))
        _ = update(&model, .feed(FeedMessage(provider: .tickodds, receivedAt: t0, update:
            .snapshot((0..<n).map { event($0, started: $0 % 3 != 0) }))))
        return model
    }

    /// The order the table must show, worked out from nothing: favourites first, then the sort's value, then
    /// sport (not under the league sort), league, home team and key.
    static func expected(_ model: DashboardModel) -> [EventKey] {
        let needle = model.filter.lowercased()
        let rows = model.shown.events.filter { _, s in
            needle.isEmpty || s.event.home.lowercased().contains(needle) || (s.event.away?.lowercased().contains(needle) ?? false)
                || (s.event.league?.lowercased().contains(needle) ?? false)
        }
        func favourite(_ e: Event) -> Bool { model.favourites.contains(e.home) || (e.away.map(model.favourites.contains) ?? false) }
        func primary(_ s: EventState) -> Double {
            switch model.sort {
            case .kickoff: return s.event.startTime.map { $0.timeIntervalSince1970 - 1e12 } ?? -Double(s.event.minute ?? -1)
            case .league: return 0
            case .priceMove: return -DashboardModel.biggestMove(s, now: model.now)
            case .incident: return -(s.lastIncidentAt ?? .distantPast).timeIntervalSince1970
            }
        }
        let decorated = rows.map { key, s in
            (favourite(s.event), primary(s), model.sort == .league ? "" : s.event.sport, s.event.league ?? "", s.event.home, key)
        }
        return decorated.sorted { x, y in
            if x.0 != y.0 { return x.0 }
            if x.1 != y.1 { return x.1 < y.1 }
            if x.2 != y.2 { return x.2 < y.2 }
            if x.3 != y.3 { return x.3 < y.3 }
            if x.4 != y.4 { return x.4 < y.4 }
            return x.5 < y.5
        }.map(\.5)
    }

    @Test("The kept order is the order worked out from nothing after every kind of change, and price changes never sort again")
    func keptOrder() throws {
        var model = Self.model(events: 300)
        var random = SeededRandom(seed: 23)
        var now = Self.t0
        var next = 300
        #expect(model.rows == Self.expected(model))
        #expect(model.rowIndex.rebuilds == 1)
        for step in 0..<400 {
            now = now.addingTimeInterval(0.05)
            let id = "e\(Int.random(in: 0..<next, using: &random))"
            let roll = Int.random(in: 0..<100, using: &random)
            let rebuildsBefore = model.rowIndex.rebuilds
            func feed(_ u: FeedUpdate) { _ = update(&model, .feed(FeedMessage(provider: .tickodds, receivedAt: now, update: u))) }
            switch roll {
            case 0..<60:
                let which = ["home", "draw", "away"][roll % 3]
                feed(.price(PriceUpdate(eventID: id, marketID: "ftr", marketName: "Fulltime Result",
                                        selection: Selection(id: which, name: which, price: Price(decimal: "\(2 + roll % 5).\(10 + roll)")))))
                // Under the kick-off and league sorts a price never moves a row: the order is not made again.
                if model.sort == .kickoff || model.sort == .league { #expect(model.rowIndex.rebuilds == rebuildsBefore) }
            case 60..<70:
                feed(.scoreboard(Scoreboard(eventID: id, clock: "\(roll):00")))
            case 70..<74:
                feed(.incident(eventID: id, Incident(kind: .goal, minute: roll, team: .home, player: "P", detail: "Goal")))
            case 74..<78:
                feed(.upsert(Self.event(next, started: roll % 2 == 0)))
                next += 1
            case 78..<81:
                feed(.remove(eventID: id))
            case 81..<84:
                _ = update(&model, .key(.character("f")))
            case 84..<86:
                _ = update(&model, .key(.character("s")))
            case 86..<88:
                for key in [Key.character("/"), .character("1"), .enter] { _ = update(&model, .key(key)) }
            case 88..<90:
                _ = update(&model, .key(.escape))
            case 90..<92:
                _ = update(&model, .key(.character("p")))
            case 92..<96:
                _ = update(&model, .key([Key.down, .pageDown, .up, .character("g")][roll % 4]))
            default:
                now = now.addingTimeInterval(1)
                _ = update(&model, .tick(now))
            }
            // Under the price-move sort, moves age: the order is made again each second, on a tick.
            if model.sort == .priceMove {
                now = now.addingTimeInterval(1)
                _ = update(&model, .tick(now))
            }
            let rows = model.rows, expected = Self.expected(model)
            let differs = rows.count != expected.count ? min(rows.count, expected.count) : rows.indices.first { rows[$0] != expected[$0] }
            #expect(differs == nil, "step \(step), roll \(roll), sort \(model.sort): \(rows.count) rows, \(expected.count) expected, first difference at \(differs ?? -1)")
            if let selected = model.selected {
                // The selection stays on screen: the rows the model calls visible are the rows the table draws.
                let i = try #require(rows.firstIndex(of: selected))
                #expect(i >= model.scroll && i < model.scroll + model.visibleRowCount, "step \(step): row \(i), scroll \(model.scroll)")
            }
            if rows != expected { break }
        }
        if model.paused { _ = update(&model, .key(.character("p"))) }
        #expect(model.rowIndex.moves > 100)
    }

    @Test("A change to a row off screen draws nothing; a row on screen, a row taking a place above it, a tick or a key does")
    func drawsOnlyWhatShows() throws {
        var model = Self.model(events: 500, height: 30)
        let rows = model.rows
        let visible = model.visibleRows
        #expect(visible.count == model.visibleRowCount && visible.count < 30)
        var now = Self.t0
        func price(_ key: EventKey, _ text: String) {
            now = now.addingTimeInterval(0.01)
            _ = update(&model, .feed(FeedMessage(provider: .tickodds, receivedAt: now, update:
                .price(PriceUpdate(eventID: key.id, marketID: "ftr", marketName: "Fulltime Result",
                                   selection: Selection(id: "home", name: "Home", price: Price(decimal: text)))))))
        }
        model.drawn()
        price(rows[400], "5.50")
        #expect(!model.needsDraw, "a price of row 400 is not on screen")
        price(rows[3], "5.50")
        #expect(model.needsDraw, "row 3 is on screen")
        model.drawn()
        // A new match kicking off first takes the top row: every row on screen moves down.
        var early = Self.event(9_999, started: true)
        early.startTime = Self.t0.addingTimeInterval(-60)
        _ = update(&model, .feed(FeedMessage(provider: .tickodds, receivedAt: now, update: .upsert(early))))
        #expect(model.needsDraw)
        #expect(model.rows.first == EventKey(provider: .tickodds, id: "e9999"))
        model.drawn()
        // A match far down leaving changes nothing on screen either.
        _ = update(&model, .feed(FeedMessage(provider: .tickodds, receivedAt: now, update: .remove(eventID: rows[450].id))))
        #expect(!model.needsDraw)
        _ = update(&model, .tick(now.addingTimeInterval(0.25)))
        #expect(model.needsDraw, "a tick draws: clocks and markers age")
        model.drawn()
        // The detail pane draws for its own match only.
        _ = update(&model, .key(.enter))
        #expect(model.needsDraw)
        let shown = try #require(model.focused)
        model.drawn()
        price(rows[200] == shown ? rows[201] : rows[200], "7.00")
        #expect(!model.needsDraw)
        price(shown, "7.00")
        #expect(model.needsDraw)
    }

    @Test("The table lays out only the rows on screen, the same rows the full order shows")
    func layoutMatchesOrder() throws {
        var model = Self.model(events: 600, height: 40)
        for _ in 0..<5 { _ = update(&model, .key(.pageDown)) }
        let screen = DashboardLayout.layout(model)
        let shown = model.visibleRows
        #expect(Array(model.rows.dropFirst(model.scroll).prefix(model.visibleRowCount)) == shown)
        // Each row on screen shows its own match, in order (the away team is unique to the match).
        let lines = (0..<screen.height).map(screen.line)
        var at = 0
        for key in shown {
            let away = try #require(model.shown.events[key]?.event.away)
            let found = try #require(lines.dropFirst(at).firstIndex { $0.contains(away + " ") }, "\(away) is on screen")
            at = found + 1
        }
    }
}

@Suite("Dashboard message rate", .unitLane)
struct MessageRateTests {
    @Test("Messages a second over the last five seconds, at any rate, after silence and with the clock going back")
    func rate() {
        var rate = MessageRate()
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(rate.perSecond(at: t0) == 0)
        // 2,000 a second for ten seconds: the last five seconds hold 10,000.
        for i in 0..<20_000 { rate.count(at: t0.addingTimeInterval(Double(i) / 2_000)) }
        #expect(abs(rate.perSecond(at: t0.addingTimeInterval(9.99)) - 2_000) <= 20)
        // Two seconds of silence: three of the five seconds still count.
        #expect((1_100...1_250).contains(rate.perSecond(at: t0.addingTimeInterval(12))))
        // Long silence, then one message; a message stamped earlier than the newest still counts.
        #expect(rate.perSecond(at: t0.addingTimeInterval(100)) == 0)
        rate.count(at: t0.addingTimeInterval(100))
        rate.count(at: t0.addingTimeInterval(99.5))
        #expect(rate.perSecond(at: t0.addingTimeInterval(100)) == 0.4)
    }
}

@Suite("Dashboard of a replay", .unitLane)
struct DashboardReplayTests {
    @Test("A replay's header says it is replaying, then that the replay ended (or why it stopped), never connecting")
    func header() throws {
        // A recording holds no connection states: the store knows none.
        var replay = DashboardModel(provider: .tickodds, sport: "all", demo: false, oddsFormat: .decimal, now: DashboardScaleTests.t0)
        replay.replay = true
        _ = update(&replay, .resize(width: 160, height: 40))
        _ = update(&replay, .feed(FeedMessage(provider: .tickodds, receivedAt: DashboardScaleTests.t0,
                                              update: .snapshot((0..<5).map { DashboardScaleTests.event($0, started: true) }))))
        var header = DashboardLayout.layout(replay).line(0)
        #expect(header.contains("REPLAY") && header.contains("▶ replaying") && !header.contains("connecting"))
        var ended = replay
        _ = update(&ended, .feedEnded(reason: nil))
        header = DashboardLayout.layout(ended).line(0)
        #expect(header.contains("replay ended"))
        _ = update(&replay, .feedEnded(reason: "the recording is cut short"))
        header = DashboardLayout.layout(replay).line(0)
        #expect(header.contains("stopped: the recording is cut short"))
        // A live view is unchanged.
        #expect(DashboardLayout.layout(DashboardScaleTests.model(events: 5)).line(0).contains("● live"))
    }
}
