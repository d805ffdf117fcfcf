import OddsCommandSupport
import Foundation
import OddsJSON
import OddsModel
import OddsProviders
import OddsTransport
import TOMLKit

/// The config file, `$XDG_CONFIG_HOME/odds/config.toml` (default `~/.config/odds/config.toml`).
///
/// ```toml
/// provider = "tickodds"        # default provider
/// sport = "soccer"             # default sport
/// odds_format = "american"     # decimal | american | fractional | probability
///
/// [pulsescore]
/// key = "…"
/// url = "https://api.pulsescore.net/api/v2/bet365"
/// ws_url = "wss://api.pulsescore.net/api/v2/bet365/ws/live"
/// ```
public struct ConfigFile: Sendable {
    public var provider: String?
    /// `providers = [...]`: the providers `odds live` joins when no --provider is given ("all" allowed).
    public var providerList: [String]?
    public var sport: String?
    public var oddsFormat: String?
    public var color: String?
    /// A PEM file of extra certificate authorities to trust for HTTPS and WSS.
    public var caFile: String?
    /// `max_frame_mb`: the largest WebSocket message accepted, in MiB (text as written, checked on use).
    public var maxFrameMB: String?
    /// Teams pinned on top of the dashboard.
    public var favourites: [String] = []
    /// `history = "PATH|URL"`: keep a history by default; `history_days = N`: how long.
    public var history: String?
    public var historyDays: Int?
    /// `[aliases]`: a team name and the name it stands for (`"Man Utd" = "Manchester United"`), for
    /// matching one real match across providers.
    public var aliases: [String: String] = [:]
    /// `[[alerts]]`: named rules, for `odds alert` without a rule.
    public var alerts: [ConfigAlert] = []
    /// Per provider: `key`, `url`, `ws_url` and provider options, as strings.
    public var providers: [ProviderID: [String: String]] = [:]

    public init() {}

    /// The path the config is read from: `ODDS_CONFIG`, else the XDG location.
    public static func path(environment: [String: String]) -> String {
        if let explicit = environment["ODDS_CONFIG"], !explicit.isEmpty { return explicit }
        let base: String
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            base = xdg
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        }
        return base + "/odds/config.toml"
    }

    /// Reads the file; a missing file is an empty config, an unreadable one a config error.
    public static func load(path: String) throws -> ConfigFile {
        guard FileManager.default.fileExists(atPath: path) else { return ConfigFile() }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw OddsError.config("Cannot read the config file \(path).")
        }
        return try parse(text, path: path)
    }

    public static func parse(_ text: String, path: String) throws -> ConfigFile {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw OddsError.config("The config file \(path) is not valid TOML (line \(error.source.begin.line), column \(error.source.begin.column)): \(error.description).")
        } catch {
            throw OddsError.config("The config file \(path) is not valid TOML.")
        }
        var config = ConfigFile()
        config.provider = table["provider"]?.string
        if let v = table["providers"] { config.providerList = v.array?.compactMap { $0.string } ?? v.string.map { [$0] } ?? [] }
        config.sport = table["sport"]?.string
        config.oddsFormat = table["odds_format"]?.string
        config.color = table["color"]?.string
        config.caFile = table["ca_file"]?.string
        config.history = table["history"]?.string
        if let v = table["history_days"] {
            guard let days = v.int, days >= 1 else {
                throw OddsError.config("history_days in \(path) must be a whole number of days from 1.")
            }
            config.historyDays = days
        }
        if let v = table["max_frame_mb"] { config.maxFrameMB = v.int.map(String.init) ?? v.double.map { String($0) } ?? v.string ?? "?" }
        if let list = table["favourites"]?.array {
            config.favourites = list.compactMap { $0.string }
        }
        if let aliases = table["aliases"]?.table {
            for name in aliases.keys { if let meaning = aliases[name]?.string { config.aliases[name] = meaning } }
        }
        if let list = table["alerts"]?.array {
            for (i, item) in list.enumerated() {
                guard let entry = item.table, let rule = entry["rule"]?.string else {
                    throw OddsError.config("Alert \(i + 1) under [[alerts]] in \(path) needs rule = \"…\" (and may have a name).")
                }
                config.alerts.append(ConfigAlert(name: entry["name"]?.string, rule: rule))
            }
        }
        for id in ProviderRegistry.ids {
            guard let section = table[id.configName]?.table else { continue }
            var values: [String: String] = [:]
            for key in section.keys {
                let v = section[key]
                if let s = v?.string { values[key] = s }
                else if let i = v?.int { values[key] = String(i) }
                else if let d = v?.double { values[key] = String(d) }
                else if let b = v?.bool { values[key] = b ? "true" : "false" }
            }
            config.providers[id] = values
        }
        return config
    }
}

/// One `[[alerts]]` entry: a rule, and the name its alerts carry.
public struct ConfigAlert: Sendable, Equatable {
    public var name: String?
    public var rule: String
}

extension ConfigFile {
    /// Writes `favourites = [...]` into the config file, keeping everything else as it is (a
    /// multi-line array is replaced whole). The result is checked with the TOML parser before it is
    /// written, atomically and readable by the user only (the file holds API keys); an existing file
    /// that is not valid TOML is left alone. Failures throw one sentence.
    public static func saveFavourites(_ teams: [String], path: String) throws {
        let existing = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        if !existing.isEmpty { _ = try parse(existing, path: path) }
        // JSON string escapes are valid TOML basic strings.
        let line = "favourites = [" + teams.map(JSONWriter.quote).joined(separator: ", ") + "]"
        var lines = existing.isEmpty ? [] : existing.components(separatedBy: "\n")
        // Top-level keys live before the first table header.
        let firstTable = lines.firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("[") } ?? lines.count
        if let i = lines[..<firstTable].firstIndex(where: {
            $0.trimmingCharacters(in: .whitespaces).hasPrefix("favourites") &&
                $0.drop(while: { $0 != "=" }).first == "="
        }) {
            let last = valueEnd(lines, from: i)
            lines.replaceSubrange(i...last, with: [line])
        } else {
            lines.insert(line, at: 0)
        }
        let text = lines.joined(separator: "\n")
        guard (try? parse(text, path: path))?.favourites == teams else {
            throw OddsError.config("Could not update favourites in \(path): edit its favourites = [...] line by hand.")
        }
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let temporary = path + ".tmp-\(getpid())"
            guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8),
                                                 attributes: [.posixPermissions: 0o600]) else {
                throw OddsError.config("Cannot write \(temporary).")
            }
            guard rename(temporary, path) == 0 else {
                unlink(temporary)
                throw OddsError.config("Cannot replace \(path): \(String(cString: strerror(errno))).")
            }
        } catch let e as OddsError {
            throw e
        } catch {
            throw OddsError.config("Cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// The last line of the value whose key is on line `start`: an array may run over several
    /// lines (brackets counted outside strings and comments).
    static func valueEnd(_ lines: [String], from start: Int) -> Int {
        var depth = 0
        var started = false
        for index in start..<lines.count {
            var chars = Substring(lines[index])
            if index == start { chars = chars.drop(while: { $0 != "=" }).dropFirst() }
            var quote: Character?
            var escaped = false
            for c in chars {
                if let q = quote {
                    if escaped { escaped = false } else if c == "\\" && q == "\"" { escaped = true } else if c == q { quote = nil }
                    continue
                }
                switch c {
                case "\"", "'": quote = c
                case "#": break
                case "[": depth += 1; started = true
                case "]": depth -= 1
                default: break
                }
                if c == "#" { break }
            }
            if !started || depth <= 0 { return index }
        }
        return lines.count - 1
    }
}

/// Where a setting's value came from, for `odds config show`.
public enum SettingSource: String, Sendable { case flag, environment, config, `default`, demo }

/// Settings after defaults, config, environment and flags (in rising priority).
public struct ResolvedSettings: Sendable {
    public var configPath: String
    public var provider: ProviderID
    public var providerSource: SettingSource
    /// `providers = [...]` in the config, resolved: several providers for commands that join them.
    public var joined: (ids: [ProviderID], all: Bool)?
    public var sport: String
    /// Where `sport` came from: a replay without a sport asked for shows every sport it recorded.
    public var sportSource: SettingSource = .default
    public var oddsFormat: OddsFormat
    /// Extra certificate authorities for HTTPS and WSS (`ca_file`, `ODDS_CA_FILE`), and where the setting came from.
    public var caFile: String?
    public var caFileSource = SettingSource.default
    /// The largest WebSocket message accepted, in bytes.
    public var maxFrameBytes = Transport.defaultMaxFrameSize
    public var providers: [ProviderID: ProviderSettings] = [:]
    public var sources: [ProviderID: [String: SettingSource]] = [:]

    public static func resolve(environment env: [String: String], config: ConfigFile, configPath: String,
                               providerFlag: ProviderID?, sportFlag: String?, oddsFormatFlag: OddsFormat?) throws -> ResolvedSettings {
        func parseProvider(_ s: String, from: String) throws -> ProviderID {
            guard let p = ProviderRegistry.id(named: s) else {
                throw OddsError.config("Unknown provider '\(s)' in \(from); expected one of \(ProviderRegistry.ids.map(\.rawValue).joined(separator: ", ")).")
            }
            return p
        }
        func parseFormat(_ s: String, from: String) throws -> OddsFormat {
            guard let f = OddsFormat(rawValue: s.lowercased()) else {
                throw OddsError.config("Unknown odds format '\(s)' in \(from); expected decimal, american, fractional or probability.")
            }
            return f
        }
        var provider = ProviderRegistry.defaultProvider
        var providerSource = SettingSource.default
        if let p = config.provider { provider = try parseProvider(p, from: configPath); providerSource = .config }
        if let p = env["ODDS_PROVIDER"], !p.isEmpty { provider = try parseProvider(p, from: "ODDS_PROVIDER"); providerSource = .environment }
        if let p = providerFlag { provider = p; providerSource = .flag }
        var several: (ids: [ProviderID], all: Bool)?
        if let names = config.providerList {
            if names.map({ $0.lowercased() }) == ["all"] { several = (ProviderRegistry.ids, true) }
            else if !names.isEmpty { several = (try names.map { try parseProvider($0, from: "providers in \(configPath)") }, false) }
        }

        var sport = config.sport ?? "soccer"
        var sportSource: SettingSource = config.sport == nil ? .default : .config
        if let s = env["ODDS_SPORT"], !s.isEmpty { sport = s; sportSource = .environment }
        if let s = sportFlag { sport = s; sportSource = .flag }

        var format = try config.oddsFormat.map { try parseFormat($0, from: configPath) } ?? .decimal
        if let f = env["ODDS_ODDS_FORMAT"], !f.isEmpty { format = try parseFormat(f, from: "ODDS_ODDS_FORMAT") }
        if let f = oddsFormatFlag { format = f }

        var resolved = ResolvedSettings(configPath: configPath, provider: provider, providerSource: providerSource,
                                        sport: SportSelection.value([sport]) ?? "soccer", oddsFormat: format)
        resolved.sportSource = sportSource
        resolved.joined = several
        if let f = config.caFile, !f.isEmpty { resolved.caFile = f; resolved.caFileSource = .config }
        if let f = env["ODDS_CA_FILE"], !f.isEmpty { resolved.caFile = f; resolved.caFileSource = .environment }
        if let text = env["ODDS_MAX_FRAME_MB"] ?? config.maxFrameMB {
            let origin = env["ODDS_MAX_FRAME_MB"] != nil ? "ODDS_MAX_FRAME_MB" : "max_frame_mb in \(configPath)"
            guard let mb = Int(text.trimmingCharacters(in: .whitespaces)), (1...1024).contains(mb) else {
                throw OddsError.config("\(origin) must be a whole number of MiB from 1 to 1024, not \"\(text)\".")
            }
            resolved.maxFrameBytes = mb << 20
        }
        for entry in ProviderRegistry.descriptors {
            let id = entry.id
            let file = config.providers[id] ?? [:]
            var sources: [String: SettingSource] = [:]
            func pick(_ configKey: String, _ envSuffix: String, _ fallback: String?) -> String? {
                if let v = env["ODDS_\(id.environmentName)_\(envSuffix)"], !v.isEmpty { sources[configKey] = .environment; return v }
                if let v = file[configKey], !v.isEmpty { sources[configKey] = .config; return v }
                sources[configKey] = .default
                return fallback
            }
            let key = pick("key", "KEY", nil)
            let rest = pick("url", "URL", entry.restURL)!
            let ws = pick("ws_url", "WS_URL", entry.webSocketURL)!
            var options: [String: String] = [:]
            for option in entry.options { options[option.key] = option.value }
            for (k, v) in file where !["key", "url", "ws_url"].contains(k) { options[k] = v }
            // A provider's own settings from the environment too: ODDS_BOLTODDS_PBP_URL for pbp_url.
            for option in entry.options {
                if let v = env["ODDS_\(id.environmentName)_\(option.key.uppercased())"], !v.isEmpty {
                    options[option.key] = v
                    sources[option.key] = .environment
                }
            }
            // Durations from outside are checked once, here: `inf`, `nan`, `1e300` or `-1` would reach
            // timers that trap on them.
            for k in ["heartbeat_seconds", "silence_seconds", "ping_seconds"] {
                guard let text = options[k] else { continue }
                guard let v = Double(text), v.isFinite, v > 0, v <= 86_400 else {
                    throw OddsError.config("\(k) under [\(id.configName)] in \(configPath) must be a number of seconds from 0 to 86400, not \"\(text)\".")
                }
            }
            if let place = options["key_in"], place != "query", place != "header" {
                throw OddsError.config("key_in under [\(id.configName)] in \(configPath) must be \"query\" or \"header\", not \"\(place)\".")
            }
            resolved.providers[id] = ProviderSettings(key: key, restURL: rest, webSocketURL: ws, options: options)
            resolved.sources[id] = sources
        }
        return resolved
    }

    /// Every configured key, for redaction.
    public var secrets: [String] { providers.values.compactMap(\.key) }
}
