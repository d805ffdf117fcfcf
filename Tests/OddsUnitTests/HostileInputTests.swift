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
