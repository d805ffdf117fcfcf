import Foundation
import OddsModel

/// One selection's prices over a match, ready to draw: a line per book (or the best price across books), and the
/// goals and red cards where they happened.
public struct PriceChart: Sendable, Equatable {
    /// A line: its name and its prices, each holding until the next.
    public struct Series: Sendable, Equatable {
        public var name: String
        public var points: [(at: Date, odds: Rational)]

        public static func == (a: Series, b: Series) -> Bool {
            a.name == b.name && a.points.count == b.points.count && zip(a.points, b.points).allSatisfy { $0.at == $1.at && $0.odds == $1.odds }
        }
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

    /// The chart of `selection` (its name or id, any case; nil: the market's first) in `market` (nil: the main
    /// market), one line per book or, with `best`, the best price across books. Nil when nothing is priced.
    public static func make(_ t: Timeline, market: String?, selection: String?, book: String?, best: Bool, title: String) -> PriceChart? {
        let marketPrices: [StoredPrice]
        if let market {
            let m = market.lowercased()
            marketPrices = t.prices.filter { $0.marketID.lowercased() == m || $0.marketName.lowercased() == m }
        } else if let main = HistoryReport.mainMarket(t) {
            marketPrices = t.prices.filter { $0.marketID == main.marketID }
        } else {
            marketPrices = []
        }
        guard let first = marketPrices.first else { return nil }
        let wanted = selection?.lowercased()
        let line = marketPrices.first { wanted == nil || $0.selectionName.lowercased() == wanted || $0.selectionID.lowercased() == wanted }
        guard let chosen = line ?? (wanted == nil ? first : nil) else { return nil }
        var prices = marketPrices.filter { $0.selectionID == chosen.selectionID && $0.line == chosen.line }
        if let book { prices = prices.filter { $0.book.lowercased() == book.lowercased() } }
        guard !prices.isEmpty else { return nil }

        var series: [Series] = []
        if best {
            // The best available price at each change, across books and sources.
            var current: [String: Rational] = [:]
            var points: [(at: Date, odds: Rational)] = []
            for p in prices {
                let key = p.source.provider.rawValue + "|" + p.book
                if let o = p.odds, !p.suspended { current[key] = o } else { current[key] = nil }
                if let top = current.values.max(), points.last?.odds != top { points.append((p.at, top)) }
            }
            series = [Series(name: "best", points: points)]
        } else {
            var order: [String] = []
            var byBook: [String: [(at: Date, odds: Rational)]] = [:]
            for p in prices {
                let name = p.book.isEmpty ? p.source.provider.rawValue : p.book
                if byBook[name] == nil { order.append(name); byBook[name] = [] }
                if let o = p.odds, !p.suspended { byBook[name]!.append((p.at, o)) }
            }
            series = order.compactMap { name in byBook[name]!.isEmpty ? nil : Series(name: name, points: byBook[name]!) }
        }
        let all = series.flatMap { $0.points }
        guard let low = all.map(\.odds).min(), let high = all.map(\.odds).max() else { return nil }
        let marks = t.incidents.compactMap { s -> Mark? in
            let i = s.incident
            guard let symbol = i.markLetter else { return nil }
            return Mark(at: s.at, symbol: symbol, label: i.headline)
        }
        let times = all.map(\.at) + marks.map(\.at)
        let name = "\(title) · \(chosen.marketName)\(chosen.line.isEmpty ? "" : " " + chosen.line) · \(chosen.selectionName)"
        return PriceChart(title: name, series: series, marks: marks, from: times.min()!, to: max(times.max()!, times.min()!.addingTimeInterval(1)),
                          low: low, high: high)
    }

    /// Where a price sits between `low` (0) and `high` (1), for drawing only.
    func level(_ odds: Rational) -> Double {
        let lo = Double(low.numerator) / Double(low.denominator), hi = Double(high.numerator) / Double(high.denominator)
        guard hi > lo else { return 0.5 }
        return (Double(odds.numerator) / Double(odds.denominator) - lo) / (hi - lo)
    }

    /// Where a time sits between `from` (0) and `to` (1).
    func position(_ at: Date) -> Double {
        let span = to.timeIntervalSince(from)
        return span > 0 ? at.timeIntervalSince(from) / span : 0
    }
}
