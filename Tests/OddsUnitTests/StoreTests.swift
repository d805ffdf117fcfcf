import Foundation
import OddsModel
import OddsStore
import OddsTestSupport
import Testing

@Suite("Live store fold", .unitLane)
struct StoreTests {
    @Test("An ended match that a feed never removes goes two minutes after its last word; live ones stay")
    func endedMatchesGo() {
        var store = LiveStore()
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let live = Event(provider: .sportsapi, id: "1", sport: "soccer", home: "A", away: "B", status: .live)
        var ended = Event(provider: .sportsapi, id: "2", sport: "soccer", home: "C", away: "D", status: .live)
        ended.status = .ended
        store.apply(FeedMessage(provider: .sportsapi, receivedAt: t0, update: .upsert(live)))
        store.apply(FeedMessage(provider: .sportsapi, receivedAt: t0, update: .upsert(ended)))
        // Heartbeats a minute later: still there (a table may show the final score a while).
        for i in 0..<1024 { store.apply(FeedMessage(provider: .sportsapi, receivedAt: t0.addingTimeInterval(60 + Double(i) * 0.001), update: .heartbeat)) }
        #expect(store.events.count == 2)
        // Past two minutes: the ended one is gone, the live one (updated now) stays.
        store.apply(FeedMessage(provider: .sportsapi, receivedAt: t0.addingTimeInterval(121), update: .upsert(live)))
        for i in 0..<1024 { store.apply(FeedMessage(provider: .sportsapi, receivedAt: t0.addingTimeInterval(130 + Double(i) * 0.001), update: .heartbeat)) }
        #expect(store.events.count == 1 && store.events[EventKey(provider: .sportsapi, id: "1")] != nil)
        // A late score of the dropped match does not bring it back.
        store.apply(FeedMessage(provider: .sportsapi, receivedAt: t0.addingTimeInterval(700), update: .score(eventID: "2", from: nil, to: Score(home: 1, away: 0))))
        #expect(store.events.count == 1)
    }

    @Test("currentEvents: by competition, then match, then id, every event once, whatever the order they came in")
    func currentEventsOrder() {
        // ASCII names (compared as bytes), with leagues, teams and ids that are prefixes of others; then
        // the same with accented names (compared as strings).
        for accents in [false, true] {
            var rng = SeededRandom(seed: 7)
            var store = LiveStore()
            var expected: [(league: String, title: String, id: String)] = []
            let leagues = ["ATP", "ATP Challenger", "NBA", "Premier League", "Serie A"] + (accents ? ["Série A", "Ligue 1 Über"] : [])
            for i in 0..<300 {
                let league = leagues[Int(rng.next() % UInt64(leagues.count))]
                // "Team u" against "Team" v "Zed": the title's own separator decides their order.
                let home = ["Team \(rng.next() % 40)", "Team", "Team 1", "Zeta", "Team u"][Int(rng.next() % 5)]
                // Some without a competition, some races (no away side: the title is the home name).
                let e = Event(provider: .boltodds, id: "e\(i % 150)" + (i >= 150 ? "x" : ""), sport: "x", league: i % 11 == 0 ? nil : league,
                              home: home, away: i % 7 == 0 ? nil : (i % 2 == 0 ? "Other" : "Zed"), status: .live)
                expected.append((e.league ?? "", e.title, e.id))
                store.apply(FeedMessage(provider: .boltodds, receivedAt: t0, update: .upsert(e)))
            }
            expected.sort { ($0.league, $0.title, $0.id) < ($1.league, $1.title, $1.id) }
            let events = store.currentEvents()
            #expect(events.map(\.id) == expected.map(\.id), "accents: \(accents)")
            #expect(events.allSatisfy { $0.sport == "x" })
        }
    }

    @Test("dropEnded removes every ended match with no word since the cutoff, and only those")
    func dropEndedRemovesExactlyTheEnded() {
        var store = LiveStore()
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        for i in 0..<60 {
            var e = Event(provider: .sportsapi, id: "\(i)", sport: "soccer", home: "H\(i)", away: "A\(i)", status: .live)
            if i % 3 != 0 { e.status = .ended }
            // Every sixth ended match had word after the cutoff: it stays.
            let at = i % 6 == 1 ? t0.addingTimeInterval(10) : t0
            store.apply(FeedMessage(provider: .sportsapi, receivedAt: at, update: .upsert(e)))
        }
        store.dropEnded(before: t0.addingTimeInterval(5))
        let left = Set(store.events.keys.map(\.id))
        let expected = Set((0..<60).filter { $0 % 3 == 0 || $0 % 6 == 1 }.map { "\($0)" })
        #expect(left == expected)
        // Nothing left to drop: a second sweep changes nothing.
        store.dropEnded(before: t0.addingTimeInterval(5))
        #expect(Set(store.events.keys.map(\.id)) == expected)
    }

    let t0 = Date(timeIntervalSince1970: 1_000_000)

    func event(_ id: String, home: String = "A", prices: [String] = ["2.10", "3.40", "3.25"]) -> Event {
        Event(provider: .tickodds, id: id, sport: "soccer", league: "L", home: home, away: "B", status: .live,
              score: Score(home: 0, away: 0), clock: "10:00",
              markets: [Market(id: "ft", name: "Fulltime Result", selections: zip(["home", "draw", "away"], prices).map {
                  Selection(id: $0.0, name: $0.0, price: Price(decimal: $0.1))
              })])
    }

    func msg(_ u: FeedUpdate, _ dt: TimeInterval = 0, provider: ProviderID = .tickodds) -> FeedMessage {
        FeedMessage(provider: provider, receivedAt: t0.addingTimeInterval(dt), update: u)
    }

    @Test("Snapshot replaces the provider's events and leaves others alone")
    func snapshot() {
        var store = LiveStore()
        store.apply(msg(.snapshot([event("1"), event("2")])))
        store.apply(msg(.snapshot([event("9")]), provider: .pulsescore))
        store.apply(msg(.snapshot([event("2"), event("3")]), 1))
        #expect(store.currentEvents(provider: .tickodds).map(\.id) == ["2", "3"])
        #expect(store.currentEvents(provider: .pulsescore).count == 1)
        #expect(store.feeds[.tickodds]?.messages == 2)
    }

    @Test("A price change records previous value, direction and time")
    func priceMove() throws {
        var store = LiveStore()
        store.apply(msg(.snapshot([event("1")])))
        let sel = Selection(id: "home", name: "home", price: Price(decimal: "2.30"))
        store.apply(msg(.price(PriceUpdate(eventID: "1", marketID: "ft", marketName: "Fulltime Result", selection: sel)), 5))
        let state = try #require(store.events[EventKey(provider: .tickodds, id: "1")])
        let move = try #require(state.moves[SelectionKey(marketID: "ft", selectionID: "home")])
        #expect(move.previous?.text == "2.10")
        #expect(move.direction == .up)
        #expect(move.changedAt == t0.addingTimeInterval(5))
        #expect(state.event.markets[0].selections[0].price?.text == "2.30")
        #expect(state.lastUpdate == t0.addingTimeInterval(5))

        store.apply(msg(.price(PriceUpdate(eventID: "1", marketID: "ft", marketName: "Fulltime Result",
                                           selection: Selection(id: "home", name: "home", price: Price(decimal: "1.90")))), 6))
        #expect(store.events[EventKey(provider: .tickodds, id: "1")]?.moves[SelectionKey(marketID: "ft", selectionID: "home")]?.direction == .down)
    }

    @Test("Each price line reports its move once, even when the refreshed event before it already made it")
    func priceLineMoves() throws {
        var store = LiveStore()
        var lines = PriceLineMoves()
        func feed(_ m: FeedMessage) -> PriceMove? {
            store.apply(m)
            return lines.move(for: m, in: store)
        }
        func line(_ id: String, _ price: String, suspended: Bool = false) -> FeedUpdate {
            .price(PriceUpdate(eventID: "1", marketID: "ft", marketName: "Fulltime Result",
                               selection: Selection(id: id, name: id, price: Price(decimal: price), suspended: suspended)))
        }
        #expect(feed(msg(.snapshot([event("1")]))) == nil)
        // TickOdds: one update per changed selection, each with the event refreshed with all of the tick's prices.
        let refreshed = event("1", prices: ["2.30", "3.10", "3.25"])
        let home = feed(msg(line("home", "2.30"), 1))
        #expect(home?.previous?.text == "2.10" && home?.direction == .up)
        #expect(feed(msg(.upsert(refreshed), 1)) == nil)
        let draw = feed(msg(line("draw", "3.10"), 2))
        #expect(draw?.previous?.text == "3.40" && draw?.direction == .down)
        #expect(feed(msg(.upsert(refreshed), 2)) == nil)
        // The same price again (a suspension, a repeat) is not a second move.
        #expect(feed(msg(line("draw", "3.10", suspended: true), 3)) == nil)
        #expect(feed(msg(line("away", "3.25"), 3)) == nil)
        // A later real move is reported, and a removed event forgets what was reported.
        #expect(feed(msg(line("draw", "3.20"), 4))?.previous?.text == "3.10")
        #expect(feed(msg(.remove(eventID: "1"), 5)) == nil)
        #expect(feed(msg(.upsert(event("1")), 6)) == nil)
        #expect(feed(msg(line("home", "2.50"), 7))?.previous?.text == "2.10")
    }

    @Test("An upsert diffs prices against the stored event")
    func upsertDiff() throws {
        var store = LiveStore()
        store.apply(msg(.upsert(event("1"))))
        store.apply(msg(.upsert(event("1", prices: ["2.10", "3.60", "3.00"])), 2))
        let moves = try #require(store.events[EventKey(provider: .tickodds, id: "1")]?.moves)
        #expect(moves[SelectionKey(marketID: "ft", selectionID: "draw")]?.direction == .up)
        #expect(moves[SelectionKey(marketID: "ft", selectionID: "away")]?.direction == .down)
        #expect(moves[SelectionKey(marketID: "ft", selectionID: "home")] == nil)
    }

    @Test("A suspended line keeps its last price and shows suspended")
    func suspension() throws {
        var store = LiveStore()
        store.apply(msg(.upsert(event("1"))))
        let sel = Selection(id: "home", name: "home", price: Price(decimal: "2.10"), suspended: true)
        store.apply(msg(.price(PriceUpdate(eventID: "1", marketID: "ft", marketName: "Fulltime Result", selection: sel)), 1))
        let s = try #require(store.events[EventKey(provider: .tickodds, id: "1")]?.event.markets[0].selections[0])
        #expect(s.suspended && !s.isAvailable && s.price?.text == "2.10")
    }

    @Test("Score, incident, status and remove")
    func deltas() throws {
        var store = LiveStore()
        store.apply(msg(.upsert(event("1"))))
        store.apply(msg(.score(eventID: "1", from: Score(home: 0, away: 0), to: Score(home: 1, away: 0)), 1))
        store.apply(msg(.incident(eventID: "1", Incident(kind: .goal, minute: 11, team: .home, player: "Salah")), 1))
        store.apply(msg(.status(eventID: "1", status: .halftime, period: "Half Time"), 2))
        let key = EventKey(provider: .tickodds, id: "1")
        let e = try #require(store.events[key]?.event)
        #expect(e.score == Score(home: 1, away: 0))
        #expect(e.incidents.map(\.player) == ["Salah"])
        #expect(e.status == .halftime && e.period == "Half Time")
        // A refreshed event without incidents keeps the ones already known.
        store.apply(msg(.upsert(event("1")), 3))
        #expect(store.events[key]?.event.incidents.count == 1)
        store.apply(msg(.remove(eventID: "1"), 4))
        #expect(store.events[key] == nil)
        // Updates for unknown events are ignored, not crashes.
        store.apply(msg(.score(eventID: "nope", from: nil, to: Score(home: 1, away: 1))))
        #expect(store.events.isEmpty)
    }

    @Test("Incidents are capped per event")
    func incidentCap() {
        var store = LiveStore()
        store.incidentLimit = 3
        store.apply(msg(.upsert(event("1"))))
        for i in 0..<10 { store.apply(msg(.incident(eventID: "1", Incident(kind: .card, minute: i)))) }
        #expect(store.events[EventKey(provider: .tickodds, id: "1")]?.event.incidents.map(\.minute) == [7, 8, 9])
    }

    @Test("Connection state and staleness")
    func connectionAndStaleness() {
        var store = LiveStore()
        store.apply(msg(.connection(.live)))
        store.apply(msg(.upsert(event("1")), 1))
        #expect(store.feeds[.tickodds]?.connection == .live)
        let key = EventKey(provider: .tickodds, id: "1")
        #expect(!store.isStale(key, now: t0.addingTimeInterval(10), bound: 30))
        #expect(store.isStale(key, now: t0.addingTimeInterval(40), bound: 30))
        store.apply(msg(.heartbeat, 35))
        #expect(!store.isStale(key, now: t0.addingTimeInterval(40), bound: 30))
        store.apply(msg(.connection(.reconnecting(seconds: 2, attempt: 1, reason: "x")), 41))
        #expect(store.feeds[.tickodds]?.connection.label == "reconnecting")
    }
}
