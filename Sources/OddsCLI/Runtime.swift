import Foundation
import Synchronization
import Logging
import OddsModel
import OddsCommandSupport
import OddsOutput
import OddsProviders
import OddsSimulator
import OddsTransport
import OddsValue

/// Everything one command run needs: settings, the I/O context, the transport and, in demo mode,
/// the in-process simulator. Built by `withRuntime`, which always releases it.
final class Runtime: @unchecked Sendable {
    let io: IOContext
    let settings: ResolvedSettings
    let transport: Transport
    let common: CommonOptions
    let simulator: Simulator?
    let logger: Logger
    let config: ConfigFile

    init(io: IOContext, settings: ResolvedSettings, config: ConfigFile, transport: Transport, common: CommonOptions,
         simulator: Simulator?, logger: Logger) {
        self.io = io; self.settings = settings; self.config = config; self.transport = transport; self.common = common
        self.simulator = simulator; self.logger = logger
    }

    /// Simulated data: from the demo simulator, or a replayed recording of it.
    var demo: Bool { simulator != nil || replayedDemo }
    /// Set while the data comes from a recording (`--replay`): output is labelled as replayed.
    var replaying = false
    var replayedDemo = false
    /// `odds history collect`: the stream is kept, not printed.
    var collecting = false

    var outputFormat: OutputFormat { common.requestedFormat ?? (io.stdoutIsTTY ? .table : .tsv) }

    var renderOptions: RenderOptions {
        let format = outputFormat
        return RenderOptions(oddsFormat: settings.oddsFormat,
                             color: format == .table && io.colorEnabled(common.color),
                             width: format == .table ? io.width : nil, demo: demo, replay: replaying,
                             links: common.links && format == .table && io.stdoutIsTTY,
                             human: format == .table, bookShortNames: Runtime.bookShortNames)
    }

    /// Every provider's short names of its books, for narrow columns.
    static let bookShortNames: [String: String] = ProviderRegistry.descriptors.reduce(into: [:]) { all, d in
        all.merge(d.bookShortNames) { a, _ in a }
    }

    /// The settings of `id`, failing with the missing-key sentence when it has no key.
    private func keyed(_ id: ProviderID) throws -> ProviderSettings {
        let s = settings.providers[id]!
        _ = try s.requireKey(id)
        return s
    }

    /// The client of `id`: an unsupported provider, a `--book` it cannot have, then a missing key,
    /// fail here with their one sentence.
    func provider(_ id: ProviderID) throws -> any OddsProvider {
        try ProviderRegistry.requireSupported(id)
        try checkBooks(id)
        return try ProviderRegistry.make(id, settings: keyed(id), transport: transport)
    }

    /// The client of `id` as its own type, for that provider's own commands (`odds boltodds …`).
    func client<Client: OddsProvider>(_ id: ProviderID, as type: Client.Type) throws -> Client {
        guard let client = try provider(id) as? Client else { preconditionFailure("the registry builds \(id) as another type") }
        return client
    }

    /// The client of `id`, with the user's sport and books resolved by the provider before any
    /// connection (BoltOdds spells them its own way and refuses unknown ones).
    func preparedProvider(_ id: ProviderID) async throws -> any OddsProvider {
        let p = try provider(id)
        cacheNames(p)
        try await p.prepare(sport: settings.sport, books: common.book)
        return p
    }

    /// A single-book feed has one book: asking it for another would silently show nothing.
    func checkBooks(_ id: ProviderID) throws {
        guard let only = id.singleBook else { return }
        let others = common.book.filter { $0.lowercased() != only }
        if !others.isEmpty {
            throw OddsError.usage("\(id.displayName) carries one book, \(only); it has no '\(others[0])'.")
        }
    }

    /// What a provider lists (BoltOdds' sports and books) is kept for shell completion of --book and
    /// --sport (not demo data: the simulator's names would mislead later completions).
    func cacheNames(_ client: any OddsProvider) {
        guard !demo else { return }
        let environment = io.environment
        client.observeNames { sports, books in CompletionCache.save(sports: sports, books: books, environment: environment) }
    }

    /// One-shot answers are as fresh as the moment they arrived.
    private func stamped(_ event: Event) -> Event {
        var e = event
        if e.updatedAt == nil { e.updatedAt = Date() }
        return e
    }

    /// `stamped` of every event; the list is copied only when one of them has no time (a copy of
    /// the events retains and releases every string they hold).
    private func stamped(_ events: [Event]) -> [Event] {
        events.contains(where: { $0.updatedAt == nil }) ? events.map(stamped) : events
    }

    func printEvents(_ events: [Event]) {
        let books = common.bookFilter
        switch outputFormat {
        case .json, .ndjson:
            // One event at a time, so a large answer (BoltOdds' every book of every game) is never
            // held twice more as a JSON tree and its text.
            let labels = renderOptions.jsonLabels
            let array = outputFormat == .json
            if array { io.out("[") }
            for (i, event) in events.enumerated() {
                let e = stamped(books.apply(event))
                let text = EventJSON.event(e, labels: labels, notes: valueNotes(e)).rendered
                io.out(array ? (i > 0 ? "," : "") + text : text + "\n")
                if io.stdoutClosed { return }
            }
            if array { io.out("]\n") }
        default:
            io.out(EventReporter.render(stamped(books.isEmpty ? events : events.map(books.apply)), format: outputFormat, options: renderOptions))
        }
    }

    func printEvent(_ unstamped: Event) {
        let event = stamped(common.bookFilter.apply(unstamped))
        if outputFormat == .table {
            io.out(EventReporter.detail(event, options: renderOptions))
        } else if outputFormat == .json {
            io.out(EventJSON.event(event, labels: renderOptions.jsonLabels, notes: valueNotes(event)).rendered + "\n")
        } else {
            printEvents([event])
        }
    }

    /// Margins, fair prices and EVs of a one-shot answer's event, as of its arrival (default settings).
    func valueNotes(_ event: Event) -> PriceNotes {
        let settings = ValueSettings()
        return ValueReport.notes(ValueAnalysis.analyze(event, settings: settings) { _ in 0 }, settings: settings)
    }

    func close() async {
        await transport.shutdown()
        await simulator?.stop()
    }
}

/// The seed and tick of the demo simulator: `ODDS_DEMO_SEED` (default 42) and `ODDS_DEMO_TICK`
/// (seconds, default 1; 0 freezes the world, which the golden tests use).
struct DemoSettings {
    var seed: UInt64
    var tick: Double
    /// `ODDS_DEMO_BOOK_LAG`: the chance each minute of play that a BoltOdds book lags into an arbitrage.
    var bookLag: Double?

    init(environment: [String: String]) throws {
        if let text = environment["ODDS_DEMO_SEED"] {
            guard let s = UInt64(text) else { throw OddsError.config("ODDS_DEMO_SEED must be a whole number from 0, not \"\(text)\".") }
            seed = s
        } else { seed = 42 }
        if let text = environment["ODDS_DEMO_TICK"] {
            guard let t = Double(text), t.isFinite, (0...3600).contains(t) else {
                throw OddsError.config("ODDS_DEMO_TICK must be a number of seconds from 0 to 3600, not \"\(text)\".")
            }
            tick = t
        } else { tick = 1 }
        if let text = environment["ODDS_DEMO_EPOCH"], SimClock.parse(text) == nil {
            throw OddsError.config("ODDS_DEMO_EPOCH must be whole seconds since 1970, not \"\(text)\".")
        }
        if let text = environment["ODDS_DEMO_BOOK_LAG"] {
            guard let p = Double(text), p.isFinite, (0...1).contains(p) else {
                throw OddsError.config("ODDS_DEMO_BOOK_LAG must be a chance from 0 to 1, not \"\(text)\".")
            }
            bookLag = p
        }
    }

    func options() -> Simulator.Options {
        var o = Simulator.Options()
        o.seed = seed
        o.tickInterval = max(0, tick)
        o.enforceRateLimit = false
        if let bookLag { o.bookLagChance = bookLag }
        return o
    }
}

/// Builds a runtime, runs `body`, and releases the runtime whatever happens.
/// `quiet` silences logging (the dashboard owns the terminal).
func withRuntime<T>(_ common: CommonOptions, provider: ProviderID? = nil, sport: String? = nil,
                    io: IOContext = IOContext(), quiet: Bool = false, _ body: (Runtime) async throws -> T) async throws -> T {
    let configPath = ConfigFile.path(environment: io.environment)
    let config = try ConfigFile.load(path: configPath)
    var settings = try ResolvedSettings.resolve(environment: io.environment, config: config, configPath: configPath,
                                                providerFlag: provider, sportFlag: sport, oddsFormatFlag: common.oddsFormat)
    io.addSecrets(settings.secrets)
    Secrets.shared.add(settings.secrets)
    var logger = io.logger(verbose: common.verbose)
    if quiet { logger.logLevel = .critical }
    var trustRoots = TrustRoots.system
    if let caFile = settings.caFile {
        do { trustRoots = try TrustRoots(pemFile: caFile) } catch let error as TrustRoots.LoadError {
            let origin = settings.caFileSource == .environment ? "ODDS_CA_FILE" : "ca_file in \(settings.configPath)"
            throw OddsError.config("The CA file \(caFile) (\(origin)) \(error.reason).")
        }
    }
    var simulator: Simulator?
    if common.demo {
        let demo = try DemoSettings(environment: io.environment)
        let sim = Simulator(options: demo.options())
        do { try sim.start() } catch {
            throw OddsError.network("Cannot start the demo simulator on 127.0.0.1: \(error).")
        }
        simulator = sim
        let key = sim.options.keys.first!.key
        for descriptor in ProviderRegistry.descriptors {
            guard let endpoints = sim.endpoints(forProvider: descriptor.id.rawValue) else { continue }
            let id = descriptor.id
            settings.providers[id]!.key = key
            if let rest = endpoints.restURL { settings.providers[id]!.restURL = rest }
            settings.providers[id]!.webSocketURL = endpoints.webSocketURL
            for (option, value) in endpoints.options { settings.providers[id]!.options[option] = value }
        }
        io.err("DEMO MODE: simulated data from the built-in simulator (seed \(demo.seed), 127.0.0.1:\(sim.port)), not real odds.")
    }
    let transport = Transport(logger: logger, redactor: io.redactor, trustRoots: trustRoots)
    transport.maxFrameSize = settings.maxFrameBytes
    let runtime = Runtime(io: io, settings: settings, config: config, transport: transport, common: common,
                          simulator: simulator, logger: logger)
    do {
        let result = try await body(runtime)
        await runtime.close()
        return result
    } catch {
        await runtime.close()
        throw error
    }
}

/// Keys seen in this process, so that the last-resort error printer can redact them too.
final class Secrets: @unchecked Sendable {
    static let shared = Secrets()
    private let lock = NSLock()
    private var redactor = Redactor()

    func add(_ secrets: [String]) { lock.lock(); for s in secrets { redactor.add(s) }; lock.unlock() }
    func redact(_ text: String) -> String { lock.lock(); defer { lock.unlock() }; return redactor.redact(text) }
}

/// SIGINT, SIGTERM and SIGHUP for the whole process, in every state (a signal ignored by the parent
/// shell included): a scope that handles them (a stream, the dashboard) is told and ends its own
/// way (exit 0); without one, the running command is cancelled (a one-shot query: exit 130). Either
/// way the process is gone within `deadline` of the signal: what has not finished by then is cut
/// short, after the cleanups (the terminal restored).
final class Interrupts: @unchecked Sendable {
    // @unchecked: every field is behind `lock`.
    static let shared = Interrupts()
    /// Seconds from a signal to the process's end, at most.
    static let deadline: TimeInterval = 0.8
    /// The signals watched: SIGINT, SIGTERM and SIGHUP.
    let signals: [Int32]
    /// Ends the process at the deadline (a test's instance records the code instead).
    private let end: @Sendable (Int32) -> Void

    private let lock = NSLock()
    /// A queue of its own (serial queues may take a thread beyond the pool that `.global()` shares
    /// with the rest of the program): a signal and its deadline are handled even when every thread
    /// of that pool is busy or blocked in a write.
    private let queue = DispatchQueue(label: "odds.interrupts")
    private var sources: [DispatchSourceSignal] = []
    private var scopes: [(id: Int, handler: @Sendable () -> Void)] = []
    private var nextID = 0
    private var cancelCommand: (@Sendable () -> Void)?
    private var cleanups: [Int: @Sendable () -> Void] = [:]
    private var _interrupted = false
    private var _handledByScope = false

    /// The exit code a signal sets: 130 when it cut a one-shot query short; nil without a signal, or
    /// when a scope (a stream's documented exit 0) handled it.
    var exitCode: Int32? { lock.withLock { _interrupted && !_handledByScope ? 130 : nil } }

    /// `end`: by default `_exit`, not `exit`: the deadline cuts the process short, and exit handlers and stdio's
    /// locks, which threads still running may hold, could keep it from ending (its output is written unbuffered).
    init(signals: [Int32] = [SIGINT, SIGTERM, SIGHUP], end: @escaping @Sendable (Int32) -> Void = { _exit($0) }) {
        self.signals = signals
        self.end = end
    }

    /// Watches the signals from now on; `cancel` stops the running command when no scope handles one.
    func install(cancelCommand cancel: (@Sendable () -> Void)? = nil) {
        lock.withLock {
            if let cancel { cancelCommand = cancel }
            guard sources.isEmpty else { return }
            _ = caughtBeforeSource.load(ordering: .relaxed)
            for sig in signals {
                // Caught, not ignored, until the source is registered (libdispatch then installs its own handler,
                // on its own thread, a moment later): a signal in between is kept and handled at registration.
                signal(sig, catchBeforeSource)
                let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
                source.setEventHandler { [unowned self] in self.fire() }
                source.setRegistrationHandler { [unowned self] in
                    if Self.takeCaught(sig) { self.fire() }
                    // A handler still running on another thread as libdispatch took over sets its bit just after.
                    queue.asyncAfter(deadline: .now() + 0.05) { [unowned self] in if Self.takeCaught(sig) { self.fire() } }
                }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// Whether `sig` was caught before its source was registered; clears it.
    private static func takeCaught(_ sig: Int32) -> Bool {
        let bit = UInt64(1) << UInt64(sig)
        return caughtBeforeSource.bitwiseAnd(~bit, ordering: .relaxed).oldValue & bit != 0
    }

    /// Handles the signals with `handler` until the returned id is passed to `endScope`.
    func beginScope(_ handler: @escaping @Sendable () -> Void) -> Int {
        install()
        return lock.withLock {
            nextID += 1
            scopes.append((nextID, handler))
            return nextID
        }
    }

    func endScope(_ id: Int) { lock.withLock { scopes.removeAll { $0.id == id } } }

    /// Runs `cleanup` before the process is cut short at the deadline, until `removeCleanup`.
    func addCleanup(_ cleanup: @escaping @Sendable () -> Void) -> Int {
        lock.withLock { nextID += 1; cleanups[nextID] = cleanup; return nextID }
    }

    func removeCleanup(_ id: Int) { _ = lock.withLock { cleanups.removeValue(forKey: id) } }

    private func fire() {
        let (first, scope, cancel): (Bool, (@Sendable () -> Void)?, (@Sendable () -> Void)?) = lock.withLock {
            let first = !_interrupted
            _interrupted = true
            let scope = scopes.last?.handler
            if first { _handledByScope = scope != nil }
            return (first, scope, cancelCommand)
        }
        // The deadline first: whatever the handler does, the process ends in time. On a thread of its own, not a
        // dispatch queue's, so that no pool it shares can hold it up.
        if first {
            Thread { [unowned self] in
                Thread.sleep(forTimeInterval: Self.deadline)
                for c in lock.withLock({ Array(self.cleanups.values) }) { c() }
                end(self.exitCode ?? 0)
            }.start()
        }
        if let scope { scope() } else { cancel?() }
    }
}

/// The signals caught before their dispatch source was registered, a bit each: set by `catchBeforeSource`
/// (an atomic operation, safe in a signal handler), read once the source is there.
private let caughtBeforeSource = Atomic<UInt64>(0)

private let catchBeforeSource: @convention(c) (Int32) -> Void = { sig in
    _ = caughtBeforeSource.bitwiseOr(UInt64(1) << UInt64(sig), ordering: .relaxed)
}

/// SIGINT, SIGTERM and SIGHUP turned into a callback while watched (a scope of `Interrupts`).
final class TerminationSignals {
    private var id: Int?

    init(_ handler: @escaping @Sendable () -> Void) { id = Interrupts.shared.beginScope(handler) }

    func cancel() {
        if let id { Interrupts.shared.endScope(id) }
        id = nil
    }
}

/// Runs `body` until it finishes or SIGINT/SIGTERM/SIGHUP arrives; returns true if a signal stopped it.
func untilInterrupted(_ body: @escaping @Sendable () async throws -> Void) async throws -> Bool {
    // The scope first, then the work: a signal the moment the work starts is the scope's, never a one-shot's 130.
    let interrupted = ManagedFlag()
    let cancel = CancelBox()
    let signals = TerminationSignals { interrupted.set(); cancel.cancel() }
    defer { signals.cancel() }
    let task = Task { try await body() }
    cancel.set { task.cancel() }
    do {
        try await task.value
    } catch {
        // After a signal, whatever the cancelled work threw is the interruption itself.
        if interrupted.value { return true }
        throw error
    }
    return interrupted.value
}

/// A cancellation asked for before the thing to cancel is there: done the moment it is set.
/// @unchecked Sendable: its fields are only touched under `lock`.
final class CancelBox: @unchecked Sendable {
    private let lock = NSLock()
    private var action: (@Sendable () -> Void)?
    private var asked = false

    func set(_ body: @escaping @Sendable () -> Void) {
        let now: Bool = lock.withLock { action = body; return asked }
        if now { body() }
    }

    func cancel() {
        let body: (@Sendable () -> Void)? = lock.withLock { asked = true; return action }
        body?()
    }
}

/// A flag set once from any thread. @unchecked Sendable: `_value` is only touched under `lock`.
final class ManagedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var _value = false
    var value: Bool { lock.lock(); defer { lock.unlock() }; return _value }
    func set() { lock.lock(); _value = true; lock.unlock() }
}

/// The runtime is the context every command runs in, the provider modules' own commands included.
extension Runtime: CommandContext {
    var sport: String { settings.sport }

    func openReplay(_ path: String, providerFlag: ProviderID?, speed: ReplaySpeed) throws -> (FeedStream, FeedStats, any OddsProvider) {
        let (feed, stats, provider) = try openReplay(path, providerFlag: providerFlag, sport: nil, speed: speed)
        return (feed, stats, provider)
    }

    func runStream(_ feed: FeedStream, stats: FeedStats, options: StreamOptions, human: Bool, replayed: Bool) async throws {
        try await withHistory(options.history, self) { history in
            try await OddsCLI.runStream(feed, stats: stats, options: options, self, history: history, human: human, replayed: replayed)
        }
    }

    func runStreamOrReplay(_ replay: ReplayOptions, provider: ProviderID?, sport: String?, options: StreamOptions,
                           makeProvider: () async throws -> any OddsProvider) async throws {
        try await OddsCLI.runStreamOrReplay(replay, provider: provider, sport: sport, options: options, self, makeProvider: makeProvider)
    }
}

extension CommandHost {
    /// Provider commands run in a `Runtime`, like every other command.
    static func install() {
        runner = { common, provider, sport, body in
            try await withRuntime(common, provider: provider, sport: sport) { rt in try await body(rt) }
        }
    }
}
