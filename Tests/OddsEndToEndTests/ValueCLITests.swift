import Foundation
import OddsTestSupport
import Testing

/// `odds value` and `odds arb` (issue 21) from the binary, against the demo simulator over loopback. The checks
/// recompute what the tool says from the prices it prints, in the test's own arithmetic.
@Suite("Value and arbitrage, from the binary", .timeLimit(.minutes(3)))
struct ValueCLITests {
    static func objects(_ stdout: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [[String: Any]])
    }

    static func decimal(_ price: Any?) -> Double? {
        ((price as? [String: Any])?["decimal"] as? String).flatMap(Double.init)
    }

    /// Exact decimal odds from the American text (the simulated BoltOdds books quote American).
    static func exact(_ price: Any?) -> Double? {
        guard let text = (price as? [String: Any])?["american"] as? String, let v = Double(text) else { return nil }
        return v >= 0 ? 1 + v / 100 : 1 + 100 / -v
    }

    static func number(_ v: Any?) -> Double? { (v as? NSNumber)?.doubleValue }

    @Test("odds arb: each arbitrage's best prices sum under 1, stakes add up to the stake and return at least it")
    func arb() async throws {
        let env = CLI.environment(["ODDS_DEMO_BOOK_LAG": "0.3"])
        let r = try await CLI.run(["arb", "--provider", "boltodds", "--demo", "--json", "--stake", "250", "--round", "1"], env: env)
        #expect(r.status == 0, "\(r.stderr)")
        let arbs = try Self.objects(r.stdout)
        #expect(!arbs.isEmpty, "a lagging book every few minutes of play makes some arbitrage")
        for a in arbs {
            let legs = try #require(a["legs"] as? [[String: Any]])
            #expect(legs.count >= 2)
            let sum = legs.compactMap { Self.exact($0["price"]) }.reduce(0) { $0 + 1 / $1 }
            #expect(sum < 1)
            let profit = try #require(Self.number(a["profit"]))
            #expect(abs(profit - (1 / sum - 1)) < 1e-5, "\(profit) vs \(1 / sum - 1)")
            let stakes = legs.compactMap { Self.number($0["stake"]) }
            #expect(stakes.allSatisfy { $0 == $0.rounded() }, "rounded to whole units: \(stakes)")
            #expect(abs(stakes.reduce(0, +) - (Self.number(a["staked"]) ?? 0)) < 1e-9)
            let returns = zip(stakes, legs).map { $0 * (Self.exact($1["price"]) ?? 0) }
            #expect(abs(returns.min()! - (Self.number(a["guaranteedReturn"]) ?? 0)) < 0.006)
            #expect(Set(legs.compactMap { $0["selection"] as? String }).count == legs.count)
            #expect(a["oldestAge"] is NSNumber && a["demo"] as? Bool == true)
            #expect(a["market"] as? String == "result")
        }
        // The table says the same, with the demo banner.
        let table = try await CLI.run(["arb", "--provider", "boltodds", "--demo", "--format", "table"], env: env)
        #expect(table.stdout.contains("DEMO DATA") && table.stdout.contains("PROFIT") && table.stdout.contains("%"))
        // For a script, the profit before and after rounding in words.
        let tsv = try await CLI.run(["arb", "--provider", "boltodds", "--demo"], env: env)
        #expect(tsv.stdout.contains("rounded)"), "\(tsv.stdout.prefix(300))")
    }

    @Test("Without a lagging book there is no arbitrage, and the answer says so")
    func noArb() async throws {
        let env = CLI.environment(["ODDS_DEMO_BOOK_LAG": "0"])
        let json = try await CLI.run(["arb", "--provider", "boltodds", "--demo", "--json"], env: env)
        let none = try Self.objects(json.stdout)
        #expect(json.status == 0 && none.isEmpty, "\(json.stdout.prefix(300))")
        let table = try await CLI.run(["arb", "--provider", "boltodds", "--demo", "--format", "table"], env: env)
        #expect(table.stdout.contains("No arbitrage"))
    }

    @Test("odds value: each listed price's EV is price × fair probability − 1, at least --min-ev, best first")
    func value() async throws {
        // Every price (an EV of at least −100 %), by Shin's method.
        let r = try await CLI.run(["value", "--provider", "boltodds", "--demo", "--json", "--min-ev=-100%", "--devig", "shin"])
        #expect(r.status == 0, "\(r.stderr)")
        let bets = try Self.objects(r.stdout)
        #expect(bets.count > 100)
        var previous = Double.infinity
        for b in bets {
            let ev = try #require(Self.number(b["ev"]))
            let fair = try #require(b["fair"] as? [String: Any])
            let p = try #require(Self.number(fair["probability"]))
            let price = try #require(Self.exact(b["price"]))
            #expect(ev >= -1 && ev <= previous)
            // Both printed to 6 places: the probability's rounding is multiplied by the price.
            #expect(abs(ev - (price * p - 1)) <= price * 5.01e-7 + 5.01e-7, "\(ev) vs \(price * p - 1)")
            #expect(fair["method"] as? String == "shin" && fair["reference"] as? String == "consensus")
            previous = ev
        }
        // The default lists value only: EV of at least 0.
        let positive = try Self.objects(try await CLI.run(["value", "--provider", "boltodds", "--demo", "--json"]).stdout)
        #expect(!positive.isEmpty && positive.count < bets.count)
        #expect(positive.allSatisfy { (Self.number($0["ev"]) ?? -1) >= 0 })
        // A named reference: pinnacle's own prices are never value against themselves.
        let pinnacle = try await CLI.run(["value", "--provider", "boltodds", "--demo", "--json", "--fair", "pinnacle"])
        let byPinnacle = try Self.objects(pinnacle.stdout)
        #expect(byPinnacle.allSatisfy { $0["book"] as? String != "pinnacle" })
    }

    @Test("odds stream: book lines give each book's margin, price lines the price's margin, fair price and EV, all recomputable")
    func stream() async throws {
        // The world moves (a tick every 50 ms), so that prices change.
        let moving = CLI.environment(["ODDS_DEMO_TICK": "0.05"])
        let r = try await CLI.run(["stream", "--provider", "boltodds", "--demo", "--limit", "400"], env: moving)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        var margins = 0, evs = 0
        for line in lines where line["type"] as? String == "book" {
            let event = try #require(line["event"] as? [String: Any])
            for market in event["markets"] as? [[String: Any]] ?? [] {
                guard let margin = Self.number(market["margin"]) else { continue }
                let selections = try #require(market["selections"] as? [[String: Any]])
                let sum = selections.compactMap { Self.exact($0["price"]) }.reduce(0) { $0 + 1 / $1 }
                #expect(abs(margin - (sum - 1)) < 1e-5, "\(margin) vs \(sum - 1) in \(market["name"] ?? "")")
                margins += 1
            }
        }
        for line in lines where line["type"] as? String == "price" {
            guard let ev = Self.number(line["ev"]) else { continue }
            let selection = try #require(line["selection"] as? [String: Any])
            let price = try #require(Self.exact(selection["price"]))
            let fair = try #require(line["fair"] as? [String: Any])
            let p = try #require(Self.number(fair["probability"]))
            #expect(abs(ev - (price * p - 1)) <= price * 5.01e-7 + 5.01e-7, "\(ev) vs \(price * p - 1)")
            #expect(fair["reference"] as? String == "consensus" && line["margin"] is NSNumber)
            evs += 1
        }
        #expect(margins > 20 && evs > 20, "\(margins) margins, \(evs) EVs")
        // A feed of whole events (TickOdds, one book): each upsert's markets carry their margins too.
        let tick = try await CLI.run(["stream", "--provider", "tickodds", "--demo", "--limit", "5"], env: moving)
        #expect(tick.stdout.contains("\"margin\":") && tick.stdout.contains("\"ev\":"))
    }

    @Test("odds value --provider all: fused matches, each price naming its book's provider")
    func fused() async throws {
        let r = try await CLI.run(["value", "--provider", "all", "--demo", "--json", "--min-ev=-100%"])
        #expect(r.status == 0, "\(r.stderr)")
        let bets = try Self.objects(r.stdout)
        #expect(bets.allSatisfy { ($0["matchId"] as? String)?.hasPrefix("m") == true })
        #expect(Set(bets.compactMap { $0["bookProvider"] as? String }).count >= 2, "\(Set(bets.compactMap { $0["bookProvider"] as? String }))")
    }

    @Test("odds arb --watch: an arbitrage opens and then closes, with how long it lasted")
    func watch() async throws {
        let env = CLI.environment(["ODDS_DEMO_TICK": "0.05", "ODDS_DEMO_BOOK_LAG": "0.3"])
        // A debug build works out every book's markets at each of the fast demo's messages: a minute of CPU or more
        // beside the rest of the suite. The limit is what ends it.
        let r = try await CLI.run(["arb", "--provider", "boltodds", "--demo", "--watch", "--limit", "40"], env: env, timeout: 240)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.count == 40)
        let opened = Set(lines.filter { $0["type"] as? String == "open" }.compactMap { $0["key"] as? String })
        let closes = lines.filter { $0["type"] as? String == "close" }
        #expect(closes.contains { opened.contains($0["key"] as? String ?? "") }, "\(lines.map { $0["type"] ?? "" })")
        for c in closes { #expect(Self.number(c["lasted"]) != nil && c["openedAt"] is String) }
        #expect(lines.allSatisfy { $0["kind"] as? String == "arb" && $0["demo"] as? Bool == true })
    }

    @Test("Bad thresholds and settings: one sentence and the usage exit code")
    func badInput() async throws {
        for args in [["value", "--min-ev", "lots"], ["arb", "--stake", "-5"], ["arb", "--round", "0"], ["value", "--devig", "magic"],
                     ["value", "--max-age", "soon"], ["arb", "--limit", "3"], ["value", "--fair", " "]] {
            let r = try await CLI.run(args + ["--demo"])
            #expect(r.status == 64, "\(args): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("Error:") && !r.stderr.contains("Fatal"), "\(args): \(r.stderr)")
        }
    }
}
