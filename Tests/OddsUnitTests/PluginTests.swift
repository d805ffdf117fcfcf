import ArgumentParser
import Foundation
import OddsCommandSupport
@testable import OddsCLI
import OddsProviders
import OddsTransport
import OddsTestSupport
import Testing

/// Providers as plug-ins (issue 19): each provider module brings its own command group through its
/// descriptor, and nothing outside the provider modules and the registry imports one.
@Suite("Providers as plug-ins", .unitLane)
struct PluginTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")
    static let providerModules = ["OddsPulseScore", "OddsTickOdds", "OddsBoltOdds", "OddsSportsAPI"]

    @Test("Every descriptor's command group is a command, registered under the root in the registry's order")
    func commandGroups() throws {
        let groups = try ProviderRegistry.descriptors.map { d in
            try #require((d.commands as? ProviderCommandGroup)?.command, "\(d.id) has no command group")
        }
        let names = groups.map { $0.configuration.commandName }
        #expect(names == ProviderRegistry.ids.map(\.rawValue))
        let root = OddsCommand.configuration.subcommands.map { $0.configuration.commandName }
        let registered = root.filter { name in names.contains(name) }
        #expect(registered == names)
    }

    @Test("Only the registry (and the benchmark tool) import a provider module")
    func noProviderImportsOutside() throws {
        let fm = FileManager.default
        let modules = try fm.contentsOfDirectory(atPath: Self.sources.path)
        #expect(modules.contains("OddsCLI") && modules.contains("OddsBoltOdds"))
        var offenders: [String] = []
        for module in modules where !Self.providerModules.contains(module) && module != "OddsProviders" && module != "OddsBench" {
            let dir = Self.sources.appendingPathComponent(module)
            for file in (fm.enumerator(atPath: dir.path)?.allObjects as? [String] ?? []) where file.hasSuffix(".swift") {
                let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.hasPrefix("@testable import ") {
                    if Self.providerModules.contains(where: { line.hasSuffix(" " + $0) }) { offenders.append("\(module)/\(file): \(line)") }
                }
            }
        }
        #expect(offenders.isEmpty, "\(offenders)")
    }
}
