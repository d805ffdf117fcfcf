import Foundation
import OddsHistory
import OddsModel

/// The ledger as CSV, to take bets elsewhere and to bring the ones a bettor already has.
///
/// Export writes `id,placed,provider,event,match,market,line,selection,book,price,stake,note`. Import reads a header
/// row and then a bet a row, its columns by name (any case, any order): `selection`, `price`, `stake` and one of
/// `event` (a provider's event id, with `provider`) or `match` (a team or an id) are needed; `placed` (RFC 3339),
/// `book`, `provider`, `market`, `line` and `note` are read where present; others are ignored.
public enum BetCSV {
    public static let header = ["id", "placed", "provider", "event", "match", "market", "line", "selection", "book", "price", "stake", "note"]

    /// The ledger as CSV text, the header first.
    public static func export(_ bets: [StoredBet]) -> String {
        var out = header.joined(separator: ",") + "\n"
        for b in bets {
            let cells = [String(b.id), ISODate.text(b.placedAt, milliseconds: true), b.source.provider.rawValue, b.source.eventID, b.title,
                         b.marketID, b.line, b.selectionName, b.book, b.priceText, b.stake, b.note ?? ""]
            out += cells.map(quote).joined(separator: ",") + "\n"
        }
        return out
    }

    /// A cell quoted where it must be (a comma, a quote, a line break), quotes doubled; a cell a spreadsheet would
    /// take for a formula is quoted too and led by an apostrophe.
    static func quote(_ cell: String) -> String {
        var c = cell
        if let first = c.first, "=+-@".contains(first), Double(c) == nil { c = "'" + c }
        guard c.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || c != cell else { return c }
        return "\"" + c.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// One row of an import: its line in the file and its cells by column name (lowercased).
    public struct Row: Sendable {
        public var line: Int
        public var cells: [String: String]
    }

    /// The rows of `text` after its header, or why the file cannot be read as a bet CSV (a missing column, a quote
    /// left open).
    public static func rows(_ text: String) throws -> [Row] {
        let records = try parse(text)
        guard let head = records.first else { throw BetEntryError(kind: .input, message: "The file is empty: it needs a header row.") }
        let names = head.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let missing = ["selection", "price", "stake"].filter { !names.contains($0) }
            + (names.contains("event") || names.contains("match") ? [] : ["match (or event)"])
        guard missing.isEmpty else {
            throw BetEntryError(kind: .input, message: "The header has no \(missing.joined(separator: ", ")) column (it needs selection, price, stake and match or event).")
        }
        return records.dropFirst().compactMap { r in
            guard !(r.fields.count == 1 && r.fields[0].trimmingCharacters(in: .whitespaces).isEmpty) else { return nil }
            var cells: [String: String] = [:]
            for (i, name) in names.enumerated() where i < r.fields.count { cells[name] = r.fields[i].trimmingCharacters(in: .whitespaces) }
            return Row(line: r.line, cells: cells)
        }
    }

    /// The entry a row gives, or why it gives none.
    public static func entry(_ row: Row, now: Date) throws -> BetEntry {
        func cell(_ name: String) -> String? { row.cells[name].flatMap { $0.isEmpty ? nil : $0 } }
        guard let match = cell("event") ?? cell("match") else { throw BetEntryError(kind: .input, message: "no match or event") }
        guard let selection = cell("selection") else { throw BetEntryError(kind: .input, message: "no selection") }
        var placed = now
        if let text = cell("placed") {
            guard let date = ISODate.parse(text) ?? ISODate.parse(lenient: text) else {
                throw BetEntryError(kind: .input, message: "placed '\(text)' is not an RFC 3339 time")
            }
            placed = date
        }
        return BetEntry(match: match, selection: selection, price: cell("price") ?? "", stake: cell("stake") ?? "", book: cell("book"),
                        provider: cell("provider"), market: cell("market"), line: cell("line"), placedAt: placed, note: cell("note"))
    }

    /// RFC 4180 records, each with the line it starts on: quoted fields may hold commas, doubled quotes and line
    /// breaks; CRLF or LF ends a record.
    static func parse(_ text: String) throws -> [(line: Int, fields: [String])] {
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field = ""
        var quoted = false, wasQuoted = false
        var line = 1, start = 1
        var chars = Array(text.unicodeScalars)[...]
        if chars.first == "\u{FEFF}" { chars = chars.dropFirst() }
        var i = chars.startIndex
        func endRecord() {
            fields.append(field)
            records.append((start, fields))
            fields = []; field = ""; wasQuoted = false
        }
        while i < chars.endIndex {
            let c = chars[i]
            if quoted {
                if c == "\"" {
                    if chars.index(after: i) < chars.endIndex, chars[chars.index(after: i)] == "\"" {
                        field.unicodeScalars.append("\""); i = chars.index(after: i)
                    } else {
                        quoted = false
                    }
                } else {
                    if c == "\n" { line += 1 }
                    field.unicodeScalars.append(c)
                }
            } else {
                switch c {
                case "\"" where field.isEmpty && !wasQuoted: quoted = true; wasQuoted = true
                case ",": fields.append(field); field = ""; wasQuoted = false
                case "\r": break
                case "\n":
                    endRecord()
                    line += 1
                    start = line
                default: field.unicodeScalars.append(c)
                }
            }
            i = chars.index(after: i)
        }
        if quoted { throw BetEntryError(kind: .input, message: "A quote opened on line \(start) is never closed.") }
        if !field.isEmpty || !fields.isEmpty { endRecord() }
        return records
    }
}
