import Foundation

/// Names that shell completions offer for `--book` and `--sport` beyond the fixed ones: the
/// sportsbooks and competitions of the last BoltOdds `get_info` answer, cached in
/// `$XDG_CACHE_HOME/odds/boltodds.json` (default `~/.cache/odds/`). Completion never touches the network.
public enum CompletionCache {
    static func path(environment: [String: String] = ProcessEnvironment.current()) -> String {
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.cache")
        return base + "/odds/boltodds.json"
    }

    /// Saves what `get_info` listed (best effort: completion is a convenience, never a failure).
    public static func save(sports: [String], books: [String], environment: [String: String]) {
        let file = path(environment: environment)
        let object: [String: [String]] = ["sports": sports, "sportsbooks": books]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        try? FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try? data.write(to: URL(fileURLWithPath: file), options: .atomic)
    }

    static func load() -> (sports: [String], books: [String]) {
        guard let data = FileManager.default.contents(atPath: path()),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: [String]] else { return ([], []) }
        return (object["sports"] ?? [], object["sportsbooks"] ?? [])
    }

    /// The sport slugs every provider knows, then the cached competitions.
    static let sportSlugs = ["soccer", "tennis", "basketball", "ice-hockey", "american-football", "baseball", "volleyball",
                             "handball", "table-tennis", "e-sports", "rugby-league", "rugby-union", "horse-racing", "greyhounds"]

    public static func sports(prefix: String) -> [String] {
        (sportSlugs + load().sports).filter { $0.lowercased().hasPrefix(prefix.lowercased()) }
    }

    public static func books(prefix: String) -> [String] {
        (["bet365", "tickodds"] + load().books).filter { $0.lowercased().hasPrefix(prefix.lowercased()) }
    }
}
