import Foundation
import OddsAlerts
import OddsBoltOdds
import OddsModel
import OddsSimulator
import OddsStore
import OddsTestSupport
import OddsTransport
import Testing

@Suite("Alerts over the simulator", .heavyLane)
struct AlertSimulatorTests {
    /// Every price a selection at a book was seen at, in order, from the messages as the store applied them.
    struct Seen: Hashable {
        var event: String
        var market: String
        var book: String
        var selection: String
        var line: String?
    }

    @Test("Over BoltOdds' real stream: each move alert's from and to were that price's, that far apart, within the window; each goal once")
    func boltOdds() async throws {
        try await withSimulator({ $0.enforceRateLimit = false }) { sim, transport in
            let client = BoltOddsSocketTests.client(sim, transport)
            let probe = FeedProbe(FeedRunner.run(client.feedConnections(filters: BoltOddsFilters(sports: ["EPL", "La Liga", "Bundesliga"])),
                                                 transport: transport, stats: FeedStats()))
            defer { probe.stop() }
            try await probe.wait("games with prices") { p in BoltOddsSocketTests.store(p).events.values.contains { !$0.event.markets.isEmpty } }
            // The world is seeded: these ticks bring the same goals every run.
            for _ in 0..<200 {
                await sim.tick()
                try await Task.sleep(nanoseconds: 10_000_000)
            }
            try await probe.wait("a goal from play-by-play", timeout: 20) { p in
                p.updates.contains { if case .incident(_, let i) = $0 { return i.kind == .goal } else { return false } }
                    || BoltOddsSocketTests.store(p).events.values.contains { $0.event.incidents.contains { $0.kind == .goal } }
            }
            let rules = try ["move any 4% in 60s", "goal", "steam 3 books 2% in 60s"].map { try AlertRule.parse($0) }
            var engine = AlertEngine(rules: rules)
            var store = LiveStore()
            var history: [Seen: [(at: Date, price: Price, suspended: Bool)]] = [:]
            var alerts: [Alert] = []
            for m in probe.messages {
                store.apply(m)
                alerts += engine.observe(m, in: store)
                for key in AlertEngine.events(m) {
                    guard let e = store.events[key]?.event else { continue }
                    for market in e.markets {
                        for s in market.selections {
                            guard let p = s.price else { continue }
                            let k = Seen(event: e.id, market: market.id, book: market.book ?? "", selection: s.name, line: s.line)
                            if let last = history[k]?.last, last.price == p, last.suspended == s.suspended { continue }
                            history[k, default: []].append((m.receivedAt, p, s.suspended))
                        }
                    }
                }
            }
            // The price each stood at, and since when: open prices only, a new point where the odds differ (a
            // suspension, or the same odds resent, does not restart the price). Read when a window began.
            func standing(_ seen: [(at: Date, price: Price, suspended: Bool)], at windowStart: Date) -> (at: Date, price: Price)? {
                var points: [(at: Date, price: Price)] = []
                for p in seen where !p.suspended && p.at <= windowStart && points.last?.price.decimalOdds != p.price.decimalOdds {
                    points.append((p.at, p.price))
                }
                return points.last
            }
            let moves = alerts.filter { $0.kind == "move" }
            #expect(!moves.isEmpty, "the simulator moved no price 4% within a minute")
            for a in moves {
                let k = Seen(event: a.eventID, market: try #require(a.marketID), book: a.book ?? "", selection: try #require(a.selection), line: a.line)
                let seen = try #require(history[k], "\(a)")
                let to = try #require(seen.last { $0.at == a.at && $0.price == a.price }, "\(a.match) \(a.selection ?? "") now \(a.price?.decimalText ?? "")")
                #expect(!to.suspended)
                let from = try #require(a.from), fromAt = try #require(a.fromAt)
                #expect(seen.contains { $0.at == fromAt && $0.price == from && !$0.suspended }, "\(a.match): from \(from.decimalText)")
                // From a price seen within the window, or the one that stood when the window began (seen before it).
                let windowStart = a.at.addingTimeInterval(-60)
                let standing = standing(seen, at: windowStart)
                #expect(fromAt >= windowStart || (standing?.at == fromAt && standing?.price == from),
                        "\(a.match): from \(from.decimalText) at \(fromAt), window from \(windowStart); seen \(seen.map { "\($0.at.timeIntervalSince(windowStart)) \($0.price.decimalText)\($0.suspended ? " S" : "")" })")
                let ratio = Double(to.price.decimalOdds.numerator * from.decimalOdds.denominator) / Double(to.price.decimalOdds.denominator * from.decimalOdds.numerator)
                #expect(abs(ratio - 1) >= 0.04 - 1e-12)
            }
            // Steam: the simulator moves books together; each book named moved that way, from and to as it was seen.
            let steam = alerts.filter { $0.kind == "steam" }
            #expect(!steam.isEmpty, "no steam in the simulator's books")
            for a in steam {
                #expect(a.books.count >= 3 && Set(a.books.map(\.book)).count == a.books.count)
                let down = a.books[0].to.decimalOdds < a.books[0].from.decimalOdds
                for b in a.books {
                    let k = Seen(event: a.eventID, market: try #require(a.marketID), book: b.book, selection: try #require(a.selection), line: a.line)
                    let seen = try #require(history[k], "\(a.match) \(b.book)")
                    #expect(seen.contains { $0.at == b.fromAt && $0.price == b.from } && seen.contains { $0.at == b.at && $0.price == b.to })
                    #expect((b.to.decimalOdds < b.from.decimalOdds) == down)
                    let windowStart = a.at.addingTimeInterval(-60), standing = standing(seen, at: windowStart)
                    #expect(b.fromAt >= windowStart || (standing?.at == b.fromAt && standing?.price == b.from), "\(a.match) \(b.book)")
                    #expect(AlertEngineProbe.moved(b.from, b.to, by: 0.02))
                }
            }
            // Each goal fires once: no incident identity twice in one match.
            let fired = alerts.filter { $0.kind == "goal" }.map { "\($0.eventID)/\($0.incident?.identity ?? "")" }
            #expect(!fired.isEmpty, "a goal came, and no alert")
            #expect(Set(fired).count == fired.count)
            #expect(fired.allSatisfy { !$0.hasSuffix("/") })
        }
    }

    @Test("A book that lags into an arbitrage in the simulator fires arb: its legs make one, each a price its book was seen at")
    func arbitrage() async throws {
        try await withSimulator({ $0.enforceRateLimit = false; $0.bookLagChance = 0.5 }) { sim, transport in
            let client = BoltOddsSocketTests.client(sim, transport)
            let probe = FeedProbe(FeedRunner.run(client.feedConnections(filters: BoltOddsFilters(sports: ["EPL", "La Liga", "Bundesliga"])),
                                                 transport: transport, stats: FeedStats()))
            defer { probe.stop() }
            try await probe.wait("games with prices") { p in BoltOddsSocketTests.store(p).events.values.contains { !$0.event.markets.isEmpty } }
            for _ in 0..<40 {
                await sim.tick()
                try await Task.sleep(nanoseconds: 10_000_000)
            }
            try await Task.sleep(nanoseconds: 500_000_000)
            var engine = AlertEngine(rules: [try AlertRule.parse("arb >= 0.1%")])
            var store = LiveStore()
            var alerts: [Alert] = []
            // Each book's available prices in each match, as seen (a leg names the market as value analysis groups it).
            var seen: [String: Set<String>] = [:]
            for m in probe.messages {
                store.apply(m)
                for key in AlertEngine.events(m) {
                    guard let e = store.events[key]?.event else { continue }
                    for market in e.markets {
                        for s in market.selections where s.isAvailable {
                            seen["\(e.id)/\(market.book ?? "")", default: []].insert(s.price!.decimalText)
                        }
                    }
                }
                alerts += engine.observe(m, in: store)
            }
            #expect(!alerts.isEmpty, "no book lagged into an arbitrage")
            for a in alerts {
                let legs = a.legs
                #expect(legs.count >= 2 && Set(legs.map(\.selection)).count == legs.count)
                // 1/Σ(1/price) > 1: an arbitrage, and each leg a price its book was seen at.
                let sum = legs.reduce(0.0) { $0 + Double($1.price.decimalOdds.denominator) / Double($1.price.decimalOdds.numerator) }
                #expect(sum < 1, "\(legs.map { "\($0.selection) \($0.price.decimalText)" })")
                for leg in legs {
                    #expect(seen["\(a.eventID)/\(leg.book)"]?.contains(leg.price.decimalText) == true, "\(a.match) \(leg.book) \(leg.selection) \(leg.price.decimalText)")
                }
            }
        }
    }
}

/// The size of a move, as the tests measure it.
enum AlertEngineProbe {
    static func moved(_ from: Price, _ to: Price, by fraction: Double) -> Bool {
        let ratio = Double(to.decimalOdds.numerator * from.decimalOdds.denominator) / Double(to.decimalOdds.denominator * from.decimalOdds.numerator)
        return abs(ratio - 1) >= fraction - 1e-12
    }
}
