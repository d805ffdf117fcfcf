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

/// Shapes the providers' docs leave open, read in every plausible form (issue 18): each test feeds
/// at least one shape that the project's simulator does not send by default.
@Suite("Shapes the docs leave open", .unitLane)
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
        // 1.5 and true are no scores: unknown, not zero. 50.5 is no minute; the minute shown ("50'") is the clock.
        let odd = try #require(boards.first { $0.eventID == "4467361" })
        #expect(odd.score == nil && odd.clock == "50'" && odd.period == nil && odd.status == .live)
        // Red cards: a float on one side (the other has none), a string on the other side, none at all, a word.
        #expect(live.redCards == Score(home: 1, away: 0))
        #expect(strings.redCards == Score(home: 0, away: 2))
        #expect(later.redCards == nil && odd.redCards == nil)
        // The store keeps them as the event's statistic, replaced (not repeated) by the next count.
        var store = LiveStore()
        store.apply(FeedMessage(provider: .sportsapiV1, receivedAt: Date(), update: .scoreboard(live)))
        var more = live
        more.redCards = Score(home: 2, away: 0)
        store.apply(FeedMessage(provider: .sportsapiV1, receivedAt: Date(), update: .scoreboard(more)))
        let stats = try #require(store.currentEvents().first).stats
        #expect(stats == [TeamStat(name: "Red cards", home: "2", away: "0")])
        // The same updateId as an integer is the same message: stale.
        let again = try Fixture.text("docs/sportsapi-v1-scores.json")
        #expect(try feed.receive(Array(again.utf8), first: false) == .keepalive)
    }

    @Test("v2 odds in SofaScore's own shape: the feed's own book, fractions kept exact")
    func v2SofaScoreOdds() throws {
        let feed = SportsAPIProFeed(settings: ProviderSettings(key: "k", restURL: "", webSocketURL: "ws://127.0.0.1:1/ws"), sport: nil,
                                    channels: [.odds("14109842")])
        let inbound = try feed.receive(Array(try Fixture.text("docs/sportsapi-odds-sofascore.json").utf8), first: false)
        guard case .batch(_, let skipped) = inbound.unstamped else { Issue.record("expected the nameless market counted: \(inbound)"); return }
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
