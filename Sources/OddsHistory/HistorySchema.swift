/// The history's one schema, versioned; each backend migrates forward on open, in a transaction per version.
/// Times are milliseconds since 1970 UTC; a price is kept as its text and its exact decimal odds (numerator and
/// denominator). docs/history.md describes every table and column.
public enum HistorySchema {
    /// The version this program writes and reads.
    public static let version = 1

    /// The statements that take a SQLite database from `version - 1` to `version`.
    static func sqlite(_ version: Int) -> [String] {
        switch version {
        case 1:
            return [
                """
                CREATE TABLE source (
                    id INTEGER PRIMARY KEY,
                    provider TEXT NOT NULL,
                    event_id TEXT NOT NULL,
                    sport TEXT NOT NULL,
                    league TEXT,
                    home TEXT NOT NULL,
                    away TEXT,
                    start_time INTEGER,
                    first_seen INTEGER NOT NULL,
                    last_seen INTEGER NOT NULL,
                    price_changes INTEGER NOT NULL DEFAULT 0,
                    demo INTEGER NOT NULL DEFAULT 0,
                    UNIQUE (provider, event_id)
                )
                """,
                "CREATE INDEX source_last_seen ON source (last_seen)",
                """
                CREATE TABLE selection (
                    id INTEGER PRIMARY KEY,
                    source_id INTEGER NOT NULL REFERENCES source (id) ON DELETE CASCADE,
                    book TEXT NOT NULL,
                    market_id TEXT NOT NULL,
                    line TEXT NOT NULL,
                    selection_key TEXT NOT NULL,
                    market_name TEXT NOT NULL,
                    selection_name TEXT NOT NULL,
                    UNIQUE (source_id, book, market_id, line, selection_key)
                )
                """,
                """
                CREATE TABLE price_change (
                    selection_id INTEGER NOT NULL REFERENCES selection (id) ON DELETE CASCADE,
                    received_at INTEGER NOT NULL,
                    provider_at INTEGER,
                    price_text TEXT,
                    odds_num INTEGER,
                    odds_den INTEGER,
                    suspended INTEGER NOT NULL
                )
                """,
                "CREATE INDEX price_change_selection_time ON price_change (selection_id, received_at)",
                "CREATE INDEX price_change_time ON price_change (received_at)",
                """
                CREATE TABLE score_change (
                    source_id INTEGER NOT NULL REFERENCES source (id) ON DELETE CASCADE,
                    received_at INTEGER NOT NULL,
                    provider_at INTEGER,
                    home INTEGER,
                    away INTEGER,
                    score_text TEXT,
                    status TEXT NOT NULL,
                    period TEXT,
                    clock TEXT
                )
                """,
                "CREATE INDEX score_change_source_time ON score_change (source_id, received_at)",
                """
                CREATE TABLE incident (
                    source_id INTEGER NOT NULL REFERENCES source (id) ON DELETE CASCADE,
                    received_at INTEGER NOT NULL,
                    identity TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    minute INTEGER,
                    added_time INTEGER,
                    side TEXT,
                    player TEXT,
                    assist TEXT,
                    player_out TEXT,
                    reason TEXT,
                    detail TEXT,
                    score_home INTEGER,
                    score_away INTEGER,
                    rescinded INTEGER NOT NULL,
                    UNIQUE (source_id, identity)
                )
                """,
                "CREATE INDEX incident_source_time ON incident (source_id, received_at)",
                """
                CREATE TABLE match_member (
                    match_key TEXT NOT NULL,
                    source_id INTEGER NOT NULL REFERENCES source (id) ON DELETE CASCADE,
                    reason TEXT NOT NULL,
                    joined_at INTEGER NOT NULL,
                    UNIQUE (match_key, source_id)
                )
                """,
                "CREATE INDEX match_member_source ON match_member (source_id)",
                """
                CREATE TABLE prune_log (
                    pruned_at INTEGER NOT NULL,
                    cutoff INTEGER NOT NULL,
                    changes INTEGER NOT NULL
                )
                """,
            ]
        default:
            return []
        }
    }
}
