import ArgumentParser
import OddsModel
import OddsOutput

extension OddsFormat: ExpressibleByArgument, ArgumentByName {}
extension ColorMode: ExpressibleByArgument, ArgumentByName {}
extension OutputFormat: ExpressibleByArgument, ArgumentByName {}

/// An option value named by its raw value, written out as ArgumentParser's defaults for such enums would
/// be: those defaults resolve `RawValue` at run time, a scan of every protocol conformance record of the
/// binary per enum at each start.
public protocol ArgumentByName: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension ArgumentByName {
    public init?(argument: String) { self.init(rawValue: argument) }
    public var defaultValueDescription: String { rawValue }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
    public static var allValueDescriptions: [String: String] { [:] }
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// Options every data command takes: output, odds format, colour, verbosity and demo mode.
public struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: "Odds format: decimal, american, fractional or probability.")
    public var oddsFormat: OddsFormat?

    @Option(name: .long, help: "Colour: auto (a terminal and NO_COLOR unset), always or never.")
    public var color: ColorMode = .auto

    @Flag(name: .shortAndLong, help: "Log requests and connection events to stderr (keys redacted).")
    public var verbose = false

    @Flag(name: .long, help: "Use the built-in simulator instead of the real provider (demo data, clearly labelled).")
    public var demo = false

    @Option(name: .long, help: "Output format: table, tsv, json, ndjson or csv (default: table on a terminal, else tsv).")
    public var format: OutputFormat?

    @Flag(name: .long, help: "Shorthand for --format json.")
    public var json = false

    @Flag(name: .long, help: "Shorthand for --format ndjson.")
    public var ndjson = false

    @Flag(name: .long, help: "Shorthand for --format csv.")
    public var csv = false

    @Option(name: .long, help: ArgumentHelp("Only this sportsbook's prices (repeatable; any case). Single-book feeds: bet365 for PulseScore, tickodds for TickOdds.", valueName: "book"),
            completion: .custom { _, _, prefix in CompletionCache.books(prefix: prefix) })
    public var book: [String] = []

    @Flag(name: .long, help: "In tables on a terminal, make prices OSC 8 hyperlinks to the book's bet (where the provider gives links: BoltOdds).")
    public var links = false

    public var bookFilter: BookFilter { BookFilter(book) }

    public init() {}

    public mutating func validate() throws {
        let chosen = [format != nil, json, ndjson, csv].filter { $0 }.count
        if chosen > 1 { throw ValidationError("Choose one of --format, --json, --ndjson and --csv.") }
    }

    /// The output format asked for, or nil for the TTY-dependent default.
    public var requestedFormat: OutputFormat? {
        if json { return .json }
        if ndjson { return .ndjson }
        if csv { return .csv }
        return format
    }
}

/// `--sport` with the config's default: repeatable, or `all`.
public struct SportOption: ParsableArguments {
    @Option(name: .long, help: "Sport, e.g. soccer, tennis, basketball, ice-hockey; repeatable; all for every sport the provider serves. Default: config, else soccer.",
            completion: .custom { _, _, prefix in CompletionCache.sports(prefix: prefix) })
    public var sport: [String] = []

    /// The sports asked for as one value ("soccer", "soccer,tennis", "all"); nil for the default.
    public var value: String? { SportSelection.value(sport) }

    public init() {}
}
