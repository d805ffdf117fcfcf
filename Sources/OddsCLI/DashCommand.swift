import ArgumentParser
import OddsCommandSupport
import Foundation
import NIOConcurrencyHelpers
import OddsDashboard
import OddsFusion
import OddsHistory
import OddsModel
import OddsProviders
import OddsStore
import OddsTerminal
import OddsTransport
import OddsValue

/// `odds dash`: the live full-screen dashboard.
struct Dash: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dash",
        abstract: "A live full-screen dashboard of matches and prices.",
        discussion: """
        Keys: arrows or j/k move, PgUp/PgDn page, g/G first/last, Enter details, Esc back, / filter by team or \
        league (Esc clears), s cycles the sort (kick-off, league, biggest recent price move, latest incident), \
        f pins a favourite team (saved as `favourites` in the config file), o cycles the odds format, p pauses the \
        view while data keeps flowing, v toggles value mode, a writes an alert rule for the selected match, b records \
        a bet at one of its prices shown (Tab cycles them; type the stake; kept in the history's ledger, see odds bets), \
        ? help, q quits. Needs a terminal; for pipes use `odds stream`.
        Alert rules (the config's [[alerts]], as for `odds alert`, and those a adds for this session, Tab cycling \
        suggestions for the match's prices) are checked against every change: each alert is a line of the ticker \
        and marks its row with ! for a minute.
        With --provider all (or a list, or `providers` in the config) each row is one real match fused across the \
        providers: SRC counts its sources (* when they disagree on the score), the header shows each provider's \
        state, and the detail pane's grid is selections × sources with each source's age. A recording of several \
        providers replays fused.
        Value mode (v) adds a MARGIN column (the margin of the prices the row shows; ARB and the profit when one of \
        the match's markets is an arbitrage on fresh prices), marks prices whose EV passes --min-ev, and gives the \
        detail pane each book's margin, each selection's fair price and each price's EV (--fair, --devig, --max-age \
        as for `odds value`).
        Example: odds dash --provider tickodds --sport soccer --demo
        Example: odds dash --provider all --demo
        """)

    @OptionGroup var providerOption: ProviderOption
    @OptionGroup var sportOption: SportOption
    @OptionGroup var replay: ReplayOptions
    @OptionGroup var value: ValueOptions
    @OptionGroup var history: HistoryOptions
    @OptionGroup var common: CommonOptions

    @Option(name: .customLong("min-ev"), help: ArgumentHelp("Value mode marks prices with more than this EV: a percentage (2%) or a fraction (0.02). Default 0.", valueName: "ev"))
    var minEV: String = "0"

    @Option(name: .long, help: "Seconds without a message after which rows are shown as stale (default: the feed's own bound, 30 s for TickOdds, 120 s for PulseScore).")
    var staleAfter: Double?

    @Option(name: .customLong("move-window"), help: ArgumentHelp("The MOVE column's window: each row's biggest change over that time (90s, 5m, 1h); default: since the dashboard first saw each price.", valueName: "duration"))
    var moveWindow: String?

    func validate() throws {
        if let staleAfter, staleAfter <= 0 { throw ValidationError("--stale-after must be positive.") }
        if let moveWindow, (ValueOptions.seconds(moveWindow) ?? 0) <= 0 {
            throw ValidationError("--move-window takes a duration such as 90s, 5m or 1h; not '\(moveWindow)'.")
        }
        _ = try fractionArgument(minEV, option: "--min-ev")
        if case .several = providerOption.choice, replay.replay != nil {
            throw ValidationError("--replay shows the recording's own providers; drop --provider all (or the list).")
        }
    }

    func run() async throws {
        // Refuse before starting anything: curses must never take over a pipe.
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw OddsError.usage("odds dash needs a terminal on stdin and stdout; for pipes and scripts use `odds stream`.")
        }
        // Its table shows kick-off times in the user's zone: looked up while the feed connects.
        LocalZone.warmUp()
        let io = IOContext()
        let term = io.environment["TERM"] ?? ""
        guard !term.isEmpty, term != "dumb" else {
            throw OddsError.usage("odds dash needs a terminal type: TERM is \(term.isEmpty ? "unset" : "dumb"); try TERM=xterm-256color.")
        }
        var several: (ids: [ProviderID], all: Bool)?
        if case .several(let ids, let all) = providerOption.choice { several = (ids, all) }
        try await withRuntime(common, provider: several == nil ? providerOption.provider : nil, sport: sportOption.value, io: io,
                              quiet: true) { rt in
            let stats: FeedStats
            let feed: FeedStream
            let provider: any OddsProvider
            // Providers with per-match channels (SportsAPIPro), pointed at the detail pane's match and the rows shown.
            var focus: [ProviderID: any MatchFocus] = [:]
            // `providers = [...]` in the config joins them when no --provider says otherwise.
            if replay.replay == nil, let joined = rt.configJoined(providerOption.choice) {
                several = joined
            }
            var fusing: [any OddsProvider] = []
            if let several {
                stats = FeedStats()
                let fused = try await rt.fusedStream(several.ids, all: several.all, stats: stats, focused: true)
                feed = fused.stream
                fusing = fused.providers
                focus = fused.focus
                provider = fusing[0]
            } else if let path = replay.replay {
                (feed, stats, provider) = try rt.openReplay(path, providerFlag: providerOption.provider, speed: replay.replaySpeed)
            } else {
                provider = try await rt.preparedProvider(rt.settings.provider)
                stats = FeedStats()
                // A provider with per-match channels runs one feed whose channels follow the detail pane and rows.
                if let focused = try provider.focusedStream(sport: rt.settings.sport, stats: stats) {
                    feed = focused.stream
                    focus[provider.id] = focused.focus
                } else {
                    feed = provider.stream(sport: rt.settings.sport, stats: stats)
                }
            }
            var model = DashboardModel(provider: provider.id, sport: rt.settings.sport, demo: rt.demo,
                                       oddsFormat: rt.settings.oddsFormat, favourites: rt.config.favourites,
                                       stalenessBound: staleAfter ?? provider.stalenessBound, now: Date(), fusing: fusing.map(\.id),
                                       names: MatchNames(user: rt.config.aliases))
            // Each provider's own bound, unless --stale-after sets one for all. A replay's other providers are
            // known only from the recording: each registered one's bound, should its messages come.
            if staleAfter == nil {
                for other in fusing { model.stalenessBounds[other.id] = other.stalenessBound }
                if rt.replaying {
                    for id in ProviderRegistry.ids where id != provider.id {
                        if let settings = rt.settings.providers[id],
                           let other = try? ProviderRegistry.make(id, settings: settings, transport: rt.transport) {
                            model.stalenessBounds[id] = other.stalenessBound
                        }
                    }
                }
            }
            model.replay = rt.replaying
            model.moveWindow = moveWindow.flatMap(ValueOptions.seconds)
            model.valueSettings = try value.settings()
            model.minEV = try fractionArgument(minEV, option: "--min-ev")
            model.priceAges = .registered
            model.bookShortNames = Runtime.bookShortNames
            // The config's alert rules are live in the dashboard: each alert in the ticker, its row marked.
            let rules = try rt.configuredAlertRules()
            if !rules.isEmpty { model.watch(rules) }
            // Opened before the screen is taken: a history that cannot be written is one sentence on a normal terminal.
            let writer = try rt.historyWriter(history)
            defer { rt.finishHistory(writer) }
            let terminal: CursesTerminal
            do { terminal = try CursesTerminal.open(environment: io.environment) } catch {
                throw OddsError.usage(String(describing: error))
            }
            // Should the dashboard not stop by the signal deadline, the terminal is restored before the process ends.
            nonisolated(unsafe) let lastResort = terminal
            let restore = Interrupts.shared.addCleanup { lastResort.close() }
            let size = terminal.size
            _ = update(&model, .resize(width: size.width, height: size.height))
            let configPath = rt.settings.configPath
            // A replay is shown as if it arrived now: the dashboard's clock and staleness are the wall clock's.
            // The terminal is the dashboard's while it runs: a failed save is reported once it is restored.
            let saveError = NIOLockedValueBox<String?>(nil)
            let outcome = await DashboardRunner.run(terminal: terminal, model: model, feed: feed, restamp: rt.replaying,
                                                    books: common.bookFilter, focus: focus, history: writer) { favourites in
                do { try ConfigFile.saveFavourites(favourites, path: configPath) } catch {
                    saveError.withLockedValue { $0 = (error as? OddsError)?.message ?? "\(error)" }
                }
            }
            Interrupts.shared.removeCleanup(restore)
            terminal.close()
            if let message = saveError.withLockedValue({ $0 }) { io.err("Favourites were not saved: \(message)") }
            if stats.malformed > 0 { io.err("\(stats.malformed) malformed messages were skipped.") }
            if let error = outcome.feedError { throw error }
        }
    }
}

/// Runs the dashboard: a UI thread that reads keys, folds feed messages, ticks and redraws at most
/// 30 times a second, while the feed runs on its own task. Ends on q or a signal.
enum DashboardRunner {
    struct Outcome {
        var model: DashboardModel
        var feedError: Error?
    }

    /// The feed as the UI loop takes it: polled on each pass, every waiting message at once. The loop reads
    /// the feed's queue itself (no task in between to wake for each message): when it falls behind, the
    /// queue fills and the feed waits (and, through it, stops reading the socket).
    final class Inbox: @unchecked Sendable {
        // @unchecked: `feed` is thread-safe; the rest is used by the UI loop alone, `_error` behind `lock`.
        private let feed: FeedStream
        private let books: BookFilter
        private let restamp: Bool
        private var ended = false
        private let lock = NSLock()
        private var _error: Error?

        init(feed: FeedStream, books: BookFilter, restamp: Bool) {
            self.feed = feed; self.books = books; self.restamp = restamp
        }

        /// The feed's waiting messages, and its end once after the last of them.
        func drain() -> [DashboardMessage] {
            let (messages, end) = feed.poll()
            var out: [DashboardMessage] = []
            out.reserveCapacity(messages.count + 1)
            for message in messages {
                guard var m = books.apply(message) else { continue }
                if restamp { m.receivedAt = Date() }
                out.append(.feed(m))
            }
            if let end, !ended {
                ended = true
                switch end {
                case .success: out.append(.feedEnded(reason: nil))
                case .failure(let error):
                    lock.withLock { _error = error }
                    out.append(.feedEnded(reason: (error as? OddsError)?.message ?? String(describing: error)))
                }
            }
            return out
        }

        /// The dashboard is closing: the feed stops.
        func stop() { feed.stop() }

        /// Takes the feed's end (and its error), once it comes within `timeout` seconds; what comes before it
        /// is dropped (the dashboard is closing).
        func awaitEnd(timeout: TimeInterval, clock: any FeedClock = SystemClock()) async {
            let deadline = clock.now.addingTimeInterval(timeout)
            _ = drain()
            while !ended, clock.now < deadline {
                try? await clock.sleep(0.01)
                // Also once past the deadline: a sleep that overran it may have slept through the end.
                _ = drain()
            }
        }

        /// Runs `body` when a message is buffered or the feed ends.
        func onMessage(_ body: @escaping @Sendable () -> Void) { feed.setOnSend(body) }

        /// Whether the last drain found the feed's queue this full: the feed is waiting on the loop.
        func backlogged(_ taken: Int) -> Bool { taken >= feed.capacity / 2 }

        var error: Error? { lock.withLock { _error } }
    }

    static func run(terminal: CursesTerminal, model initial: DashboardModel, feed: FeedStream, restamp: Bool = false,
                    books: BookFilter = BookFilter([]), focus: [ProviderID: any MatchFocus] = [:], history: HistoryWriter? = nil,
                    saveFavourites: @escaping ([String]) -> Void) async -> Outcome {
        let inbox = Inbox(feed: feed, books: books, restamp: restamp)
        let stop = ManagedFlag()
        let wakeup = Wakeup()
        inbox.onMessage { wakeup.feedArrived() }
        let signals = TerminationSignals { stop.set(); wakeup.signal() }
        let keys = KeyWatcher(fd: STDIN_FILENO) { wakeup.signal() }
        defer { keys?.stop() }
        let final = await loop(terminal: terminal, model: initial, inbox: inbox, stop: stop, wakeup: wakeup, keys: keys,
                               focus: focus, history: history, save: saveFavourites)
        // A feed says it stopped just before it ends with its error: q in between exits with that error's
        // sentence and code, as after it, not with 0.
        if case .stopped = final.connection { await inbox.awaitEnd(timeout: 2) }
        inbox.stop()
        signals.cancel()
        return Outcome(model: final, feedError: inbox.error)
    }

    static let frameInterval = 1.0 / 30

    /// The UI loop. Key reads never block, and curses is only ever called from this one task. Between passes
    /// it sleeps (`Wakeup`, not holding a thread of the cooperative pool) until a key, a signal, the next tick or
    /// frame, or, when the feed was quiet, its next message: a busy feed is taken once a frame, not once a message.
    static func loop(terminal: CursesTerminal, model initial: DashboardModel, inbox: Inbox, stop: ManagedFlag,
                     wakeup: Wakeup, keys: KeyWatcher?,
                     focus: [ProviderID: any MatchFocus] = [:], history: HistoryWriter? = nil, save: ([String]) -> Void) async -> DashboardModel {
        var model = initial
        // Per provider with match channels: the match it follows for the detail pane, and the rows shown, as its
        // own ids (a fused row's source of that provider).
        var focused: [ProviderID: String] = [:]
        var shownRows: [ProviderID: [String]] = [:]
        // With a history: what it kept of the detail pane's row from before the dashboard started.
        let historyReader = history.map { DashboardHistoryReader(location: $0.location) }
        var askedHistory: EventKey?
        defer { for (p, f) in focus where focused[p] != nil { f.focus(nil) } }
        var lastDraw = Date.distantPast
        var lastTick = Date()
        // A terminal may apply a resize in steps after it reports one (tmux keeps a shrinking pane's bottom lines
        // and drops the top ones): the whole screen is drawn again a moment after the last resize too, since rows
        // that did not change are otherwise never written again.
        var repaintAfterResize: Date?
        func resized() {
            terminal.invalidate()
            let size = terminal.size
            _ = update(&model, .resize(width: size.width, height: size.height))
        }
        // `b`'s bets, recorded in the history's ledger off the UI loop; each answer is a ticker line.
        let bets = DashboardBets(location: history?.location) { wakeup.signal() }
        func apply(_ effects: [DashboardEffect]) -> Bool {
            for effect in effects {
                switch effect {
                case .quit: return true
                case .saveFavourites(let list): save(list)
                case .recordBet(let request): bets.record(request)
                }
            }
            return false
        }
        while !stop.value {
            // Every key that is there; a key's frame is drawn at once, not at the next frame's turn.
            var pressed = false
            while let input = terminal.readKey(timeoutMilliseconds: 0) {
                pressed = true
                switch input {
                case .resize:
                    resized()
                    repaintAfterResize = Date().addingTimeInterval(0.3)
                case .key(let key):
                    if apply(update(&model, .key(key))) { return model }
                }
            }
            keys?.keysRead()
            // Messages about rows off screen draw nothing (`needsDraw`); the next tick shows their counts.
            let messages = inbox.drain()
            for m in messages {
                _ = update(&model, m)
                if let history, case .feed(let fm) = m { history.record(fm, in: model.store) }
            }
            let now = Date()
            if let at = repaintAfterResize, now >= at {
                repaintAfterResize = nil
                resized()
            }
            if now.timeIntervalSince(lastTick) >= 0.25 {
                _ = update(&model, .tick(now))
                lastTick = now
                // The rows on screen, four times a second (sorting them is not free).
                if !focus.isEmpty {
                    let visible = model.visibleRows
                    for (p, f) in focus {
                        let ids = visible.compactMap { model.sourceID(of: $0, provider: p) }
                        if !ids.isEmpty, ids != shownRows[p] { shownRows[p] = ids; f.rows(ids) }
                    }
                }
            }
            for (p, f) in focus {
                let id = model.focused.flatMap { model.sourceID(of: $0, provider: p) }
                if id != focused[p] { focused[p] = id; f.focus(id) }
            }
            for notice in bets.take() { _ = update(&model, .notice(notice)) }
            if let historyReader {
                if let row = model.focused, row != askedHistory, let request = model.historyRequest(row) {
                    askedHistory = row
                    historyReader.ask(row, sources: request.sources, main: request.main)
                }
                for (row, seed) in historyReader.take() { _ = update(&model, .history(row: row, seed: seed)) }
            }
            if model.needsDraw && (pressed || now.timeIntervalSince(lastDraw) >= frameInterval) {
                terminal.draw(DashboardLayout.layout(model))
                lastDraw = now
                model.drawn()
            }
            // A feed that is waiting on the loop is taken again at once.
            if inbox.backlogged(messages.count) { await Task.yield(); continue }
            // Until the next tick; a frame waiting to be drawn, or a busy feed, at the next frame's turn. A quiet
            // feed's next message wakes the loop at once.
            // (Measured from now for the feed: after a pass that drew nothing, the last frame may be long past,
            // and a wait until then would not wait at all.)
            let passEnd = Date()
            var until = lastTick.addingTimeInterval(0.25)
            if model.needsDraw { until = min(until, lastDraw.addingTimeInterval(frameInterval)) }
            if !messages.isEmpty { until = min(until, passEnd.addingTimeInterval(frameInterval)) }
            await wakeup.wait(seconds: until.timeIntervalSince(passEnd), feed: messages.isEmpty)
        }
        return model
    }
}

