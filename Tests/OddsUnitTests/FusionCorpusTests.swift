import Foundation
import OddsFusion
import OddsModel
import OddsStore
import OddsTestSupport
import Testing

/// Fusion on real names: Fixtures/names/club-names.tsv pairs spellings of one club as public sources write
/// them (`same`) and of two clubs that share words (`trap`), each cited in the file.
@Suite("Matching on real club names", .unitLane)
struct FusionCorpusTests {
    struct Pair { var kind: String; var sport: String; var a: String; var b: String }

    static let pairs: [Pair] = {
        guard let text = try? Fixture.text("names/club-names.tsv") else { return [] }
        return text.split(separator: "\n").compactMap { line -> Pair? in
            guard !line.hasPrefix("#"), !line.hasPrefix("kind\t") else { return nil }
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 7 else { return nil }
            return Pair(kind: f[0], sport: f[1], a: f[3], b: f[5])
        }
    }()

    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    /// The pair half the corpus away: another club (a club's pairs are next to each other in the file).
    static func opponent(_ i: Int, in pairs: [Pair]) -> Pair { pairs[(i + pairs.count / 2) % pairs.count] }

    /// Every `same` pair as one live match at two providers: the club against a club half the corpus away,
    /// kick-offs two minutes apart, one score; a club's matches an hour apart (it plays one at a time). The
    /// opponent is spelled alike on both sides (`bothSpelled` false: the figure is the club's name alone) or
    /// in its pair's two spellings too.
    static func sameMatches(_ same: [Pair], bothSpelled: Bool) -> [Event] {
        var events: [Event] = []
        for (i, p) in same.enumerated() {
            let o = opponent(i, in: same)
            let start = t0.addingTimeInterval(Double(i) * 3600)
            var x = Event(provider: .boltodds, id: "x\(i)", sport: p.sport, league: nil, home: p.a, away: o.a, status: .live, startTime: start)
            var y = Event(provider: .sportsapi, id: "y\(i)", sport: p.sport, league: nil, home: p.b, away: bothSpelled ? o.b : o.a, status: .live,
                          startTime: start.addingTimeInterval(120))
            x.score = Score(home: i % 3, away: 1)
            y.score = x.score
            events += [x, y]
        }
        return events
    }

    /// How many of `same`'s matches joined, how many rows mixed two matches, and the first misses.
    static func recall(_ same: [Pair], bothSpelled: Bool) -> (joined: Int, wrong: Int, missed: [String]) {
        var fusion = MatchFusion()
        fusion.update(sameMatches(same, bothSpelled: bothSpelled))
        let wrong = fusion.matches.filter { Set($0.sources.map { $0.key.id.dropFirst() }).count > 1 }.count
        var joined = 0
        var missed: [String] = []
        for i in same.indices {
            let x = EventKey(provider: .boltodds, id: "x\(i)"), y = EventKey(provider: .sportsapi, id: "y\(i)")
            if fusion.matchID(of: x) == fusion.matchID(of: y) { joined += 1; continue }
            let why = fusion.nearMisses[y]?.evidence.reason ?? fusion.nearMisses[x]?.evidence.reason ?? "no candidate"
            missed.append("\(same[i].a) / \(same[i].b): \(why)")
        }
        return (joined, wrong, missed)
    }

    @Test("The corpus is there: at least 300 pairs of one club, 60 traps, every row read")
    func corpus() {
        #expect(Self.pairs.filter { $0.kind == "same" }.count >= 300)
        #expect(Self.pairs.filter { $0.kind == "trap" }.count >= 60)
    }

    @Test("Recall on real pairs: each club's two spellings, in one match at two providers, are one row; no wrong joins")
    func recall() throws {
        let same = Self.pairs.filter { $0.kind == "same" }
        let alone = Self.recall(same, bothSpelled: false), both = Self.recall(same, bothSpelled: true)
        func rate(_ n: Int) -> String { String(format: "%.1f %%", 100 * Double(n) / Double(same.count)) }
        print("corpus recall, the club's name alone: \(alone.joined) of \(same.count) (\(rate(alone.joined))), \(alone.wrong) wrong joins")
        print("corpus recall, both names from the corpus: \(both.joined) of \(same.count) (\(rate(both.joined))), \(both.wrong) wrong joins")
        #expect(alone.wrong == 0 && both.wrong == 0)
        #expect(Double(alone.joined) >= 0.9 * Double(same.count), "\(alone.missed.prefix(40))")
        #expect(Double(both.joined) >= 0.8 * Double(same.count))
    }

    @Test("Traps on real names: two clubs that share words, live at the same time, stay two rows; so does a club's match today and tomorrow")
    func traps() throws {
        let traps = Self.pairs.filter { $0.kind == "trap" }
        let same = Self.pairs.filter { $0.kind == "same" }
        var events: [Event] = []
        for (i, p) in traps.enumerated() {
            // Each against its own opponent, at the same time, with the same score: names are all there is to go on.
            let o1 = same[(7 * i) % same.count].a, o2 = Self.opponent(7 * i, in: same).b
            var x = Event(provider: .boltodds, id: "x\(i)", sport: p.sport, home: p.a, away: o1, status: .live, startTime: Self.t0)
            var y = Event(provider: .sportsapi, id: "y\(i)", sport: p.sport, home: p.b, away: o2, status: .live, startTime: Self.t0)
            x.score = Score(home: 0, away: 0)
            y.score = x.score
            events += [x, y]
        }
        // One club's match today (live) and its return tomorrow (scheduled), spelled by two providers.
        for (i, p) in same.prefix(100).enumerated() {
            let o = Self.opponent(i, in: same)
            events.append(Event(provider: .tickodds, id: "t\(i)", sport: p.sport, home: p.a, away: o.a, status: .live, startTime: nil))
            events.append(Event(provider: .pulsescore, id: "p\(i)", sport: p.sport, home: p.b, away: o.b, status: .scheduled,
                                startTime: Self.t0.addingTimeInterval(86_400)))
        }
        var fusion = MatchFusion()
        fusion.update(events)
        let wrong = fusion.matches.filter { $0.sources.count > 1 }
        print("corpus traps: \(traps.count) pairs of clubs and 100 matches today and tomorrow, \(wrong.count) wrong joins")
        let byKey = Dictionary(events.map { (EventKey(provider: $0.provider, id: $0.id), $0) }, uniquingKeysWith: { a, _ in a })
        #expect(wrong.isEmpty, "\(wrong.prefix(10).map { $0.sources.map { byKey[$0.key].map { "\($0.home) v \($0.away ?? "")" } ?? "" } })")
        // And by name alone: a trap pair is never the same name, only ever a part (which needs the opponent and kick-off).
        let n = MatchNames()
        let sure = traps.filter { n.similarity($0.a, $0.b) >= .abbreviated }
        print("corpus traps by name alone: \(sure.count) of \(traps.count) read as one name: \(sure.map { "\($0.a) / \($0.b)" })")
        // Clubs of two countries told apart only by their form words ("Fortaleza EC", "Fortaleza FC") are one name:
        // the opponent, kick-off and score keep them apart (above).
        #expect(sure.allSatisfy { MatchNames.reduced($0.a) == MatchNames.reduced($0.b) }, "\(sure.map { "\($0.a) / \($0.b)" })")
    }
}
