import Foundation
import OddsJSON
@testable import OddsSimulator
import OddsTestSupport
import Testing

/// The BoltOdds simulator's wire formats, checked without sockets: what it writes is valid JSON in the
/// docs' shapes (docs: /work/shared/providers/boltodds.txt).
@Suite struct BoltOddsSimulatorTests {
    static func games(_ world: SimWorld) -> [SimMatch] { world.live.filter { $0.away != nil && $0.phase != .ended } }

    @Test func labelsAndIdsAreInTheDocsShape() {
        let world = SimWorld(seed: 42)
        var labels = Set<String>()
        // The docs' `when` is US Eastern wall-clock time; a game under way started before now.
        var eastern = Calendar(identifier: .gregorian)
        eastern.timeZone = TimeZone(identifier: "America/New_York")!
        for m in Self.games(world) {
            let label = BoltOdds.label(m) ?? ""
            let start = BoltOdds.start(m)
            #expect(start <= Date())
            let day = eastern.dateComponents([.year, .month, .day], from: start)
            // Named as BoltOdds' US books name teams ("Bayern Munich" for the world's "Bayern München").
            #expect(label.hasPrefix("\(BoltOdds.team(m.home)) vs \(BoltOdds.team(m.away ?? "")), " + String(format: "%04d-%02d-%02d, ", day.year!, day.month!, day.day!)))
            let when = BoltOdds.when(m)
            #expect(when.count == 20 && when.hasSuffix("M") && label.hasSuffix(String(when.dropFirst(12).prefix(2))))
            #expect(label.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces).count } == 2)
            #expect(labels.insert(label).inserted)
            let id = BoltOdds.universalID(m.serial)
            #expect(id.count == 12 && id.allSatisfy(\.isHexDigit))
        }
        #expect(!labels.isEmpty)
        // Fixtures start later than now.
        let fixtures = world.prematch.flatMap(\.fixtures).filter { $0.away != nil }
        #expect(!fixtures.isEmpty && fixtures.allSatisfy { BoltOdds.start($0) > Date() })
    }

    @Test func americanOdds() {
        #expect(BoltOdds.american(1.909) == "-110")
        #expect(BoltOdds.american(2.5) == "+150")
        #expect(BoltOdds.american(1.01) == "-10000")
        #expect(BoltOdds.american(2.0) == "+100")
    }

    @Test func timestampHasMicrosecondsAndOffset() {
        let t = BoltOdds.timestamp(Date(timeIntervalSince1970: 1_753_299_903.048958))
        #expect(t.hasPrefix("2025-07-23T19:45:03.04895"))
        #expect(t.hasSuffix("+00:00"))
        #expect(t.count == "2025-07-23T19:45:03.048958+00:00".count)
    }

    @Test func everyBookPricesEveryGameInAmericanOdds() throws {
        let world = SimWorld(seed: 42)
        for m in Self.games(world) {
            for b in BoltOdds.books.indices {
                let outcomes = BoltOdds.outcomes(m, book: b)
                #expect(!outcomes.isEmpty)
                #expect(Set(outcomes.map(\.key)).count == outcomes.count)
                for o in outcomes {
                    if case .price(let text) = o.odds {
                        #expect(text.first == "+" || text.first == "-")
                        #expect(Int(text.dropFirst()) != nil)
                    }
                    #expect(BoltOdds.markets(worldSport: m.sport, book: b).contains(o.name))
                }
                if m.sport == "soccer" {
                    let lines = Set(outcomes.filter { $0.name == "Total Goals" }.compactMap(\.line))
                    #expect(lines.count >= 2)
                }
                let ref = try #require(BoltOdds.ref(m))
                let text = BoltOdds.message("initial_state", BoltOdds.data(ref, book: b, outcomes: outcomes)).rendered
                let value = try JSONParser.parse(text)
                #expect(value["action"]?.string == "initial_state")
                #expect(value["data"]?["sportsbook"]?.string == BoltOdds.books[b])
                #expect(value["data"]?["info"]?["game"]?.string == ref.label)
            }
        }
    }

    @Test func clearMessagesMatchTheDocs() throws {
        let sport = try JSONParser.parse(BoltOdds.clear(sport: "NBA", book: "ballybet").rendered)
        #expect(sport["action"]?.string == "sport_clear")
        #expect(sport["data"]?["sport"]?.string == "NBA")
        #expect(sport["data"]?["game"]?.object?.isEmpty == true)
        let book = try JSONParser.parse(BoltOdds.clear(sport: nil, book: "ballybet").rendered)
        #expect(book["action"]?.string == "book_clear")
        #expect(book["data"]?["sport"]?.object?.isEmpty == true)
        _ = try JSONParser.parse(BoltOdds.resubscribeLimitText)
        _ = try JSONParser.parse(BoltOdds.subscriptionUpdatedText)
    }

    @Test func filtersMatchExactly() throws {
        let filters = BoltOddsFilters(try JSONParser.parse(#"{"sports":["NBA"],"sportsbooks":["draftkings","DraftKings"]}"#))
        #expect(filters.wants(book: "draftkings"))
        #expect(!filters.wants(book: "fanduel"))
        #expect(filters.wants(market: "Moneyline"))
        let ref = BoltGameRef(serial: 1, label: "A vs B, 2026-11-23, 02", sport: "EPL", home: "A", away: "B", when: "")
        #expect(!filters.wants(ref))
        #expect(BoltOddsFilters(nil).wants(ref))
    }

    @Test func playByPlayLiveScoresAndScoresAreValidJSON() async throws {
        var options = Simulator.Options()
        options.tickInterval = 0
        let sim = Simulator(options: options)
        sim.boltOdds.active = true
        for _ in 0..<60 { sim.boltOddsRecord(sim.world.tick()) }
        var streams = Set<Int>()
        for m in Self.games(sim.world) {
            let log = sim.boltOddsLog(m)
            let stream = BoltOddsPlays.stream(m)
            streams.insert(stream)
            for text in BoltOddsPlays.opening(m, log) {
                let value = try JSONParser.parse(text)
                #expect(value["stream"]?.int == stream)
                #expect(value["universal_id"]?.string == BoltOdds.universalID(m.serial))
            }
            let update = try JSONParser.parse(BoltOddsPlays.matchUpdate(m, log))
            #expect(update["action"]?.string == "match_update")
            #expect(update["designation"]?["A"]?.string != nil)
            _ = try JSONParser.parse(BoltOddsPlays.boxScore(m, log).rendered)
            _ = try JSONParser.parse(BoltOddsPlays.matchStats(m, log).rendered)
            _ = try JSONParser.parse(BoltOddsPlays.matchInfo(m, log).rendered)
        }
        #expect(streams.isSuperset(of: [1, 2, 3, 4]))
        await sim.stop()
    }
}
