import Foundation
@testable import OddsBoltOdds
import OddsJSON
import OddsModel
@testable import OddsPulseScore
@testable import OddsSportsAPI
import OddsTransport
import OddsTestSupport
import Testing

/// The provider's own time of a message: read from its envelope in every plausible form, never made up.
@Suite("Provider time", .unitLane)
struct ProviderTimeTests {
    static let ms = Date(timeIntervalSince1970: 1_709_474_521)

    func frame(_ text: String) -> Date? {
        var t = text
        return t.withUTF8 { ProviderTime.read($0, key: "timestamp") }
    }

    @Test("Milliseconds or seconds, as a number or digits; ISO 8601 with any fraction and offset; nothing else")
    func forms() {
        #expect(ProviderTime.read(.number("1709474521000")) == Self.ms)
        #expect(ProviderTime.read(.number("1709474521")) == Self.ms)
        #expect(ProviderTime.read(.string("1709474521000")) == Self.ms)
        #expect(ProviderTime.read(.string("2024-03-03T14:02:01Z")) == Self.ms)
        #expect(ProviderTime.read(.string("2024-03-03T16:02:01+02:00")) == Self.ms)
        let micro = ProviderTime.read(.string("2025-07-23T19:45:03.048958+00:00"))
        #expect(micro.map { abs($0.timeIntervalSince1970 - 1_753_299_903.048958) < 0.000_01 } == true)
        for bad: JSONValue? in [nil, .null, .bool(true), .number("1e300"), .number("-5"), .string("yesterday"), .string("2199-01-01T00:00:00Z"),
                                .array([.number("1709474521000")]), .number("NaN")] {
            #expect(ProviderTime.read(bad) == nil, "\(String(describing: bad))")
        }
    }

    @Test("Read from a frame's envelope without decoding the rest; a list's first message; never past its first 4 KB")
    func envelope() {
        #expect(frame(#"{"type":"data","timestamp":1709474521000,"events":[]}"#) == Self.ms)
        #expect(frame(#"[{"timestamp":"2024-03-03T14:02:01Z","action":"line_update"},{"timestamp":"2030-01-01T00:00:00Z"}]"#) == Self.ms)
        #expect(frame(#"{"events":[1,2,3],"timestamp":1709474521000}"#) == Self.ms)
        let payload = "[" + Array(repeating: "1", count: 3000).joined(separator: ",") + "]"
        #expect(frame(#"{"events":\#(payload),"timestamp":1709474521000}"#) == nil)
        #expect(frame(#"{"type":"data","events":[]}"#) == nil)
        // Cut short or not JSON: nothing, and no crash.
        let whole = #"{"timestamp":"2024-03-03T14:02:01Z","data":{"a":[1,{"b":"c"}]}}"#
        for end in whole.indices { _ = frame(String(whole[..<end])) }
        #expect(frame("\u{1B}[2J not json") == nil)
    }

    @Test("Each provider's decoder puts the envelope's time on what it passes on; a message without one has none")
    func decoders() throws {
        func time(_ inbound: Inbound) -> Date? { inbound.providerTime }
        let pulse = PulseScoreFeed(settings: ProviderSettings(key: "k", restURL: "", webSocketURL: "ws://127.0.0.1:1"), sport: "soccer")
        let broadcast = #"{"type":"data","timestamp":1709474521000,"events":[{"fi":"1","sport":"Soccer","league":"L","home":"A","away":"B","live":1}]}"#
        #expect(time(try pulse.receive(Array(broadcast.utf8), first: true)) == Self.ms)
        let unstamped = broadcast.replacingOccurrences(of: #""timestamp":1709474521000,"#, with: "")
        #expect(time(try pulse.receive(Array(unstamped.utf8), first: true)) == nil)

        let bolt = BoltOddsOddsFeed(settings: BoltOddsDecoderTests.settings, filters: BoltOddsFilters(), index: BoltOddsGameIndex())
        let message = #"{"timestamp":"2024-03-03T14:02:01.000000+00:00","action":"game_update","data":{"sport":"MLB","sportsbook":"draftkings","game":"A vs B, 2024-03-03, 01","home_team":"A","away_team":"B","info":{},"outcomes":{"A Moneyline":{"odds":"+150","outcome_name":"Moneyline","outcome_line":null,"outcome_over_under":null,"outcome_target":"A"}}}}"#
        #expect(time(try bolt.receive(Array(message.utf8), first: false)) == Self.ms)
        // The same message in a list (the generic decoder's path).
        #expect(time(try bolt.receive(Array("[\(message),\(message)]".utf8), first: false)) == Self.ms)

        // SportsAPIPro v2: milliseconds as documented, and an ISO 8601 text (a form the simulator never sends).
        let v2 = SportsAPIProFeed(settings: ProviderSettings(key: "k", restURL: "", webSocketURL: "ws://127.0.0.1:1/ws"), sport: nil,
                                  channels: [SportsAPIProChannel("live-scores")!])
        let events = #"{"events":[{"id":1,"homeTeam":{"name":"X"},"awayTeam":{"name":"Y"},"status":{"type":"inprogress"}}]}"#
        for stamp in ["1709474521000", #""2024-03-03T14:02:01Z""#] {
            let update = #"{"channel":"live-scores","type":"update","data":\#(events),"timestamp":\#(stamp)}"#
            let inbound = try v2.receive(Array(update.utf8), first: false)
            #expect(inbound.count == 1 && time(inbound) == Self.ms, "\(inbound)")
        }
        // SportsAPIPro v1: `ts`.
        let v1 = SportsAPIProDecoderTests.v1Feed(["football", "live"])
        let scores = try v1.receive(Array(Fixture.text("docs/sportsapi-v1-scores.json").utf8), first: false)
        #expect(scores.count == 2 && time(scores) == Date(timeIntervalSince1970: 1_712_345_678))
    }
}
