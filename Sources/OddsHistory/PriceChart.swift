import Foundation
import OddsFusion
import OddsModel

/// One selection's prices over a match, ready to draw: a line per book (or the best price across books), and the
/// goals and red cards where they happened.
public struct PriceChart: Sendable, Equatable {
    /// A line: its name and its prices, each holding until the next; a point without odds is a suspension (no
    /// price open), where the line breaks until the next price.
    public struct Series: Sendable, Equatable {
        public var name: String
        public var points: [(at: Date, odds: Rational?)]
        /// The providers whose prices it draws.
        public var providers: [ProviderID] = []
        /// When no writer watched its providers (`WatchSpan`): its price then is unknown, and it is not drawn.
        public var gaps: [ClosedRange<Date>] = []

        public init(name: String, points: [(at: Date, odds: Rational?)], providers: [ProviderID] = [], gaps: [ClosedRange<Date>] = []) {
            self.name = name; self.points = points; self.providers = providers; self.gaps = gaps
        }

        public static func == (a: Series, b: Series) -> Bool {
            a.name == b.name && a.points.count == b.points.count && zip(a.points, b.points).allSatisfy { $0.at == $1.at && $0.odds == $1.odds }
                && a.providers == b.providers && a.gaps == b.gaps
        }
    }

    /// A price held over a time: what is drawn of a series.
    public struct Held: Sendable, Equatable {
        public var from: Date
        public var to: Date
        public var odds: Rational
    }

    /// An incident marked on the time axis.
    public struct Mark: Sendable, Equatable {
        public var at: Date
        /// "G" for a goal, "R" for a red card, "P" for a penalty, "V" for VAR.
        public var symbol: Character
        public var label: String
    }

    public var title: String
    public var series: [Series]
    public var marks: [Mark]
    public var from: Date
    public var to: Date
    /// The lowest and highest price drawn (exact: the axis labels are prices as sent).
    public var low: Rational
    public var high: Rational
    /// When no line's price is known: no writer watched any of their providers.
    public var gaps: [ClosedRange<Date>] = []

    /// The chart of `selection` (its name or id, or its meaning: "home", "draw", "over"; any case; nil: the market's
    /// first) in `market` (nil: the match result, else the main market), one line per book or, with `best`, the best
    /// price across books. Markets and selections are read by meaning (`MarketMeanings`): the match result of every
    /// source of `sources` is one market. Nil when nothing is priced.
    public static func make(_ t: Timeline, sources: [StoredSource], market: String?, selection: String?, book: String?, best: Bool,
                            title: String) -> PriceChart? {
        // Each selection read once: a history's rows of one selection share its object, so prices are then kept by that.
        var refs: [ObjectIdentifier: SelectionRef] = [:]
        var stored: [SelectionRef: StoredSelection] = [:]
        for p in t.prices where refs[ObjectIdentifier(p.selection)] == nil {
            let ref = p.selection.ref
            refs[ObjectIdentifier(p.selection)] = ref
            if stored[ref] == nil { stored[ref] = p.selection }
        }
        func pricesOf(_ kept: [StoredSelection]) -> [StoredPrice] {
            let wanted = Set(kept.map(\.ref))
            let objects = Set(refs.filter { wanted.contains($0.value) }.keys)
            return t.prices.filter { objects.contains(ObjectIdentifier($0.selection)) }
        }
        let selections = Array(stored.values)
        // Read by meaning across every market the sources have, not only those the timeline was narrowed to.
        let meanings = MarketMeanings(t.selections.isEmpty ? selections : t.selections, sources: sources)
        let inMarket: [StoredSelection]
        let result = meanings.matchResult(selections)
        if let market {
            inMarket = meanings.narrow(selections, market: market)
        } else if !result.isEmpty {
            inMarket = result
        } else if let main = HistoryReport.mainMarket(t) {
            inMarket = selections.filter { $0.marketID == main.marketID }
        } else {
            inMarket = []
        }
        let marketPrices = pricesOf(inMarket)
        guard let first = marketPrices.first else { return nil }
        let wanted = selection?.lowercased()
        // Unnamed, the first outcome (home, over, yes) where the market has one, else the first selection priced.
        let named = inMarket.filter { s in
            guard let wanted else { return ["home", "over", "yes"].contains(meanings[s]?.selection ?? "") }
            return meanings.names(s, wanted)
        }
        let namedRefs = Set(named.map(\.ref))
        let chosenPrice = marketPrices.first { refs[ObjectIdentifier($0.selection)].map(namedRefs.contains) == true }
        guard let chosen = chosenPrice ?? (wanted == nil ? first : nil) else { return nil }
        // The chosen selection in every source and book: by meaning where it has one, else by its own id and line.
        var prices: [StoredPrice]
        if let meaning = meanings[chosen.selection] {
            prices = pricesOf(inMarket.filter { meanings[$0].map { $0.market == meaning.market && $0.selection == meaning.selection } == true })
        } else {
            prices = pricesOf(inMarket.filter { $0.selectionID == chosen.selectionID && $0.line == chosen.line && $0.marketID == chosen.marketID })
        }
        if let book { prices = prices.filter { $0.book.lowercased() == book.lowercased() } }
        guard !prices.isEmpty else { return nil }

        var series: [Series] = []
        if best {
            // The best available price at each change, across books and sources.
            var current: [String: Rational] = [:]
            var points: [(at: Date, odds: Rational?)] = []
            for p in prices {
                let key = p.source.provider.rawValue + "|" + p.book
                if let o = p.odds, !p.suspended { current[key] = o } else { current[key] = nil }
                // Every book suspended: the line breaks.
                let top = current.values.max()
                if top == nil, points.isEmpty { continue }
                if points.last.map({ $0.odds != top }) ?? true { points.append((p.at, top)) }
            }
            let providers = Set(prices.map(\.source.provider)).sorted { $0.rawValue < $1.rawValue }
            series = [Series(name: "best", points: points, providers: providers)]
        } else {
            // A line a book of a provider: one book through two providers is two lines, named apart.
            var order: [String] = []
            var byBook: [String: (name: String, provider: ProviderID, points: [(at: Date, odds: Rational?)])] = [:]
            for p in prices {
                let name = p.book.isEmpty ? p.source.provider.rawValue : p.book
                let key = p.source.provider.rawValue + "|" + name
                if byBook[key] == nil { order.append(key); byBook[key] = (name, p.source.provider, []) }
                if let o = p.odds, !p.suspended {
                    byBook[key]!.points.append((p.at, o))
                } else if byBook[key]!.points.last?.odds != nil {
                    byBook[key]!.points.append((p.at, nil))
                }
            }
            let names = order.map { byBook[$0]!.name }
            series = order.compactMap { key -> Series? in
                let (name, provider, points) = byBook[key]!
                guard points.contains(where: { $0.odds != nil }) else { return nil }
                return Series(name: names.filter { $0 == name }.count > 1 ? "\(name) (\(provider.rawValue))" : name, points: points,
                              providers: [provider])
            }
        }
        let all = series.flatMap { $0.points }
        let odds = all.compactMap(\.odds)
        guard let low = odds.min(), let high = odds.max() else { return nil }
        let marks = t.incidents.compactMap { s -> Mark? in
            let i = s.incident
            guard let symbol = i.markLetter else { return nil }
            return Mark(at: s.at, symbol: symbol, label: i.headline)
        }
        // The last price holds until its match was last seen, not only until it last changed.
        let charted = Set(prices.map(\.source))
        let seen = sources.filter { charted.contains($0.key) }.map(\.lastSeen)
        let times = all.map(\.at) + marks.map(\.at)
        let from = times.min()!, to = max(times.max()!, seen.max() ?? from, from.addingTimeInterval(1))
        // Several sources' names for one market: the name of its meaning (which names its line).
        let shared = meanings[chosen.selection].flatMap { m in Set(prices.map(\.marketName)).count > 1 ? m.marketName : nil }
        let marketName = shared ?? chosen.marketName + (chosen.line.isEmpty ? "" : " " + chosen.line)
        let name = "\(title) · \(marketName) · \(chosen.selectionName)"
        return PriceChart(title: name, series: series, marks: marks, from: from, to: to,
                          low: low, high: high)
    }

    /// Marks when writers did not watch: each line breaks where none watched its providers (for the best price,
    /// where none watched any of them), and the chart marks where no line is known. `spans` are the writers'
    /// spans (`HistoryBackend.watches`); a history without any says nothing, and nothing breaks.
    public mutating func watched(_ spans: [WatchSpan]) {
        let all = WatchSpan.unwatched(spans, providers: Set(series.flatMap(\.providers)).sorted { $0.rawValue < $1.rawValue }, in: from...to)
        for i in series.indices {
            series[i].gaps = WatchSpan.common(series[i].providers.map { p in all.filter { $0.provider == p }.map(\.gap) })
        }
        gaps = WatchSpan.common(series.map(\.gaps))
    }

    /// The prices `series` holds, each from its change to the next (the last to the chart's end), less the
    /// suspensions and the gaps: what is drawn of it, in time order.
    public func held(_ series: Series) -> [Held] {
        var out: [Held] = []
        for (i, p) in series.points.enumerated() {
            guard let odds = p.odds else { continue }
            var start = p.at
            let end = i + 1 < series.points.count ? series.points[i + 1].at : to
            for gap in series.gaps where gap.upperBound > start && gap.lowerBound < end {
                if gap.lowerBound > start { out.append(Held(from: start, to: gap.lowerBound, odds: odds)) }
                start = gap.upperBound
            }
            if start < end || (start == end && series.gaps.allSatisfy { !$0.contains(start) }) {
                out.append(Held(from: start, to: end, odds: odds))
            }
        }
        return out
    }

    /// Where a price sits between `low` (0) and `high` (1), for drawing only.
    func level(_ odds: Rational) -> Double {
        let (lo, hi) = span
        guard hi > lo else { return 0.5 }
        return (Double(odds.numerator) / Double(odds.denominator) - lo) / (hi - lo)
    }

    /// The decimal odds at `level` (0 the low, 1 the high), the inverse of `level`; nil when every point is at
    /// one price.
    func odds(atLevel level: Double) -> Double? {
        let (lo, hi) = span
        return hi > lo ? lo + level * (hi - lo) : nil
    }

    private var span: (low: Double, high: Double) {
        (Double(low.numerator) / Double(low.denominator), Double(high.numerator) / Double(high.denominator))
    }

    /// Where a time sits between `from` (0) and `to` (1).
    func position(_ at: Date) -> Double {
        let span = to.timeIntervalSince(from)
        return span > 0 ? at.timeIntervalSince(from) / span : 0
    }
}
