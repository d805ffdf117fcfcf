import Foundation
import OddsModel

/// One selection's line at one book over a match: where it opened, its extremes, where it stands, and its close.
public struct SelectionLine: Sendable, Equatable {
    public var source: SourceKey
    public var book: String
    public var marketID: String
    public var marketName: String
    public var line: String
    public var selectionID: String
    public var selectionName: String
    /// The first price seen.
    public var open: StoredPrice
    public var high: StoredPrice
    public var low: StoredPrice
    /// The latest change (a suspension too).
    public var last: StoredPrice
    /// The last price before the match went live, when it was seen before kick-off.
    public var close: StoredPrice?
    /// Every priced change, oldest first: what the sparkline draws.
    public var path: [Rational]
}

/// A goal, red card, penalty or VAR decision with the main market's prices just before it and first after it.
public struct IncidentPrices: Sendable, Equatable {
    public var incident: StoredIncident
    public var marketName: String
    /// Per selection (in the market's order): the last price before, the first after.
    public var selections: [(name: String, before: StoredPrice?, after: StoredPrice?)]

    public static func == (a: IncidentPrices, b: IncidentPrices) -> Bool {
        a.incident == b.incident && a.marketName == b.marketName && a.selections.count == b.selections.count
            && zip(a.selections, b.selections).allSatisfy { $0.name == $1.name && $0.before == $1.before && $0.after == $1.after }
    }
}

/// What `history show` works out of a timeline.
public enum HistoryReport {
    /// When each source first went live, as its stored status changes say.
    public static func kickoffs(_ t: Timeline) -> [SourceKey: Date] {
        var out: [SourceKey: Date] = [:]
        for s in t.scores where out[s.source] == nil && ["live", "halftime", "suspended"].contains(s.state.status) { out[s.source] = s.at }
        return out
    }

    /// Each selection's line per source and book, in the order first seen.
    public static func lines(_ t: Timeline) -> [SelectionLine] {
        let kickoffs = kickoffs(t)
        var order: [String] = []
        var lines: [String: SelectionLine] = [:]
        for p in t.prices {
            let key = [p.source.provider.rawValue, p.source.eventID, p.book, p.marketID, p.line, p.selectionID].joined(separator: "\u{1F}")
            if var l = lines[key] {
                l.last = p
                if let o = p.odds, !p.suspended {
                    l.path.append(o)
                    if l.high.odds.map({ o > $0 }) ?? true { l.high = p }
                    if l.low.odds.map({ o < $0 }) ?? true { l.low = p }
                }
                if let k = kickoffs[p.source], p.at < k, p.odds != nil, !p.suspended { l.close = p }
                lines[key] = l
            } else {
                order.append(key)
                let priced = p.odds != nil && !p.suspended
                var close: StoredPrice?
                if let k = kickoffs[p.source], p.at < k, priced { close = p }
                lines[key] = SelectionLine(source: p.source, book: p.book, marketID: p.marketID, marketName: p.marketName, line: p.line,
                                           selectionID: p.selectionID, selectionName: p.selectionName, open: p, high: p, low: p, last: p,
                                           close: close, path: priced ? [p.odds!] : [])
            }
        }
        return order.compactMap { lines[$0] }
    }

    /// The market a match is mostly priced on: a result or winner market if there is one, else the one that changed most.
    public static func mainMarket(_ t: Timeline) -> (source: SourceKey, book: String, marketID: String)? {
        var counts: [String: (key: (SourceKey, String, String), name: String, n: Int)] = [:]
        for p in t.prices {
            let k = [p.source.provider.rawValue, p.source.eventID, p.book, p.marketID].joined(separator: "\u{1F}")
            counts[k, default: ((p.source, p.book, p.marketID), p.marketName, 0)].n += 1
        }
        let words = ["result", "1x2", "match odds", "money line", "moneyline", "winner", "full time", "fulltime", "3-way", "h2h"]
        func isMain(_ name: String) -> Bool { let n = name.lowercased(); return words.contains { n.contains($0) } }
        let best = counts.values.max { a, b in
            let ma = isMain(a.name), mb = isMain(b.name)
            return ma != mb ? !ma : a.n < b.n
        }
        return best.map { ($0.key.0, $0.key.1, $0.key.2) }
    }

    /// For each goal, red card, penalty and VAR decision: the main market's price just before and first after.
    public static func aroundIncidents(_ t: Timeline) -> [IncidentPrices] {
        guard let main = mainMarket(t) else { return [] }
        let prices = t.prices.filter { $0.source == main.source && $0.book == main.book && $0.marketID == main.marketID }
        var names: [String] = []
        for p in prices where !names.contains(p.selectionName) { names.append(p.selectionName) }
        let marketName = prices.first?.marketName ?? main.marketID
        return t.incidents.filter { matters($0.incident) }.map { i in
            let selections = names.map { name -> (name: String, before: StoredPrice?, after: StoredPrice?) in
                let mine = prices.filter { $0.selectionName == name }
                return (name, mine.last { $0.at < i.at }, mine.first { $0.at >= i.at })
            }
            return IncidentPrices(incident: i, marketName: marketName, selections: selections)
        }
    }

    /// Goals, red cards, penalties and VAR decisions: what moves a price.
    public static func matters(_ i: Incident) -> Bool {
        switch i.kind {
        case .goal, .var: return true
        case .card:
            let d = (i.detail ?? "").lowercased()
            return !i.rescinded && (d.contains("red") || d.contains("second yellow") || d.contains("yellowred"))
        case .other:
            return (i.detail ?? "").lowercased().contains("penalt")
        default: return false
        }
    }

    /// A sparkline of `values` in at most `width` cells: Unicode blocks, or ASCII.
    public static func sparkline(_ values: [Rational], width: Int, ascii: Bool) -> String {
        guard !values.isEmpty, width > 0 else { return "" }
        let ramp: [Character] = ascii ? Array("_.-:=+*#") : Array("▁▂▃▄▅▆▇█")
        // Down-sampled to the width: each cell the last value of its slice.
        let cells = values.count <= width ? values : (0..<width).map { values[min(values.count - 1, (($0 + 1) * values.count) / width - 1)] }
        let numbers = cells.map { Double($0.numerator) / Double($0.denominator) }
        let lo = numbers.min()!, hi = numbers.max()!
        guard hi > lo else { return String(repeating: ramp[ramp.count / 2], count: numbers.count) }
        return String(numbers.map { ramp[min(ramp.count - 1, Int((($0 - lo) / (hi - lo)) * Double(ramp.count - 1) + 0.5))] })
    }
}
