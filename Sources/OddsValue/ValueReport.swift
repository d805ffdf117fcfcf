import Foundation
import OddsFusion
import OddsJSON
import OddsModel
import OddsOutput

/// One event's analysed markets.
public struct EventValue: Sendable {
    public var event: Event
    public var markets: [MarketValue]
    public init(event: Event, markets: [MarketValue]) { self.event = event; self.markets = markets }
}

/// A price worth more than its fair price: one book's price of one selection.
public struct ValueBet: Sendable {
    public var event: Event
    public var market: MarketValue
    public var outcome: Int
    public var book: Int
    public var ev: Fraction
    /// Stable across updates: the match, market, selection and source.
    public var key: String {
        let b = market.books[book].source
        return "value|\(event.match?.id ?? event.provider.rawValue + ":" + event.id)|\(market.id)|\(market.outcomes[outcome].id)|\(b.provider.rawValue)/\(b.book)"
    }
    /// What a change of it is (`--watch`): its price or EV, never its age.
    public var signature: String { "\(market.books[book].quotes[outcome]!.price!.text)|\(ev.rounded(places: 6))" }
}

/// An arbitrage of one event's market.
public struct ArbitrageFound: Sendable {
    public var event: Event
    public var market: MarketValue
    public var arbitrage: Arbitrage
    public var key: String { "arb|\(event.match?.id ?? event.provider.rawValue + ":" + event.id)|\(market.id)" }
    /// What a change of it is (`--watch`): its legs' sources and prices, never their ages.
    public var signature: String {
        arbitrage.legs.map { "\($0.source.provider.rawValue)/\($0.source.book)@\($0.price.text)" }.joined(separator: ",")
    }
}

/// The rows of `odds value` and `odds arb`: selection, thresholds and every output format.
public enum ValueReport {
    /// Every fresh price whose EV is at least `minEV`, best first.
    public static func valueBets(_ values: [EventValue], minEV: Fraction) -> [ValueBet] {
        var out: [ValueBet] = []
        for v in values {
            for m in v.markets {
                for (b, book) in m.books.enumerated() where book.fresh {
                    for (i, ev) in book.ev.enumerated() {
                        guard let ev, !(ev < minEV) else { continue }
                        out.append(ValueBet(event: v.event, market: m, outcome: i, book: b, ev: ev))
                    }
                }
            }
        }
        return out.sorted { $0.ev > $1.ev }
    }

    /// Every open arbitrage whose profit is at least `minProfit`, best first.
    public static func arbitrages(_ values: [EventValue], minProfit: Fraction) -> [ArbitrageFound] {
        values.flatMap { v in
            v.markets.compactMap { m in m.arbitrage.flatMap { $0.profit < minProfit ? nil : ArbitrageFound(event: v.event, market: m, arbitrage: $0) } }
        }.sorted { $0.arbitrage.profit > $1.arbitrage.profit }
    }

    // MARK: Text

    /// A fraction as a percentage with 2 places ("4.71%").
    public static func percent(_ f: Fraction) -> String { (f * Fraction(100)).rounded(places: 2) + "%" }

    /// A fraction as JSON's number: 6 places.
    public static func number(_ f: Fraction?) -> JSONOutput { f.map { .number($0.rounded(places: 6)) } ?? .null }

    /// A fair price (decimal odds, exact) in `format`, rounded only here.
    public static func fairText(_ price: Fraction, _ format: OddsFormat) -> String {
        switch format {
        case .decimal, .fractional: return price.rounded(places: 2)
        case .american:
            let profit = price - .one
            guard profit.isPositive else { return "" }
            if !(profit < .one) { return "+" + (profit * Fraction(100)).rounded(places: 0) }
            return "-" + ((Fraction(100) / profit)!).rounded(places: 0)
        case .probability: return percent(price.reciprocal!)
        }
    }

    /// Seconds, as tables show them ("0.4s", "12s").
    public static func ageText(_ age: TimeInterval?) -> String {
        guard let age else { return "" }
        return age < 10 ? String(format: "%.1fs", max(0, age)) : String(format: "%.0fs", age)
    }

    static func ageJSON(_ age: TimeInterval?) -> JSONOutput { age.map { .number(String(format: "%.1f", max(0, $0))) } ?? .null }

    /// The source's name as tables show it: the book, with its provider when the match is fused; for a person,
    /// the book's proper name and the provider's tag ("Caesars BO"), for a script the keys ("caesars (boltodds)").
    public static func sourceText(_ s: PriceSource, fused: Bool, human: Bool = false) -> String {
        if human { return BookNames.proper(s.book) + (fused ? " " + s.provider.tag : "") }
        return fused ? "\(s.book) (\(s.provider.rawValue))" : s.book
    }

    static func matchFields(_ e: Event) -> [(String, JSONOutput)] {
        var f: [(String, JSONOutput)] = [("match", .string(e.title))]
        if let m = e.match { f.append(("matchId", .string(m.id))) } else {
            f += [("provider", .string(e.provider.rawValue)), ("eventId", .string(e.id))]
        }
        f += [("sport", .string(e.sport)), ("league", .optionalString(e.league)), ("status", .string(e.status.rawValue))]
        return f
    }

    static func marketFields(_ m: MarketValue) -> [(String, JSONOutput)] {
        [("market", .string(m.id)), ("marketName", .string(m.name))]
    }

    /// The fair price of outcome `i` as JSON: its price strings, probability, reference and method.
    public static func fairJSON(_ m: MarketValue, _ i: Int, settings: ValueSettings) -> JSONOutput {
        guard let p = m.fair?[i], let price = p.reciprocal else { return .null }
        return .object([("decimal", .string(fairText(price, .decimal))), ("american", .string(fairText(price, .american))),
                        ("probability", number(p)), ("reference", .string(settings.reference.description)),
                        ("method", .string(settings.method.rawValue))])
    }

    // MARK: odds value

    public static let valueColumns: [Tabular.Column] = [
        .init("MATCH", shrinkable: true), .init("MARKET", shrinkable: true, minWidth: 5), .init("LINE"), .init("SELECTION", shrinkable: true),
        .init("BOOK", shrinkable: true, minWidth: 6), .init("PRICE", rightAligned: true), .init("FAIR", rightAligned: true), .init("EV", rightAligned: true),
        .init("MARGIN", rightAligned: true), .init("AGE", rightAligned: true),
    ]

    public static func valueRow(_ v: ValueBet, format: OddsFormat, human: Bool = false) -> [String] {
        let book = v.market.books[v.book], q = book.quotes[v.outcome]!, o = v.market.outcomes[v.outcome]
        return [v.event.title, v.market.name, o.line ?? "", o.name, sourceText(book.source, fused: v.event.match != nil, human: human),
                q.price!.formatted(format), v.market.fairPrice(v.outcome).map { fairText($0, format) } ?? "",
                percent(v.ev), book.margin.map(percent) ?? "", ageText(q.age)]
    }

    public static func valueJSON(_ v: ValueBet, settings: ValueSettings, labels: [(String, JSONOutput)]) -> JSONOutput {
        .object(valueFields(v, settings: settings) + labels)
    }

    /// A value bet's JSON fields (`odds value --json`, `--watch` lines).
    public static func valueFields(_ v: ValueBet, settings: ValueSettings) -> [(String, JSONOutput)] {
        let book = v.market.books[v.book], q = book.quotes[v.outcome]!, o = v.market.outcomes[v.outcome]
        return matchFields(v.event) + marketFields(v.market) + [
            ("line", .optionalString(o.line)), ("selection", .string(o.name)), ("selectionId", .string(o.id)),
            ("book", .string(book.source.book)), ("bookName", .string(BookNames.proper(book.source.book))),
            ("bookProvider", .string(book.source.provider.rawValue)),
            ("price", EventJSON.price(q.price, book: book.source.book)), ("fair", fairJSON(v.market, v.outcome, settings: settings)),
            ("ev", number(v.ev)), ("margin", number(book.margin)), ("age", ageJSON(q.age)),
        ]
    }

    public static func renderValue(_ bets: [ValueBet], settings: ValueSettings, format: OutputFormat, options: RenderOptions) -> String {
        switch format {
        case .json: return JSONOutput.array(bets.map { valueJSON($0, settings: settings, labels: options.jsonLabels) }).rendered + "\n"
        case .ndjson: return bets.map { valueJSON($0, settings: settings, labels: options.jsonLabels).rendered + "\n" }.joined()
        case .table, .tsv, .csv:
            var t = Tabular(columns: valueColumns, rows: bets.map { valueRow($0, format: options.oddsFormat, human: options.human) })
            t.styles = bets.map { _ in valueColumns.indices.map { $0 == 7 ? .up : .plain } }
            return render(t, empty: "No value: no fresh price is above its fair price by the --min-ev asked.", format: format, options: options)
        }
    }

    // MARK: odds arb

    public static let arbColumns: [Tabular.Column] = [
        .init("MATCH", shrinkable: true), .init("MARKET", shrinkable: true, minWidth: 5), .init("LINE"), .init("SELECTION", shrinkable: true),
        .init("BOOK", shrinkable: true, minWidth: 6), .init("PRICE", rightAligned: true), .init("STAKE", rightAligned: true), .init("RETURN", rightAligned: true),
        .init("PROFIT", rightAligned: true), .init("AGE", rightAligned: true),
    ]

    /// One row per leg; in a table the match, market and profit only on an arbitrage's first leg.
    public static func arbRows(_ a: ArbitrageFound, stake: Fraction, unit: Fraction, format: OddsFormat, repeatShared: Bool,
                               human: Bool = false) -> [[String]] {
        let plan = a.arbitrage.stakes(total: stake, unit: unit)
        return a.arbitrage.legs.enumerated().map { n, leg in
            let o = a.market.outcomes[leg.outcome]
            let shared = n == 0 || repeatShared
            // For a person, "2.68%" or, when rounding the stakes changes it, "2.68%→2.61%": the column fits 80.
            let before = percent(a.arbitrage.profit), after = percent(plan.profit)
            let profit = !shared ? "" : human ? (before == after ? before : before + "→" + after) : before + " (" + after + " rounded)"
            return [shared ? a.event.title : "", shared ? a.market.name : "", o.line ?? "", o.name,
                    sourceText(leg.source, fused: a.event.match != nil, human: human), leg.price.formatted(format),
                    plan.stakes[n].rounded(places: places(unit)), plan.returns[n].rounded(places: 2), profit,
                    shared ? ageText(a.arbitrage.oldestAge) : ageText(leg.age)]
        }
    }

    /// Decimal places of a rounding unit (0.01 → 2, 1 → 0, 0.5 → 1).
    static func places(_ unit: Fraction) -> Int {
        var p = 0, scaled = unit
        while p < 6, scaled.denominator != 1 { scaled = scaled * Fraction(10); p += 1 }
        return max(p, 2)
    }

    public static func arbJSON(_ a: ArbitrageFound, stake: Fraction, unit: Fraction, labels: [(String, JSONOutput)]) -> JSONOutput {
        .object(arbFields(a, stake: stake, unit: unit) + labels)
    }

    /// An arbitrage's JSON fields (`odds arb --json`, `--watch` lines).
    public static func arbFields(_ a: ArbitrageFound, stake: Fraction, unit: Fraction) -> [(String, JSONOutput)] {
        let plan = a.arbitrage.stakes(total: stake, unit: unit)
        let legs: [JSONOutput] = a.arbitrage.legs.enumerated().map { n, leg in
            let o = a.market.outcomes[leg.outcome]
            return .object([("selection", .string(o.name)), ("selectionId", .string(o.id)), ("line", .optionalString(o.line)),
                            ("book", .string(leg.source.book)), ("bookName", .string(BookNames.proper(leg.source.book))),
                            ("bookProvider", .string(leg.source.provider.rawValue)),
                            ("price", EventJSON.price(leg.price, book: leg.source.book)),
                            ("stake", .number(plan.stakes[n].rounded(places: places(unit)))),
                            ("return", .number(plan.returns[n].rounded(places: 2))), ("age", ageJSON(leg.age))])
        }
        return matchFields(a.event) + marketFields(a.market) + [
            ("profit", number(a.arbitrage.profit)), ("impliedSum", number(a.arbitrage.sum)),
            ("stake", .number(stake.rounded(places: places(unit)))), ("staked", .number(plan.staked.rounded(places: places(unit)))),
            ("guaranteedReturn", .number(plan.guaranteed.rounded(places: 2))), ("profitAfterRounding", number(plan.profit)),
            ("oldestAge", ageJSON(a.arbitrage.oldestAge)), ("legs", .array(legs)),
        ]
    }

    public static func renderArbs(_ arbs: [ArbitrageFound], stake: Fraction, unit: Fraction, format: OutputFormat,
                                  options: RenderOptions) -> String {
        switch format {
        case .json: return JSONOutput.array(arbs.map { arbJSON($0, stake: stake, unit: unit, labels: options.jsonLabels) }).rendered + "\n"
        case .ndjson: return arbs.map { arbJSON($0, stake: stake, unit: unit, labels: options.jsonLabels).rendered + "\n" }.joined()
        case .table, .tsv, .csv:
            let rows = arbs.flatMap { arbRows($0, stake: stake, unit: unit, format: options.oddsFormat, repeatShared: format != .table,
                                              human: options.human) }
            var t = Tabular(columns: arbColumns, rows: rows)
            t.styles = rows.map { r in arbColumns.indices.map { $0 == 8 && !r[8].isEmpty ? .up : .plain } }
            return render(t, empty: "No arbitrage: no market's best fresh prices sum under 100%.", format: format, options: options)
        }
    }

    static func render(_ t: Tabular, empty: String, format: OutputFormat, options: RenderOptions) -> String {
        switch format {
        case .table:
            return options.banner + (t.rows.isEmpty ? empty + "\n" : t.renderAligned(width: options.width, color: options.color))
        case .tsv: return t.labelled(options).renderTSV()
        default: return t.labelled(options).renderCSV()
        }
    }
}

extension ValueReport {
    /// What `odds live --json`, `odds event --json` and stream lines add to an event: each market of an analysed
    /// meaning gains its book's `margin` (a market of several lines, `margins` per line), each selection its
    /// `fair` price (with reference and method) and each price its `ev` (null where there is none) and `best`:
    /// true on the highest available, fresh price of that selection across every book and source (ties each).
    /// `only`: just the notes of these source markets (by index in the event).
    public static func notes(_ markets: [MarketValue], settings: ValueSettings, only: Set<Int>? = nil) -> PriceNotes {
        notes(markets, only: only) { NotesPart($0, settings: settings, only: only) }
    }

    /// The same, with each market's part from `part` (a stream keeps the parts of unchanged markets).
    static func notes(_ markets: [MarketValue], only: Set<Int>? = nil, part: (MarketValue) -> NotesPart) -> PriceNotes {
        var notes = PriceNotes()
        // Per source market, the margin of each analysed market it has a line of, in the analysis's order.
        var margins: [Int: [(market: String, margin: Fraction?)]] = [:]
        for market in markets {
            let p = part(market)
            // Each book's margin, once its last wanted source market is known (none: no book yet, or none wanted).
            func margin(_ book: Int, at index: Int?) {
                guard index != nil else { return }
                QuoteIndex.add(margin: p.margins[book], of: market.id, at: index, to: &margins)
            }
            var book = -1, last: Int?
            for q in p.quotes {
                if q.book != book { margin(book, at: last); book = q.book; last = nil }
                guard only?.contains(q.market) ?? true else { continue }
                notes.markets[q.market, default: PriceNotes.Market()].selections[q.selection] = q.notes
                last = q.market
            }
            margin(book, at: last)
        }
        for (marketIndex, lines) in margins {
            notes.markets[marketIndex, default: PriceNotes.Market()].fields = lines.count == 1 ? [("margin", number(lines[0].margin))]
                : [("margins", .array(lines.map { .object([("market", .string($0.market)), ("margin", number($0.margin))]) }))]
        }
        return notes
    }
}

extension ValueReport {
    /// Whether the price at `place` is its outcome's best across the market's books: available, fresh, and no
    /// other such price higher (ties are each best).
    static func isBest(_ place: QuoteIndex.Place) -> Bool {
        let book = place.market.books[place.book]
        guard book.fresh, let mine = book.quotes[place.outcome], mine.isAvailable,
              let best = ValueAnalysis.best(place.market.books, outcome: place.outcome) else { return false }
        return mine.price!.decimalOdds == best.quote.price!.decimalOdds
    }

    /// Notes for an event as a stream line carries it (`line`: a provider's whole event, or one book's part of
    /// it), from `markets`, the analysis of `current`: the event as the client now holds it with every book, so
    /// that a fair price is the consensus of every book and not of the line's alone.
    public static func streamNotes(line: Event, current: Event, markets: [MarketValue], settings: ValueSettings) -> PriceNotes {
        streamNotes(line: line, current: current) { only in notes(markets, settings: settings, only: only) }
    }

    /// The same, with the notes of the event's markets (all, or only some) from `notes`.
    static func streamNotes(line: Event, current: Event, notes: (Set<Int>?) -> PriceNotes) -> PriceNotes {
        guard line.markets != current.markets else { return notes(nil) }
        // Where each of the line's markets is in the event as held, and only those markets' notes.
        var byKey: [Market.Key: Int] = [:]
        for (j, m) in current.markets.enumerated() { byKey[m.key] = byKey[m.key] ?? j }
        let places = line.markets.map { byKey[$0.key] }
        let all = notes(Set(places.compactMap { $0 }))
        var out = PriceNotes()
        for (i, m) in line.markets.enumerated() {
            guard let j = places[i], let note = all.markets[j] else { continue }
            var mapped = PriceNotes.Market()
            mapped.fields = note.fields
            for (si, s) in m.selections.enumerated() {
                if let sj = current.markets[j].selections.firstIndex(where: { $0.isSame(as: s) }), let n = note.selections[sj] {
                    mapped.selections[si] = n
                }
            }
            out.markets[i] = mapped
        }
        return out
    }

    /// A stream's price line's own notes, from `markets` (the analysis of the markets sharing its market's id):
    /// its book's `margin` for the line, the selection's `fair` price and the price's `ev`. Empty when the market
    /// is not one that covers every result.
    public static func priceLineNotes(_ p: PriceUpdate, in event: Event, markets: [MarketValue], settings: ValueSettings) -> [(String, JSONOutput)] {
        guard let index = event.markets.firstIndex(where: { $0.id == p.marketID && $0.book == p.book }),
              let selection = event.markets[index].selections.firstIndex(where: { $0.isSame(as: p.selection) })
        else { return [] }
        guard let place = QuoteIndex(markets, only: [index]).places[index]?[selection] else { return [] }
        return [("margin", number(place.margin)), ("fair", fairJSON(place.market, place.outcome, settings: settings)), ("ev", number(place.ev))]
    }
}
