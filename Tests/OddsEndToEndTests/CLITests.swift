import Foundation
import OddsSimulator
import OddsSimulatorFaults
import OddsTransport
import OddsModel
import Logging
import OddsTestSupport
import Testing

@Suite("The odds binary", .timeLimit(.minutes(3)))
struct CLITests {
    @Test("odds --version: one line whose first word is the version, then the commit, build date and Swift version")
    func version() async throws {
        let r = try await CLI.run(["--version"])
        #expect(r.status == 0 && r.stderr.isEmpty)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let line = String(lines.first ?? "")
        #expect(line.split(separator: " ").first.map(String.init) == OddsVersion.current)
        // A plain `swift build` knows no commit or date ("unknown"); `make` passes them (checked by .ci/install-check).
        #expect(line.contains(try Regex(#"^\d+\.\d+\.\d+ \(commit ([0-9a-f]{12}(-dirty)?|unknown), built (\d{4}-\d\d-\d\d|unknown), Swift \d+\.\d+"#)), "\(line)")
    }

    @Test("odds help --help lists the reference topics (made only when a help text may show them)")
    func helpTopics() async throws {
        let r = try await CLI.run(["help", "--help"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("EXIT CODES") && r.stdout.contains("STREAM LINES"), "\(r.stdout.prefix(400))")
    }

    @Test("Demo JSON: golden, fixed field names, and labelled as demo")
    func demoJSON() async throws {
        let r = try await CLI.run(["live", "--sport", "soccer", "--demo", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("DEMO MODE"))
        try CLI.expectGolden(r.stdout, "live-pulsescore.json")
        let events = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(!events.isEmpty)
        for e in events {
            #expect(Set(e.keys) == ["provider", "id", "sport", "league", "home", "away", "status", "startTime", "score", "scoreText",
                                    "clock", "period", "markets", "incidents", "stats", "lineups", "updatedAt", "demo"])
            #expect(e["demo"] as? Bool == true)
            let markets = try #require(e["markets"] as? [[String: Any]])
            let selection = try #require((markets.first?["selections"] as? [[String: Any]])?.first)
            // The main market is read for value: its selections gain a fair price and their prices an EV and whether it is the best price (one book: each is).
            #expect(Set(selection.keys) == ["name", "line", "suspended", "isMain", "price", "fair"])
            let price = try #require(selection["price"] as? [String: Any])
            #expect(Set(price.keys) == ["decimal", "american", "fractional", "probability", "book", "ev", "best"])
            #expect(markets.first?["margin"] is NSNumber)
        }
    }

    @Test("Demo table, TSV, CSV and NDJSON from TickOdds: goldens")
    func demoFormats() async throws {
        let table = try await CLI.run(["live", "--provider", "tickodds", "--demo", "--format", "table", "--odds-format", "american"])
        #expect(table.status == 0)
        try CLI.expectGolden(table.stdout, "live-tickodds-table.txt")
        #expect(table.stdout.hasPrefix("DEMO DATA"))
        #expect(!table.stdout.contains("\u{1B}["), "no colour when not a terminal")

        let tsv = try await CLI.run(["live", "--provider", "tickodds", "--demo"])
        #expect(tsv.status == 0)
        try CLI.expectGolden(tsv.stdout, "live-tickodds.tsv")
        let tsvLines = tsv.stdout.split(separator: "\n")
        #expect(tsvLines.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 9 })
        #expect(tsvLines.first?.hasSuffix("\tdemo") == true)
        #expect(tsvLines.dropFirst().allSatisfy { $0.hasSuffix("\ttrue") })

        let csv = try await CLI.run(["live", "--provider", "tickodds", "--demo", "--csv", "--odds-format", "fractional"])
        try CLI.expectGolden(csv.stdout, "live-tickodds.csv")
        #expect(csv.stdout.hasPrefix("provider,id,") && csv.stdout.contains(",demo\r\n"))

        let ndjson = try await CLI.run(["live", "--provider", "tickodds", "--sport", "basketball", "--demo", "--ndjson"])
        try CLI.expectGolden(ndjson.stdout, "live-tickodds-basketball.ndjson")
        for line in ndjson.stdout.split(separator: "\n") {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any])
        }
    }

    @Test("On a terminal: an aligned, coloured table; NO_COLOR turns colour off",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"),
                   "needs script(1) (bsdutils, which .ci/run installs) to give odds a terminal"))
    func terminalTable() async throws {
        let command = "\(CLI.binary.path) live --provider tickodds --demo"
        let script = URL(fileURLWithPath: "/usr/bin/script")
        let r = try await CLI.run(["-qec", command, "/dev/null"], env: CLI.environment(["COLUMNS": "120", "TERM": "xterm"]),
                                  executable: script)
        #expect(r.status == 0)
        #expect(r.stdout.contains("\u{1B}[1mID"))
        #expect(r.stdout.contains("DEMO DATA"))
        let plain = try await CLI.run(["-qec", command, "/dev/null"],
                                      env: CLI.environment(["COLUMNS": "120", "TERM": "xterm", "NO_COLOR": "1"]), executable: script)
        #expect(!plain.stdout.contains("\u{1B}[1m"))
        #expect(plain.stdout.contains("LEAGUE"))
    }

    @Test("One event in full")
    func event() async throws {
        let r = try await CLI.run(["event", "191691401", "--provider", "tickodds", "--demo", "--format", "table"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Fulltime Result") && r.stdout.contains("Both Teams to Score"))
        let missing = try await CLI.run(["event", "1", "--provider", "tickodds", "--demo"])
        #expect(missing.status == 5)
        #expect(missing.stderr.contains("no live event 1"))
    }

    @Test("A missing key: one sentence naming the variable and config key, exit 2")
    func missingKey() async throws {
        let r = try await CLI.run(["live", "--sport", "soccer"])
        #expect(r.status == 2)
        #expect(r.stderr == "odds: No API key for PulseScore: set ODDS_PULSESCORE_KEY or `key` under [pulsescore] in the config file (or use --demo).\n")
        #expect(r.stdout.isEmpty)
    }

    @Test("Usage errors exit 64: a bad option, two formats, a sport the provider does not serve, an ambiguous match")
    func usage() async throws {
        #expect(try await CLI.run(["live", "--odds-format", "roman"]).status == 64)
        #expect(try await CLI.run(["live", "--json", "--csv", "--demo"]).status == 64)
        let sport = try await CLI.run(["live", "--provider", "sportsapi", "--sport", "curling", "--demo"])
        #expect(sport.status == 64)
        #expect(sport.stderr.contains("SportsAPIPro v2 has no sport 'curling'"))
        let v1 = try await CLI.run(["sportsapi-v1", "live", "--sport", "cricket", "--demo"])
        #expect(v1.status == 64 && v1.stderr.contains("SportsAPIPro v1 has no sport 'cricket'"))
        let channel = try await CLI.run(["sportsapi", "stream", "--channel", "match:1:gossip", "--demo"])
        #expect(channel.status == 64)
        // "a" is in the names of many live matches: they are listed, and none is chosen.
        let ambiguous = try await CLI.run(["watch", "a", "--demo"])
        #expect(ambiguous.status == 64, "\(ambiguous.stderr)")
        #expect(ambiguous.stderr.contains("live matches:") && ambiguous.stderr.contains("Name one by its id."))
        let none = try await CLI.run(["watch", "Nobody United", "--demo"])
        #expect(none.status == 5, "\(none.stderr)")
        let pulse = try await CLI.run(["watch", "Arsenal", "--provider", "pulsescore", "--demo"])
        #expect(pulse.status == 64 && pulse.stderr.contains("sends no incidents"))
    }

    @Test("A rejected key: exit 3, and the key is in no output, even verbose")
    func rejectedKeyNeverPrinted() async throws {
        let sim = Simulator(options: { var o = Simulator.Options(); o.tickInterval = 0; return o }())
        try sim.start()
        
        let secret = "sk-live-TOP-SECRET-4242"
        let env = CLI.environment([
            "ODDS_PULSESCORE_KEY": secret, "ODDS_PULSESCORE_URL": sim.restURL(.pulsescore),
            "ODDS_PULSESCORE_WS_URL": sim.webSocketURL(.pulsescore),
            "ODDS_TICKODDS_KEY": secret, "ODDS_TICKODDS_URL": sim.restURL(.tickodds), "ODDS_TICKODDS_WS_URL": sim.webSocketURL(.tickodds),
        ])
        let runs = [["live", "--verbose"], ["stream", "--verbose", "--limit", "5"], ["stream", "--provider", "tickodds", "--verbose"],
                    ["tickodds", "status", "--verbose"], ["config", "show"], ["config", "show", "--json"]]
        for args in runs {
            let r = try await CLI.run(args, env: env)
            #expect(!r.all.contains(secret), "\(args)")
            if args[0] != "config" { #expect(r.status == 3, "\(args): \(r.stderr)") }
        }
        // With a good key the same commands work, and the verbose log shows the URL with the key masked.
        let good = try await CLI.run(["stream", "--verbose", "--limit", "3"], env: env.merging(["ODDS_PULSESCORE_KEY": "demo-key"]) { $1 })
        await sim.stop()
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stderr.contains("key=***"))
        #expect(!good.all.contains("demo-key"))
    }

    @Test("ODDS_CA_FILE trusts a private CA over HTTPS and WSS; without it exit 7 names the certificate; a bad file is exit 2")
    func privateCA() async throws {
        let tls = try Fixture.simulatorTLS()
        let ca = try Fixture.path("tls/ca.pem")
        let (live, stream, untrusted, missing, shown) = try await withSimulator({ $0.tls = tls }) { sim, _ in
            let env = CLI.environment(["ODDS_TICKODDS_KEY": testKey, "ODDS_TICKODDS_URL": sim.restURL(.tickodds),
                                       "ODDS_TICKODDS_WS_URL": sim.webSocketURL(.tickodds)])
            let trusting = env.merging(["ODDS_CA_FILE": ca]) { $1 }
            return (try await CLI.run(["tickodds", "live", "--json"], env: trusting),
                    try await CLI.run(["stream", "--provider", "tickodds", "--limit", "3"], env: trusting),
                    try await CLI.run(["tickodds", "live"], env: env),
                    try await CLI.run(["tickodds", "live"], env: env.merging(["ODDS_CA_FILE": "/nonexistent/ca.pem"]) { $1 }),
                    try await CLI.run(["config", "show"], env: trusting))
        }

        #expect(live.status == 0, "\(live.stderr)")
        #expect(live.stdout.hasPrefix("[{\"provider\":\"tickodds\""))
        #expect(stream.status == 0, "\(stream.stderr)")
        #expect(stream.stdout.split(separator: "\n").last?.contains("\"type\":\"snapshot\"") == true)
        #expect(untrusted.status == 7)
        #expect(untrusted.stderr.hasPrefix("odds: Cannot reach TickOdds at https://127.0.0.1:"))
        #expect(untrusted.stderr.contains("the TLS certificate of 127.0.0.1 is not trusted"))
        #expect(untrusted.stderr.split(separator: "\n").count == 1)
        #expect(missing.status == 2)
        #expect(missing.stderr == "odds: The CA file /nonexistent/ca.pem (ODDS_CA_FILE) cannot be read.\n")
        #expect(shown.stdout.contains("ca_file\t\(ca)\tenvironment"))
    }

    @Test("odds sim serves until SIGTERM and prints the exports that point odds at it, over HTTP or HTTPS", arguments: [false, true])
    func simCommand(tls: Bool) async throws {
        let certificate = try Fixture.simulatorTLS()
        let args = ["sim", "--tick", "0"] + (tls ? ["--tls-cert", certificate.certificateChainFile, "--tls-key", certificate.privateKeyFile] : [])
        var client: CLI.Result?
        var taken: CLI.Result?
        var faults: [Int] = []
        var after: CLI.Result?
        let sim = try await CLI.run(args) { process, output in
            let deadline = Date().addingTimeInterval(20)
            while !output().contains("ODDS_TICKODDS_WS_URL") && Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
            var env = CLI.environment(["ODDS_TICKODDS_KEY": "demo-key"])
            for line in output().split(separator: "\n") where line.hasPrefix("export ") {
                let pair = line.dropFirst(7).split(separator: "=", maxSplits: 1).map(String.init)
                env[pair[0]] = pair[1]
            }
            if tls { env["ODDS_CA_FILE"] = try Fixture.path("tls/ca.pem") }
            client = try await CLI.run(["tickodds", "sports", "--json"], env: env)
            // The served simulator is the world only: none of the old fault switches answers, and none acts.
            if !tls, let base = env["ODDS_TICKODDS_URL"] {
                try await withTransport { transport in
                    for path in ["/_sim/status", "/_sim/drop", "/_sim/malformed?count=3", "/_sim/silent?on=1", "/_sim/close-all?code=4001",
                                 "/_sim/fail?status=500&count=5", "/_sim/close-next?code=4011", "/_sim/tick?count=100"] {
                        faults.append(try await transport.get(base + path, headers: []).status)
                    }
                }
                after = try await CLI.run(["tickodds", "sports", "--json"], env: env)
            }
            // A second simulator on the same port is refused with one sentence.
            let port = env["ODDS_TICKODDS_URL"].flatMap { URLComponents(string: $0)?.port }
            taken = try await CLI.run(["sim", "--port", String(port ?? 0)])
            process.signal(SIGTERM)
        }
        #expect(sim.status == 0, "\(sim.stderr)")
        #expect(sim.stdout.hasPrefix("# odds simulator (demo data) listening on \(tls ? "https" : "http")://127.0.0.1:"))
        #expect(client?.status == 0, "\(client?.stderr ?? "")")
        #expect(client?.stdout.contains("\"sport\":\"soccer\"") == true)
        #expect(taken?.status == 7)
        #expect(taken?.stderr.hasSuffix(": address already in use.\n") == true, "\(taken?.stderr ?? "")")
        if !tls {
            #expect(faults == Array(repeating: 404, count: 8), "\(faults)")
            #expect(after?.status == 0, "a fault switch acted: \(after?.stderr ?? "")")
        }
    }

    @Test("stream writes NDJSON updates and stops at --limit")
    func stream() async throws {
        let r = try await CLI.run(["stream", "--provider", "tickodds", "--demo", "--limit", "3"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        let types = lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["type"] as? String }
        #expect(types == ["connection", "connection", "snapshot"])
    }

    @Test("Every TickOdds price line of the stream carries the previous price and the direction")
    func streamPriceMoves() async throws {
        let env = CLI.environment(["ODDS_DEMO_TICK": "0.02"])
        let r = try await CLI.run(["stream", "--provider", "tickodds", "--demo", "--limit", "400"], env: env)
        #expect(r.status == 0, "\(r.stderr)")
        let prices = r.stdout.split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["type"] as? String == "price" }
        #expect(prices.count > 20)
        let bare = prices.filter { $0["previous"] == nil || $0["direction"] == nil }
        #expect(bare.isEmpty, "\(bare.count) of \(prices.count) price lines without a move")
    }

    @Test("stream runs until SIGTERM or SIGINT, then exits 0 with a summary", arguments: [SIGTERM, SIGINT])
    func streamSignal(signal: Int32) async throws {
        let env = CLI.environment(["ODDS_DEMO_TICK": "0.05"])
        let r = try await CLI.run(["stream", "--provider", "tickodds", "--demo"], env: env) { process, output in
            let deadline = Date().addingTimeInterval(30)
            while output().split(separator: "\n").count < 10 && Date() < deadline {
                try await Task.sleep(nanoseconds: 50_000_000)
            }
            process.signal(signal)
        }
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").count >= 10)
        #expect(r.stderr.contains("malformed skipped"))
    }

    @Test("BoltOdds boxscore, stats and match-info take a game's label or its short id, and answer about that game")
    func boltOddsDocuments() async throws {
        // A label carries the kick-off's hour, which moves with the demo's clock: every command starts that clock at
        // the same minute, or a minute turning between two of them can move a game into the next hour.
        let env = CLI.environment(["ODDS_DEMO_EPOCH": String(Int(Date().timeIntervalSince1970 / 60) * 60)])
        let list = try await CLI.run(["boltodds", "games", "--demo", "--sport", "NBA", "--json"], env: env)
        #expect(list.status == 0, "\(list.stderr)")
        let games = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        let game = try #require(games.first)
        let (id, label) = (try #require(game["id"] as? String), try #require(game["game"] as? String))
        for sub in ["boxscore", "stats", "match-info"] {
            for typed in [id, label] {
                let r = try await CLI.run(["boltodds", sub, typed, "--demo", "--json"], env: env)
                #expect(r.status == 0, "\(sub) \(typed): \(r.stderr)")
                let answer = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(sub): \(r.stdout.prefix(200))")
                #expect(answer.keys.contains(label), "\(sub) \(typed): \(answer.keys.sorted())")
            }
        }
        let unknown = try await CLI.run(["boltodds", "boxscore", "g0000000", "--demo"])
        #expect(unknown.status == 5 && unknown.stderr.contains("no game with the id"), "\(unknown.status) \(unknown.stderr)")
    }

    @Test("BoltOdds on the demo: live shows each game once with the best price and its book; record and --replay carry all three connections")
    func boltOddsDemo() async throws {
        let live = try await CLI.run(["live", "--provider", "boltodds", "--demo", "--sport", "basketball", "--json"])
        #expect(live.status == 0, "\(live.stderr)")
        let events = try #require(try JSONSerialization.jsonObject(with: Data(live.stdout.utf8)) as? [[String: Any]])
        #expect(!events.isEmpty)
        for e in events {
            #expect(e["sport"] as? String == "basketball" && e["demo"] as? Bool == true)
            let books = Set((e["markets"] as? [[String: Any]] ?? []).compactMap { $0["book"] as? String })
            #expect(books.count == 8, "\(books)")
            #expect(e["score"] is [String: Any], "no live score joined")
        }
        let table = try await CLI.run(["live", "--provider", "boltodds", "--demo", "--sport", "NBA", "--book", "FanDuel", "--book", "draftkings"])
        #expect(table.status == 0)
        for row in table.stdout.split(separator: "\n").dropFirst() {
            let cells = row.split(separator: "\t", omittingEmptySubsequences: false)
            // The 1 and 2 columns name the book whose price is best.
            #expect(cells[5].hasSuffix(" fanduel") || cells[5].hasSuffix(" draftkings") || cells[5] == "SUSP", "\(row)")
        }
        let unknown = try await CLI.run(["live", "--provider", "boltodds", "--demo", "--book", "bet366"])
        #expect(unknown.status == 64 && unknown.stderr.contains("no sportsbook 'bet366'"))
        // Whatever an error sentence quotes reaches the terminal made safe (stderr is made safe in one place).
        let hostile = try await CLI.run(["live", "--provider", "boltodds", "--demo", "--book", "\u{1B}]0;x\u{07}bet"])
        #expect(hostile.status == 64 && hostile.stderr.contains("no sportsbook"))
        #expect(!hostile.stderr.contains("\u{1B}") && !hostile.stderr.contains("\u{07}"), "\(hostile.stderr.debugDescription)")

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("odds-bolt-\(UUID().uuidString).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let rec = try await CLI.run(["record", "--provider", "boltodds", "--demo", "--limit", "30", "-o", file])
        #expect(rec.status == 0, "\(rec.stderr)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        for feed in ["boltodds/odds", "boltodds/scores", "boltodds/pbp"] { #expect(text.contains("\"feed\":\"\(feed)\""), "\(feed)") }
        let replayed = try await CLI.run(["live", "--replay", file, "--json"])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        let again = try #require(try JSONSerialization.jsonObject(with: Data(replayed.stdout.utf8)) as? [[String: Any]])
        #expect(!again.isEmpty && again.allSatisfy { $0["replay"] as? Bool == true && $0["provider"] as? String == "boltodds" })
        #expect(again.contains { $0["score"] is [String: Any] })
    }

    @Test("record --demo, then live, stream and dash --replay: the same decoders, labelled as replayed and as demo")
    func recordReplay() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("odds-rec-\(UUID().uuidString).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let rec = try await CLI.run(["record", "--provider", "tickodds", "--demo", "--limit", "3", "-o", file])
        #expect(rec.status == 0, "\(rec.stderr)")
        #expect(rec.stderr.contains("Recorded 3 frames"))
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.hasPrefix("{\"t\":") && $0.contains("\"feed\":\"tickodds/live\",\"demo\":true,\"frame\":") })

        let json = try await CLI.run(["live", "--replay", file, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stderr.contains("REPLAY: recorded TickOdds data"))
        let events = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(!events.isEmpty)
        #expect(events.allSatisfy { $0["replay"] as? Bool == true && $0["demo"] as? Bool == true })

        let tsv = try await CLI.run(["live", "--replay", file])
        #expect(tsv.stdout.split(separator: "\n").first?.hasSuffix("\tdemo\treplay") == true)

        let stream = try await CLI.run(["stream", "--replay", file, "--speed", "max"])
        #expect(stream.status == 0)
        #expect(stream.stdout.split(separator: "\n").first?.contains("\"type\":\"snapshot\"") == true)
        #expect(stream.stdout.contains("\"replay\":true"))

        let wrong = try await CLI.run(["live", "--replay", file, "--provider", "pulsescore"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.contains("is a recording of TickOdds, not PulseScore"))
        let missing = try await CLI.run(["live", "--replay", file + ".nope"])
        #expect(missing.status == 64)
        let badSpeed = try await CLI.run(["stream", "--replay", file, "--speed", "fast"])
        #expect(badSpeed.status == 64)

        let otherBook = try await CLI.run(["record", "--provider", "tickodds", "--demo", "--limit", "1", "--book", "bet365", "-o", file])
        #expect(otherBook.status == 64)
        #expect(otherBook.stderr.contains("TickOdds carries one book, tickodds; it has no 'bet365'."))
        let ownBook = try await CLI.run(["record", "--provider", "tickodds", "--demo", "--limit", "1", "--book", "TICKODDS", "-o", file])
        #expect(ownBook.status == 0, "\(ownBook.stderr)")
    }

    @Test("--book keeps the named book; a single-book feed refuses another book with exit 64")
    func bookOption() async throws {
        let kept = try await CLI.run(["live", "--provider", "tickodds", "--demo", "--book", "TickOdds", "--csv"])
        #expect(kept.status == 0)
        let rows = kept.stdout.split(whereSeparator: \.isNewline).dropFirst()
        #expect(!rows.isEmpty && rows.allSatisfy { $0.contains(",tickodds,") })
        let refused = try await CLI.run(["live", "--provider", "tickodds", "--demo", "--book", "pinnacle"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("TickOdds carries one book, tickodds; it has no 'pinnacle'."))
    }

    @Test("Numbers from the environment and the config are checked: inf, nan, 1e300 and -1 get one sentence and exit 2", arguments: ["inf", "nan", "1e300", "-1"])
    func hostileSettings(_ value: String) async throws {
        let tick = try await CLI.run(["live", "--demo"], env: CLI.environment(["ODDS_DEMO_TICK": value]))
        #expect(tick.status == 2)
        #expect(tick.stderr.contains("ODDS_DEMO_TICK must be a number of seconds"))
        let epoch = try await CLI.run(["live", "--demo"], env: CLI.environment(["ODDS_DEMO_EPOCH": value]))
        #expect(epoch.status == 2 && epoch.stderr.contains("ODDS_DEMO_EPOCH must be whole seconds since 1970"), "\(epoch.stderr)")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("odds-cfg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("config.toml").path
        try "[tickodds]\nheartbeat_seconds = \"\(value)\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let hb = try await CLI.run(["stream", "--provider", "tickodds", "--demo", "--limit", "1"],
                                   env: CLI.environment(["ODDS_CONFIG": config]))
        #expect(hb.status == 2)
        #expect(hb.stderr.contains("heartbeat_seconds under [tickodds]"))
        let frame = try await CLI.run(["live", "--demo"], env: CLI.environment(["ODDS_MAX_FRAME_MB": value]))
        #expect(frame.status == 2)
    }

    @Test("--book and --sport complete from BoltOdds' last get_info, cached by any command that asked it (never by the demo)")
    func dynamicCompletions() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("odds-cache-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let demo = try await CLI.run(["boltodds", "info", "--demo"], env: CLI.environment(["XDG_CACHE_HOME": cache]))
        #expect(demo.status == 0)
        #expect(!FileManager.default.fileExists(atPath: cache + "/odds/boltodds.json"), "demo names were cached")
        try await withSimulator({ $0.enforceRateLimit = false }) { sim, _ in
            let env = CLI.environment(["XDG_CACHE_HOME": cache, "ODDS_BOLTODDS_KEY": testKey, "ODDS_BOLTODDS_URL": sim.restURL(.boltodds)])
            let info = try await CLI.run(["boltodds", "info"], env: env)
            #expect(info.status == 0, "\(info.stderr)")
        }
        let env = CLI.environment(["XDG_CACHE_HOME": cache])
        let books = try await CLI.run(["---completion", "live", "--", "--book", "3", "2", "odds", "live", "--book", "dr"], env: env)
        #expect(books.stdout.split(separator: "\n") == ["draftkings"], "\(books.stdout) \(books.stderr)")
        let sports = try await CLI.run(["---completion", "live", "--", "--sport", "3", "1", "odds", "live", "--sport", "N"], env: env)
        #expect(sports.stdout.split(separator: "\n").contains("NBA"), "\(sports.stdout)")
        #expect(sports.stdout.split(separator: "\n").allSatisfy { $0.lowercased().hasPrefix("n") })
    }

    @Test("Completions in Completions/ match what the parser generates")
    func completionsCurrent() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for (shell, file) in [("bash", "odds.bash"), ("zsh", "_odds"), ("fish", "odds.fish")] {
            let r = try await CLI.run(["--generate-completion-script", shell])
            let committed = try String(contentsOf: root.appendingPathComponent("Completions/\(file)"), encoding: .utf8)
            #expect(r.stdout == committed, "Completions/\(file) is out of date: run .ci/regenerate-docs")
        }
    }
}


/// Quitting is prompt in every state of the feed.
@Suite("Prompt exit")
struct PromptExitTests {
    /// A TCP port that accepts connections (the kernel's backlog) and never answers: a WebSocket
    /// upgrade to it hangs until its timeout.
    /// A loopback port that accepts connections and never answers; with `listening` false, one that
    /// refuses them, still held (bound, not listening) so that no other test's server takes the port
    /// meanwhile (one did, and answered 401: exit 3).
    static func silentListener(listening: Bool = true) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        guard fd >= 0, bound == 0, !listening || listen(fd, 16) == 0 else { throw Fixture.FixtureMissing(name: "a loopback listener") }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return (fd, Int(UInt16(bigEndian: addr.sin_port)))
    }

    /// Runs `odds stream` against `url`, waits until its output shows `state`, sends SIGTERM and
    /// returns how long the process took to exit.
    static func exitTime(url: String, state: String, key: String = "key-0123456789", signal: Int32 = SIGTERM,
                         then: @escaping @Sendable () async -> Void = {}) async throws -> (CLI.Result, TimeInterval) {
        let env = CLI.environment(["ODDS_TICKODDS_KEY": key, "ODDS_TICKODDS_WS_URL": url])
        let signalled = Eventually<Date>()
        let r = try await CLI.run(["stream", "--provider", "tickodds"], env: env, timeout: 40) { process, output in
            let deadline = Date().addingTimeInterval(20)
            while !output().contains(state) && Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
            await then()
            // An observation window: the process is left in that state before the signal.
            try await Task.sleep(nanoseconds: 300_000_000)
            signalled.set(send(signal, to: process))
        }
        return (r, seconds(from: signalled, to: r))
    }

    /// Sends `signal` and returns when it was sent.
    static func send(_ signal: Int32, to process: Subprocess) -> Date {
        let at = Date()
        process.signal(signal)
        return at
    }

    /// Seconds from the signal to the exit, both as they happened: the exit is the one `Subprocess` saw
    /// from a thread of its own, not when a busy test pool looked.
    static func seconds(from signalled: Eventually<Date>, to r: CLI.Result) -> TimeInterval {
        signalled.wait(seconds: 0).map { r.exitedAt.timeIntervalSince($0) } ?? .infinity
    }

    @Test("SIGTERM or SIGINT while the WebSocket upgrade hangs (connecting): exit 0 within about a second, not after the 10 s timeout",
          arguments: [SIGTERM, SIGINT])
    func whileConnecting(signal: Int32) async throws {
        let (fd, port) = try PromptExitTests.silentListener()
        defer { close(fd) }
        let (r, seconds) = try await PromptExitTests.exitTime(url: "ws://127.0.0.1:\(port)/ws/live", state: "\"state\":\"connecting\"", signal: signal)
        #expect(r.stdout.contains("\"state\":\"connecting\""))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(seconds < 1.5, "took \(seconds) s to exit")
    }

    @Test("SIGTERM or SIGINT during a reconnect wait: exit 0 within about a second", arguments: [SIGTERM, SIGINT])
    func whileWaitingToReconnect(signal: Int32) async throws {
        // A port that refuses: bound, nothing listens.
        let (fd, port) = try PromptExitTests.silentListener(listening: false)
        defer { close(fd) }
        let (r, seconds) = try await PromptExitTests.exitTime(url: "ws://127.0.0.1:\(port)/ws/live", state: "\"state\":\"reconnecting\"", signal: signal)
        #expect(r.stdout.contains("\"state\":\"reconnecting\""))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(seconds < 1.5, "took \(seconds) s to exit")
    }

    @Test("SIGTERM or SIGINT in the middle of a snapshot (half of a large message received, the rest never comes): exit 0 within about a second",
          arguments: [SIGTERM, SIGINT])
    func midSnapshot(signal: Int32) async throws {
        try await withSimulator { sim, _ in
            // A snapshot of about 1.4 MB: more than the socket buffers hold, so the client is mid-message.
            let events = Array(repeating: "{\"fixtureId\":\"1\",\"home\":\"A\",\"away\":\"B\",\"sportName\":\"Soccer\"}", count: 20_000)
            let snapshot = "{\"type\":\"snapshot\",\"events\":[" + events.joined(separator: ",") + "]}"
            let (r, seconds) = try await PromptExitTests.exitTime(url: sim.webSocketURL(.tickodds), state: "\"state\":\"live\"",
                                                                  key: testKey, signal: signal) {
                await sim.injectFirstHalf(snapshot)
            }
            #expect(r.stdout.contains("\"state\":\"live\""))
            #expect(r.status == 0, "\(r.stderr)")
            #expect(seconds < 1.5, "took \(seconds) s to exit")
        }
    }
}

/// Ctrl-C in a one-shot query (issue 18): a REST request to a server that accepts and never answers.
@Suite("Prompt exit of one-shot queries", .timeLimit(.minutes(2)))
struct OneShotInterruptTests {
    /// (signal, whether the parent left SIGINT ignored, as a script's background job has it)
    @Test("SIGINT (also when the parent shell ignores it) or SIGTERM during a hanging request: exit 130 within about a second, no timeout",
          arguments: [(SIGINT, false), (SIGINT, true), (SIGTERM, false)])
    func oneShot(signal: Int32, ignoredByParent: Bool) async throws {
        let (fd, port) = try PromptExitTests.silentListener()
        defer { close(fd) }
        let env = CLI.environment(["ODDS_TICKODDS_KEY": "key-0123456789", "ODDS_TICKODDS_URL": "http://127.0.0.1:\(port)/api/v1",
                                   "ODDS_TICKODDS_WS_URL": "ws://127.0.0.1:\(port)/ws/live"])
        let args = ["live", "--provider", "tickodds"]
        let signalled = Eventually<Date>()
        let held = Eventually<Int32>()
        defer { if let c = held.wait(seconds: 0), c >= 0 { close(c) } }
        let r = try await CLI.run(ignoredByParent ? ["-c", "trap '' INT; exec \"$0\" \"$@\"", CLI.binary.path] + args : args, env: env,
                                  timeout: 30, executable: ignoredByParent ? URL(fileURLWithPath: "/bin/sh") : CLI.binary) { process, _ in
            // Once the request is in (the process is then waiting on the silent server), whatever the machine's load;
            // the connection is held open, never answered.
            let deadline = Date().addingTimeInterval(20)
            var pending = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            while poll(&pending, 1, 0) == 0 && Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
            held.set(accept(fd, nil, nil))
            try await Task.sleep(nanoseconds: 100_000_000)
            signalled.set(PromptExitTests.send(signal, to: process))
        }
        let seconds = PromptExitTests.seconds(from: signalled, to: r)
        #expect(r.status == 130, "\(r.stderr)")
        #expect(seconds < 1.5, "took \(seconds) s to exit")
        #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("Cannot reach"), "\(r.stderr)")
    }
}

@Suite("SportsAPIPro from the binary", .timeLimit(.minutes(3)))
struct SportsAPIProCLITests {
    @Test("live --provider sportsapi: the 1 / X / 2 columns hold each match's best price across its books")
    func liveColumns() async throws {
        let r = try await CLI.run(["live", "--provider", "sportsapi", "--sport", "soccer", "--demo", "--format", "tsv"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = r.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        #expect(rows.count >= 3)
        for row in rows {
            // ID LEAGUE MATCH SCORE TIME 1 X 2 demo
            #expect(row.count == 9 && !row[5].isEmpty && !row[6].isEmpty && !row[7].isEmpty, "\(row)")
        }
    }

    @Test("sportsapi match of an unknown id: not found at once (the server's errors are the channels' answers), each said once with one name in front")
    func unknownMatch() async throws {
        let r = try await CLI.run(["sportsapi", "match", "99999999", "--demo"])
        #expect(r.status == 5, "\(r.stderr)")
        #expect(r.seconds < 10)
        #expect(r.stderr.contains("SportsAPIPro v2: Match not found: 99999999") && !r.stderr.contains("SportsAPIPro v2: SportsAPIPro"), "\(r.stderr)")
        #expect(r.stderr.contains("no match '99999999'"))
    }

    @Test("sportsapi match --json has score, incidents, stats, lineups and odds of several books; labelled demo")
    func matchJSON() async throws {
        let live = try await CLI.run(["sportsapi", "live", "--demo", "--json"])
        #expect(live.status == 0, "\(live.stderr)")
        let events = try #require(try JSONSerialization.jsonObject(with: Data(live.stdout.utf8)) as? [[String: Any]])
        // The match with the most goals: its incidents are not empty.
        func goals(_ e: [String: Any]) -> Int { ((e["score"] as? [String: Int])?.values.reduce(0, +)) ?? 0 }
        // Matches whose id is a multiple of 3 send SofaScore's own odds shape (one book): the others have several.
        let id = try #require(events.filter { Int($0["id"] as? String ?? "").map { $0 % 3 != 0 } ?? false }.max { goals($0) < goals($1) }?["id"] as? String)
        let r = try await CLI.run(["sportsapi", "match", id, "--demo", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let e = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(e["demo"] as? Bool == true && !(((e["incidents"] as? [Any]) ?? []).isEmpty))
        #expect(!((e["stats"] as? [Any]) ?? []).isEmpty)
        let lineups = try #require(e["lineups"] as? [String: Any])
        #expect(((lineups["home"] as? [String: Any])?["starters"] as? [Any])?.count == 11)
        let books = Set(((e["markets"] as? [[String: Any]]) ?? []).compactMap { $0["book"] as? String })
        #expect(books.count >= 2)
        for sub in ["incidents", "stats", "lineups", "odds"] {
            let one = try await CLI.run(["sportsapi", sub, id, "--demo"])
            #expect(one.status == 0 && one.stdout.contains("\ttrue"), "\(sub): \(one.stderr)")
        }
    }

    @Test("watch piped: NDJSON of the match's incidents and scoreboards, labelled demo")
    func watchPiped() async throws {
        let r = try await CLI.run(["watch", "Arsenal", "--demo"], env: CLI.environment(["ODDS_DEMO_TICK": "0.1"]), timeout: 60) { process, output in
            try await waitFor("an incident line", timeout: 40) { output().contains(#""type":"incident""#) }
            process.signal(SIGINT)
        }
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("warning"), "a watch's look-up asks for no odds, and says nothing of them: \(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(["incident", "scoreboard", "score"].contains(object["type"] as? String ?? ""))
            #expect(object["demo"] as? Bool == true)
        }
    }

    @Test("watch to the end: full time's incident, which follows the finished status, is the last line; then exit 0")
    func watchToFullTime() async throws {
        let live = try await CLI.run(["live", "--provider", "sportsapi", "--sport", "soccer", "--demo", "--json"])
        let events = try #require(try JSONSerialization.jsonObject(with: Data(live.stdout.utf8)) as? [[String: Any]])
        let id = try #require(events.first { ($0["status"] as? String) == "live" }?["id"] as? String)
        // A tick of 20 ms plays a match out in seconds; the feed's fetch after full time still takes its own time.
        let r = try await CLI.run(["watch", id, "--demo"], env: CLI.environment(["ODDS_DEMO_TICK": "0.02"]), timeout: 90)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = try r.stdout.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let ended = try #require(lines.firstIndex { $0["type"] as? String == "scoreboard" && $0["status"] as? String == "ended" })
        let incidents = lines.indices.filter { lines[$0]["type"] as? String == "incident" }
        let last = try #require(incidents.last)
        let final = try #require(lines[last]["incident"] as? [String: Any])
        #expect(final["kind"] as? String == "period" && final["detail"] as? String == "FT", "\(final)")
        #expect(last > ended, "full time came before the finished status")
    }

    @Test("ODDS_DEMO_EPOCH starts the demo's clock: the same epoch gives the same labels, an hour later kick-offs an hour later")
    func demoEpoch() async throws {
        func games(_ epoch: Int) async throws -> [(id: String, start: String)] {
            let r = try await CLI.run(["live", "--provider", "boltodds", "--sport", "soccer", "--demo", "--json"],
                                      env: CLI.environment(["ODDS_DEMO_EPOCH": String(epoch)]))
            #expect(r.status == 0, "\(r.stderr)")
            let events = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
            return events.compactMap { e in (e["id"] as? String).flatMap { id in (e["startTime"] as? String).map { (id, $0) } } }
        }
        let epoch = 1_795_784_400  // 2026-11-27T12:20:00Z
        let first = try await games(epoch), again = try await games(epoch), later = try await games(epoch + 3600)
        #expect(!first.isEmpty && first.map(\.id) == again.map(\.id) && first.map(\.start) == again.map(\.start))
        let shifted = zip(first, later).map { a, b in (ISODate.parse(b.start)?.timeIntervalSince(ISODate.parse(a.start) ?? .distantPast)) }
        #expect(!shifted.isEmpty && shifted.allSatisfy { $0 == 3600 }, "\(shifted)")
        #expect(first.allSatisfy { ISODate.parse($0.start).map { $0.timeIntervalSince1970 <= Double(epoch) } ?? false })
        #expect(Set(first.map(\.id)).isDisjoint(with: later.map(\.id)), "a label carries the kick-off's hour")
    }

    @Test("watch follows a match of every provider with incidents: TickOdds and BoltOdds play-by-play too", arguments: ["tickodds", "boltodds"])
    func watchOtherProviders(_ provider: String) async throws {
        // TickOdds and BoltOdds name their games their own way. A BoltOdds label carries the kick-off's hour, which
        // moves with the demo's clock: both commands start that clock at the same minute.
        let epoch = String(Int(Date().timeIntervalSince1970 / 60) * 60)
        let live = try await CLI.run(["live", "--provider", provider, "--sport", "soccer", "--demo", "--json"],
                                     env: CLI.environment(["ODDS_DEMO_EPOCH": epoch]))
        let events = try #require(try JSONSerialization.jsonObject(with: Data(live.stdout.utf8)) as? [[String: Any]])
        let id = try #require(events.first?["id"] as? String)
        let r = try await CLI.run(["watch", id, "--provider", provider, "--demo"],
                                  env: CLI.environment(["ODDS_DEMO_TICK": "0.05", "ODDS_DEMO_EPOCH": epoch]), timeout: 90) { process, output in
            try await waitFor("an incident or scoreboard line", timeout: 60) {
                output().contains(#""type":"incident""#) || output().contains(#""type":"score""#) || output().contains(#""type":"scoreboard""#)
            }
            process.signal(SIGINT)
        }
        #expect(r.status == 0, "\(r.stderr)")
        for line in r.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["provider"] as? String == provider && object["eventId"] as? String == id)
        }
    }

    @Test("live --provider sportsapi-v1 and odds sportsapi-v1 stream")
    func v1() async throws {
        let live = try await CLI.run(["live", "--provider", "sportsapi-v1", "--demo", "--json"])
        #expect(live.status == 0, "\(live.stderr)")
        let events = try #require(try JSONSerialization.jsonObject(with: Data(live.stdout.utf8)) as? [[String: Any]])
        #expect(!events.isEmpty && events.allSatisfy { $0["provider"] as? String == "sportsapi-v1" })
        let stream = try await CLI.run(["sportsapi-v1", "stream", "--channel", "football", "--limit", "3", "--demo"])
        #expect(stream.status == 0, "\(stream.stderr)")
        #expect(stream.stdout.split(separator: "\n").count == 3)
    }
}
