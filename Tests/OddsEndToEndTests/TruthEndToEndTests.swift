import Foundation
import Logging
import OddsJSON
import OddsModel
import OddsOutput
import OddsStore
@testable import OddsSportsAPI
@testable import OddsBoltOdds
@testable import OddsCLI
import OddsTransport
import OddsTickOdds
import OddsSimulator
import OddsSimulatorFaults
import OddsTestSupport
import Testing

/// Every sport (issue 18), from the binary: `--sport all`, `--sport` repeated, config, replays that keep what they recorded.
@Suite("Every sport, from the binary", .timeLimit(.minutes(3)))
struct EverySportCLITests {
    static func sports(_ tsv: String) -> Set<String> {
        let rows = tsv.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        guard let header = rows.first, let i = header.firstIndex(of: "SPORT") else { return [] }
        return Set(rows.dropFirst().compactMap { $0.count > i ? $0[i] : nil })
    }

    @Test("--sport all on every provider: several sports, with a SPORT column", arguments: ["tickodds", "pulsescore", "boltodds", "sportsapi", "sportsapi-v1"])
    func all(provider: String) async throws {
        let r = try await CLI.run(["live", "--provider", provider, "--sport", "all", "--demo", "--format", "tsv"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.sports(r.stdout).isSuperset(of: ["soccer", "basketball", "tennis"]), "\(r.stdout.prefix(400))")
    }

    @Test("--sport repeated, and sport = all from the environment; an unknown sport is refused with the list")
    func repeatedAndConfigured() async throws {
        let two = try await CLI.run(["live", "--provider", "tickodds", "--sport", "soccer", "--sport", "tennis", "--demo", "--format", "tsv"])
        #expect(two.status == 0 && Self.sports(two.stdout) == ["soccer", "tennis"], "\(two.stderr)")
        let configured = try await CLI.run(["live", "--provider", "sportsapi", "--demo", "--format", "tsv"],
                                           env: CLI.environment(["ODDS_SPORT": "all"]))
        #expect(configured.status == 0 && Self.sports(configured.stdout).count >= 3, "\(configured.stderr)")
        // One sport: no SPORT column (the table is as before).
        let one = try await CLI.run(["live", "--provider", "tickodds", "--sport", "soccer", "--demo", "--format", "tsv"])
        #expect(one.stdout.hasPrefix("ID\tLEAGUE\t"))
        for provider in ["tickodds", "pulsescore"] {
            let bad = try await CLI.run(["live", "--provider", provider, "--sport", "curling", "--demo"])
            #expect(bad.status == 64 && bad.stderr.contains("no") && bad.stderr.contains("curling") && bad.stderr.contains("soccer"), "\(bad.stderr)")
        }
    }

    @Test("PulseScore --sport all streams a connection per live sport; its replay without --sport shows every recorded sport")
    func pulseScoreRecordAndReplay() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("odds-all-\(UUID().uuidString).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let rec = try await CLI.run(["record", "--provider", "pulsescore", "--sport", "all", "--demo", "--limit", "3", "-o", file])
        #expect(rec.status == 0, "\(rec.stderr)")
        let feeds = Set(try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").compactMap { line -> String? in
            (try? JSONParser.parse(String(line)))?["feed"]?.string
        })
        #expect(feeds.count >= 2 && feeds.allSatisfy { $0.hasPrefix("pulsescore/live-") }, "\(feeds)")
        let replay = try await CLI.run(["live", "--replay", file, "--format", "tsv"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(Self.sports(replay.stdout).count >= 2, "\(replay.stdout.prefix(300))")
        // Asked for one sport, the replay shows that one.
        let soccer = try await CLI.run(["live", "--replay", file, "--sport", "soccer", "--format", "tsv"])
        #expect(soccer.status == 0 && !soccer.stdout.contains("\ttennis\t") && soccer.stdout.contains("Premier League"), "\(soccer.stderr)")
    }
}

@Suite("One warning per bad outcome, from the binary")
struct BadOutcomeCLITests {
    @Test("odds stream --replay says its counts once, not once as a stream and again as a replay")
    func streamReplaySaysOnce() async throws {
        let game = #"{"sport":"EPL","sportsbook":"fanduel","game":"A vs B, 2026-11-24, 03","home_team":"A","away_team":"B","info":{},"outcomes":{"A Moneyline":{"odds":"EVEN","outcome_name":"Moneyline","outcome_target":"A"},"B Moneyline":{"odds":"+120","outcome_name":"Moneyline","outcome_target":"B"}}}"#
        let text = #"{"t":1795440000000,"feed":"boltodds/odds","frame":{"action":"socket_connected"}}"# + "\n"
            + #"{"t":1795440000005,"feed":"boltodds/odds","frame":[{"action":"initial_state","data":"# + game + "}]}\n"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("odds-bad-\(UUID().uuidString).ndjson").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for command in [["stream"], ["live", "--format", "tsv"]] {
            let run = try await CLI.run(command + ["--replay", path, "--speed", "max"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.components(separatedBy: "malformed").count - 1 == 1, "\(command): \(run.stderr)")
            #expect(run.stderr.contains("1 malformed skipped"), "\(run.stderr)")
        }
    }
}
