import Foundation
import OddsJSON
import OddsModel
import OddsOutput
import OddsStore
@testable import OddsSportsAPI
@testable import OddsBoltOdds
import OddsTransport
import Testing

/// Shapes the providers' docs leave open, read in every plausible form (issue 18): each test feeds
/// at least one shape that the project's simulator does not send by default.
@Suite("Shapes the docs leave open")
struct OpenShapeTests {
    @Test("A whole number reads from an integer, an integral float, or a string of either; nothing else")
    func wholeNumbers() {
        func int(_ json: String) -> Int? { (try? JSONParser.parse(json))?.int }
        #expect(int("1") == 1 && int("1.0") == 1 && int("-1.0") == -1 && int("\"1\"") == 1 && int("\"1.0\"") == 1)
        #expect(int("2e1") == 20 && int("1.5E+1") == 15 && int("10e-1") == 1 && int("0.000") == 0 && int("-0.0") == 0)
        #expect(int("5612062220.0") == 5_612_062_220)
        #expect(int("1.5") == nil && int("\"abc\"") == nil && int("\"1.\"") == nil && int("\".5\"") == nil && int("\"\"") == nil)
        #expect(int("1e400") == nil && int("99999999999999999999") == nil && int("\"1 \"") == nil && int("null") == nil)
        // A score is never a bool, and out of range is unknown.
        #expect(SportsAPIProWire.int(.bool(true)) == nil && SportsAPIProWire.int(.number("100001.0")) == nil)
        #expect(SportsAPIProWire.id(.number("4467358.0")) == "4467358" && SportsAPIProWire.id(.string("12.0")) == "12")
        #expect(SportsAPIProWire.id(.string("abc-1")) == "abc-1" && SportsAPIProWire.id(.number("1.5")) == "1.5")
    }

    @Test("v1 scores as floats and strings (the public service's forms) read as the integers they are")
    func v1FloatScores() throws {
        let feed = SportsAPIProV1Feed(settings: ProviderSettings(key: "k", restURL: "", webSocketURL: "ws://127.0.0.1:1/{sport}"),
                                      hostSport: "football", channels: ["football"])
        let inbound = try feed.receive(Array(try Fixture.text("docs/sportsapi-v1-scores-floats.json").utf8), first: false)
        let boards = inbound.updates.compactMap { u -> Scoreboard? in if case .scoreboard(let b) = u { return b }; return nil }
        #expect(boards.count == 4)
        let live = try #require(boards.first { $0.eventID == "4467358" })
        #expect(live.score == Score(home: 2, away: 1) && live.status == .live && live.clock == "67'" && live.sport == "soccer")
        let later = try #require(boards.first { $0.eventID == "4467359" })
        #expect(later.score == nil && later.status == .scheduled)
        let strings = try #require(boards.first { $0.eventID == "4467360" })
        #expect(strings.score == Score(home: 0, away: 1) && strings.clock == "12'")
        // 1.5 and true are no scores and 50.5 no minute: unknown, not zero.
        let odd = try #require(boards.first { $0.eventID == "4467361" })
        #expect(odd.score == nil && odd.clock == nil && odd.status == .live)
        // The same updateId as an integer is the same message: stale.
        let again = try Fixture.text("docs/sportsapi-v1-scores.json")
        #expect(try feed.receive(Array(again.utf8), first: false) == .keepalive)
    }

    @Test("v2 odds in SofaScore's own shape: the feed's own book, fractions kept exact")
    func v2SofaScoreOdds() throws {
        let feed = SportsAPIProFeed(settings: ProviderSettings(key: "k", restURL: "", webSocketURL: "ws://127.0.0.1:1/ws"), sport: nil,
                                    channels: [.odds("14109842")])
        let inbound = try feed.receive(Array(try Fixture.text("docs/sportsapi-odds-sofascore.json").utf8), first: false)
        guard case .batch(_, let skipped) = inbound else { Issue.record("expected the nameless market counted: \(inbound)"); return }
        #expect(skipped.count == 1)
        let books = inbound.updates.compactMap { u -> (Event, String)? in if case .bookUpsert(let e, let b) = u { return (e, b) }; return nil }
        #expect(books.count == 1)
        let (event, book) = try #require(books.first)
        #expect(book == SportsAPIProWire.ownBook && event.markets.map(\.book) == [book, book])
        let result = event.markets[0]
        let home = result.selections[0]
        #expect(home.price?.text == "29/18" && home.price?.format == .fractional)
        #expect(home.price?.decimalOdds == Rational(47, 18) && home.price?.formatted(.decimal) == "2.61")
        #expect(home.price?.formatted(.fractional) == "29/18" && home.price?.formatted(.american) == "+161")
        // Suspended as the choice says; its fraction is still the price kept (exact), not the decimal beside it.
        #expect(result.selections[2].suspended && result.selections[2].price?.text == "7/4")
        #expect(event.markets[1].name == "Match goals 2.5" && event.markets[1].selections.map(\.line) == ["2.5", "2.5"])
    }

    @Test("v2 odds grouped by provider still read each book")
    func v2ProviderOdds() throws {
        let feed = SportsAPIProFeed(settings: ProviderSettings(key: "k", restURL: "", webSocketURL: "ws://127.0.0.1:1/ws"), sport: nil,
                                    channels: [.odds("14109842")])
        let updates = try feed.decode(try Fixture.text("docs/sportsapi-odds-providers.json"), first: false)
        let books = updates.compactMap { u -> String? in if case .bookUpsert(_, let b) = u { return b }; return nil }
        #expect(books == ["bet365", "Unibet"])
        // A bare list of SofaScore markets (no wrapper) is read too.
        let bare = #"{"channel":"match:14109842:odds","type":"update","data":[{"marketName":"Full time","choices":[{"name":"1","fractionalValue":"1/1"}]}]}"#
        guard case .bookUpsert(let e, let b)? = try feed.decode(bare, first: false).first else { Issue.record("no book"); return }
        #expect(b == SportsAPIProWire.ownBook && e.markets.first?.selections.first?.price?.decimalOdds == Rational(2, 1))
    }
}

/// A price only ever stands in the column of its own selection (issue 18).
@Suite("1 / X / 2 by identity")
struct MainColumnTests {
    static func event(_ selections: [Selection], home: String = "Arsenal", away: String? = "Chelsea") -> Event {
        Event(provider: .boltodds, id: "g", sport: "soccer", home: home, away: away,
              markets: [Market(id: "Moneyline", name: "Moneyline", book: "fanduel", selections: selections)])
    }

    static func s(_ name: String, _ price: String, id: String? = nil) -> Selection {
        Selection(id: id ?? name, name: name, price: Price(american: price))
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
