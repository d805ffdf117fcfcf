import ArgumentParser
import Foundation
import OddsCommandSupport
import OddsFusion
import OddsModel
import OddsProviders
import OddsStore
import OddsTransport

extension Runtime {
    /// Opens a recording for replay: its provider is read from the file (a `--provider` that names
    /// another is a usage error), and the output is labelled as replayed (and as demo data when the
    /// recording was made with `--demo`).
    func openReplay(_ path: String, providerFlag: ProviderID?, sport: String? = nil,
                    speed: ReplaySpeed) throws -> (feed: FeedStream, stats: FeedStats, provider: any OddsProvider) {
        let (decoder, stats, provider) = try replayDecoder(path, providerFlag: providerFlag, sport: sport)
        return (FeedReplay.run(decoder, speed: speed, stats: stats), stats, provider)
    }

    /// The store at the end of a recording, folded as fast as it decodes: no task, no queue.
    func replayedStore(_ path: String, providerFlag: ProviderID?) throws -> (store: LiveStore, stats: FeedStats) {
        let (decoder, stats, _) = try replayDecoder(path, providerFlag: providerFlag)
        var store = LiveStore()
        let books = common.bookFilter
        // Without a filter the message goes straight to the store: even handed through an empty filter
        // and back, the message made the firehose replay slower.
        // A game's books' views in a row go to the store as one update (`BookViewRun`).
        if books.isEmpty {
            try decoder.forEach(mergingBookViews: true) { message in store.apply(message) }
        } else {
            try decoder.forEach(mergingBookViews: true) { message in if let m = books.apply(message) { store.apply(m) } }
        }
        return (store, stats)
    }

    /// A decoder of a recording with the provider it names (see `openReplay`).
    func replayDecoder(_ path: String, providerFlag: ProviderID?,
                       sport: String? = nil) throws -> (decoder: ReplayDecoder, stats: FeedStats, provider: any OddsProvider) {
        // The first frame's feed, time and demo flag, read in place (it may be a frame of tens of MB).
        let probe = try RecordingReader(path: path)
        var first: (feed: String, date: Date, demo: Bool)?
        while first == nil, let frame = probe.nextView() {
            if !frame.feed.hasSuffix("/rest") { first = (frame.feed, frame.date, frame.demo) }
        }
        probe.endView()
        guard let first, let id = ProviderRegistry.id(named: RecordedFrame.providerName(of: first.feed)) else {
            throw OddsError.usage("\(path) holds no recorded feed frames (make one with `odds record`).")
        }
        if let providerFlag, providerFlag != id {
            throw OddsError.usage("\(path) is a recording of \(id.displayName), not \(providerFlag.displayName).")
        }
        try ProviderRegistry.requireSupported(id)
        try checkBooks(id)
        // Replays need no key: nothing is sent anywhere.
        let provider = try ProviderRegistry.make(id, settings: settings.providers[id]!, transport: transport)
        replaying = true
        replayedDemo = first.demo
        let when = ISODate.text(first.date)
        io.err("REPLAY: recorded \(id.displayName) data from \(path) (recorded from \(when)\(first.demo ? ", demo data" : "")), not live.")
        let stats = FeedStats()
        // Without a sport asked for, everything the recording holds is shown.
        let asked = sport ?? (settings.sportSource == .default ? nil : settings.sport)
        // A recording of several providers (`odds record --provider all`) replays each through its own decoders.
        let settings = self.settings, transport = self.transport
        var others: [ProviderID: any OddsProvider] = [:]
        let decoder = ReplayDecoder(provider.feedConnections(sport: asked), reader: try RecordingReader(path: path), stats: stats,
                                    more: { [provider] feed in
            let name = RecordedFrame.providerName(of: feed)
            guard name != provider.id.rawValue else { return provider.feedConnection(named: feed, sport: asked) }
            guard let other = ProviderRegistry.id(named: name), ProviderRegistry.descriptor(other).supported else { return nil }
            if others[other] == nil { others[other] = try? ProviderRegistry.make(other, settings: settings.providers[other]!, transport: transport) }
            guard let client = others[other] else { return nil }
            return client.feedConnections(sport: asked).first { $0.feedName == feed } ?? client.feedConnection(named: feed, sport: asked)
        })
        return (decoder, stats, provider)
    }

    /// The counts of a finished replay, on stderr when something was skipped or --verbose asks.
    func reportReplay(_ stats: FeedStats) {
        if common.verbose || stats.malformed > 0 {
            io.err("Replayed \(stats.frames) frames, \(stats.malformed) malformed skipped.")
        }
    }
}

/// `stream` with or without `--replay`: the live feed of `makeProvider()`, or the recording.
func runStreamOrReplay(_ replay: ReplayOptions, provider providerFlag: ProviderID?, sport: String?, options: StreamOptions,
                       _ rt: Runtime, makeProvider: () async throws -> any OddsProvider) async throws {
    if let path = replay.replay {
        // The recording first: it says whether its data is a demo's, which the history keeps with each row.
        let (feed, stats, _) = try rt.openReplay(path, providerFlag: providerFlag, sport: nil, speed: replay.replaySpeed)
        try await withHistory(options.history, rt) { history in
            try await runStream(feed, stats: stats, options: options, rt, history: history, replayed: true)
        }
        return
    }
    try await withHistory(options.history, rt) { history in
        let stats = FeedStats()
        let feed = try await makeProvider().stream(sport: sport, stats: stats)
        try await runStream(feed, stats: stats, options: options, rt, history: history)
    }
}

/// `stream --provider all` (or a list): every provider's feed at once, each line about a match naming
/// its fused match (`match`).
func runFusedStream(_ ids: [ProviderID], all: Bool, options: StreamOptions, _ rt: Runtime) async throws {
    try await withHistory(options.history, rt) { history in
        let stats = FeedStats()
        let feed = try await rt.fusedStream(ids, all: all, stats: stats).stream
        try await runStream(feed, stats: stats, options: options, rt, history: history, fusion: MatchFusion(names: MatchNames(user: rt.config.aliases)))
    }
}

/// `odds record`: every frame of the live feed, verbatim, one NDJSON line each.
struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record the live feed's frames, for --replay.",
        discussion: """
        Each line is {"t":<unix ms>,"feed":"<provider>/<connection>","frame":<the frame>} (a frame that is not JSON is \
        kept as a string under "text"; demo recordings add "demo":true). Lines are written whole and unbuffered, so \
        an interrupted recording loses at most the line in flight. Runs until interrupted or --limit frames. \
        Example: odds record --provider tickodds --sport soccer --output soccer.ndjson
        """)

    @OptionGroup var providerOption: ProviderOption
    @OptionGroup var sportOption: SportOption

    @Option(name: [.short, .long], help: ArgumentHelp("Write the recording here (default: stdout).", valueName: "file"))
    var output: String?

    @Option(name: .long, help: "Stop after this many frames.")
    var limit: Int?

    @Option(name: .long, help: ArgumentHelp("Record this sportsbook's prices (repeatable; any case): multi-book feeds subscribe to these books only; frames stay verbatim. Single-book feeds refuse another book.", valueName: "book"))
    var book: [String] = []

    @Flag(name: .shortAndLong, help: "Log requests and connection events to stderr (keys redacted).")
    var verbose = false

    @Flag(name: .long, help: "Record the built-in simulator (the recording is marked as demo data).")
    var demo = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1.") }
    }

    func run() async throws {
        let common = try CommonOptions.parse((demo ? ["--demo"] : []) + (verbose ? ["--verbose"] : [])
                                             + book.flatMap { ["--book", $0] })
        var several: (ids: [ProviderID], all: Bool)?
        if case .several(let ids, let all) = providerOption.choice { several = (ids, all) }
        try await withRuntime(common, provider: several == nil ? providerOption.provider : nil, sport: sportOption.value) { rt in
            let recorder = try Recorder(path: output, demo: rt.demo)
            let stats = FeedStats()
            // Providers are prepared first (what they ask over REST to resolve the user's sport is not the
            // feed); several providers' frames go into one recording, each line naming its provider.
            let feed: FeedStream
            if let several {
                feed = try await rt.fusedStream(several.ids, all: several.all, stats: stats) { rt.transport.frameTap = recorder }.stream
            } else {
                let provider = try await rt.preparedProvider(rt.settings.provider)
                rt.transport.frameTap = recorder
                feed = provider.stream(sport: rt.settings.sport, stats: stats)
            }
            let limit = self.limit
            _ = try await untilInterrupted {
                for try await _ in feed {
                    if recorder.failed { throw OddsError.output("Writing the recording failed (disk full or output closed).") }
                    if let limit, recorder.frames >= limit { return }
                }
            }
            let target = output.map { $0 == "-" ? "stdout" : $0 } ?? "stdout"
            rt.io.err("Recorded \(recorder.frames) frames (\(recorder.bytes) bytes) to \(target).")
        }
    }
}
