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

/// SportsAPIPro's decoders and the incident views on real SofaScore and 365Scores bodies (issue 49), each
/// delivered in the docs' envelope. Fixtures/real/SOURCES.md says where each body came from.
@Suite("Real SofaScore and 365Scores payloads", .unitLane)
struct RealPayloadTests {
    static func frame(_ channel: String, _ data: String, type: String = "update") -> String {
        #"{"channel":"\#(channel)","type":"\#(type)","data":\#(data),"source":"nats","timestamp":1710729600437}"#
    }

    /// The incidents a v2 feed passes on for one `:incidents` body, in the order it passes them.
    static func incidents(_ fixture: String, feed: SportsAPIProFeed? = nil) throws -> [Incident] {
        let feed = feed ?? SportsAPIProDecoderTests.feed([.incidents("1")])
        return try feed.decode(frame("match:1:incidents", try Fixture.text("real/\(fixture)")), first: false).compactMap { u in
            if case .incident(_, let i) = u { return i }
            return nil
        }
    }

    static func labels(_ list: [Incident]) -> [String] {
        list.map { i in "\(i.minuteLabel ?? "-") \(i.kind == .period ? i.detail ?? "" : i.kind.rawValue)" }
    }

    @Test("A whole match (newest first, period ends with addedTime 999): in match order, HT after 45+1', FT last")
    func wholeMatchInOrder() throws {
        let list = try Self.incidents("sofascore-incidents.json")
        #expect(Self.labels(list) == ["8' card", "28' card", "34' card", "38' card", "40' substitution", "45+1' card", "45' HT",
                                      "67' substitution", "68' card", "82' card", "86' substitution", "90' FT"])
        #expect(list.last?.endsMatch == true && list.last?.score == Score(home: 0, away: 0))
        // Cards whose player has no playerName key still name the player (from the player object).
        #expect(list.filter { $0.kind == .card }.allSatisfy { $0.player != nil && !$0.rescinded })
        #expect(list.first { $0.minute == 38 }?.detail == "Red card")
    }

    @Test("Injury time's length is no added minute: +4 MIN at 90', then 90+2', then FT")
    func injuryTimeAtItsMinute() throws {
        let list = try Self.incidents("sofascore-incidents-2.json")
        #expect(list.map(\.kind) == [.injuryTime, .card, .period])
        #expect(list[0].addedTime == 4 && list[1].minuteLabel == "90+2'")
        let e = Event(provider: .sportsapi, id: "1", sport: "soccer", home: "Croatia", away: "Spain", status: .ended,
                      score: Score(home: 1, away: 2))
        #expect(WatchReporter.line(list[0], event: e).contains("+4 MIN"))
        #expect(WatchReporter.line(list[2], event: e).contains("FULL TIME") && WatchReporter.line(list[2], event: e).contains("1-2"))
    }

    @Test("A half-time line prints the incident's own score, not the match's score now")
    func periodLinesTellTheirOwnScore() throws {
        let blocks = try Self.incidents("sofascore-incident-blocks.json")
        let half = try #require(blocks.first { $0.detail == "HT" })
        let now = Event(provider: .sportsapi, id: "1", sport: "soccer", home: "Crystal Palace", away: "Fulham", status: .live,
                        score: Score(home: 2, away: 1))
        let line = WatchReporter.line(half, event: now)
        #expect(line.contains("HALF TIME") && line.contains("Crystal Palace 0-0 Fulham"), "\(line)")
    }

    @Test("An in-play penalty missed is one, with the player and why; never INGAMEPENALTY")
    func inGamePenalty() throws {
        let list = try Self.incidents("sofascore-incidents-ingamepenalty.json")
        let penalty = try #require(list.first { $0.kind == .other })
        #expect(penalty.detail == "Penalty missed" && penalty.player == "Raheem Sterling" && penalty.reason == "Goalkeeper save")
        #expect(penalty.minuteLabel == "90+3'" && penalty.team == .away)
        let e = Event(provider: .sportsapi, id: "1", sport: "soccer", home: "Liverpool", away: "Manchester City", status: .live)
        let line = WatchReporter.line(penalty, event: e)
        #expect(line.contains("PENALTY MISSED") && line.contains("Raheem Sterling") && line.contains("goalkeeper save"), "\(line)")
        #expect(!line.uppercased().contains("INGAMEPENALTY") && !WatchReporter.rings(penalty))
        // Before FT, which comes after every minute of added time.
        #expect(list.last?.detail == "FT")
    }

    @Test("Blocks of every kind: VAR names its player, a second yellow, a penalty goal, a shot off target")
    func incidentBlocks() throws {
        let list = try Self.incidents("sofascore-incident-blocks.json")
        let e = Event(provider: .sportsapi, id: "1", sport: "soccer", home: "Home", away: "Away", status: .live)
        let vars = list.filter { $0.kind == .var }
        #expect(vars.count == 4 && vars.allSatisfy { $0.player != nil })
        let varLine = WatchReporter.line(try #require(vars.first { $0.player == "Lawrence Ennali" }), event: e)
        #expect(varLine.contains("Lawrence Ennali") && varLine.contains("Penalty not awarded"), "\(varLine)")
        #expect(list.contains { $0.kind == .card && $0.detail == "Second yellow" && $0.player == "Xeka" })
        #expect(list.contains { $0.kind == .goal && $0.detail == "Penalty" && $0.player == "Peque Fernández" && $0.minuteLabel == "90+7'" })
        #expect(list.contains { $0.detail == "Penalty missed" && $0.reason == "Off target" && $0.player == "Lionel Messi" })
        // In match order: minutes never go back, and each period marker follows its minute's added time.
        let keys = list.map(\.timelineKey)
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test("A shoot-out: its kicks have no minute and come last, each with the running score; PEN's time 999 is no minute")
    func shootout() throws {
        let list = try Self.incidents("sofascore-incidents-shootout.json")
        let kicks = list.filter { $0.detail == "Shoot-out" }
        #expect(kicks.count == 2 && kicks.allSatisfy { $0.minute == nil && $0.reason == "Scored" })
        // The feed's newest first, turned round: the earlier kick first.
        #expect(kicks.map(\.player) == ["Hiroki Itō", "Jeremy Sarmiento"])
        let pen = try #require(list.first { $0.kind == .period })
        #expect(pen.detail == "PEN" && pen.minute == nil && pen.endsMatch && pen.score == Score(home: 4, away: 3))
        #expect(list.last == pen)
    }

    @Test("A rescinded card (a shape no capture has: built from the field's documented meaning) is shown as rescinded and rings no bell")
    func rescindedCard() throws {
        let feed = SportsAPIProDecoderTests.feed([.incidents("1")])
        let card = #"{"rescinded":%@,"id":5,"time":61,"isHome":true,"incidentClass":"red","incidentType":"card","player":{"name":"A. Player"},"reason":"Foul"}"#
        func decode(_ rescinded: String) throws -> [Incident] {
            try feed.decode(Self.frame("match:1:incidents", #"{"incidents":["# + String(format: card, rescinded) + "]}"), first: false).compactMap { u in
                if case .incident(_, let i) = u { return i }
                return nil
            }
        }
        let red = try #require(try decode("false").first)
        #expect(!red.rescinded && WatchReporter.rings(red))
        // Taken back later: the same id told again, now as news.
        let taken = try #require(try decode("true").first)
        #expect(taken.rescinded && !WatchReporter.rings(taken))
        let e = Event(provider: .sportsapi, id: "1", sport: "soccer", home: "Home", away: "Away", status: .live)
        let line = WatchReporter.line(taken, event: e)
        #expect(line.contains("RESCINDED") && line.contains("red card rescinded") && !line.contains("RED CARD "), "\(line)")
        #expect(EventReporter.incidentLine(taken, event: e).contains("(rescinded)"))
        #expect(EventJSON.incident(taken).rendered.contains(#""rescinded":true"#))
        // Told a third time, it is no news.
        #expect(try decode("true").isEmpty)
    }

    @Test("100,000 incidents, then the same with one new goal on top: the goal comes through")
    func aNewIncidentAlwaysComesThrough() throws {
        let feed = SportsAPIProDecoderTests.feed([.incidents("7")])
        // Newest first: minute 120 down to 0, many per minute.
        let old = (0..<100_000).map { i in #"{"incidentType":"card","id":\#(i + 1),"time":\#(120 - i * 121 / 100_000),"isHome":true,"incidentClass":"yellow"}"# }
        func send(_ items: [String]) throws -> [Incident] {
            let frame = #"{"channel":"match:7:incidents","type":"update","data":{"incidents":[\#(items.joined(separator: ","))]}}"#
            return try feed.receive(Array(frame.utf8), first: false).updates.compactMap { u in
                if case .incident(_, let i) = u { return i }
                return nil
            }
        }
        #expect(try send(old).count == SportsAPIProWire.incidentLimit)
        // A goal in the 30th minute, newest in the feed's order: not among the highest minutes.
        let goal = #"{"incidentType":"goal","id":999999,"time":30,"isHome":false,"player":{"name":"Late News"}}"#
        let news = try send([goal] + old)
        #expect(news.map(\.id) == ["999999"])
        #expect(try send([goal] + old).isEmpty)
    }

    @Test("v2 events: the start, red cards where the key is, none where it is absent; a finished event is ended")
    func sofaScoreEvents() throws {
        let feed = SportsAPIProDecoderTests.feed()
        func board(_ fixture: String) throws -> Scoreboard {
            let body = try Fixture.text("real/\(fixture)")
            let data = try JSONParser.parse(body)["events"] != nil ? body : #"{"events":["# + body + "]}"
            guard case .scoreboard(let b)? = try feed.decode(Self.frame("live-scores", data, type: "snapshot"), first: false).first else {
                throw MalformedMessage("no scoreboard in \(fixture)")
            }
            return b
        }
        let live = try board("sofascore-event.json")
        #expect(live.startTime == Date(timeIntervalSince1970: 1_790_690_400) && live.status == .live && live.redCards == nil)
        #expect(live.score == Score(home: 1, away: 1) && live.home == "Madagascar")
        let finished = try board("sofascore-event-redcard.json")
        #expect(finished.status == .ended && finished.redCards == Score(home: 1, away: 0) && finished.score == Score(home: 2, away: 2))
        let list = try board("sofascore-events-live.json")
        #expect(list.startTime == Date(timeIntervalSince1970: 1_738_279_800) && list.home == "Ecuador U20" && list.score == Score(home: 0, away: 0))
    }

    @Test("v1 games: float scores, an offset start, red cards; a postponed game's -1.0 is no score")
    func scores365Games() throws {
        let feed = SportsAPIProDecoderTests.v1Feed(["football"])
        func board(_ fixture: String, id: Int) throws -> Scoreboard {
            let game = try Fixture.text("real/\(fixture)")
            let frame = #"{"type":"scores","channel":"football","games":["# + game + #"],"updateId":\#(id),"ts":1}"#
            guard case .scoreboard(let b)? = try feed.decode(frame, first: false).first else { throw MalformedMessage("no scoreboard in \(fixture)") }
            return b
        }
        let game = try board("365scores-game.json", id: 1)
        #expect(game.score == Score(home: 1, away: 2) && game.status == .ended && game.redCards == Score(home: 1, away: 0))
        // 2024-05-04T20:00:00-04:00
        #expect(game.startTime == Date(timeIntervalSince1970: 1_714_867_200))
        let postponed = try board("365scores-game-postponed.json", id: 2)
        #expect(postponed.score == nil)
    }

    @Test("A finished match is still a match: the store of one match's answer keeps it, a live view does not")
    func finishedMatchKept() throws {
        var board = Scoreboard(eventID: "9")
        board.home = "A"; board.away = "B"; board.status = .ended; board.score = Score(home: 1, away: 0)
        var live = LiveStore()
        live.apply(FeedMessage(provider: .sportsapi, receivedAt: Date(), update: .scoreboard(board)))
        #expect(live.currentEvents().isEmpty)
        var asked = LiveStore()
        asked.admitsEnded = true
        asked.apply(FeedMessage(provider: .sportsapi, receivedAt: Date(), update: .scoreboard(board)))
        #expect(asked.currentEvents().first?.status == .ended)
    }

    @Test("The store keeps incidents in match order: one told late goes where it happened")
    func storeInMatchOrder() {
        var store = LiveStore()
        let key = EventKey(provider: .sportsapi, id: "1")
        store.apply(FeedMessage(provider: .sportsapi, receivedAt: Date(), update: .upsert(Event(provider: .sportsapi, id: "1", sport: "soccer", home: "A", away: "B"))))
        let told = [Incident(kind: .goal, minute: 10), Incident(kind: .card, minute: 45, addedTime: 2),
                    Incident(kind: .period, minute: 45, detail: "HT"), Incident(kind: .var, minute: 44), Incident(kind: .goal, minute: 45, addedTime: 3)]
        for i in told { store.apply(FeedMessage(provider: .sportsapi, receivedAt: Date(), update: .incident(eventID: "1", i))) }
        let kept = store.events[key]?.event.incidents ?? []
        #expect(kept.map(\.minuteLabel) == ["10'", "44'", "45+2'", "45+3'", "45'"])
        #expect(kept.last?.detail == "HT")
    }

    @Test("The fused incident log is bounded, and each telling is compared with its own minute's only")
    func incidentLogBounded() {
        var log = IncidentLog()
        for n in 0..<(IncidentLog.capacity * 3) {
            let new = log.tell(Incident(kind: .card, minute: n % 120, player: "P\(n)"), by: .sportsapi)
            #expect(new)
        }
        #expect(log.incidents.count == IncidentLog.capacity)
        #expect(log.incidents.last?.player == "P\(IncidentLog.capacity * 3 - 1)")
        // Another provider's telling of a kept card, a minute off, is that card; a card of a new player is not.
        let last = IncidentLog.capacity * 3 - 1
        let again = log.tell(Incident(kind: .card, minute: last % 120 + 1, player: "P\(last)"), by: .tickodds)
        let other = log.tell(Incident(kind: .card, minute: last % 120, player: "Someone Else"), by: .tickodds)
        #expect(!again && other)
    }

    @Test("Watch ends on the match's last word: a full-time marker with nothing after it")
    func finalWord() {
        let goal = Incident(kind: .goal, minute: 90, addedTime: 2)
        #expect(!Watch.hasFinalWord([goal]))
        #expect(!Watch.hasFinalWord([goal, Incident(kind: .period, minute: 45, detail: "HT")]))
        #expect(Watch.hasFinalWord([Incident(kind: .period, minute: 90, detail: "FT"), goal]))
        #expect(Watch.hasFinalWord([goal, Incident(kind: .period, minute: 90, detail: "Full Time")]))
    }
}
