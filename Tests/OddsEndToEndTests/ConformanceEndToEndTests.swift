import Foundation
import OddsProviders
import OddsTestSupport
import Testing

/// The conformance suite's part that needs the binary: record and replay, for every registered provider.
@Suite("Every registered provider, from the binary", .timeLimit(.minutes(3)))
struct ProviderConformanceCLITests {
    static var ids: [String] { ProviderRegistry.ids.map(\.rawValue) }

    @Test("odds record of the demo, then odds live --replay of it: the recorded matches, labelled demo and replay", arguments: ids)
    func recordAndReplay(_ name: String) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("odds-conformance-\(name)-\(UUID().uuidString).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let env = CLI.environment(["ODDS_DEMO_TICK": "0.05"])
        let record = try await CLI.run(["record", "--provider", name, "--demo", "--limit", "12", "--output", file], env: env)
        #expect(record.status == 0, "\(record.stderr)")
        let replay = try await CLI.run(["live", "--replay", file, "--json"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let events = try #require(try JSONSerialization.jsonObject(with: Data(replay.stdout.utf8)) as? [[String: Any]])
        #expect(!events.isEmpty, "\(name): the replay shows nothing")
        #expect(events.allSatisfy { $0["provider"] as? String == name && $0["demo"] as? Bool == true && $0["replay"] as? Bool == true })
    }
}
