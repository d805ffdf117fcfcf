import Foundation
import OddsFusion
import OddsModel
@testable import OddsPulseScore
@testable import OddsTickOdds
import OddsTestSupport
import Testing

@Suite("Decoders on the payloads printed in the provider docs", .unitLane)
struct DecoderTests {
    @Test("PulseScore live events")
    func pulseScoreLiveEvents() throws {
        let events = try PulseScoreWire.events(PulseScoreWire.parse(Fixture.text("docs/pulsescore-live-events.json")))
        #expect(events.count == 1)
        let e = try #require(events.first)
        #expect(e.provider == .pulsescore)
        #expect(e.id == "98734521")
        #expect(e.sport == "soccer")
        #expect(e.league == "Premier League")
        #expect(e.home == "Liverpool" && e.away == "Man City")
        #expect(e.status == .live)
        #expect(e.score == nil)
        #expect(e.markets.map(\.name) == ["Fulltime Result", "Over/Under 2.5 Goals"])
        #expect(e.mainMarket?.selections.map { $0.price?.text } == ["2.10", "3.40", "3.25"])
        let over = e.markets[1].selections[0]
        #expect(over.name == "Over 2.5" && over.line == "2.5" && over.price?.text == "1.75" && !over.suspended)
    }

    @Test("PulseScore live sports, leagues and league events")
    func pulseScoreListings() throws {
        let sports = try PulseScoreWire.sports(PulseScoreWire.parse(Fixture.text("docs/pulsescore-sports.json")))
        #expect(sports.map(\.sport) == ["soccer", "tennis", "basketball"])
        #expect(sports.map(\.count) == [42, 18, 8])
        let leagues = try PulseScoreWire.leagues(PulseScoreWire.parse(Fixture.text("docs/pulsescore-leagues.json")), sport: "soccer")
        #expect(leagues.first?.name == "Premier League")
        #expect(leagues.first?.events.map(\.id) == ["45921003", "45921004"])
        #expect(leagues.first?.live == false)
        let events = try PulseScoreWire.events(PulseScoreWire.parse(Fixture.text("docs/pulsescore-events.json")))
        #expect(events.first?.status == .scheduled)
        #expect(events.first?.mainMarket?.selections.map { $0.price?.formatted(.american) } == ["+130", "+220", "+210"])
    }

    @Test("PulseScore WebSocket broadcast, and message types without events")
    func pulseScoreBroadcast() throws {
        let events = try #require(try PulseScoreWire.broadcast(Fixture.text("docs/pulsescore-ws-data.json")))
        #expect(events.map(\.id) == ["98734521"])
        #expect(try PulseScoreWire.broadcast(#"{"type":"ping"}"#) == nil)
        #expect(throws: PulseScoreWire.Malformed.self) { try PulseScoreWire.broadcast(#"{"type":"data"}"#) }
        #expect(throws: PulseScoreWire.Malformed.self) { try PulseScoreWire.broadcast(#"{"type":"data","events":[{"home":"x"}]}"#) }
        #expect(throws: PulseScoreWire.Malformed.self) { try PulseScoreWire.broadcast("not json") }
    }

    @Test("PulseScore races have no away side, suspended lines show as suspended")
    func pulseScoreRaceAndSuspension() throws {
        let json = #"""
        [{"fi":"1","sport":"Horse Racing","league":"Cheltenham","home":"14:30 Cheltenham","live":0,
          "mg":[{"name":"Win","ma":[{"name":"Galopin Des Champs","pa":[{"decimal":"3.50"}]},{"name":"State Man","pa":[]}]}]}]
        """#
        let e = try #require(try PulseScoreWire.events(PulseScoreWire.parse(json)).first)
        #expect(e.away == nil)
        #expect(e.title == "14:30 Cheltenham")
        #expect(e.sport == "horse-racing")
        #expect(e.markets[0].selections[1].suspended)
        #expect(e.markets[0].selections[1].price == nil)
        #expect(!e.markets[0].selections[0].suspended)
    }

    @Test("PulseScore feed turns later broadcasts into differences")
    func pulseScoreDifference() throws {
        let feed = PulseScoreFeed(settings: .init(key: "k", restURL: "", webSocketURL: ""), sport: "soccer")
        let first = try Fixture.text("docs/pulsescore-ws-data.json")
        #expect(try feed.decode(first, first: true).count == 1)
        let moved = first.replacingOccurrences(of: "\"2.10\"", with: "\"2.20\"")
        let updates = try feed.decode(moved, first: false)
        guard case .price(let p) = try #require(updates.first), updates.count == 1 else {
            Issue.record("expected one price update, got \(updates)"); return
        }
        #expect(p.eventID == "98734521" && p.marketID == "Fulltime Result" && p.selection.price?.text == "2.20")
        let gone = try feed.decode(#"{"type":"data","timestamp":1,"events":[]}"#, first: false)
        #expect(gone == [.remove(eventID: "98734521")])
    }

    @Test("TickOdds event: numbers keep their text, score, clock and period")
    func tickOddsEvent() throws {
        let e = try TickOddsWire.event(TickOddsWire.parse(Fixture.text("docs/tickodds-event.json")))
        #expect(e.id == "191691460")
        #expect(e.score == Score(home: 2, away: 1))
        #expect(e.clock == "67:23" && e.minute == 67)
        // A basketball clock counts the time left: an incident then has no minute of play.
        var quarter = e
        quarter.sport = "basketball"
        quarter.clock = "08:12"
        #expect(quarter.minute == nil)
        #expect(TickOddsWire.incident(.string("Timeout"), event: quarter).minute == nil)
        #expect(e.period == "2nd Half")
        #expect(e.status == .live)
        let m = try #require(e.mainMarket)
        #expect(m.id == "full_time_result:full_game")
        #expect(m.selections.map(\.id) == ["home", "draw", "away"])
        #expect(m.selections.map { $0.price?.text } == ["1.45", "4.50", "7.00"])
    }

    @Test("TickOdds falls back to the flat odds list")
    func tickOddsFlat() throws {
        var json = try Fixture.text("docs/tickodds-event.json")
        let start = try #require(json.range(of: "\"marketGroups\""))
        let end = try #require(json.range(of: "\"odds\": ["))
        json.removeSubrange(start.lowerBound..<end.lowerBound)
        let e = try TickOddsWire.event(TickOddsWire.parse(json))
        #expect(e.markets.first?.selections.first?.price?.text == "1.45")
    }

    @Test("TickOdds: a period's market group named as the game's is told apart by its period, and not joined with the game's total")
    func tickOddsPeriods() throws {
        func group(_ period: String, _ over: String, _ under: String) -> String {
            #"{"name":"Total Goals","key":"total_goals","period":"\#(period)","selections":[{"name":"Over 1.5","odds":\#(over),"side":"over","handicap":1.5},{"name":"Under 1.5","odds":\#(under),"side":"under","handicap":1.5}]}"#
        }
        let event = #"{"fixtureId":"7","sportName":"Soccer","home":"Arsenal","away":"Chelsea","status":"in_progress","marketGroups":[\#(group("full_game", "1.30", "3.40")),\#(group("first_half", "3.10", "1.36"))]}"#
        let flat = #"{"fixtureId":"7","sportName":"Soccer","home":"Arsenal","away":"Chelsea","status":"in_progress","odds":[{"marketKey":"total_goals","marketName":"Total Goals","period":"full_game","side":"over","price":1.30,"handicap":1.5},{"marketKey":"total_goals","marketName":"Total Goals","period":"1st_half","side":"over","price":3.10,"handicap":1.5}]}"#
        for (text, half) in [(event, "Total Goals (first half)"), (flat, "Total Goals (1st half)")] {
            let frame = Array(#"{"type":"match_start","event":\#(text)}"#.utf8)
            let generic = try TickOddsDecoders.generic(frame)
            #expect(TickOddsDecoders.fast(frame) == generic)
            guard case .upsert(let e)? = generic.first else { Issue.record("no event: \(generic)"); continue }
            #expect(e.markets.map(\.name) == ["Total Goals", half], "\(e.markets.map(\.name))")
            let main = FusedMatch.mainMarket(of: e)
            #expect(FusedMatch.normalized(e.markets[0], main: main, event: e).map(\.id) == ["total:1.5"])
            #expect(FusedMatch.normalized(e.markets[1], main: main, event: e).map(\.id) == [e.markets[1].id])
        }
        // A name that says its period already is left as it is.
        #expect(TickOddsWire.marketName("1st Half Total Goals", period: "1st_half") == "1st Half Total Goals")
        #expect(TickOddsWire.marketName("Total Goals", period: nil) == "Total Goals")
    }

    func wrap(_ type: String, extra: String) throws -> String {
        let event = try Fixture.text("docs/tickodds-event.json")
        return #"{"type":"\#(type)","fixtureId":"191691460","event":\#(event)\#(extra)}"#
    }

    @Test("TickOdds messages: every type and change kind")
    func tickOddsMessages() throws {
        let event = try Fixture.text("docs/tickodds-event.json")
        let snapshot = try TickOddsWire.message(#"{"type":"snapshot","count":1,"events":[\#(event)]}"#)
        #expect(snapshot.first?.snapshotEvents?.count == 1)
        #expect(try TickOddsWire.message(#"{"type":"match_start","event":\#(event)}"#).count == 1)

        let score = try TickOddsWire.message(wrap("update", extra: #","change":"score","from":"1-1","to":"2-1""#))
        #expect(score.first == .score(eventID: "191691460", from: Score(home: 1, away: 1), to: Score(home: 2, away: 1)))
        if case .upsert(let e)? = score.last { #expect(e.clock == "67:23") } else { Issue.record("no upsert after score") }

        let period = try TickOddsWire.message(wrap("update", extra: #","change":"period","from":"1st Half","to":"2nd Half""#))
        #expect(period.first == .status(eventID: "191691460", status: .live, period: "2nd Half"))

        let incident = try TickOddsWire.message(wrap("update", extra: #","change":"incident","incident":"Red Card""#))
        #expect(incident.first == .incident(eventID: "191691460", Incident(kind: .card, minute: 67, detail: "Red Card")))

        let odds = try TickOddsWire.message(wrap("update", extra: #","change":"odds","marketName":"Fulltime Result","selection":{"id":"191691460:full_time_result:full_game:home","name":"Crystal Palace","odds":1.40,"handicap":null,"suspended":false}"#))
        guard case .price(let p)? = odds.first else { Issue.record("no price update"); return }
        #expect(p.marketID == "full_time_result:full_game" && p.selection.id == "home" && p.selection.price?.text == "1.40")

        let suspended = try TickOddsWire.message(wrap("update", extra: #","change":"suspended""#)
            .replacingOccurrences(of: "\"in_progress\"", with: "\"suspended\""))
        #expect(suspended.first == .status(eventID: "191691460", status: .suspended, period: "2nd Half"))
        guard case .upsert(let e)? = suspended.last else { Issue.record("no refreshed event after a suspension"); return }
        #expect(!e.markets.isEmpty && e.markets[0].selections.allSatisfy { $0.suspended })

        let end = try TickOddsWire.message(#"{"type":"match_end","fixtureId":"191691460","event":\#(event)}"#)
        #expect(end.last == .remove(eventID: "191691460"))
        #expect(try TickOddsWire.message(Fixture.text("docs/tickodds-heartbeat.json")) == [.heartbeat])
        #expect(try TickOddsWire.message(#"{"type":"something_new"}"#).isEmpty)
    }

    @Test("TickOdds malformed messages throw", arguments: [
        "not json", "[]", #"{"type":"snapshot"}"#, #"{"type":"update","change":"score"}"#, #"{"type":"match_start"}"#,
        #"{"type":"snapshot","events":[{"home":"x"}]}"#,
    ])
    func tickOddsMalformed(text: String) {
        #expect(throws: TickOddsWire.Malformed.self) { try TickOddsWire.message(text) }
    }

    @Test("TickOdds subscribe message names the sport as TickOdds spells it")
    func subscribe() {
        #expect(TickOddsFeed.subscribeMessage(sports: ["ice-hockey"]) == #"{"subscribe":["Ice Hockey"]}"#)
        #expect(TickOddsFeed.subscribeMessage(sports: ["basketball", "soccer"]) == #"{"subscribe":["Basketball","Soccer"]}"#)
        #expect(TickOddsFeed.subscribeMessage(sports: nil) == #"{"subscribe":["all"]}"#)
    }

    @Test("Close codes map as PulseScore's table says")
    func closeCodes() {
        let feed = PulseScoreFeed(settings: .init(key: "k", restURL: "", webSocketURL: ""), sport: "soccer")
        for code in [4011, 4012] {
            if case .reconnect = feed.closeAction(code: code) {} else { Issue.record("\(code) should reconnect") }
        }
        let expected: [Int: Int32] = [4001: 3, 4003: 4, 4004: 64, 4005: 4, 4010: 3, 4029: 4]
        for (code, exit) in expected {
            guard case .stop(let error) = feed.closeAction(code: code) else { Issue.record("\(code) should stop"); continue }
            #expect(error.exitCode == exit, "close \(code)")
        }
        if case .reconnect = feed.closeAction(code: nil) {} else { Issue.record("a drop should reconnect") }
    }
}
