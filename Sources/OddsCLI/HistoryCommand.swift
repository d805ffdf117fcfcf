import ArgumentParser
import Foundation
import OddsCommandSupport
import OddsFusion
import OddsHistory
import OddsJSON
import OddsModel
import OddsOutput
import OddsProviders

/// `odds history …`: what the history keeps, read back.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Line history: every price, score and incident kept.",
        discussion: """
            A history is written by `odds stream`, `odds watch` and `odds dash` with --history [PATH|URL] (or `history = …` \
            in the config). It is read from the same place: --history, else the config's, else the default file \
            ($XDG_DATA_HOME/odds/history.sqlite).
            """,
        subcommands: [Collect.self, Matches.self, Show.self, Chart.self, Stats.self])
}

/// Where a history command reads from.
struct HistorySource: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The history to read: a SQLite file or a postgres:// URL (default: the config's `history`, else the default file).",
                                            valueName: "path|url"))
    var history: String?

    func open(_ rt: Runtime) throws -> any HistoryBackend {
        let text = history ?? rt.config.history ?? ""
        return try History.open(HistoryLocation.parse(text, environment: rt.io.environment), writing: false)
    }

    /// The provider a `--provider` of a history command names; a usage error (exit 64) naming them all when none.
    static func provider(_ typed: String) throws -> ProviderID {
        guard let id = ProviderID.declared(typed.lowercased()) else {
            let known = ProviderRegistry.ids.map(\.rawValue).joined(separator: ", ")
            throw OddsError.usage("There is no provider '\(typed)': the providers are \(known).")
        }
        return id
    }

    /// The stored match `typed` names (an id or a team); exit 5 when there is none.
    static func find(_ typed: String, in history: any HistoryBackend) throws -> StoredMatchFinder.Found {
        guard let found = try StoredMatchFinder.lookup(typed, in: history) else {
            throw OddsError.notFound("The history has no match '\(typed)' (see odds history matches).")
        }
        return found
    }
}

/// `--since 2h` (also 30m, 3d, 90s) or an RFC 3339 time.
struct SinceOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Only what was received since then: a duration back from now (90s, 30m, 2h, 3d) or an RFC 3339 time.",
                                            valueName: "time"))
    var since: String?

    func validate() throws {
        if let since, SinceOption.parse(since, now: Date()) == nil {
            throw ValidationError("--since takes a duration such as 30m, 2h or 3d, or an RFC 3339 time; not '\(since)'.")
        }
    }

    var date: Date? { since.flatMap { SinceOption.parse($0, now: Date()) } }

    static func parse(_ text: String, now: Date) -> Date? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let unit = t.last, let factor = ["s": 1.0, "m": 60, "h": 3600, "d": 86_400][unit], let n = Double(t.dropLast()), n >= 0, n.isFinite {
            return now.addingTimeInterval(-n * factor)
        }
        return ISODate.parse(text)
    }
}

extension HistoryCommand {
    struct Collect: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "collect",
            abstract: "Keep every change of the live feeds in the history, printing nothing: the desk's writer, for cron or systemd.",
            discussion: """
                Runs until SIGTERM, SIGINT or --limit updates, then writes what is queued and exits 0. Started again on \
                the same history it stores nothing twice. The history is --history, else the config's, else the default \
                file. Example: odds history collect --provider all --sport all --history ~/odds/history.sqlite
                """)
        @OptionGroup var providerOption: ProviderOption
        @OptionGroup var sportOption: SportOption
        @OptionGroup var stream: StreamOptions
        @OptionGroup var replay: ReplayOptions
        @OptionGroup var common: CommonOptions

        func validate() throws {
            if stream.history.noHistory { throw ValidationError("odds history collect keeps a history: drop --no-history.") }
            if case .several = providerOption.choice, replay.replay != nil {
                throw ValidationError("--replay collects the recording's own provider; drop --provider all (or the list).")
            }
        }

        func run() async throws {
            try await runStreamCommand(providerOption, sportOption, replay, common) { rt in
                rt.collecting = true
                // The history on: --history, else the config's, else the default file.
                var options = stream
                if options.history.history == nil && rt.config.history == nil { options.history.history = HistoryOptions.defaultValue }
                return options
            }
        }
    }

    struct Matches: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "matches",
            abstract: "What the history keeps: a row a match and provider, newest first.",
            discussion: "Example: odds history matches --since 2h --team Arsenal")
        @OptionGroup var source: HistorySource
        @OptionGroup var since: SinceOption
        @Option(name: .long, help: "Only matches one of whose teams is named so (any case, as the other commands match names).")
        var team: String?
        @Option(name: .customLong("provider"), help: ArgumentHelp("Only this provider's events.", valueName: "provider"))
        var provider: String?
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await withRuntime(common) { rt in
                let history = try source.open(rt)
                defer { history.close() }
                let providerID = try provider.map(HistorySource.provider)
                var found = try history.matches(MatchQuery(since: since.date, provider: providerID))
                if let team { found = found.filter(StoredMatchFinder.named(team)) }
                let asked = [since.date.map { "since \(HistoryViews.clock($0, now: Date())) UTC" }, providerID.map { "from \($0.displayName)" },
                             team.map { "with a team named '\($0)'" }].compactMap { $0 }
                HistoryViews.matches(found, rt, asked: asked.joined(separator: " "))
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "A match's timeline: price changes, score changes and incidents in time order, and each selection's open, high, low, last and close.",
            discussion: """
                MATCH is a provider's event id, a BoltOdds label or its short id, a fused match id, or a team (the team the \
                words name best, as exact or alias before a part of a name; its live match, else its latest; the others \
                are named on stderr). Tables show each selection's line with a sparkline \
                (--ascii for ASCII) and the main market's prices around each goal, red card, penalty and VAR decision; \
                --json, --ndjson, --csv and TSV give every row. Example: odds history show Arsenal --market "Fulltime Result"
                """)
        @Argument(help: "The match: an id or a team.")
        var match: String
        @OptionGroup var source: HistorySource
        @OptionGroup var since: SinceOption
        @Option(name: .customLong("provider"), help: ArgumentHelp("Only this provider's rows.", valueName: "provider"))
        var provider: String?
        @Option(name: .long, help: "Only this market: its name, id or meaning (result, total:2.5, btts), any case; the same market of every source comes with it.")
        var market: String?
        @Flag(name: .long, help: "Sparklines in ASCII instead of Unicode blocks.")
        var ascii = false
        @Flag(name: .customLong("all"), help: "On a terminal, every row of the timeline (default: the latest 40).")
        var everyRow = false
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await withRuntime(common) { rt in
                let history = try source.open(rt)
                defer { history.close() }
                let found = try HistorySource.find(match, in: history)
                if !found.others.isEmpty {
                    let names = found.others.prefix(5).map { "\($0.title) (\($0.key.eventID))" }.joined(separator: "; ")
                    rt.io.err("'\(match)' also names: \(names)\(found.others.count > 5 ? "; …" : ""). Pass an id to see one of them.")
                }
                var sources = found.sources
                if let provider = try provider.map(HistorySource.provider) {
                    sources = sources.filter { $0.key.provider == provider }
                    if sources.isEmpty {
                        let kept = found.sources.map(\.key.provider.displayName)
                        throw OddsError.notFound("The history keeps nothing of \(found.sources[0].title) from \(provider.displayName); "
                                                 + "it keeps it from \(kept.joined(separator: ", ")).")
                    }
                }
                var filter = TimelineFilter(since: since.date, market: market, book: common.book.first)
                if filter.market != nil || filter.book != nil {
                    let names = KeptNames(try history.selections(of: sources), sources: sources, title: found.sources[0].title)
                    if let miss = names.miss(book: filter.book, market: filter.market) { throw OddsError.notFound(miss) }
                    // The book as the history keeps it, also when typed as the tables show it ("Bally Bet").
                    filter.book = filter.book.map { names.book($0) ?? $0 }
                }
                if rt.outputFormat == .table {
                    // Every selection's line, and the latest rows (or all of them).
                    let summary = try history.summary(of: sources, filter: filter, recent: everyRow ? Int.max : HistoryViews.recentRows)
                    HistoryViews.show(sources, summary, rt, ascii: ascii || !HistoryViews.utf8(rt.io.environment), all: everyRow,
                                      since: filter.since, unwatched: try history.unwatched(sources, since: filter.since))
                } else {
                    try HistoryViews.rows(sources, rt) { head, price in
                        try history.timeline(of: sources, filter: filter, head: head, prices: price)
                    }
                }
            }
        }
    }

    struct Chart: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "chart",
            abstract: "A selection's price over a match: a chart in the terminal, or a standalone SVG.",
            discussion: """
                One line per book (--book B: that book; --book best: the best price across books), price up the side, \
                time along the bottom (UTC), goals (G), red cards (R), penalties (P) and VAR decisions (V) marked where \
                they happened. A line breaks while its price is suspended, and where no writer watched its provider (the \
                axis dotted there: the price then is unknown). Markets are read by meaning across sources and books (one \
                provider's Fulltime Result is another's Moneyline): the market defaults to the match result, the selection \
                to the home side. Braille \
                dots on a UTF-8 terminal, * cells with --ascii. Example: odds history chart Arsenal --selection Arsenal --book best --svg line.svg
                """)
        @Argument(help: "The match: an id or a team.")
        var match: String
        @OptionGroup var source: HistorySource
        @OptionGroup var since: SinceOption
        @Option(name: .long, help: "The market: its name, id or meaning (result, total:2.5, btts), any case (default: the match result).")
        var market: String?
        @Option(name: .long, help: "The selection: its name, id or meaning (home, draw, away, over, under), any case (default: the first).")
        var selection: String?
        @Option(name: .long, help: ArgumentHelp("Write the chart as a standalone SVG file instead.", valueName: "file"))
        var svg: String?
        @Option(name: .long, help: "Rows of the plot on a terminal.")
        var height = 16
        @Flag(name: .long, help: "ASCII instead of Braille dots.")
        var ascii = false
        @OptionGroup var common: CommonOptions

        func validate() throws {
            if height < 4 || height > 200 { throw ValidationError("--height takes 4 to 200 rows.") }
            if common.book.count > 1 { throw ValidationError("--book takes one book (or best) for a chart.") }
        }

        func run() async throws {
            try await withRuntime(common) { rt in
                let history = try source.open(rt)
                defer { history.close() }
                let found = try HistorySource.find(match, in: history)
                var book = common.book.first
                let best = book?.lowercased() == "best"
                // Read once, when a book is named or nothing could be charted.
                var kept: KeptNames?
                func names() throws -> KeptNames {
                    if let kept { return kept }
                    let names = KeptNames(try history.selections(of: found.sources), sources: found.sources, title: found.sources[0].title)
                    kept = names
                    return names
                }
                // The book as the history keeps it, also when typed as the tables show it ("Bally Bet").
                if let typed = book, !best {
                    if let miss = try names().miss(book: typed) { throw OddsError.notFound(miss) }
                    book = try names().book(typed) ?? typed
                }
                func chart(_ filter: TimelineFilter) throws -> PriceChart? {
                    PriceChart.make(try history.timeline(of: found.sources, filter: filter), sources: found.sources, market: market,
                                    selection: selection, book: best ? nil : book, best: best, title: found.sources[0].title)
                }
                // The market's rows alone (the match result unless named); without a result by meaning the chart is of
                // the main market, which only the whole timeline tells.
                guard var chart = try chart(TimelineFilter(since: since.date, market: market ?? FusedMatch.resultMarketID))
                        ?? (market == nil ? try chart(TimelineFilter(since: since.date)) : nil) else {
                    throw OddsError.notFound(try names().miss(book: best ? nil : book, market: market, selection: selection)
                        ?? "The history has no price of that selection for '\(match)'\(since.date == nil ? "" : " in that time") (see odds history show).")
                }
                // Where no writer watched, a line's price is unknown: it breaks there.
                let providers = Set(chart.series.flatMap(\.providers)).sorted { $0.rawValue < $1.rawValue }
                chart.watched(try history.watches(of: providers, during: chart.from...chart.to))
                let format = rt.settings.oddsFormat
                func price(_ odds: Rational) -> String { Price(decimalOdds: odds)?.formatted(format) ?? odds.description }
                if let svg {
                    do { try ChartDrawing.svg(chart, demo: found.sources.contains { $0.demo }, price: price).write(toFile: svg, atomically: true, encoding: .utf8) } catch {
                        throw OddsError.output("Cannot write \(svg): \(error.localizedDescription).")
                    }
                    rt.io.err("Wrote the chart to \(svg).")
                    return
                }
                // Provider text reaches the terminal made safe; the drawing adds only its own colours.
                let o = HistoryViews.options(rt, demo: found.sources.contains { $0.demo })
                chart.title = TerminalText.safe(chart.title)
                for i in chart.series.indices { chart.series[i].name = TerminalText.safe(o.bookText(chart.series[i].name)) }
                for i in chart.marks.indices { chart.marks[i].label = TerminalText.safe(chart.marks[i].label) }
                let lines = ChartDrawing.terminal(chart, width: rt.io.width ?? 80, height: height,
                                                  unicode: !ascii && HistoryViews.utf8(rt.io.environment), colour: o.color, price: price)
                rt.io.out(o.banner + lines.joined(separator: "\n") + "\n")
            }
        }
    }

    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: "The history's size: rows of each kind, bytes on disk, the oldest and newest change, and the last pruning.")
        @OptionGroup var source: HistorySource
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await withRuntime(common) { rt in
                let history = try source.open(rt)
                defer { history.close() }
                HistoryViews.stats(try history.stats(), location: history.location, days: rt.config.historyDays ?? 90, rt)
            }
        }
    }
}
