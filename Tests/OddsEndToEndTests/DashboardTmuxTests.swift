import Foundation
import OddsSimulator
import OddsTestSupport
import Testing

/// Runs `odds dash --demo` in a real terminal (tmux) and looks at the screen as a person would.
@Suite("The dashboard in tmux", .serialized, .timeLimit(.minutes(3)))
struct DashboardTmuxTests {
    static let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// One tmux server of its own (`-L`), so a test never touches the user's tmux and `kill` ends everything.
    struct Session {
        let name = "odds-test-\(UUID().uuidString.prefix(8))"
        let tmux: String

        /// Runs one tmux command, bounded; its output is read from a file, since a daemonizing server would
        /// hold a pipe open.
        @discardableResult
        func run(_ args: [String], output: Bool = false) async throws -> String {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: file) }
            let command = try Subprocess(tmux, ["-L", name] + args, stdout: output ? file.path : nil)
            try await command.exit(timeout: 20, what: "tmux \(args.first ?? "")")
            return output ? (try String(contentsOf: file, encoding: .utf8)) : ""
        }

        func start(_ command: String) async throws {
            try await run(["new-session", "-d", "-s", name, "-x", "120", "-y", "40", "sh"])
            // Type the command once the shell shows its prompt.
            try await waitFor("the shell prompt", timeout: 10) { $0.contains("$") || $0.contains("#") }
            try await run(["send-keys", "-t", name, "-l", command])
            try await run(["send-keys", "-t", name, "Enter"])
        }

        func keys(_ keys: String...) async throws { try await run(["send-keys", "-t", name] + keys) }
        func capture() async throws -> String { try await run(["capture-pane", "-p", "-t", name], output: true) }
        func display(_ format: String) async throws -> String {
            try await run(["display-message", "-p", "-t", name, format], output: true)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        /// Ends the session's own server and whatever still runs in it.
        func kill() async { _ = try? await run(["kill-server"]) }

        /// Polls the screen until `condition` holds (bounded).
        @discardableResult
        func waitFor(_ what: String, timeout: Double = 30, _ condition: (String) -> Bool) async throws -> String {
            let deadline = Date().addingTimeInterval(timeout)
            var screen = ""
            while Date() < deadline {
                screen = try await capture()
                if condition(screen) { return screen }
                try await Task.sleep(nanoseconds: 100_000_000)
            }
            let state = (try? await display("#{pane_current_command} alternate=#{alternate_on} size=#{pane_width}x#{pane_height}")) ?? ""
            throw TimedOut(what: "\(what); pane: \(state); screen was:\n\(screen)")
        }
    }

    /// Runs `body` in a new session and always ends the session's server afterwards.
    static func withSession(_ body: (Session) async throws -> Void) async throws {
        guard let tmux else { Issue.record("tmux is not installed"); return }
        let session = Session(tmux: tmux)
        do {
            try await body(session)
        } catch {
            await session.kill()
            throw error
        }
        await session.kill()
    }

    static func command(_ extra: String = "") -> String {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("odds-dash-test-\(UUID().uuidString)").path
        return "env -i PATH=/usr/bin:/bin HOME=\(config) XDG_CONFIG_HOME=\(config) LANG=C.UTF-8 TERM=xterm-256color "
            + "ODDS_DEMO_TICK=0.3 \(extra)"
    }

    /// The shell's `EXIT=<status>` line, once the command has ended (the typed command line also holds "EXIT=$?").
    static func exitLine(_ screen: String) -> String? {
        screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("EXIT=") && $0.count > 5 && $0.dropFirst(5).allSatisfy(\.isNumber) }
    }

    /// Everything between the header and the ticker: the part that must change on its own.
    static func table(_ screen: String) -> String {
        screen.split(separator: "\n", omittingEmptySubsequences: false).prefix(30).dropFirst(2).joined(separator: "\n")
    }

    @Test("With --history the dashboard keeps what it shows, and quits as without")
    func keepsHistory() async throws {
        let db = FileManager.default.temporaryDirectory.appendingPathComponent("odds-dash-history-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: db + suffix) } }
        try await Self.withSession { session in
            try await session.start(Self.command() + "\(CLI.binary.path) dash --provider tickodds --demo --history \(db); echo EXIT=$?")
            _ = try await session.waitFor("the table") { $0.contains("DEMO DATA") && $0.contains("Premier Le") }
            try await waitFor("changes kept", timeout: 20) { ((try? HistoryCLITests.count(db, "price_change")) ?? 0) > 0 }
            try await session.keys("q")
            let after = try await session.waitFor("exit", timeout: 15) { Self.exitLine($0) != nil }
            #expect(Self.exitLine(after) == "EXIT=0")
        }
        #expect(try HistoryCLITests.count(db, "source") > 0)
    }

    @Test("The config's alert rules are live: an alert in the ticker and its row marked; a adds a rule for the selected match")
    func alerts() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("odds-dash-alerts-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: home + "/odds", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        try """
            [[alerts]]
            name = "any move"
            rule = "move any 1% in 60s"
            """.write(toFile: home + "/odds/config.toml", atomically: true, encoding: .utf8)
        try await Self.withSession { session in
            try await session.start("env -i PATH=/usr/bin:/bin HOME=\(home) XDG_CONFIG_HOME=\(home) LANG=C.UTF-8 TERM=xterm-256color "
                                    + "ODDS_DEMO_TICK=0.3 \(CLI.binary.path) dash --provider tickodds --demo; echo EXIT=$?")
            _ = try await session.waitFor("the table") { $0.contains("DEMO DATA") && $0.contains("Premier Le") }
            let fired = try await session.waitFor("an alert in the ticker", timeout: 45) { $0.contains(" ALERT  any move") }
            // The row it fired for is marked.
            #expect(Self.table(fired).split(separator: "\n").contains { $0.hasPrefix("!") }, "\(fired)")
            try await session.keys("a")
            let draft = try await session.waitFor("the rule prompt") { $0.contains("alert: price \"") }
            #expect(draft.contains("Tab next suggestion"))
            try await session.keys("Tab")
            try await session.keys("Enter")
            try await session.waitFor("the rule added") { $0.contains("alert rule added for this session") }
            try await session.keys("q")
            let after = try await session.waitFor("exit", timeout: 15) { Self.exitLine($0) != nil }
            #expect(Self.exitLine(after) == "EXIT=0")
        }
    }

    @Test("b records a bet at a price shown into the history's ledger; without a history it says how to keep one")
    func bet() async throws {
        let db = FileManager.default.temporaryDirectory.appendingPathComponent("odds-dash-bets-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: db + suffix) } }
        try await Self.withSession { session in
            try await session.start(Self.command() + "\(CLI.binary.path) dash --provider tickodds --demo --history \(db); echo EXIT=$?")
            _ = try await session.waitFor("the table") { $0.contains("DEMO DATA") && $0.contains("Premier Le") }
            // The match is kept before it is bet on (the writer's batches are a quarter of a second apart).
            try await waitFor("the match kept", timeout: 20) { ((try? HistoryCLITests.count(db, "price_change")) ?? 0) > 0 }
            try await session.keys("b")
            try await session.waitFor("the stake prompt") { $0.contains("· stake: ▏") }
            for key in ["1", "0", "Enter"] { try await session.keys(key) }
            let recorded = try await session.waitFor("the bet recorded", timeout: 20) { $0.contains("bet 1 recorded") || $0.contains("bet not recorded") }
            #expect(recorded.contains("bet 1 recorded"), "\(recorded)")
            try await session.keys("q")
            let after = try await session.waitFor("exit", timeout: 15) { Self.exitLine($0) != nil }
            #expect(Self.exitLine(after) == "EXIT=0")
        }
        let list = try await CLI.run(["bets", "list", "--history", db, "--json"])
        let bets = try HistoryCLITests.json(list.stdout)
        #expect(bets.count == 1 && bets.first?["stake"] as? NSNumber == 10, "\(list.stdout)\(list.stderr)")
        try await Self.withSession { session in
            try await session.start(Self.command() + "\(CLI.binary.path) dash --provider tickodds --demo --no-history; echo EXIT=$?")
            _ = try await session.waitFor("the table") { $0.contains("DEMO DATA") && $0.contains("Premier Le") }
            for key in ["b", "5", "Enter"] { try await session.keys(key) }
            try await session.waitFor("why no bet was kept") { $0.contains("bets are kept in the history") }
            try await session.keys("q")
            _ = try await session.waitFor("exit", timeout: 15) { Self.exitLine($0) != nil }
        }
    }

    @Test("Fills with matches, updates without a key, filters, opens details, quits and leaves the terminal sane")
    func interactive() async throws { try await Self.withSession { session in
        try await session.start(Self.command() + "\(CLI.binary.path) dash --provider tickodds --demo; echo EXIT=$?")
        let first = try await session.waitFor("the table") { $0.contains("DEMO DATA") && $0.contains("Premier Le") }
        #expect(first.contains("LATEST INCIDENT"))
        #expect(first.contains("鹿島アントラーズ") || first.contains("セレッソ大阪"))
        // No key pressed: clocks, scores and prices move by themselves.
        var last = try await session.waitFor("a change without a key press") { Self.table($0) != Self.table(first) }
        // And it goes on changing (the loop once stopped after a second or two until a key was pressed): five
        // more changes, each looked for a second after the one before.
        for _ in 0..<5 {
            try await Task.sleep(nanoseconds: 1_000_000_000)
            let seen = last
            last = try await session.waitFor("the table still changing without a key press") { Self.table($0) != Self.table(seen) }
        }

        // Ctrl-U clears what was typed and Ctrl-W deletes a word, as in a shell; neither is typed into the filter.
        try await session.keys("/")
        for c in "Premier" { try await session.keys(String(c)) }
        try await session.keys("C-u")
        for c in "Bay Lea" { try await session.keys(String(c)) }
        try await session.keys("C-w")
        try await session.keys("C-w")
        for c in "Bayern" { try await session.keys(String(c)) }
        try await session.keys("Enter")
        let filtered = try await session.waitFor("the filter") { $0.contains("filter: Bayern") }
        #expect(filtered.contains("Bayern München"))
        #expect(!filtered.contains("Premier Lea"))
        try await session.keys("Escape")
        try await session.waitFor("the filter cleared") { !$0.contains("filter: Bayern") && $0.contains("Premier Le") }

        try await session.keys("Enter")
        let detail = try await session.waitFor("the detail pane") { $0.contains("Both Teams to Score") && $0.contains("Incidents") }
        #expect(detail.contains("Fulltime Result"))
        try await session.keys("Escape")
        try await session.waitFor("back to the table") { $0.contains("LATEST INCIDENT") }

        // Resized at any moment: narrower, too small, and back.
        try await session.run(["resize-window", "-t", session.name, "-x", "80", "-y", "24"])
        try await session.waitFor("the 80-column layout") { screen in
            screen.contains("DEMO DATA") && !screen.contains("LATEST INCIDENT")
                && screen.split(separator: "\n").allSatisfy { $0.count <= 80 }
        }
        try await session.run(["resize-window", "-t", session.name, "-x", "40", "-y", "10"])
        try await session.waitFor("the too-small notice") { $0.contains("terminal too small") }
        try await session.run(["resize-window", "-t", session.name, "-x", "120", "-y", "40"])
        try await session.waitFor("the full layout again") { $0.contains("LATEST INCIDENT") }

        try await session.keys("q")
        let after = try await session.waitFor("exit") { Self.exitLine($0) != nil }
        #expect(Self.exitLine(after) == "EXIT=0")
        #expect(try await session.display("#{alternate_on}") == "0")
        #expect(try await session.display("#{cursor_flag}") == "1")
    } }

    @Test("--provider all: one row per real match with its sources counted, each provider's state, and a detail grid of sources")
    func fused() async throws { try await Self.withSession { session in
        try await session.start(Self.command() + "\(CLI.binary.path) dash --provider all --demo; echo EXIT=$?")
        // Wide enough for every provider's name and state in the header.
        try await session.run(["resize-window", "-t", session.name, "-x", "160", "-y", "45"])
        let first = try await session.waitFor("the fused table") { screen in
            ["pulsescore ●", "tickodds ●", "boltodds ●", "sportsapi ●", "sportsapi-v1 ●"].allSatisfy(screen.contains) && screen.contains("SRC")
        }
        #expect(first.contains("DEMO DATA") && first.contains("All providers"))
        // Every provider has the live matches: rows of five sources, with the best price's book.
        try await session.waitFor("rows of five sources") { screen in
            screen.split(separator: "\n").dropFirst(2).prefix(40).filter { $0.contains(try! Regex(#" 5 +\d+\.\d\d [A-Za-z0-9]"#)) }.count >= 5
        }
        // Value mode: a MARGIN column with each row's margin; the detail grid gains margins, fair prices and EVs.
        try await session.keys("v")
        try await session.waitFor("the MARGIN column") { screen in
            screen.contains("MARGIN") && screen.split(separator: "\n").dropFirst(2).prefix(12)
                .contains { $0.contains(try! Regex(#"(ARB )?-?\d+\.\d\d%"#)) }
        }
        try await session.keys("Enter")
        // The pane may be drawn before every source's grid has its prices: wait for the grid's figures too.
        let detail = try await session.waitFor("the sources and the grid with margins, fair prices and EVs") { screen in
            screen.contains("fused m") && screen.contains("  age  ") && screen.contains("  margin ") && screen.contains(" fair ")
                && screen.contains(try! Regex(#"\d\.\d\d[▲▼]? [+-]\d+\.\d\d%"#))
        }
        #expect(["pulsescore", "tickodds", "boltodds", "sportsapi"].allSatisfy(detail.contains))
        #expect(detail.contains("Match result"))
        // SportsAPIPro's match channels follow the fused detail pane: its statistics and lineups arrive (at the end,
        // which G keeps in view as they do). Five feeds through a debug build on cores the rest of the suite keeps
        // busy: the dashboard falls behind the demo's feeds there (a provider shows stale), so the wait is long.
        let deadline = Date().addingTimeInterval(90)
        var screen = ""
        repeat {
            try await session.keys("G")
            screen = try await session.capture()
            if screen.contains("Statistics") || screen.contains("Lineups") { break }
            try await Task.sleep(nanoseconds: 250_000_000)
        } while Date() < deadline
        #expect(screen.contains("Statistics") || screen.contains("Lineups"), "no statistics or lineups from the match channels; screen was:\n\(screen)")
        try await session.keys("Escape")
        try await session.waitFor("back to the table") { $0.contains("SRC") }
        try await session.keys("q")
        let after = try await session.waitFor("exit") { Self.exitLine($0) != nil }
        #expect(Self.exitLine(after) == "EXIT=0")
        #expect(try await session.display("#{alternate_on}") == "0")
    } }

    @Test("SportsAPIPro: rows with scores; the detail pane fills with statistics and lineups from the match channels")
    func sportsAPIDetail() async throws { try await Self.withSession { session in
        try await session.start(Self.command() + "\(CLI.binary.path) dash --provider sportsapi --demo; echo EXIT=$?")
        let first = try await session.waitFor("the table") { $0.contains("SportsAPIPro v2") && $0.contains("Newcastle") }
        #expect(first.contains("LATEST INCIDENT") && first.contains("DEMO DATA"))
        // The rows on screen follow their incidents: the latest shows in its column.
        try await session.waitFor("a latest incident in a row") { screen in
            screen.split(separator: "\n").dropFirst(2).prefix(12).contains { row in
                ["' goal", "' yellow card", "' red card", "' substitution", "' injury time", "' ht", "' var"].contains(where: row.contains)
            }
        }
        // And their odds: the best price across books with its book, in the 1 / X / 2 columns of most rows.
        try await session.waitFor("prices in the rows") { screen in
            screen.split(separator: "\n").dropFirst(2).prefix(12).filter { row in
                row.contains(try! Regex(#"\d+\.\d\d [a-zA-Z]"#))
            }.count >= 6
        }
        try await session.keys("Enter")
        let detail = try await session.waitFor("statistics in the detail pane") {
            $0.contains("Statistics") && $0.contains("Ball possession")
        }
        // Each statistics group under its own heading: a name that two groups share is not a duplicate line.
        #expect(detail.contains("Match overview") && detail.contains("    Total shots"))
        #expect(detail.contains("Incidents"))
        // Each price's line since the dashboard first saw it, beside the grid.
        #expect(detail.contains("lines: since") && detail.contains(try! Regex("[▁▂▃▄▅▆▇█]{8}")))
        // The lineups, further down.
        try await session.keys("NPage")
        try await session.waitFor("lineups in the detail pane") { $0.contains("Lineups") }
        try await session.keys("Escape")
        try await session.waitFor("back to the table") { $0.contains("LATEST INCIDENT") }
        try await session.keys("q")
        let after = try await session.waitFor("exit") { Self.exitLine($0) != nil }
        #expect(Self.exitLine(after) == "EXIT=0")
        #expect(try await session.display("#{alternate_on}") == "0")
    } }

    @Test("watch on a terminal: a line per incident under a score line; --bell rings on the goal, not on a yellow card; Ctrl-C ends it with exit 0")
    func watchOnATerminal() async throws { try await Self.withSession { session in
        // The demo world of seed 42, fast: Brighton v Arsenal has a yellow card at 19' and a goal at 74'.
        try await session.start(Self.command("ODDS_DEMO_TICK=0.05 ") + "\(CLI.binary.path) watch Arsenal --bell --demo; echo EXIT=$?")
        let card = try await session.waitFor("a yellow card under the score line") { s in
            s.contains("YELLOW CARD") && s.contains("Brighton") && s.contains("Arsenal")
        }
        #expect(card.contains("DEMO"))
        #expect(!card.contains("connecting"), "no connection chatter on the score line")
        // A detached tmux session keeps the bell flag of its window.
        if !card.contains("GOAL") { #expect(try await session.display("#{window_bell_flag}") == "0") }
        let goal = try await session.waitFor("the goal", timeout: 60) { $0.contains("GOAL") }
        // SportsAPIPro (watch's default) names teams in full, as SofaScore does.
        #expect(goal.contains("Brighton & Hove Albion 1-0"), "\(goal)")
        #expect(try await session.display("#{window_bell_flag}") == "1")
        try await session.keys("C-c")
        let after = try await session.waitFor("exit") { Self.exitLine($0) != nil }
        #expect(Self.exitLine(after) == "EXIT=0")
    } }

    @Test("SIGTERM, SIGINT and SIGHUP restore the terminal and exit 0", arguments: [SIGTERM, SIGINT, SIGHUP])
    func terminationSignal(_ signal: Int32) async throws { try await Self.withSession { session in
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("odds-dash-\(UUID().uuidString).pid").path
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        try await session.start(Self.command() + "sh -c 'echo $$ > \(pidFile); exec \(CLI.binary.path) dash --demo'; echo EXIT=$?")
        try await session.waitFor("the table") { $0.contains("DEMO DATA") && $0.contains("Premier Le") }
        let pid = try #require(Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, signal) == 0)
        let after = try await session.waitFor("exit") { Self.exitLine($0) != nil }
        #expect(Self.exitLine(after) == "EXIT=0")
        #expect(try await session.display("#{alternate_on}") == "0")
        #expect(try await session.display("#{cursor_flag}") == "1")
    } }

    @Test("A feed that stops (a rejected key) shows why; q then exits 3 and the terminal is sane")
    func feedError() async throws {
        try await withSimulator { sim, _ in
            try await Self.withSession { session in
                let env = "ODDS_TICKODDS_KEY=rejected-key-123 ODDS_TICKODDS_URL=\(sim.restURL(.tickodds)) "
                    + "ODDS_TICKODDS_WS_URL=\(sim.webSocketURL(.tickodds)) "
                try await session.start(Self.command(env) + "\(CLI.binary.path) dash --provider tickodds; echo EXIT=$?")
                let stopped = try await session.waitFor("the stopped state") { $0.contains("stopped:") }
                #expect(stopped.contains("TickOdds"))
                #expect(!stopped.contains("rejected-key-123"))
                try await session.keys("q")
                let after = try await session.waitFor("exit") { Self.exitLine($0) != nil }
                #expect(Self.exitLine(after) == "EXIT=3")
                #expect(after.contains("odds: TickOdds rejected the API key"))
                #expect(!after.contains("rejected-key-123"))
                #expect(try await session.display("#{alternate_on}") == "0")
                #expect(try await session.display("#{cursor_flag}") == "1")
            }
        }
    }

    @Test("q while the WebSocket upgrade hangs (connecting): the dashboard exits 0 within about a second, terminal sane")
    func quitWhileConnecting() async throws {
        let (fd, port) = try PromptExitTests.silentListener()
        defer { close(fd) }
        try await Self.withSession { session in
            let env = "ODDS_TICKODDS_KEY=key-0123456789 ODDS_TICKODDS_WS_URL=ws://127.0.0.1:\(port)/ws/live "
            try await session.start(Self.command(env) + "\(CLI.binary.path) dash --provider tickodds; echo EXIT=$?")
            _ = try await session.waitFor("connecting") { $0.contains("connecting") }
            try await Task.sleep(nanoseconds: 300_000_000)
            let pressed = Date()
            try await session.keys("q")
            let after = try await session.waitFor("exit", timeout: 15) { Self.exitLine($0) != nil }
            let seconds = Date().timeIntervalSince(pressed)
            #expect(Self.exitLine(after) == "EXIT=0")
            // tmux is polled every 100 ms: the bound includes that.
            #expect(seconds < 1.5, "took \(seconds) s to exit")
            #expect(try await session.display("#{alternate_on}") == "0")
        }
    }

    @Test("Not a terminal: refuses with a clear message and exit 64")
    func notATerminal() async throws {
        let r = try await CLI.run(["dash", "--demo"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("odds stream"))
        #expect(r.stdout.isEmpty)
    }
}
