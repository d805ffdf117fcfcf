import Foundation
@testable import OddsBoltOdds
import OddsJSON
@testable import OddsCLI
import OddsModel
import OddsOutput
import OddsDashboard
import OddsStore
import OddsTransport
import OddsValue
import OddsTestSupport
import Testing

/// BoltOdds' decoders on the payloads printed in its docs (Fixtures/docs), and on hostile variants.
@Suite("BoltOdds decoders", .unitLane)
struct BoltOddsDecoderTests {
    static let settings = ProviderSettings(key: "k", restURL: "http://127.0.0.1:1/api", webSocketURL: "ws://127.0.0.1:1/api")
    static let label = "New York Mets vs Los Angeles Angels, 2025-07-23, 01"

    func oddsFeed() -> BoltOddsOddsFeed {
        BoltOddsOddsFeed(settings: BoltOddsDecoderTests.settings, filters: BoltOddsFilters(), index: BoltOddsGameIndex())
    }

    func outcome(_ key: String, odds: String, name: String = "Moneyline", target: String? = nil, line: String? = nil,
                 overUnder: String? = nil) -> String {
        func q(_ s: String?) -> String { s.map { "\"\($0)\"" } ?? "null" }
        return "\"\(key)\":{\"odds\":\(odds),\"outcome_name\":\"\(name)\",\"outcome_line\":\(q(line)),\"outcome_over_under\":\(q(overUnder)),\"outcome_target\":\(q(target))}"
    }

    func message(_ action: String, book: String = "draftkings", league: String = "MLB", outcomes: [String]) -> String {
        """
        {"action":"\(action)","data":{"sport":"\(league)","sportsbook":"\(book)","game":"\(BoltOddsDecoderTests.label)",\
        "home_team":"New York Mets","away_team":"Los Angeles Angels","info":{},"outcomes":{\(outcomes.joined(separator: ","))}}}
        """
    }

    @Test("The docs' initial_state: one book's view of a game, American prices as sent, deep links kept")
    func initialState() throws {
        let updates = try oddsFeed().decode(Fixture.text("docs/boltodds-initial-state.json"), first: true)
        guard case .bookUpsert(let event, let book)? = updates.first, updates.count == 1 else { Issue.record("\(updates)"); return }
        #expect(book == "ballybet")
        #expect(event.id == BoltOddsDecoderTests.label && event.home == "New York Mets" && event.away == "Los Angeles Angels")
        #expect(event.league == "MLB" && event.sport == "baseball")
        #expect(event.markets.count == 1 && event.markets[0].id == "Moneyline" && event.markets[0].book == "ballybet")
        let sels = event.markets[0].selections
        #expect(sels.map(\.name) == ["New York Mets", "Los Angeles Angels"])
        #expect(sels.map { $0.price?.text } == ["-10000", "+3300"])
        #expect(sels[1].price?.formatted(.decimal) == "34.00")
        #expect(sels[0].link?.hasPrefix("https://play.ballybet.ca/sports#event/1022036664?coupon=") == true)
    }

    @Test("Totals in the docs' letters (O, U) or in words, any case, are a total's over and under in both decoders: margin and fair price")
    func totalLetters() throws {
        for (over, under) in [("O", "U"), ("o", "u"), ("Over", "Under"), ("OVER", "under")] {
            let text = message("initial_state", outcomes: [
                outcome("Over 8.5 Total Runs", odds: "\"-110\"", name: "Total Runs", line: "8.5", overUnder: over),
                outcome("Under 8.5 Total Runs", odds: "\"-110\"", name: "Total Runs", line: "8.5", overUnder: under),
                outcome("Mets Moneyline", odds: "\"-150\"", target: "New York Mets"),
                outcome("Angels Moneyline", odds: "\"+130\"", target: "Los Angeles Angels"),
            ])
            let frame = Array(text.utf8)
            #expect(BoltOddsDecoders.agree(frame), "\(over)")
            let fast = try #require(BoltOddsDecoders.wholeUpdates(frame, now: Date()))
            let generic = try oddsFeed().decode(text, first: true)
            for updates in [fast, generic] {
                guard case .bookUpsert(let event, _)? = updates.first else { Issue.record("\(updates)"); continue }
                let totals = try #require(event.markets.first { $0.id == "Total Runs" })
                #expect(totals.selections.map(\.name) == ["Over", "Under"], "\(over)")
                let total = try #require(ValueAnalysis.analyze(event, settings: ValueSettings()) { _ in 0 }.first { $0.id == "total:8.5" },
                                         "\(over): no total")
                #expect(total.outcomes.count == 2 && total.fairPrice(0)?.rounded(places: 2) == "2.00", "\(over)")
            }
        }
        // Another side's text is kept as sent, not guessed.
        #expect(BoltOddsWire.totalSide("Odd") == "Odd" && BoltOddsWire.totalSide("Overs") == "Overs" && BoltOddsWire.totalSide("X") == "X")
    }

    @Test("One object or an array of them per frame; alternate lines stay apart; \"\" and null are suspended, never the last number")
    func framingLinesAndSuspension() throws {
        let feed = oddsFeed()
        let initial = message("initial_state", outcomes: [
            outcome("Over 8.5", odds: "\"-110\"", name: "Total Runs", line: "8.5", overUnder: "Over"),
            outcome("Over 9.5", odds: "\"+120\"", name: "Total Runs", line: "9.5", overUnder: "Over"),
            outcome("Mets", odds: "\"-150\"", target: "New York Mets"),
        ])
        let suspended = message("line_update", outcomes: [outcome("Mets", odds: "\"\"", target: "New York Mets")])
        let withdrawn = message("line_update", outcomes: [outcome("Over 9.5", odds: "null", name: "Total Runs", line: "9.5", overUnder: "Over")])
        let inbound = try feed.receive(Array("[\(initial),\(suspended),\(withdrawn),{\"action\":\"ping\"}]".utf8), first: false)
        guard case .batch(let items, let skipped) = inbound else { Issue.record("\(inbound)"); return }
        #expect(items.count == 4 && skipped.isEmpty)
        let updates = inbound.updates
        guard case .bookUpsert(let event, _) = updates[0] else { Issue.record("\(updates)"); return }
        let totals = try #require(event.markets.first { $0.id == "Total Runs" })
        #expect(totals.selections.map(\.ref) == [SelectionRef(id: "Over", line: "8.5"), SelectionRef(id: "Over", line: "9.5")])
        guard case .price(let p1) = updates[1], case .price(let p2) = updates[2] else { Issue.record("\(updates)"); return }
        #expect(p1.selection.suspended && p1.selection.price == nil && p1.book == "draftkings")
        #expect(p2.selection.suspended && p2.selection.price == nil && p2.selection.line == "9.5")
        #expect(updates[3] == .heartbeat)

        var store = LiveStore()
        for u in updates { store.apply(FeedMessage(provider: .boltodds, connection: "odds", receivedAt: Date(), update: u)) }
        let stored = try #require(store.events[EventKey(provider: .boltodds, id: BoltOddsDecoderTests.label)]?.event)
        let ml = try #require(stored.markets.first { $0.id == "Moneyline" }?.selections.first)
        #expect(ml.suspended && ml.price == nil)
        #expect(stored.markets.first { $0.id == "Total Runs" }?.selections.map(\.isAvailable) == [true, false])
    }

    @Test("game_removed, sport_clear and book_clear name exactly what they remove")
    func clears() throws {
        let feed = oddsFeed()
        #expect(try feed.decode(#"{"action":"game_removed","data":{"sport":"MLB","sportsbook":"fanduel","game":"G","outcomes":{}}}"#, first: false)
                == [.clear(.bookInEvent(book: "fanduel", eventID: "G"))])
        #expect(try feed.decode(#"{"action":"sport_clear","data":{"sport":"NBA","sportsbook":"ballybet","game":{},"home_team":{},"away_team":{},"info":{},"outcomes":{}}}"#, first: false)
                == [.clear(.bookInLeague(book: "ballybet", league: "NBA"))])
        #expect(try feed.decode(#"{"action":"book_clear","data":{"sport":{},"sportsbook":"ballybet","game":{},"home_team":{},"away_team":{},"info":{},"outcomes":{}}}"#, first: false)
                == [.clear(.book("ballybet"))])

        // Two books, two competitions: each clear takes its own part only.
        var store = LiveStore()
        func apply(_ u: FeedUpdate) { store.apply(FeedMessage(provider: .boltodds, connection: "odds", receivedAt: Date(), update: u)) }
        for (book, league, game) in [("fanduel", "MLB", "A vs B, 1"), ("ballybet", "MLB", "A vs B, 1"), ("ballybet", "NBA", "C vs D, 2"),
                                     ("fanduel", "NBA", "C vs D, 2")] {
            let sel = Selection(id: "A", name: "A", price: Price(american: "-110"))
            apply(.bookUpsert(Event(provider: .boltodds, id: game, sport: "x", league: league, home: "A", away: "B",
                                    markets: [Market(id: "Moneyline", name: "Moneyline", book: book, selections: [sel])]), book: book))
        }
        apply(.clear(.bookInLeague(book: "ballybet", league: "NBA")))
        #expect(store.events[EventKey(provider: .boltodds, id: "C vs D, 2")]?.event.books == ["fanduel"])
        #expect(store.events[EventKey(provider: .boltodds, id: "A vs B, 1")]?.event.books == ["fanduel", "ballybet"])
        apply(.clear(.bookInEvent(book: "fanduel", eventID: "A vs B, 1")))
        #expect(store.events[EventKey(provider: .boltodds, id: "A vs B, 1")]?.event.books == ["ballybet"])
        apply(.clear(.bookInEvent(book: "ballybet", eventID: "A vs B, 1")))
        #expect(store.events[EventKey(provider: .boltodds, id: "A vs B, 1")] == nil, "gone from every book: the game is over")
    }

    @Test("A book's update replaces that book's markets only; the best price across books names its book")
    func bookUpsertAndBestPrice() throws {
        var store = LiveStore()
        let feed = oddsFeed()
        for (book, home, away) in [("draftkings", "-120", "+100"), ("fanduel", "-110", "-105"), ("betmgm", "\"\"", "+110")] {
            let text = message("initial_state", book: book, outcomes: [
                outcome("Mets", odds: home.hasPrefix("\"") ? home : "\"\(home)\"", target: "New York Mets"),
                outcome("Angels", odds: "\"\(away)\"", target: "Los Angeles Angels"),
            ])
            for u in try feed.decode(text, first: false) { store.apply(FeedMessage(provider: .boltodds, receivedAt: Date(), update: u)) }
        }
        let key = EventKey(provider: .boltodds, id: BoltOddsDecoderTests.label)
        #expect(store.events[key]?.event.books == ["draftkings", "fanduel", "betmgm"])
        let home = try #require(store.bestPrice(key, marketID: "Moneyline", selection: SelectionRef(id: "New York Mets", line: nil)))
        #expect(home.price.text == "-110" && home.book == "fanduel")
        let away = try #require(store.bestPrice(key, marketID: "Moneyline", selection: SelectionRef(id: "Los Angeles Angels", line: nil)))
        #expect(away.price.text == "+110" && away.book == "betmgm")
        // fanduel moves: only its prices change, with a move recorded for its selection.
        let update = message("game_update", book: "fanduel", outcomes: [outcome("Mets", odds: "\"-130\"", target: "New York Mets"),
                                                                         outcome("Angels", odds: "\"+105\"", target: "Los Angeles Angels")])
        for u in try feed.decode(update, first: false) { store.apply(FeedMessage(provider: .boltodds, receivedAt: Date(), update: u)) }
        #expect(store.events[key]?.event.books == ["draftkings", "fanduel", "betmgm"])
        #expect(store.events[key]?.event.markets.first { $0.book == "draftkings" }?.selections.first?.price?.text == "-120")
        #expect(store.events[key]?.moves[SelectionKey(marketID: "Moneyline", book: "fanduel", selectionID: "New York Mets")]?.direction == .down)
    }

    @Test("Bad input: odds that are not American, games without teams, duplicate outcomes, unknown actions are skipped and counted; the rest goes on")
    func badInput() throws {
        let feed = oddsFeed()
        for bad in ["\"EVEN\"", "\"+\"", "\"1e9\"", "\"-99\"", "\"12345678\"", "true", "{}"] {
            let text = message("game_update", outcomes: [outcome("Bad", odds: bad, target: "New York Mets"),
                                                         outcome("Good", odds: "\"+150\"", target: "Los Angeles Angels")])
            let inbound = try feed.receive(Array(text.utf8), first: false)
            guard case .batch(let items, let skipped) = inbound else { Issue.record("\(bad): \(inbound)"); continue }
            #expect(skipped.count == 1, "\(bad)")
            guard case .bookUpsert(let e, _)? = items.first?.updates.first else { Issue.record("\(bad)"); continue }
            #expect(e.markets.flatMap(\.selections).map(\.name) == ["Los Angeles Angels"], "\(bad)")
        }
        let duplicate = message("game_update", outcomes: [outcome("A", odds: "\"+150\"", target: "X"), outcome("B", odds: "\"+160\"", target: "X")])
        guard case .batch(_, let skipped) = try feed.receive(Array(duplicate.utf8), first: false) else { Issue.record("no batch"); return }
        #expect(skipped.count == 1 && skipped[0].contains("duplicate"))
        // A single bad message throws (the runner counts it); in an array, only the bad element goes.
        #expect(throws: MalformedMessage.self) { try feed.receive(Array(#"{"action":"surprise"}"#.utf8), first: false) }
        #expect(throws: MalformedMessage.self) {
            try feed.receive(Array(#"{"action":"game_update","data":{"sport":"MLB","sportsbook":"b","game":"G","outcomes":{}}}"#.utf8), first: false)
        }
        let mixed = "[{\"action\":\"surprise\"},\(message("game_update", outcomes: [outcome("Good", odds: "\"+150\"", target: "X")])),7]"
        guard case .batch(let items, let skippedMixed) = try feed.receive(Array(mixed.utf8), first: false) else { Issue.record("no batch"); return }
        #expect(items.count == 1 && skippedMixed.count == 2)
    }

    @Test("error actions: the re-subscribe limit waits 5 s and resends on the same connection; a bad key stops; others are shown")
    func errors() throws {
        let feed = oddsFeed()
        let limit = try feed.receive(Array(#"{"action": "error", "message": "Re-subscription rate limit hit. Please wait 5 seconds before re-subscribing."}"#.utf8), first: false)
        guard case .retry(_, let after, let resend) = limit else { Issue.record("\(limit)"); return }
        #expect(after >= 5 && resend == [BoltOddsFilters().subscribeMessage])
        guard case .fatal(let e) = try feed.receive(Array(#"{"action":"error","message":"Invalid API key"}"#.utf8), first: false) else {
            Issue.record("not fatal"); return
        }
        #expect(e.exitCode == 3)
        #expect(try feed.receive(Array(#"{"action":"error","message":"Code 1: game is not live"}"#.utf8), first: false) == .notice("Code 1: game is not live"))
        // On the scores and play-by-play sockets, a scheduled game's "not live" is the expected answer, in either wording.
        let scores = BoltOddsGamesFeed(kind: .scores, settings: ProviderSettings(key: "k", restURL: "", webSocketURL: "ws://127.0.0.1:1/api/livescores"),
                                       games: [], index: BoltOddsGameIndex())
        for text in ["Code 1: game is not live: A vs B, 2025-07-23, 01", "No live data available for game A vs B, 2025-07-23, 01"] {
            #expect(try scores.receive(Array(#"{"action":"error","message":"\#(text)"}"#.utf8), first: false) == .keepalive)
        }
        #expect(try scores.receive(Array(#"{"action":"error","message":"Server busy"}"#.utf8), first: false) == .notice("Server busy"))
        #expect(try feed.receive(Array(#"{"action":"subscription_updated","message":"ok"}"#.utf8), first: false) == .keepalive)
    }

    @Test("The subscribe message spells the filters as given, and leaves out what is not filtered")
    func subscribeMessage() {
        #expect(BoltOddsFilters().subscribeMessage == #"{"action":"subscribe","filters":{}}"#)
        #expect(BoltOddsFilters(sports: ["NBA", "Wimbledon (M)"], sportsbooks: ["draftkings"]).subscribeMessage
                == #"{"action":"subscribe","filters":{"sports":["NBA","Wimbledon (M)"],"sportsbooks":["draftkings"]}}"#)
    }

    @Test("The docs' live score: runs by designation, the period in words")
    func liveScore() throws {
        let index = BoltOddsGameIndex()
        let feed = BoltOddsGamesFeed(kind: .scores, settings: BoltOddsDecoderTests.settings, games: [], index: index)
        let updates = try feed.decode(Fixture.text("docs/boltodds-live-score.json"), first: false)
        guard case .scoreboard(let b)? = updates.first else { Issue.record("\(updates)"); return }
        #expect(b.eventID == "Georgia Yellow Jackets vs Georgia Panthers, 2026-02-24, 04")
        #expect(b.score == Score(home: 2, away: 0) && b.period == "Top 5th inning" && b.status == .live)
        // Designation the other way round swaps the sides.
        let swapped = try Fixture.text("docs/boltodds-live-score.json").replacingOccurrences(of: #"{"A": "home", "B": "away"}"#, with: #"{"A": "away", "B": "home"}"#)
        guard case .scoreboard(let s)? = try feed.decode(swapped, first: false).first else { Issue.record("no board"); return }
        #expect(s.score == Score(home: 0, away: 2))
    }

    @Test("The docs' play-by-play: stream 1 state into score, clock and period under the odds label; stream 3 plays without noise, told once")
    func playByPlay() throws {
        let index = BoltOddsGameIndex()
        index.add(["Buffalo Bills vs Cincinnati Bengals, 2025-12-07, 01"])
        let feed = BoltOddsGamesFeed(kind: .pbp, settings: BoltOddsDecoderTests.settings, games: [], index: index)
        guard case .scoreboard(let b)? = try feed.decode(Fixture.text("docs/boltodds-pbp-current-state.json"), first: false).first else {
            Issue.record("no board"); return
        }
        #expect(b.eventID == "Buffalo Bills vs Cincinnati Bengals, 2025-12-07, 01")
        #expect(b.score == Score(home: 11, away: 21) && b.clock == "10:31" && b.period == "Q3" && b.sport == "american-football")
        // Goal kicks and danger states are not incidents; a goal is, once.
        var text = try Fixture.text("docs/boltodds-pbp-stream3.json")
        var updates = try feed.decode(text, first: false)
        #expect(updates.count == 1, "\(updates)")
        text = text.replacingOccurrences(of: #""type": "DangerStateChanged""#, with: #""type": "Goal""#)
        updates = try feed.decode(text, first: false)
        #expect(updates.filter { if case .incident = $0 { return true } else { return false } }.count == 1)
        guard case .incident(_, let goal)? = updates.last else { Issue.record("\(updates)"); return }
        #expect(goal.kind == .goal && goal.minute == 66 && goal.team == .away)
        #expect(try feed.decode(text, first: false).count == 1, "the same play again is not a new incident")
    }

    @Test("The docs' streams 2 and 4: score and period end from stream 2; a missed attempt in stream 4 is no incident, a made one is")
    func playByPlayStreams2And4() throws {
        let feed = BoltOddsGamesFeed(kind: .pbp, settings: BoltOddsDecoderTests.settings, games: [], index: BoltOddsGameIndex())
        let two = try feed.decode(Fixture.text("docs/boltodds-pbp-stream2.json"), first: false)
        guard case .scoreboard(let b)? = two.first else { Issue.record("\(two)"); return }
        #expect(b.score == Score(home: 80, away: 82) && b.clock == "00:00" && b.sport == "basketball")
        #expect(b.home == "Houston Rockets" && b.away == "Los Angeles Clippers")
        guard case .incident(_, let end)? = two.last else { Issue.record("\(two)"); return }
        #expect(end.kind == .period && end.detail == "End of 3rd Quarter.")

        let missed = try Fixture.text("docs/boltodds-pbp-stream4.json")
        let four = try feed.decode(missed, first: false)
        #expect(four.count == 1, "\(four)")
        guard case .scoreboard(let s)? = four.first else { Issue.record("\(four)"); return }
        #expect(s.score == Score(home: 8, away: 9) && s.home == "Portland Trail Blazers")
        let made = missed.replacingOccurrences(of: "attempt_missed", with: "attempt_made").replacingOccurrences(of: "Attempt missed", with: "Attempt made")
        let scored = try feed.decode(made, first: false)
        guard case .incident(_, let play)? = scored.last else { Issue.record("\(scored)"); return }
        #expect(play.kind == .goal && play.team == .home && play.detail == "Attempt made (3)")
    }

    @Test("game_added is a book's whole view of a new game, like game_update")
    func gameAdded() throws {
        let updates = try oddsFeed().decode(message("game_added", book: "espnbet", outcomes: [outcome("Mets", odds: "\"-105\"", target: "New York Mets")]),
                                            first: false)
        guard case .bookUpsert(let e, let book)? = updates.first else { Issue.record("\(updates)"); return }
        #expect(book == "espnbet" && e.markets.first?.selections.first?.price?.text == "-105")
    }

    @Test("Competition names map to sports (inferred table); unknown ones stay unknown")
    func leagues() {
        #expect(BoltOddsLeagues.sport("NBA") == "basketball")
        #expect(BoltOddsLeagues.sport("EFL Championship") == "soccer")
        #expect(BoltOddsLeagues.sport("Wimbledon (M)") == "tennis")
        #expect(BoltOddsLeagues.sport("Zorbing") == "unknown")
    }
}

/// Many books on screen: the best price with its book, links, and the dashboard's grid.
@Suite("Multi-book output", .unitLane)
struct MultiBookOutputTests {
    static let label = "Boston Celtics vs Miami Heat, 2026-11-23, 07"

    static func event() -> Event {
        func market(_ book: String, _ home: String?, _ away: String?) -> Market {
            Market(id: "Moneyline", name: "Moneyline", book: book, selections: [
                Selection(id: "Boston Celtics", name: "Boston Celtics", price: home.flatMap { Price(american: $0) }, suspended: home == nil,
                          link: "https://\(book).example/bet/1"),
                Selection(id: "Miami Heat", name: "Miami Heat", price: away.flatMap { Price(american: $0) }, suspended: away == nil,
                          link: "https://\(book).example/bet/2\u{1B}]0;pwned\u{07}"),
            ])
        }
        return Event(provider: .boltodds, id: label, sport: "basketball", league: "NBA", home: "Boston Celtics", away: "Miami Heat",
                     status: .live, markets: [market("draftkings", "-150", "+130"), market("fanduel", "-140", nil), market("betmgm", "-160", "+125")])
    }

    @Test("Tables show each price at its best across books with the book; --links makes the price an OSC 8 link, never with a hostile URL")
    func tableAndLinks() {
        let e = MultiBookOutputTests.event()
        #expect(EventReporter.mainPrices(e, format: .american) == ["-140 fanduel", "", "+130 draftkings"])
        let plain = EventReporter.render([e], format: .table, options: RenderOptions(oddsFormat: .american))
        #expect(!plain.contains("\u{1B}"))
        let linked = EventReporter.render([e], format: .table, options: RenderOptions(oddsFormat: .american, links: true))
        #expect(linked.contains("\u{1B}]8;;https://fanduel.example/bet/1\u{1B}\\"))
        // The away link carries an escape sequence: it is not linked at all.
        #expect(!linked.contains("pwned") && !linked.contains("draftkings.example/bet/2"))
        #expect(TerminalText.hyperlink("x", url: "javascript:alert(1)") == "x")
        // The detail lists every book's price with its link (made safe for the terminal).
        let detail = EventReporter.detail(e, options: RenderOptions(oddsFormat: .american))
        #expect(detail.contains("LINK") && detail.contains("https://betmgm.example/bet/1"))
        #expect(!detail.contains("\u{1B}") && !detail.contains("\u{07}"))
    }

    @Test("The dashboard's detail pane: a grid of books × selections, the best price bold, suspensions, and where the best price is")
    func dashboardGrid() throws {
        var model = DashboardModel(provider: .boltodds, sport: "basketball", demo: false, oddsFormat: .american, now: Date(timeIntervalSince1970: 0))
        _ = update(&model, .resize(width: 120, height: 30))
        _ = update(&model, .feed(FeedMessage(provider: .boltodds, receivedAt: Date(timeIntervalSince1970: 0),
                                             update: .snapshot([MultiBookOutputTests.event()]))))
        _ = update(&model, .key(.enter))
        let screen = DashboardLayout.layout(model)
        let text = (0..<screen.height).map(screen.line).joined(separator: "\n")
        // Proper names, cut to the cell where no short name is known ("DraftKing").
        #expect(text.contains("DraftKing") && text.contains("FanDuel") && text.contains("BetMGM") && text.contains("best at FanDuel"), "\(text)")
        let y = try #require((0..<screen.height).first { screen.line($0).contains("Boston Celtics") && screen.line($0).contains("-150") })
        let row = screen.line(y)
        #expect(row.contains("-140") && row.contains("-160"), "\(text)")
        // The best price (fanduel's -140) is bold, the others are not.
        let best = try #require(row.range(of: "-140")).lowerBound
        let x = row.distance(from: row.startIndex, to: best)
        #expect(screen.rows[y][x].attributes.contains(.bold))
        let other = row.distance(from: row.startIndex, to: try #require(row.range(of: "-150")).lowerBound)
        #expect(!screen.rows[y][other].attributes.contains(.bold))
        #expect(text.contains("SUSP"))
        #expect(text.contains("Boston Celtics: best at FanDuel https://fanduel.example/bet/1"))
    }
}

/// `odds boltodds pbp` and `scores` on a terminal: one line per change, for a person, made safe.
@Suite("Human lines for scores and plays", .unitLane)
struct HumanLineTests {
    @Test("A scoreboard, an incident and a connection change read as lines; heartbeats and prices are not shown; provider text is made safe")
    func lines() {
        var store = LiveStore()
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let board = Scoreboard(eventID: "Bills vs Bengals, 2025-12-07", home: "Buffalo Bills", away: "Cincinnati \u{1B}[2JBengals",
                               score: Score(home: 11, away: 21), clock: "10:31", period: "Q3", status: .live)
        let m = FeedMessage(provider: .boltodds, connection: "pbp", receivedAt: at, update: .scoreboard(board))
        store.apply(m)
        let line = humanLine(m, store: store)
        #expect(line?.hasSuffix("11-21  Q3  10:31  live") == true, "\(line ?? "nil")")
        #expect(line?.contains("Buffalo Bills v Cincinnati") == true)
        #expect(!TerminalText.safe(line ?? "").contains("\u{1B}"))
        let goal = FeedMessage(provider: .boltodds, connection: "pbp", receivedAt: at,
                               update: .incident(eventID: board.eventID, Incident(kind: .goal, minute: 12, team: .home, detail: "Touchdown")))
        store.apply(goal)
        #expect(humanLine(goal, store: store)?.contains("12' touchdown (Buffalo Bills)") == true)
        #expect(humanLine(FeedMessage(provider: .boltodds, connection: "scores", receivedAt: at, update: .connection(.live)), store: store)?
                    .hasSuffix("BoltOdds scores: live") == true)
        #expect(humanLine(FeedMessage(provider: .boltodds, receivedAt: at, update: .heartbeat), store: store) == nil)
    }
}
