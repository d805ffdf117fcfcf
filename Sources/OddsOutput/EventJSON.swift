import Foundation
import OddsJSON
import OddsModel
import OddsStore

/// The JSON schema of events and feed updates. Field names are fixed (see the README).
public enum EventJSON {
    public static func date(_ d: Date) -> String {
        ISODate.text(d, milliseconds: true)
    }

    /// `{"decimal","american","fractional","probability","book"}`, all strings; the provider's own text
    /// stays as it came, and every price names the book that offers it.
    public static func price(_ p: Price?, book: String?) -> JSONOutput {
        var t = JSONText(capacity: 128)
        write(price: p, book: book, extra: nil, to: &t)
        return .written(t.bytes)
    }

    public static func selection(_ s: Selection, book: String?, notes: PriceNotes.Selection? = nil) -> JSONOutput {
        var t = JSONText(capacity: 256)
        write(selection: s, book: book, notes: notes, to: &t)
        return .written(t.bytes)
    }

    public static func market(_ m: Market) -> JSONOutput { market(m, notes: nil) }

    public static func market(_ m: Market, notes: PriceNotes.Market?) -> JSONOutput {
        var t = JSONText(capacity: 1024)
        write(market: m, notes: notes, to: &t)
        return .written(t.bytes)
    }

    // Written as text straight away: a stream writes a market for nearly every line.
    static func write(price p: Price?, book: String?, extra: [(String, JSONOutput)]?, to t: inout JSONText) {
        guard let p else { t.null(); return }
        t.beginObject()
        t.key("decimal"); t.string(p.formatted(.decimal))
        t.key("american"); t.string(p.formatted(.american))
        t.key("fractional"); t.string(p.formatted(.fractional))
        t.key("probability"); t.string(p.probabilityText)
        t.key("book"); t.string(book)
        if let extra { t.members(extra) }
        t.endObject()
    }

    static func write(selection s: Selection, book: String?, notes: PriceNotes.Selection?, to t: inout JSONText) {
        t.beginObject()
        t.key("name"); t.string(s.name)
        t.key("line"); t.string(s.line)
        t.key("suspended"); t.bool(s.suspended)
        t.key("isMain"); if let main = s.isMain { t.bool(main) } else { t.null() }
        t.key("price"); write(price: s.price, book: book, extra: notes?.price, to: &t)
        if let extra = notes?.selection { t.members(extra) }
        // Only providers with deep links (BoltOdds) add the field.
        if let link = s.link { t.key("link"); t.string(link) }
        t.endObject()
    }

    static func write(market m: Market, notes: PriceNotes.Market?, to t: inout JSONText) {
        t.beginObject()
        t.key("name"); t.string(m.name)
        // A fused match's market names its provider beside its book.
        if let p = m.provider { t.key("provider"); t.string(p.rawValue) }
        t.key("book"); t.string(m.book)
        t.key("bookName"); t.string(m.book.map(BookNames.proper))
        if let extra = notes?.fields { t.members(extra) }
        t.key("selections")
        t.beginArray()
        for (i, s) in m.selections.enumerated() { write(selection: s, book: m.book, notes: notes?.selections[i], to: &t) }
        t.endArray()
        t.endObject()
    }

    /// A fused match's `match` (id, confidence, conflicts) and `sources` (each provider's own event).
    public static func match(_ m: MatchInfo) -> [(String, JSONOutput)] {
        [("match", .object([("id", .string(m.id)), ("confidence", .number(String(format: "%.3f", m.confidence))),
                            ("conflicts", .array(m.conflicts.map { .string($0) }))])),
         ("sources", .array(m.sources.map { s in
             .object([("provider", .string(s.provider.rawValue)), ("id", .string(s.id)), ("league", .optionalString(s.league)),
                      ("home", .string(s.home)), ("away", .optionalString(s.away)),
                      ("startTime", s.startTime.map { .string(date($0)) } ?? .null),
                      ("updatedAt", s.updatedAt.map { .string(date($0)) } ?? .null),
                      ("confidence", .number(String(format: "%.3f", s.confidence))), ("reason", .string(s.reason))])
         }))]
    }

    public static func score(_ s: Score?) -> JSONOutput {
        guard let s else { return .null }
        return .object([("home", .int(s.home)), ("away", .int(s.away))])
    }

    public static func incident(_ i: Incident) -> JSONOutput {
        .object([
            ("kind", .string(i.kind.rawValue)),
            ("minute", i.minute.map { .int($0) } ?? .null),
            ("addedTime", i.addedTime.map { .int($0) } ?? .null),
            ("team", .optionalString(i.team?.rawValue)),
            ("player", .optionalString(i.player)),
            ("assist", .optionalString(i.assist)),
            ("playerOut", .optionalString(i.playerOut)),
            ("reason", .optionalString(i.reason)),
            ("score", score(i.score)),
            ("detail", .optionalString(i.detail)),
            ("id", .optionalString(i.id)),
            ("rescinded", .bool(i.rescinded)),
        ])
    }

    public static func stats(_ stats: [TeamStat]) -> JSONOutput {
        .array(stats.map { s in
            .object([("name", .string(s.name)), ("group", .optionalString(s.group)), ("home", .string(s.home)), ("away", .string(s.away))])
        })
    }

    public static func lineups(_ l: Lineups?) -> JSONOutput {
        guard let l else { return .null }
        func players(_ list: [LineupPlayer]) -> JSONOutput {
            .array(list.map { .object([("name", .string($0.name)), ("number", .optionalString($0.number)), ("position", .optionalString($0.position))]) })
        }
        func side(_ s: Lineup?) -> JSONOutput {
            guard let s else { return .null }
            return .object([("formation", .optionalString(s.formation)), ("starters", players(s.starters)),
                            ("substitutes", players(s.substitutes))])
        }
        return .object([("home", side(l.home)), ("away", side(l.away)), ("confirmed", l.confirmed.map { .bool($0) } ?? .null)])
    }

    /// `written`: markets already written unchanged with the same notes are copied from it.
    public static func event(_ e: Event, labels: [(String, JSONOutput)] = [], notes: PriceNotes? = nil,
                             written: WrittenMarkets? = nil) -> JSONOutput {
        var fields: [(String, JSONOutput)] = [
            ("provider", .string(e.provider.rawValue)),
            ("id", .string(e.id)),
        ]
        // The id tables show, where it is not the provider's own (a BoltOdds game label).
        if e.shortID != e.id { fields.append(("shortId", .string(e.shortID))) }
        fields += [
            ("sport", .string(e.sport)),
            ("league", .optionalString(e.league)),
            ("home", .string(e.home)),
            ("away", .optionalString(e.away)),
            ("status", .string(e.status.rawValue)),
            ("startTime", e.startTime.map { .string(date($0)) } ?? .null),
            ("score", score(e.score)),
            ("scoreText", .optionalString(e.scoreText)),
            ("clock", .optionalString(e.clock)),
            ("period", .optionalString(e.period)),
            ("markets", .array(written?.markets(of: e, notes: notes) ?? e.markets.enumerated().map { market($1, notes: notes?.markets[$0]) })),
            ("incidents", .array(e.incidents.map(incident))),
            ("stats", stats(e.stats)),
            ("lineups", lineups(e.lineups)),
            ("updatedAt", e.updatedAt.map { .string(date($0)) } ?? .null),
        ]
        if let m = e.match { fields += match(m) }
        fields += labels
        return .object(fields)
    }

    /// One feed update as an NDJSON line's object. `move` adds the previous price of a price update.
    /// `match`, the fused match the update is about (several providers at once), follows `receivedAt`.
    /// `notes` adds margins, fair prices and EVs to each event a line carries; `priceNotes` are a price line's own
    /// (its book's margin, the selection's fair price and the price's EV). `written` keeps the markets written,
    /// for a stream that writes the same markets line after line.
    public static func update(_ m: FeedMessage, move: PriceMove? = nil, match: String? = nil,
                              labels: [(String, JSONOutput)] = [], notes: ((Event) -> PriceNotes?)? = nil,
                              priceNotes: [(String, JSONOutput)] = [], written: WrittenMarkets? = nil) -> JSONOutput {
        // Whole events only: one book's part of an event (BoltOdds) is read against every other book, and its notes
        // change with theirs.
        func event(_ e: Event, notes: PriceNotes?, whole: Bool = true) -> JSONOutput {
            EventJSON.event(e, notes: notes, written: whole ? written : nil)
        }
        var fields: [(String, JSONOutput)] = []
        func head(_ type: String) {
            fields = [("type", .string(type)), ("provider", .string(m.provider.rawValue)),
                      ("receivedAt", .string(date(m.receivedAt)))]
        }
        switch m.update {
        case .snapshot(let events):
            head("snapshot")
            // A snapshot replaces what its connection told: named where a provider has several (PulseScore's per sport).
            if m.connection != "live" { fields.append(("connection", .string(m.connection))) }
            fields.append(("events", .array(events.map { event($0, notes: notes?($0)) })))
        case .upsert(let e):
            head("upsert")
            fields.append(("event", event(e, notes: notes?(e))))
        case .bookUpsert(let e, let book):
            head("book")
            fields += [("book", .string(book)), ("event", event(e, notes: notes?(e), whole: false))]
        case .bookViews(let e, let books):
            // Gathered for a store only (`BookViewRun`); written, it says which books' views it holds.
            head("books")
            fields += [("books", .array(books.map { .string($0) })), ("event", event(e, notes: notes?(e), whole: false))]
        case .scoreboard(let s):
            head("scoreboard")
            fields += [("eventId", .string(s.eventID)), ("home", .optionalString(s.home)), ("away", .optionalString(s.away)),
                       ("league", .optionalString(s.league)), ("score", score(s.score)), ("scoreText", .optionalString(s.scoreText)),
                       ("clock", .optionalString(s.clock)), ("period", .optionalString(s.period)),
                       ("status", .optionalString(s.status?.rawValue))]
        case .remove(let id):
            head("remove")
            fields.append(("eventId", .string(id)))
        case .price(let p):
            head("price")
            fields += [("eventId", .string(p.eventID)), ("marketId", .string(p.marketID)), ("market", .string(p.marketName))]
            fields.append(("book", .optionalString(p.book)))
            fields.append(("selection", selection(p.selection, book: p.book)))
            if let move, let previous = move.previous {
                fields.append(("previous", price(previous, book: p.book)))
                fields.append(("direction", .optionalString(move.direction?.rawValue)))
            }
            fields += priceNotes
        case .score(let id, let from, let to):
            head("score")
            fields += [("eventId", .string(id)), ("from", score(from)), ("to", score(to))]
        case .incident(let id, let i):
            head("incident")
            fields += [("eventId", .string(id)), ("incident", incident(i))]
        case .stats(let id, let list):
            head("stats")
            fields += [("eventId", .string(id)), ("stats", stats(list))]
        case .lineups(let id, let l):
            head("lineups")
            fields += [("eventId", .string(id)), ("lineups", lineups(l))]
        case .status(let id, let status, let period):
            head("status")
            fields += [("eventId", .string(id)), ("status", .string(status.rawValue)), ("period", .optionalString(period))]
        case .clear(let scope):
            head("clear")
            switch scope {
            case .book(let b): fields.append(("book", .string(b)))
            case .sport(let sp): fields.append(("sport", .string(sp)))
            case .bookInLeague(let b, let league): fields += [("book", .string(b)), ("league", .string(league))]
            case .bookInEvent(let b, let id): fields += [("book", .string(b)), ("eventId", .string(id))]
            }
        case .heartbeat:
            head("heartbeat")
        case .connection(let state):
            head("connection")
            fields += [("connection", .string(m.connection)), ("state", .string(state.label))]
            switch state {
            case .reconnecting(let seconds, let attempt, let reason):
                fields += [("retryIn", .number(String(format: "%g", seconds))), ("attempt", .int(attempt)), ("reason", .string(reason))]
            case .stopped(let reason), .degraded(let reason):
                fields.append(("reason", .string(reason)))
            default: break
            }
        }
        if let match { fields.insert(("match", .string(match)), at: min(3, fields.count)) }
        fields += labels
        return .object(fields)
    }
}

/// Fields added to an event's markets, selections and prices by what reads them (margins, fair prices, EV),
/// by market index and selection index.
public struct PriceNotes: Sendable {
    public struct Selection: Sendable, Equatable {
        public var selection: [(String, JSONOutput)] = []
        public var price: [(String, JSONOutput)] = []
        public init() {}
        public static func == (a: Selection, b: Selection) -> Bool {
            JSONOutput.same(a.selection, b.selection) && JSONOutput.same(a.price, b.price)
        }
    }
    public struct Market: Sendable, Equatable {
        public var fields: [(String, JSONOutput)] = []
        public var selections: [Int: Selection] = [:]
        public init() {}
        public static func == (a: Market, b: Market) -> Bool {
            JSONOutput.same(a.fields, b.fields) && a.selections == b.selections
        }
    }
    public var markets: [Int: Market] = [:]
    public init() {}
}
