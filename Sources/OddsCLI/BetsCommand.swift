import ArgumentParser
import Foundation
import OddsBets
import OddsCommandSupport
import OddsHistory
import OddsJSON
import OddsModel
import OddsOutput
import OddsValue

/// `odds bets …`: the bet ledger, graded by closing-line value.
struct BetsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bets",
        abstract: "A bet ledger graded by closing-line value (CLV).",
        discussion: """
            Bets are kept in the history (--history, else the config's `history`, else the default file), beside the \
            prices they are graded against: a bet's close is each book's last price before its match went live, made \
            fair as `odds value` makes fair prices; its CLV is the price taken × the closing fair probability − 1. A \
            bet settles itself from the final score the feeds reported.
            """,
        subcommands: [Add.self, List.self, Report.self, Grade.self, Remove.self, Import.self, Export.self])
}

/// How bets are graded: the closing reference and the de-vig method.
struct GradingOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The closing reference: consensus, or a book.", valueName: "consensus|book"))
    var close: String = "consensus"
    @Option(name: .long, help: ArgumentHelp("How the margin is taken out: \(DevigMethod.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "method"))
    var devig: String = "multiplicative"

    func validate() throws {
        guard DevigMethod(rawValue: devig.lowercased()) != nil else {
            throw ValidationError("--devig takes \(DevigMethod.allCases.map(\.rawValue).joined(separator: ", ")); not '\(devig)'.")
        }
    }

    var grader: BetGrader { BetGrader(reference: FairReference(close), method: DevigMethod(rawValue: devig.lowercased()) ?? .multiplicative) }
}

/// Where the ledger is: the history.
struct LedgerSource: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The history that keeps the ledger: a SQLite file or a postgres:// URL (default: the config's `history`, else the default file).",
                                            valueName: "path|url"))
    var history: String?

    func open(_ rt: Runtime) throws -> any HistoryBackend {
        try History.openLedger(HistoryLocation.parse(history ?? rt.config.history ?? "", environment: rt.io.environment))
    }

    /// `body` with the runtime and the ledger open, closed after.
    func run(_ common: CommonOptions, _ body: (Runtime, any HistoryBackend) throws -> Void) async throws {
        try await withRuntime(common) { rt in
            let history = try open(rt)
            defer { history.close() }
            try body(rt, history)
        }
    }
}

extension BetsCommand {
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Record a bet on a match the history keeps.",
            discussion: """
                MATCH as for `odds history show` (an id, or a team: its live match, else its latest). SELECTION is a team, \
                draw, over or under, yes or no, or a selection's name; the market defaults to the match result. PRICE in \
                any odds format (2.50, +150, 6/4; a negative American price after --, which ends the options: odds bets add \
                --book pinnacle -- Arsenal draw -110 10); STAKE a plain amount (10, 12.50). \
                Example: odds bets add Arsenal Arsenal +150 10 --book draftkings --provider boltodds
                """)
        @Argument(help: "The match: an id or a team.") var match: String
        @Argument(help: "The selection: a team, draw, over, under, yes, no, or its name.") var selection: String
        @Argument(help: "The price taken, in any odds format.") var price: String
        @Argument(help: "The stake.") var stake: String
        @Option(name: .customLong("provider"), help: ArgumentHelp("The provider whose prices the bet is graded at.", valueName: "provider"))
        var provider: String?
        @Option(name: .long, help: "The market (its name or id, any case, or total:2.5 as odds value names it; default: the match result).")
        var market: String?
        @Option(name: .long, help: "The selection's line (2.5, -1.5).") var line: String?
        @Option(name: .long, help: ArgumentHelp("When the bet was placed: an RFC 3339 time, or a duration back from now (90s, 2h); default now.", valueName: "time"))
        var at: String?
        @Option(name: .long, help: "A note kept with the bet.") var note: String?
        @OptionGroup var ledger: LedgerSource
        @OptionGroup var common: CommonOptions

        func validate() throws {
            guard Price(typed: price) != nil else {
                throw ValidationError("PRICE takes odds in any format above evens of nothing: 2.50, +150, -110 or 6/4; not '\(price)'.")
            }
            guard let s = Fraction(decimalText: stake), s.isPositive else {
                throw ValidationError("STAKE takes a positive amount such as 10 or 12.50; not '\(stake)'.")
            }
            if let at, SinceOption.parse(at, now: Date()) == nil {
                throw ValidationError("--at takes an RFC 3339 time or a duration back from now (90s, 30m, 2h); not '\(at)'.")
            }
        }

        func run() async throws {
            try await ledger.run(common) { rt, history in
                let entry = BetEntry(match: match, selection: selection, price: price, stake: stake, book: common.book.first,
                                     provider: provider, market: market, line: line,
                                     placedAt: at.flatMap { SinceOption.parse($0, now: Date()) } ?? Date(), note: note)
                var bet = try BetsCommand.place(entry, history)
                bet.id = try history.addBet(bet)
                if rt.outputFormat == .table {
                    let typed = Price(typed: price)!
                    rt.io.out(TerminalText.safe("Bet \(bet.id): \(bet.selectionName)\(bet.line.isEmpty ? "" : " " + bet.line) at \(typed.text) (\(typed.decimalText)), "
                                                + "stake \(stake), \(bet.book); \(bet.title), \(bet.marketName).") + "\n")
                } else {
                    rt.io.out(RecordReporter.render(columns: BetViews.columns, records: [BetViews.record(GradedBet(bet: bet, result: .unsettled), rt)],
                                                    format: rt.outputFormat, options: rt.renderOptions))
                }
            }
        }
    }

    /// `entry` found in the history, its errors as the tool's own (a bad price or stake 64, no such match 5).
    static func place(_ entry: BetEntry, _ history: any HistoryBackend) throws -> StoredBet {
        do { return try BetPlacement.resolve(entry, in: history) } catch let e as BetEntryError {
            switch e.kind {
            case .input, .ambiguous: throw OddsError.usage(e.message)
            case .notFound: throw OddsError.notFound(e.message)
            }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Add the bets of a CSV file (odds bets export's, or your own).",
            discussion: """
                A header row, then a bet a row; columns by name, any order: selection, price, stake, and match (a team or an \
                id) or event (with provider) are needed; placed (RFC 3339), book, provider, market, line and note are read \
                where present. Each row is found in the history as odds bets add finds its arguments; a row that cannot be \
                is refused with its line number and the others are kept (exit 11 when any was refused).
                """)
        @Argument(help: "The CSV file (- for stdin).") var file: String
        @OptionGroup var ledger: LedgerSource
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await withRuntime(common) { rt in
                let text: String
                do {
                    text = file == "-" ? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
                        : try String(contentsOfFile: file, encoding: .utf8)
                } catch {
                    throw OddsError.usage("Cannot read \(file): \((error as NSError).localizedDescription).")
                }
                let rows: [BetCSV.Row]
                do { rows = try BetCSV.rows(text) } catch let e as BetEntryError { throw OddsError.usage("\(file): \(e.message)") }
                let history = try ledger.open(rt)
                defer { history.close() }
                var added = 0, refused = 0
                for row in rows {
                    do {
                        let bet = try BetPlacement.resolve(try BetCSV.entry(row, now: Date()), in: history)
                        _ = try history.addBet(bet)
                        added += 1
                    } catch let e as BetEntryError {
                        refused += 1
                        rt.io.err(TerminalText.safe("\(file), line \(row.line): \(e.message)"))
                    }
                }
                let summary = "Imported \(added) bet\(added == 1 ? "" : "s") from \(file)\(refused > 0 ? "; \(refused) row\(refused == 1 ? "" : "s") refused" : "")."
                if refused > 0 { throw OddsError.partial(summary) }
                rt.io.err(summary)
            }
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "The ledger as CSV: id, placed, provider, event, match, market, line, selection, book, price, stake, note.")
        @OptionGroup var ledger: LedgerSource
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await ledger.run(common) { rt, history in
                rt.io.out(BetCSV.export(try history.bets()))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "Every bet with its closing price, closing fair price, CLV and result.",
            discussion: """
                CLV is a fraction (0.1 is +10 %), null where no close was seen (history off when the match went live) — never \
                a guess. --close consensus (default) de-vigs every book's close and takes the median; --close BOOK one book's.
                """)
        @Flag(name: .long, help: "Only bets not yet settled.") var open = false
        @Flag(name: .long, help: "Only settled bets.") var settled = false
        @OptionGroup var since: SinceOption
        @OptionGroup var grading: GradingOptions
        @OptionGroup var ledger: LedgerSource
        @OptionGroup var common: CommonOptions

        func validate() throws {
            if open && settled { throw ValidationError("--open and --settled exclude each other.") }
        }

        func run() async throws {
            try await ledger.run(common) { rt, history in
                var graded = try history.bets().map { try grading.grader.grade($0, history: history) }
                if let from = since.date { graded = graded.filter { $0.bet.placedAt >= from } }
                if open { graded = graded.filter { $0.result == .unsettled } }
                if settled { graded = graded.filter { $0.result != .unsettled } }
                if graded.isEmpty, rt.outputFormat == .table {
                    rt.io.err("No bets\(open ? " open" : settled ? " settled" : "") in the ledger (odds bets add).")
                    return
                }
                rt.io.out(RecordReporter.render(columns: BetViews.columns, records: graded.map { BetViews.record($0, rt) },
                                                format: rt.outputFormat, options: rt.renderOptions))
            }
        }
    }

    struct Report: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "Bets, stake, profit, ROI, average CLV and the share that beat the close, overall or by group.",
            discussion: """
                Each group gives how many bets, how many settled, the stake and profit of the settled ones and their ROI, the \
                bets with a close, their average CLV with its 95 % interval (mean ± 1.96 standard errors), and how many beat \
                the close; a note says when there are too few to judge (under 30 bets with a close, under 100 settled). On a \
                terminal, small charts of the cumulative profit and of each bet's CLV follow. --close and --devig as for list.
                """)
        @Option(name: .long, help: ArgumentHelp("Group by: \(BetReportGrouping.allCases.filter { $0 != .all }.map(\.rawValue).joined(separator: ", ")).", valueName: "group"))
        var by: String?
        @OptionGroup var since: SinceOption
        @OptionGroup var grading: GradingOptions
        @Flag(name: .long, help: "Charts in ASCII instead of Unicode blocks.") var ascii = false
        @OptionGroup var ledger: LedgerSource
        @OptionGroup var common: CommonOptions

        func validate() throws {
            if let by, BetReportGrouping(rawValue: by.lowercased()) == nil || by.lowercased() == "all" {
                throw ValidationError("--by takes \(BetReportGrouping.allCases.filter { $0 != .all }.map(\.rawValue).joined(separator: ", ")); not '\(by)'.")
            }
        }

        func run() async throws {
            try await ledger.run(common) { rt, history in
                var graded = try history.bets().map { try grading.grader.grade($0, history: history) }
                if let from = since.date { graded = graded.filter { $0.bet.placedAt >= from } }
                let groups = BetReport.groups(graded, by: by.flatMap { BetReportGrouping(rawValue: $0.lowercased()) } ?? .all)
                rt.io.out(RecordReporter.render(columns: BetViews.reportColumns, records: groups.map { BetViews.record($0, rt) },
                                                format: rt.outputFormat, options: rt.renderOptions))
                guard rt.outputFormat == .table, !graded.isEmpty else { return }
                let (profit, clv) = BetReport.series(graded)
                let ascii = self.ascii || !HistoryViews.utf8(rt.io.environment)
                func line(_ label: String, _ values: [Fraction], _ last: String) -> String {
                    let rationals = values.compactMap { Rational(decimalText: $0.rounded(places: 6)) }
                    return label + HistoryReport.sparkline(rationals, width: 40, ascii: ascii) + "  " + last
                }
                if let end = profit.last { rt.io.out(line("\nprofit  ", profit, "\(end.rounded(places: 2)) after \(profit.count) settled") + "\n") }
                if !clv.isEmpty {
                    let mean = (clv.reduce(Fraction.zero, +) / Fraction(clv.count))!
                    rt.io.out(line("CLV     ", clv, "mean \(BetViews.percent(mean)) over \(clv.count)") + "\n")
                }
            }
        }
    }

    struct Grade: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grade",
            abstract: "Settle what can be settled and keep each bet's grade; say what could not be.",
            discussion: """
                Each bet is graded from the history as list grades it, and its result, final score, close and CLV are kept \
                with it in the ledger, so that they outlast the history's retention. The bets not settled are named, each \
                with why (its match has not ended, no final score was stored, its market cannot be settled from a score).
                """)
        @OptionGroup var grading: GradingOptions
        @OptionGroup var ledger: LedgerSource
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await ledger.run(common) { rt, history in
                let now = Date()
                var counts: [BetResult: Int] = [:]
                var waiting: [String] = []
                for bet in try history.bets() {
                    let g = try grading.grader.grade(bet, history: history)
                    counts[g.result, default: 0] += 1
                    if g.result == .unsettled { waiting.append("\(bet.id) \(bet.title) (\(g.unsettledWhy ?? "not yet"))") }
                    guard g.result != .unsettled || g.clv != nil else { continue }
                    let grade = StoredGrade(at: now, result: g.result.rawValue, finalHome: g.finalScore?.home, finalAway: g.finalScore?.away,
                                            closeText: g.closeAtBook?.text, closeFair: g.fairPrice?.rounded(places: 6),
                                            clv: g.clv?.rounded(places: 6))
                    _ = try history.gradeBet(id: bet.id, grade)
                }
                // Half results only when there are some: most ledgers never hold a quarter line.
                let kinds = [BetResult.won, .lost, .push, .void] + [BetResult.halfWon, .halfLost].filter { counts[$0] != nil }
                let settled = kinds.map { "\(counts[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", ")
                rt.io.out("Settled: \(settled).\n")
                if !waiting.isEmpty {
                    rt.io.out(TerminalText.safe("Not settled (\(waiting.count)): " + waiting.joined(separator: "; ")) + ".\n")
                }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a bet from the ledger.")
        @Argument(help: "The bet's id (odds bets list).") var id: Int64
        @OptionGroup var ledger: LedgerSource
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await ledger.run(common) { rt, history in
                guard try history.removeBet(id: id) else { throw OddsError.notFound("There is no bet \(id) in the ledger (odds bets list).") }
                // The sentence on stdout for a person; piped, stdout stays empty for scripts.
                if rt.outputFormat == .table { rt.io.out("Bet \(id) removed.\n") } else { rt.io.err("Bet \(id) removed.") }
            }
        }
    }
}

/// How a graded bet is written: one record of named cells (a table row, TSV, CSV, or a JSON object).
enum BetViews {
    static let reportColumns: [Tabular.Column] = [
        .init("GROUP", shrinkable: true), .init("BETS", rightAligned: true), .init("SETTLED", rightAligned: true),
        .init("STAKED", rightAligned: true), .init("PROFIT", rightAligned: true), .init("ROI", rightAligned: true),
        .init("WITH CLOSE", rightAligned: true), .init("AVG CLV", rightAligned: true), .init("CLV 95%"),
        .init("BEAT CLOSE", rightAligned: true), .init("NOTE", shrinkable: true),
    ]

    /// A fraction as a signed percentage to one place ("+4.2%").
    static func percent(_ f: Fraction) -> String { (f.isNegative ? "" : "+") + (f * Fraction(100)).rounded(places: 1) + "%" }

    static func record(_ r: BetGroupReport, _ rt: Runtime) -> [(String, JSONOutput)] {
        let json = rt.outputFormat == .json || rt.outputFormat == .ndjson
        func number(_ f: Fraction?, _ places: Int) -> JSONOutput { f.map { .number($0.rounded(places: places)) } ?? .null }
        let interval: JSONOutput = r.clvInterval.map { i in
            json ? .array([.number(String(format: "%.4f", i.low)), .number(String(format: "%.4f", i.high))])
                : .string(String(format: "%+.1f%% … %+.1f%%", i.low * 100, i.high * 100))
        } ?? .null
        return [
            ("group", .string(r.group)), ("bets", .int(r.bets)), ("settled", .int(r.settled)),
            ("staked", json ? number(r.staked, 2) : .string(r.staked.rounded(places: 2))),
            ("profit", json ? number(r.profit, 2) : .string(r.profit.rounded(places: 2))),
            ("roi", json ? number(r.roi, 4) : .optionalString(r.roi.map(percent))),
            ("withClose", .int(r.withClose)),
            ("clv", json ? number(r.meanCLV, 4) : .optionalString(r.meanCLV.map(percent))),
            ("clvInterval", interval),
            ("beatClose", .int(r.beatClose)),
            ("note", .optionalString(r.note)),
        ]
    }

    static let columns: [Tabular.Column] = [
        .init("ID", rightAligned: true), .init("PLACED"), .init("MATCH", shrinkable: true), .init("MARKET", shrinkable: true),
        .init("SELECTION", shrinkable: true), .init("BOOK"), .init("PRICE", rightAligned: true), .init("STAKE", rightAligned: true),
        .init("CLOSE", rightAligned: true), .init("FAIR", rightAligned: true), .init("CLV", rightAligned: true),
        .init("LINE MOVE", rightAligned: true), .init("RESULT"), .init("PROFIT", rightAligned: true),
    ]

    static func record(_ g: GradedBet, _ rt: Runtime) -> [(String, JSONOutput)] {
        let b = g.bet
        let json = rt.outputFormat == .json || rt.outputFormat == .ndjson
        let price = Price(typed: b.priceText) ?? Price(decimalOdds: b.odds)
        func number(_ f: Fraction?, places: Int) -> JSONOutput { f.map { .number($0.rounded(places: places)) } ?? .null }
        let clvText: JSONOutput = json ? number(g.clv, places: 4)
            : .optionalString(g.clv.map(percent))
        let move: Fraction? = g.close?.lineMove
        let moveText: String? = move.map { ($0.isNegative ? "" : "+") + $0.rounded(places: 1) }
        let lineMove: JSONOutput = json ? number(move, places: 2) : .optionalString(moveText)
        let cells: [(String, JSONOutput)] = [
            ("id", .int(Int(b.id))), ("placed", .string(EventJSON.date(b.placedAt))), ("match", .string(b.title)),
            ("market", .string(b.marketName + (b.line.isEmpty ? "" : " " + b.line))), ("selection", .string(b.selectionName)),
            ("book", .string(b.book)),
            ("price", json ? (price.map { EventJSON.price($0, book: b.book) } ?? .null) : .optionalString(price?.formatted(rt.renderOptions.oddsFormat))),
            ("stake", json ? .number(b.stake) : .string(b.stake)),
            ("close", json ? (g.closeAtBook.map { EventJSON.price($0, book: b.book) } ?? .null)
                : .optionalString(g.closeAtBook?.formatted(rt.renderOptions.oddsFormat))),
            ("fair", json ? number(g.fairPrice, places: 4) : .optionalString(g.fairPrice?.rounded(places: 2))),
            ("clv", clvText),
            ("lineMove", lineMove),
            ("result", .string(g.result.rawValue)),
            ("profit", json ? number(g.profit, places: 2) : .optionalString(g.profit?.rounded(places: 2))),
        ]
        return cells + (json ? [("provider", .string(b.source.provider.rawValue)), ("event", .string(b.source.eventID)),
                     ("closeBooks", .array((g.close?.books ?? []).map { .string($0) })),
                     ("finalScore", g.finalScore.map { EventJSON.score($0) } ?? .null), ("noClose", .optionalString(g.noClose)),
                     ("note", .optionalString(b.note))] : [])
    }
}
