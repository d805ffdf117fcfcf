import ArgumentParser
import OddsModel
import OddsOutput
import OddsProviders

extension OddsFormat: ExpressibleByArgument {}
extension ColorMode: ExpressibleByArgument {}
extension OutputFormat: ExpressibleByArgument {}
extension ProviderID: ExpressibleByArgument {
    public init?(argument: String) {
        guard let id = ProviderRegistry.id(named: argument) else { return nil }
        self = id
    }
    public static var allValueStrings: [String] { ProviderRegistry.ids.map(\.rawValue) }
    public var defaultValueDescription: String { rawValue }
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// Options every data command takes: output, odds format, colour, verbosity and demo mode.
public struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: "Odds format: decimal, american, fractional or probability.")
    var oddsFormat: OddsFormat?

    @Option(name: .long, help: "Colour: auto (a terminal and NO_COLOR unset), always or never.")
    var color: ColorMode = .auto

    @Flag(name: .shortAndLong, help: "Log requests and connection events to stderr (keys redacted).")
    var verbose = false

    @Flag(name: .long, help: "Use the built-in simulator instead of the real provider (demo data, clearly labelled).")
    var demo = false

    @Option(name: .long, help: "Output format: table, tsv, json, ndjson or csv (default: table on a terminal, else tsv).")
    var format: OutputFormat?

    @Flag(name: .long, help: "Shorthand for --format json.")
    var json = false

    @Flag(name: .long, help: "Shorthand for --format ndjson.")
    var ndjson = false

    @Flag(name: .long, help: "Shorthand for --format csv.")
    var csv = false

    @Option(name: .long, help: ArgumentHelp("Only this sportsbook's prices (repeatable; any case). Single-book feeds: bet365 for PulseScore, tickodds for TickOdds.", valueName: "book"),
            completion: .custom { _, _, prefix in CompletionCache.books(prefix: prefix) })
    var book: [String] = []

    @Flag(name: .long, help: "In tables on a terminal, make prices OSC 8 hyperlinks to the book's bet (where the provider gives links: BoltOdds).")
    var links = false

    var bookFilter: BookFilter { BookFilter(book) }

    public init() {}

    public mutating func validate() throws {
        let chosen = [format != nil, json, ndjson, csv].filter { $0 }.count
        if chosen > 1 { throw ValidationError("Choose one of --format, --json, --ndjson and --csv.") }
    }

    /// The output format asked for, or nil for the TTY-dependent default.
    var requestedFormat: OutputFormat? {
        if json { return .json }
        if ndjson { return .ndjson }
        if csv { return .csv }
        return format
    }
}

/// `--provider` for the provider-neutral commands.
public struct ProviderOption: ParsableArguments {
    @Option(name: .customLong("provider"), help: ArgumentHelp(
        "Provider: pulsescore, tickodds, boltodds, sportsapi or sportsapi-v1; for odds live, stream, dash, watch and record also all, or a comma list (one row per real match across them). Default: config, else pulsescore.",
        valueName: "provider"))
    var choice: ProviderChoice?

    /// The one provider asked for; a list is refused where a command takes one.
    var provider: ProviderID? {
        get throws {
            switch choice {
            case nil: return nil
            case .one(let id): return id
            case .several: throw OddsError.usage("--provider all (or a list) works with odds live, stream, dash, watch and record; name one provider.")
            }
        }
    }

    public init() {}
}

/// `--provider`: one provider, `all`, or a comma-separated list.
enum ProviderChoice: ExpressibleByArgument, Equatable {
    case one(ProviderID)
    /// `all` is true for `--provider all`: every provider with a key; a list names its own.
    case several([ProviderID], all: Bool)

    init?(argument: String) {
        let words = argument.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if words == ["all"] { self = .several(ProviderRegistry.ids, all: true); return }
        let ids = words.compactMap(ProviderRegistry.id(named:))
        guard !ids.isEmpty, ids.count == words.count else { return nil }
        var seen = Set<ProviderID>()
        let unique = ids.filter { seen.insert($0).inserted }
        self = unique.count == 1 ? .one(unique[0]) : .several(unique, all: false)
    }

    static var allValueStrings: [String] { ProviderID.allValueStrings + ["all"] }
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// `--sport` with the config's default: repeatable, or `all`.
public struct SportOption: ParsableArguments {
    @Option(name: .long, help: "Sport, e.g. soccer, tennis, basketball, ice-hockey; repeatable; all for every sport the provider serves. Default: config, else soccer.",
            completion: .custom { _, _, prefix in CompletionCache.sports(prefix: prefix) })
    var sport: [String] = []

    /// The sports asked for as one value ("soccer", "soccer,tennis", "all"); nil for the default.
    var value: String? { SportSelection.value(sport) }

    public init() {}
}
