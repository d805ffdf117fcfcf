import Foundation
import OddsDashboard
import OddsJSON
import OddsModel
import OddsOutput
import Testing

/// Provider text never drives the user's terminal.
import OddsTestSupport

@Suite("Terminal safety through the CLI")
struct TerminalSafetyCLITests {
    @Test("odds live on a recording with a hostile team name: table, TSV and CSV carry no control character; JSON escapes it")
    func liveReplay() async throws {
        let name = JSONWriter.quote(HostileText.sample)
        let event = "{\"fixtureId\":\"9\",\"sportName\":\"Soccer\",\"league\":\(name),\"home\":\(name),\"away\":\"Chelsea\",\"status\":\"in_progress\",\"marketGroups\":[{\"name\":\(name),\"key\":\"full_time_result\",\"selections\":[{\"name\":\(name),\"odds\":2.10,\"side\":\"home\"}]}]}"
        let line = "{\"t\":1795439194362,\"feed\":\"tickodds/live\",\"frame\":{\"type\":\"snapshot\",\"events\":[\(event)]}}\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("odds-hostile-\(UUID().uuidString).ndjson").path
        try line.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        for (flag, allowed) in [(["--format", "table"], Set<UInt32>([0x0A])), (["--format", "tsv"], [0x09, 0x0A]), (["--csv"], [0x0D, 0x0A]), (["--ndjson"], [0x0A])] {
            let r = try await CLI.run(["live", "--replay", file] + flag)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("Arsenal"), "\(flag): \(r.stdout)")
            #expect(HostileText.controls(r.stdout, allowing: allowed).isEmpty, "\(flag)")
        }
    }
}
