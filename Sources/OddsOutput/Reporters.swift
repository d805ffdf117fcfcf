import Foundation
import OddsJSON
import OddsModel

/// The output formats, keyed by the identifier `--format` takes.
public enum OutputFormat: String, CaseIterable, Sendable {
    /// Aligned columns for a terminal.
    case table
    /// The table's columns, tab-separated, no colour: the default when stdout is not a terminal.
    case tsv
    /// One JSON array.
    case json
    /// One JSON object per line.
    case ndjson
    /// RFC 4180 CSV.
    case csv
}

/// What every reporter needs to know about the output.
public struct RenderOptions: Sendable {
    public var oddsFormat: OddsFormat
    public var color: Bool
    /// Terminal width, when writing to a terminal.
    public var width: Int?
    /// Simulated data: labelled in every format.
    public var demo: Bool
    /// Data replayed from a recording, not live: labelled in every format.
    public var replay: Bool
    /// Prices in tables are OSC 8 hyperlinks to the book's bet, where the provider gives one (`--links`).
    public var links: Bool
    /// A table for a person (not TSV or CSV for a script): books by their proper names fitted to the width,
    /// providers by their tags with a legend.
    public var human: Bool
    /// Books' short names for narrow columns (the providers' `bookShortNames`), by lower-case key.
    public var bookShortNames: [String: String]
    public init(oddsFormat: OddsFormat = .decimal, color: Bool = false, width: Int? = nil, demo: Bool = false,
                replay: Bool = false, links: Bool = false, human: Bool = false, bookShortNames: [String: String] = [:]) {
        self.oddsFormat = oddsFormat; self.color = color; self.width = width; self.demo = demo; self.replay = replay
        self.links = links; self.human = human; self.bookShortNames = bookShortNames
        bookWidth = human ? 12 : nil
    }

    /// How wide a book's name may be beside a price in a table's 1 / X / 2 cells (0: none); nil: the
    /// provider's own key, as a script reads it (TSV). A table for a terminal narrows it until the table fits.
    public var bookWidth: Int?

    /// A book as a person reads it (its proper name, fitted to `width`), or its key for a script.
    public func bookText(_ book: String, width: Int = 14) -> String {
        human ? BookNames.fit(book, width: width, short: bookShortNames) : book
    }

    /// The banner lines over a table: what kind of data this is, when it is not live provider data.
    public var banner: String {
        var out = ""
        if demo { out += EventReporter.style(DemoLabel.banner, self) + "\n" }
        if replay { out += EventReporter.style("REPLAY — recorded data, not live", self) + "\n" }
        return out
    }

    /// The label fields of every JSON object: `"demo": true`, `"replay": true`.
    public var jsonLabels: [(String, JSONOutput)] {
        (demo ? [("demo", .bool(true))] : []) + (replay ? [("replay", .bool(true))] : [])
    }
}

/// Renders lists of events in every output format.
public enum EventReporter {
    public static func render(_ events: [Event], format: OutputFormat, options: RenderOptions) -> String {
        switch format {
        case .table:
            let banner = options.banner
            if events.isEmpty { return banner + "No events.\n" }
            let legend = options.human && events.contains { $0.match != nil } ? sourceLegend(events, width: options.width) : ""
            return banner + table(events, options: options).renderAligned(width: options.width, color: options.color,
                                                                          hyperlinks: options.links) + legend
        case .tsv:
            // Plain text: no links, no styles to make.
            var plain = options
            plain.color = false; plain.links = false
            return tsv(events, options: plain, labels: options)
        case .csv:
            return selectionRows(events, options: options).labelled(options).renderCSV()
        case .json:
            return JSONOutput.array(events.map { EventJSON.event($0, labels: options.jsonLabels) }).rendered + "\n"
        case .ndjson:
            return events.map { EventJSON.event($0, labels: options.jsonLabels).rendered + "\n" }.joined()
        }
    }

    static func style(_ s: String, _ options: RenderOptions) -> String {
        options.color ? ANSI.code(.warning) + s + ANSI.reset : s
    }

    /// The TIME column: a short clock for every provider and sport (`ShortClock`).
    public static func timeLabel(_ e: Event, at now: Date = Date(), zone: TimeZone = .current) -> String {
        ShortClock.label(e, at: now, zone: zone)
    }

    /// The main market's prices as the 1 / X / 2 columns.
    public static func mainPrices(_ e: Event, format: OddsFormat) -> [String] {
        mainPrices(e, columns: e.mainColumns, format: format)
    }

    /// `bookWidth`: the book's proper name fitted to it beside each price (0: none); nil: the provider's key.
    static func mainPrices(_ e: Event, columns: MainColumns, format: OddsFormat, bookWidth: Int? = nil,
                           short: [String: String] = [:]) -> [String] {
        // With several books, each price names the book that offers it (the best across books).
        let multiBook = e.hasSeveralBooks && bookWidth != 0
        // Outrights (races) show the favourite, by name.
        let outright = columns.outright
        func label(_ book: String) -> String {
            guard let width = bookWidth else { return book }
            return BookNames.fit(book, width: width, short: short)
        }
        return columns.cells.map { c in
            guard let c else { return "" }
            let s = c.selection
            let text = s.suspended ? "SUSP"
                : s.price.map { $0.formatted(format) + (multiBook ? c.book.map { " " + label($0) } ?? "" : "") } ?? "-"
            return outright ? "\(s.name) \(text)" : text
        }
    }

    /// The providers a row is made of: a fused match's sources, else the event's own.
    static func providers(of e: Event) -> [ProviderID] { e.match.map { $0.sources.map(\.provider) } ?? [e.provider] }

    /// A fused row's sources: for a person, each provider's tag ("BO PS S2"); for a script, their ids.
    static func sourcesText(_ e: Event, human: Bool) -> String {
        let providers = providers(of: e)
        return human ? providers.map(\.tag).joined(separator: " ") : providers.map(\.rawValue).joined(separator: ",")
    }

    /// Under a fused table for a person: what each tag in SRC stands for, of the providers it shows, in lines
    /// no wider than `width`.
    static func sourceLegend(_ events: [Event], width: Int?) -> String {
        var seen: [ProviderID] = []
        for e in events {
            for p in providers(of: e) where !seen.contains(p) { seen.append(p) }
        }
        guard !seen.isEmpty else { return "" }
        var lines = ["SRC:"]
        for (i, p) in seen.sorted(by: { $0.tag < $1.tag }).enumerated() {
            let entry = (i > 0 ? " · " : " ") + "\(p.tag) \(p.displayName)"
            if let width, TextWidth.width(of: lines[lines.count - 1] + entry) > width { lines.append("    " + entry.dropFirst(i > 0 ? 3 : 1)) }
            else { lines[lines.count - 1] += entry }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What decides a table's columns, worked out over all of its events: a SPORT column after the id
    /// with more than one sport among them, a SRC column when a row is a fused match.
    struct TableShape {
        var sports: Bool
        var fused: Bool
        var columns: [Tabular.Column]

        init(_ events: [Event]) {
            sports = Set(events.map(\.sport)).count > 1
            // Fused matches name the providers joined in each row.
            fused = events.contains { $0.match != nil }
            columns = [.init("ID")] + (sports ? [.init("SPORT")] : []) + [
                .init("LEAGUE", shrinkable: true), .init("MATCH", shrinkable: true), .init("SCORE"),
                .init("TIME"), .init("1", rightAligned: true), .init("X", rightAligned: true), .init("2", rightAligned: true),
            ] + (fused ? [.init("SRC", shrinkable: true)] : [])
        }
    }

    /// A table this large is made in two halves at once: each row reads its event's markets of every
    /// book, spread over the store's memory, and two cores wait on memory side by side.
    static let splitRows = 1024

    /// The table of events; with more than one sport among them, a SPORT column after the id. Its
    /// `links` are made only with `options.links` and its `styles` only with `options.color`: each
    /// link is a new string for each price of each row, and a TSV or a table without colour uses
    /// neither.
    public static func table(_ events: [Event], options: RenderOptions) -> Tabular {
        // Books' names beside the prices as wide as the terminal leaves room for, down to none, keeping some
        // room for the match's name.
        guard options.human, let width = options.width, events.contains(where: \.hasSeveralBooks) else {
            return table(events, shape: TableShape(events), options: options)
        }
        let shape = TableShape(events)
        var narrowed = options
        for bookWidth in [12, 8, 5, 3] {
            narrowed.bookWidth = bookWidth
            let t = table(events, shape: shape, options: narrowed)
            if t.minimumWidth + 12 <= width { return t }
        }
        narrowed.bookWidth = 0
        return table(events, shape: shape, options: narrowed)
    }

    static func table(_ events: [Event], shape: TableShape, options: RenderOptions) -> Tabular {
        var t = Tabular(columns: shape.columns)
        // One clock reading and one look at the user's time zone for the whole table, not one a row.
        let now = Date(), zone = TimeZone.current
        if events.count >= splitRows {
            let half = events.count / 2
            let (a, b) = Concurrently.pair({ rows(events[..<half], shape: shape, options: options, now: now, zone: zone) },
                                           { rows(events[half...], shape: shape, options: options, now: now, zone: zone) })
            t.rows = a.rows + b.rows; t.links = a.links + b.links; t.styles = a.styles + b.styles
        } else {
            (t.rows, t.links, t.styles) = rows(events[...], shape: shape, options: options, now: now, zone: zone)
        }
        return t
    }

    /// The table as TSV (`Tabular.renderTSV`), labelled as `labels` says (`Tabular.labelled`). A large
    /// one is made in two halves at once, each half's rows written as lines of text and let go of by
    /// the thread that made them: joined, labelled, written and released on one core, the rows of a
    /// large state were a long serial tail after the two halves.
    static func tsv(_ events: [Event], options: RenderOptions, labels: RenderOptions) -> String {
        guard events.count >= splitRows else { return table(events, options: options).labelled(labels).renderTSV() }
        let shape = TableShape(events)
        let names = Tabular.labels(labels)
        let trailing = names.map { _ in Tabular.labelCell }
        let now = Date(), zone = TimeZone.current
        let half = events.count / 2
        func lines(_ part: ArraySlice<Event>) -> [UInt8] {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(part.count * 128)
            Tabular.appendTSV(rows: rows(part, shape: shape, options: options, now: now, zone: zone).rows, trailing: trailing, to: &bytes)
            return bytes
        }
        let (a, b) = Concurrently.pair({ lines(events[..<half]) }, { lines(events[half...]) })
        var bytes = Tabular(columns: shape.columns + names.map { Tabular.Column($0) }).tsvHeader
        bytes.reserveCapacity(bytes.count + a.count + b.count)
        bytes += a
        bytes += b
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The rows of `part` of a table of `shape`: links only with `options.links`, styles only with `options.color`.
    static func rows(_ part: ArraySlice<Event>, shape: TableShape, options: RenderOptions, now: Date,
                     zone: TimeZone) -> (rows: [[String]], links: [[String?]], styles: [[CellStyle]]) {
        let sports = shape.sports, fused = shape.fused
        let withLinks = options.links, withStyles = options.color
        var rows: [[String]] = [], links: [[String?]] = [], styles: [[CellStyle]] = []
        rows.reserveCapacity(part.count)
        if withLinks { links.reserveCapacity(part.count) }
        if withStyles { styles.reserveCapacity(part.count) }
        for e in part {
            let columns = e.mainColumns
            let prices = mainPrices(e, columns: columns, format: options.oddsFormat, bookWidth: options.bookWidth, short: options.bookShortNames)
            let sources = fused ? [sourcesText(e, human: options.human)] : []
            // A fused row whose sources disagree on the score shows the freshest, marked with a star.
            let score = (e.scoreLabel ?? "") + (e.match.map { $0.conflicts.isEmpty } == false ? "*" : "")
            // One list of cells, made with room for all of them (joined lists made four on the way).
            var cells: [String] = []
            cells.reserveCapacity(6 + prices.count + sources.count)
            cells.append(e.shortID)
            if sports { cells.append(e.sport) }
            cells.append(e.league ?? ""); cells.append(e.title); cells.append(score); cells.append(timeLabel(e, at: now, zone: zone))
            cells.append(contentsOf: prices); cells.append(contentsOf: sources)
            rows.append(cells)
            if withLinks {
                // The link of the very price shown (the best book's, with several books).
                let lead: [String?] = Array(repeating: nil, count: sports ? 6 : 5)
                links.append(lead + columns.cells.map { columns.outright ? nil : $0?.selection.link } + sources.map { _ in nil })
            }
            if withStyles {
                let live: CellStyle = e.status == .live ? .live : .plain
                styles.append([.plain] + (sports ? [.plain] : []) + [.plain, .plain, .bold, live] + prices.map { $0 == "SUSP" ? .dim : .plain }
                              + sources.map { _ in .dim })
            }
        }
        return (rows, links, styles)
    }

    /// One row per selection: the CSV shape for scripts.
    public static func selectionRows(_ events: [Event], options: RenderOptions) -> Tabular {
        var t = Tabular(columns: ["provider", "id", "sport", "league", "home", "away", "status", "score_home", "score_away",
                                  "clock", "period", "market", "book", "selection", "line", "suspended", "price",
                                  "decimal", "american", "fractional", "probability", "updated_at"].map { .init($0) })
        for e in events {
            let base = [e.provider.rawValue, e.id, e.sport, e.league ?? "", e.home, e.away ?? "", e.status.rawValue,
                        e.score.map { String($0.home) } ?? "", e.score.map { String($0.away) } ?? "", e.clock ?? "", e.period ?? ""]
            let updated = e.updatedAt.map(EventJSON.date) ?? ""
            if e.markets.isEmpty {
                t.rows.append(base + ["", "", "", "", "", "", "", "", "", "", updated])
            }
            for m in e.markets {
                for s in m.selections {
                    let p = s.price
                    t.rows.append(base + [m.name, m.book ?? "", s.name, s.line ?? "", s.suspended ? "true" : "false",
                                          p?.formatted(options.oddsFormat) ?? "", p?.formatted(.decimal) ?? "",
                                          p?.formatted(.american) ?? "", p?.formatted(.fractional) ?? "",
                                          p?.probabilityText ?? "", updated])
                }
            }
        }
        return t
    }

    /// Every market and selection of one event, for `odds event` on a terminal.
    public static func detail(_ event: Event, options: RenderOptions) -> String {
        let e = TerminalText.safe(event)
        var out = options.banner
        out += "\(e.title)  [\(e.provider.displayName) \(e.id)]\n"
        var facts: [String] = [e.sport]
        if let l = e.league { facts.append(l) }
        facts.append(e.status.rawValue)
        if let s = e.scoreLabel { facts.append(s) }
        if let c = e.clock { facts.append(c) }
        if let p = e.period { facts.append(p) }
        out += facts.joined(separator: " · ") + "\n"
        // Each book's price with its deep link, where the provider gives links (BoltOdds).
        let withLinks = e.markets.contains { $0.selections.contains { $0.link != nil } }
        var t = Tabular(columns: [.init("MARKET", shrinkable: true), .init("SELECTION", shrinkable: true), .init("LINE"),
                                  .init("PRICE", rightAligned: true)] + (withLinks ? [.init("LINK", shrinkable: true)] : []))
        // A single-book feed's book is the provider itself: name it only when several books are shown.
        let showBook = e.hasSeveralBooks
        for m in e.markets {
            for s in m.selections {
                let price = s.suspended ? "SUSP" : (s.price?.formatted(options.oddsFormat) ?? "-")
                let book = m.book.map { BookNames.proper($0) + (m.provider.map { " \($0.tag)" } ?? "") }
                let name = showBook ? book.map { "\(m.name) (\($0))" } ?? m.name : m.name
                t.rows.append([name, s.name, s.line ?? "", price] + (withLinks ? [s.link ?? ""] : []))
                t.styles.append([.plain, .plain, .plain, s.suspended ? .dim : .plain] + (withLinks ? [.dim] : []))
                t.links.append([nil, nil, nil, s.link] + (withLinks ? [nil] : []))
            }
        }
        out += "\n" + (t.rows.isEmpty ? "No markets.\n" : t.renderAligned(width: options.width, color: options.color,
                                                                           hyperlinks: options.links))
        if !e.incidents.isEmpty {
            out += "\nINCIDENTS\n"
            for i in e.incidents.reversed() { out += "  " + incidentLine(i, event: e) + "\n" }
        }
        if !e.stats.isEmpty {
            var t = Tabular(columns: [.init("STATISTIC", shrinkable: true), .init(e.home, rightAligned: true), .init(e.away ?? "AWAY", rightAligned: true)])
            t.rows = e.stats.map { [$0.name, $0.home, $0.away] }
            out += "\nSTATISTICS\n" + t.renderAligned(width: options.width, color: options.color)
        }
        if let l = e.lineups {
            out += "\nLINEUPS" + (l.confirmed == false ? " (predicted)" : "") + "\n"
            for (team, side) in [(e.home, l.home), (e.away ?? "away", l.away)] {
                guard let side else { continue }
                out += "  \(team)" + (side.formation.map { " (\($0))" } ?? "") + "\n"
                func names(_ list: [LineupPlayer]) -> String {
                    list.map { p in [p.number, p.name].compactMap { $0 }.joined(separator: " ") }.joined(separator: ", ")
                }
                if !side.starters.isEmpty { out += "    " + names(side.starters) + "\n" }
                if !side.substitutes.isEmpty { out += "    subs: " + names(side.substitutes) + "\n" }
            }
        }
        return out
    }

    /// "67' goal Salah (Liverpool)".
    public static func incidentLine(_ i: Incident, event: Event) -> String {
        var parts: [String] = []
        if let m = i.minuteLabel { parts.append(m) }
        parts.append(i.detail?.lowercased() ?? i.kind.rawValue)
        if let p = i.player { parts.append(p) }
        if let a = i.assist { parts.append("(assist \(a))") }
        if let o = i.playerOut { parts.append("for \(o)") }
        if i.kind == .injuryTime, let added = i.addedTime { parts.append("+\(added)") }
        if let team = i.team { parts.append("(\(team == .home ? event.home : (event.away ?? "away")))") }
        if let r = i.reason { parts.append("— \(r.lowercased())") }
        if i.rescinded { parts.append("(rescinded)") }
        return parts.joined(separator: " ")
    }
}

/// The lines `odds watch` prints for a person: one per incident, and the score line.
public enum WatchReporter {
    /// "67'    GOAL         Arsenal 2-1  Saka (assist Ødegaard)", "72'    RED CARD     Chelsea  Cucurella — foul".
    public static func line(_ i: Incident, event e: Event) -> String {
        let minute = (i.minuteLabel ?? "").padding(toLength: 7, withPad: " ", startingAt: 0)
        let team = i.team.map { $0 == .home ? e.home : (e.away ?? "away") }
        var what = label(i)
        var rest: [String] = []
        switch i.kind {
        case .goal:
            let score = (i.score ?? e.score).map { " \($0.home)-\($0.away)" } ?? ""
            if let team { rest.append(team + score) }
            if let p = i.player { rest.append(p + (i.assist.map { " (assist \($0))" } ?? "")) }
        case .card:
            if let team { rest.append(team) }
            if let p = i.player { rest.append(p + (i.reason.map { " — \($0.lowercased())" } ?? "")) }
            else if let r = i.reason { rest.append("— " + r.lowercased()) }
            if i.rescinded { rest.append("(\((i.detail ?? "card").lowercased()) rescinded)") }
        case .substitution:
            if let team { rest.append(team) }
            rest.append([i.player.map { "on " + $0 }, i.playerOut.map { "off " + $0 }].compactMap { $0 }.joined(separator: ", "))
        case .var:
            if let team { rest.append(team) }
            if let p = i.player { rest.append(p) }
            if let r = i.reason { rest.append(r) }
        case .injuryTime:
            what = "+\(i.addedTime ?? 0) MIN"
            rest.append("added time")
        case .period:
            // The score the marker itself tells (the match has moved on when it is read later).
            if let s = i.score ?? e.score { rest.append("\(e.home) \(s.home)-\(s.away) \(e.away ?? "")") }
        case .other:
            if let team { rest.append(team + (i.score.map { " \($0.home)-\($0.away)" } ?? "")) }
            if let p = i.player { rest.append(p) }
            if let r = i.reason { rest.append("— " + r.lowercased()) }
        }
        // A label longer than its column ("PENALTY MISSED") is never cut: it pushes the rest along.
        let head = what.count < 13 ? what.padding(toLength: 13, withPad: " ", startingAt: 0) : what + "  "
        return minute + head + rest.filter { !$0.isEmpty }.joined(separator: "  ")
    }

    /// "GOAL", "RED CARD", "HALF TIME".
    public static func label(_ i: Incident) -> String {
        switch i.kind {
        case .goal: return i.detail == "Own goal" ? "OWN GOAL" : (i.detail == "Penalty" ? "PENALTY GOAL" : "GOAL")
        case .card:
            if i.rescinded { return "RESCINDED" }
            switch i.detail?.lowercased() {
            case "red card"?: return "RED CARD"
            case "second yellow"?: return "2ND YELLOW"
            default: return i.detail?.uppercased() ?? "CARD"
            }
        case .substitution: return "SUB"
        case .var: return "VAR"
        case .injuryTime: return "ADDED TIME"
        case .period:
            switch i.detail?.uppercased() {
            case "HT"?: return "HALF TIME"
            case "FT"?: return "FULL TIME"
            case let d?: return d
            case nil: return "PERIOD"
            }
        case .other: return (i.detail ?? "INCIDENT").uppercased()
        }
    }

    /// Whether `--bell` rings: goals and red cards (a second yellow is a red); never a rescinded card.
    public static func rings(_ i: Incident) -> Bool {
        i.kind == .goal || (i.kind == .card && !i.rescinded && ["red card", "second yellow"].contains(i.detail?.lowercased() ?? ""))
    }

    /// "Arsenal 2-1 Chelsea  67'  2nd half".
    public static func scoreLine(_ e: Event, at now: Date = Date()) -> String {
        let score = e.scoreLabel ?? "v"
        let facts = [e.clockLabel(at: now), e.period ?? (e.status == .unknown ? nil : e.status.rawValue)].compactMap { $0 }
        return "\(e.home) \(score) \(e.away ?? "")" + (facts.isEmpty ? "" : "  " + facts.joined(separator: "  "))
    }
}

/// Renders any list of records as table, TSV, CSV, JSON or NDJSON.
public enum RecordReporter {
    /// `records` are rows of (column, JSON value); the table shows each value's text.
    public static func render(columns: [Tabular.Column], records: [[(String, JSONOutput)]], format: OutputFormat,
                              options: RenderOptions) -> String {
        switch format {
        case .json:
            return JSONOutput.array(records.map { .object($0 + options.jsonLabels) }).rendered + "\n"
        case .ndjson:
            return records.map { JSONOutput.object($0 + options.jsonLabels).rendered + "\n" }.joined()
        case .table, .tsv, .csv:
            var t = Tabular(columns: columns)
            t.rows = records.map { r in r.map { cellText($0.1) } }
            switch format {
            case .table:
                let banner = options.banner
                return banner + (t.rows.isEmpty ? "Nothing to show.\n" : t.renderAligned(width: options.width, color: options.color))
            case .tsv: return t.labelled(options).renderTSV()
            default: return t.labelled(options).renderCSV()
            }
        }
    }

    /// TSV or CSV written a record at a time: the bytes `render` writes for that format, labels included,
    /// without holding every record (and every row of cells) at once.
    public struct RowWriter: Sendable {
        private let csv: Bool
        private let labelCells: [String]
        /// The header line, with its line end.
        public let header: [UInt8]

        /// nil for a format other than TSV and CSV.
        public init?(columns: [Tabular.Column], format: OutputFormat, options: RenderOptions) {
            guard format == .tsv || format == .csv else { return nil }
            let labelled = Tabular(columns: columns).labelled(options)
            csv = format == .csv
            labelCells = Tabular.labels(options).map { _ in Tabular.labelCell }
            header = csv ? labelled.csvHeader : labelled.tsvHeader
        }

        /// `record`'s line, appended to `bytes`.
        public func append(_ record: [(String, JSONOutput)], to bytes: inout [UInt8]) {
            let cells = record.map { RecordReporter.cellText($0.1) }
            if csv { Tabular.appendCSV(row: cells + labelCells, to: &bytes) } else { Tabular.appendTSV(row: cells, trailing: labelCells, to: &bytes) }
        }
    }

    static func cellText(_ v: JSONOutput) -> String {
        switch v {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .number(let n), .string(let n): return n
        case .array(let a): return String(a.count)
        case .object, .written: return ""
        }
    }
}
