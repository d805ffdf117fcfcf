import Foundation
import Logging
import OddsJSON
import OddsModel
@testable import OddsOutput
import OddsStore
@testable import OddsSportsAPI
@testable import OddsBoltOdds
@testable import OddsCLI
@testable import OddsTransport
import OddsTickOdds
import OddsSimulator
import OddsSimulatorFaults
import OddsTestSupport
import Testing

/// A price only ever stands in the column of its own selection (issue 18).
@Suite("1 / X / 2 by identity", .unitLane)
struct MainColumnTests {
    static func event(_ selections: [Selection], home: String = "Arsenal", away: String? = "Chelsea") -> Event {
        Event(provider: .boltodds, id: "g", sport: "soccer", home: home, away: away,
              markets: [Market(id: "Moneyline", name: "Moneyline", book: "fanduel", selections: selections)])
    }

    static func s(_ name: String, _ price: String, id: String? = nil) -> Selection {
        Selection(id: id ?? name, name: name, price: Price(american: price))
    }

    @Test("A table's links and styles are made only when its output shows them, and the text is the same either way")
    func decorationsWhenShown() {
        let events = (0..<3).map { i -> Event in
            var e = Event(provider: .boltodds, id: "H\(i) vs A\(i), 2026-11-24, 01", sport: "soccer", league: "EPL",
                          home: "H\(i)", away: "A\(i)", status: .live)
            var home = Selection(id: "H\(i)", name: "H\(i)", price: Price(american: "+150"))
            home.deepLink = DeepLink("https://book.example/e/\(i)?o=1")
            e.markets = [Market(id: "Moneyline", name: "Moneyline", book: "b", selections: [
                home, Selection(id: "A\(i)", name: "A\(i)", price: Price(american: "-120"), suspended: i == 1)])]
            return e
        }
        let bare = EventReporter.table(events, options: RenderOptions())
        #expect(bare.links.isEmpty && bare.styles.isEmpty)
        let linked = EventReporter.table(events, options: RenderOptions(links: true))
        #expect(linked.links.count == 3 && linked.links[0].contains("https://book.example/e/0?o=1") && linked.styles.isEmpty)
        let coloured = EventReporter.table(events, options: RenderOptions(color: true))
        #expect(coloured.styles.count == 3 && coloured.styles[1].contains(.dim) && coloured.links.isEmpty)
        let both = EventReporter.table(events, options: RenderOptions(color: true, links: true))
        #expect(bare.rows == both.rows)
        #expect(bare.renderAligned(width: nil, color: false) == both.renderAligned(width: nil, color: false))
        // A TSV is the same text whatever the terminal options; a table shows the links and colours asked for.
        #expect(EventReporter.render(events, format: .tsv, options: RenderOptions(color: true, links: true))
                == EventReporter.render(events, format: .tsv, options: RenderOptions()))
        #expect(EventReporter.render(events, format: .table, options: RenderOptions(links: true)).contains("\u{1B}]8;;https://book.example/e/2?o=1"))
        #expect(EventReporter.render(events, format: .table, options: RenderOptions(color: true)).contains("\u{1B}["))
        #expect(!EventReporter.render(events, format: .table, options: RenderOptions()).contains("\u{1B}"))
    }

    @Test("A table large enough to be made in two halves at once is the table made row by row, in order")
    func largeTableInHalves() {
        // Three books per match, the best price at a different book for each column; every tenth
        // match with a suspended side. 1,500 rows: over the size made in halves.
        let books = ["fanduel", "betmgm", "draftkings"]
        let events = (0..<1500).map { i -> Event in
            var e = Event(provider: .boltodds, id: "Home \(i) vs Away \(i), 2026-11-24, 01", sport: "soccer", league: "EPL",
                          home: "Home \(i)", away: "Away \(i)", status: i % 3 == 0 ? .scheduled : .live)
            e.markets = books.enumerated().map { b, book in
                Market(id: "Moneyline", name: "Moneyline", book: book, selections: [
                    Selection(id: "Home \(i)", name: "Home \(i)", price: Price(american: "+1\((i + b) % 9)0"), suspended: i % 10 == 0 && b == 0),
                    Selection(id: "Draw", name: "Draw", price: Price(american: "+2\((i + 2 * b) % 9)0")),
                    Selection(id: "Away \(i)", name: "Away \(i)", price: Price(american: "+3\((i + 3 * b) % 9)0")),
                ])
            }
            return e
        }
        let options = RenderOptions(color: true, links: true)
        let whole = EventReporter.table(events, options: options)
        let parts = [EventReporter.table(Array(events[..<700]), options: options),
                     EventReporter.table(Array(events[700...]), options: options)]
        #expect(whole.rows.count == 1500 && whole.links.count == 1500 && whole.styles.count == 1500)
        #expect(whole.rows == parts[0].rows + parts[1].rows)
        #expect(whole.links == parts[0].links + parts[1].links)
        #expect(whole.styles == parts[0].styles + parts[1].styles)
        #expect(whole.rows[1499][0] == events[1499].shortID && whole.rows[1499][5] != "")
    }

    @Test("A missing home price leaves 1 empty: the draw never moves into it")
    func missingHome() {
        let e = Self.event([Self.s("Draw", "+250"), Self.s("Chelsea", "+120")])
        let cells = e.mainColumns.cells
        #expect(cells[0] == nil && cells[1]?.selection.name == "Draw" && cells[2]?.selection.name == "Chelsea")
        #expect(EventReporter.mainPrices(e, format: .american) == ["", "+250", "+120"])
    }

    @Test("Listed in any order, each price goes to its own outcome")
    func anyOrder() {
        let e = Self.event([Self.s("Chelsea", "+120"), Self.s("Arsenal", "+200"), Self.s("Draw", "+250")])
        #expect(EventReporter.mainPrices(e, format: .american) == ["+200", "+250", "+120"])
        // Two-way: away listed first.
        let two = Self.event([Self.s("Chelsea FC", "-150"), Self.s("Arsenal FC", "+130")])
        #expect(EventReporter.mainPrices(two, format: .american) == ["+130", "", "-150"])
        // Marks and sides (SportsAPIPro's 1/X/2, TickOdds' side as the id).
        let marks = Self.event([Self.s("2", "+120"), Self.s("X", "+250")])
        #expect(EventReporter.mainPrices(marks, format: .american) == ["", "+250", "+120"])
        let sides = Self.event([Self.s("Gunners", "+120", id: "away"), Self.s("The Blues", "+250", id: "home")])
        #expect(EventReporter.mainPrices(sides, format: .american) == ["+250", "", "+120"])
    }

    @Test("A selection whose outcome cannot be told is not shown; a race shows its favourite")
    func unknownAndRaces() {
        let e = Self.event([Self.s("Somebody", "+120"), Self.s("Draw", "+250")])
        #expect(EventReporter.mainPrices(e, format: .american) == ["", "+250", ""])
        // Three listed, two known: the third is the outcome left.
        let three = Self.event([Self.s("Gunners", "+200"), Self.s("Draw", "+250"), Self.s("Chelsea", "+120")])
        #expect(EventReporter.mainPrices(three, format: .american) == ["+200", "+250", "+120"])
        // A name that fits both teams' words is no identity.
        let both = Self.event([Self.s("United", "+200"), Self.s("Draw", "+250")], home: "Manchester United", away: "Newcastle United")
        #expect(EventReporter.mainPrices(both, format: .american) == ["", "+250", ""])
        let race = Self.event([Self.s("Dobbin", "+500"), Self.s("Red Rum", "+150")], home: "14:30 Cheltenham", away: nil)
        #expect(EventReporter.mainPrices(race, format: .american) == ["Red Rum +150", "", ""])
    }

    @Test("BoltOdds: an unusable home price (\"EVEN\") leaves 1 empty in the table")
    func boltOddsEven() throws {
        let feed = BoltOddsOddsFeed(settings: ProviderSettings(key: "k", restURL: "http://127.0.0.1:1/api", webSocketURL: "ws://127.0.0.1:1/api"),
                                    filters: BoltOddsFilters(), index: BoltOddsGameIndex())
        let frame = #"{"action":"initial_state","data":{"sport":"EPL","sportsbook":"fanduel","game":"Arsenal vs Chelsea, 2025-07-23, 01","home_team":"Arsenal","away_team":"Chelsea","info":{},"outcomes":{"Arsenal Moneyline":{"odds":"EVEN","outcome_name":"Moneyline","outcome_target":"Arsenal"},"Draw Moneyline":{"odds":"+250","outcome_name":"Moneyline","outcome_target":"Draw"},"Chelsea Moneyline":{"odds":"+120","outcome_name":"Moneyline","outcome_target":"Chelsea"}}}}"#
        var store = LiveStore()
        for u in try feed.decode(frame, first: false) { store.apply(FeedMessage(provider: .boltodds, receivedAt: Date(), update: u)) }
        let e = try #require(store.events.values.first?.event)
        #expect(EventReporter.mainPrices(e, format: .american) == ["", "+250", "+120"])
    }
}
