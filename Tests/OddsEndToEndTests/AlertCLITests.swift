import Foundation
import OddsTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Alerts from the binary")
struct AlertCLITests {
    static func lines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    static func decimal(_ price: Any?) -> Double? {
        ((price as? [String: Any])?["decimal"] as? String).flatMap(Double.init)
    }

    @Test("Over a replay: NDJSON alerts with from and to, the same alerts as TSV rows under one header, --once, --match; labelled replayed")
    func replay() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("odds-alert-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let rec = dir + "/rec.ndjson"
        let record = try await CLI.run(["record", "--provider", "tickodds", "--demo", "--limit", "400", "-o", rec],
                                       env: CLI.environment(["ODDS_DEMO_TICK": "0.01"]))
        #expect(record.status == 0, "\(record.stderr)")
        let rules = ["move any 3% in 30s", "goal", #"price draw >= 1.01"#]
        let json = try await CLI.run(["alert"] + rules + ["--replay", rec, "--speed", "max", "--ndjson"])
        #expect(json.status == 0, "\(json.stderr)")
        let alerts = Self.lines(json.stdout)
        #expect(alerts.count == json.stdout.split(separator: "\n").count, "every line is one JSON object")
        let moves = alerts.filter { $0["kind"] as? String == "move" }
        #expect(!moves.isEmpty, "\(json.stdout.prefix(500))")
        for m in moves {
            let to = try #require(Self.decimal(m["price"])), from = try #require(Self.decimal(m["from"]))
            #expect(abs(to / from - 1) >= 0.03 - 1e-9, "\(m)")
            #expect(m["type"] as? String == "alert" && m["replay"] as? Bool == true && m["fromTime"] is String)
            // The age of the price it used, at its book.
            let ages = try #require(m["ages"] as? [[String: Any]], "\(m)")
            #expect(ages.count == 1 && ages[0]["book"] as? String == m["book"] as? String && ages[0]["seconds"] is NSNumber, "\(ages)")
        }
        // A level already true at first sight is not news: the draw's price is never below 1.01, so it never fires.
        #expect(!alerts.contains { $0["kind"] as? String == "price" })
        let kinds = Set(alerts.compactMap { $0["kind"] as? String })
        #expect(kinds.isSubset(of: ["move", "goal"]))

        let tsv = try await CLI.run(["alert"] + rules + ["--replay", rec, "--speed", "max"])
        #expect(tsv.status == 0, "\(tsv.stderr)")
        let rows = tsv.stdout.split(separator: "\n")
        #expect(rows.first?.hasPrefix("TIME\tRULE\tKIND") == true && rows.count == alerts.count + 1)
        #expect(rows.dropFirst().allSatisfy { !$0.hasPrefix("TIME\t") })

        let once = try await CLI.run(["alert", "move any 3% in 30s", "--replay", rec, "--speed", "max", "--ndjson", "--once"])
        #expect(once.status == 0 && Self.lines(once.stdout).count == 1, "\(once.stdout)")

        // Without a rule, the config's [[alerts]]: the same alerts, carrying their name.
        let config = dir + "/config.toml"
        try """
            [[alerts]]
            name = "fast moves"
            rule = "move any 3% in 30s"
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let named = try await CLI.run(["alert", "--replay", rec, "--speed", "max", "--ndjson"], env: CLI.environment(["ODDS_CONFIG": config]))
        #expect(named.status == 0, "\(named.stderr)")
        let fromConfig = Self.lines(named.stdout)
        #expect(fromConfig.count == moves.count && fromConfig.allSatisfy { $0["name"] as? String == "fast moves" && $0["kind"] as? String == "move" })
        try """
            [[alerts]]
            name = "typo"
            rule = "move any 3 in 30s"
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let typo = try await CLI.run(["alert", "--replay", rec, "--speed", "max"], env: CLI.environment(["ODDS_CONFIG": config]))
        #expect(typo.status == 2 && typo.stderr.contains("[[alerts]]") && typo.stderr.contains("(typo)") && typo.stderr.contains("word 3"),
                "\(typo.stderr)")

        let team = try #require(moves.first?["home"] as? String)
        let one = try await CLI.run(["alert", "move any 3% in 30s", "--replay", rec, "--speed", "max", "--ndjson", "--match", team])
        let mine = Self.lines(one.stdout)
        #expect(!mine.isEmpty && mine.allSatisfy { $0["home"] as? String == team || $0["away"] as? String == team })
    }

    @Test("--exec runs once per alert beside the output; a webhook that cannot be reached is a warning and a count, never the exit code")
    func delivery() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("odds-alert-exec-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let rec = dir + "/rec.ndjson", script = dir + "/hook.sh"
        try "#!/bin/sh\nprintf '%s\\n' \"$ODDS_ALERT_KIND $ODDS_ALERT_PRICE\" >> \"$1\"\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let record = try await CLI.run(["record", "--provider", "tickodds", "--demo", "--limit", "300", "-o", rec],
                                       env: CLI.environment(["ODDS_DEMO_TICK": "0.01"]))
        #expect(record.status == 0, "\(record.stderr)")
        // A port nothing listens on: each POST is refused.
        let run = try await CLI.run(["alert", "move any 3% in 30s", "--replay", rec, "--speed", "max", "--ndjson",
                                     "--exec", "\(script) \(dir)/ran.txt", "--webhook", "http://127.0.0.1:9/hook"], timeout: 90)
        #expect(run.status == 0, "\(run.stderr)")
        let alerts = Self.lines(run.stdout)
        #expect(!alerts.isEmpty)
        let ran = (try? String(contentsOfFile: dir + "/ran.txt", encoding: .utf8)) ?? ""
        #expect(ran.split(separator: "\n").count == alerts.count && ran.split(separator: "\n").allSatisfy { $0.hasPrefix("move ") })
        #expect(run.stderr.contains("--webhook: an alert was not delivered"), "\(run.stderr)")
        #expect(run.stderr.contains("\(alerts.count) alert deliveries failed") || (alerts.count == 1 && run.stderr.contains("1 alert delivery failed")),
                "\(run.stderr)")
    }

    @Test("--provider all: one alert a goal of a real match, however many providers tell it; each names its fused match")
    func fused() async throws {
        let run = try await CLI.run(["alert", "goal", "--provider", "all", "--sport", "soccer", "--demo", "--ndjson", "--timeout", "12s"],
                                    env: CLI.environment(["ODDS_DEMO_TICK": "0.05"]), timeout: 90)
        #expect(run.status == 0, "\(run.stderr)")
        let goals = Self.lines(run.stdout)
        #expect(!goals.isEmpty && goals.allSatisfy { $0["fusedMatch"] is String })
        var told: [String: [(minute: Int, team: String?)]] = [:]
        for g in goals {
            let incident = g["incident"] as? [String: Any]
            let minute = incident?["minute"] as? Int ?? -100, team = incident?["team"] as? String
            let match = g["fusedMatch"] as? String ?? ""
            #expect(!(told[match] ?? []).contains { abs($0.minute - minute) <= 2 && ($0.team == nil || team == nil || $0.team == team) },
                    "\(match) told twice at \(minute)'")
            told[match, default: []].append((minute, team))
        }
    }

    @Test("A bad rule is one sentence naming the word, exit 64, before anything connects; --timeout with nothing fired is exit 10; stale")
    func errors() async throws {
        let bad = try await CLI.run(["alert", #"price "Arsenal" >== 2.50"#, "--provider", "tickodds", "--demo"])
        #expect(bad.status == 64 && bad.stdout.isEmpty)
        #expect(bad.stderr.contains("word 3 ('>==')") && bad.stderr.contains("comparison") && !bad.stderr.contains("DEMO"), "\(bad.stderr)")
        let none = try await CLI.run(["alert", "--provider", "tickodds", "--demo"])
        #expect(none.status == 64 && none.stderr.contains("at least one rule"))
        let quiet = try await CLI.run(["alert", #"price "Nobody FC" >= 2"#, "--provider", "tickodds", "--demo", "--timeout", "2s"])
        #expect(quiet.status == 10 && quiet.stdout.isEmpty && quiet.stderr.contains("No rule fired within --timeout."), "\(quiet.stderr)")
        // A frozen simulator sends its snapshot, then only a heartbeat every 15 s: a 2 s silence is stale.
        let stale = try await CLI.run(["alert", "stale 2s", "--provider", "tickodds", "--demo", "--once", "--timeout", "20s", "--ndjson"])
        let said = Self.lines(stale.stdout)
        #expect(stale.status == 0 && said.count == 1 && said.first?["kind"] as? String == "stale" && said.first?["provider"] as? String == "tickodds",
                "\(stale.stdout) \(stale.stderr)")
    }
}
