import ArgumentParser
import Foundation
import OddsAlerts
import OddsCommandSupport
import OddsFusion
import OddsJSON
import OddsModel
import OddsOutput
import OddsStore
import OddsTransport
import OddsValue

extension OddsCommand {
    /// `odds alert RULE...`: a line the moment a rule comes true.
    struct Alert: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "alert",
            abstract: "Be told the moment a price, a move or a goal happens.",
            discussion: """
            Each RULE is one argument (quote it); without one, the config's [[alerts]] (name = "…", rule = "…") are used. \
            Every rule is checked against every change of the live feed. \
            A rule fires on the change that makes it true, never on a suspended price, and not on what the first \
            sight of a match already shows (--initial: it does); then, for that selection, only once it has been \
            false again (a level) or its window has passed (a move): one event, one alert. A bad rule is one \
            sentence naming the word that is wrong, before anything connects (exit 64). Runs until interrupted, \
            --once (exit 0 after the first alert) or --timeout (exit 10 when nothing fired). Rules:
            \(AlertRule.grammar.split(separator: "\n").map { "  " + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; "))
            Value and arb rules use fair prices as odds value makes \
            them (--fair, --devig), and a price older than --max-age counts for neither. \
            Example: odds alert 'move any 5% in 30s' 'goal' --provider boltodds --sport all --ndjson
            """)

        @Argument(help: ArgumentHelp("Rules, one argument each: 'price \"Arsenal\" >= 2.50', 'move any 5% in 30s', goal.", valueName: "rule"))
        var rules: [String] = []

        @OptionGroup var providerOption: ProviderOption
        @OptionGroup var sportOption: SportOption
        @OptionGroup var replay: ReplayOptions

        @Option(name: .long, help: ArgumentHelp("Only this match: an id, a short id, or a team.", valueName: "match"))
        var match: String?

        @Flag(name: .long, help: "Exit 0 after the first alert.")
        var once = false

        @Option(name: .long, help: ArgumentHelp("Stop after this long (30s, 10m, 2h); exit 10 if nothing fired.", valueName: "duration"))
        var timeout: String?

        @Flag(name: .long, help: "Fire on what the first sight of a match already shows (a price already past its level, an incident already in).")
        var initial = false

        @Flag(name: .long, help: "Ring the terminal bell with each alert.")
        var bell = false

        @Flag(name: .long, help: "A desktop notification with each alert (notify-send; one warning where it is not installed).")
        var notify = false

        @Option(name: .long, help: ArgumentHelp(
            "Run this command with each alert (split into words once, never through a shell); the alert is in its environment: ODDS_ALERT_RULE, _KIND, _MATCH, _SELECTION, _BOOK, _PRICE and _JSON.",
            valueName: "command"))
        var exec: String?

        @Option(name: .long, help: ArgumentHelp("POST each alert's JSON object to this URL (retried with backoff; failures are warnings).", valueName: "url"))
        var webhook: String?

        @OptionGroup var value: ValueOptions
        @OptionGroup var common: CommonOptions

        func validate() throws {
            _ = try parsedRules()
            if let timeout, (ValueOptions.seconds(timeout) ?? 0) <= 0 {
                throw ValidationError("--timeout takes a duration such as 30s, 10m or 2h, not '\(timeout)'.")
            }
            if case .several = providerOption.choice, replay.replay != nil {
                throw ValidationError("--replay alerts on the recording's own provider; drop --provider all (or the list).")
            }
            _ = try delivery()
        }

        func delivery() throws -> DeliveryOptions {
            var d = DeliveryOptions()
            d.bell = bell
            d.notify = notify
            if let exec {
                guard let argv = DeliveryOptions.words(exec), !argv.isEmpty else {
                    throw ValidationError("--exec takes a command, its words split once as a shell would (no quote left open): '\(exec)' is not one.")
                }
                d.exec = argv
            }
            if let webhook {
                guard let url = URL(string: webhook), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                    throw ValidationError("--webhook takes an http:// or https:// URL, not '\(webhook)'.")
                }
                d.webhook = webhook
            }
            return d
        }

        func parsedRules() throws -> [AlertRule] {
            try rules.map { text in
                do { return try AlertRule.parse(text) } catch let e as AlertRuleError { throw ValidationError(e.message) }
            }
        }

        /// The rules given, else the config's `[[alerts]]` (a bad one there is a config error, exit 2).
        func engine(_ rt: Runtime) throws -> AlertEngine {
            var list = try parsedRules()
            if list.isEmpty { list = try rt.configuredAlertRules() }
            guard !list.isEmpty else {
                throw OddsError.usage("Give at least one rule, such as 'move any 5% in 30s' or goal, or name some under [[alerts]] in the config (see odds alert --help).")
            }
            var engine = AlertEngine(rules: list, initial: initial)
            engine.valueSettings = try value.settings()
            engine.ages = PriceAges.registered
            return engine
        }

        func run() async throws {
            let options = AlertRunOptions(match: match, once: once, timeout: timeout.flatMap(ValueOptions.seconds), delivery: try delivery())
            if case .several(let ids, let all) = providerOption.choice {
                try await withRuntime(common, sport: sportOption.value) { rt in
                    let engine = try engine(rt)
                    let stats = FeedStats()
                    let feed = try await rt.fusedStream(ids, all: all, stats: stats).stream
                    try await runAlerts(feed, stats: stats, engine: engine, options: options, rt, providers: ids)
                }
                return
            }
            try await withRuntime(common, provider: providerOption.provider, sport: sportOption.value) { rt in
                let engine = try engine(rt)
                if let path = replay.replay {
                    let (feed, stats, _) = try rt.openReplay(path, providerFlag: providerOption.provider, sport: nil, speed: replay.replaySpeed)
                    try await runAlerts(feed, stats: stats, engine: engine, options: options, rt, replayed: true)
                    return
                }
                let stats = FeedStats()
                let feed = try await rt.preparedProvider(rt.settings.provider).stream(sport: rt.settings.sport, stats: stats)
                try await runAlerts(feed, stats: stats, engine: engine, options: options, rt, providers: [rt.settings.provider])
            }
        }
    }
}

extension Runtime {
    /// The config's `[[alerts]]`, parsed (a bad one is a config error naming its rule, exit 2).
    func configuredAlertRules() throws -> [AlertRule] {
        try config.alerts.map { entry in
            do { return try AlertRule.parse(entry.rule, name: entry.name) } catch let e as AlertRuleError {
                throw OddsError.config("In [[alerts]] of \(settings.configPath)\(entry.name.map { " (\($0))" } ?? ""): \(e.message)")
            }
        }
    }
}

/// What `odds alert` was asked besides its rules.
struct AlertRunOptions: Sendable {
    var match: String?
    var once: Bool
    var timeout: TimeInterval?
    var delivery = DeliveryOptions()
}

/// Checks the feed against the rules and prints each alert as it fires: one line on a terminal, a TSV row
/// piped (the header first), a JSON object a line with --ndjson. Ends on a signal, --once, --timeout (exit 10 when
/// nothing fired), or the end of a replay.
func runAlerts(_ feed: FeedStream, stats: FeedStats, engine: AlertEngine, options: AlertRunOptions, _ rt: Runtime,
               providers: [ProviderID] = [], replayed: Bool = false) async throws {
    let io = rt.io
    let books = rt.common.bookFilter
    let delivery: AlertDelivery? = options.delivery.isEmpty ? nil : AlertDelivery(
        options: options.delivery, transport: rt.transport, warn: { io.err($0) },
        ring: { if io.stdoutIsTTY { io.out("\u{07}") } else { io.ring() } })
    let state = AlertState(engine: engine, format: rt.outputFormat, render: rt.renderOptions, match: options.match, io: io,
                           fusion: providers.count > 1 ? MatchFusion(names: MatchNames(user: rt.config.aliases)) : nil,
                           limit: options.once ? 1 : nil)
    // The feed's changes, and (for a live feed with a stale rule) the clock once a second.
    let loop: @Sendable () async throws -> Void = {
        for try await received in feed {
            guard let message = books.apply(received) else { continue }
            for (alert, json) in state.observe(message) {
                await delivery?.deliver(alert, json: json)
                if options.once { return }
            }
            if io.stdoutClosed { return }
        }
    }
    let ticking = !replayed && engine.rules.contains { if case .stale = $0.kind { true } else { false } }
    let since = Date()
    let clock: @Sendable () async throws -> Void = {
        while true {
            try await Task.sleep(nanoseconds: 1_000_000_000)
            for (alert, json) in state.tick(now: Date(), providers: providers, since: since) {
                await delivery?.deliver(alert, json: json)
                if options.once { return }
            }
        }
    }
    let interrupted = try await untilInterrupted {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await loop() }
            if ticking { group.addTask { try await clock() } }
            if let timeout = options.timeout { group.addTask { try await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000)) } }
            try await group.next()
            group.cancelAll()
        }
    }
    let fired = state.fired
    if let delivery {
        // What was handed over is delivered before the end (or given up on, after a while).
        await delivery.finish(timeout: max(options.delivery.execTimeout, 10) + 5)
        let totals = await delivery.totals
        if totals.failed > 0 || totals.dropped > 0 {
            io.err("\(totals.failed) alert deliver\(totals.failed == 1 ? "y" : "ies") failed, \(totals.dropped) dropped (of \(fired) alert(s)).")
        }
    }
    if replayed {
        rt.reportReplay(stats)
    } else if rt.common.verbose || stats.malformed > 0 || interrupted {
        io.err("\(fired) alert(s); \(stats.frames) messages received, \(stats.malformed) malformed skipped, \(stats.connects) connection(s).")
    }
    if !interrupted, options.timeout != nil, fired == 0 {
        throw OddsError.quiet("No rule fired within --timeout.")
    }
}

/// The engine and the store, shared by the feed's loop and the clock, and the printing of alerts in order.
/// @unchecked Sendable: every field is touched only with `lock` held.
final class AlertState: @unchecked Sendable {
    private let lock = NSLock()
    private var engine: AlertEngine
    private var store = LiveStore()
    /// With several providers: the real matches, and what was told of each already.
    private var fusion: MatchFusion?
    private var deduper = AlertDeduper()
    private var seen = 0
    private var headerDone = false
    private var count = 0
    private let format: OutputFormat
    private let render: RenderOptions
    private let match: String?
    private let io: IOContext
    /// --once: alerts printed at most (one message can set off several).
    private let limit: Int?

    init(engine: AlertEngine, format: OutputFormat, render: RenderOptions, match: String?, io: IOContext, fusion: MatchFusion?, limit: Int?) {
        self.engine = engine; self.format = format; self.render = render; self.match = match; self.io = io; self.fusion = fusion
        self.limit = limit
    }

    var fired: Int { lock.lock(); defer { lock.unlock() }; return count }

    /// Applies `message` and prints what it sets off; returns each alert with its JSON object, for delivery.
    func observe(_ message: FeedMessage) -> [(OddsAlerts.Alert, String)] {
        lock.lock(); defer { lock.unlock() }
        store.apply(message)
        _ = fusion?.follow(message, in: store)
        seen += 1
        if seen % 4096 == 0 { fusion?.prune { store.events[$0] != nil } }
        let fused = fusion
        var alerts = engine.observe(message, in: store, fusedMatch: fused.map { f in { f.matchID(of: $0) } })
        if fusion != nil { alerts = alerts.filter { deduper.admit($0, match: $0.fusedMatch) } }
        return emit(alerts)
    }

    func tick(now: Date, providers: [ProviderID], since: Date) -> [(OddsAlerts.Alert, String)] {
        lock.lock(); defer { lock.unlock() }
        return emit(engine.tick(now: now, providers: providers, since: since))
    }

    private func emit(_ alerts: [OddsAlerts.Alert]) -> [(OddsAlerts.Alert, String)] {
        var out: [(OddsAlerts.Alert, String)] = []
        for alert in alerts {
            if let limit, count >= limit { break }
            if let match, !alert.eventID.isEmpty, !AlertMatch.named(match, alert, store) { continue }
            let json = alert.json(labels: render.jsonLabels).rendered
            switch format {
            case .json, .ndjson:
                io.out(json + "\n")
            case .table:
                io.out(TerminalText.safe(alert.line(render.oddsFormat)) + "\n")
            case .tsv, .csv:
                var text = RecordReporter.render(columns: OddsAlerts.Alert.columns, records: [alert.record(render.oddsFormat)],
                                                 format: format, options: render)
                if headerDone, let newline = text.firstIndex(of: "\n") { text = String(text[text.index(after: newline)...]) }
                headerDone = true
                io.out(text)
            }
            count += 1
            out.append((alert, json))
        }
        return out
    }
}

/// Whether `--match` names an alert's match: its id, its short id, or one of its teams.
enum AlertMatch {
    static func named(_ wanted: String, _ alert: OddsAlerts.Alert, _ store: LiveStore) -> Bool {
        let w = wanted.trimmingCharacters(in: .whitespaces)
        if alert.eventID == w || Event.shortID(for: alert.eventID) == w { return true }
        let folded = TeamName.fold(w)
        return !folded.isEmpty && [alert.home, alert.away ?? ""].contains { TeamName.fold($0).contains(folded) }
    }
}

