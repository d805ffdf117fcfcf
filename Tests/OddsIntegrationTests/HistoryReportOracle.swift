import Foundation
@testable import OddsHistory
import OddsModel

// What `history show` works out, computed the plain way from a whole timeline: the oracle the backends' summaries
// (LineBuilder over the index, point lookups around incidents) are checked against.
extension Array {
    /// The index of the first element for which `isAfter` holds, in an array where it holds for a suffix.
    func partitionPoint(_ isAfter: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if isAfter(self[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}

extension HistoryReport {
    /// Each selection's line per source and book, in the order first seen.
    static func lines(_ t: Timeline) -> [SelectionLine] {
        let kickoffs = kickoffs(t)
        // Mutated in place (by index): a line's path is never copied as it grows.
        var index: [LineKey: Int] = [:]
        var lines: [SelectionLine] = []
        var paths: [[Rational]] = []
        for p in t.prices {
            let key = LineKey(p)
            let priced = p.odds != nil && !p.suspended
            let beforeKickoff = kickoffs[p.source].map { p.at < $0 } ?? false
            if let i = index[key] {
                lines[i].last = p
                lines[i].changes += 1
                lines[i].path.add(at: p.at, odds: priced ? p.odds : nil)
                if let o = p.odds, !p.suspended {
                    paths[i].append(o)
                    if lines[i].high.odds.map({ o > $0 }) ?? true { lines[i].high = p }
                    if lines[i].low.odds.map({ o < $0 }) ?? true { lines[i].low = p }
                }
                if beforeKickoff, priced { lines[i].close = p }
            } else {
                index[key] = lines.count
                lines.append(SelectionLine(open: p, high: p, low: p, last: p, close: beforeKickoff && priced ? p : nil, changes: 1, moves: []))
                lines[lines.count - 1].path.add(at: p.at, odds: priced ? p.odds : nil)
                paths.append(priced ? [p.odds!] : [])
            }
        }
        for i in lines.indices { lines[i].moves = sample(paths[i]) }
        return lines
    }

    /// What tells one selection's line from another: its row in the history, else its names.
    struct LineKey: Hashable {
        var row: Int64
        var names: [String]
        init(_ p: StoredPrice) {
            row = p.selectionRowID
            names = row != 0 ? [] : [p.source.provider.rawValue, p.source.eventID, p.book, p.marketID, p.line, p.selectionID]
        }
    }

    /// For each goal, red card, penalty and VAR decision: the main market's last open price before and first open price after.
    static func aroundIncidents(_ t: Timeline) -> [IncidentPrices] {
        guard let main = mainMarket(t) else { return [] }
        let incidents = told(t.incidents.filter { matters($0.incident) })
        guard !incidents.isEmpty else { return [] }
        let prices = t.prices.filter { $0.source == main.source && $0.book == main.book && $0.marketID == main.marketID }
        var names: [String] = []
        var bySelection: [String: [StoredPrice]] = [:]
        for p in prices {
            if bySelection[p.selectionName] == nil { names.append(p.selectionName) }
            bySelection[p.selectionName, default: []].append(p)
        }
        let marketName = prices.first?.marketName ?? main.marketID
        return incidents.map { i in
            let selections = names.map { name -> (name: String, before: StoredPrice?, after: StoredPrice?) in
                // Prices one could take: a suspension (or a row without a price) either side is passed over.
                let mine = bySelection[name]!.filter { !$0.suspended && $0.text != nil }
                // Oldest first: the first at or after the incident splits before from after.
                let split = mine.partitionPoint { $0.at >= i.at }
                return (name, split > 0 ? mine[split - 1] : nil, split < mine.count ? mine[split] : nil)
            }
            return IncidentPrices(incident: i, marketName: marketName, selections: selections)
        }
    }
}
