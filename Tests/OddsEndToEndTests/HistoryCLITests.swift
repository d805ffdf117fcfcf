import Foundation
import GRDB
import OddsTestSupport
import Testing

@Suite("History from the binary")
struct HistoryCLITests {
    static func folder() throws -> String {
        let f = FileManager.default.temporaryDirectory.appendingPathComponent("odds-hist-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: f, withIntermediateDirectories: true)
        return f
    }

    static func json(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "\(text.prefix(300))")
    }

    /// Reads a history from outside the writer, as another process would.
    static func reading<T>(_ path: String, _ body: (Database) throws -> T) throws -> T {
        var config = Configuration()
        config.readonly = true
        let q = try DatabaseQueue(path: path, configuration: config)
        defer { try? q.close() }
        return try q.read(body)
    }

    /// 300 frames of the simulator's TickOdds feed, recorded fast, in `dir`.
    static func recording(in dir: String) async throws -> String {
        let rec = dir + "/rec.ndjson"
        let record = try await CLI.run(["record", "--provider", "tickodds", "--demo", "--limit", "300", "-o", rec],
                                       env: CLI.environment(["ODDS_DEMO_TICK": "0.01"]))
        #expect(record.status == 0, "\(record.stderr)")
        return rec
    }

    static func count(_ db: String, _ table: String) throws -> Int {
        try reading(db) { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") } ?? 0
    }

    static func integrity(_ path: String) throws -> String? {
        try reading(path) { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
    }

    @Test("A replay fills a history; history matches and show read it back in every format; replaying again adds nothing")
    func replayIntoHistory() async throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let rec = try await Self.recording(in: dir), db = dir + "/h.sqlite"
        let fill = try await CLI.run(["stream", "--replay", rec, "--speed", "max", "--history", db])
        #expect(fill.status == 0, "\(fill.stderr)")
        let rows = try Self.count(db, "price_change")
        #expect(rows > 50)

        let matches = try await CLI.run(["history", "matches", "--history", db, "--json"])
        #expect(matches.status == 0, "\(matches.stderr)")
        let list = try Self.json(matches.stdout)
        #expect(!list.isEmpty && list.allSatisfy { $0["provider"] as? String == "tickodds" && $0["demo"] as? Bool == true })
        #expect(list.reduce(0) { $0 + (($1["priceChanges"] as? Int) ?? 0) } == rows)
        let id = try #require(list.max { ($0["priceChanges"] as? Int ?? 0) < ($1["priceChanges"] as? Int ?? 0) }?["id"] as? String)
        // A table for a person: a row a match, its teams in one column, times in UTC.
        let listed = try await CLI.run(["history", "matches", "--history", db, "--format", "table"])
        #expect(listed.stdout.contains("DEMO DATA") && listed.stdout.contains("FIRST SEEN") && listed.stdout.contains("UTC"), "\(listed.stdout)")
        #expect(listed.stdout.split(separator: "\n").contains { $0.hasPrefix(id + " ") && $0.contains(" v ") })
        // The count is of price changes, and says so: a source that kept only scores reads 0 under PRICES, not CHANGES.
        #expect(listed.stdout.contains(" PRICES ") && !listed.stdout.contains("CHANGES"), "\(listed.stdout)")
        // --team keeps the matches of the team named, and only some of them.
        let team = try #require(list.first?["home"] as? String)
        let byTeam = try Self.json(try await CLI.run(["history", "matches", "--history", db, "--team", team, "--json"]).stdout)
        #expect(byTeam.contains { $0["home"] as? String == team } && byTeam.count < list.count, "\(team): \(byTeam.count) of \(list.count)")
        let nobody = try await CLI.run(["history", "matches", "--history", db, "--team", "Nobody FC", "--provider", "tickodds", "--format", "table"])
        #expect(nobody.status == 0 && nobody.stdout.contains("The history keeps no match from TickOdds with a team named 'Nobody FC'."), "\(nobody.stdout)")

        let show = try await CLI.run(["history", "show", id, "--history", db, "--json"])
        #expect(show.status == 0, "\(show.stderr)")
        let timeline = try Self.json(show.stdout)
        let prices = timeline.filter { $0["type"] as? String == "price" }
        #expect(!prices.isEmpty)
        var last = ""
        for p in prices {
            let time = try #require(p["time"] as? String)
            #expect(time.count == 24 && time.hasSuffix("Z"), "RFC 3339 with milliseconds: \(time)")
            #expect(time >= last)
            last = time
            for field in ["provider", "event", "book", "market", "selection", "suspended"] { #expect(p[field] != nil, "\(field)") }
            if p["suspended"] as? Bool == false {
                let text = try #require(p["text"] as? String), odds = try #require(p["odds"] as? String)
                #expect(Double(text) != nil && odds.contains("/"), "\(text) \(odds)")
            }
        }
        // TSV for a pipe, a table for a person: the same rows.
        let tsv = try await CLI.run(["history", "show", id, "--history", db])
        #expect(tsv.stdout.split(separator: "\n").count == timeline.count + 1)
        #expect(tsv.stdout.split(separator: "\n").first?.hasPrefix("TIME\tTYPE\tPROVIDER") == true)
        let firstRow = try #require(tsv.stdout.split(separator: "\n").dropFirst().first).split(separator: "\t", omittingEmptySubsequences: false)
        #expect(firstRow.first.map(String.init) == timeline.first?["time"] as? String && firstRow.last == "true", "\(firstRow)")
        #expect(firstRow.count == 15, "14 columns and the demo label: \(firstRow)")
        // CSV: the same rows, each labelled demo.
        let csv = try await CLI.run(["history", "show", id, "--history", db, "--csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let csvLines = csv.stdout.components(separatedBy: "\r\n").dropLast()
        #expect(csvLines.count == timeline.count + 1 && csv.stdout.hasSuffix("\r\n"))
        #expect(csvLines.first?.hasPrefix("TIME,TYPE,PROVIDER") == true && csvLines.first?.hasSuffix(",demo") == true, "\(csvLines.first ?? "")")
        #expect(csvLines.dropFirst().allSatisfy { $0.hasSuffix(",true") })
        let table = try await CLI.run(["history", "show", id, "--history", db, "--format", "table"])
        #expect(table.stdout.contains("DEMO DATA") && table.stdout.contains("OPEN") && table.stdout.contains("CLOSE") && table.stdout.contains("Timeline"))
        #expect(table.stdout.contains("▁") || table.stdout.contains("█"), "a sparkline")
        let ascii = try await CLI.run(["history", "show", id, "--history", db, "--format", "table", "--ascii"])
        #expect(!ascii.stdout.contains("█") && !ascii.stdout.contains("▁"))

        // A chart on a terminal-like table, and as SVG.
        let chart = try await CLI.run(["history", "chart", id, "--history", db, "--book", "best"], env: CLI.environment(["COLUMNS": "100"]))
        #expect(chart.status == 0, "\(chart.stderr)")
        #expect(chart.stdout.contains("┤") && chart.stdout.contains("UTC") && chart.stdout.contains("best"), "\(chart.stdout)")
        let svg = dir + "/line.svg"
        let written = try await CLI.run(["history", "chart", id, "--history", db, "--svg", svg])
        #expect(written.status == 0, "\(written.stderr)")
        let drawn = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(drawn.contains("<polyline") && drawn.contains("DEMO DATA"), "a demo recording's chart is labelled demo in the file too")
        // A book typed as a person would (any case, spaces, hyphens) is the book kept.
        let byName = try Self.json(try await CLI.run(["history", "show", id, "--history", db, "--book", "Tick-Odds", "--json"]).stdout)
        #expect(byName.filter { $0["type"] as? String == "price" }.count == prices.count)
        let charted = try await CLI.run(["history", "chart", id, "--history", db, "--book", "Tick Odds"], env: CLI.environment(["COLUMNS": "100"]))
        #expect(charted.status == 0 && charted.stdout.contains("┤"), "\(charted.stderr)")
        // A name that names nothing the match keeps: one sentence of what it keeps (exit 5), not an empty answer.
        for (args, words) in [(["show", "--market", "corners"], "names no market"), (["show", "--book", "nosuchbook"], "is not a book"),
                              (["show", "--provider", "boltodds"], "keeps nothing"), (["chart", "--selection", "nobody"], "names no selection"),
                              (["chart", "--market", "corners"], "names no market")] {
            let missed = try await CLI.run(["history", args[0], id, "--history", db] + args.dropFirst())
            #expect(missed.status == 5 && missed.stdout.isEmpty, "\(args): \(missed.status) \(missed.stdout)")
            #expect(missed.stderr.contains(words) && missed.stderr.contains("Fulltime Result") == (args[1] == "--market"), "\(args): \(missed.stderr)")
        }

        // The same replay again: every change is already kept.
        let again = try await CLI.run(["stream", "--replay", rec, "--speed", "max", "--history", db])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Self.count(db, "price_change") == rows)
        // The collector ends its log with what it kept: here every change the new history holds.
        let collected = dir + "/c.sqlite"
        let collect = try await CLI.run(["history", "collect", "--replay", rec, "--speed", "max", "--history", collected])
        let kept = try ["price_change", "score_change", "incident", "match_member"].map { try Self.count(collected, $0) }.reduce(0, +)
        #expect(collect.status == 0 && kept > rows && collect.stdout.isEmpty, "\(collect.stderr)")
        #expect(collect.stderr.hasSuffix("history: \(kept) change(s) kept in \(collected).\n"), "\(kept)\n\(collect.stderr)")

        let stats = try await CLI.run(["history", "stats", "--history", db, "--json"])
        let s = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        #expect(s["priceChanges"] as? Int == rows && (s["bytes"] as? Int ?? 0) > 0)
        // Numbers as numbers, and the last pruning as its parts (the stream pruned on opening: nothing was old enough).
        #expect((s["bytesPerChange"] as? Int).map { $0 > 0 && $0 == (s["bytes"] as? Int ?? 0) / rows } == true, "\(s)")
        let pruned = try #require(s["lastPrune"] as? [String: Any], "\(s)")
        #expect(pruned["changes"] as? Int == 0 && (pruned["at"] as? String)?.hasSuffix("Z") == true && (pruned["cutoff"] as? String)?.hasSuffix("Z") == true, "\(pruned)")
        let person = try await CLI.run(["history", "stats", "--history", db, "--format", "table"])
        #expect(person.stdout.contains("Price changes") && person.stdout.contains("bytes each on disk") && person.stdout.contains("UTC"), "\(person.stdout)")
    }

    @Test("Two collectors ten minutes apart: the chart breaks where no writer watched and says so, on a terminal and in SVG")
    func chartGap() async throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let rec = try await Self.recording(in: dir), db = dir + "/h.sqlite"
        // The recording's first third, then its last third as if received ten minutes later.
        let lines = try String(contentsOfFile: rec, encoding: .utf8).split(separator: "\n")
        let later = try lines.suffix(100).map { line -> String in
            let digits = try #require(line.dropFirst(5).prefix { $0.isNumber }, "\(line.prefix(40))")
            #expect(line.hasPrefix("{\"t\":"))
            return "{\"t\":\(Int(digits)! + 600_000)" + line.dropFirst(5 + digits.count)
        }
        try (lines.prefix(100).joined(separator: "\n") + "\n").write(toFile: dir + "/a.ndjson", atomically: true, encoding: .utf8)
        try (later.joined(separator: "\n") + "\n").write(toFile: dir + "/b.ndjson", atomically: true, encoding: .utf8)
        for part in ["a", "b"] {
            let r = try await CLI.run(["history", "collect", "--replay", dir + "/\(part).ndjson", "--speed", "max", "--history", db])
            #expect(r.status == 0, "\(r.stderr)")
        }
        #expect(try Self.count(db, "watch") == 2)
        // The stats say when a writer last watched each provider: here the second collector's span, long over.
        let stats = try await CLI.run(["history", "stats", "--history", db, "--json"])
        let watched = try #require((try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])?["watched"] as? [[String: Any]])
        #expect(watched.count == 1 && watched[0]["provider"] as? String == "tickodds", "\(stats.stdout)")
        let table = try await CLI.run(["history", "stats", "--history", db, "--format", "table"])
        #expect(table.stdout.contains("Last watched   TickOdds ") && !table.stdout.contains(" now (since"), "\(table.stdout)")
        let matches = try Self.json(try await CLI.run(["history", "matches", "--history", db, "--json"]).stdout)
        let both = try #require(matches.filter { m in
            let first = (m["firstSeen"] as? String) ?? "", last = (m["lastSeen"] as? String) ?? ""
            return first < last && (m["priceChanges"] as? Int ?? 0) > 0
        }.max { ($0["priceChanges"] as? Int ?? 0) < ($1["priceChanges"] as? Int ?? 0) }?["id"] as? String)
        let chart = try await CLI.run(["history", "chart", both, "--history", db, "--book", "best", "--ascii", "--color", "never"],
                                      env: CLI.environment(["COLUMNS": "100"]))
        #expect(chart.status == 0, "\(chart.stderr)")
        #expect(chart.stdout.contains(".. no writer watching: price unknown"), "\(chart.stdout)")
        let axis = try #require(chart.stdout.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("+") })
        // Nearly all the time charted is the ten minutes no writer watched; the line is drawn only at either end.
        #expect(axis.filter { $0 == "." }.count > 60, "\(chart.stdout)")
        let plot = chart.stdout.split(separator: "\n").filter { $0.contains("|") }.map { String($0.drop { $0 != "|" }.dropFirst()) }
        #expect(!plot.isEmpty && plot.allSatisfy { row in row.dropFirst(2).dropLast(2).allSatisfy { $0 == " " } }, "\(chart.stdout)")
        // history show says when no writer watched.
        let show = try await CLI.run(["history", "show", both, "--history", db, "--format", "table"])
        #expect(show.status == 0 && show.stdout.split(separator: "\n").filter { $0.hasPrefix("TO  no writer watched from ") && $0.hasSuffix(" UTC: its prices then are unknown") }.count == 1,
                "\(show.stdout)")
        let svg = dir + "/c.svg"
        #expect(try await CLI.run(["history", "chart", both, "--history", db, "--svg", svg]).status == 0)
        #expect(try String(contentsOfFile: svg, encoding: .utf8).contains("<title>no writer watching: price unknown</title></rect>"))
    }

    @Test("kill -9 of a writer leaves a history that passes integrity_check, and the next writer carries on in it")
    func killNine() async throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = dir + "/h.sqlite"
        let env = CLI.environment(["ODDS_DEMO_TICK": "0.01"])
        let killed = try await CLI.run(["stream", "--provider", "tickodds", "--demo", "--history", db], env: env) { process, _ in
            try await waitFor("changes written", timeout: 30) { ((try? Self.count(db, "price_change")) ?? 0) >= 200 }
            process.signal(SIGKILL)
        }
        #expect(killed.status != 0)
        #expect(try Self.integrity(db) == "ok")
        let before = try Self.count(db, "price_change")
        let next = try await CLI.run(["stream", "--provider", "tickodds", "--demo", "--limit", "100", "--history", db], env: env)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try Self.count(db, "price_change") > before)
    }

    @Test("A second writer on the same history: one sentence, exit 9; --no-history turns it off; a missing history to read, or a folder, is exit 9")
    func secondWriter() async throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = dir + "/h.sqlite"
        let env = CLI.environment(["ODDS_DEMO_TICK": "0.05"])
        var second: CLI.Result?
        _ = try await CLI.run(["stream", "--provider", "tickodds", "--demo", "--history", db], env: env) { process, _ in
            try await waitFor("the first writer's schema", timeout: 30) { ((try? Self.count(db, "source")) ?? 0) > 0 }
            second = try await CLI.run(["stream", "--provider", "tickodds", "--demo", "--history", db, "--limit", "5"], env: env)
            process.signal(SIGINT)
        }
        let r = try #require(second)
        #expect(r.status == 9 && r.stderr.contains("Another odds is writing the history"), "\(r.status) \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 2, "the demo banner and one sentence: \(r.stderr)")
        let off = try await CLI.run(["stream", "--provider", "tickodds", "--demo", "--limit", "5", "--no-history"],
                                    env: CLI.environment(["XDG_DATA_HOME": dir + "/data", "ODDS_DEMO_TICK": "0.05"]))
        #expect(off.status == 0 && !FileManager.default.fileExists(atPath: dir + "/data/odds/history.sqlite"))
        let bare = try await CLI.run(["stream", "--provider", "tickodds", "--demo", "--limit", "5", "--history"],
                                     env: CLI.environment(["XDG_DATA_HOME": dir + "/data", "ODDS_DEMO_TICK": "0.05"]))
        #expect(bare.status == 0 && FileManager.default.fileExists(atPath: dir + "/data/odds/history.sqlite"), "\(bare.stderr)")
        let missing = try await CLI.run(["history", "matches", "--history", dir + "/none.sqlite"])
        #expect(missing.status == 9 && missing.stderr.contains("no history"), "\(missing.stderr)")
        // A folder given for the file: said so, to a reader and to a writer.
        for args in [["history", "matches", "--history", dir], ["stream", "--provider", "tickodds", "--demo", "--limit", "5", "--history", dir]] {
            let folder = try await CLI.run(args, env: env)
            #expect(folder.status == 9 && folder.stderr.contains("is a folder: --history takes a file"), "\(folder.stderr)")
        }
        let unknown = try await CLI.run(["history", "matches", "--history", db, "--provider", "nope"])
        #expect(unknown.status == 64 && unknown.stderr.contains("the providers are pulsescore"), "\(unknown.stderr)")
        // show's --provider too: a misspelt provider is an error, not an empty timeline.
        let id = try #require(try Self.json(try await CLI.run(["history", "matches", "--history", db, "--json"]).stdout).first?["id"] as? String)
        let misspelt = try await CLI.run(["history", "show", id, "--history", db, "--provider", "tick"])
        #expect(misspelt.status == 64 && misspelt.stderr.contains("There is no provider 'tick'") && misspelt.stdout.isEmpty, "\(misspelt.stderr)")
        let spelt = try await CLI.run(["history", "show", id, "--history", db, "--provider", "TickOdds"])
        #expect(spelt.status == 0 && spelt.stdout.split(separator: "\n").count > 1, "\(spelt.stderr)")
        let since = try await CLI.run(["history", "matches", "--history", db, "--since", "yesterday"])
        #expect(since.status == 64 && since.stderr.contains("--since takes a duration"), "\(since.stderr)")
        let postgres = try await CLI.run(["history", "stats", "--history", "postgres://odds:s3cret-pw@127.0.0.1:1/odds"])
        #expect(postgres.status == 9 && !postgres.stderr.contains("s3cret-pw"), "\(postgres.stderr)")
    }

    @Test("history collect prints nothing to stdout, keeps every provider's changes with their fused matches, and ends on SIGTERM with 0")
    func collect() async throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = dir + "/h.sqlite"
        let r = try await CLI.run(["history", "collect", "--provider", "all", "--demo", "--history", db],
                                  env: CLI.environment(["ODDS_DEMO_TICK": "0.02"])) { process, _ in
            try await waitFor("changes of three providers, BoltOdds' and PulseScore's among them", timeout: 30) {
                guard ((try? Self.count(db, "price_change")) ?? 0) >= 300, ((try? Self.count(db, "match_member")) ?? 0) > 0 else { return false }
                let priced = try? Self.reading(db) { db in
                    try Int.fetchOne(db, sql: """
                        SELECT count(DISTINCT o.provider) FROM price_change p JOIN selection s ON s.id = p.selection_id
                        JOIN source o ON o.id = s.source_id WHERE o.provider IN ('boltodds', 'pulsescore')
                        """)
                }
                return (priced ?? 0) == 2
            }
            // While the collector runs, the stats say it is watching now.
            let stats = try await CLI.run(["history", "stats", "--history", db, "--format", "table"])
            #expect(stats.stdout.contains("TickOdds now (since ") && stats.stdout.contains("BoltOdds now (since "), "\(stats.stdout)")
            process.signal(SIGTERM)
        }
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        let list = try Self.json(try await CLI.run(["history", "matches", "--history", db, "--json"]).stdout)
        #expect(Set(list.compactMap { $0["provider"] as? String }).count >= 3)
        // The providers that put a time on their messages have it kept (close to when it was received); TickOdds
        // puts none on its updates, and none is made up.
        let stamped = try Self.reading(db) { db in
            try Row.fetchAll(db, sql: """
                SELECT o.provider, count(p.provider_at), count(*), max(abs(p.provider_at - p.received_at))
                FROM price_change p JOIN selection s ON s.id = p.selection_id JOIN source o ON o.id = s.source_id GROUP BY o.provider
                """).map { (provider: $0[0] as String, stamped: $0[1] as Int, rows: $0[2] as Int, skew: $0[3] as Int64?) }
        }
        for p in stamped {
            if p.provider == "tickodds" {
                #expect(p.stamped == 0, "\(p)")
            } else {
                #expect(p.stamped == p.rows && (p.skew ?? 0) < 60_000, "\(p)")
            }
        }
        #expect(stamped.contains { $0.provider == "boltodds" } && stamped.contains { $0.provider == "pulsescore" }, "\(stamped)")
        let fused = try #require(list.first { $0["match"] is String }?["match"] as? String)
        let show = try await CLI.run(["history", "show", fused, "--history", db, "--json"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(!(try Self.json(show.stdout)).isEmpty)
        // A match priced by several providers: its match result is one market across them, whatever each calls it.
        var priced: [String: Set<String>] = [:]
        for m in list where (m["priceChanges"] as? Int ?? 0) > 0 {
            if let key = m["match"] as? String, let provider = m["provider"] as? String { priced[key, default: []].insert(provider) }
        }
        // Best a match BoltOdds ("Moneyline") and Bet365 or TickOdds ("Fulltime Result") both priced.
        let named = priced.first { $0.value.contains("boltodds") && $0.value.count >= 2 } ?? priced.first { $0.value.count >= 2 }
        if let (match, providers) = named {
            let result = try Self.json(try await CLI.run(["history", "show", match, "--history", db, "--market", "result", "--json"]).stdout)
            let names = Set(result.compactMap { $0["market"] as? String })
            let apart = providers.contains("boltodds")
            #expect(Set(result.compactMap { $0["provider"] as? String }).count >= 2 && (!apart || names.count >= 2), "\(providers): \(names)")
            let chart = try await CLI.run(["history", "chart", match, "--history", db], env: CLI.environment(["COLUMNS": "160"]))
            #expect(chart.status == 0 && (!apart || chart.stdout.contains("Match result")), "\(chart.stdout)\(chart.stderr)")
            let legend = chart.stdout.split(separator: "\n").last ?? ""
            #expect(legend.components(separatedBy: "━━").count >= 3, "a line for each of two books at least: \(legend)")
        } else {
            Issue.record("no match priced by two providers: \(priced)")
        }
    }

    @Test("watch --history keeps the watched match: its incidents and scores")
    func watch() async throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = dir + "/h.sqlite"
        let r = try await CLI.run(["watch", "Arsenal", "--demo", "--history", db], env: CLI.environment(["ODDS_DEMO_TICK": "0.05"])) { process, _ in
            try await waitFor("the match kept", timeout: 30) { ((try? Self.count(db, "score_change")) ?? 0) > 0 }
            process.signal(SIGINT)
        }
        #expect(r.status == 0, "\(r.stderr)")
        let list = try Self.json(try await CLI.run(["history", "matches", "--history", db, "--json"]).stdout)
        #expect(list.count == 1 && (list.first?["home"] as? String ?? "").contains("Brighton"), "\(list)")
    }

    /// Price rows that repeat the row before them for the same selection: what "one row per change" rules out.
    static let repeatedRows = """
        SELECT count(*) FROM (SELECT price_text, suspended, lag(price_text) OVER w AS before_text, lag(suspended) OVER w AS before_suspended
                              FROM price_change WINDOW w AS (PARTITION BY selection_id ORDER BY received_at, seq)) x
        WHERE before_suspended IS NOT NULL AND before_text IS NOT DISTINCT FROM price_text AND before_suspended = suspended
        """

    // On its own lane: starting the test server and asking it questions (psql) wait without suspending.
    @Test("A desk on PostgreSQL: two writers at once store each change once; every history command reads it; the password is never shown",
          .heavyLane)
    func desk() async throws {
        guard let server = try await PostgresTestServer.sharedOffPool() else { return }
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let rec = dir + "/rec.ndjson"
        let record = try await CLI.run(["record", "--provider", "tickodds", "--demo", "--limit", "300", "-o", rec],
                                       env: CLI.environment(["ODDS_DEMO_TICK": "0.01"]))
        #expect(record.status == 0, "\(record.stderr)")
        let alone = try server.createDatabase(), desk = try server.createDatabase()
        func database(_ url: String) -> String { String(url.split(separator: "/").last!) }

        let single = try await CLI.run(["stream", "--replay", rec, "--speed", "max", "--history", alone])
        #expect(single.status == 0, "\(single.stderr)")
        async let first = CLI.run(["stream", "--replay", rec, "--speed", "max", "--history", desk])
        async let second = CLI.run(["stream", "--replay", rec, "--speed", "max", "--history", desk])
        let both = try await [first, second]
        #expect(both.allSatisfy { $0.status == 0 }, "\(both.map(\.stderr))")
        let expected = try server.psql("SELECT count(*) FROM price_change", database: database(alone))
        #expect(Int(expected) ?? 0 > 50)
        #expect(try server.psql("SELECT count(*) FROM price_change", database: database(desk)) == expected)
        #expect(try server.psql(Self.repeatedRows, database: database(desk)) == "0")

        let matches = try await CLI.run(["history", "matches", "--history", desk, "--json"])
        #expect(matches.status == 0, "\(matches.stderr)")
        let list = try Self.json(matches.stdout)
        #expect(list.reduce(0) { $0 + (($1["priceChanges"] as? Int) ?? 0) } == Int(expected))
        let id = try #require(list.max { ($0["priceChanges"] as? Int ?? 0) < ($1["priceChanges"] as? Int ?? 0) }?["id"] as? String)
        // A table for a person: a row a match, its teams in one column, times in UTC.
        let listed = try await CLI.run(["history", "matches", "--history", desk, "--format", "table"])
        #expect(listed.stdout.contains("DEMO DATA") && listed.stdout.contains("FIRST SEEN") && listed.stdout.contains("UTC"), "\(listed.stdout)")
        #expect(listed.stdout.split(separator: "\n").contains { $0.hasPrefix(id + " ") && $0.contains(" v ") })
        let show = try await CLI.run(["history", "show", id, "--history", desk, "--json"])
        #expect(show.status == 0, "\(show.stderr)")
        let shown = try Self.json(show.stdout)
        #expect(shown.contains { $0["type"] as? String == "price" })
        // The same replay read from the SQLite file and from PostgreSQL gives the same timeline.
        let file = dir + "/h.sqlite"
        #expect(try await CLI.run(["stream", "--replay", rec, "--speed", "max", "--history", file]).status == 0)
        let fromFile = try await CLI.run(["history", "show", id, "--history", file, "--json"])
        #expect(fromFile.stdout == show.stdout)
        let chart = try await CLI.run(["history", "chart", id, "--history", desk, "--book", "best"], env: CLI.environment(["COLUMNS": "100"]))
        #expect(chart.status == 0, "\(chart.stderr)")
        let stats = try await CLI.run(["history", "stats", "--history", desk])
        #expect(stats.status == 0 && stats.stdout.contains("postgres://***@"), "\(stats.stdout) \(stats.stderr)")
        #expect(!stats.stdout.contains(server.password))

        let wrong = desk.replacingOccurrences(of: server.password, with: "not-the-password")
        let refused = try await CLI.run(["history", "matches", "--history", wrong])
        #expect(refused.status == 9 && refused.stderr.contains("password authentication failed"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("not-the-password") && refused.stderr.split(separator: "\n").count == 1)
        let away = try await CLI.run(["stream", "--provider", "tickodds", "--demo", "--limit", "5", "--history",
                                      "postgres://odds:not-the-password@127.0.0.1:1/desk"])
        #expect(away.status == 9 && away.stderr.contains("refused the connection") && !away.stderr.contains("not-the-password"), "\(away.stderr)")
    }
}
