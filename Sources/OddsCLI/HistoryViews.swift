import Foundation
import OddsHistory
import OddsJSON
import OddsModel
import OddsOutput

/// How the history commands print what they read.
enum HistoryViews {
    static func utf8(_ env: [String: String]) -> Bool {
        let locale = env["LC_ALL"].flatMap { $0.isEmpty ? nil : $0 } ?? env["LC_CTYPE"].flatMap { $0.isEmpty ? nil : $0 } ?? env["LANG"] ?? ""
        let l = locale.lowercased()
        return l.contains("utf-8") || l.contains("utf8")
    }

    private static func time(_ d: Date) -> String { EventJSON.date(d) }

    static func options(_ rt: Runtime, demo: Bool) -> RenderOptions {
        var o = rt.renderOptions
        o.demo = o.demo || demo
        return o
    }

    static func matches(_ sources: [StoredSource], _ rt: Runtime, asked: String = "") {
        let records: [[(String, JSONOutput)]] = sources.map { s in
            [("id", .string(s.key.eventID)), ("provider", .string(s.key.provider.rawValue)), ("sport", .string(s.sport)),
             ("league", .optionalString(s.league)), ("home", .string(s.home)), ("away", .optionalString(s.away)),
             ("status", .optionalString(s.status)), ("startTime", .optionalString(s.startTime.map(time))),
             ("firstSeen", .string(time(s.firstSeen))), ("lastSeen", .string(time(s.lastSeen))),
             ("priceChanges", .number(String(s.priceChanges))), ("match", .optionalString(s.matchKey))]
        }
        let o = options(rt, demo: sources.contains { $0.demo })
        if rt.outputFormat == .table {
            rt.io.out(matchesTable(sources, o, now: Date(), asked: asked))
            return
        }
        let columns: [Tabular.Column] = [.init("ID"), .init("PROVIDER"), .init("SPORT"), .init("LEAGUE", shrinkable: true), .init("HOME", shrinkable: true),
                                         .init("AWAY", shrinkable: true), .init("STATUS"), .init("START"), .init("FIRST SEEN"), .init("LAST SEEN"),
                                         .init("PRICES", rightAligned: true), .init("MATCH")]
        rt.io.out(RecordReporter.render(columns: columns, records: records, format: rt.outputFormat, options: o))
    }

    /// The matches kept, as a person reads them on a terminal: a long id (a BoltOdds label) as its short id, the
    /// teams in one column, times to the second on the day (UTC) and to the minute before it.
    /// `asked`: what narrowed the list ("since 08:00 UTC with a team named 'Arsenal'"), said when nothing is left.
    static func matchesTable(_ sources: [StoredSource], _ o: RenderOptions, now: Date, asked: String = "") -> String {
        var t = Tabular(columns: [.init("ID"), .init("PROVIDER"), .init("LEAGUE", shrinkable: true), .init("MATCH", shrinkable: true, minWidth: 16),
                                  .init("STATUS"), .init("START"), .init("FIRST SEEN"), .init("LAST SEEN"), .init("PRICES", rightAligned: true),
                                  .init("FUSED")])
        t.rows = sources.map { s in
            [Event.shortID(for: s.key.eventID), s.key.provider.rawValue, s.league ?? "", s.title, s.status ?? "",
             s.startTime.map { clock($0, now: now, seconds: false) } ?? "", clock(s.firstSeen, now: now), clock(s.lastSeen, now: now),
             String(s.priceChanges), s.matchKey ?? ""].map(TerminalText.safe)
        }
        guard !t.rows.isEmpty else { return o.banner + "The history keeps no match\(asked.isEmpty ? "" : " " + TerminalText.safe(asked)).\n" }
        return o.banner + t.renderAligned(width: o.width, color: o.color) + "Times in UTC; --json or --format tsv for every field and the providers' own ids.\n"
    }

    /// A time as a terminal table shows it, in UTC: the time of day on `now`'s day, the month, day and minute in
    /// its year, else the date.
    static func clock(_ d: Date, now: Date, seconds: Bool = true) -> String {
        // Cut, not rounded, as the timeline's times of day are.
        let text = ISODate.text(d, milliseconds: true), today = ISODate.text(now, milliseconds: true)
        if text.prefix(10) == today.prefix(10) { return String(text.dropFirst(11).prefix(seconds ? 8 : 5)) }
        if text.prefix(4) == today.prefix(4) { return String(text.dropFirst(5).prefix(5)) + " " + String(text.dropFirst(11).prefix(5)) }
        return String(text.prefix(10))
    }

    /// The history's size as a person reads it on a terminal: counts with thousands marked, bytes in kB, MB or GB,
    /// times as the other tables give them (UTC).
    static func statsTable(_ s: HistoryStats, location: HistoryLocation, days: Int, _ o: RenderOptions, now: Date) -> String {
        var t = Tabular(columns: [.init(""), .init("", shrinkable: true)])
        let kept = s.oldest.map { from in "\(clock(from, now: now)) to \(s.newest.map { clock($0, now: now) } ?? "-") UTC" } ?? "nothing yet"
        let prune = s.lastPrune.map { "last pruned \(clock($0.at, now: now)): \(count($0.changes)) change(s) before \(clock($0.cutoff, now: now)) dropped" }
            ?? "not pruned yet"
        let perChange = s.priceChanges > 0 ? " (\(count(Int(s.bytes / Int64(s.priceChanges)))) bytes each on disk)" : ""
        // A span whose end is within a few seconds of now is a writer watching now (its end is written every second;
        // either side, for a writer whose clock runs a little ahead).
        let watched = s.watched.isEmpty ? "not yet (or by an odds before schema version 6)" : s.watched.map { w in
            (-Self.watchingNow..<Self.watchingNow).contains(now.timeIntervalSince(w.to))
                ? "\(w.provider.displayName) now (since \(clock(w.from, now: now)) UTC)"
                : "\(w.provider.displayName) \(clock(w.from, now: now)) to \(clock(w.to, now: now)) UTC"
        }.joined(separator: "; ")
        t.rows = [
            ["History", "\(location.description) (schema version \(s.schemaVersion))"],
            ["Sources", count(s.sources) + " (a match from one provider)"],
            ["Selections", count(s.selections)],
            ["Price changes", count(s.priceChanges) + perChange],
            ["Score changes", count(s.scoreChanges)],
            ["Incidents", count(s.incidents)],
            ["Size", size(s.bytes)],
            ["Kept", kept],
            ["Retention", "\(days) days; \(prune)"],
            ["Last watched", watched],
        ].map { $0.map(TerminalText.safe) }
        // No header: the first column names each row.
        let text = t.renderAligned(width: o.width, color: false).split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n")
        return o.banner + text
    }

    /// How recent a watch span's end is for its writer to be watching now.
    static let watchingNow: TimeInterval = 5

    /// A count with its thousands marked: 1,356,432.
    static func count(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// Bytes in the largest unit that leaves a whole number in front (1000s): 6.1 MB, 110.0 MB, 812 bytes.
    static func size(_ bytes: Int64) -> String {
        let units = ["kB", "MB", "GB", "TB"]
        var value = Double(bytes), unit = -1
        while value >= 1000, unit < units.count - 1 { value /= 1000; unit += 1 }
        guard unit >= 0 else { return "\(bytes) bytes" }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }

    private static func priceText(_ p: StoredPrice, _ format: OddsFormat) -> String {
        if p.suspended { return "SUSP" }
        guard let odds = p.odds, let price = Price(decimalOdds: odds) else { return p.text ?? "-" }
        // The provider's own text where it is already this format's, exactly.
        if format == .decimal, let text = p.text, Price(decimal: text)?.decimalOdds == odds, !text.hasPrefix("+") { return text }
        return price.formatted(format)
    }

    /// Rows of the timeline a terminal shows without `--all`: the latest.
    static let recentRows = 40

    /// Every row of a timeline, for scripts (JSON, NDJSON, CSV, TSV), each written as it is read: `read` hands
    /// its `head` the score changes and incidents, then each price change in time order.
    static func rows(_ sources: [StoredSource], _ rt: Runtime,
                     read: (_ head: (Timeline) -> Void, _ price: (StoredPrice) -> Void) throws -> Void) throws {
        let o = options(rt, demo: sources.contains { $0.demo })
        let format = rt.outputFormat
        var out: [UInt8] = []
        out.reserveCapacity(1 << 21)
        var written = 0
        let write: (Row) -> Void
        let close: () -> Void
        if format == .json || format == .ndjson {
            if format == .json { out.append(UInt8(ascii: "[")) }
            let labels = o.jsonLabels
            // The labels as they close every object: `,"demo":true}`.
            var tail = Array(JSONOutput.object(labels).rendered.utf8.dropFirst())
            if !labels.isEmpty { tail.insert(UInt8(ascii: ","), at: 0) }
            write = { row in
                if format == .json, written > 0 { out.append(UInt8(ascii: ",")) }
                if case .price(let p) = row {
                    writePrice(p, o.oddsFormat, tail, into: &out)
                } else {
                    JSONOutput.object(record(row, o.oddsFormat) + labels).write(to: &out)
                }
                if format == .ndjson { out.append(UInt8(ascii: "\n")) }
            }
            close = { if format == .json { out.append(contentsOf: "]\n".utf8) } }
        } else if let writer = RecordReporter.RowWriter(columns: timelineColumns, format: format, options: o) {
            out.append(contentsOf: writer.header)
            write = { row in writer.append(record(row, o.oddsFormat), to: &out) }
            close = {}
        } else {
            // Any other format lays the rows out together.
            var records: [[(String, JSONOutput)]] = []
            write = { row in records.append(record(row, o.oddsFormat)) }
            close = { out = Array(RecordReporter.render(columns: timelineColumns, records: records, format: format, options: o).utf8) }
        }
        func emit(_ row: Row) {
            write(row)
            written += 1
            if out.count >= 1 << 20 { rt.io.out(String(decoding: out, as: UTF8.self)); out.removeAll(keepingCapacity: true) }
        }
        var merge = TimelineMerge(Timeline())
        try read({ merge = TimelineMerge($0) }, { merge.add($0, emit) })
        merge.finish(emit)
        close()
        rt.io.out(String(decoding: out, as: UTF8.self))
    }

    /// A match on a terminal: its sources, each selection's line, the main market around each incident, and the
    /// latest rows of its timeline.
    /// The most gaps `history show` lists.
    static let unwatchedShown = 5

    static func show(_ sources: [StoredSource], _ summary: TimelineSummary, _ rt: Runtime, ascii: Bool, all: Bool, since: Date? = nil,
                     unwatched: [UnwatchedGap] = []) {
        let o = options(rt, demo: sources.contains { $0.demo })
        var out = o.banner
        let now = Date()
        // Each line about one source or provider behind its tag.
        func tagged(_ p: ProviderID) -> String { p.tag.padding(toLength: 4, withPad: " ", startingAt: 0) }
        for s in sources {
            let facts = "\(s.title) — \(s.key.provider.displayName) \(s.key.eventID), \(s.sport)\(s.league.map { ", " + $0 } ?? "")"
            out += tagged(s.key.provider) + TerminalText.safe(facts)
                + "; kept \(clock(s.firstSeen, now: now)) to \(clock(s.lastSeen, now: now)) UTC\n"
        }
        for u in unwatched.prefix(Self.unwatchedShown) {
            out += tagged(u.provider) + "no writer watched from \(clock(u.gap.lowerBound, now: now)) to \(clock(u.gap.upperBound, now: now)) UTC: its prices then are unknown\n"
        }
        if unwatched.count > Self.unwatchedShown { out += "    and \(unwatched.count - Self.unwatchedShown) more such gap(s)\n" }
        let lines = summary.lines
        if lines.isEmpty {
            let when = since.map { " since \(clock($0, now: now)) UTC" } ?? ""
            out += "No price was kept for this match\(when)\(summary.recent.scores.isEmpty ? "" : " (score changes below)").\n"
        }
        if !lines.isEmpty {
            let records: [[(String, JSONOutput)]] = lines.map { l in
                let s = l.selection
                return [("provider", .string(s.source.provider.tag)), ("book", .string(o.bookText(s.book.isEmpty ? (s.source.provider.singleBook ?? "-") : s.book))),
                        ("market", .string(s.marketName)), ("selection", .string(s.selectionName)), ("line", .string(s.line)),
                        ("open", .string(priceText(l.open, o.oddsFormat))), ("high", .string(priceText(l.high, o.oddsFormat))),
                        ("low", .string(priceText(l.low, o.oddsFormat))), ("last", .string(priceText(l.last, o.oddsFormat))),
                        ("close", .string(l.close.map { priceText($0, o.oddsFormat) } ?? "-")),
                        ("moves", .string(HistoryReport.sparkline(l.moves, width: HistoryReport.sparkCells, ascii: ascii)))]
            }
            var plain = o
            plain.demo = false
            out += RecordReporter.render(columns: [.init("SRC"), .init("BOOK"), .init("MARKET", shrinkable: true), .init("SELECTION", shrinkable: true),
                                                   .init("LINE", rightAligned: true), .init("OPEN", rightAligned: true), .init("HIGH", rightAligned: true), .init("LOW", rightAligned: true),
                                                   .init("LAST", rightAligned: true), .init("CLOSE", rightAligned: true), .init("MOVES")],
                                         records: records, format: .table, options: plain)
        }
        let around = summary.around
        if !around.isEmpty {
            out += "\nAround each incident (\(TerminalText.safe(around[0].marketName)), before → after):\n"
            for a in around {
                let what = a.incident.incident.headline
                let moves = a.selections.map { "\($0.name) \($0.before.map { priceText($0, o.oddsFormat) } ?? "-") → \($0.after.map { priceText($0, o.oddsFormat) } ?? "-")" }
                out += "  \(ISODate.timeOfDay(a.incident.at, milliseconds: true))  " + TerminalText.safe("\(what):  " + moves.joined(separator: "  "))
                    + (a.afterGap(unwatched) ? "  (after: no writer watched between)" : "") + "\n"
            }
        }
        var rows = timelineOrder(summary.recent)
        if !all, rows.count > recentRows { rows.removeFirst(rows.count - recentRows) }
        let total = summary.rows
        out += total > rows.count ? "\nTimeline, the latest \(rows.count) of \(total) rows (--all for every row; --json, --csv for scripts):\n" : "\nTimeline:\n"
        var plain = o
        plain.demo = false
        out += RecordReporter.render(columns: terminalColumns, records: rows.map { terminalRecord($0, o) }, format: .table, options: plain)
        rt.io.out(out)
    }

    /// A terminal's timeline: the time of day (the sources above give the days), the source by its tag (the sources
    /// above give its id), and what a person reads; the provider's text, exact odds and times are for scripts.
    static let terminalColumns: [Tabular.Column] = [
        .init("TIME"), .init("SRC"), .init("TYPE"), .init("BOOK"), .init("MARKET", shrinkable: true), .init("LINE"),
        .init("SELECTION", shrinkable: true), .init("PRICE", rightAligned: true), .init("DETAIL", shrinkable: true),
    ]

    static func terminalRecord(_ row: Row, _ o: RenderOptions) -> [(String, JSONOutput)] {
        func head(_ at: Date, _ source: SourceKey, _ type: String) -> [(String, JSONOutput)] {
            [("time", .string(ISODate.timeOfDay(at, milliseconds: true))), ("src", .string(source.provider.tag)), ("type", .string(type))]
        }
        switch row {
        case .price(let p):
            let book = p.book.isEmpty ? (p.source.provider.singleBook ?? "-") : p.book
            return head(p.at, p.source, "price") + [
                ("book", .string(o.bookText(book))), ("market", .string(p.marketName)), ("line", .string(p.line)),
                ("selection", .string(p.selectionName)), ("price", .string(priceText(p, o.oddsFormat))), ("detail", .string("")),
            ]
        case .score(let x):
            return head(x.at, x.source, "score") + blank + [("detail", .string(detail(x)))]
        case .incident(let x):
            return head(x.at, x.source, "incident") + blank + [("detail", .string(detail(x)))]
        }
    }

    private static let blank: [(String, JSONOutput)] = ["book", "market", "line", "selection", "price"].map { ($0, .string("")) }

    static let timelineColumns: [Tabular.Column] = [
        .init("TIME"), .init("TYPE"), .init("PROVIDER"), .init("EVENT"), .init("BOOK"), .init("MARKET", shrinkable: true), .init("LINE"),
        .init("SELECTION", shrinkable: true), .init("PRICE", rightAligned: true), .init("AS SENT", rightAligned: true), .init("ODDS"),
        .init("SUSPENDED"), .init("DETAIL", shrinkable: true), .init("SENT"),
    ]

    /// A row of a timeline.
    enum Row { case price(StoredPrice), score(StoredScore), incident(StoredIncident) }

    /// Every stored row in time order; prices, score changes and incidents interleaved (at one time, by their
    /// place in their own list).
    static func timelineOrder(_ t: Timeline) -> [Row] {
        var keys: [(at: Date, index: Int, kind: Int)] = []
        keys.reserveCapacity(t.prices.count + t.scores.count + t.incidents.count)
        for (i, p) in t.prices.enumerated() { keys.append((p.at, i, 0)) }
        for (i, s) in t.scores.enumerated() { keys.append((s.at, i, 1)) }
        for (i, x) in t.incidents.enumerated() { keys.append((x.at, i, 2)) }
        keys.sort { ($0.at, $0.index, $0.kind) < ($1.at, $1.index, $1.kind) }
        return keys.map { k in
            switch k.kind {
            case 0: return .price(t.prices[k.index])
            case 1: return .score(t.scores[k.index])
            default: return .incident(t.incidents[k.index])
            }
        }
    }

    /// A timeline's rows in `timelineOrder`'s order while its price changes are read one at a time, in time
    /// order: the score changes and incidents, read first and whole, each go in before the first price change that
    /// `timelineOrder` puts after it.
    struct TimelineMerge {
        private var others: [(at: Date, index: Int, kind: Int, row: Row)] = []
        private var next = 0
        private var prices = 0

        init(_ head: Timeline) {
            for (i, s) in head.scores.enumerated() { others.append((s.at, i, 1, .score(s))) }
            for (i, x) in head.incidents.enumerated() { others.append((x.at, i, 2, .incident(x))) }
            others.sort { ($0.at, $0.index, $0.kind) < ($1.at, $1.index, $1.kind) }
        }

        /// Hands `emit` the rows due before `price`, then `price`.
        mutating func add(_ price: StoredPrice, _ emit: (Row) -> Void) {
            while next < others.count, (others[next].at, others[next].index, others[next].kind) < (price.at, prices, 0) {
                emit(others[next].row)
                next += 1
            }
            emit(.price(price))
            prices += 1
        }

        /// Hands `emit` the rows left after the last price change.
        mutating func finish(_ emit: (Row) -> Void) {
            while next < others.count { emit(others[next].row); next += 1 }
        }
    }

    /// One row's record: the same keys for every type, null where a type has none.
    static func record(_ row: Row, _ format: OddsFormat) -> [(String, JSONOutput)] {
        switch row {
        case .price(let p):
            return [("time", .string(time(p.at))), ("type", .string("price")), ("provider", .string(p.source.provider.rawValue)),
                    ("event", .string(p.source.eventID)), ("book", .string(p.book)), ("market", .string(p.marketName)),
                    ("line", .optionalString(p.line.isEmpty ? nil : p.line)), ("selection", .string(p.selectionName)),
                    ("price", .string(priceText(p, format))), ("text", .optionalString(p.text)),
                    ("odds", .optionalString(p.odds.map(\.description))), ("suspended", .bool(p.suspended)), ("detail", .null),
                    ("providerTime", sent(p.providerAt))]
        case .score(let s):
            return [("time", .string(time(s.at))), ("type", .string("score")), ("provider", .string(s.source.provider.rawValue)),
                    ("event", .string(s.source.eventID)), ("book", .null), ("market", .null), ("line", .null), ("selection", .null),
                    ("price", .null), ("text", .null), ("odds", .null), ("suspended", .null), ("detail", .string(detail(s))),
                    ("providerTime", sent(s.providerAt))]
        case .incident(let x):
            return [("time", .string(time(x.at))), ("type", .string("incident")), ("provider", .string(x.source.provider.rawValue)),
                    ("event", .string(x.source.eventID)), ("book", .null), ("market", .null), ("line", .null), ("selection", .null),
                    ("price", .null), ("text", .null), ("odds", .null), ("suspended", .null), ("detail", .string(detail(x))),
                    ("providerTime", sent(x.providerAt))]
        }
    }

    /// A score change in words: the score, status, period and clock it stored.
    static func detail(_ s: StoredScore) -> String {
        let score = s.state.home.flatMap { h in s.state.away.map { "\(h)-\($0)" } } ?? s.state.scoreText
        return [score, s.state.status, s.state.period, s.state.clock].compactMap { $0 }.joined(separator: " ")
    }

    /// An incident in words: minute, what, who (and the assist), whether rescinded, the score it made.
    static func detail(_ x: StoredIncident) -> String {
        let i = x.incident
        return [i.minuteLabel, i.detail ?? i.kind.rawValue, i.player, i.assist.map { "(\($0))" }, i.rescinded ? "rescinded" : nil,
                i.score.map(\.text)].compactMap { $0 }.joined(separator: " ")
    }

    /// A price row's record written straight to bytes, as `JSONOutput.object(record(.price(p)) + labels)` writes it
    /// (the bulk of a long timeline: its keys are not quoted again for every row); `tail` closes the object.
    static func writePrice(_ p: StoredPrice, _ format: OddsFormat, _ tail: [UInt8], into out: inout [UInt8]) {
        func key(_ k: StaticString) { k.withUTF8Buffer { out.append(contentsOf: $0) } }
        func text(_ s: String?) { if let s { JSONWriter.quote(s, into: &out) } else { key("null") } }
        key("{\"time\":\"")
        ISODate.write(p.at, milliseconds: true, into: &out)
        key("\",\"type\":\"price\",\"provider\":"); text(p.source.provider.rawValue)
        key(",\"event\":"); text(p.source.eventID)
        key(",\"book\":"); text(p.book)
        key(",\"market\":"); text(p.marketName)
        key(",\"line\":"); text(p.line.isEmpty ? nil : p.line)
        key(",\"selection\":"); text(p.selectionName)
        key(",\"price\":"); text(priceText(p, format))
        key(",\"text\":"); text(p.text)
        key(",\"odds\":"); text(p.odds?.description)
        key(p.suspended ? ",\"suspended\":true" : ",\"suspended\":false")
        key(",\"detail\":null,\"providerTime\":")
        if let at = p.providerAt { out.append(0x22); ISODate.write(at, milliseconds: true, into: &out); out.append(0x22) } else { key("null") }
        out.append(contentsOf: tail)
    }

    /// The provider's own time of a row, where it sent one.
    private static func sent(_ at: Date?) -> JSONOutput { at.map { .string(time($0)) } ?? .null }

    static func stats(_ s: HistoryStats, location: HistoryLocation, days: Int, _ rt: Runtime) {
        let prune = s.lastPrune.map { "\(time($0.at)): \($0.changes) change(s) received before \(time($0.cutoff)) dropped" } ?? "not yet"
        let records: [[(String, JSONOutput)]] = [
            [("what", .string("location")), ("value", .string(location.description))],
            [("what", .string("schemaVersion")), ("value", .number(String(s.schemaVersion)))],
            [("what", .string("sources")), ("value", .number(String(s.sources)))],
            [("what", .string("selections")), ("value", .number(String(s.selections)))],
            [("what", .string("priceChanges")), ("value", .number(String(s.priceChanges)))],
            [("what", .string("scoreChanges")), ("value", .number(String(s.scoreChanges)))],
            [("what", .string("incidents")), ("value", .number(String(s.incidents)))],
            [("what", .string("bytes")), ("value", .number(String(s.bytes)))],
            [("what", .string("bytesPerChange")), ("value", s.priceChanges > 0 ? .number(String(s.bytes / Int64(s.priceChanges))) : .null)],
            [("what", .string("oldest")), ("value", .optionalString(s.oldest.map(time)))],
            [("what", .string("newest")), ("value", .optionalString(s.newest.map(time)))],
            [("what", .string("retentionDays")), ("value", .number(String(days)))],
            [("what", .string("lastPrune")), ("value", .string(prune))],
            [("what", .string("watched")), ("value", .string(s.watched.map { "\($0.provider.rawValue) \(time($0.from)) to \(time($0.to))" }.joined(separator: "; ")))],
        ]
        if rt.outputFormat == .table {
            rt.io.out(statsTable(s, location: location, days: days, rt.renderOptions, now: Date()))
            return
        }
        if rt.outputFormat == .json {
            // The last pruning as its parts, for a script; a sentence in the other formats.
            let pruned: JSONOutput = s.lastPrune.map { p in
                .object([("at", .string(time(p.at))), ("cutoff", .string(time(p.cutoff))), ("changes", .int(p.changes))])
            } ?? .null
            rt.io.out(JSONOutput.object(records.map { r -> (String, JSONOutput) in
                guard case .string(let key) = r[0].1 else { return ("", r[1].1) }
                if key == "watched" {
                    return (key, .array(s.watched.map { w in
                        .object([("provider", .string(w.provider.rawValue)), ("from", .string(time(w.from))), ("to", .string(time(w.to)))])
                    }))
                }
                return (key, key == "lastPrune" ? pruned : r[1].1)
            }).rendered + "\n")
            return
        }
        rt.io.out(RecordReporter.render(columns: [.init("WHAT"), .init("VALUE", shrinkable: true)], records: records, format: rt.outputFormat,
                                        options: rt.renderOptions))
    }
}
