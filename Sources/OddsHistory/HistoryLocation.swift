import Foundation
import OddsModel

/// Where a history is kept: a SQLite file (the default) or a PostgreSQL database named by URL.
public enum HistoryLocation: Equatable, Sendable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(url: String)

    /// Reads what `--history` or `history = …` says: a `postgres://` or `postgresql://` URL, else a file path
    /// (`~` expanded). Empty text, or `@default` (a bare `--history`), is the default file.
    public static func parse(_ text: String, environment: [String: String]) -> HistoryLocation {
        let t = text.trimmingCharacters(in: .whitespaces)
        let lower = t.lowercased()
        if lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") { return .postgres(url: t) }
        if t.isEmpty || t == "@default" { return .sqlite(path: defaultPath(environment: environment)) }
        if t == "~" || t.hasPrefix("~/"), let home = environment["HOME"] { return .sqlite(path: home + t.dropFirst()) }
        return .sqlite(path: t)
    }

    /// `$XDG_DATA_HOME/odds/history.sqlite`, else `~/.local/share/odds/history.sqlite`.
    public static func defaultPath(environment: [String: String]) -> String {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/odds/history.sqlite" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share/odds/history.sqlite"
    }

    /// The location for messages: a URL's credentials (its user information, a `password=` parameter) are never shown.
    public var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let url): return Redactor().redact(url)
        }
    }
}
