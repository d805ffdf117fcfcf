import Foundation
@testable import OddsCLI
import OddsModel
import OddsTransport
import OddsTestSupport
import Testing

@Suite("Redaction", .unitLane)
struct RedactionTests {
    @Test("Known secrets and key parameters are masked")
    func redacts() {
        let r = Redactor(secrets: ["s3cret-key-XYZ"])
        #expect(r.redact("GET https://h/ws/live?key=s3cret-key-XYZ&sport=soccer") == "GET https://h/ws/live?key=***&sport=soccer")
        #expect(r.redact("wss://h/ws/live?apiKey=unknownvalue") == "wss://h/ws/live?apiKey=***")
        #expect(r.redact("X-Secret: abcdef") == "X-Secret: ***")
        #expect(r.redact("x-api-key=zzz&y=1") == "x-api-key=***&y=1")
        #expect(r.redact("the key s3cret-key-XYZ leaked") == "the key *** leaked")
        #expect(r.redact("https://host:8080/path") == "https://host:8080/path")
    }

    @Test("joinURL keeps a base URL's query at the end")
    func joinWithQuery() {
        #expect(joinURL("https://h/api?x=1", "/api/v1/live/events") == "https://h/api/api/v1/live/events?x=1")
        #expect(joinURL("https://h/api/", "events") == "https://h/api/events")
        #expect(appendQuery(joinURL("https://h?token=t", "/e"), [("apiKey", "k")]) == "https://h/e?token=t&apiKey=k")
    }

    @Test("Every way a key travels is masked: bearer and other auth schemes, URL userinfo")
    func credentials() {
        let r = Redactor()
        for text in ["Authorization: Bearer unknown-token-123", "sent bearer unknown-token-123 to the server",
                     "Basic dXNlcjpwYXNz=", "wss://user:unknown-token-123@h.example/ws?x=1", "see https://unknown-token-123@h/ws"] {
            let out = r.redact(text)
            #expect(!out.contains("unknown-token-123") && !out.contains("dXNlcjpwYXNz"), "\(out)")
            #expect(out.contains(Redactor.mask), "\(out)")
        }
        #expect(r.redact("wss://user:pw@h.example/ws?x=1") == "wss://***@h.example/ws?x=1")
        #expect(r.redact("sent Bearer abc, then more") == "sent Bearer ***, then more")
        #expect(r.redact("a token is needed") == "a token is needed")
        #expect(r.redact("email me at a@b.c, see https://h/x") == "email me at a@b.c, see https://h/x")
    }
}

@Suite("Config", .unitLane)
struct ConfigTests {
    let toml = """
    provider = "tickodds"
    sport = "tennis"
    odds_format = "american"

    [pulsescore]
    key = "config-pulse-key"
    live_sports_path = "/custom/sports"

    [tickodds]
    key = "config-tick-key"
    url = "http://127.0.0.1:9/tick"
    heartbeat_seconds = 5
    """

    @Test("Environment overrides config; flags override both")
    func precedence() throws {
        let config = try ConfigFile.parse(toml, path: "test.toml")
        let env = ["ODDS_TICKODDS_KEY": "env-tick-key", "ODDS_PULSESCORE_WS_URL": "ws://127.0.0.1:1/ws"]
        let s = try ResolvedSettings.resolve(environment: env, config: config, configPath: "test.toml",
                                             providerFlag: nil, sportFlag: nil, oddsFormatFlag: nil)
        #expect(s.provider == .tickodds && s.providerSource == .config)
        #expect(s.sport == "tennis")
        #expect(s.oddsFormat == .american)
        #expect(s.providers[.tickodds]?.key == "env-tick-key")
        #expect(s.sources[.tickodds]?["key"] == .environment)
        #expect(s.providers[.tickodds]?.restURL == "http://127.0.0.1:9/tick")
        #expect(s.providers[.tickodds]?.options["heartbeat_seconds"] == "5")
        #expect(s.providers[.pulsescore]?.key == "config-pulse-key")
        #expect(s.providers[.pulsescore]?.webSocketURL == "ws://127.0.0.1:1/ws")
        #expect(s.providers[.pulsescore]?.restURL == "https://api.pulsescore.net/api/v2/bet365")
        #expect(s.providers[.pulsescore]?.options["live_sports_path"] == "/custom/sports")
        #expect(s.providers[.pulsescore]?.options["live_event_path"] == "/live-events/{id}")

        let flagged = try ResolvedSettings.resolve(environment: ["ODDS_PROVIDER": "pulsescore"], config: config, configPath: "t",
                                                   providerFlag: .tickodds, sportFlag: "Ice Hockey", oddsFormatFlag: .fractional)
        #expect(flagged.provider == .tickodds && flagged.providerSource == .flag)
        #expect(flagged.sport == "ice-hockey")
        // Sport names match in any case and spelling of the separator.
        for typed in ["SOCCER", "Soccer", "soccer"] {
            #expect(try ResolvedSettings.resolve(environment: [:], config: config, configPath: "t", providerFlag: nil,
                                                 sportFlag: typed, oddsFormatFlag: nil).sport == "soccer")
        }
        for typed in ["ICE_HOCKEY", "ice hockey", "Ice-Hockey"] {
            #expect(try ResolvedSettings.resolve(environment: ["ODDS_SPORT": typed], config: config, configPath: "t", providerFlag: nil,
                                                 sportFlag: nil, oddsFormatFlag: nil).sport == "ice-hockey")
        }
        #expect(flagged.oddsFormat == .fractional)
    }

    @Test("Bad config gets one clear sentence and exit code 2")
    func badConfig() throws {
        do {
            _ = try ResolvedSettings.resolve(environment: [:], config: ConfigFile.parse("[tickodds]\nkey_in = \"body\"", path: "x.toml"),
                                             configPath: "x.toml", providerFlag: nil, sportFlag: nil, oddsFormatFlag: nil)
            Issue.record("expected an error for key_in")
        } catch let e as OddsError {
            #expect(e.exitCode == 2 && e.message.contains("key_in"), "\(e.message)")
        }
        #expect(throws: OddsError.self) { try ConfigFile.parse("provider = ", path: "x.toml") }
        do {
            _ = try ResolvedSettings.resolve(environment: [:], config: ConfigFile.parse(#"provider = "nope""#, path: "x.toml"),
                                             configPath: "x.toml", providerFlag: nil, sportFlag: nil, oddsFormatFlag: nil)
            Issue.record("expected an error")
        } catch let e as OddsError {
            #expect(e.exitCode == 2)
            #expect(e.message.contains("nope"))
        }
    }

    @Test("Favourites are saved into the config file without losing the rest")
    func favourites() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("odds-fav-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("odds/config.toml").path
        try ConfigFile.saveFavourites(["Liverpool"], path: path)
        #expect(try ConfigFile.load(path: path).favourites == ["Liverpool"])
        try toml.write(toFile: path, atomically: true, encoding: .utf8)
        try ConfigFile.saveFavourites(["Beşiktaş", "A \"quoted\" team"], path: path)
        try ConfigFile.saveFavourites(["Beşiktaş", "A \"quoted\" team", "鹿島アントラーズ"], path: path)
        let config = try ConfigFile.load(path: path)
        #expect(config.favourites == ["Beşiktaş", "A \"quoted\" team", "鹿島アントラーズ"])
        #expect(config.provider == "tickodds")
        #expect(config.providers[.tickodds]?["heartbeat_seconds"] == "5")
        #expect(try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "favourites").count == 2)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("A multi-line favourites array is replaced whole; a file that is not TOML is left alone with one sentence")
    func favouritesMultiLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("odds-fav-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("config.toml").path
        let multi = "provider = \"tickodds\"\nfavourites = [\n  \"Arsenal\", # the Gunners [sic]\n  \"Chelsea ]\",\n]\nsport = \"soccer\"\n\n[tickodds]\nkey = \"k\"\n"
        try multi.write(toFile: path, atomically: true, encoding: .utf8)
        try ConfigFile.saveFavourites(["Liverpool"], path: path)
        let config = try ConfigFile.load(path: path)
        #expect(config.favourites == ["Liverpool"])
        #expect(config.sport == "soccer" && config.provider == "tickodds")
        #expect(config.providers[.tickodds]?["key"] == "k")

        let broken = "provider = \"tickodds\"\nfavourites = [\"A\"\n"
        try broken.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: OddsError.self) { try ConfigFile.saveFavourites(["B"], path: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == broken)
    }

    @Test("Config path follows XDG_CONFIG_HOME, then HOME")
    func path() {
        #expect(ConfigFile.path(environment: ["XDG_CONFIG_HOME": "/x"]) == "/x/odds/config.toml")
        #expect(ConfigFile.path(environment: ["HOME": "/home/u"]) == "/home/u/.config/odds/config.toml")
        #expect(ConfigFile.path(environment: ["ODDS_CONFIG": "/etc/o.toml", "XDG_CONFIG_HOME": "/x"]) == "/etc/o.toml")
    }

    @Test("Missing key names the variable and the config key")
    func missingKey() {
        let e = OddsError.missingKey(.sportsapiV1)
        #expect(e.message.contains("ODDS_SPORTSAPI_V1_KEY"))
        #expect(e.message.contains("[sportsapi_v1]"))
        #expect(e.exitCode == 2)
    }

    @Test("Exit codes are distinct per failure class")
    func exitCodes() {
        let codes: [OddsError] = [.usage(""), .missingKey(.pulsescore), .authentication(.pulsescore, ""),
                                  .accessDenied(.pulsescore, ""), .notFound(""), .rateLimited(.pulsescore), .network(""),
                                  .provider(.pulsescore, "")]
        #expect(Set(codes.map(\.exitCode)).count == codes.count)
    }
}

@Suite("Allocator", .unitLane)
struct AllocatorTests {
    @Test("The allocator is set up for the program unless the user set MALLOC_* or GLIBC_TUNABLES")
    func userSettingWins() {
        #expect(Allocator.applies(environment: ["HOME": "/root", "PATH": "/bin"]))
        #expect(!Allocator.applies(environment: ["MALLOC_ARENA_MAX": "4"]))
        #expect(!Allocator.applies(environment: ["MALLOC_TOP_PAD_": "0"]))
        #expect(!Allocator.applies(environment: ["GLIBC_TUNABLES": "glibc.malloc.arena_max=2"]))
    }

    @Test("A replay gets an arena for each thread; every other command one arena")
    func replayProfile() {
        #expect(Allocator.isReplay(["odds", "live", "--replay", "r.ndjson", "--speed", "max"]))
        #expect(Allocator.isReplay(["odds", "dash", "--replay=r.ndjson"]))
        #expect(!Allocator.isReplay(["odds", "live", "--provider", "boltodds"]))
        #expect(!Allocator.isReplay(["odds", "stream", "--replay-speed", "2"]))
        // The program's own path is not a word of the command line.
        #expect(!Allocator.isReplay(["--replay"]))
    }
}

@Suite("Dashboard wake-ups", .unitLane)
struct WakeupTests {
    @Test("A signal before the wait returns it at once; the feed wakes it only when asked; otherwise it sleeps until its deadline")
    func wakeup() async throws {
        let clock = VirtualClock()
        let wakeup = Wakeup(clock: clock)
        // Signalled before: woken, whatever the deadline.
        wakeup.signal()
        #expect(await wakeup.wait(seconds: 60, feed: false))
        // Nothing comes: the deadline, and not before it.
        let idle = Task { await wakeup.wait(seconds: 0.05, feed: false) }
        try await clock.waitForSleeper()
        clock.advance(by: 0.04)
        #expect(clock.sleeping == 1)
        clock.advance(by: 0.01)
        #expect(await idle.value == false)
        // The feed while the loop did not ask for it: no wake-up (the deadline ends the wait, so it returns false).
        let unasked = Task { await wakeup.wait(seconds: 0.3, feed: false) }
        try await clock.waitForSleeper()
        wakeup.feedArrived()
        clock.advance(by: 0.3)
        #expect(await unasked.value == false)
        // Asked for: the feed's message wakes it, with its deadline far off.
        let asked = Task { await wakeup.wait(seconds: 60, feed: true) }
        try await clock.waitForSleeper()
        wakeup.feedArrived()
        #expect(await asked.value)
    }

    @Test("A deadline that passes before the wait parks still ends it: the loop never sleeps until a key")
    func deadlineBeforePark() async throws {
        // The dashboard froze on its first frames: a wait of ~0 s whose timer fired before the wait parked was
        // lost, and with the feed not armed only a key woke the loop again.
        // The race is narrow: four loops of many waits each make it near certain without the fix. A loop is stuck
        // when it makes no progress for 30 s (not when it is slow: in the full run, other tests may hold the
        // cooperative pool that the timers need for seconds at a time).
        final class Progress: @unchecked Sendable {  // `count` and `done` are behind `lock`
            private let lock = NSLock()
            private var count = 0
            private var done = false
            func step() { lock.withLock { count += 1 } }
            func finish() { lock.withLock { done = true } }
            var state: (count: Int, done: Bool) { lock.withLock { (count, done) } }
        }
        let wakeups = (0..<4).map { _ in Wakeup() }
        let progress = wakeups.map { _ in Progress() }
        for (wakeup, p) in zip(wakeups, progress) {
            Task {
                for i in 0..<10_000 {
                    _ = await wakeup.wait(seconds: i % 2 == 0 ? 0 : 0.000_01, feed: false)
                    p.step()
                }
                p.finish()
            }
        }
        var seen = progress.map { _ in (count: -1, since: Date()) }
        var stuck = false
        let deadline = Date().addingTimeInterval(180)
        while !stuck && !progress.allSatisfy({ $0.state.done }) && Date() < deadline {
            try await Task.sleep(nanoseconds: 50_000_000)
            for (i, p) in progress.enumerated() {
                let (count, done) = p.state
                if count != seen[i].count { seen[i] = (count, Date()) } else if !done && Date().timeIntervalSince(seen[i].since) > 30 { stuck = true }
            }
        }
        #expect(!stuck, "a wait whose deadline had passed never returned")
        // A stuck loop is let go, so that nothing outlives the test for long.
        let release = Date().addingTimeInterval(5)
        while !progress.allSatisfy({ $0.state.done }) && Date() < release {
            for w in wakeups { w.signal() }
            try await Task.sleep(nanoseconds: 1_000_000)
        }
    }

    @Test("The key watcher wakes the loop when the input is readable, waits until the keys are read, and stops")
    func keyWatcher() async throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let wakeup = Wakeup()
        let watcher = try #require(KeyWatcher(fd: fds[0]) { wakeup.signal() })
        var byte: UInt8 = 0x6A
        #expect(write(fds[1], &byte, 1) == 1)
        #expect(await wakeup.wait(seconds: 60, feed: false), "the key woke the loop, not its deadline")
        // The byte is read, as curses would, then the watcher looks again.
        #expect(read(fds[0], &byte, 1) == 1)
        watcher.keysRead()
        watcher.stop()
    }
}
