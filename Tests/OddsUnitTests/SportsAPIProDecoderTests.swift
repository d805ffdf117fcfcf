import Foundation
import OddsFusion
import OddsJSON
import OddsModel
import OddsOutput
import OddsStore
@testable import OddsCLI
@testable import OddsSportsAPI
import OddsTransport
import OddsTestSupport
import Testing

/// SportsAPIPro's decoders on recorded frames. The envelopes are the docs' own examples
/// (/work/shared/providers/sportsapipro-v2.txt, -v1.txt); the `data` payloads are inferred
/// (SofaScore- and 365Scores-style), as the README lists.
@Suite(.unitLane) struct SportsAPIProDecoderTests {
    static let settings = ProviderSettings(key: "k", restURL: "", webSocketURL: "ws://127.0.0.1:1/ws")

    static func feed(_ channels: [SportsAPIProChannel] = [.liveScores(sport: nil)]) -> SportsAPIProFeed {
        SportsAPIProFeed(settings: settings, sport: nil, channels: channels)
    }

    static func frame(_ channel: String, _ type: String = "update", data: String) -> String {
        #"{"channel":"\#(channel)","type":"\#(type)","data":\#(data),"source":"nats","timestamp":1710729600437}"#
    }

    @Test func welcomeSubscribedAndPongAreKeepalives() throws {
        let feed = Self.feed()
        #expect(try feed.receive(Array(Fixture.text("docs/sportsapi-welcome.json").utf8), first: true) == .keepalive)
        #expect(feed.natsConnected == true)
        #expect(try feed.receive(Array(Fixture.text("docs/sportsapi-subscribed.json").utf8), first: false) == .keepalive)
        #expect(feed.mode(of: .incidents("14109842")) == "realtime (NATS-triggered fetch, 15000ms safety-net poll)")
        #expect(try feed.receive(Array(Fixture.text("docs/sportsapi-pong.json").utf8), first: false) == .keepalive)
    }

    @Test func aDegradedBridgeIsADegradedConnectionAndSaidOnce() throws {
        let inbound = try Self.feed().receive(Array(#"{"type":"welcome","sport":"football","natsConnected":false,"channels":[]}"#.utf8), first: true)
        guard case .batch(let items, let skipped) = inbound, items.count == 2, skipped.isEmpty,
              case .data(let updates) = items[0], case .notice(let text) = items[1] else {
            Issue.record("expected a degraded state and a notice, got \(inbound)"); return
        }
        guard case .connection(.degraded(let reason))? = updates.first else { Issue.record("no degraded state"); return }
        #expect(reason.contains("natsConnected: false") && text.contains("natsConnected: false"))
    }

    @Test func incidentsAreReadWithEverythingTheyCarry() throws {
        let updates = try Self.feed().decode(Fixture.text("docs/sportsapi-incidents.json"), first: false)
        let incidents = updates.compactMap { u -> Incident? in if case .incident(let id, let i) = u, id == "14109842" { return i }; return nil }
        #expect(incidents.count == 6)
        // Oldest first, although the payload lists the newest first.
        #expect(incidents.map(\.minute) == [12, 21, 23, 38, 45, 45])
        let goal = try #require(incidents.first { $0.kind == .goal })
        #expect(goal.player == "Bukayo Saka" && goal.assist == "Martin Ødegaard" && goal.team == .home)
        #expect(goal.score == Score(home: 1, away: 0))
        let card = try #require(incidents.first { $0.kind == .card })
        #expect(card.detail == "Yellow card" && card.reason == "Foul" && card.player == "Marc Cucurella" && card.team == .away)
        let sub = try #require(incidents.first { $0.kind == .substitution })
        #expect(sub.player == "Noni Madueke" && sub.playerOut == "Pedro Neto")
        let check = try #require(incidents.first { $0.kind == .var })
        #expect(check.reason == "Penalty not awarded")
        let added = try #require(incidents.first { $0.kind == .injuryTime })
        #expect(added.addedTime == 3)
        let half = try #require(incidents.first { $0.kind == .period })
        // SofaScore's 999 is no number of minutes: out of range, left out.
        #expect(half.detail == "HT" && half.addedTime == nil)
    }

    @Test func theSameIncidentSentAgainIsPassedOnOnce() throws {
        let feed = Self.feed([.incidents("1")])
        let goal = #"{"incidentType":"goal","id":11,"time":10,"isHome":true,"player":{"name":"A"}}"#
        let card = #"{"incidentType":"card","time":30,"isHome":false,"incidentClass":"red","reason":"Violent conduct","player":{"name":"B"}}"#
        let first = try feed.decode(Self.frame("match:1:incidents", "snapshot", data: #"{"incidents":[\#(goal)]}"#), first: false)
        #expect(first.count == 1)
        // A nats update with the same goal and a new card, then the safety-net poll with both again.
        let second = try feed.decode(Self.frame("match:1:incidents", data: #"{"incidents":[\#(card),\#(goal)]}"#), first: false)
        #expect(second.count == 1)
        guard case .incident(_, let red)? = second.first else { Issue.record("no card"); return }
        #expect(red.kind == .card && red.detail == "Red card" && red.id == nil)
        let poll = try feed.decode(Self.frame("match:1:incidents", data: #"[\#(card),\#(goal)]"#), first: false)
        #expect(poll.isEmpty)
    }

    @Test func anIncidentWithoutMinuteOrPlayerIsKeptWithWhatItHas() throws {
        let updates = try Self.feed().decode(Self.frame("match:2:incidents", data: #"[{"incidentType":"goal"},{"no":"type"},7]"#), first: false)
        #expect(updates.count == 1)
        guard case .incident(_, let i)? = updates.first else { Issue.record("no incident"); return }
        #expect(i.kind == .goal && i.minute == nil && i.player == nil)
        // The two unreadable entries are counted as skipped.
        let inbound = try Self.feed().receive(Array(Self.frame("match:2:incidents", data: #"[{"incidentType":"goal"},{"no":"type"},7]"#).utf8), first: false)
        guard case .batch(_, let skipped) = inbound.unstamped else { Issue.record("expected a batch"); return }
        #expect(skipped.count == 2)
    }

    @Test func liveScoresBecomeScoreboards() throws {
        let data = #"{"events":[{"id":14109842,"tournament":{"name":"Premier League","category":{"sport":{"slug":"football"}}},"homeTeam":{"name":"Arsenal"},"awayTeam":{"name":"Chelsea"},"homeScore":{"current":2},"awayScore":{"current":1},"status":{"code":7,"description":"2nd half","type":"inprogress"},"time":{"currentPeriodStartTimestamp":1710727500}},{"id":5,"homeTeam":{"name":"X"},"awayTeam":{"name":"Y"},"status":{"type":"notstarted","description":"Not started"}}]}"#
        let updates = try Self.feed().decode(Self.frame("live-scores", "snapshot", data: data), first: false)
        #expect(updates.count == 2)
        guard case .scoreboard(let b)? = updates.first else { Issue.record("no scoreboard"); return }
        #expect(b.eventID == "14109842" && b.home == "Arsenal" && b.away == "Chelsea" && b.league == "Premier League")
        #expect(b.sport == "soccer" && b.score == Score(home: 2, away: 1) && b.status == .live && b.period == "2nd half")
        // 2,100 s into the second half at the message's timestamp: the 81st minute.
        #expect(b.clock == "81'")
        // And the clock runs on between messages, into stoppage time.
        let start = try #require(b.clockStart)
        #expect(start.minute == 45 && start.label(at: Date(timeIntervalSince1970: 1_710_727_500 + 44 * 60 + 5)) == "90'")
        #expect(start.label(at: Date(timeIntervalSince1970: 1_710_727_500 + 47 * 60)) == "90+3'")
        var store = LiveStore()
        store.apply(FeedMessage(provider: .sportsapi, receivedAt: Date(), update: .scoreboard(b)))
        let e = try #require(store.events[EventKey(provider: .sportsapi, id: "14109842")]?.event)
        #expect(e.clockLabel(at: Date(timeIntervalSince1970: 1_710_727_500 + 60 * 60)) == "90+16'")
        #expect(e.clock == "81'")
        guard case .scoreboard(let later)? = updates.last else { return }
        #expect(later.status == .scheduled && later.score == nil && later.clock == nil)
    }

    @Test("Start times in every form: SofaScore's startTimestamp (seconds, milliseconds, text), 365Scores' startTime (ISO with or without an offset)")
    func startTimes() throws {
        let kickOff = Date(timeIntervalSince1970: 1_710_770_400)  // 2024-03-18T14:00:00Z
        func v2(_ member: String) throws -> Scoreboard? {
            let data = #"{"events":[{"id":7,"homeTeam":{"name":"A"},"awayTeam":{"name":"B"},"status":{"type":"notstarted"},"# + member + "}]}"
            guard case .scoreboard(let b)? = try Self.feed().decode(Self.frame("live-scores", "snapshot", data: data), first: false).first else { return nil }
            return b
        }
        for member in [#""startTimestamp":1710770400"#, #""startTimestamp":1710770400000"#, #""startTimestamp":"1710770400""#,
                       #""startTimestamp":1710770400.0"#, #""startTime":"2024-03-18T14:00:00Z""#, #""startTime":"2024-03-18T15:00:00+01:00""#,
                       #""startTime":"2024-03-18T14:00:00""#, #""startTime":"2024-03-18T16:00:00+0200""#] {
            #expect(try v2(member)?.startTime == kickOff, "\(member)")
        }
        // Out of range, not a time, or absent: no start, and the rest of the event is still read.
        for member in [#""startTimestamp":-5"#, #""startTimestamp":99999999999999999"#, #""startTimestamp":"soon""#, #""startTimestamp":{}"#, #""x":1"#] {
            let b = try v2(member)
            #expect(b?.home == "A" && b?.startTime == nil, "\(member)")
        }
        func v1(_ start: String) throws -> Scoreboard? {
            let update = #"{"type":"match-update","channel":"match:1","game":{"id":1,"statusGroup":2,"homeCompetitor":{"name":"A","score":-1},"awayCompetitor":{"name":"B","score":-1},"startTime":"# + start + #"},"updateId":1}"#
            guard case .scoreboard(let b)? = try Self.v1Feed(["all"]).decode(update, first: false).first else { return nil }
            return b
        }
        for start in [#""2024-03-18T14:00:00+00:00""#, #""2024-03-18T14:00:00.000Z""#, #""2024-03-18T09:00:00-05:00""#, "1710770400"] {
            #expect(try v1(start)?.startTime == kickOff, "\(start)")
        }
        // The store keeps it: JSON and fusion see the start.
        var store = LiveStore()
        store.apply(FeedMessage(provider: .sportsapi, receivedAt: Date(), update: .scoreboard(try #require(try v2(#""startTimestamp":1710770400"#)))))
        #expect(store.events[EventKey(provider: .sportsapi, id: "7")]?.event.startTime == kickOff)
    }

    @Test("SofaScore's homeRedCards and awayRedCards are the red cards per side, as v1's competitors' are")
    func v2RedCards() throws {
        let data = #"{"events":[{"id":7,"homeTeam":{"name":"A"},"awayTeam":{"name":"B"},"homeScore":{"current":1},"awayScore":{"current":0},"status":{"type":"inprogress"},"awayRedCards":2},{"id":8,"homeTeam":{"name":"C"},"awayTeam":{"name":"D"},"status":{"type":"inprogress"}}]}"#
        let updates = try Self.feed().decode(Self.frame("live-scores", "snapshot", data: data), first: false)
        guard case .scoreboard(let b)? = updates.first, case .scoreboard(let none)? = updates.last else { Issue.record("\(updates)"); return }
        #expect(b.redCards == Score(home: 0, away: 2) && none.redCards == nil)
        var store = LiveStore()
        store.apply(FeedMessage(provider: .sportsapi, receivedAt: Date(), update: .scoreboard(b)))
        #expect(store.events[EventKey(provider: .sportsapi, id: "7")]?.event.stats.first { $0.name == Scoreboard.redCardsStat }.map { [$0.home, $0.away] } == ["0", "2"])
    }

    @Test func statsLineupsAndOddsFromSeveralBooks() throws {
        let feed = Self.feed()
        _ = try feed.decode(Self.frame("match:9", "snapshot", data: #"{"id":9,"homeTeam":{"name":"Arsenal"},"awayTeam":{"name":"Chelsea"}}"#), first: false)
        let stats = try feed.decode(Self.frame("match:9:stats", data: #"{"statistics":[{"period":"1ST","groups":[]},{"period":"ALL","groups":[{"groupName":"Match overview","statisticsItems":[{"name":"Ball possession","home":"55%","away":"45%"},{"name":"Corner kicks","home":"6","away":"2"}]}]}]}"#), first: false)
        #expect(stats == [.stats(eventID: "9", [TeamStat(name: "Ball possession", home: "55%", away: "45%", group: "Match overview"),
                                                 TeamStat(name: "Corner kicks", home: "6", away: "2", group: "Match overview")])])
        let lineups = try feed.decode(Self.frame("match:9:lineups", data: #"{"confirmed":true,"home":{"formation":"4-3-3","players":[{"player":{"name":"David Raya"},"shirtNumber":22,"position":"G"},{"player":{"name":"Kai Havertz"},"shirtNumber":29,"position":"F","substitute":true}]},"away":{"formation":"4-2-3-1","players":[]}}"#), first: false)
        guard case .lineups(_, let l)? = lineups.first else { Issue.record("no lineups"); return }
        #expect(l.home?.formation == "4-3-3" && l.home?.starters == [LineupPlayer(name: "David Raya", number: "22", position: "G")])
        #expect(l.home?.substitutes.map(\.name) == ["Kai Havertz"] && l.away?.formation == "4-2-3-1" && l.confirmed == true)
        let odds = try feed.decode(Self.frame("match:9:odds", data: #"{"providers":[{"name":"bet365","markets":[{"marketName":"Full time","choices":[{"name":"1","fractionalValue":"11/10","decimalValue":"2.10"},{"name":"X","fractionalValue":"9/4"},{"name":"2","fractionalValue":"5/2","suspended":true}]}]},{"name":"Unibet","markets":[{"marketName":"Full time","choices":[{"name":"1","decimalValue":"2.15"},{"name":"X","decimalValue":"3.30"},{"name":"2","decimalValue":"3.40"}]},{"marketName":"Match goals","choiceGroup":"2.5","choices":[{"name":"Over","decimalValue":"1.83"},{"name":"Under","decimalValue":"nope"}]}]}]}"#), first: false)
        #expect(odds.count == 2)
        guard case .bookUpsert(let bet365, let book)? = odds.first else { Issue.record("no book"); return }
        #expect(book == "bet365" && bet365.home == "Arsenal" && bet365.away == "Chelsea")
        let one = try #require(bet365.markets.first?.selections.first)
        // Fractional is kept as sent (exact); the decimal form is computed exactly from it.
        #expect(one.price?.text == "11/10" && one.price?.format == .fractional && one.price?.formatted(.decimal) == "2.10")
        #expect(bet365.markets[0].selections[2].suspended)
        guard case .bookUpsert(let unibet, _)? = odds.last else { return }
        #expect(unibet.markets[0].selections[0].price?.text == "2.15")
        let goals = unibet.markets[1]
        #expect(goals.name == "Match goals 2.5" && goals.selections.map(\.line) == ["2.5", "2.5"])
        // "nope" is no price: the selection is shown as suspended, not dropped and not guessed.
        #expect(goals.selections[1].price == nil && goals.selections[1].suspended)
        // SofaScore's marketPeriod: a half's market is named with it and kept apart from the match's by meaning; the
        // match's own ("Full-time") and a name that says its half already are left as they are.
        let periods = try feed.decode(Self.frame("match:9:odds", data: #"{"eventId":9,"markets":[{"marketName":"Match goals","marketPeriod":"Full-time","choiceGroup":"1.5","choices":[{"name":"Over","fractionalValue":"3/10"},{"name":"Under","fractionalValue":"12/5"}]},{"marketName":"Match goals","marketPeriod":"1st half","choiceGroup":"1.5","choices":[{"name":"Over","fractionalValue":"21/10"},{"name":"Under","fractionalValue":"4/11"}]},{"marketName":"1st half","marketPeriod":"1st half","choices":[{"name":"1","fractionalValue":"2/1"},{"name":"X","fractionalValue":"6/5"},{"name":"2","fractionalValue":"4/1"}]}]}"#), first: false)
        guard case .bookUpsert(let sofa, _)? = periods.first else { Issue.record("no book: \(periods)"); return }
        #expect(sofa.markets.map(\.name) == ["Match goals 1.5", "Match goals (1st half) 1.5", "1st half"], "\(sofa.markets.map(\.name))")
        let main = FusedMatch.mainMarket(of: sofa)
        #expect(sofa.markets.map { FusedMatch.normalized($0, main: main, event: sofa).map(\.id) } == [["total:1.5"], [sofa.markets[1].id], [sofa.markets[2].id]])
    }

    @Test func errorsAreShownOnceAndAKeyErrorStops() throws {
        let feed = Self.feed()
        let error = Array(#"{"type":"error","message":"Unknown channel","channel":"match:x:foo"}"#.utf8)
        guard case .notice(let text) = try feed.receive(error, first: false) else { Issue.record("expected a notice"); return }
        #expect(text.contains("Unknown channel"))
        #expect(try feed.receive(error, first: false) == .keepalive)
        let key = try feed.receive(Array(#"{"type":"error","message":"Invalid API key"}"#.utf8), first: false)
        #expect(key == .fatal(.authentication(.sportsapi, "Invalid API key")))
        #expect(throws: (any Error).self) { try feed.receive(Array(#"{"type":"mystery"}"#.utf8), first: false) }
        #expect(throws: (any Error).self) { try feed.receive(Array(Self.frame("match:1:gossip", data: "{}").utf8), first: false) }
    }

    @Test func channelNamesRoundTrip() {
        for name in ["live-scores", "live-scores:basketball", "match:14109842", "match:14109842:incidents", "match:1:stats",
                     "match:1:odds", "match:1:lineups"] {
            #expect(SportsAPIProChannel(name)?.name == name)
        }
        for bad in ["", "match:", "match:1:foo", "match:1:incidents:x", "live-scores:", "scores"] {
            #expect(SportsAPIProChannel(bad) == nil)
        }
    }

    @Test func sportsMapToTheDocumentedValues() throws {
        #expect(SportsAPIProSports.v2Value("soccer") == "football")
        #expect(SportsAPIProSports.v2Value("Ice Hockey") == "ice-hockey")
        #expect(SportsAPIProSports.v2Value("beach-volleyball") == "beach-volley")
        #expect(SportsAPIProSports.v2.count == 25)
        #expect(throws: OddsError.self) { try SportsAPIProClient.sportHeader("curling") }
        #expect(SportsAPIProSports.v1Value("ice-hockey") == "hockey")
        #expect(SportsAPIProSports.v1Value("cricket") == nil)
        #expect(SportsAPIProSports.slug("hockey") == "ice-hockey" && SportsAPIProSports.slug("football") == "soccer")
    }

    // MARK: - v1

    static func v1Feed(_ channels: [String] = ["football"]) -> SportsAPIProV1Feed {
        SportsAPIProV1Feed(settings: ProviderSettings(key: "k", restURL: "", webSocketURL: "ws://127.0.0.1:1/v1/{sport}/ws"),
                           hostSport: "tennis", channels: channels)
    }

    @Test func v1TheSportGoesInTheHostTemplate() throws {
        let (url, _) = try Self.v1Feed().endpoint()
        #expect(url == "ws://127.0.0.1:1/v1/tennis/ws?x-api-key=k")
    }

    @Test func v1ScoresFollowUpdateIdOrder() throws {
        let feed = Self.v1Feed(["football", "live"])
        #expect(try feed.receive(Array(Fixture.text("docs/sportsapi-v1-connected.json").utf8), first: true) == .keepalive)
        let scores = try Fixture.text("docs/sportsapi-v1-scores.json")
        let updates = try feed.decode(scores, first: false)
        #expect(updates.count == 2)
        guard case .scoreboard(let live)? = updates.first, case .scoreboard(let later)? = updates.last else { Issue.record("no scoreboards"); return }
        #expect(live.home == "Arsenal" && live.score == Score(home: 2, away: 1) && live.status == .live && live.clock == "67'")
        #expect(live.sport == "soccer" && live.league == "Premier League")
        // -1 is "not started": no score, not 0-0 and not -1.
        #expect(later.score == nil && later.status == .scheduled)
        // The same updateId again, and a smaller one, are stale; a larger one is news.
        #expect(try feed.receive(Array(scores.utf8), first: false) == .keepalive)
        #expect(try feed.receive(Array(scores.replacingOccurrences(of: "5612062220", with: "5612062219").utf8), first: false) == .keepalive)
        #expect(try feed.decode(scores.replacingOccurrences(of: "5612062220", with: "5612062221"), first: false).count == 2)
        // Another channel has its own order.
        #expect(try feed.decode(scores.replacingOccurrences(of: "\"football\"", with: "\"live\""), first: false).count == 2)
        // On a connection, a channel not asked for (the server's `all`, before the narrowing
        // unsubscribe) is not passed on; a replay (no connection) takes whatever it recorded.
        feed.didConnect(FeedLink())
        let all = scores.replacingOccurrences(of: "\"football\"", with: "\"all\"").replacingOccurrences(of: "5612062220", with: "5612062299")
        #expect(try feed.receive(Array(all.utf8), first: false) == .keepalive)
    }

    @Test("v1's statusText is a period or, in live football, the minute: a minute is the clock, never the period")
    func v1MinuteIsTheClock() throws {
        func board(_ game: String) throws -> Scoreboard? {
            let feed = Self.v1Feed(["all"])
            let update = #"{"type":"match-update","channel":"match:1","game":{"id":1,"sportId":1,"statusGroup":3,"#
                + game + #","homeCompetitor":{"name":"Arsenal","score":2},"awayCompetitor":{"name":"Chelsea","score":1}},"updateId":9,"ts":1}"#
            guard case .scoreboard(let b)? = try feed.decode(update, first: false).first else { return nil }
            return b
        }
        // The simulator's shape: the minute as statusText.
        let minute = try #require(try board(#""statusText":"67'","gameTime":67"#))
        #expect(minute.period == nil && minute.clock == "67'" && minute.status == .live)
        // 365Scores' own: the period as statusText, the minute beside it.
        let period = try #require(try board(#""statusText":"2nd Half","shortStatusText":"2H","gameTime":67,"gameTimeDisplay":"67'""#))
        #expect(period.period == "2nd Half" && period.clock == "67'")
        let extra = try #require(try board(#""statusText":"Extra time","gameTime":109,"gameTimeDisplay":"109'""#))
        #expect(extra.period == "Extra time" && extra.clock == "109'")
        // Added time as shown, with either apostrophe; a minute given only as gameTime still reads.
        let added = try #require(try board(#""statusText":"45+2’","gameTime":47"#))
        #expect(added.period == nil && added.clock == "45+2'")
        let plain = try #require(try board(#""statusText":"Live","gameTime":12"#))
        #expect(plain.period == "Live" && plain.clock == "12'")
        for notMinute in ["20:00", "'", "+'", "1234'", "4a'", "67", "٦٧'"] {
            #expect(SportsAPIProWire.minuteOfPlay(notMinute) == nil, "\(notMinute)")
        }
    }

    @Test func v1MatchUpdateAndBadGames() throws {
        let feed = Self.v1Feed(["all"])
        let update = #"{"type":"match-update","channel":"match:4467358","game":{"id":4467358,"statusGroup":4,"statusText":"Ended","homeCompetitor":{"name":"Arsenal","score":3},"awayCompetitor":{"name":"Chelsea","score":1}},"updateId":9,"ts":1}"#
        guard case .scoreboard(let b)? = try feed.decode(update, first: false).first else { Issue.record("no scoreboard"); return }
        #expect(b.status == .ended && b.score == Score(home: 3, away: 1))
        let inbound = try feed.receive(Array(#"{"type":"scores","channel":"live","games":[{"no":"id"},{"id":1,"homeCompetitor":{"name":"A","score":"x"}}],"updateId":1}"#.utf8), first: false)
        guard case .batch(let items, let skipped) = inbound else { Issue.record("expected a batch"); return }
        #expect(skipped.count == 1 && items.flatMap(\.updates).count == 1)
    }

    @Test func streamLinesForAPersonSayStatsLineupsAndEachBooksPrices() throws {
        var store = LiveStore()
        let t = Date(timeIntervalSince1970: 1_795_440_000)
        func line(_ u: FeedUpdate) -> String? {
            let m = FeedMessage(provider: .sportsapi, receivedAt: t, update: u)
            store.apply(m)
            return humanLine(m, store: store)
        }
        _ = line(.scoreboard(Scoreboard(eventID: "9", home: "Arsenal", away: "Chelsea", status: .live)))
        #expect(line(.stats(eventID: "9", [TeamStat(name: "Ball possession", home: "55%", away: "45%")]))?.hasSuffix("Arsenal v Chelsea  Ball possession 55%-45%") == true)
        #expect(line(.lineups(eventID: "9", Lineups(home: Lineup(formation: "4-3-3", starters: [LineupPlayer(name: "A")]))))?.hasSuffix("lineups: 4-3-3 (1 + 0) v not yet") == true)
        let market = Market(id: "9:1", name: "Full time", book: "bet365", selections: [
            Selection(id: "1", name: "1", price: Price(fractional: "11/10")), Selection(id: "2", name: "2", price: nil, suspended: true)])
        let odds = Event(provider: .sportsapi, id: "9", sport: "soccer", home: "Arsenal", away: "Chelsea", markets: [market])
        #expect(line(.bookUpsert(odds, book: "bet365"))?.hasSuffix("Arsenal v Chelsea  bet365: 1 11/10  2 SUSP") == true)
    }

    // MARK: - watch

    static func event(_ id: String, _ home: String, _ away: String) -> Event {
        Event(provider: .sportsapi, id: id, sport: "soccer", home: home, away: away, status: .live)
    }

    @Test func watchFindsOneMatchByTeamAndRefusesAmbiguity() {
        let live = [Self.event("1", "Arsenal", "Chelsea"), Self.event("2", "Arsenal Women", "Chelsea Women"), Self.event("3", "Atlético Madrid", "Sevilla")]
        #expect(Watch.candidates("arsenal", in: live).map(\.id) == ["1"])
        #expect(Watch.candidates("women", in: live).map(\.id) == ["2"])
        #expect(Watch.candidates("atletico", in: live).map(\.id) == ["3"])
        #expect(Watch.candidates("chel", in: live).map(\.id) == ["1", "2"])
        #expect(Watch.candidates("barcelona", in: live).isEmpty)
    }

    @Test func watchLinesReadLikeAMatchReport() {
        var e = Self.event("1", "Arsenal", "Chelsea")
        e.score = Score(home: 2, away: 1)
        let goal = Incident(kind: .goal, minute: 67, team: .home, player: "Saka", detail: "Goal", assist: "Ødegaard", score: Score(home: 2, away: 1))
        #expect(WatchReporter.line(goal, event: e) == "67'    GOAL         Arsenal 2-1  Saka (assist Ødegaard)")
        let red = Incident(kind: .card, minute: 72, team: .away, player: "Cucurella", detail: "Red card", reason: "Foul")
        #expect(WatchReporter.line(red, event: e) == "72'    RED CARD     Chelsea  Cucurella — foul")
        let added = Incident(kind: .injuryTime, minute: 90, detail: "Injury time", addedTime: 4)
        #expect(WatchReporter.line(added, event: e) == "90'    +4 MIN       added time")
        let late = Incident(kind: .goal, minute: 90, team: .away, player: "Palmer", addedTime: 3)
        #expect(WatchReporter.line(late, event: e).hasPrefix("90+3'  GOAL         Chelsea 2-1  Palmer"))
        #expect(WatchReporter.rings(goal) && WatchReporter.rings(red) && !WatchReporter.rings(added))
    }
}

@Suite("SportsAPIPro v1 sport ids", .unitLane)
struct SportsAPIProV1SportIDTests {
    @Test("Ids 1 to 9 name the documented sports, in order; any other id names none")
    func ids() {
        #expect(SportsAPIProWire.v1Sport(id: 1) == "football" && SportsAPIProWire.v1Sport(id: 6) == "american-football")
        #expect(SportsAPIProWire.v1Sport(id: 9) == "rugby")
        for id in [0, -1, 10, 100] { #expect(SportsAPIProWire.v1Sport(id: id) == nil, "\(id)") }
        #expect(SportsAPIProV1Client.documentedSports == (1...9).compactMap(SportsAPIProWire.v1Sport(id:)))
    }
}
