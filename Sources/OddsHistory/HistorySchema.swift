/// The history's one schema, versioned; each backend migrates forward on open, in a transaction per version.
/// Times are milliseconds since 1970 UTC; a price is kept as its text and its exact decimal odds (numerator and
/// denominator). The two backends have the same tables and columns, in their own dialects; PostgreSQL's price
/// changes are partitioned by day. docs/history.md describes every table and column.
public enum HistorySchema {
    /// The version this program writes and reads.
    public static let version = 6

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
        case 2:
            // An incident's provider time, as prices and scores have. Each selection's last stored price beside it: what a writer compares a new sighting with, without
            // searching the price changes (and, in PostgreSQL, what a second collector is checked against).
            return [
                "ALTER TABLE selection ADD COLUMN last_at INTEGER",
                "ALTER TABLE selection ADD COLUMN last_text TEXT",
                "ALTER TABLE selection ADD COLUMN last_suspended INTEGER",
                "ALTER TABLE incident ADD COLUMN provider_at INTEGER",
                """
                UPDATE selection SET (last_at, last_text, last_suspended) = (
                    SELECT received_at, price_text, suspended FROM price_change p WHERE p.selection_id = selection.id
                    ORDER BY received_at DESC, rowid DESC LIMIT 1)
                """,
            ]
        case 3:
            // The (selection, time) index carries each change's price: a match's lines are read from the index alone.
            // A source is found by its event id alone.
            return [
                "DROP INDEX price_change_selection_time",
                "CREATE INDEX price_change_selection_time ON price_change (selection_id, received_at, odds_num, odds_den, suspended)",
                "CREATE INDEX source_event ON source (event_id)",
            ]
        case 4:
            // The bet ledger: each bet with the facts of its match and selection as they were when it was placed,
            // standing alone (retention prunes sources, never bets).
            return [
                """
                CREATE TABLE bet (
                    id INTEGER PRIMARY KEY,
                    placed_at INTEGER NOT NULL,
                    provider TEXT NOT NULL,
                    event_id TEXT NOT NULL,
                    match_key TEXT,
                    sport TEXT NOT NULL,
                    league TEXT,
                    home TEXT NOT NULL,
                    away TEXT,
                    start_time INTEGER,
                    market_id TEXT NOT NULL,
                    market_name TEXT NOT NULL,
                    line TEXT NOT NULL,
                    selection_key TEXT NOT NULL,
                    selection_name TEXT NOT NULL,
                    book TEXT NOT NULL,
                    price_text TEXT NOT NULL,
                    odds_num INTEGER NOT NULL,
                    odds_den INTEGER NOT NULL,
                    stake TEXT NOT NULL,
                    note TEXT,
                    created_at INTEGER NOT NULL,
                    graded_at INTEGER,
                    result TEXT,
                    final_home INTEGER,
                    final_away INTEGER,
                    close_text TEXT,
                    close_fair TEXT,
                    clv TEXT
                )
                """,
                "CREATE INDEX bet_placed ON bet (placed_at)",
            ]
        case 5:
            // Each selection's first stored change beside its last: a reader bounds a match's reads by the span
            // they give (the source's first sighting does not bound it: a replay of older data writes earlier rows).
            return [
                "ALTER TABLE selection ADD COLUMN first_at INTEGER",
                "UPDATE selection SET first_at = (SELECT min(received_at) FROM price_change p WHERE p.selection_id = selection.id)",
            ]
        case 6:
            // When writers watched each provider: between two spans a price is unknown, not unchanged.
            return [
                """
                CREATE TABLE watch (
                    id INTEGER PRIMARY KEY,
                    provider TEXT NOT NULL,
                    started_at INTEGER NOT NULL,
                    ended_at INTEGER NOT NULL
                )
                """,
                "CREATE INDEX watch_provider_end ON watch (provider, ended_at)",
            ]
        default:
            return []
        }
    }

    /// The statements that take a PostgreSQL database from `version - 1` to `version`.
    static func postgres(_ version: Int) -> [String] {
        switch version {
        case 1:
            return [
                """
                CREATE TABLE source (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    provider text NOT NULL,
                    event_id text NOT NULL,
                    sport text NOT NULL,
                    league text,
                    home text NOT NULL,
                    away text,
                    start_time bigint,
                    first_seen bigint NOT NULL,
                    last_seen bigint NOT NULL,
                    price_changes bigint NOT NULL DEFAULT 0,
                    demo boolean NOT NULL DEFAULT false,
                    UNIQUE (provider, event_id)
                )
                """,
                "CREATE INDEX source_last_seen ON source (last_seen)",
                """
                CREATE TABLE selection (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    source_id bigint NOT NULL REFERENCES source (id) ON DELETE CASCADE,
                    book text NOT NULL,
                    market_id text NOT NULL,
                    line text NOT NULL,
                    selection_key text NOT NULL,
                    market_name text NOT NULL,
                    selection_name text NOT NULL,
                    UNIQUE (source_id, book, market_id, line, selection_key)
                )
                """,
                // Partitioned by day of `received_at`; the writer adds a day's partition before its first row, and
                // retention drops whole days. No foreign key: a pruned selection's rows go with their day.
                "CREATE SEQUENCE price_change_seq",
                """
                CREATE TABLE price_change (
                    selection_id bigint NOT NULL,
                    received_at bigint NOT NULL,
                    provider_at bigint,
                    price_text text,
                    odds_num bigint,
                    odds_den bigint,
                    suspended boolean NOT NULL,
                    seq bigint NOT NULL DEFAULT nextval('price_change_seq')
                ) PARTITION BY RANGE (received_at)
                """,
                "CREATE INDEX price_change_selection_time ON price_change (selection_id, received_at)",
                "CREATE INDEX price_change_time ON price_change USING brin (received_at)",
                """
                CREATE TABLE score_change (
                    source_id bigint NOT NULL REFERENCES source (id) ON DELETE CASCADE,
                    received_at bigint NOT NULL,
                    provider_at bigint,
                    home integer,
                    away integer,
                    score_text text,
                    status text NOT NULL,
                    period text,
                    clock text,
                    seq bigint GENERATED ALWAYS AS IDENTITY
                )
                """,
                "CREATE INDEX score_change_source_time ON score_change (source_id, received_at)",
                "CREATE INDEX score_change_time ON score_change USING brin (received_at)",
                """
                CREATE TABLE incident (
                    source_id bigint NOT NULL REFERENCES source (id) ON DELETE CASCADE,
                    received_at bigint NOT NULL,
                    identity text NOT NULL,
                    kind text NOT NULL,
                    minute integer,
                    added_time integer,
                    side text,
                    player text,
                    assist text,
                    player_out text,
                    reason text,
                    detail text,
                    score_home integer,
                    score_away integer,
                    rescinded boolean NOT NULL,
                    seq bigint GENERATED ALWAYS AS IDENTITY,
                    UNIQUE (source_id, identity)
                )
                """,
                "CREATE INDEX incident_source_time ON incident (source_id, received_at)",
                """
                CREATE TABLE match_member (
                    match_key text NOT NULL,
                    source_id bigint NOT NULL REFERENCES source (id) ON DELETE CASCADE,
                    reason text NOT NULL,
                    joined_at bigint NOT NULL,
                    UNIQUE (match_key, source_id)
                )
                """,
                "CREATE INDEX match_member_source ON match_member (source_id)",
                """
                CREATE TABLE prune_log (
                    pruned_at bigint NOT NULL,
                    cutoff bigint NOT NULL,
                    changes bigint NOT NULL
                )
                """,
            ]
        case 2:
            return [
                "ALTER TABLE selection ADD COLUMN last_at bigint, ADD COLUMN last_text text, ADD COLUMN last_suspended boolean",
                "ALTER TABLE incident ADD COLUMN provider_at bigint",
                """
                UPDATE selection SET (last_at, last_text, last_suspended) = (
                    SELECT received_at, price_text, suspended FROM price_change p WHERE p.selection_id = selection.id
                    ORDER BY received_at DESC, seq DESC LIMIT 1)
                """,
            ]
        case 3:
            return [
                "DROP INDEX price_change_selection_time",
                "CREATE INDEX price_change_selection_time ON price_change (selection_id, received_at, seq) INCLUDE (odds_num, odds_den, suspended)",
                "CREATE INDEX source_event ON source (event_id)",
            ]
        case 4:
            return [
                """
                CREATE TABLE bet (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    placed_at bigint NOT NULL,
                    provider text NOT NULL,
                    event_id text NOT NULL,
                    match_key text,
                    sport text NOT NULL,
                    league text,
                    home text NOT NULL,
                    away text,
                    start_time bigint,
                    market_id text NOT NULL,
                    market_name text NOT NULL,
                    line text NOT NULL,
                    selection_key text NOT NULL,
                    selection_name text NOT NULL,
                    book text NOT NULL,
                    price_text text NOT NULL,
                    odds_num bigint NOT NULL,
                    odds_den bigint NOT NULL,
                    stake text NOT NULL,
                    note text,
                    created_at bigint NOT NULL,
                    graded_at bigint,
                    result text,
                    final_home bigint,
                    final_away bigint,
                    close_text text,
                    close_fair text,
                    clv text
                )
                """,
                "CREATE INDEX bet_placed ON bet (placed_at)",
            ]
        case 5:
            return [
                "ALTER TABLE selection ADD COLUMN first_at bigint",
                "UPDATE selection SET first_at = (SELECT min(received_at) FROM price_change p WHERE p.selection_id = selection.id)",
            ]
        case 6:
            return [
                """
                CREATE TABLE watch (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    provider text NOT NULL,
                    started_at bigint NOT NULL,
                    ended_at bigint NOT NULL
                )
                """,
                "CREATE INDEX watch_provider_end ON watch (provider, ended_at)",
            ]
        default:
            return []
        }
    }
}
