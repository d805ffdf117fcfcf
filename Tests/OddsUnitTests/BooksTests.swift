import Foundation
import OddsJSON
import OddsModel
import OddsOutput
import OddsStore
import OddsTickOdds
import OddsTestSupport
import Testing

/// Several sportsbooks' prices for one event, as BoltOdds and SportsAPIPro send them.
@Suite("Books in the model and the store", .unitLane)
struct BooksTests {
    let t0 = Date(timeIntervalSince1970: 2_000_000)

    func market(_ book: String, _ prices: [String?], suspended: Set<String> = []) -> Market {
        Market(id: "ml", name: "Moneyline", book: book, selections: zip(["home", "away"], prices).map { side, text in
            Selection(id: side, name: side, price: text.flatMap { Price(american: $0) }, suspended: suspended.contains(side))
        })
    }

    func event(_ markets: [Market], sport: String = "basketball", id: String = "g1") -> Event {
        Event(provider: .boltodds, id: id, sport: sport, league: "NBA", home: "Celtics", away: "Heat", status: .live,
              markets: markets)
    }

    func msg(_ u: FeedUpdate, _ dt: TimeInterval = 0) -> FeedMessage {
        FeedMessage(provider: .boltodds, receivedAt: t0.addingTimeInterval(dt), update: u)
    }

    var key: EventKey { EventKey(provider: .boltodds, id: "g1") }

    @Test("Two books' prices for the same selection live side by side; a price update lands on its own book only")
    func perBook() throws {
        var store = LiveStore()
        store.apply(msg(.snapshot([event([market("draftkings", ["-110", "+100"]), market("fanduel", ["-120", "+105"])])])))
        let update = PriceUpdate(eventID: "g1", marketID: "ml", marketName: "Moneyline", book: "fanduel",
                                 selection: Selection(id: "home", name: "home", price: Price(american: "-105")))
        store.apply(msg(.price(update), 1))
        let markets = try #require(store.events[key]).event.markets
        #expect(markets.count == 2)
        #expect(markets.first { $0.book == "draftkings" }?.selections[0].price?.text == "-110")
        #expect(markets.first { $0.book == "fanduel" }?.selections[0].price?.text == "-105")
        let moves = try #require(store.events[key]).moves
        #expect(moves[SelectionKey(marketID: "ml", book: "fanduel", selectionID: "home")]?.direction == .up)
        #expect(moves[SelectionKey(marketID: "ml", book: "draftkings", selectionID: "home")] == nil)
    }

    @Test("Alternate lines of one side are different selections: a price for Over 3.5 never overwrites Over 2.5")
    func alternateLines() throws {
        var store = LiveStore()
        let totals = Market(id: "tot", name: "Total", book: "pinnacle", selections: [
            Selection(id: "over", name: "Over", line: "2.5", price: Price(american: "-110")),
            Selection(id: "over", name: "Over", line: "3.5", price: Price(american: "+150")),
        ])
        store.apply(msg(.snapshot([event([totals])])))
        store.apply(msg(.price(PriceUpdate(eventID: "g1", marketID: "tot", marketName: "Total", book: "pinnacle",
                                           selection: Selection(id: "over", name: "Over", line: "3.5",
                                                                price: Price(american: "+140")))), 1))
        let selections = try #require(store.events[key]).event.markets[0].selections
        #expect(selections.map { $0.price?.text } == ["-110", "+140"])
        #expect(store.events[key]?.moves[SelectionKey(marketID: "tot", book: "pinnacle", selectionID: "over", line: "3.5")] != nil)
        #expect(store.events[key]?.moves[SelectionKey(marketID: "tot", book: "pinnacle", selectionID: "over", line: "2.5")] == nil)
    }

    @Test("Best price across books, with its book; suspended and missing prices are left out")
    func bestPrice() throws {
        var store = LiveStore()
        store.apply(msg(.snapshot([event([
            market("draftkings", ["-110", "+100"]),
            market("fanduel", ["-105", "+250"], suspended: ["away"]),
            market("betmgm", ["-120", nil]),
        ])])))
        let home = try #require(store.bestPrice(key, marketID: "ml", selection: SelectionRef(id: "home", line: nil)))
        #expect(home.price.text == "-105")
        #expect(home.book == "fanduel")
        let away = try #require(store.bestPrice(key, marketID: "ml", selection: SelectionRef(id: "away", line: nil)))
        #expect(away.price.text == "+100")
        #expect(away.book == "draftkings")
        #expect(store.bestPrice(key, marketID: "nope", selection: SelectionRef(id: "home", line: nil)) == nil)
    }

    @Test("clear by book removes exactly that book's prices; clear by sport exactly that sport's events; remove one event")
    func clears() throws {
        var store = LiveStore()
        store.apply(msg(.snapshot([
            event([market("draftkings", ["-110", "+100"]), market("fanduel", ["-120", "+105"])]),
            event([market("fanduel", ["-200", "+170"])], sport: "baseball", id: "g2"),
            event([market("draftkings", ["+300", "-400"])], sport: "baseball", id: "g3"),
        ])))
        store.apply(msg(.clear(.book("fanduel")), 1))
        #expect(store.events[key]?.event.books == ["draftkings"])
        #expect(store.events[EventKey(provider: .boltodds, id: "g2")]?.event.markets.isEmpty == true)
        store.apply(msg(.clear(.sport("baseball")), 2))
        #expect(store.currentEvents().map(\.id) == ["g1"])
        store.apply(msg(.remove(eventID: "g1"), 3))
        #expect(store.currentEvents().isEmpty)
    }

    @Test("Book after book of one game, with other games, removals and clears between them: each book lands on its own game")
    func bookAfterBook() throws {
        // The store keeps the place of the game the last book went to; every other change must make it look again.
        var store = LiveStore()
        func book(_ id: String, _ name: String, _ home: String, _ dt: TimeInterval) {
            store.apply(msg(.bookUpsert(event([market(name, [home, "+100"])], id: id), book: name), dt))
        }
        func homes(_ id: String) -> [String] {
            (store.events[EventKey(provider: .boltodds, id: id)]?.event.markets ?? []).map { "\($0.book!) \($0.selections[0].price!.text)" }
        }
        book("g1", "draftkings", "-110", 0)
        book("g1", "fanduel", "-120", 1)
        book("g2", "draftkings", "-130", 2)   // another game, inserted: places may move
        book("g1", "betmgm", "-140", 3)
        book("g1", "fanduel", "-125", 4)      // a book it had: replaced where it was
        #expect(homes("g1") == ["draftkings -110", "fanduel -125", "betmgm -140"])
        #expect(homes("g2") == ["draftkings -130"])
        store.apply(msg(.remove(eventID: "g1"), 5))
        book("g1", "caesars", "-150", 6)      // removed, then back: a new game, not the old place
        #expect(homes("g1") == ["caesars -150"])
        for i in 0..<200 { book("x\(i)", "draftkings", "-105", 7) }   // the table grows and moves every game
        book("g1", "draftkings", "-160", 8)
        book("g2", "fanduel", "-170", 9)
        store.apply(msg(.clear(.book("draftkings")), 10))
        book("g2", "betmgm", "-180", 11)
        #expect(homes("g1") == ["caesars -150"])
        #expect(homes("g2") == ["fanduel -170", "betmgm -180"])
        #expect(store.events.count == 202)
        #expect(store.events.values.allSatisfy { $0.event.markets.allSatisfy { $0.selections.count == 2 } })
    }

    @Test("A game's books' views in a row gather into one update only where folding it is folding the views in turn")
    func bookViewRuns() throws {
        func view(_ book: String, _ home: String, id: String = "g1", status: EventStatus = .live) -> Event {
            var e = event([market(book, [home, "+100"])], id: id)
            e.status = status
            return e
        }
        // Three books of one game: one update, the markets moved in order.
        var run = try #require(BookViewRun(view("draftkings", "-110"), book: "draftkings"))
        var fd = view("fanduel", "-120"), mgm = view("betmgm", "-130")
        #expect(run.join(&fd, book: "fanduel") && run.join(&mgm, book: "betmgm"))
        #expect(fd.markets.allSatisfy { $0.selections.isEmpty } && mgm.markets.allSatisfy { $0.selections.isEmpty })
        let merged = run.update()
        guard case .bookViews(let e, let books) = merged else { Issue.record("not merged: \(merged)"); return }
        #expect(books == ["draftkings", "fanduel", "betmgm"])
        #expect(e.markets.map { "\($0.book!) \($0.selections[0].price!.text)" } == ["draftkings -110", "fanduel -120", "betmgm -130"])
        #expect(FeedUpdate.splitBookViews(e, books: books).map { "\($0.book) \($0.event.markets.count)" } == ["draftkings 1", "fanduel 1", "betmgm 1"])
        // What does not join: another game, a book twice, a view the store would fold otherwise, a market of another book.
        var other = try #require(BookViewRun(view("draftkings", "-110"), book: "draftkings"))
        let g2 = view("fanduel", "-120", id: "g2"), again = view("draftkings", "-105"), scheduled = view("fanduel", "-120", status: .scheduled)
        var renamed = view("fanduel", "-120")
        renamed.home = "Boston Celtics"
        var mislabelled = view("fanduel", "-120")
        mislabelled.markets[0].book = "betmgm"
        for (refused, book) in [(g2, "fanduel"), (again, "draftkings"), (scheduled, "fanduel"), (renamed, "fanduel"), (mislabelled, "fanduel")] {
            var v = refused
            #expect(!other.join(&v, book: book))
            #expect(v.markets[0].selections.count == 2, "a view refused keeps its markets")
        }
        #expect(BookViewRun(mislabelled, book: "fanduel") == nil)
        #expect(other.update() == .bookUpsert(view("draftkings", "-110"), book: "draftkings"), "a run of one view is a bookUpsert")
    }

    @Test("A store folds several books' views at once as it folds them one by one: a game new to it, one it holds, and through --book")
    func bookViewsFold() throws {
        func views(_ prices: [(String, String)], id: String = "g1") -> [(Event, String)] {
            prices.map { (event([market($0.0, [$0.1, "+100"])], id: id), $0.0) }
        }
        func merged(_ views: [(Event, String)]) throws -> FeedUpdate {
            var run = try #require(BookViewRun(views[0].0, book: views[0].1))
            for (e, book) in views.dropFirst() { var v = e; #expect(run.join(&v, book: book)) }
            return run.update()
        }
        func state(_ store: LiveStore, _ id: String = "g1") -> String {
            guard let s = store.events[EventKey(provider: .boltodds, id: id)] else { return "none" }
            let markets = s.event.markets.map { "\($0.book!) \($0.selections.map { $0.price!.text }.joined(separator: "/"))" }
            return "\(markets.joined(separator: ", ")) moves \(s.moves.count) at \(s.event.updatedAt!.timeIntervalSince(t0))"
        }
        let first = views([("draftkings", "-110"), ("fanduel", "-120"), ("betmgm", "-130")])
        let later = views([("fanduel", "-150"), ("caesars", "-140"), ("draftkings", "-110")])
        for filter in [BookFilter([]), BookFilter(["fanduel", "caesars"])] {
            var oneByOne = LiveStore(), atOnce = LiveStore()
            for (e, book) in first { if let m = filter.apply(msg(.bookUpsert(e, book: book))) { oneByOne.apply(m) } }
            for (e, book) in later { if let m = filter.apply(msg(.bookUpsert(e, book: book), 5)) { oneByOne.apply(m) } }
            if let m = filter.apply(msg(try merged(first))) { atOnce.apply(m) }
            if let m = filter.apply(msg(try merged(later), 5)) { atOnce.apply(m) }
            #expect(state(atOnce) == state(oneByOne))
            #expect(state(atOnce) != "none")
        }
        var store = LiveStore()
        store.apply(msg(try merged(first)))
        store.apply(msg(try merged(later), 5))
        #expect(state(store) == "draftkings -110/+100, fanduel -150/+100, betmgm -130/+100, caesars -140/+100 moves 1 at 5.0")
        // Filtered down to one book, a merged update is that book's view.
        #expect(BookFilter(["betmgm"]).apply(try merged(first)).map { if case .bookUpsert(_, "betmgm") = $0 { true } else { false } } == true)
        #expect(BookFilter(["pinnacle"]).apply(try merged(first)) == nil)
    }

    @Test("--book keeps only the named books (any case) in events and updates")
    func bookFilter() {
        let filter = BookFilter(["FanDuel"])
        let e = filter.apply(event([market("draftkings", ["-110", "+100"]), market("fanduel", ["-120", "+105"])]))
        #expect(e.books == ["fanduel"])
        let dk = PriceUpdate(eventID: "g1", marketID: "ml", marketName: "Moneyline", book: "draftkings",
                             selection: Selection(id: "home", name: "home", price: Price(american: "-105")))
        #expect(filter.apply(.price(dk)) == nil)
        #expect(filter.apply(.clear(.book("fanduel"))) != nil)
        #expect(filter.apply(.heartbeat) == .heartbeat)
        #expect(BookFilter([]).apply(.price(dk)) == .price(dk))
    }

    @Test("The main line takes each selection's best price across books, for two selections and for fields of up to forty")
    func bestAcrossBooks() throws {
        // Seeded prices for 2 to 40 selections (either side of the point where the lookup becomes a dictionary, 8,
        // and of 16), from four books, some suspended or missing; checked against
        // the longest price found here directly.
        var random = SeededRandom(seed: 7)
        for count in [2, 3, 12, 15, 16, 17, 40] {
            let books = ["b1", "b2", "b3", "b4"]
            var markets: [Market] = []
            for book in books {
                // Another market of the same runners first, at longer prices: never part of the main line.
                markets.append(Market(id: "place", name: "Place", book: book, selections: (0..<count).map { i in
                    Selection(id: "r\(i)", name: "Runner \(i)", price: Price(american: "+5000"), link: "https://\(book)/place/\(i)")
                }))
                markets.append(Market(id: "win", name: "Winner", book: book, selections: (0..<count).compactMap { i in
                    if random.next() % 7 == 0 { return nil }
                    let price = Price(american: "+\(100 + Int(random.next() % 900))")
                    return Selection(id: "r\(i)", name: "Runner \(i)", price: random.next() % 9 == 0 ? nil : price,
                                     suspended: random.next() % 8 == 0, link: "https://\(book)/win/\(i)")
                }))
            }
            let e = Event(provider: .boltodds, id: "race", sport: "horse-racing", home: "Race 1", away: nil, status: .live, markets: markets)
            let line = e.mainLine
            var expected: [String: (price: Price, book: String)] = [:]
            var order: [String] = []
            for m in markets where m.id == "win" {
                for s in m.selections {
                    if !order.contains(s.id) { order.append(s.id) }
                    guard !s.suspended, let p = s.price else { continue }
                    if let held = expected[s.id], held.price.decimalOdds >= p.decimalOdds { continue }
                    expected[s.id] = (p, m.book!)
                }
            }
            #expect(line.map(\.selection.id) == order, "\(count) selections")
            for cell in line {
                if let best = expected[cell.selection.id] {
                    #expect(cell.selection.price == best.price && cell.book == best.book && !cell.selection.suspended)
                    // The selection as the best book offers it in its main market: that book's link.
                    #expect(cell.selection.link == "https://\(best.book)/win/\(cell.selection.id.dropFirst())")
                } else {
                    #expect(cell.selection.suspended && cell.book == nil)
                }
            }
        }
    }

    @Test("A selection named exactly as a team stands in that team's column, unless the team's name is a mark (1, X, Draw...)")
    func columnsByTeamName() throws {
        func columns(home: String, away: String, names: [String]) -> [String?] {
            let markets = ["b1", "b2"].map { book in
                Market(id: "ml", name: "Moneyline", book: book, selections: names.enumerated().map { i, name in
                    Selection(id: "s\(i)", name: name, price: Price(decimal: "\(2 + i).\(book == "b1" ? "10" : "20")"))
                })
            }
            let e = Event(provider: .boltodds, id: "g", sport: "soccer", home: home, away: away, status: .live, markets: markets)
            // Each cell's selection is in the column `outcome(of:)` names for it (in a match's columns).
            for (column, cell) in e.mainColumns.cells.enumerated() where !e.mainColumns.outright {
                if let cell { #expect(e.outcome(of: cell.selection)?.rawValue == column, "\(home) v \(away): \(cell.selection.name)") }
            }
            return e.mainColumns.cells.map { $0?.selection.name }
        }
        #expect(columns(home: "Lakers", away: "Celtics", names: ["Celtics", "Lakers"]) == ["Lakers", nil, "Celtics"])
        #expect(columns(home: "Lakers", away: "Celtics", names: ["Lakers", "Draw", "Celtics"]) == ["Lakers", "Draw", "Celtics"])
        // Teams whose names are marks: the mark decides, as for any selection.
        #expect(columns(home: "Draw", away: "Away FC", names: ["Draw", "Away FC"]) == [nil, "Draw", "Away FC"])
        #expect(columns(home: "X", away: "1", names: ["1", "X"]) == ["1", "X", nil])
        #expect(columns(home: "Home", away: "Away", names: ["Away", "Home"]) == ["Home", nil, "Away"])
        // Teams that fold alike tell nothing apart by name: their selections are shown by name, as a total's are.
        #expect(columns(home: "Real FC", away: "real fc", names: ["Real FC", "real fc"]) == ["Real FC", nil, "real fc"])
        // A book's own short names for the event's teams: the side each is closer to.
        #expect(columns(home: "Sheffield United FC", away: "West Bromwich Albion", names: ["West Brom", "Draw", "Sheffield Utd"])
                == ["Sheffield Utd", "Draw", "West Brom"])
        #expect(columns(home: "Man City", away: "Arsenal FC", names: ["Manchester City", "Draw", "Arsenal"]) == ["Manchester City", "Draw", "Arsenal"])
        // Close to both sides alike ("Real" in Real Madrid v Real Sociedad): no column by name.
        let real = Event(provider: .boltodds, id: "g", sport: "soccer", home: "Real Madrid", away: "Real Sociedad", status: .live)
        #expect(real.outcome(of: Selection(id: "1", name: "Real", price: nil)) == nil)
        #expect(real.outcome(of: Selection(id: "2", name: "Sociedad", price: nil)) == .away)
    }

    @Test("A selection is 120 bytes and a price 33: a BoltOdds state holds 128,000 of each, every byte memory touched for the first time; an event is one pointer to its fields")
    func layout() {
        #expect(MemoryLayout<Selection>.stride <= 120)
        #expect(MemoryLayout<Price?>.size <= 33)
        #expect(MemoryLayout<Event>.size == MemoryLayout<Int>.size, "\(MemoryLayout<Event>.size)")
        // Lineups and fused-match info read back as set, and compare and hash by value.
        var a = Event(provider: .boltodds, id: "1", sport: "soccer", home: "A", away: "B")
        var b = a
        #expect(a.lineups == nil && a.match == nil)
        a.lineups = Lineups(home: Lineup(starters: [LineupPlayer(name: "X")]), confirmed: true)
        a.match = MatchInfo(id: "m1", confidence: 0.9, sources: [])
        #expect(a != b)
        b.lineups = Lineups(home: Lineup(starters: [LineupPlayer(name: "X")]), confirmed: true)
        b.match = MatchInfo(id: "m1", confidence: 0.9, sources: [])
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(a.lineups?.confirmed == true && a.match?.id == "m1")
        b.lineups?.confirmed = false
        #expect(a.lineups?.confirmed == true && b.lineups?.confirmed == false && a != b)
        a.lineups = nil
        #expect(a.lineups == nil)
    }

    @Test("An event is a value: a copy changed in any field, or deep in a market's selection, leaves the original as it was")
    func eventIsAValue() throws {
        let price = try #require(Price(decimal: "2.10")), longer = try #require(Price(decimal: "3.00"))
        let market = Market(id: "1x2", name: "Fulltime Result", book: "bet365",
                            selections: [Selection(id: "home", name: "A", price: price), Selection(id: "away", name: "B", price: price)])
        let original = Event(provider: .tickodds, id: "7", sport: "soccer", league: "L", home: "A", away: "B", status: .live,
                             markets: [market])
        var copy = original
        #expect(copy == original && copy.hashValue == original.hashValue)
        copy.markets[0].selections[1].price = longer
        copy.markets[0].selections[0].suspended = true
        #expect(original.markets[0].selections[1].price?.text == "2.10" && !original.markets[0].selections[0].suspended)
        #expect(copy.markets[0].selections[1].price?.text == "3.00" && copy.markets[0].selections[0].suspended)
        #expect(copy != original)

        // Each field, changed on a copy, only there; a second copy made after the change keeps it.
        var other = original
        other.home = "C"; other.away = nil; other.league = nil; other.status = .ended; other.score = Score(home: 1, away: 0)
        other.clock = "90'"; other.period = "2H"; other.incidents.append(Incident(kind: .goal, minute: 90))
        other.stats = [TeamStat(name: "Shots", home: "3", away: "1")]; other.updatedAt = Date(timeIntervalSince1970: 1)
        other.id = "8"; other.sport = "tennis"; other.provider = .boltodds; other.markets.removeAll()
        let kept = other
        other.home = "D"
        #expect(original == Event(provider: .tickodds, id: "7", sport: "soccer", league: "L", home: "A", away: "B", status: .live,
                                  markets: [market]))
        #expect(kept.home == "C" && kept.away == nil && kept.status == .ended && kept.score == Score(home: 1, away: 0)
                && kept.incidents.count == 1 && kept.stats.count == 1 && kept.id == "8" && kept.markets.isEmpty)
        #expect(other.home == "D" && other.id == "8" && other != kept)

        // Copies in a list and a dictionary, changed there, leave the one they came from.
        var list = [original, original]
        var byID = ["7": original]
        list[1].markets[0].selections[0].price = longer
        byID["7"]!.markets[0].name = "Match Result"
        #expect(list[0] == original && list[1] != original && list[1].markets[0].selections[0].price?.text == "3.00")
        #expect(byID["7"]!.markets[0].name == "Match Result" && original.markets[0].name == "Fulltime Result")
    }

    @Test("A deep link is kept in two parts and given back as sent; equal links are equal however they were made")
    func deepLinks() {
        let cases: [(String, String, String?)] = [
            ("https://sportsbook.draftkings.com/event/1022036000?outcomes=3815533798",
             "https://sportsbook.draftkings.com/event/1022036000?outcomes=", "3815533798"),
            ("https://book.example/bet/abc", "https://book.example/bet/", "abc"),
            ("https://book.example/bet/", "https://book.example/bet/", nil),
            ("https://book.example/?x=0123456789abcdefg", "https://book.example/?x=0123456789abcdefg", nil),
            ("no-separator", "no-separator", nil),
            ("=x", "=", "x"),
            ("", "", nil),
            ("https://bücher.example/wette=é", "https://bücher.example/wette=", "é"),
            // The tail is kept in 15 bytes: 15 split, 16 not.
            ("https://b.example/x=123456789012345", "https://b.example/x=", "123456789012345"),
            ("https://b.example/x=1234567890123456", "https://b.example/x=1234567890123456", nil),
            ("a/b=c/d", "a/b=c/", "d"),
            ("https://b.example/é=ü中", "https://b.example/é=", "ü中"),
        ]
        for (text, head, tail) in cases {
            let link = DeepLink(text)
            #expect(link.head == head && link.tail == tail, "\(text)")
            #expect(link.text == text)
            var selection = Selection(id: "home", name: "Home", price: nil, link: text)
            #expect(selection.link == text)
            // Made from bytes as the BoltOdds decoder makes it: the same parts, so the same selection.
            let fromBytes = Array(text.utf8).withUnsafeBufferPointer { DeepLink(bytes: $0) }
            var other = Selection(id: "home", name: "Home", price: nil)
            other.deepLink = fromBytes
            #expect(other == selection)
            selection.link = nil
            #expect(selection.deepLink == nil && selection.link == nil)
        }
        // Equal texts, equal links (and hashes); a different tail, a different link.
        let a = DeepLink("https://b.example/e?o=12"), b = Array("https://b.example/e?o=12".utf8).withUnsafeBufferPointer { DeepLink(bytes: $0) }
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(a != DeepLink("https://b.example/e?o=13") && a != DeepLink("https://b.example/e?o=1"))
        #expect(Set([a, b, DeepLink("https://b.example/e?o=13")]).count == 2)
    }

    @Test("Every price in the JSON names its book")
    func jsonBook() throws {
        let json = EventJSON.event(event([market("fanduel", ["-120", "+105"])])).rendered
        let value = try JSONParser.parse(json)
        let market = try #require(value["markets"]?.array?.first)
        #expect(market["book"]?.string == "fanduel")
        #expect(market["selections"]?.array?.first?["price"]?["book"]?.string == "fanduel")
        #expect(market["selections"]?.array?.first?["price"]?["american"]?.string == "-120")
    }
}

@Suite("Alternate lines", .unitLane)
struct AlternateLineTests {
    static let event = #"{"fixtureId":"8","sportName":"Soccer","home":"A","away":"B","status":"in_progress","marketGroups":[{"name":"Total Goals","key":"total_goals","period":"full_game","selections":[{"name":"Over 1.5","odds":1.30,"side":"over","handicap":1.5,"isMain":false},{"name":"Under 1.5","odds":3.40,"side":"under","handicap":1.5,"isMain":false},{"name":"Over 2.5","odds":1.95,"side":"over","handicap":2.5,"isMain":true},{"name":"Under 2.5","odds":1.85,"side":"under","handicap":2.5,"isMain":true}]}]}"#

    @Test("Lines of one market are different selections; isMain picks the line the table shows, and a price update keeps it")
    func mainLine() throws {
        let updates = try TickOddsDecoders.generic(Array("{\"type\":\"match_start\",\"event\":\(AlternateLineTests.event)}".utf8))
        #expect(TickOddsDecoders.fast(Array("{\"type\":\"match_start\",\"event\":\(AlternateLineTests.event)}".utf8)) == updates)
        guard case .upsert(let e)? = updates.first else { Issue.record("no event"); return }
        let market = try #require(e.markets.first)
        #expect(Set(market.selections.map(\.ref)).count == 4)
        #expect(market.mainSelections.map(\.name) == ["Over 2.5", "Under 2.5"])
        // A total is no match outcome: its selections are shown by name, never as a bare 1 and 2.
        #expect(EventReporter.mainPrices(e, format: .decimal) == ["Over 2.5 1.95", "", "Under 2.5 1.85"])
        // Without the flag, the first line.
        var unflagged = market
        for i in unflagged.selections.indices { unflagged.selections[i].isMain = nil }
        #expect(unflagged.mainSelections.map(\.name) == ["Over 1.5", "Under 1.5"])
        // A price update of the main line (no isMain in it) keeps it the main line; the other line is untouched.
        var store = LiveStore()
        store.apply(FeedMessage(provider: .tickodds, receivedAt: Date(), update: .upsert(e)))
        let over = Selection(id: "over", name: "Over 2.5", line: "2.5", price: Price(decimal: "2.05"))
        store.apply(FeedMessage(provider: .tickodds, receivedAt: Date(), update: .price(PriceUpdate(eventID: "8", marketID: market.id, marketName: market.name, book: market.book, selection: over))))
        let after = try #require(store.events[EventKey(provider: .tickodds, id: "8")]?.event)
        #expect(EventReporter.mainPrices(after, format: .decimal) == ["Over 2.5 2.05", "", "Under 2.5 1.85"])
        #expect(after.markets[0].selections[0].price?.text == "1.30")
    }
}
