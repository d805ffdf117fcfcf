import Foundation
@testable import OddsCLI
@testable import OddsHistory
import OddsModel
import OddsOutput
import OddsTestSupport
import Testing

@Suite("history matches on a terminal", .unitLane)
struct HistoryMatchesTableTests {
    static func source(_ provider: ProviderID, _ id: String, _ home: String, _ away: String, start: Date?, first: Date, last: Date) -> StoredSource {
        StoredSource(rowID: 1, key: SourceKey(provider: provider, eventID: id), sport: "soccer", league: "La Liga 2", home: home, away: away,
                     startTime: start, firstSeen: first, lastSeen: last, priceChanges: 814, matchKey: "mb8ece33", demo: false, status: "live")
    }

    @Test("A BoltOdds label as its short id, the teams in one column, today's times to the second and older ones with their day; fits the terminal")
    func table() throws {
        let now = try #require(ISODate.parse("2026-11-28T08:05:00Z"))
        let label = "RC Celta de Vigo vs Real Valladolid, 2026-11-28, 01"
        let sources = [
            Self.source(.boltodds, label, "RC Celta de Vigo", "Real Valladolid", start: ISODate.parse("2026-11-28T06:39:00Z"),
                        first: try #require(ISODate.parse("2026-11-28T07:59:51.927Z")), last: try #require(ISODate.parse("2026-11-28T08:01:48.5Z"))),
            Self.source(.pulsescore, "98734572", "Celta Vigo", "Valladolid", start: nil,
                        first: try #require(ISODate.parse("2026-11-27T21:10:05Z")), last: try #require(ISODate.parse("2026-11-28T00:00:01Z"))),
        ]
        let text = HistoryViews.matchesTable(sources, RenderOptions(width: 140), now: now)
        let lines = text.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 140 }, "\(text)")
        #expect(!text.contains(label))
        let bolt = try #require(lines.first { $0.hasPrefix(Event.shortID(for: label)) })
        #expect(bolt.contains("RC Celta de Vigo v Real Valladolid") && bolt.contains("06:39") && bolt.contains("07:59:51") && bolt.contains("08:01:48"))
        #expect(!bolt.contains("2026"))
        let pulse = try #require(lines.first { $0.hasPrefix("98734572") })
        #expect(pulse.contains("11-27 21:10") && !pulse.contains("2026") && pulse.contains("00:00:01"), "\(pulse)")
        #expect(text.contains("UTC"))
        // Narrower: the teams give way, no line wraps.
        let narrow = HistoryViews.matchesTable(sources, RenderOptions(width: 110), now: now)
        #expect(narrow.split(separator: "\n").allSatisfy { $0.count <= 110 }, "\(narrow)")
        #expect(HistoryViews.clock(try #require(ISODate.parse("2025-12-31T23:59:59Z")), now: now) == "2025-12-31")
        // Nothing kept, or nothing left of what was asked: says which.
        #expect(HistoryViews.matchesTable([], RenderOptions(), now: now) == "The history keeps no match.\n")
        #expect(HistoryViews.matchesTable([], RenderOptions(), now: now, asked: "since 08:00:00 UTC with a team named 'Arsenal'")
                == "The history keeps no match since 08:00:00 UTC with a team named 'Arsenal'.\n")
    }
}

@Suite("history stats on a terminal", .unitLane)
struct HistoryStatsTableTests {
    @Test("Counts with thousands marked, the size in MB, bytes a change, the kept span and the pruning in words")
    func table() throws {
        let now = try #require(ISODate.parse("2026-11-28T09:05:00Z"))
        let stats = HistoryStats(schemaVersion: 5, sources: 1063, selections: 24438, priceChanges: 1_356_432, scoreChanges: 6515, incidents: 4634,
                                 bytes: 109_969_512, oldest: ISODate.parse("2026-11-27T07:59:51.875Z"), newest: ISODate.parse("2026-11-28T09:00:43.852Z"),
                                 lastPrune: PruneRecord(at: try #require(ISODate.parse("2026-11-28T08:59:52Z")),
                                                        cutoff: try #require(ISODate.parse("2026-08-30T08:59:52Z")), changes: 12_000))
        let text = HistoryViews.statsTable(stats, location: .sqlite(path: "h.sqlite"), days: 90, RenderOptions(width: 100), now: now)
        for expected in ["h.sqlite (schema version 5)", "1,063", "24,438", "1,356,432 (81 bytes each on disk)", "110.0 MB",
                         "11-27 07:59 to 09:00:43 UTC", "90 days; last pruned 08:59:52: 12,000 change(s) before 08-30 08:59 dropped"] {
            #expect(text.contains(expected), "\(expected) in \(text)")
        }
        #expect(!text.contains("WHAT"))
        #expect(HistoryViews.size(812) == "812 bytes" && HistoryViews.size(6_091_432) == "6.1 MB" && HistoryViews.size(2_500_000_000) == "2.5 GB")
        #expect(HistoryViews.count(0) == "0" && HistoryViews.count(999) == "999" && HistoryViews.count(1000) == "1,000")
        let empty = HistoryStats(schemaVersion: 5, sources: 0, selections: 0, priceChanges: 0, scoreChanges: 0, incidents: 0, bytes: 4096,
                                 oldest: nil, newest: nil, lastPrune: nil)
        let none = HistoryViews.statsTable(empty, location: .sqlite(path: "h.sqlite"), days: 90, RenderOptions(), now: now)
        #expect(none.contains("nothing yet") && none.contains("not pruned yet") && none.contains("4.1 kB"), "\(none)")
    }

    @Test("Rows merged as prices are read come in timelineOrder's order, equal times included, on random timelines")
    func mergeAsRead() {
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let key = SourceKey(provider: .tickodds, eventID: "1")
        var rng = SystemRandomNumberGenerator()
        func label(_ row: HistoryViews.Row) -> String {
            switch row {
            case .price(let p): return p.selection.selectionID
            case .score(let s): return s.state.status
            case .incident(let x): return x.incident.detail ?? ""
            }
        }
        for round in 0..<300 {
            var t = Timeline()
            // Few distinct times, so that many rows share one; prices in time order, as a backend reads them.
            let times = (0..<Int.random(in: 0...12, using: &rng)).map { _ in t0.addingTimeInterval(Double(Int.random(in: 0...4, using: &rng))) }
            t.prices = times.sorted().enumerated().map { i, at in
                StoredPrice(at: at, providerAt: nil, source: key, book: "b", marketID: "m", marketName: "M", line: "",
                            selectionID: "p\(i)", selectionName: "P", text: "2.00", odds: Rational(2, 1), suspended: false)
            }
            t.scores = (0..<Int.random(in: 0...5, using: &rng)).map { j in
                StoredScore(at: t0.addingTimeInterval(Double(Int.random(in: 0...4, using: &rng))), source: key,
                            state: ScoreState(home: 0, away: 0, scoreText: nil, status: "s\(j)", period: nil, clock: nil))
            }
            t.incidents = (0..<Int.random(in: 0...5, using: &rng)).map { k in
                StoredIncident(at: t0.addingTimeInterval(Double(Int.random(in: 0...4, using: &rng))), source: key,
                               incident: Incident(kind: .goal, minute: 1, team: .home, detail: "i\(k)"))
            }
            var merged: [String] = []
            var head = t
            head.prices = []
            var merge = HistoryViews.TimelineMerge(head)
            for p in t.prices { merge.add(p) { merged.append(label($0)) } }
            merge.finish { merged.append(label($0)) }
            let sorted = HistoryViews.timelineOrder(t).map(label)
            #expect(merged == sorted, "round \(round)")
            if merged != sorted { break }
        }
    }
}
