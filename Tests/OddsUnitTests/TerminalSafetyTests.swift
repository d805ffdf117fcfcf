import Foundation
import OddsDashboard
import OddsJSON
import OddsModel
import OddsOutput
import OddsTestSupport
import Testing

/// Provider text never drives the user's terminal.
@Suite("Terminal safety", .unitLane)
struct TerminalSafetyTests {
    /// A team name that would set the window title and clear the screen, plus C1, DEL and bidi controls.
    @Test("safe() replaces controls with U+FFFD and whitespace controls with spaces; plain text is untouched")
    func safe() {
        let s = TerminalText.safe(HostileText.sample)
        #expect(HostileText.controls(s).isEmpty, "\(s.unicodeScalars.map(\.value))")
        #expect(s.contains("Arsenal") && s.contains("lanesrA") && s.contains(" FC "))
        #expect(s.contains("\u{FFFD}"))
        #expect(TerminalText.safe("Beşiktaş 2.10 中国 ⚽") == "Beşiktaş 2.10 中国 ⚽")
    }

    @Test("Tables, TSV and CSV print no control character from a provider")
    func tabular() {
        let t = Tabular(columns: [.init("HOME"), .init("PRICE")], rows: [[HostileText.sample, "2.10"]])
        #expect(HostileText.controls(t.renderAligned(width: 80, color: false), allowing: [0x0A]).isEmpty)
        #expect(HostileText.controls(t.renderTSV(), allowing: [0x09, 0x0A]).isEmpty)
        #expect(HostileText.controls(t.renderCSV(), allowing: [0x0D, 0x0A]).isEmpty)
        #expect(t.renderTSV().split(separator: "\n").count == 2, "a newline in a cell must not add a row")
    }

    @Test("TSV: exact bytes, whatever the cells hold (UTF-8 kept, tabs and line breaks as spaces, controls as U+FFFD)")
    func tsvBytes() {
        let t = Tabular(columns: [.init("ID"), .init("MATCH"), .init("1")],
                        rows: [["a1", "Beşiktaş v 中国 ⚽", "2.10"], ["b2", "", "-"], ["c3", "A\tB\nC", "x\u{1B}]0;t\u{07}\u{202E}y"]])
        #expect(t.renderTSV() == "ID\tMATCH\t1\na1\tBeşiktaş v 中国 ⚽\t2.10\nb2\t\t-\nc3\tA B C\tx\u{FFFD}]0;t\u{FFFD}\u{FFFD}y\n")
        #expect(Tabular(columns: [.init("ID")], rows: []).renderTSV() == "ID\n")
    }

    @Test("CSV quotes by bytes: a comma or a quote a combining mark follows is still quoted (and the quote doubled)")
    func csvCombiningMarks() {
        #expect(Tabular.csvField("a,\u{301}b") == "\"a,\u{301}b\"")
        #expect(Tabular.csvField("say \"\u{301}hi\"") == "\"say \"\"\u{301}hi\"\"\"")
        #expect(Tabular.csvField("Beşiktaş 中国") == "Beşiktaş 中国")
        let t = Tabular(columns: [.init("A,B"), .init("C")], rows: [["x,\u{301}", "\"q\""], ["", "plain"]])
        #expect(t.renderCSV() == "\"A,B\",C\r\n\"x,\u{301}\",\"\"\"q\"\"\"\r\n,plain\r\n")
    }

    @Test("TSV and CSV written a record at a time are the bytes the whole render writes, labels and hostile text included")
    func rowWriter() throws {
        let columns: [Tabular.Column] = [.init("TIME"), .init("TEXT", shrinkable: true), .init("N", rightAligned: true), .init("FLAG")]
        let records: [[(String, JSONOutput)]] = [
            [("time", .string("2026-11-29T02:00:00.000Z")), ("text", .string(HostileText.sample)), ("n", .number("2.10")), ("flag", .bool(true))],
            [("time", .string("t")), ("text", .string("a,\"b\"\r\nc\td")), ("n", .null), ("flag", .bool(false))],
            [("time", .string("")), ("text", .optionalString(nil)), ("n", .array([.null, .null])), ("flag", .null)],
        ]
        for format in [OutputFormat.tsv, .csv] {
            for (demo, replay) in [(false, false), (true, false), (true, true)] {
                let options = RenderOptions(demo: demo, replay: replay)
                let writer = try #require(RecordReporter.RowWriter(columns: columns, format: format, options: options))
                for count in 0...records.count {
                    var bytes = writer.header
                    for r in records.prefix(count) { writer.append(r, to: &bytes) }
                    let whole = RecordReporter.render(columns: columns, records: Array(records.prefix(count)), format: format, options: options)
                    #expect(String(decoding: bytes, as: UTF8.self) == whole, "\(format) demo \(demo) replay \(replay), \(count) records")
                }
            }
        }
        #expect(RecordReporter.RowWriter(columns: columns, format: .json, options: RenderOptions()) == nil)
    }

    @Test("The detail view and the dashboard's screen show no control character")
    func detailAndScreen() {
        let e = Event(provider: .tickodds, id: "1", sport: "soccer", league: HostileText.sample, home: HostileText.sample,
                      away: "Chelsea", status: .live, startTime: nil, score: Score(home: 1, away: 0), clock: "67:00", period: nil,
                      markets: [Market(id: "m", name: HostileText.sample, book: "tickodds",
                                       selections: [Selection(id: "h", name: HostileText.sample, line: nil, price: Price(decimal: "2.10"), suspended: false)])])
        let detail = EventReporter.detail(e, options: RenderOptions(oddsFormat: .decimal, color: false, width: 100))
        #expect(HostileText.controls(detail, allowing: [0x0A]).isEmpty)
        var screen = Screen(width: 60, height: 2)
        screen.put(HostileText.sample, x: 0, y: 0)
        #expect(HostileText.controls(screen.text, allowing: [0x0A]).isEmpty)
        #expect(screen.line(0).contains("Arsenal"))
    }

    @Test("JSON escapes C0, DEL, C1 and the bidi controls as \\u escapes, and stays valid JSON")
    func json() throws {
        let quoted = JSONWriter.quote("a\u{1B}b\u{7F}\u{85}\u{202E}\u{2069}é")
        #expect(quoted == "\"a\\u001bb\\u007f\\u0085\\u202e\\u2069é\"")
        #expect(try JSONParser.parse(quoted) == .string("a\u{1B}b\u{7F}\u{85}\u{202E}\u{2069}é"))
    }

    @Test("The byte-run JSON quoting escapes exactly what a scalar-by-scalar reference does, on 5,000 random strings")
    func jsonQuotingMatchesReference() throws {
        // The reference: one scalar at a time, the rule as written in words.
        func reference(_ s: String) -> String {
            var out = "\""
            for c in s.unicodeScalars {
                switch c {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where c.value < 0x20 || (0x7F...0x9F).contains(c.value) || (0x202A...0x202E).contains(c.value)
                    || (0x2066...0x2069).contains(c.value):
                    let hex = String(c.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(c)
                }
            }
            return out + "\""
        }
        // Neighbours of every escaped range, and multi-byte scalars that share their lead bytes.
        let pool: [UInt32] = [0x00, 0x09, 0x0A, 0x0D, 0x1B, 0x1F, 0x20, 0x22, 0x41, 0x5C, 0x7E, 0x7F, 0x80, 0x85, 0x9F, 0xA0, 0xE9,
                              0x2029, 0x2028, 0x2029, 0x202A, 0x202E, 0x202F, 0x2065, 0x2066, 0x2069, 0x206A, 0x20AC, 0x4E2D, 0x1F600]
        var random = SeededRandom(seed: 18)
        for _ in 0..<5_000 {
            var s = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                s.append(Unicode.Scalar(pool[Int.random(in: 0..<pool.count, using: &random)])!)
            }
            let text = String(s)
            #expect(JSONWriter.quote(text) == reference(text), "\(Array(text.unicodeScalars.map(\.value)))")
            #expect(try JSONParser.parse(JSONWriter.quote(text)) == .string(text))
        }
    }

    @Test("Widths come from wcwidth: wide CJK and emoji two cells, combining marks none")
    func widths() {
        #expect(TextWidth.width(of: "中国") == 4)
        #expect(TextWidth.width(of: "⚽") == 2)
        #expect(TextWidth.width(of: "e\u{301}") == 1)
        #expect(TextWidth.width(of: "Beşiktaş") == 8)
        #expect(TextWidth.width(of: "❤\u{FE0F}") == 2)
    }
}
