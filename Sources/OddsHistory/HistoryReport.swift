import Foundation
import OddsFusion
import OddsModel

/// One selection's line at one book over a match: where it opened, its extremes, where it stands, and its close.
public struct SelectionLine: Sendable, Equatable {
    /// The first price seen.
    public var open: StoredPrice
    public var high: StoredPrice
    public var low: StoredPrice
    /// The latest change (a suspension too).
    public var last: StoredPrice
    /// The last price before the match went live, when it was seen before kick-off.
    public var close: StoredPrice?
    /// Its stored changes (suspensions too).
    public var changes: Int
    /// Its priced changes sampled to at most `HistoryReport.sparkCells`, oldest first: each the last of its slice
    /// (what the sparkline draws).
    public var moves: [Rational]
    /// Its changes over time, bounded (what the dashboard draws).
    public var path = PricePath()

    /// The selection this is the line of: the source, book, market, line and names, as its prices share them.
    public var selection: StoredSelection { open.selection }
}

/// A goal, red card, penalty or VAR decision with the main market's prices just before it and first after it: the
/// prices a bettor could have taken, so a suspension either side of it is passed over (the market reopening is the
/// price after a goal).
public struct IncidentPrices: Sendable, Equatable {
    public var incident: StoredIncident
    public var marketName: String
    /// Per selection (in the market's order): the last open price before, the first open price after.
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
        for s in t.scores where out[s.source] == nil && EventStatus(rawValue: s.state.status)?.isInPlay == true { out[s.source] = s.at }
        return out
    }

    /// Cells of a line's sparkline.
    public static let sparkCells = 16

    /// `values` down-sampled to at most `sparkCells`: each the last of its slice.
    static func sample<T>(_ values: [T]) -> [T] {
        let n = values.count
        return n <= sparkCells ? values : (0..<sparkCells).map { values[min(n - 1, (($0 + 1) * n) / sparkCells - 1)] }
    }

    /// The market a match is mostly priced on: a result or winner market if there is one, else the one that changed most.
    public static func mainMarket(_ t: Timeline) -> (source: SourceKey, book: String, marketID: String)? {
        // Counted per selection first (a pointer a row), then per market.
        var perSelection: [ObjectIdentifier: (selection: StoredSelection, n: Int)] = [:]
        for p in t.prices { perSelection[ObjectIdentifier(p.selection), default: (p.selection, 0)].n += 1 }
        return mainMarket(perSelection.values.map { ($0.selection, $0.n) })
    }

    /// The same from each selection's count of changes.
    static func mainMarket(_ counted: [(selection: StoredSelection, n: Int)]) -> (source: SourceKey, book: String, marketID: String)? {
        var counts: [String: (key: (SourceKey, String, String), name: String, n: Int)] = [:]
        for (s, n) in counted {
            let k = [s.source.provider.rawValue, s.source.eventID, s.book, s.marketID].joined(separator: "\u{1F}")
            counts[k, default: ((s.source, s.book, s.marketID), s.marketName, 0)].n += n
        }
        let words = ["result", "1x2", "match odds", "money line", "moneyline", "winner", "full time", "fulltime", "3-way", "h2h"]
        func isMain(_ name: String) -> Bool { let n = name.lowercased(); return words.contains { n.contains($0) } }
        // Ties go to the market named first in key order: the same choice every time.
        let best = counts.sorted { $0.key < $1.key }.map(\.value).max { a, b in
            let ma = isMain(a.name), mb = isMain(b.name)
            return ma != mb ? !ma : a.n < b.n
        }
        return best.map { ($0.key.0, $0.key.1, $0.key.2) }
    }

    /// For each goal, red card, penalty and VAR decision: the main market's price just before and first after, read
    /// through `before` (the latest open price of these selections before a time) and `after` (the first open price
    /// at or after it). An incident several providers of the match told is one: their first telling.
    static func aroundIncidents(lines: [SelectionLine], incidents all: [StoredIncident],
                                before: ([Int64], Int64) throws -> StoredPrice?,
                                after: ([Int64], Int64) throws -> StoredPrice?) rethrows -> [IncidentPrices] {
        let incidents = told(all.filter { matters($0.incident) })
        guard !incidents.isEmpty, let main = mainMarket(lines.map { ($0.selection, $0.changes) }) else { return [] }
        var names: [String] = []
        var rows: [String: [Int64]] = [:]
        var marketName: String?
        for l in lines {
            let s = l.selection
            guard s.source == main.source, s.book == main.book, s.marketID == main.marketID else { continue }
            marketName = marketName ?? s.marketName
            if rows[s.selectionName] == nil { names.append(s.selectionName) }
            rows[s.selectionName, default: []].append(s.rowID)
        }
        return try incidents.map { i in
            let at = i.at.historyMillis
            let selections = try names.map { name -> (name: String, before: StoredPrice?, after: StoredPrice?) in
                (name, try before(rows[name]!, at), try after(rows[name]!, at))
            }
            return IncidentPrices(incident: i, marketName: marketName ?? main.marketID, selections: selections)
        }
    }

    /// Goals, red cards, penalties and VAR decisions: what moves a price.
    public static func matters(_ i: Incident) -> Bool { i.markLetter != nil }

    /// `incidents` (oldest first) with another provider's telling of one already told left out, as `odds watch`
    /// prints a fused match's incidents (`IncidentLog`).
    public static func told(_ incidents: [StoredIncident]) -> [StoredIncident] {
        var log = IncidentLog()
        return incidents.filter { log.tell($0.incident, by: $0.source.provider) }
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
