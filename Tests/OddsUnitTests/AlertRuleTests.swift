import Foundation
@testable import OddsAlerts
import OddsModel
import OddsTestSupport
import Testing

@Suite("Alert rules", .unitLane)
struct AlertRuleTests {
    static func r(_ n: Int64, _ d: Int64) -> Rational { Rational(n, d)! }

    @Test("Every form the issue lists reads as written, prices compared exactly in any odds format")
    func forms() throws {
        let cases: [(String, AlertRule.Kind)] = [
            (#"price "Arsenal" >= 2.50"#, .price(.init(selection: .named("Arsenal", line: nil), comparison: .atLeast, level: Self.r(5, 2),
                                                      levelText: "2.50", book: nil))),
            ("price draw <= 3.1 at pinnacle", .price(.init(selection: .named("draw", line: nil), comparison: .atMost, level: Self.r(31, 10),
                                                           levelText: "3.1", book: "pinnacle"))),
            (#"price "Lakers" >= +150"#, .price(.init(selection: .named("Lakers", line: nil), comparison: .atLeast, level: Self.r(5, 2),
                                                     levelText: "+150", book: nil))),
            ("price over 2.5 >= 6/4", .price(.init(selection: .named("over", line: "2.5"), comparison: .atLeast, level: Self.r(5, 2),
                                                   levelText: "6/4", book: nil))),
            ("price away <-110", .price(.init(selection: .named("away", line: nil), comparison: .below, level: Self.r(21, 11),
                                              levelText: "-110", book: nil))),
            ("move any 5% in 30s", .move(.init(selection: .any, change: Self.r(1, 20), window: 30, book: nil))),
            (#"move "Arsenal" 10% in 5m"#, .move(.init(selection: .named("Arsenal", line: nil), change: Self.r(1, 10), window: 300, book: nil))),
            ("steam 3 books 3% in 60s", .steam(.init(books: 3, change: Self.r(3, 100), window: 60, selection: .any))),
            ("goal", .incident(.goal, team: nil)),
            (#"goal "Arsenal""#, .incident(.goal, team: "Arsenal")),
            ("red-card", .incident(.redCard, team: nil)),
            ("penalty", .incident(.penalty, team: nil)),
            ("var", .incident(.var, team: nil)),
            ("kickoff", .incident(.kickoff, team: nil)),
            ("final", .incident(.final, team: nil)),
            ("value >= 3%", .value(edge: Self.r(3, 100), strict: false)),
            ("arb >= 1%", .arbitrage(margin: Self.r(1, 100), strict: false)),
            ("arb > 0.5%", .arbitrage(margin: Self.r(1, 200), strict: true)),
            ("stale 30s", .stale(after: 30)),
            ("STALE 500ms", .stale(after: 0.5)),
        ]
        for (text, kind) in cases {
            let rule = try AlertRule.parse("  " + text + " ")
            #expect(rule.kind == kind, "\(text)")
            #expect(rule.text == text)
        }
    }

    @Test("A bad rule is one sentence naming the word that is wrong and what was expected there")
    func errors() {
        let cases: [(String, word: String, position: Int, saying: String)] = [
            (#"price "Arsenal" >== 2.50"#, ">==", 3, "comparison"),
            (#"price "Arsenal" >= 0.5"#, "0.5", 4, "price"),
            (#"price "Arsenal" >= two"#, "two", 4, "price"),
            ("price any >= 2", "any", 2, "names its selection"),
            ("move any 5 in 30s", "5", 3, "percentage"),
            ("move any 5% 30s", "30s", 4, "'in'"),
            ("move any 5% in soon", "soon", 5, "duration"),
            ("move any 0% in 30s", "0%", 3, "above 0"),
            ("steam 1 books 3% in 60s", "1", 2, "2 or more"),
            ("steam 3 bookies 3% in 60s", "bookies", 3, "'books'"),
            ("goals", "goals", 1, "starts with"),
            ("", "", 1, "empty"),
            (#"goal "Arsenal"#, "\"Arsenal", 2, "quote"),
            ("goal Manchester United", "United", 3, "quotes"),
            ("value <= 3%", "<=", 2, ">= or >"),
            ("stale 2d", "2d", 2, "duration"),
            ("price draw >= 2.5 at", "", 6, "book"),
        ]
        for c in cases {
            #expect(throws: AlertRuleError.self, "\(c.0)") { try AlertRule.parse(c.0) }
            do {
                _ = try AlertRule.parse(c.0)
            } catch let e as AlertRuleError {
                #expect(e.word == c.word && e.position == c.position, "\(c.0): \(e.message)")
                #expect(e.message.contains(c.saying), "\(c.0): \(e.message)")
                #expect(!e.message.contains("\n") && e.message.hasSuffix("."))
            } catch {
                Issue.record("\(c.0): \(error)")
            }
        }
    }

    @Test("Comparisons are exact on decimal odds; a selection is matched by key, name or the team it stands for")
    func matching() throws {
        #expect(AlertRule.Comparison.atLeast.holds(Self.r(5, 2), Self.r(5, 2)) && !AlertRule.Comparison.above.holds(Self.r(5, 2), Self.r(5, 2)))
        #expect(AlertRule.Comparison.atMost.holds(Self.r(249, 100), Self.r(5, 2)) && AlertRule.Comparison.equal.holds(Self.r(10, 4), Self.r(5, 2)))
        let event = Event(provider: .tickodds, id: "1", sport: "soccer", league: "EPL", home: "Arsenal FC", away: "Chelsea", status: .live,
                          score: nil, clock: nil, period: nil, markets: [], incidents: [])
        let arsenal = SelectionPattern.named("arsenal fc", line: nil)
        #expect(arsenal.matches(selectionID: "home", selectionName: "1", line: nil, event: event))
        #expect(!arsenal.matches(selectionID: "away", selectionName: "2", line: nil, event: event))
        #expect(SelectionPattern.named("DRAW", line: nil).matches(selectionID: "draw", selectionName: "X", line: nil, event: event))
        let over = SelectionPattern.named("over", line: "2.50")
        #expect(over.matches(selectionID: "over", selectionName: "Over", line: "2.5", event: event))
        #expect(!over.matches(selectionID: "over", selectionName: "Over", line: "3.5", event: event))
        #expect(SelectionPattern.any.matches(selectionID: "x", selectionName: "y", line: nil, event: event))
        // A team stands for its side of the result, not of a handicap, unless the rule gives the line.
        #expect(!arsenal.matches(selectionID: "home", selectionName: "1", line: "-1.5", event: event))
        #expect(SelectionPattern.named("Arsenal FC", line: "-1.50").matches(selectionID: "home", selectionName: "1", line: "-1.5", event: event))
    }
}
