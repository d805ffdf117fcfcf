/// How a cell is styled on a colour terminal.
public enum CellStyle: Sendable, Hashable {
    case plain, bold, dim, up, down, live, warning
}

/// A table of text cells: the one shape that the table, TSV and CSV reporters all print.
public struct Tabular: Sendable {
    public struct Column: Sendable {
        public var title: String
        public var rightAligned: Bool
        /// Columns that may be shortened to fit the terminal, most shrinkable first.
        public var shrinkable: Bool
        /// How narrow a shrinkable column may become.
        public var minWidth: Int
        public init(_ title: String, rightAligned: Bool = false, shrinkable: Bool = false, minWidth: Int = 8) {
            self.title = title; self.rightAligned = rightAligned; self.shrinkable = shrinkable; self.minWidth = minWidth
        }
    }

    public var columns: [Column]
    public var rows: [[String]]
    /// Optional styles per cell, same shape as `rows`.
    public var styles: [[CellStyle]]
    /// Optional hyperlinks per cell (`--links`), same shape as `rows`.
    public var links: [[String?]] = []

    public init(columns: [Column], rows: [[String]] = [], styles: [[CellStyle]] = []) {
        self.columns = columns; self.rows = rows; self.styles = styles
    }

    /// The same table with a last `demo` (and `replay`) column saying `true` on every row: demo and
    /// replayed data stay labelled even where only the columns survive (TSV and CSV files).
    public func labelled(_ options: RenderOptions) -> Tabular {
        var t = self
        for name in Tabular.labels(options) {
            t.columns.append(Column(name))
            t.rows = t.rows.map { $0 + [Tabular.labelCell] }
            t.styles = t.styles.isEmpty ? [] : t.styles.map { $0 + [.plain] }
        }
        return t
    }

    /// The columns `labelled` adds, in order.
    static func labels(_ options: RenderOptions) -> [String] {
        (options.demo ? ["demo"] : []) + (options.replay ? ["replay"] : [])
    }

    /// What a label column says on every row.
    static let labelCell = "true"

    /// The narrowest the aligned table can be: every shrinkable column at its `minWidth`.
    public var minimumWidth: Int {
        let natural = Tabular.naturalWidths(columns, rows.map { $0.map(TerminalText.safe) })
        return columns.indices.reduce(0) { sum, i in sum + (columns[i].shrinkable ? min(natural[i], columns[i].minWidth) : natural[i]) }
            + 2 * max(0, columns.count - 1)
    }

    /// Each column's width before any shrinking: its title's or its widest (terminal-safe) cell's.
    static func naturalWidths(_ columns: [Column], _ safeRows: [[String]]) -> [Int] {
        columns.indices.map { i in
            max(TextWidth.width(of: columns[i].title), safeRows.map { TextWidth.width(of: $0[i]) }.max() ?? 0)
        }
    }

    /// An aligned table for a terminal: two spaces between columns, fitted to `width` when given.
    public func renderAligned(width: Int?, color: Bool, hyperlinks: Bool = false) -> String {
        let rows = self.rows.map { $0.map(TerminalText.safe) }
        var widths = Tabular.naturalWidths(columns, rows)
        if let width {
            var total = widths.reduce(0, +) + 2 * max(0, widths.count - 1)
            var shrinkable = columns.indices.filter { columns[$0].shrinkable }
            // The widest that may still give a column, until the table fits or none may.
            while total > width {
                shrinkable.removeAll { widths[$0] <= columns[$0].minWidth }
                guard let widest = shrinkable.max(by: { widths[$0] < widths[$1] }) else { break }
                widths[widest] -= 1
                total -= 1
            }
        }
        var out = ""
        let header = columns.indices.map { TextWidth.pad(columns[$0].title, to: widths[$0], right: columns[$0].rightAligned) }
        out += style(trimTrailing(header.joined(separator: "  ")), .bold, color) + "\n"
        for (r, row) in rows.enumerated() {
            var cells: [String] = []
            for i in columns.indices {
                let text = TextWidth.pad(row[i], to: widths[i], right: columns[i].rightAligned)
                let s = r < styles.count && i < styles[r].count ? styles[r][i] : .plain
                let link = hyperlinks && r < links.count && i < links[r].count ? links[r][i] : nil
                cells.append(style(TerminalText.hyperlink(text, url: link), s, color))
            }
            out += trimTrailing(cells.joined(separator: "  ")) + "\n"
        }
        return out
    }

    /// Tab-separated: a header line, then one line per row; tabs and newlines in cells become spaces
    /// and control characters U+FFFD (`TerminalText.safe`).
    public func renderTSV() -> String {
        var bytes = tsvHeader
        bytes.reserveCapacity(bytes.count * (rows.count + 1))
        Tabular.appendTSV(rows: rows, trailing: [], to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The header line of `renderTSV`, with its newline.
    var tsvHeader: [UInt8] {
        var bytes = Array(columns.map(\.title).joined(separator: "\t").utf8)
        bytes.append(0x0A)
        return bytes
    }

    /// `rows` as `renderTSV` writes them, each followed by the `trailing` cells, appended to `bytes`.
    static func appendTSV(rows: [[String]], trailing: [String], to bytes: inout [UInt8]) {
        for row in rows { appendTSV(row: row, trailing: trailing, to: &bytes) }
    }

    /// One row as `renderTSV` writes it, followed by the `trailing` cells, appended to `bytes`.
    static func appendTSV(row: [String], trailing: [String] = [], to bytes: inout [UInt8]) {
        // Bytes appended cell by cell and made a string once: a joined line of each row was a list and a
        // string made and let go, and appending to a string costs far more a cell than appending bytes.
        for i in row.indices {
            if i > 0 { bytes.append(0x09) }
            bytes.append(contentsOf: TerminalText.safe(row[i]).utf8)
        }
        for i in trailing.indices {
            if i > 0 || !row.isEmpty { bytes.append(0x09) }
            bytes.append(contentsOf: TerminalText.safe(trailing[i]).utf8)
        }
        bytes.append(0x0A)
    }

    /// RFC 4180 CSV with a header line; cells pass through `TerminalText.safe` (line breaks become spaces).
    public func renderCSV() -> String {
        var bytes = csvHeader
        for row in rows { Tabular.appendCSV(row: row, to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The header line of `renderCSV`, with its line end.
    var csvHeader: [UInt8] {
        var bytes: [UInt8] = []
        for (i, column) in columns.enumerated() {
            if i > 0 { bytes.append(0x2C) }
            Tabular.appendCSVField(column.title, to: &bytes)
        }
        bytes.append(contentsOf: [0x0D, 0x0A])
        return bytes
    }

    /// One row as `renderCSV` writes it, appended to `bytes`.
    static func appendCSV(row: [String], to bytes: inout [UInt8]) {
        for i in row.indices {
            if i > 0 { bytes.append(0x2C) }
            appendCSVField(TerminalText.safe(row[i]), to: &bytes)
        }
        bytes.append(contentsOf: [0x0D, 0x0A])
    }

    /// `s` as one RFC 4180 field: quoted, its quotes doubled, when it holds a comma, a quote or a line break.
    public static func csvField(_ s: String) -> String {
        var bytes: [UInt8] = []
        appendCSVField(s, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `csvField(s)` appended to `bytes`. Read as bytes, not characters: a comma or a quote that a combining
    /// mark follows is one grapheme with it, and still a delimiter to a CSV reader.
    static func appendCSVField(_ s: String, to bytes: inout [UInt8]) {
        var s = s
        s.withUTF8 { field in
            guard field.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else {
                bytes.append(contentsOf: field)
                return
            }
            bytes.append(0x22)
            for b in field {
                bytes.append(b)
                if b == 0x22 { bytes.append(0x22) }
            }
            bytes.append(0x22)
        }
    }

    func trimTrailing(_ s: String) -> String {
        var s = Substring(s)
        while s.last == " " { s.removeLast() }
        return String(s)
    }

    func style(_ text: String, _ style: CellStyle, _ color: Bool) -> String {
        guard color, style != .plain else { return text }
        return ANSI.code(style) + text + ANSI.reset
    }
}

/// The few SGR sequences the line-mode output uses.
public enum ANSI {
    public static let reset = "\u{1B}[0m"
    public static func code(_ style: CellStyle) -> String {
        switch style {
        case .plain: return ""
        case .bold: return "\u{1B}[1m"
        case .dim: return "\u{1B}[2m"
        case .up: return "\u{1B}[32m"
        case .down: return "\u{1B}[31m"
        case .live: return "\u{1B}[33m"
        case .warning: return "\u{1B}[1;33m"
        }
    }
}
