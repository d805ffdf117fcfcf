import Foundation
@testable import OddsCLI
import OddsProviders
import OddsTestSupport
import Testing

/// The providers' settings are written once, in their descriptors; `odds help providers`, the man page
/// and docs/providers.md show them from there (issue 19).
@Suite("Provider docs from the descriptors", .unitLane)
struct ProviderDocsTests {
    @Test("odds help providers lists every setting of every provider with its default, and says which are inferred")
    func helpTopic() {
        let text = Docs.providers
        for d in ProviderRegistry.descriptors {
            #expect(text.contains("\(d.id.rawValue) (\(d.summary))"))
            #expect(text.contains("\(d.id.displayName.uppercased()): \(d.notes)"))
            for o in d.settingDefaults {
                #expect(text.contains("  [\(d.id.configName)] \(o.key) = \(o.value)\(o.documented ? "\n" : "  (inferred)\n")"), "\(d.id) \(o.key)")
            }
        }
    }

    @Test("docs/providers.md's settings table is the one the descriptors make (ODDS_UPDATE_GOLDENS=1 rewrites it)")
    func markdownTable() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/providers.md").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let open = "<!-- settings: generated -->\n", close = "<!-- end settings -->"
        let start = try #require(text.range(of: open)), end = try #require(text.range(of: close))
        let table = String(text[start.upperBound..<end.lowerBound])
        if ProcessInfo.processInfo.environment["ODDS_UPDATE_GOLDENS"] == "1" {
            try (String(text[..<start.upperBound]) + Docs.providersMarkdownTable + String(text[end.lowerBound...]))
                .write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        #expect(table == Docs.providersMarkdownTable, "docs/providers.md is out of date; rerun with ODDS_UPDATE_GOLDENS=1")
    }
}
