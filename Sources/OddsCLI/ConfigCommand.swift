import ArgumentParser
import OddsJSON
import OddsModel
import OddsCommandSupport
import OddsOutput
import OddsProviders

/// `odds config path|show`.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Where the config file is; what the settings are.",
        subcommands: [Path.self, Show.self])

    struct Path: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "path", abstract: "Print the config file path ($XDG_CONFIG_HOME/odds/config.toml, or ODDS_CONFIG).")

        func run() async throws {
            let io = IOContext()
            io.out(ConfigFile.path(environment: io.environment) + "\n")
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print the resolved settings and where each came from; keys are redacted.")
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await withRuntime(common) { rt in
                let s = rt.settings
                var records: [[(String, JSONOutput)]] = [
                    [("setting", .string("config")), ("value", .string(s.configPath)), ("source", .string("-"))],
                    [("setting", .string("provider")), ("value", .string(s.provider.rawValue)), ("source", .string(s.providerSource.rawValue))],
                    [("setting", .string("sport")), ("value", .string(s.sport)), ("source", .string("-"))],
                    [("setting", .string("odds_format")), ("value", .string(s.oddsFormat.rawValue)), ("source", .string("-"))],
                    [("setting", .string("ca_file")), ("value", .string(s.caFile ?? "(system CAs only)")),
                     ("source", .string(s.caFileSource.rawValue))],
                ]
                for entry in ProviderRegistry.descriptors {
                    let p = s.providers[entry.id]!
                    let src = s.sources[entry.id] ?? [:]
                    let name = entry.id.configName
                    records.append([("setting", .string("\(name).key")), ("value", .string(p.key == nil ? "(not set)" : "*** (set)")),
                                    ("source", .string(rt.demo ? "demo" : src["key"]?.rawValue ?? "default"))])
                    records.append([("setting", .string("\(name).url")), ("value", .string(p.restURL)),
                                    ("source", .string(rt.demo && entry.supported ? "demo" : src["url"]?.rawValue ?? "default"))])
                    records.append([("setting", .string("\(name).ws_url")), ("value", .string(p.webSocketURL)),
                                    ("source", .string(rt.demo && entry.supported ? "demo" : src["ws_url"]?.rawValue ?? "default"))])
                    for (k, v) in p.options.sorted(by: { $0.key < $1.key }) {
                        records.append([("setting", .string("\(name).\(k)")), ("value", .string(v)), ("source", .string("-"))])
                    }
                    if !entry.supported {
                        records.append([("setting", .string("\(name).supported")), ("value", .string("not yet")), ("source", .string("-"))])
                    }
                }
                rt.io.out(RecordReporter.render(columns: [.init("SETTING"), .init("VALUE"), .init("SOURCE")], records: records,
                                                format: rt.outputFormat, options: rt.renderOptions))
            }
        }
    }
}
