/// What `--sport` asks for: one sport, several (`--sport soccer --sport tennis`, carried as
/// "soccer,tennis"), or every sport the provider serves ("all"). Providers read it with these helpers.
public enum SportSelection {
    /// The value that asks for every sport.
    public static let all = "all"

    /// The value of several sports as typed (slugged, in order, without repeats); "all" wins over any list.
    public static func value(_ typed: [String]) -> String? {
        var seen = Set<String>()
        let slugs = typed.flatMap { $0.split(separator: ",").map { sportSlug(String($0)) } }.filter { !$0.isEmpty && seen.insert($0).inserted }
        if slugs.contains(all) { return all }
        return slugs.isEmpty ? nil : slugs.joined(separator: ",")
    }

    /// True for "all".
    public static func isAll(_ value: String?) -> Bool { value == all }

    /// The sports of a value that names them (nil for nil and "all": no filter).
    public static func sports(_ value: String?) -> [String]? {
        guard let value, value != all else { return nil }
        return value.split(separator: ",").map(String.init)
    }

    /// Sports `odds` knows by slug, for providers that do not list theirs.
    public static let known = ["soccer", "tennis", "basketball", "ice-hockey", "american-football", "baseball", "volleyball",
                               "handball", "table-tennis", "esports", "rugby", "rugby-league", "rugby-union", "cricket", "darts",
                               "snooker", "badminton", "futsal", "mma", "boxing", "motorsport", "cycling", "golf", "aussie-rules",
                               "beach-volley", "bandy", "floorball", "waterpolo", "horse-racing", "greyhounds"]
}
