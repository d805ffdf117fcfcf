import OddsCommandSupport
import OddsProviders
import OddsTransport

/// Reference text shown by `odds --help`, `odds help TOPIC` and in the man page, kept in one place.
enum Docs {
    /// The root help: what `odds` is, three examples and where to read more (the commands are listed
    /// by the parser). Short enough for one screen.
    static let root = """
    Five providers; tables, JSON, a dashboard, alerts, bets. --demo simulates.
    EXAMPLES:
      odds live --sport soccer --demo
      odds dash --provider boltodds --demo
      odds stream --provider tickodds --ndjson

    MORE: odds help TOPIC (\(topicList)), man odds.
    """

    /// The names of `topics`, in order: the root help names them at every start, and building the topics
    /// themselves (the providers' text asks every provider) was a noticeable part of a start.
    static let topicNames = ["output", "config", "exit-codes", "providers"]

    /// `topicNames` joined by commas, by hand: `joined(separator:)` costs the runtime a scan of every protocol
    /// conformance record at start.
    static var topicList: String {
        var list = ""
        for name in topicNames { list += list.isEmpty ? name : ", " + name }
        return list
    }

    /// The reference topics of `odds help TOPIC`, also in the man page (under `help`).
    static let topics: [(name: String, abstract: String, text: String)] = [
        ("output", "Output formats, the JSON event and the stream lines.", """
    OUTPUT: a table on a terminal; the same columns tab-separated when piped; --json (one array), --ndjson \
    (one object per line) and --csv (one row per selection) for scripts. --odds-format decimal, american, \
    fractional or probability applies to every table, TSV and CSV price. Colour: --color auto|always|never; \
    NO_COLOR turns it off.

    JSON EVENT: provider, id, shortId (the id tables show, where the provider's is long), sport, league, home, away (null for races), status (scheduled, live, halftime, \
    suspended, ended, unknown), startTime, score {home, away} or null, clock, period, markets [{name, book?, \
    selections [{name, line, suspended, isMain, price {decimal, american, fractional, probability, book} or \
    null, link (BoltOdds' deep link, when sent)}]}], \
    incidents [{kind (goal, card, substitution, var, period, injuryTime, other), minute, addedTime, team, player, \
    assist, playerOut, reason, score, detail, id}], stats [{name, group, home, away}], lineups {home, away: \
    {formation, starters, substitutes: [{name, number, position}]}, confirmed} or null, \
    updatedAt (ISO 8601, UTC); "demo": true in demo mode. Prices are strings: the provider's own text in its \
    format, exact conversions (rounded half away from zero) in the others.

    STREAM LINES (odds stream): {"type": ..., "provider", "receivedAt", ...} with type snapshot (events; with \
    connection where a provider has several, e.g. PulseScore's live-tennis: it replaces that connection's), upsert \
    (event), remove (eventId), price (eventId, marketId, market, selection, previous, direction), score \
    (eventId, from, to), incident (eventId, incident), stats (eventId, stats), lineups (eventId, lineups), status (eventId, status, period), book (book, event: one \
    book's whole view of a game), scoreboard (eventId, home, away, league, score, scoreText, clock, period, \
    status), clear (book, and league or eventId, or sport), heartbeat, or \
    connection (connection: the provider's connection it is about, "live" where there is one; state: \
    connecting, live, degraded with reason, reconnecting with retryIn/attempt/reason, stale, stopped with reason).
    """),
        ("config", "The config file, the environment and the demo knobs.", """
    CONFIGURATION: $XDG_CONFIG_HOME/odds/config.toml (default ~/.config/odds/config.toml; ODDS_CONFIG \
    overrides the path) with provider, sport, odds_format and ca_file (a PEM file of extra certificate \
    authorities to trust for HTTPS and WSS; ODDS_CA_FILE) at the top and a [pulsescore] / [tickodds] / \
    [boltodds] / [sportsapi] / [sportsapi_v1] table holding key, url, ws_url. The environment overrides the \
    file: ODDS_<PROVIDER>_KEY, ODDS_<PROVIDER>_URL (REST base), ODDS_<PROVIDER>_WS_URL, with PROVIDER one of \
    PULSESCORE, TICKODDS, BOLTODDS, SPORTSAPI, SPORTSAPI_V1, and ODDS_<PROVIDER>_<SETTING> for a provider's \
    own settings (ODDS_BOLTODDS_PBP_URL for pbp_url); also ODDS_PROVIDER, ODDS_SPORT, ODDS_ODDS_FORMAT. \
    Flags override both. API keys are never printed: they are masked in URLs, errors and verbose logs.

    SEVERAL PROVIDERS: providers = ["tickodds", "boltodds"] (or ["all"]) makes odds live join those \
    providers (one row per real match) when no --provider is given; [aliases] maps a team name to the name it \
    stands for ("Man Utd" = "Manchester United") where the shipped table does not join two spellings.

    ALERTS: [[alerts]] tables, each with rule = "…" and a name, are the rules odds alert checks when given none.

    HISTORY: history = "PATH" (a SQLite file) or "postgres://…" keeps every change odds stream, watch and dash \
    see without --history; history_days (default 90) is how long changes are kept. --no-history turns it off.

    DEMO KNOBS: ODDS_DEMO_SEED (default 42) seeds the simulated world; ODDS_DEMO_TICK (seconds, default 1; 0 \
    freezes it) sets how fast it moves; ODDS_DEMO_BOOK_LAG (a chance from 0 to 1, default 0.0001) is how often, \
    each minute of a match's play, a BoltOdds book lags into an arbitrage; ODDS_DEMO_EPOCH (seconds since 1970, \
    default this minute) is when the world's clock starts, so that two commands give a match the same label.
    """),
        ("exit-codes", "What each exit code means.", """
    EXIT CODES: 0 success (also a stream ended by SIGINT/SIGTERM/SIGHUP); 1 unexpected failure; 2 missing API \
    key or bad config file; 3 authentication failed (HTTP 401, close 4001 or 4010); 4 access denied or plan \
    limit (HTTP 403, close 4003, 4005 or 4029); 5 not found (HTTP 404); 6 rate limited (HTTP 429 after \
    retries, or with a Retry-After over 30 s); 7 network failure; 8 the provider sent something unusable (or HTTP 5xx after retries); \
    9 the history database cannot be opened, read or written (unreachable, not writable, another writer); \
    10 odds alert --timeout ended with no alert; 11 odds bets import refused some rows (the others were kept); 64 usage error (including close 4004, a sport the provider does not stream); 130 a one-shot query \
    interrupted by SIGINT/SIGTERM/SIGHUP (every command exits within a second of one).
    """),
        ("providers", "Each provider: addresses, settings, what is documented and inferred.", providers),
    ]

    /// `odds help providers` (and the man page's), from the registry's descriptors.
    static var providers: String {
        let descriptors = ProviderRegistry.descriptors
        let list = descriptors.map { "\($0.id.rawValue) (\($0.summary))" }
        let watching = descriptors.filter { $0.capabilities.contains(.incidents) }.map(\.id.rawValue)
        var text = "Providers: " + list.dropLast().joined(separator: ", ") + " and " + list.last! + ". "
        text += "`odds watch MATCH` follows one match's incidents live (\(watching.joined(separator: ", "))). "
        text += """
        --demo on any data command starts the built-in simulator on 127.0.0.1 and uses it instead of the \
        provider; its data is labelled as demo data (stderr, the table banner, "demo": true in JSON, and a last \
        "demo" column in TSV and CSV).

        SETTINGS, with their defaults: each under its provider's [section] in the config file, or \
        ODDS_<PROVIDER>_<SETTING> in the environment (ODDS_BOLTODDS_PBP_URL for pbp_url); the API key as key, or \
        ODDS_<PROVIDER>_KEY. "inferred": the provider's docs do not say; odds chose, and it can be changed.

        """
        for d in descriptors {
            for o in d.settingDefaults {
                text += "  [\(d.id.configName)] \(o.key) = \(o.value)\(o.documented ? "" : "  (inferred)")\n"
            }
        }
        for d in descriptors { text += "\n\(d.id.displayName.uppercased()): \(d.notes)\n" }
        return String(text.dropLast())
    }

    /// The settings table of docs/providers.md, from the same descriptors (a test keeps the file current).
    static var providersMarkdownTable: String {
        var rows = ["| provider | setting | default | |", "| --- | --- | --- | --- |"]
        for d in ProviderRegistry.descriptors {
            for o in d.settingDefaults {
                rows.append("| \(d.id.displayName) | `\(o.key)` | `\(o.value)` | \(o.documented ? "documented" : "**inferred**") |")
            }
        }
        return rows.joined(separator: "\n") + "\n"
    }

    /// `text` with each line wrapped at `width` columns (at spaces), its indentation kept.
    static func wrapped(_ text: String, width: Int = 80) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let indent = String(repeating: " ", count: line.prefix(while: { $0 == " " }).count)
            var out: [String] = []
            var current = indent
            for word in line.dropFirst(indent.count).split(separator: " ") {
                if current.count > indent.count && current.count + 1 + word.count > width {
                    out.append(current)
                    current = indent
                }
                current += (current.count > indent.count ? " " : "") + word
            }
            out.append(current)
            return out.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Whether a command line may print a command's help (and so `help`'s, which lists the topics):
    /// `help`, `--help`, `-h`, or the parser's dump of every help text (which makes the man page).
    static func mayShowHelp(_ arguments: [String]) -> Bool {
        arguments.dropFirst().contains { ["help", "--help", "-h", "--experimental-dump-help"].contains($0) }
    }

    /// Every topic, as the man page and `odds help --help` show them.
    static var allTopics: String {
        topics.map { "\($0.name.uppercased()): \($0.abstract)\n\n\($0.text)" }.joined(separator: "\n\n")
    }
}
