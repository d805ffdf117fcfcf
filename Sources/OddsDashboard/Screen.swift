import OddsOutput

/// How a cell is drawn.
public struct CellAttributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public static let bold = CellAttributes(rawValue: 1 << 0)
    public static let dim = CellAttributes(rawValue: 1 << 1)
    public static let reverse = CellAttributes(rawValue: 1 << 2)
    public static let underline = CellAttributes(rawValue: 1 << 3)
    public static let green = CellAttributes(rawValue: 1 << 4)
    public static let red = CellAttributes(rawValue: 1 << 5)
    public static let yellow = CellAttributes(rawValue: 1 << 6)
    public static let cyan = CellAttributes(rawValue: 1 << 7)
    public static let magenta = CellAttributes(rawValue: 1 << 8)
}

/// One terminal cell: a grapheme and its attributes. A wide grapheme fills its cell and the next,
/// which holds `continuation`.
public struct Cell: Hashable, Sendable {
    public var text: String
    public var attributes: CellAttributes
    public static let blank = Cell(text: " ", attributes: [])
    public static let continuation = Cell(text: "", attributes: [])
}

/// A grid of cells: what the dashboard shows, independent of any terminal library.
public struct Screen: Hashable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var rows: [[Cell]]

    /// Each ASCII character as a string, made once.
    private static let ascii: [String] = (0..<128).map { String(UnicodeScalar(UInt8($0))) }

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        rows = Array(repeating: Array(repeating: Cell.blank, count: self.width), count: self.height)
    }

    /// Writes `text` from column `x` of row `y`, clipped to `maxWidth` cells (and the screen), and
    /// returns the column after it.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, attributes: CellAttributes = [], maxWidth: Int? = nil) -> Int {
        guard y >= 0, y < height, x < width else { return x }
        let limit = min(width, x + (maxWidth ?? width))
        var column = max(0, x)
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            // Printable ASCII: one cell a byte, no grapheme breaking (the common case, every frame).
            for byte in text.utf8 {
                if column >= limit { break }
                rows[y][column] = Cell(text: Screen.ascii[Int(byte)], attributes: attributes)
                column += 1
            }
            return column
        }
        for character in TerminalText.safe(text) {
            let w = TextWidth.width(of: character)
            if w == 0 { continue }
            if column + w > limit { break }
            rows[y][column] = Cell(text: String(character), attributes: attributes)
            if w == 2 { rows[y][column + 1] = Cell(text: "", attributes: attributes) }
            column += w
        }
        return column
    }

    /// `text` in exactly `cells` cells from `x`: padded with spaces (before it when `right`), or cut with "…"
    /// when longer. What `put(TextWidth.pad(…))` writes, without making the padded string: a table's every
    /// cell, every frame.
    public mutating func put(_ text: String, x: Int, y: Int, attributes: CellAttributes = [], width cells: Int, right: Bool = false) {
        guard cells > 0, y >= 0, y < height else { return }
        let ascii = text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        let w = ascii ? text.utf8.count : TextWidth.width(of: text)
        guard w <= cells else {
            put(TextWidth.pad(text, to: cells, right: right), x: x, y: y, attributes: attributes)
            return
        }
        let space = Cell(text: Screen.ascii[0x20], attributes: attributes)
        let fillFrom = right ? x : x + w
        let first = max(0, fillFrom), end = min(width, fillFrom + cells - w)
        if first < end { for c in first..<end { rows[y][c] = space } }
        put(text, x: right ? x + cells - w : x, y: y, attributes: attributes, maxWidth: w)
    }

    /// Sets attributes on a run of cells without changing their text.
    public mutating func style(x: Int, y: Int, width w: Int, adding attributes: CellAttributes) {
        guard y >= 0, y < height else { return }
        for c in max(0, x)..<min(width, x + w) { rows[y][c].attributes.formUnion(attributes) }
    }

    /// Fills a row with spaces carrying `attributes`.
    public mutating func fill(y: Int, attributes: CellAttributes) {
        guard y >= 0, y < height else { return }
        rows[y] = Array(repeating: Cell(text: " ", attributes: attributes), count: width)
    }

    /// The text of every row, trailing spaces trimmed: what golden tests compare.
    public var text: String {
        rows.map { row in
            var line = row.map(\.text).joined()
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// Row `y` as text.
    public func line(_ y: Int) -> String { rows[y].map(\.text).joined() }
}
