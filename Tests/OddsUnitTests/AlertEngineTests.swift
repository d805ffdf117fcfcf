import Foundation
@testable import OddsAlerts
import OddsModel
import OddsStore
import OddsTestSupport
import Testing

@Suite("Alert engine", .unitLane)
struct AlertEngineTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    /// A match priced by two books, home/draw/away.
    static func event(_ prices: [String: [String?]], status: EventStatus = .live, suspended: Set<String> = [], incidents: [Incident] = [],
                      home: String = "Arsenal", away: String = "Chelsea") -> Event {
        let markets = prices.keys.sorted().map { book in
            Market(id: "1x2", name: "Match Result", book: book, selections: zip(["home", "draw", "away"], prices[book]!).map { id, p in
                Selection(id: id, name: id == "home" ? home : id == "away" ? away : "Draw", price: p.flatMap { Price(decimal: $0) },
                          suspended: suspended.contains("\(book)/\(id)"))
            })
        }
        return Event(provider: .boltodds, id: "g1", sport: "soccer", league: "EPL", home: home, away: away, status: status, score: nil,
                     clock: nil, period: nil, markets: markets, incidents: incidents)
    }

    /// Feeds `events` through a store and the engine, a second apart; the alerts of each.
    static func run(_ rules: [String], _ events: [Event], initial: Bool = false, seconds: Double = 1) throws -> [[Alert]] {
        var engine = AlertEngine(rules: try rules.map { try AlertRule.parse($0) }, initial: initial)
        var store = LiveStore()
        return events.enumerated().map { i, e in
            let m = FeedMessage(provider: .boltodds, receivedAt: t0.addingTimeInterval(Double(i) * seconds), update: .upsert(e))
            store.apply(m)
            return engine.observe(m, in: store)
        }
    }

    @Test("A level fires on the change that makes it true, once, re-arms only after it was false; the first sight is not news")
    func level() throws {
        let steps = [
            Self.event(["a": ["2.60", "3.3", "2.9"]]),                                   // true already: not news
            Self.event(["a": ["2.40", "3.3", "2.9"]]),                                   // false: re-armed
            Self.event(["a": ["2.50", "3.3", "2.9"]]),                                   // true: fires
            Self.event(["a": ["2.55", "3.3", "2.9"]]),                                   // still true: nothing
            Self.event(["a": ["2.40", "3.3", "2.9"]], suspended: ["a/home"]),            // suspended: nothing, and not false
            Self.event(["a": ["2.70", "3.3", "2.9"]]),                                   // still fired: nothing
            Self.event(["a": ["2.40", "3.3", "2.9"], "b": ["2.45", "3.3", "2.9"]]),      // false at every book
            Self.event(["a": ["2.40", "3.3", "2.9"], "b": ["2.50", "3.3", "2.9"]]),
        ]
        let fired = try Self.run([#"price "Arsenal" >= 2.50"#], steps)
        #expect(fired.map(\.count) == [0, 0, 1, 0, 0, 0, 0, 1])
        let a = try #require(fired[2].first)
        #expect(a.price?.decimalText == "2.50" && a.book == "a" && a.selection == "Arsenal" && a.kind == "price" && a.match == "Arsenal v Chelsea")
        // The best across books: b's 2.50 while a's is 2.40. No ages were asked for: the age is not known.
        #expect(fired[7].first?.book == "b")
        #expect(fired[7].first?.ages == [PriceAge(book: "b", seconds: nil)])
        // With --initial, the first sight counts.
        #expect(try Self.run([#"price "Arsenal" >= 2.50"#], [steps[0]], initial: true).map(\.count) == [1])
        // At one book only.
        #expect(try Self.run(["price home >= 2.5 at B"], steps).map(\.count) == [0, 0, 0, 0, 0, 0, 0, 1])
    }

    @Test("A move fires with its from and to when a price moves that much within the window, once a window, never on a suspension")
    func move() throws {
        let prices = ["2.00", "2.04", "2.11", "2.12", "1.90", "2.00", "2.30"]
        let steps = prices.map { Self.event(["a": [$0, "3.3", "3.9"]]) }
        // A second apart, 5% in 3 s: 2.00 → 2.11 (5.5%) fires; 2.12 and 1.90 come within the window after it; once it has
        // passed, 2.12 → 2.00 (5.7% within 2 s) fires; 2.30 comes within the window after that.
        let fired = try Self.run(["move home 5% in 3s"], steps)
        #expect(fired.map(\.count) == [0, 0, 1, 0, 0, 1, 0])
        #expect(fired[5].first?.from?.decimalText == "2.12" && fired[5].first?.price?.decimalText == "2.00")
        let a = try #require(fired[2].first)
        #expect(a.from?.decimalText == "2.00" && a.price?.decimalText == "2.11" && a.fromAt == Self.t0)
        // Further apart than the window: a price stands until the next, so each step is measured from the one before
        // (it stood within the window): 2.12 → 1.90, 1.90 → 2.00 and 2.00 → 2.30 fire; the slow drift before does not.
        let apart = try Self.run(["move home 5% in 3s"], steps, seconds: 4)
        #expect(apart.map(\.count) == [0, 0, 0, 0, 1, 1, 1])
        #expect(apart[4].first?.from?.decimalText == "2.12" && apart[4].first?.fromAt == Self.t0.addingTimeInterval(12))
        // A suspension with a far price is no move; the price after it is measured against what was seen before.
        let suspended = [Self.event(["a": ["2.00", "3.3", "3.9"]]), Self.event(["a": ["9.00", "3.3", "3.9"]], suspended: ["a/home"]),
                         Self.event(["a": ["2.02", "3.3", "3.9"]])]
        #expect(try Self.run(["move any 5% in 30s"], suspended).map(\.count) == [0, 0, 0])
        // A fall counts as a move too: exact, 2.00 → 1.90 is 5%.
        #expect(try Self.run(["move any 5% in 30s"], [steps[0], Self.event(["a": ["1.90", "3.3", "3.9"]])]).map(\.count) == [0, 1])
    }

    @Test("Goals, red cards, penalties and VAR fire once each, for the team named; kick-off and full time on the status change")
    func incidents() throws {
        let goal = Incident(kind: .goal, minute: 10, team: .away, player: "Palmer", detail: "Goal", id: "g1")
        let red = Incident(kind: .card, minute: 20, team: .home, player: "Saliba", detail: "Red card", id: "r1")
        let yellow = Incident(kind: .card, minute: 21, team: .home, player: "Rice", detail: "Yellow card", id: "y1")
        let steps = [
            Self.event(["a": ["2.1", "3.3", "3.9"]], status: .scheduled),
            Self.event(["a": ["2.1", "3.3", "3.9"]], status: .live),
            Self.event(["a": ["2.9", "3.3", "2.4"]], incidents: [goal]),
            Self.event(["a": ["2.9", "3.3", "2.4"]], incidents: [goal]),
            Self.event(["a": ["3.9", "3.3", "1.9"]], incidents: [goal, yellow, red]),
            Self.event(["a": ["3.9", "3.3", "1.9"]], status: .ended, incidents: [goal, yellow, red]),
        ]
        let fired = try Self.run(["goal", #"goal "Chelsea""#, #"goal "Arsenal""#, "red-card", "kickoff", "final"], steps)
        #expect(fired.map { $0.map(\.rule.text) } == [[], ["kickoff"], ["goal", #"goal "Chelsea""#], [], ["red-card"], ["final"]])
        #expect(fired[2].first?.incident?.player == "Palmer" && fired[4].first?.incident?.player == "Saliba")
        // A match first seen with a goal already in it: not news.
        #expect(try Self.run(["goal"], [steps[2], steps[4]]).map(\.count) == [0, 0])
        // A rule for a team not in the match never fires.
        #expect(try Self.run([#"goal "Spurs""#], steps).allSatisfy(\.isEmpty))
    }
}

extension AlertEngineTests {
    @Test("Steam fires once when enough books move one selection the same way within the window, naming each and the first")
    func steam() throws {
        let books = ["a", "b", "c", "d"]
        func at(_ home: [String: String]) -> Event {
            Self.event(Dictionary(uniqueKeysWithValues: books.map { ($0, [home[$0] ?? "2.00", "3.3", "3.9"]) }))
        }
        var prices = Dictionary(uniqueKeysWithValues: books.map { ($0, "2.00") })
        var steps = [at(prices)]
        for (book, price) in [("a", "1.90"), ("b", "1.92"), ("c", "1.94"), ("d", "1.90"), ("a", "2.00")] {
            prices[book] = price
            steps.append(at(prices))
        }
        // Ten seconds apart: a, b and c have shortened by 3% or more within the minute when c moves.
        let fired = try Self.run(["steam 3 books 3% in 60s"], steps, seconds: 10)
        #expect(fired.map(\.count) == [0, 0, 0, 1, 0, 0], "\(fired.map { $0.map(\.books) })")
        let a = try #require(fired[3].first)
        #expect(a.books.map(\.book) == ["a", "b", "c"] && a.books.first?.from.decimalText == "2.00" && a.books.first?.to.decimalText == "1.90")
        #expect(a.selection == "Arsenal" && a.kind == "steam" && a.detail?.contains("first a") == true)
        // Too slow: a minute and a half between moves, never three within the window.
        #expect(try Self.run(["steam 3 books 3% in 60s"], steps, seconds: 45).allSatisfy(\.isEmpty))
        // Prices that stood for ten minutes, then three books shorten within the minute: each moved from the price it
        // stood at when the window began.
        let quiet = Array(repeating: at([:]), count: 20) + [at(["a": "1.90"]), at(["a": "1.90", "b": "1.92"]), at(["a": "1.90", "b": "1.92", "c": "1.94"])]
        let late = try Self.run(["steam 3 books 3% in 60s"], quiet, seconds: 30)
        #expect(late.map(\.count) == Array(repeating: 0, count: 22) + [1])
        #expect(late[22].first?.books.map { $0.from.decimalText } == ["2.00", "2.00", "2.00"])
                // Books moving opposite ways are no steam.
        let mixed = [at([:]), at(["a": "1.90"]), at(["a": "1.90", "b": "2.10"]), at(["a": "1.90", "b": "2.10", "c": "1.94"])]
        #expect(try Self.run(["steam 3 books 3% in 60s"], mixed).allSatisfy(\.isEmpty))
        #expect(try Self.run(["steam 2 books 3% in 60s"], mixed).map(\.count) == [0, 0, 0, 1])
    }
}

extension AlertEngineTests {
    @Test("Value and arbitrage fire as they open (not on first sight), once while open, again after they close and reopen")
    func valueAndArbitrage() throws {
        func at(_ cAway: String) -> Event {
            Self.event(["a": ["2.2", "3.4", "3.6"], "b": ["2.0", "3.3", "3.3"], "c": ["2.1", "3.5", cAway]])
        }
        // Best prices 2.2 / 3.5 / 3.6: no arbitrage. c's away at 4.6: 1/2.2 + 1/3.5 + 1/4.6 < 1.
        let steps = [at("3.5"), at("4.6"), at("4.6"), at("3.5"), at("4.6")]
        let arb = try Self.run(["arb >= 1%"], steps)
        #expect(arb.map(\.count) == [0, 1, 0, 0, 1])
        let a = try #require(arb[1].first)
        #expect(a.legs.map(\.book) == ["a", "c", "c"] && a.legs.map { $0.price.decimalText } == ["2.20", "3.50", "4.60"], "\(a.legs)")
        #expect(a.profit == "4.42%" && a.kind == "arb" && a.detail?.hasPrefix("arbitrage 4.42%") == true, "\(a.profit ?? "")")
        // Every leg's age (the run's prices arrive whole, so each is as old as its message).
        #expect(a.ages.map(\.book) == ["a", "c", "c"] && a.ages.allSatisfy { $0.seconds == 0 }, "\(a.ages)")
        #expect(try Self.run(["arb >= 5%"], steps).allSatisfy(\.isEmpty))
        let value = try Self.run(["value >= 3%"], steps)
        #expect(value.map { $0.map(\.book) } == [[], ["c"], [], [], ["c"]])
        let v = try #require(value[1].first)
        #expect(v.selection == "Chelsea" && v.price?.decimalText == "4.60" && v.ev != nil && v.fair != nil)
        // The price's age, then each book's the fair price was made from.
        #expect(v.ages.map(\.book) == ["c", "a", "b"], "\(v.ages)")
        // Open at first sight: not news, unless --initial.
        #expect(try Self.run(["arb >= 1%"], [at("4.6")]).map(\.count) == [0])
        #expect(try Self.run(["arb >= 1%"], [at("4.6")], initial: true).map(\.count) == [1])
    }
}

extension AlertEngineTests {
    @Test("A stale rule fires once a feed has been silent that long, once, and again only after it has spoken")
    func stale() throws {
        var engine = AlertEngine(rules: [try AlertRule.parse("stale 30s")])
        var store = LiveStore()
        let start = Self.t0
        func hear(_ s: Double) {
            let m = FeedMessage(provider: .tickodds, receivedAt: start.addingTimeInterval(s), update: .heartbeat)
            store.apply(m)
            _ = engine.observe(m, in: store)
        }
        func tick(_ s: Double) -> Int { engine.tick(now: start.addingTimeInterval(s), providers: [.tickodds, .boltodds], since: start).count }
        hear(0)
        #expect(tick(20) == 0)
        // BoltOdds, never heard from, counts from the start; TickOdds from its last word.
        let both = engine.tick(now: start.addingTimeInterval(31), providers: [.tickodds, .boltodds], since: start)
        #expect(both.map(\.provider) == [.tickodds, .boltodds] && both.allSatisfy { $0.kind == "stale" && ($0.silentFor ?? 0) > 30 })
        #expect(tick(40) == 0)
        hear(41)
        #expect(tick(60) == 0)
        #expect(tick(72) == 1)
    }
}

extension AlertEngineTests {
    @Test("With several providers, one real match's goal or kick-off is one alert, however many providers tell it")
    func fusedOnce() throws {
        let goal = try AlertRule.parse("goal"), kickoff = try AlertRule.parse("kickoff")
        func told(_ rule: AlertRule, _ provider: ProviderID, _ s: Double, _ incident: Incident?) -> Alert {
            var a = Alert(rule: rule, at: Self.t0.addingTimeInterval(s), provider: provider, eventID: "e", home: "Arsenal", away: "Chelsea", league: nil)
            a.incident = incident
            if incident == nil { a.status = .live }
            return a
        }
        var d = AlertDeduper()
        let scored = Incident(kind: .goal, minute: 12, team: .home, detail: "Goal", score: Score(home: 1, away: 0))
        let sameNoTeam = Incident(kind: .goal, minute: 13, team: nil, detail: "Goal")
        let sameScore = Incident(kind: .goal, minute: 11, team: .home, detail: "Goal", score: Score(home: 1, away: 0))
        let reply = Incident(kind: .goal, minute: 13, team: .away, detail: "Goal", score: Score(home: 1, away: 1))
        let later = Incident(kind: .goal, minute: 30, team: .home, detail: "Goal", score: Score(home: 2, away: 1))
        let admitted = [
            d.admit(told(goal, .tickodds, 0, scored), match: "m1"),
            d.admit(told(goal, .boltodds, 2, sameNoTeam), match: "m1"),
            d.admit(told(goal, .sportsapi, 5, sameScore), match: "m1"),
            d.admit(told(goal, .boltodds, 20, reply), match: "m1"),
            d.admit(told(goal, .tickodds, 25, reply), match: "m1"),
            d.admit(told(goal, .tickodds, 1_000, later), match: "m1"),
            d.admit(told(goal, .tickodds, 1_001, scored), match: "m2"),
            d.admit(told(kickoff, .tickodds, 0, nil), match: "m1"),
            d.admit(told(kickoff, .boltodds, 3, nil), match: "m1"),
            d.admit(told(goal, .boltodds, 3, scored), match: nil),
        ]
        #expect(admitted == [true, false, false, true, false, true, true, true, false, true])
    }
}

extension AlertEngineTests {
    @Test("stale with several providers: a match in play that lost its last live source fires once, again after it is back and lost again")
    func lostSource() throws {
        var engine = AlertEngine(rules: [try AlertRule.parse("stale 30s")])
        var store = LiveStore()
        let start = Self.t0
        // Two providers' events of one real match, and a match not yet started of one provider only.
        let matchOf: (EventKey) -> String? = { $0.id == "p1" ? "m2" : "m1" }
        func send(_ provider: ProviderID, _ s: Double, _ update: FeedUpdate) {
            let m = FeedMessage(provider: provider, receivedAt: start.addingTimeInterval(s), update: update)
            store.apply(m)
            _ = engine.observe(m, in: store, fusedMatch: matchOf)
        }
        func event(_ provider: ProviderID, _ id: String, status: EventStatus = .live) -> Event {
            var e = Self.event(["a": ["2.0", "3.3", "3.5"]], status: status)
            e.provider = provider
            e.id = id
            return e
        }
        func lost(_ s: Double) -> [Alert] {
            engine.tick(now: start.addingTimeInterval(s), providers: [.tickodds, .boltodds], since: start).filter(\.sourcesLost)
        }
        send(.tickodds, 0, .upsert(event(.tickodds, "t1")))
        send(.boltodds, 0, .upsert(event(.boltodds, "b1")))
        send(.boltodds, 0, .upsert(event(.boltodds, "p1", status: .scheduled)))
        // One source gone, the other live: nothing.
        send(.boltodds, 5, .remove(eventID: "b1"))
        #expect(lost(10).isEmpty)
        // The other gone too: the match has no live source.
        send(.tickodds, 12, .remove(eventID: "t1"))
        let fired = lost(13)
        #expect(fired.count == 1)
        let a = try #require(fired.first)
        #expect(a.fusedMatch == "m1" && a.match == "Arsenal v Chelsea" && a.kind == "stale" && a.detail?.hasPrefix("no live source") == true, "\(a)")
        #expect(lost(20).isEmpty)
        // Back, then gone again: once more. A match not in play that goes is not news.
        send(.tickodds, 25, .upsert(event(.tickodds, "t1")))
        #expect(lost(26).isEmpty)
        send(.tickodds, 27, .remove(eventID: "t1"))
        send(.boltodds, 27, .remove(eventID: "p1"))
        #expect(lost(28).map(\.fusedMatch) == ["m1"])
        // One source gone while the other's feed is silent past the limit: lost as well.
        var engine2 = AlertEngine(rules: [try AlertRule.parse("stale 30s")])
        var store2 = LiveStore()
        for (p, id, s) in [(ProviderID.tickodds, "t1", 0.0), (.boltodds, "b1", 0.0)] {
            let m = FeedMessage(provider: p, receivedAt: start.addingTimeInterval(s), update: .upsert(event(p, id)))
            store2.apply(m)
            _ = engine2.observe(m, in: store2, fusedMatch: matchOf)
        }
        for s in stride(from: 5.0, through: 40, by: 5) {
            let m = FeedMessage(provider: .boltodds, receivedAt: start.addingTimeInterval(s), update: s == 40 ? .remove(eventID: "b1") : .heartbeat)
            store2.apply(m)
            _ = engine2.observe(m, in: store2, fusedMatch: matchOf)
        }
        let silent = engine2.tick(now: start.addingTimeInterval(41), providers: [.tickodds, .boltodds], since: start)
        #expect(silent.filter(\.sourcesLost).map(\.fusedMatch) == ["m1"])
        // Both present, a feed merely silent: the feed's alert, not one for each of its matches.
        #expect(silent.filter { !$0.sourcesLost }.map(\.provider) == [.tickodds])
    }
}
