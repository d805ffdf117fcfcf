import ArgumentParser
import Foundation
import OddsFusion
import OddsJSON
import OddsModel
import OddsCommandSupport
import OddsOutput
import OddsProviders
import OddsStore
import OddsTransport
import OddsValue

extension DevigMethod: ExpressibleByArgument, ArgumentByName {}

/// `--fair`, `--devig` and `--max-age`: how fair prices are made and which prices count.
struct ValueOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Where fair prices come from: consensus (per selection, the median of every fresh book's vig-free probability, renormalised), or one book's (pinnacle).",
        valueName: "reference"))
    var fair: String = "consensus"

    @Option(name: .long, help: ArgumentHelp(
        "How a book's margin is removed: multiplicative (p = q/Σq), additive (p = q − (Σq−1)/n), power (p = q^k, Σ = 1) or shin (Shin's insider model). q = 1/price.",
        valueName: "method"))
    var devig: DevigMethod = .multiplicative

    @Option(name: .customLong("max-age"), help: ArgumentHelp(
        "How long a price may go without word that it stands and still count: in play, then before it (e.g. 5s or 10s,2m).",
        valueName: "in-play[,pre-match]"))
    var maxAge: String = "10s,60s"

    func validate() throws { _ = try settings() }

    func settings() throws -> ValueSettings {
        let parts = maxAge.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard (1...2).contains(parts.count), let inPlay = Self.seconds(parts[0]) else {
            throw ValidationError("--max-age takes a duration, or two separated by a comma (10s,60s): '\(maxAge)' is not one.")
        }
        let prematch = parts.count == 2 ? Self.seconds(parts[1]) : max(inPlay, 60)
        guard let prematch else { throw ValidationError("--max-age: '\(parts[1])' is not a duration (e.g. 60s, 2m).") }
        guard !fair.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("--fair needs consensus or a book's name.") }
        return ValueSettings(reference: FairReference(fair), method: devig, maxAgeInPlay: inPlay, maxAgePrematch: prematch)
    }

    /// "10", "10s", "500ms", "2m" as seconds; nil for anything else or a negative.
    static func seconds(_ text: String) -> TimeInterval? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        for (suffix, scale) in [("ms", 0.001), ("s", 1.0), ("m", 60.0), ("h", 3600.0), ("", 1.0)] where t.hasSuffix(suffix) {
            guard let v = Double(t.dropLast(suffix.count)), v.isFinite, v >= 0 else { continue }
            return v * scale
        }
        return nil
    }
}

extension PriceAges {
    /// Ages as the registered providers' feeds give them (which send only changes).
    static var registered: PriceAges {
        PriceAges(changesOnly: Set(ProviderRegistry.descriptors.filter { $0.capabilities.contains(.changesOnly) }.map(\.id)))
    }
}

/// `--watch` and its `--limit` of `odds value` and `odds arb`.
struct WatchOptions: ParsableArguments {
    @Flag(name: .long, help: "Follow the live feed: an NDJSON line as each opportunity opens, changes and closes (with how long it lasted).")
    var watch = false

    @Option(name: .long, help: "With --watch, stop after this many lines (default: run until interrupted).")
    var limit: Int?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1.") }
        if limit != nil, !watch { throw ValidationError("--limit counts --watch lines; add --watch.") }
    }
}

/// A threshold given as a percentage ("2%", "0.5%") or a fraction ("0.02"), exactly.
func fractionArgument(_ text: String, option: String) throws -> Fraction {
    var t = text.trimmingCharacters(in: .whitespaces)
    let percent = t.hasSuffix("%")
    if percent { t.removeLast() }
    guard let value = Fraction(decimalText: t.trimmingCharacters(in: .whitespaces)) else {
        throw ValidationError("\(option) takes a percentage (2%) or a fraction (0.02): '\(text)' is neither.")
    }
    return percent ? (value / Fraction(100))! : value
}

extension Runtime {
    /// The events a one-shot command reads: one provider's live events, or several fused (`--provider all`,
    /// a list, or `providers` in the config), with the time they arrived.
    func oneShotEvents(_ option: ProviderOption) async throws -> (events: [Event], at: Date) {
        if let several = joinedProviders(option.choice) {
            return (try await fusedLiveEvents(several.ids, all: several.all), Date())
        }
        return (try await preparedProvider(settings.provider).liveEvents(sport: settings.sport), Date())
    }

    /// Every event's exhaustive markets analysed, each source's age taken at `now` from when the answer arrived.
    func analysed(_ events: [Event], arrived: Date, settings value: ValueSettings) -> [EventValue] {
        let age = max(0, Date().timeIntervalSince(arrived))
        return events.map { common.bookFilter.apply($0) }.map { e in
            EventValue(event: e, markets: ValueAnalysis.analyze(e, settings: value) { _ in age })
        }
    }
}

extension OddsCommand {
    /// `odds value`: prices above their fair price.
    struct Value: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "value",
            abstract: "Prices above their fair price (EV), best first.",
            discussion: """
            For each match result, total and spread line and both-teams-to-score market, each book's margin \
            (Σ 1/price − 1, complete markets only), each selection's fair price from --fair and --devig, and each \
            price's EV = price × fair probability − 1. Only prices younger than --max-age are listed. All of it is \
            exact arithmetic on the providers' own prices; rounding is only in what is shown (JSON: fractions to 6 \
            places, tables: percentages to 2). With --watch, NDJSON lines as value opens, changes and closes. \
            Example: odds value --provider boltodds --sport basketball --min-ev 2% --fair pinnacle
            """)

        @OptionGroup var providerOption: ProviderOption
        @OptionGroup var sportOption: SportOption
        @OptionGroup var value: ValueOptions

        @Option(name: .customLong("min-ev"), help: ArgumentHelp("List prices with at least this EV: a percentage (2%) or a fraction (0.02). Default 0.", valueName: "ev"))
        var minEV: String = "0"

        @OptionGroup var watching: WatchOptions
        @OptionGroup var common: CommonOptions

        func validate() throws {
            _ = try fractionArgument(minEV, option: "--min-ev")
        }

        func run() async throws {
            let threshold = try fractionArgument(minEV, option: "--min-ev")
            let settings = try value.settings()
            try await withRuntime(common, provider: try? providerOption.provider, sport: sportOption.value) { rt in
                if watching.watch {
                    try await watchOpportunities(kind: "value", rt, providerOption, limit: watching.limit, settings: settings) { value in
                        ValueReport.valueBets([value], minEV: threshold).map {
                            Opportunity(key: $0.key, row: Opportunity.row($0.event.provider, $0.event.id), signature: $0.signature,
                                        fields: ValueReport.valueFields($0, settings: settings))
                        }
                    }
                    return
                }
                let (events, at) = try await rt.oneShotEvents(providerOption)
                let bets = ValueReport.valueBets(rt.analysed(events, arrived: at, settings: settings), minEV: threshold)
                rt.io.out(ValueReport.renderValue(bets, settings: settings, format: rt.outputFormat, options: rt.renderOptions))
            }
        }
    }

    /// `odds arb`: markets whose best prices across books guarantee a return.
    struct Arb: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "arb",
            abstract: "Arbitrage across books, with rounded stakes.",
            discussion: """
            A complete market (every selection priced, the same line, none suspended, none older than --max-age) \
            whose best prices across books have Σ 1/best < 1. Profit = 1/Σ − 1. Each leg's stake is \
            --stake × (1/price)/Σ rounded to --round; the guaranteed return is the smallest leg's return after \
            rounding, and the profit is shown before and after rounding. The oldest leg's age is always shown. \
            With --watch, NDJSON lines as arbitrages open, change and close (with how long each lasted). \
            Example: odds arb --provider all --stake 250 --round 1 --min-profit 0.5%
            """)

        @OptionGroup var providerOption: ProviderOption
        @OptionGroup var sportOption: SportOption
        @OptionGroup var value: ValueOptions

        @Option(name: .long, help: ArgumentHelp("The total to stake across the legs.", valueName: "amount"))
        var stake: String = "100"

        @Option(name: .long, help: ArgumentHelp("Round each leg's stake to a multiple of this.", valueName: "unit"))
        var round: String = "0.01"

        @Option(name: .customLong("min-profit"), help: ArgumentHelp("List arbitrages of at least this profit: a percentage (0.5%) or a fraction (0.005). Default 0.", valueName: "profit"))
        var minProfit: String = "0"

        @OptionGroup var watching: WatchOptions
        @OptionGroup var common: CommonOptions

        func amounts() throws -> (stake: Fraction, unit: Fraction, minProfit: Fraction) {
            guard let s = Fraction(decimalText: stake.trimmingCharacters(in: .whitespaces)), s.isPositive else {
                throw ValidationError("--stake takes a positive amount (100, 250.50): '\(stake)' is not one.")
            }
            guard let u = Fraction(decimalText: round.trimmingCharacters(in: .whitespaces)), u.isPositive else {
                throw ValidationError("--round takes a positive unit (0.01, 1, 5): '\(round)' is not one.")
            }
            return (s, u, try fractionArgument(minProfit, option: "--min-profit"))
        }

        func validate() throws {
            _ = try amounts()
        }

        func run() async throws {
            let (stake, unit, minProfit) = try amounts()
            let settings = try value.settings()
            try await withRuntime(common, provider: try? providerOption.provider, sport: sportOption.value) { rt in
                if watching.watch {
                    try await watchOpportunities(kind: "arb", rt, providerOption, limit: watching.limit, settings: settings) { value in
                        ValueReport.arbitrages([value], minProfit: minProfit).map {
                            Opportunity(key: $0.key, row: Opportunity.row($0.event.provider, $0.event.id), signature: $0.signature,
                                        fields: ValueReport.arbFields($0, stake: stake, unit: unit))
                        }
                    }
                    return
                }
                let (events, at) = try await rt.oneShotEvents(providerOption)
                let arbs = ValueReport.arbitrages(rt.analysed(events, arrived: at, settings: settings), minProfit: minProfit)
                rt.io.out(ValueReport.renderArbs(arbs, stake: stake, unit: unit, format: rt.outputFormat, options: rt.renderOptions))
            }
        }
    }
}

/// `--watch` of `odds value` and `odds arb`: the live feed (one provider, or several fused) folded into a store;
/// each message's rows are analysed again and `found` lists an analysed row's opportunities; the tracker writes
/// one NDJSON line as each opens, changes and closes. Ends like `odds stream`.
func watchOpportunities(kind: String, _ rt: Runtime, _ option: ProviderOption, limit: Int?, settings: ValueSettings,
                        found: @escaping @Sendable (EventValue) -> [Opportunity]) async throws {
    let stats = FeedStats()
    let several = rt.joinedProviders(option.choice)
    let feed: FeedStream
    if let several {
        feed = try await rt.fusedStream(several.ids, all: several.all, stats: stats).stream
    } else {
        feed = try await rt.preparedProvider(rt.settings.provider).stream(sport: rt.settings.sport, stats: stats)
    }
    let ages = PriceAges.registered
    let labels = rt.renderOptions.jsonLabels
    let books = rt.common.bookFilter
    let names = MatchNames(user: rt.config.aliases)
    let io = rt.io
    // A tick a second through the feed's own queue, so that prices that age out close while the feed is silent.
    // It is never applied to the store: it is no word from any provider.
    let tickConnection = "odds-watch-tick"
    let ticker = Task {
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: 1_000_000_000)
            guard await feed.send(FeedMessage(provider: .fused, connection: tickConnection, receivedAt: Date(), update: .heartbeat)) else { return }
        }
    }
    defer { ticker.cancel() }
    let interrupted = try await untilInterrupted {
        var sources = LiveStore()
        var fused: FusedStore? = several == nil ? nil : FusedStore(names: names)
        var tracker = OpportunityTracker(kind: kind, labels: labels)
        var written = 0
        var lastSweep = Date.distantPast
        for try await received in feed {
            let tick = received.connection == tickConnection && received.provider == .fused
            guard let message = tick ? received : books.apply(received) else { continue }
            if !tick {
                sources.apply(message)
                fused?.apply(message, sources: sources)
            }
            let now = message.receivedAt
            let store = fused?.store ?? sources
            // The rows this message touched; every row (and every row with something open) at most once a second,
            // so that prices that aged out close, and on a message about no one event (a snapshot).
            let rows: [EventKey]
            var rowIDs: Set<String> = []
            if let id = message.update.eventID, now.timeIntervalSince(lastSweep) < 1 {
                let key = EventKey(provider: message.provider, id: id)
                rows = fused == nil ? [key] : (fused!.fusion.match(of: key).map { [EventKey(provider: .fused, id: $0.id)] } ?? [])
                // A row that left the store closes what it had.
                if fused == nil { rowIDs.insert(Opportunity.row(key.provider, key.id)) }
            } else {
                if now.timeIntervalSince(lastSweep) >= 1 { lastSweep = now }
                rows = Array(store.events.keys)
                rowIDs = tracker.openRows
            }
            rowIDs.formUnion(rows.map { Opportunity.row($0.provider, $0.id) })
            let opportunities = rows.flatMap { key -> [Opportunity] in
                guard let event = store.events[key]?.event else { return [] }
                return found(EventValue(event: event, markets: ValueAnalysis.analyze(event, settings: settings) {
                    ages.age(of: $0, in: event, sources: sources, now: now)
                }))
            }
            for line in tracker.update(rows: rowIDs, found: opportunities, at: now) {
                io.out(line.rendered + "\n")
                written += 1
                if io.stdoutClosed { return }
                if let limit, written >= limit { return }
            }
        }
    }
    if rt.common.verbose || stats.malformed > 0 || interrupted {
        io.err("\(stats.frames) messages received, \(stats.malformed) malformed skipped, \(stats.connects) connection(s).")
    }
}
