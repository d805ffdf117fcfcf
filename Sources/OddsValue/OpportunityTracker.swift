import Foundation
import OddsJSON
import OddsModel
import OddsOutput

/// An opportunity as `--watch` follows it: what it is, the row it belongs to, and what it says now.
public struct Opportunity: Sendable {
    /// Stable across updates (`ValueBet.key`, `ArbitrageFound.key`).
    public var key: String
    /// The match row it belongs to: recomputing the row without it closes it.
    public var row: String
    /// What counts as a change (prices, sources, EV or profit; never age alone).
    public var signature: String
    public var fields: [(String, JSONOutput)]
    public init(key: String, row: String, signature: String, fields: [(String, JSONOutput)]) {
        self.key = key; self.row = row; self.signature = signature; self.fields = fields
    }

    /// The row id of a provider's event (a fused match: `.fused` and its match id).
    public static func row(_ provider: ProviderID, _ id: String) -> String { "\(provider.rawValue):\(id)" }
}

/// Follows opportunities as rows are recomputed: each opens, changes and closes once, with how long it lasted.
public struct OpportunityTracker: Sendable {
    struct Open: Sendable {
        var opened: Date
        var opportunity: Opportunity
    }
    private var open: [String: Open] = [:]
    private var byRow: [String: Set<String>] = [:]
    public let kind: String
    /// Fields every line ends with (`"demo": true`).
    let labels: [(String, JSONOutput)]

    public init(kind: String, labels: [(String, JSONOutput)] = []) { self.kind = kind; self.labels = labels }
    /// The rows with an open opportunity.
    public var openRows: Set<String> { Set(byRow.keys) }

    /// `found` is every opportunity of `rows` as they are now: new ones open, changed ones change, and the
    /// open ones of those rows not found close. Returns the NDJSON objects to write, in that order.
    public mutating func update(rows: Set<String>, found: [Opportunity], at now: Date) -> [JSONOutput] {
        var lines: [JSONOutput] = []
        var seen = Set<String>()
        for o in found {
            seen.insert(o.key)
            if var known = open[o.key] {
                if known.opportunity.signature != o.signature {
                    known.opportunity = o
                    open[o.key] = known
                    lines.append(line("change", o, opened: known.opened, at: now))
                }
            } else {
                open[o.key] = Open(opened: now, opportunity: o)
                byRow[o.row, default: []].insert(o.key)
                lines.append(line("open", o, opened: now, at: now))
            }
        }
        for row in rows.sorted() {
            for key in (byRow[row] ?? []).sorted() where !seen.contains(key) {
                let gone = open.removeValue(forKey: key)!
                byRow[row]!.remove(key)
                lines.append(line("close", gone.opportunity, opened: gone.opened, at: now))
            }
            if byRow[row]?.isEmpty == true { byRow[row] = nil }
        }
        return lines
    }

    func line(_ type: String, _ o: Opportunity, opened: Date, at now: Date) -> JSONOutput {
        .object([("type", .string(type)), ("kind", .string(kind)), ("key", .string(o.key)),
                 ("at", .string(EventJSON.date(now))), ("openedAt", .string(EventJSON.date(opened))),
                 ("lasted", .number(String(format: "%.1f", now.timeIntervalSince(opened))))] + o.fields + labels)
    }
}
