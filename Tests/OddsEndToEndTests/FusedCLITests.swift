import Foundation
import OddsTestSupport
import Testing

/// `--provider all` and lists (issue 20): one row per real match across providers, from the binary.
@Suite("Every provider at once, from the binary", .timeLimit(.minutes(3)))
struct FusedCLITests {
    static func objects(_ stdout: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [[String: Any]])
    }

    @Test("odds live --provider all --demo: one row per match, each with its sources, match id and every provider's prices")
    func all() async throws {
        let r = try await CLI.run(["live", "--provider", "all", "--demo", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let events = try Self.objects(r.stdout)
        #expect(!events.isEmpty)
        for e in events {
            let sources = try #require(e["sources"] as? [[String: Any]])
            let match = try #require(e["match"] as? [String: Any])
            #expect((match["id"] as? String)?.hasPrefix("m") == true && e["id"] as? String == match["id"] as? String)
            // Never two events of one provider in a row.
            let providers = sources.compactMap { $0["provider"] as? String }
            #expect(Set(providers).count == providers.count)
            #expect(e["demo"] as? Bool == true)
        }
        // The simulator's world is one: its matches are joined across the five.
        #expect(events.contains { ($0["sources"] as? [[String: Any]])?.count ?? 0 >= 3 })
        let markets = events.flatMap { ($0["markets"] as? [[String: Any]]) ?? [] }
        #expect(Set(markets.compactMap { $0["provider"] as? String }).count >= 3)
        // Each selection's best price across sources is marked, and nothing below it. Displayed prices are
        // rounded (BoltOdds' are American), so ties of the display need not all be marked; the unit tests
        // check exact ties. A fused market lists its selections in the meaning's order (home, draw, away).
        var compared = 0
        for e in events {
            var groups: [String: [(best: Bool, price: Decimal, provider: String)]] = [:]
            for m in (e["markets"] as? [[String: Any]]) ?? [] {
                let selections = (m["selections"] as? [[String: Any]]) ?? []
                for (i, s) in selections.enumerated() {
                    guard let price = s["price"] as? [String: Any], let best = price["best"] as? Bool else { continue }
                    let decimal = try #require(Decimal(string: price["decimal"] as? String ?? "", locale: Locale(identifier: "en_US_POSIX")))
                    if s["suspended"] as? Bool == true { #expect(!best); continue }
                    let key = "\(m["name"] ?? "")|\(s["line"] ?? "")|\(selections.count)|\(i)"
                    groups[key, default: []].append((best, decimal, m["provider"] as? String ?? ""))
                }
            }
            for (key, quotes) in groups {
                let top = quotes.map(\.price).max()!
                #expect(quotes.contains { $0.best } && quotes.allSatisfy { !$0.best || $0.price == top }, "\(key): \(quotes)")
                if Set(quotes.map(\.provider)).count >= 2 { compared += 1 }
            }
        }
        #expect(compared > 20, "\(compared) selections priced by several sources")
        let table = try await CLI.run(["live", "--provider", "all", "--demo", "--format", "tsv"])
        #expect(table.stdout.split(separator: "\n").first?.contains("\tSRC\t") == true, "\(table.stdout.prefix(200))")
    }

    @Test("The demo's partial coverage and traps: Serie A and MLS only where carried; Inter is Internazionale, never Inter Miami; Milan is AC Milan")
    func coverageAndTraps() async throws {
        let r = try await CLI.run(["live", "--provider", "all", "--demo", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let events = try Self.objects(r.stdout)
        func sources(_ e: [String: Any]) -> [[String: Any]] { (e["sources"] as? [[String: Any]]) ?? [] }
        func providers(_ e: [String: Any]) -> Set<String> { Set(sources(e).compactMap { $0["provider"] as? String }) }
        let serieA = events.filter { ($0["league"] as? String) == "Serie A" }
        let mls = events.filter { ($0["league"] as? String) == "MLS" }
        #expect(serieA.count == 2 && mls.count == 2, "\(events.map { $0["league"] ?? "" })")
        // Each real match is one row even where coverage differs: Serie A at four providers, MLS at three, however each
        // names its clubs (the simulator writes them five ways: numbers, form words, abbreviations, local forms).
        #expect(serieA.allSatisfy { providers($0) == ["pulsescore", "boltodds", "sportsapi", "sportsapi-v1"] })
        #expect(mls.allSatisfy { providers($0) == ["boltodds", "sportsapi", "sportsapi-v1"] })
        for league in ["2. Bundesliga", "Segunda División", "Ligue 1", "Championship"] {
            let rows = events.filter { e in sources(e).contains { ($0["league"] as? String) == league } }
            #expect(rows.count == 2 && rows.allSatisfy { providers($0).count == 4 }, "\(league): \(rows.map { sources($0).map { $0["home"] ?? "" } })")
        }
        // Internazionale and Inter Miami are live at once: never one row.
        for e in events {
            let homes = sources(e).compactMap { $0["home"] as? String } + sources(e).compactMap { $0["away"] as? String }
            let miami = homes.filter { $0.contains("Miami") }.count, inter = homes.filter { $0.hasPrefix("Inter") || $0.contains("Internazionale") }.count
            #expect(miami == 0 || miami == inter, "a row mixes Inter Miami and Internazionale: \(homes)")
        }
        #expect(serieA.contains { e in sources(e).contains { ($0["home"] as? String) == "Inter" || ($0["away"] as? String) == "Inter" }
                                    && sources(e).contains { ($0["home"] as? String)?.contains("Internazionale") == true || ($0["away"] as? String)?.contains("Internazionale") == true } })
        // "Milan" and "AC Milan" are one club.
        #expect(serieA.contains { e in sources(e).contains { ($0["home"] as? String) == "Milan" || ($0["away"] as? String) == "Milan" }
                                    && sources(e).contains { ($0["home"] as? String) == "AC Milan" || ($0["away"] as? String) == "AC Milan" } })
    }

    @Test("--explain lists each row's sources with their own names, ids and why they were joined")
    func explain() async throws {
        let r = try await CLI.run(["live", "--provider", "all", "--demo", "--explain", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try Self.objects(r.stdout)
        let byMatch = Dictionary(grouping: rows.filter { $0["joined"] as? Bool == true }, by: { $0["match"] as? String ?? "" })
        #expect(!byMatch.isEmpty)
        for (_, sources) in byMatch {
            #expect(sources.filter { $0["why"] as? String == "first source" }.count == 1)
            #expect(sources.allSatisfy { ($0["teams"] as? String)?.contains(" v ") == true && $0["id"] is String })
        }
        let one = try await CLI.run(["live", "--provider", "tickodds", "--demo", "--explain"])
        #expect(one.status == 64 && one.stderr.contains("--explain needs several providers"), "\(one.stderr)")
    }

    @Test("The same fixture live today and scheduled tomorrow: the live one joins across providers, tomorrow's stays a match of its own")
    func todayAndTomorrow() async throws {
        // The world stands still: every provider's first answer, then the stream is stopped.
        let r = try await CLI.run(["stream", "--provider", "all", "--demo"], timeout: 60) { process, output in
            try await waitFor("every scores provider's first answer", timeout: 40) {
                let text = output()
                return text.contains(#""status":"scheduled""#) && text.contains(#""type":"scoreboard","provider":"sportsapi","#)
                    && text.contains(#""type":"scoreboard","provider":"boltodds","#)
            }
            process.signal(SIGINT)
        }
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let boards = lines.filter { $0["type"] as? String == "scoreboard" && $0["match"] is String }
        // SportsAPIPro v1 lists fixtures as well as live games: the world's return fixture is one of them.
        let scheduled = boards.filter { $0["provider"] as? String == "sportsapi-v1" && $0["status"] as? String == "scheduled" }
        let pair = scheduled.lazy.compactMap { fixture -> ([String: Any], [String: Any])? in
            guard let live = boards.first(where: { $0["provider"] as? String == "sportsapi-v1" && $0["status"] as? String == "live"
                                                   && $0["home"] as? String == fixture["home"] as? String
                                                   && $0["away"] as? String == fixture["away"] as? String }) else { return nil }
            return (fixture, live)
        }.first
        let (tomorrow, today) = try #require(pair, "no fixture of a live match's teams among \(scheduled.count) scheduled")
        let todayMatch = try #require(today["match"] as? String)
        #expect(tomorrow["match"] as? String != todayMatch)
        // Today's is joined: another provider's line about it carries its match id.
        #expect(boards.contains { $0["provider"] as? String != "sportsapi-v1" && $0["match"] as? String == todayMatch })
        #expect(!lines.contains { $0["provider"] as? String != "sportsapi-v1" && $0["match"] as? String == tomorrow["match"] as? String })
    }

    @Test("Config providers = [...] joins those providers for odds live; --provider still names one; an unknown name is exit 2")
    func configProviders() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("odds-providers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("config.toml").path
        try "providers = [\"tickodds\", \"sportsapi\"]\n".write(toFile: config, atomically: true, encoding: .utf8)
        let env = CLI.environment(["ODDS_CONFIG": config])
        let joined = try await CLI.run(["live", "--demo", "--json"], env: env)
        #expect(joined.status == 0, "\(joined.stderr)")
        let providers = Set(try Self.objects(joined.stdout).flatMap { ($0["sources"] as? [[String: Any]]) ?? [] }.compactMap { $0["provider"] as? String })
        #expect(providers == ["tickodds", "sportsapi"])
        let one = try await CLI.run(["live", "--demo", "--provider", "tickodds", "--json"], env: env)
        #expect(one.status == 0 && !one.stdout.contains("\"sources\""))
        try "providers = [\"tickodds\", \"nosuch\"]\n".write(toFile: config, atomically: true, encoding: .utf8)
        let bad = try await CLI.run(["live", "--demo"], env: env)
        #expect(bad.status == 2 && bad.stderr.contains("Unknown provider 'nosuch'"), "\(bad.stderr)")
    }

    @Test("odds stream --provider all --demo: every provider's lines in one stream, a line about a match naming its fused match")
    func stream() async throws {
        let r = try await CLI.run(["stream", "--provider", "all", "--demo", "--limit", "400"], env: CLI.environment(["ODDS_DEMO_TICK": "0.05"]))
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.count == 400)
        #expect(Set(lines.compactMap { $0["provider"] as? String }).count >= 3)
        // One fused match heard of from several providers.
        var providersByMatch: [String: Set<String>] = [:]
        for line in lines {
            guard let match = line["match"] as? String, let provider = line["provider"] as? String else { continue }
            providersByMatch[match, default: []].insert(provider)
        }
        #expect(providersByMatch.values.contains { $0.count >= 2 }, "\(providersByMatch.prefix(5))")
    }

    @Test("odds record of several providers, then odds live --replay of it: one row per real match, as live")
    func recordAndReplay() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("odds-fused-\(UUID().uuidString).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        // A still world: TickOdds sends its snapshot, SportsAPIPro its welcome, subscription and live scores: four frames.
        let record = try await CLI.run(["record", "--provider", "tickodds,sportsapi", "--demo", "--limit", "4", "-o", file])
        #expect(record.status == 0, "\(record.stderr)")
        let replay = try await CLI.run(["live", "--replay", file, "--json"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let events = try Self.objects(replay.stdout)
        #expect(events.contains { ($0["sources"] as? [[String: Any]])?.count == 2 }, "\(replay.stdout.prefix(300))")
        #expect(events.allSatisfy { $0["replay"] as? Bool == true && $0["demo"] as? Bool == true })
    }

    @Test("odds watch --provider all: the match's incidents from whichever provider sends them, each once, with the fused match id")
    func watchAll() async throws {
        // It finds the match by a one-shot query of all five providers first; on cores the rest of the suite keeps
        // busy, that took over 40 s once in CI (SIGINT then cut the query short: exit 130, nothing written).
        let r = try await CLI.run(["watch", "Arsenal", "--provider", "all", "--demo"], env: CLI.environment(["ODDS_DEMO_TICK": "0.05"]),
                                  timeout: 130) { process, output in
            let deadline = Date().addingTimeInterval(100)
            while output().split(separator: "\n").count < 6 && Date() < deadline { try await Task.sleep(nanoseconds: 100_000_000) }
            process.signal(SIGINT)
        }
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.count >= 6)
        #expect(Set(lines.compactMap { $0["match"] as? String }).count == 1)
        // Each incident once: no incident of one kind and minute told by two providers.
        var providersByIncident: [String: Set<String>] = [:]
        for line in lines {
            guard let i = line["incident"] as? [String: Any], let kind = i["kind"] as? String, let minute = i["minute"] as? Int,
                  let provider = line["provider"] as? String else { continue }
            providersByIncident["\(kind) \(minute) \((i["detail"] as? String)?.lowercased() ?? "")", default: []].insert(provider)
        }
        #expect(providersByIncident.values.allSatisfy { $0.count == 1 }, "\(providersByIncident)")
    }

    @Test("A list runs those providers only; one provider is the plain table")
    func list() async throws {
        let r = try await CLI.run(["live", "--provider", "tickodds,boltodds", "--demo", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let providers = Set(try Self.objects(r.stdout).flatMap { ($0["sources"] as? [[String: Any]]) ?? [] }.compactMap { $0["provider"] as? String })
        #expect(providers == ["tickodds", "boltodds"])
        let one = try await CLI.run(["live", "--provider", "tickodds", "--demo", "--format", "tsv"])
        #expect(one.status == 0 && !one.stdout.contains("SRC"))
    }

    @Test("all without any key is one sentence and exit 64; a list elsewhere is refused; an unknown name is a usage error")
    func refusals() async throws {
        let none = try await CLI.run(["live", "--provider", "all"])
        #expect(none.status == 64, "\(none.stderr)")
        #expect(none.stderr.contains("no API key (ODDS_TICKODDS_KEY); skipped") && none.stderr.contains("--provider all found no provider"))
        let sports = try await CLI.run(["sports", "--provider", "all", "--demo"])
        #expect(sports.status == 64 && sports.stderr.contains("works with odds live, stream, dash, watch and record; name one provider"), "\(sports.stderr)")
        let unknown = try await CLI.run(["live", "--provider", "tickodds,nosuch", "--demo"])
        #expect(unknown.status == 64, "\(unknown.stderr)")
    }
}
