import Foundation
import OddsAlerts
import OddsDashboard
import OddsModel
import OddsStore
import OddsTestSupport
import Testing

/// Alert rules in the dashboard (issue 51): the config's rules live, each alert a ticker line marking its row,
/// and `a` writing a rule for the selected match.
@Suite("Dashboard alerts", .unitLane)
struct DashboardAlertTests {
    typealias F = FusedDashboardTests
    static let t0 = DashboardFixture.t0

    static func model() -> DashboardModel {
        var model = DashboardModel(provider: .tickodds, sport: "soccer", demo: true, oddsFormat: .decimal, now: t0)
        _ = update(&model, .resize(width: 140, height: 40))
        F.feed(&model, .tickodds, at: 0, .connection(.live))
        F.feed(&model, .tickodds, at: 0, .snapshot([F.event(.tickodds, "t1", "Arsenal", "Chelsea", prices: ["2.00", "3.40", "3.80"]),
                                                    F.event(.tickodds, "t2", "Liverpool", "Everton", prices: ["1.50", "4.00", "6.00"])]))
        _ = update(&model, .tick(t0.addingTimeInterval(1)))
        return model
    }

    static func price(_ event: String, _ selection: String, _ price: String, suspended: Bool = false) -> FeedUpdate {
        .price(PriceUpdate(eventID: event, marketID: "ftr", marketName: "Fulltime Result", book: nil,
                           selection: Selection(id: selection, name: selection, price: Price(decimal: price), suspended: suspended)))
    }

    static func alerts(_ model: DashboardModel) -> [String] {
        model.ticker.compactMap { if case .alert(let text) = $0.news { text } else { nil } }
    }

    /// The table's line of the row whose home team is `home`.
    static func row(_ model: DashboardModel, _ home: String) throws -> String {
        let screen = DashboardLayout.layout(model)
        return try #require((2..<10).map(screen.line).first { $0.contains(home) })
    }

    @Test("Rules made live (the config's): an alert is a ticker line and marks its row for a minute; one event, one alert")
    func liveRules() throws {
        var model = Self.model()
        model.watch([try AlertRule.parse("price \"Arsenal\" >= 2.20"), try AlertRule.parse("goal")])
        F.feed(&model, .tickodds, at: 2, Self.price("t1", "Arsenal", "2.10"))
        #expect(Self.alerts(model).isEmpty)
        #expect(try !Self.row(model, "Arsenal").hasPrefix("!"))
        // Suspended at the level: not an alert.
        F.feed(&model, .tickodds, at: 2.5, Self.price("t1", "Arsenal", "2.30", suspended: true))
        #expect(Self.alerts(model).isEmpty)
        F.feed(&model, .tickodds, at: 3, Self.price("t1", "Arsenal", "2.25"))
        #expect(Self.alerts(model).count == 1)
        let line = try #require(Self.alerts(model).first)
        #expect(line.contains("price \"Arsenal\" >= 2.20") && line.contains("Arsenal v Chelsea") && line.contains("2.25"), "\(line)")
        #expect(try Self.row(model, "Arsenal").hasPrefix("!"))
        #expect(try !Self.row(model, "Liverpool").hasPrefix("!"))
        let screen = DashboardLayout.layout(model)
        let ticker = try #require((0..<40).map(screen.line).first { $0.contains("ALERT") })
        #expect(ticker.contains("Arsenal v Chelsea"), "\(ticker)")
        // Still above the level: the same event, no second alert.
        F.feed(&model, .tickodds, at: 4, Self.price("t1", "Arsenal", "2.30"))
        #expect(model.alertsFired == 1)
        F.feed(&model, .tickodds, at: 5, .incident(eventID: "t2", Incident(kind: .goal, minute: 12, team: .home, player: "Mo Salah", detail: "Goal")))
        #expect(model.alertsFired == 2 && Self.alerts(model).first?.contains("Liverpool v Everton") == true)
        // The mark fades after a minute.
        _ = update(&model, .tick(Self.t0.addingTimeInterval(70)))
        #expect(try !Self.row(model, "Arsenal").hasPrefix("!"))
    }

    @Test("a: a rule for the selected match, Tab cycling suggestions; Enter adds it for that match only; a bad rule says why")
    func addRule() throws {
        var model = Self.model()
        for key in "/Arsenal" { _ = update(&model, .key(.character(key))) }
        _ = update(&model, .key(.enter))
        _ = update(&model, .key(.character("a")))
        #expect(model.ruleDraft?.text == "price \"Arsenal\" >= 2.00")
        #expect(DashboardLayout.layout(model).line(39).contains("alert: price \"Arsenal\" >= 2.00▏"))
        _ = update(&model, .key(.character("\t")))
        #expect(model.ruleDraft?.text == "price \"Draw\" >= 3.40")
        for _ in 0..<4 { _ = update(&model, .key(.backspace)) }
        for c in "3.6" { _ = update(&model, .key(.character(c))) }
        _ = update(&model, .key(.enter))
        #expect(model.ruleDraft == nil)
        let rule = try #require(model.alerts?.rules.last)
        #expect(rule.text == "price \"Draw\" >= 3.6" && rule.scope == [EventKey(provider: .tickodds, id: "t1")])
        #expect(model.ticker.first.map { if case .note(let t) = $0.news { t.contains("price \"Draw\" >= 3.6") } else { false } } == true)
        // The other match's draw passes the level: not this rule's match.
        F.feed(&model, .tickodds, at: 2, Self.price("t2", "Draw", "3.00"))
        F.feed(&model, .tickodds, at: 3, Self.price("t2", "Draw", "4.50"))
        #expect(model.alertsFired == 0)
        // This match's draw: below, then at the level.
        F.feed(&model, .tickodds, at: 4, Self.price("t1", "Draw", "3.50"))
        F.feed(&model, .tickodds, at: 5, Self.price("t1", "Draw", "3.60"))
        #expect(model.alertsFired == 1)
        // A bad rule: the parser's sentence in the footer, the draft kept; Esc lets it go.
        _ = update(&model, .key(.character("a")))
        _ = update(&model, .key(.clearLine))
        #expect(model.ruleDraft?.text == "")
        for c in "price draw >= banana" { _ = update(&model, .key(.character(c))) }
        _ = update(&model, .key(.enter))
        let error = try #require(model.ruleDraft?.error)
        #expect(error.contains("banana"), "\(error)")
        #expect(DashboardLayout.layout(model).line(39).contains("banana"))
        _ = update(&model, .key(.escape))
        #expect(model.ruleDraft == nil && model.alerts?.rules.count == 1)
        // `a` in the detail pane is about its match.
        _ = update(&model, .key(.enter))
        _ = update(&model, .key(.character("a")))
        #expect(model.ruleDraft?.text == "price \"Arsenal\" >= 2.00")
    }

    @Test("The note of a rule added stays in the ticker's first line for a few seconds, however many alerts follow")
    func noteHeld() throws {
        var model = Self.model()
        model.watch([try AlertRule.parse("move any 1% in 60s")])
        _ = update(&model, .key(.character("a")))
        _ = update(&model, .key(.enter))
        let ticker = { (model: DashboardModel) in (34..<39).map(DashboardLayout.layout(model).line) }
        #expect(ticker(model)[0].contains("alert rule added"), "\(ticker(model))")
        // A busy feed: an alert a price, more than the ticker's lines.
        let moves = [("t1", "Arsenal", "2.10"), ("t1", "Draw", "3.60"), ("t1", "Chelsea", "4.00"),
                     ("t2", "Liverpool", "1.60"), ("t2", "Draw", "4.20"), ("t2", "Everton", "6.50")]
        for (i, move) in moves.enumerated() { F.feed(&model, .tickodds, at: 1 + Double(i) * 0.5, Self.price(move.0, move.1, move.2)) }
        #expect(model.alertsFired >= 4)
        #expect(ticker(model)[0].contains("alert rule added") && ticker(model)[1...].allSatisfy { $0.contains("ALERT") }, "\(ticker(model))")
        // Past the hold, it takes its place among the rest, behind the newer alerts.
        _ = update(&model, .tick(Self.t0.addingTimeInterval(7)))
        #expect(ticker(model)[0].contains("ALERT") && !ticker(model)[0...3].contains { $0.contains("alert rule added") }, "\(ticker(model))")
    }

    @Test("A rule added mid-session takes what the view shows as seen: the next goal fires, the ones before do not")
    func addedMidSession() throws {
        var model = Self.model()
        F.feed(&model, .tickodds, at: 1, .incident(eventID: "t1", Incident(kind: .goal, minute: 3, team: .home, player: "Bukayo Saka", detail: "Goal")))
        model.watch([try AlertRule.parse("goal \"Arsenal\"")])
        // The match's first message since: its next goal, not its first sight.
        F.feed(&model, .tickodds, at: 3, .incident(eventID: "t1", Incident(kind: .goal, minute: 30, team: .home, player: "Martin Odegaard", detail: "Goal")))
        #expect(model.alertsFired == 1 && Self.alerts(model).first?.contains("Odegaard") == true)
        #expect(Self.alerts(model).allSatisfy { !$0.contains("Saka") })
    }

    @Test("stale: a feed silent past the rule's limit is one ticker line until it speaks again")
    func stale() throws {
        var model = Self.model()
        model.watch([try AlertRule.parse("stale 30s")])
        _ = update(&model, .tick(Self.t0.addingTimeInterval(20)))
        #expect(model.alertsFired == 0)
        _ = update(&model, .tick(Self.t0.addingTimeInterval(40)))
        _ = update(&model, .tick(Self.t0.addingTimeInterval(50)))
        #expect(model.alertsFired == 1 && Self.alerts(model).first?.contains("TickOdds feed") == true)
    }

    @Test("Fused: a goal both providers tell is one alert, on the fused row")
    func fused() throws {
        var model = F.model()
        model.watch([try AlertRule.parse("goal")])
        F.feed(&model, .tickodds, at: 2, .incident(eventID: "t1", F.goal))
        #expect(model.alertsFired == 1)
        F.feed(&model, .boltodds, at: 3, .upsert(F.event(.boltodds, "b1", "Arsenal FC", "Chelsea FC", book: "fanduel",
                                                         prices: ["2.10", "3.30", "3.90"], incidents: [F.goal])))
        #expect(model.alertsFired == 1)
        let row = try #require(model.alerted.keys.first)
        #expect(row.provider == .fused)
    }
}
