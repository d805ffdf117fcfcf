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

/// What a hostile SportsAPIPro server found (issue 18), each fixed at its root.
@Suite("Hostile input on the new providers", .timeLimit(.minutes(2)))
struct HostileInputTests {
    static func feed(_ channels: [SportsAPIProChannel]) -> SportsAPIProFeed {
        SportsAPIProFeed(settings: ProviderSettings(key: "k", restURL: "", webSocketURL: "ws://127.0.0.1:1/ws"), sport: nil, channels: channels)
    }

    @Test("20,000 incidents: sorted once (not a scan per comparison), the newest 500 kept, said once", .heavyLane)
    func manyIncidents() throws {
        // Newest first, as SofaScore lists them: minute 120 down to 0, many per minute.
        let items = (0..<20_000).map { i in #"{"incidentType":"card","id":\#(i),"time":\#(120 - i * 121 / 20_000),"isHome":true,"incidentClass":"yellow"}"# }
        let frame = #"{"channel":"match:7:incidents","type":"update","data":{"incidents":[\#(items.joined(separator: ","))]}}"#
        let inbound = try Self.feed([.incidents("7")]).receive(Array(frame.utf8), first: false)
        guard case .batch(let parts, let skipped) = inbound, skipped.isEmpty, parts.count == 2, case .notice(let text) = parts[1] else {
            Issue.record("expected the incidents and one notice"); return
        }
        #expect(text.contains("only the newest 500"))
        let incidents = parts[0].updates.compactMap { u -> Incident? in if case .incident(_, let i) = u { return i }; return nil }
        #expect(incidents.count == 500)
        // Oldest first, and they are the newest of the list (the first 500 sent, ids 0…499).
        #expect(incidents.map(\.minute) == incidents.map(\.minute).sorted { ($0 ?? 0) < ($1 ?? 0) })
        #expect(Set(incidents.compactMap(\.id)) == Set((0..<500).map(String.init)))
        #expect(incidents.last?.id == "0")
    }

    @Test("A snapshot whose data is a string, a number or a bool is unusable like null: skipped, and the channel waits for real data")
    func unusableSnapshots() throws {
        for data in [#""oops""#, "42", "true", "null"] {
            let feed = Self.feed([.liveScores(sport: nil)])
            let frame = #"{"channel":"live-scores","type":"snapshot","data":\#(data),"timestamp":1}"#
            #expect(throws: (any Error).self) { try feed.receive(Array(frame.utf8), first: false) }
            // Not settled by it: a one-shot query goes on waiting for the real snapshot.
            #expect(!feed.settled([.liveScores(sport: nil)], quiet: 3600))
            #expect(feed.emitted == 0)
        }
        // An empty list is a real answer: nothing live.
        let feed = Self.feed([.liveScores(sport: nil)])
        #expect(try feed.receive(Array(#"{"channel":"live-scores","type":"snapshot","data":[]}"#.utf8), first: false) == .data([]))
        #expect(feed.settled([.liveScores(sport: nil)], quiet: 3600))
    }

    @Test("Data on a channel never subscribed is dropped and counted; live-scores:{sport} of the x-sport is ours")
    func unsubscribedChannel() throws {
        let feed = Self.feed([.liveScores(sport: nil), .incidents("1")])
        // A replay (no connection) takes every channel it recorded; a connection takes only what it asked for.
        let stray0 = #"{"channel":"match:3:incidents","type":"update","data":[{"incidentType":"goal","time":3}]}"#
        #expect(try feed.decode(stray0, first: false).count == 1)
        feed.didConnect(FeedLink())
        let stray = #"{"channel":"match:2:incidents","type":"update","data":[{"incidentType":"goal","time":3}]}"#
        let inbound = try feed.receive(Array(stray.utf8), first: false)
        guard case .batch(let items, let skipped) = inbound else { Issue.record("expected a skipped batch, got \(inbound)"); return }
        #expect(items.isEmpty && skipped.count == 1 && skipped[0].contains("not subscribed"))
        #expect(try feed.decode(#"{"channel":"match:1:incidents","type":"update","data":[{"incidentType":"goal","time":3}]}"#, first: false).count == 1)
        let scoped = #"{"channel":"live-scores:football","type":"update","data":[{"id":5,"homeTeam":"A","awayTeam":"B"}]}"#
        #expect(try feed.decode(scoped, first: false).count == 1)
        let other = #"{"channel":"live-scores:tennis","type":"update","data":[{"id":6,"homeTeam":"A","awayTeam":"B"}]}"#
        #expect(try feed.decode(other, first: false).isEmpty)
        // After an unsubscribe, the channel's late data is dropped too.
        feed.unsubscribe([.incidents("1")])
        #expect(try feed.decode(#"{"channel":"match:1:incidents","type":"update","data":[{"incidentType":"goal","time":4}]}"#, first: false).isEmpty)
    }

    @Test("Repeated warnings: the first said whole (cut), the rest counted per interval", .heavyLane)
    func warningGate() {
        var gate = WarningGate(interval: 10)
        let t = Date(timeIntervalSince1970: 1_000)
        #expect(gate.note("feed: skipped", "bad 1", now: t) == ["feed: skipped: bad 1"])
        for i in 2...200_000 { #expect(gate.note("feed: skipped", "bad \(i)", now: t.addingTimeInterval(Double(i) / 100_000)).isEmpty) }
        #expect(gate.hasPending && gate.due(now: t.addingTimeInterval(5)).isEmpty)
        #expect(gate.due(now: t.addingTimeInterval(10)) == ["feed: skipped: 199999 more in the last 10 s (the latest: bad 200000)"])
        #expect(!gate.hasPending)
        let long = String(repeating: "x", count: 100_000)
        let line = gate.note("other", long, now: t)
        #expect(line.count == 1 && line[0].count < 300 && line[0].hasSuffix("(99800 more characters)"))
        #expect(ProviderText.excerpt("short") == "short")
        #expect(OddsError.provider(.sportsapi, long).message.count < 300)
    }

}

/// Status and time that are true (issue 18).
@Suite("Honest status and time")
struct StatusAndTimeTests {
    static func event(_ sport: String, status: EventStatus = .live, clock: String? = nil, period: String? = nil) -> Event {
        Event(provider: .tickodds, id: "1", sport: sport, home: "A", away: "B", status: status, clock: clock, period: period)
    }

    @Test("The TIME column is a short clock for every sport, never a cut sentence", arguments: [
        ("soccer", "67:23", "2nd Half", "68'"), ("soccer", "45:30", "1st Half", "45+1'"), ("soccer", "92:10", "2nd Half", "90+3'"),
        ("soccer", "45+2'", nil, "45+2'"), ("soccer", nil, "In second half", "2H"), ("soccer", nil, "Half Time", "HT"),
        ("basketball", "05:12", "3rd Quarter", "Q3 5:12"), ("basketball", nil, "In third quarter", "Q3"),
        ("basketball", "02:00", "Overtime", "OT 2:00"), ("ice-hockey", "14:03", "2nd Period", "P2 14:03"),
        ("tennis", nil, "In set 2", "S2"), ("tennis", nil, "Set 1", "S1"), ("baseball", nil, "Top 7th inning", "T7 ▲"),
        ("baseball", nil, "Bottom 9th inning", "B9 ▼"), ("esports", nil, "Map 2", "M2"), ("soccer", nil, "Penalties", "PEN"),
        ("soccer", nil, "A very long description of what is going on", "live"), ("soccer", "In second half", nil, "2H"),
    ] as [(String, String?, String?, String)])
    func shortClock(sport: String, clock: String?, period: String?, expected: String) {
        #expect(ShortClock.label(Self.event(sport, clock: clock, period: period)) == expected)
    }

    @Test("Scheduled games show their kick-off (with the date when not today); ended, half time and suspended their mark")
    func kickOffAndMarks() {
        let utc = TimeZone(identifier: "UTC")!
        let now = Date(timeIntervalSince1970: 1_795_521_600)  // 2026-11-24 12:00 UTC
        var e = Self.event("soccer", status: .scheduled)
        e.startTime = now.addingTimeInterval(7.75 * 3600)
        #expect(ShortClock.label(e, at: now, zone: utc) == "19:45")
        e.startTime = now.addingTimeInterval(24 * 3600)
        #expect(ShortClock.label(e, at: now, zone: utc) == "11-25 12:00")
        #expect(ShortClock.label(e, at: now, zone: utc, width: 7) == "11-25")
        e.startTime = nil
        #expect(ShortClock.label(e, at: now, zone: utc) == "pre")
        #expect(ShortClock.label(Self.event("soccer", status: .ended, clock: "90:00")) == "FT")
        #expect(ShortClock.label(Self.event("soccer", status: .halftime, clock: "45:00")) == "HT")
        #expect(ShortClock.label(Self.event("soccer", status: .suspended)) == "SUSP")
    }

    @Test("Kick-off times by arithmetic read as Foundation's Gregorian calendar reads them, in zones with odd offsets and daylight time")
    func kickOffArithmetic() throws {
        var random = SeededRandom(seed: 11)
        let zones = try ["UTC", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham", "America/St_Johns",
                         "Europe/London", "Pacific/Kiritimati"].map { try #require(TimeZone(identifier: $0)) }
        for zone in zones {
            for _ in 0..<400 {
                let now = Date(timeIntervalSince1970: Double(random.next() % 2_000_000_000) + random.unit())
                // Around now, across midnights and daylight changes, and far off.
                let offsets = [Double(random.next() % 200_000) - 100_000, Double(random.next() % 40_000_000) - 20_000_000]
                for offset in offsets {
                    let start = now.addingTimeInterval(offset)
                    #expect(ShortClock.kickOff(start, now: now, zone: zone) == ShortClock.calendarKickOff(start, now: now, zone: zone),
                            "\(zone.identifier) \(start) \(now)")
                }
            }
        }
        // Outside 1900–9999 the calendar answers.
        let old = Date(timeIntervalSince1970: -3e9), utc = zones[0]
        #expect(ShortClock.kickOff(old, now: Date(timeIntervalSince1970: 0), zone: utc)
                == ShortClock.calendarKickOff(old, now: Date(timeIntervalSince1970: 0), zone: utc))
    }

    @Test("BoltOdds' when is US Eastern wall-clock time, with daylight time from March to November")
    func boltOddsWhen() throws {
        // The docs' example: 01:09 PM on 2025-07-23 is 17:09 UTC (EDT).
        #expect(BoltOddsTime.eastern("2025-07-23, 01:09 PM") == Date(timeIntervalSince1970: 1_753_290_540))
        // Winter: EST, UTC-5. 12:05 AM is just after midnight; 12:30 PM is half past noon.
        #expect(BoltOddsTime.eastern("2026-01-10, 12:05 AM") == Date(timeIntervalSince1970: 1_768_021_500))
        #expect(BoltOddsTime.eastern("2026-01-10, 12:30 PM") == Date(timeIntervalSince1970: 1_768_066_200))
        // The change days: 2026-03-08 02:00 and 2026-11-01 02:00 local.
        #expect(BoltOddsTime.eastern("2026-03-08, 01:30 AM") == Date(timeIntervalSince1970: 1_772_951_400))
        #expect(BoltOddsTime.eastern("2026-03-08, 03:30 AM") == Date(timeIntervalSince1970: 1_772_955_000))
        #expect(BoltOddsTime.eastern("2026-11-01, 03:00 AM") == Date(timeIntervalSince1970: 1_793_520_000))
        #expect(BoltOddsTime.eastern("2026-2-28, 01:00 PM") == nil && BoltOddsTime.eastern("2026-02-30, 01:00 PM") == nil)
        #expect(BoltOddsTime.eastern("2026-02-28, 13:00 PM") == nil && BoltOddsTime.eastern("tomorrow") == nil)
        #expect(BoltOddsTime.eastern("2026-02-28, 5:15 PM") == BoltOddsTime.eastern("2026-02-28, 05:15 PM"))
        // Against Foundation's zone database, across a year.
        let ny = TimeZone(identifier: "America/New_York")!
        for day in stride(from: 0, to: 365, by: 3) {
            let t = Date(timeIntervalSince1970: 1_767_225_600 + Double(day) * 86_400 + 15 * 3600 + 17 * 60)
            var c = Calendar(identifier: .gregorian)
            c.timeZone = ny
            let d = c.dateComponents([.year, .month, .day, .hour, .minute], from: t)
            let h = d.hour! % 12 == 0 ? 12 : d.hour! % 12
            let when = String(format: "%04d-%02d-%02d, %02d:%02d %@", d.year!, d.month!, d.day!, h, d.minute!, d.hour! >= 12 ? "PM" : "AM")
            #expect(BoltOddsTime.eastern(when) == t, "\(when)")
            // Read again in another zone: the same wall clock there.
            let tokyo = TimeZone(identifier: "Asia/Tokyo")!
            #expect(BoltOddsTime.rebase(t, to: tokyo) == t.addingTimeInterval(Double(ny.secondsFromGMT(for: t) - tokyo.secondsFromGMT(for: t))))
        }
    }

    static let frame = #"{"action":"initial_state","data":{"sport":"EPL","sportsbook":"fanduel","game":"Arsenal vs Chelsea, 2026-11-24, 03","home_team":"Arsenal","away_team":"Chelsea","info":{"id":7,"when":"WHEN","link":"x"},"outcomes":{"Arsenal Moneyline":{"odds":"+120","outcome_name":"Moneyline","outcome_target":"Arsenal"}}}}"#

    @Test("BoltOdds: a game is scheduled until its start, live after it, unknown without one; both decoders read when alike")
    func boltOddsStatus() throws {
        let feed = BoltOddsOddsFeed(settings: ProviderSettings(key: "k", restURL: "http://127.0.0.1:1/api", webSocketURL: "ws://127.0.0.1:1/api"),
                                    filters: BoltOddsFilters(), index: BoltOddsGameIndex())
        let start = try #require(BoltOddsTime.eastern("2026-11-24, 03:00 PM"))
        func status(_ when: String, at now: Date) throws -> Event? {
            feed.now = { now }
            let bytes = Array(Self.frame.replacingOccurrences(of: "WHEN", with: when).utf8)
            #expect(BoltOddsDecoders.agree(bytes))
            guard case .bookUpsert(let e, _)? = try feed.decode(bytes, first: false).first else { return nil }
            return e
        }
        let before = try #require(try status("2026-11-24, 03:00 PM", at: start.addingTimeInterval(-3 * 3600)))
        #expect(before.status == .scheduled && before.startTime == start)
        #expect(EventReporter.timeLabel(before, at: start.addingTimeInterval(-3 * 3600)) != "live")
        #expect(try status("2026-11-24, 03:00 PM", at: start.addingTimeInterval(60))?.status == .live)
        #expect(try status("sometime", at: start)?.status == .unknown)
        // A generic-decoder shape the fast path does not take (info as a list) reads no start either.
        let odd = Self.frame.replacingOccurrences(of: #"{"id":7,"when":"WHEN","link":"x"}"#, with: #"[1]"#)
        guard case .bookUpsert(let e, _)? = try feed.decode(odd, first: false).first else { Issue.record("no game"); return }
        #expect(e.startTime == nil && e.status == .unknown)
        // In the store: the start passing makes it live; the scores feed's word (ended) stands.
        var store = LiveStore()
        store.apply(FeedMessage(provider: .boltodds, receivedAt: start, update: .bookUpsert(before, book: "fanduel")))
        var later = before
        later.status = .live
        store.apply(FeedMessage(provider: .boltodds, receivedAt: start, update: .bookUpsert(later, book: "draftkings")))
        #expect(store.events.values.first?.event.status == .live)
        store.apply(FeedMessage(provider: .boltodds, receivedAt: start, update: .scoreboard(Scoreboard(eventID: before.id, status: .ended))))
        store.apply(FeedMessage(provider: .boltodds, receivedAt: start, update: .bookUpsert(later, book: "fanduel")))
        #expect(store.events.values.first?.event.status == .ended)
    }

    @Test("Long ids (BoltOdds' labels) show as a short stable id that commands accept; short ids stay as they are")
    func shortIDs() {
        let label = "New York Mets vs Los Angeles Angels, 2025-07-23, 01"
        let id = Event.shortID(for: label)
        #expect(Event.isShortID(id) && id == Event.shortID(for: label) && id != Event.shortID(for: label + " "))
        // Stable across versions (scripts keep them): FNV-1a's top 28 bits, 7 hex digits, zero-padded.
        #expect(id == "g2d58aa2" && Event.shortID(for: "Home Team 0 vs Away Team 0, 2026-11-23, 01") == "gfe129f6")
        #expect(Event.shortID(for: "a b") == "ge63f991" && Event.stableHex("") == "cbf29ce" && Event.stableHex("m6500") == "00b1ae5")
        #expect(Event.shortID(for: "191691401") == "191691401" && Event.shortID(for: "4467358") == "4467358")
        #expect(!Event.isShortID("191691401") && !Event.isShortID("gxyz1234"))
        let e = Event(provider: .boltodds, id: label, sport: "baseball", home: "New York Mets", away: "Los Angeles Angels", status: .live)
        let table = EventReporter.table([e], options: RenderOptions())
        #expect(table.rows.first?.first == id)
        let json = EventJSON.event(e).rendered
        #expect(json.contains(#""id":"New York Mets vs Los Angeles Angels, 2025-07-23, 01""#) && json.contains(#""shortId":"\#(id)""#))
    }
}

/// Help that fits on a screen (issue 18).
@Suite("Help")
struct HelpTests {
    @Test("odds --help is under 40 lines; the reference lives in odds help TOPIC")
    func rootHelpIsShort() throws {
        let root = OddsCommand.helpMessage(columns: 80)
        #expect(root.split(separator: "\n", omittingEmptySubsequences: false).count < 40, "\(root)")
        #expect(root.contains("EXAMPLES") && root.contains("odds help TOPIC"))
        #expect(!root.contains("JSON EVENT") && !root.contains("CONFIGURATION:"))
        for (topic, needle) in [("output", "JSON EVENT"), ("config", "CONFIGURATION"), ("exit-codes", "130"), ("providers", "inferred")] {
            let text = try Help.text(for: [topic])
            #expect(text.contains(needle), "\(topic)")
            #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 || !$0.contains(" ") }, "\(topic) is wrapped")
        }
        // The root help names the topics from a list of its own (so that a start does not build them): the same.
        #expect(Docs.topicNames == Docs.topics.map(\.name))
        #expect(try Help.text(for: ["boltodds", "games"]).contains("get_games"))
        #expect(throws: (any Error).self) { try Help.text(for: ["nope"]) }
        // The man page carries the topics (generated from the help command's discussion). The parser reads
        // every command's configuration at each start, so the discussion is made only for a command line
        // that may show a help text (`odds help --help` is checked on the binary, CLITests).
        #expect(Docs.allTopics.contains("EXIT CODES") && Docs.allTopics.contains("STREAM LINES"))
        for words in [["help"], ["help", "--help"], ["live", "-h"], ["--help"], ["--experimental-dump-help"]] {
            #expect(Docs.mayShowHelp(["odds"] + words), "\(words)")
        }
        for words in [["live", "--sport", "soccer"], ["--version"], [], ["stream", "--replay", "r.ndjson", "--speed", "max"]] {
            #expect(!Docs.mayShowHelp(["odds"] + words), "\(words)")
        }
        // The program's name is not a word of the command line.
        #expect(!Docs.mayShowHelp(["help"]))
    }
}

/// Every sport (issue 18): `--sport all`, `--sport` repeated, config, replays that keep what they recorded.
@Suite("Every sport", .timeLimit(.minutes(3)))
struct EverySportTests {

    @Test("A snapshot replaces what its own connection told, not another connection's events")
    func snapshotPerConnection() {
        var store = LiveStore()
        let t = Date()
        func e(_ id: String, _ sport: String) -> Event { Event(provider: .pulsescore, id: id, sport: sport, home: "A", away: "B", status: .live) }
        store.apply(FeedMessage(provider: .pulsescore, connection: "live-soccer", receivedAt: t, update: .snapshot([e("1", "soccer"), e("2", "soccer")])))
        store.apply(FeedMessage(provider: .pulsescore, connection: "live-tennis", receivedAt: t, update: .snapshot([e("3", "tennis")])))
        #expect(store.events.count == 3)
        store.apply(FeedMessage(provider: .pulsescore, connection: "live-soccer", receivedAt: t, update: .snapshot([e("2", "soccer")])))
        #expect(Set(store.events.keys.map(\.id)) == ["2", "3"])
    }
}

/// The replay path is the benchmark path (issue 18): the recording reader's direct reading of the
/// layout `Recorder` writes agrees with reading a line member by member.
@Suite("Recording lines")
struct RecordingLineTests {
    @Test("Recorder's layout and any other member order read the same; text frames and CRLF too")
    func layouts() throws {
        let frame = #"{"type":"heartbeat","timestamp":"2026-11-22T04:39:37Z"}"#
        let written = Recorder.line(feed: "tickodds/live", bytes: Array(frame.utf8), at: Date(timeIntervalSince1970: 1.5), demo: true)
        let fast = try #require(RecordingReader.parse(Array(written.dropLast())))
        #expect(fast.t == 1500 && fast.feed == "tickodds/live" && fast.demo && fast.bytes == Array(frame.utf8))
        let reordered = #"{"frame":\#(frame),"demo":true,"feed":"tickodds/live","t":1500}"#
        let slow = try #require(RecordingReader.parse(Array(reordered.utf8)))
        #expect(slow.t == fast.t && slow.feed == fast.feed && slow.demo == fast.demo && slow.bytes == fast.bytes)
        let crlf = try #require(RecordingReader.parse(Array(#"{"t":7,"feed":"pulsescore/live-tennis","frame":[1,2]}"#.utf8) + [0x0D]))
        #expect(crlf.bytes == Array("[1,2]".utf8) && crlf.feed == "pulsescore/live-tennis" && !crlf.demo)
        let text = Recorder.line(feed: "boltodds/odds", bytes: Array("not json".utf8), at: Date(timeIntervalSince1970: 2), demo: false)
        #expect(RecordingReader.parse(Array(text.dropLast()))?.bytes == Array("not json".utf8))
        // Not a recording line: refused either way.
        for bad in [#"{"t":1,"feed":"nofeed","frame":{}}"#, #"{"t":"x","feed":"a/b","frame":{}}"#, "[]", #"{"t":1,"feed":"a/b","frame":"#] {
            #expect(RecordingReader.parse(Array(bad.utf8)) == nil, "\(bad)")
        }
    }

    @Test("A recorder writes each frame as its line: JSON as it is between head and tail, raw line breaks as spaces, text quoted")
    func recorderWrites() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("odds-rec-\(UUID().uuidString).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let frames = [#"{"a":[1,2]}"#, "{\"a\":\r\n[1,\n2]}", "not json", "[" + String(repeating: "1,", count: 200_000) + "1]", ""]
        let recorder = try Recorder(path: path, demo: true)
        var expected: [UInt8] = []
        for (i, frame) in frames.enumerated() {
            let at = Date(timeIntervalSince1970: Double(i) + 0.25)
            Array(frame.utf8).withUnsafeBufferPointer { recorder.frame(feed: "boltodds/odds", bytes: $0, at: at) }
            expected += Recorder.line(feed: "boltodds/odds", bytes: Array(frame.utf8), at: at, demo: true)
        }
        #expect(recorder.frames == frames.count && recorder.bytes == expected.count && !recorder.failed)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == expected)
        let back = try RecordingReader(path: path)
        #expect(back.next()?.bytes == Array(frames[0].utf8))
        #expect(back.next()?.bytes == Array("{\"a\":  [1, 2]}".utf8))
    }

    @Test("A file read through ReplayDecoder gives each frame's updates, with the recorded time, and counts bad frames")
    func decoder() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("odds-replay-\(UUID().uuidString).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let good = #"{"type":"heartbeat","timestamp":"2026-11-22T04:39:37Z"}"#
        var text = ""
        for (i, frame) in [good, "{broken", good].enumerated() {
            text += String(decoding: Recorder.line(feed: "tickodds/live", bytes: Array(frame.utf8), at: Date(timeIntervalSince1970: Double(i)), demo: false), as: UTF8.self)
        }
        text += "not a recording line\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let stats = FeedStats()
        let decoder = ReplayDecoder([TickOddsFeed(settings: ProviderSettings(key: nil, restURL: "", webSocketURL: ""), sport: nil)],
                                    reader: try RecordingReader(path: path), stats: stats)
        var times: [Int64] = []
        while let step = decoder.next() { times.append(step.t); #expect(step.messages.allSatisfy { $0.connection == "live" }) }
        #expect(times == [0, 2000] && stats.frames == 3 && stats.malformed == 1)
    }
}

@Suite("Replay decodes ahead")
struct ReplayAheadTests {
    /// A recording of `frames` on `feed`, one a second from the epoch, in a temporary file (its path).
    static func recording(_ frames: [[UInt8]], feed: String, name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("odds-\(name)-\(UUID().uuidString).ndjson").path
        var text: [UInt8] = []
        for (i, frame) in frames.enumerated() {
            text += Recorder.line(feed: feed, bytes: frame, at: Date(timeIntervalSince1970: Double(i)), demo: false)
        }
        try Data(text).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("A pipeline hands every item on in order, never more than its depth ahead of a slow consumer")
    func inOrder() {
        let produced = Counter()
        var taken: [Int] = []
        var mostAhead = 0
        Concurrently.pipeline(depth: 3, ahead: true, produce: { send in
            for i in 0..<2_000 {
                produced.add()
                guard send(i) else { return }
            }
        }, consume: { item in
            // Produced but not yet taken: `depth` queued, one being put, and this one.
            mostAhead = max(mostAhead, produced.value - taken.count)
            taken.append(item)
            if item % 100 == 0 { usleep(2_000) }
            return true
        })
        #expect(taken == Array(0..<2_000))
        #expect(mostAhead <= 3 + 2, "ahead by \(mostAhead)")
        #expect(mostAhead >= 2, "the producer never ran ahead: no pipeline")
        // On one core: on this thread, each item straight to the consumer, never one ahead.
        var inline: [Int] = []
        let made = Counter()
        Concurrently.pipeline(depth: 3, ahead: false, produce: { send in
            for i in 0..<2_000 { made.add(); guard send(i) else { return } }
        }, consume: { item in
            #expect(made.value == inline.count + 1)
            inline.append(item)
            return true
        })
        #expect(inline == Array(0..<2_000))
    }

    @Test("The cores this process may use are read from its affinity mask, as nproc counts them")
    func cores() throws {
        #expect(Concurrently.count(cpuList: "0-3,8,10-11") == 7 && Concurrently.count(cpuList: " 0\t") == 1)
        #expect(Concurrently.count(cpuList: "0-1") == 2 && Concurrently.count(cpuList: "2,4") == 2)
        for bad in ["", "x", "3-1", "0-", "-1", "1-2-3"] { #expect(Concurrently.count(cpuList: Substring(bad)) == nil, "\(bad)") }
        #expect(Concurrently.hasSpareCore == (Concurrently.cores > 1))
        // nproc reads the mask with sched_getaffinity(2); the count here is the kernel's list of it.
        let nproc = Process()
        nproc.executableURL = URL(fileURLWithPath: "/usr/bin/nproc")
        let out = Pipe()
        nproc.standardOutput = out
        try nproc.run()
        nproc.waitUntilExit()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) == Concurrently.cores)
    }

    @Test("A consumer that stops stops the producer, and the pipeline returns only when both are done")
    func stops() {
        // On a thread of its own (two cores or more) and on this thread (one core).
        for ahead in [true, false] {
            let produced = Counter()
            let refused = Counter()
            var taken: [Int] = []
            Concurrently.pipeline(depth: 2, ahead: ahead, produce: { send in
                for i in 0..<1_000_000 {
                    produced.add()
                    guard send(i) else { refused.add(); return }
                }
            }, consume: { item in
                taken.append(item)
                return taken.count < 5
            })
            #expect(taken == [0, 1, 2, 3, 4], "ahead: \(ahead)")
            #expect(refused.value == 1, "the producer was told to stop, and had stopped on return (ahead: \(ahead))")
            #expect(produced.value <= (ahead ? 5 + 2 + 1 : 5), "ahead: \(ahead)")
            // Nothing produced: the consumer is never called.
            var calls = 0
            Concurrently.pipeline(depth: 1, ahead: ahead, produce: { (_: (Int) -> Bool) -> Void in }, consume: { _ in calls += 1; return true })
            #expect(calls == 0)
        }
    }

    @Test("A replay decoded ahead gives every frame's updates in order, a large frame read in halves included")
    func replayInOrder() throws {
        let now = Date(timeIntervalSince1970: 1_795_440_000)
        let big = BoltOddsFastPathTests.state(games: 700, books: 3)
        let other = BoltOddsFastPathTests.state(games: 800, books: 3).map { $0 == UInt8(ascii: "H") ? UInt8(ascii: "G") : $0 }
        #expect(big.count >= 1 << 20 && other.count >= 1 << 20)
        #expect(BoltOddsDecoders.split(big).halves && BoltOddsDecoders.split(other).halves)
        let small = Array(String(decoding: BoltOddsFastPathTests.state(games: 1, books: 2).dropFirst().dropLast(), as: UTF8.self)
            .components(separatedBy: #"},{"action""#)[0].appending("}").utf8)
        let frames = [big, small] + Array(repeating: small, count: 600) + [other, small]
        let path = try ReplayAheadTests.recording(frames, feed: "boltodds/odds", name: "ahead")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var expected: [FeedUpdate] = []
        for frame in frames { expected += try #require(BoltOddsDecoders.wholeUpdates(frame, now: now)) }
        // Decoded ahead (two cores or more) and in turn (one core): the same messages.
        for ahead in [true, false] {
            let stats = FeedStats()
            let decoder = ReplayDecoder([BoltOddsDecoders.oddsAdapter(now: now)], reader: try RecordingReader(path: path), stats: stats)
            var got: [FeedUpdate] = []
            var times: [Date] = []
            try decoder.forEach(ahead: ahead) { message in
                times.append(message.receivedAt)
                got.append(message.update)
            }
            #expect(got.count == expected.count && got == expected, "ahead: \(ahead)")
            #expect(times == times.sorted() && times.last == Date(timeIntervalSince1970: Double(frames.count - 1)))
            #expect(stats.frames == frames.count && stats.malformed == 0)
        }
    }

    @Test("A replay into a store with each game's books' views merged builds the store the views build one by one, decoded ahead or in turn")
    func replayMergedViews() throws {
        let now = Date(timeIntervalSince1970: 1_795_440_000)
        let big = BoltOddsFastPathTests.state(games: 700, books: 3)
        let small = Array(String(decoding: BoltOddsFastPathTests.state(games: 1, books: 2).dropFirst().dropLast(), as: UTF8.self)
            .components(separatedBy: #"},{"action""#)[0].appending("}").replacingOccurrences(of: "+100", with: "+155").utf8)
        // The state, then the first game's first book again (its price moves), then the state again.
        let frames = [big, small, big]
        let path = try ReplayAheadTests.recording(frames, feed: "boltodds/odds", name: "merged")
        defer { try? FileManager.default.removeItem(atPath: path) }
        func store(ahead: Bool, merging: Bool) throws -> (events: [Event], moves: Int, updates: Int) {
            let decoder = ReplayDecoder([BoltOddsDecoders.oddsAdapter(now: now)], reader: try RecordingReader(path: path), stats: FeedStats())
            var store = LiveStore(), updates = 0
            try decoder.forEach(ahead: ahead, mergingBookViews: merging) { message in
                updates += 1
                store.apply(message)
            }
            return (store.currentEvents(), store.events.values.reduce(0) { $0 + $1.moves.count }, updates)
        }
        let expected = try store(ahead: false, merging: false)
        #expect(expected.events.count == 700 && expected.moves > 0 && expected.updates == 700 * 3 * 2 + 1)
        for ahead in [true, false] {
            let got = try store(ahead: ahead, merging: true)
            #expect(got.events == expected.events && got.moves == expected.moves, "ahead: \(ahead)")
            #expect(got.updates <= 700 * 2 + 1 + 4, "ahead: \(ahead): \(got.updates) updates")
        }
    }

    /// A TickOdds feed of `count` frames over a few fixtures: odds updates that suspend and reopen
    /// lines, score updates whose refreshed events do not mention the suspensions, heartbeats, broken
    /// frames, matches that end and start again, and a snapshot now and then.
    static func tickOddsFrames(_ count: Int) -> [[UInt8]] {
        var random = SeededRandom(seed: 18)
        func event(_ id: Int, home: String, score: String) -> String {
            #"{"fixtureId":"\#(id)","sportName":"Soccer","home":"H\#(id)","away":"A\#(id)","score":"\#(score)","status":"in_progress","marketGroups":[{"name":"Fulltime Result","key":"full_time_result","period":"full_game","selections":[{"id":"\#(id):full_time_result:full_game:home","name":"H\#(id)","odds":\#(home),"side":"home","isMain":true},{"id":"\#(id):full_time_result:full_game:away","name":"A\#(id)","odds":3.10,"side":"away","isMain":true}]}]}"#
        }
        var frames: [String] = []
        for i in 0..<count {
            let id = random.int(1...6), home = "2.\(random.int(10...99))", score = "\(random.int(0...3))-\(random.int(0...3))"
            switch random.int(0...19) {
            case 0...8:
                let suspended = random.chance(0.4)
                frames.append(#"{"type":"update","fixtureId":"\#(id)","change":"odds","event":\#(event(id, home: home, score: score)),"selection":{"id":"\#(id):full_time_result:full_game:home","name":"H\#(id)","odds":\#(home),"handicap":null,"suspended":\#(suspended)},"marketName":"Fulltime Result"}"#)
            case 9...14:
                frames.append(#"{"type":"update","fixtureId":"\#(id)","change":"score","from":"0-0","to":"\#(score)","event":\#(event(id, home: home, score: score))}"#)
            case 15: frames.append(#"{"type":"heartbeat","timestamp":"2026-11-26T04:39:37Z"}"#)
            case 16: frames.append("{broken \(i)")
            case 17: frames.append(#"{"type":"match_end","fixtureId":"\#(id)","event":\#(event(id, home: home, score: score))}"#)
            case 18: frames.append(#"{"type":"match_start","event":\#(event(id, home: home, score: score))}"#)
            default:
                let events = (1...6).filter { _ in random.chance(0.7) }.map { event($0, home: "1.\(random.int(10...99))", score: "0-0") }
                frames.append(#"{"type":"snapshot","count":\#(events.count),"events":[\#(events.joined(separator: ","))]}"#)
            }
        }
        return frames.map { Array($0.utf8) }
    }

    @Test("A TickOdds replay read on both threads gives the updates of one connection reading every frame in turn, suspensions kept across batches")
    func sharedOut() throws {
        let frames = ReplayAheadTests.tickOddsFrames(1_500)
        let path = try ReplayAheadTests.recording(frames, feed: "tickodds/live", name: "shared")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let settings = ProviderSettings(key: nil, restURL: "", webSocketURL: "")
        // One connection, every frame in turn, as a live feed reads them.
        let live = TickOddsFeed(settings: settings, sport: nil)
        var expected: [FeedUpdate] = [], malformed = 0
        for frame in frames {
            do { expected += try live.receive(frame, first: false).updates } catch { malformed += 1 }
        }
        #expect(malformed > 20 && expected.contains { if case .price(let p) = $0 { return p.selection.suspended } else { return false } })
        #expect(expected.contains { if case .upsert(let e) = $0 { return e.markets.contains { $0.selections.contains(where: \.suspended) } } else { return false } },
                "a suspension kept in a refreshed event")
        let sharings: [ReplayDecoder.Sharing] = [.never, .every(1), .every(2), .every(3), .usual]
        for ahead in [true, false] {
            for sharing in sharings {
                let stats = FeedStats()
                let decoder = ReplayDecoder([TickOddsFeed(settings: settings, sport: nil)], reader: try RecordingReader(path: path), stats: stats)
                var got: [FeedUpdate] = [], times: [Date] = []
                try decoder.forEach(ahead: ahead, sharing: sharing) { message in
                    times.append(message.receivedAt)
                    got.append(message.update)
                }
                // A keepalive is a heartbeat on the stream.
                let updates = got.filter { $0 != .heartbeat }, wanted = expected.filter { $0 != .heartbeat }
                #expect(updates.count == wanted.count && updates == wanted, "ahead: \(ahead), \(sharing)")
                #expect(times == times.sorted(), "ahead: \(ahead), \(sharing)")
                #expect(stats.frames == frames.count && stats.malformed == malformed, "ahead: \(ahead), \(sharing)")
            }
        }
    }

    /// A connection whose frames are event ids, read on either thread; the state it keeps calls the
    /// frame "fatal" fatal (as a bad key sent as a message is).
    final class FatalAfterRead: FeedAdapter {
        let provider = ProviderID.tickodds
        let silenceLimit: TimeInterval? = nil
        func endpoint() throws -> (url: String, headers: [(String, String)]) { ("ws://127.0.0.1:1/", []) }
        func didConnect(_ link: FeedLink) {}
        func closeAction(code: Int?) -> CloseAction { .reconnect(reason: "closed") }
        func receive(_ frame: [UInt8], first: Bool) throws -> Inbound {
            receive(decoded: frame.withUnsafeBufferPointer { FatalAfterRead.read($0) }, first: first)
        }
        func detachedDecoder() -> DetachedDecoder? { { FatalAfterRead.read($0) } }
        func receive(decoded: consuming [FeedUpdate], first: Bool) -> Inbound {
            decoded.first?.eventID == "fatal" ? .fatal(.authentication(.tickodds, "Invalid API key")) : .data(decoded)
        }
        static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> [FeedUpdate] { [.remove(eventID: String(decoding: bytes, as: UTF8.self))] }
    }

    @Test("A frame that the folding thread reads and finds fatal ends the replay with its error, after every message before it")
    func fatalAfterRead() throws {
        let frames = (0..<1_000).map { Array(($0 == 700 ? "fatal" : "\($0)").utf8) }
        let path = try ReplayAheadTests.recording(frames, feed: "tickodds/live", name: "fatal-read")
        defer { try? FileManager.default.removeItem(atPath: path) }
        for ahead in [true, false] {
            for sharing in [ReplayDecoder.Sharing.never, .every(1), .every(2), .usual] {
                let decoder = ReplayDecoder([FatalAfterRead()], reader: try RecordingReader(path: path), stats: FeedStats())
                var got: [String] = []
                #expect(throws: OddsError.self, "ahead: \(ahead), \(sharing)") { try decoder.forEach(ahead: ahead, sharing: sharing) { got.append($0.update.eventID ?? "") } }
                #expect(got == (0..<700).map(String.init), "ahead: \(ahead), \(sharing)")
            }
        }
    }

    @Test("Batches are handed over undecoded as the sharing says: every nth, or while the folding thread has at most so many waiting")
    func sharingRule() {
        #expect((0..<6).map { ReplayDecoder.Sharing.every(2).handsOver(batch: $0, waiting: { 9 }) } == [true, false, true, false, true, false])
        #expect((0..<3).allSatisfy { ReplayDecoder.Sharing.every(1).handsOver(batch: $0, waiting: { 0 }) })
        #expect(!ReplayDecoder.Sharing.never.handsOver(batch: 0, waiting: { 0 }))
        #expect(ReplayDecoder.Sharing.balanced(below: 2).handsOver(batch: 5, waiting: { 1 }))
        #expect(!ReplayDecoder.Sharing.balanced(below: 2).handsOver(batch: 5, waiting: { 2 }))
    }

    @Test("A fatal frame ends a replay decoded ahead with its error, after every message before it")
    func fatal() throws {
        let now = Date(timeIntervalSince1970: 1_795_440_000)
        let small = Array(String(decoding: BoltOddsFastPathTests.state(games: 1, books: 2).dropFirst().dropLast(), as: UTF8.self)
            .components(separatedBy: #"},{"action""#)[0].appending("}").utf8)
        let bad = Array(#"{"action":"error","message":"Invalid API key"}"#.utf8)
        let path = try ReplayAheadTests.recording([small, small, small, bad, small], feed: "boltodds/odds", name: "fatal")
        defer { try? FileManager.default.removeItem(atPath: path) }
        for ahead in [true, false] {
            let decoder = ReplayDecoder([BoltOddsDecoders.oddsAdapter(now: now)], reader: try RecordingReader(path: path), stats: FeedStats())
            var got = 0
            #expect(throws: OddsError.self) { try decoder.forEach(ahead: ahead) { _ in got += 1 } }
            #expect(got == 3 * (try #require(BoltOddsDecoders.wholeUpdates(small, now: now))).count, "ahead: \(ahead)")
        }
    }
}

@Suite("One warning per bad outcome")
struct BadOutcomeTests {
    @Test("A BoltOdds game with one unusable outcome: the game is kept, the outcome is skipped and counted once")
    func once() throws {
        let feed = BoltOddsOddsFeed(settings: ProviderSettings(key: "k", restURL: "http://127.0.0.1:1/api", webSocketURL: "ws://127.0.0.1:1/api"),
                                    filters: BoltOddsFilters(), index: BoltOddsGameIndex())
        let game = #"{"action":"initial_state","data":{"sport":"EPL","sportsbook":"fanduel","game":"A vs B, 2026-11-24, 03","home_team":"A","away_team":"B","info":{},"outcomes":{"A Moneyline":{"odds":"EVEN","outcome_name":"Moneyline","outcome_target":"A"},"B Moneyline":{"odds":"+120","outcome_name":"Moneyline","outcome_target":"B"}}}}"#
        for frame in [game, "[\(game)]", "[\(game),\(game.replacingOccurrences(of: "A vs B", with: "C vs D"))]"] {
            let inbound = try feed.receive(Array(frame.utf8), first: false)
            let games = inbound.updates.filter { if case .bookUpsert = $0 { return true } else { return false } }.count
            #expect(inbound.skipped.count == games, "\(frame.prefix(20)): \(inbound.skipped)")
            #expect(games >= 1)
        }
    }

}
