import ArgumentParser
import OddsModel
import OddsOutput
import OddsTransport

/// Options of every `stream` command.
public struct StreamOptions: ParsableArguments {
    @Option(name: .long, help: "Stop after this many updates (default: run until interrupted).")
    public var limit: Int?

    @OptionGroup public var history: HistoryOptions

    public init() {}

    public func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1.") }
    }
}

/// `--history [PATH|URL]` and `--no-history`: whether a long-running command keeps every change it sees.
public struct HistoryOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Keep every change seen in a history: a SQLite file, or a postgres:// URL. Alone (last, or before another option), the default file; the config's `history` when not given.",
                                            valueName: "path|url"))
    public var history: String?

    @Flag(name: .customLong("no-history"), help: "Keep no history, whatever the config says.")
    public var noHistory = false

    public init() {}

    public func validate() throws {
        if noHistory && history != nil { throw ValidationError("--history and --no-history say opposite things: give one.") }
    }

    /// What a bare `--history` stands for: the default file.
    public static let defaultValue = "@default"

    /// Turns a bare `--history` (last, or followed by another option) into `--history=@default`: argument-parser has
    /// no option whose value may be left out.
    public static func normalize(_ arguments: [String]) -> [String] {
        var out: [String] = []
        out.reserveCapacity(arguments.count)
        for (i, a) in arguments.enumerated() {
            if a == "--" { out.append(contentsOf: arguments[i...]); return out }
            if a == "--history", i + 1 == arguments.count || arguments[i + 1].hasPrefix("-") { out.append("--history=" + defaultValue); continue }
            out.append(a)
        }
        return out
    }
}

/// `--replay FILE [--speed X|max]`: read a recording through the same decoders instead of the network.
public struct ReplayOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Replay a recording made by `odds record` instead of connecting (output is labelled as replayed).",
                                            valueName: "file"))
    public var replay: String?

    @Option(name: .long, help: ArgumentHelp("Replay speed: a factor of real time (1, 2, 0.5) or max. Default: 1.", valueName: "x|max"))
    public var speed: String?

    public var replaySpeed: ReplaySpeed { speed.flatMap(ReplaySpeed.init) ?? .times(1) }

    public init() {}

    public func validate() throws {
        if speed != nil && replay == nil { throw ValidationError("--speed goes with --replay.") }
        if let speed, ReplaySpeed(speed) == nil {
            throw ValidationError("--speed must be a positive number (a factor of real time) or max, not '\(speed)'.")
        }
    }
}

/// What a command has while it runs: the I/O context, the options and settings as resolved, the providers'
/// clients, and the shared ways to print events and run a stream. The executable provides it
/// (`CommandHost.run`), so that a provider's own command group lives in the provider's module.
public protocol CommandContext: AnyObject, Sendable {
    var io: IOContext { get }
    var common: CommonOptions { get }
    /// The sport asked for, from the flag, the config or the default.
    var sport: String { get }
    var outputFormat: OutputFormat { get }
    var renderOptions: RenderOptions { get }
    var transport: Transport { get }
    /// The provider's client, prepared with the resolved settings (demo endpoints under --demo).
    func client<Client: OddsProvider>(_ id: ProviderID, as type: Client.Type) throws -> Client
    /// Keeps what a provider lists (sports, books) for shell completion.
    func cacheNames(_ client: any OddsProvider)
    func printEvents(_ events: [Event])
    func printEvent(_ event: Event)
    /// Opens a recording for replay: its feed, statistics and provider (`providerFlag` must match the file's).
    func openReplay(_ path: String, providerFlag: ProviderID?, speed: ReplaySpeed) throws -> (FeedStream, FeedStats, any OddsProvider)
    /// Writes a feed as `odds stream` does (NDJSON, or a line per incident for a person when `human`).
    func runStream(_ feed: FeedStream, stats: FeedStats, options: StreamOptions, human: Bool, replayed: Bool) async throws
    /// `odds stream`'s body: the recording of `replay` when given, else the provider's live stream.
    func runStreamOrReplay(_ replay: ReplayOptions, provider: ProviderID?, sport: String?, options: StreamOptions,
                           makeProvider: () async throws -> any OddsProvider) async throws
}

/// How a command gets its `CommandContext`: set once by the executable before any command runs.
public enum CommandHost {
    public typealias Runner = @Sendable (CommonOptions, ProviderID?, String?, (any CommandContext) async throws -> Void) async throws -> Void
    nonisolated(unsafe) public static var runner: Runner?

    /// Runs `body` with a context for these options (`provider` and `sport` as the flags gave them), and releases it.
    public static func run(_ common: CommonOptions, provider: ProviderID? = nil, sport: String? = nil,
                           _ body: (any CommandContext) async throws -> Void) async throws {
        guard let runner else { throw OddsError.usage("internal error: no command host is installed.") }
        try await runner(common, provider, sport, body)
    }
}

/// A provider's command group (`odds boltodds …`) as its descriptor carries it, for the root command to list.
public final class ProviderCommandGroup: Sendable {
    public let command: any ParsableCommand.Type

    public init(_ command: any ParsableCommand.Type) { self.command = command }
}
