import Foundation
import OddsDashboard
import OddsJSON
import OddsModel
import OddsOutput
import Testing

/// Provider text never drives the user's terminal.
@Suite("Terminal safety")
struct TerminalSafetyTests {
    /// A team name that would set the window title and clear the screen, plus C1, DEL and bidi controls.
    static let hostile = "\u{1B}]0;x\u{07}\u{1B}[2JArsenal\u{9B}31m\u{7F}\u{202E}lanesrA\u{2066}\tFC\n"

    static func controls(_ s: String, allowing allowed: Set<UInt32> = []) -> [UInt32] {
        s.unicodeScalars.map(\.value).filter {
            !allowed.contains($0) && ($0 < 0x20 || (0x7F...0x9F).contains($0) || (0x202A...0x202E).contains($0) || (0x2066...0x2069).contains($0))
        }
    }

    @Test("safe() replaces controls with U+FFFD and whitespace controls with spaces; plain text is untouched")
    func safe() {
        let s = TerminalText.safe(TerminalSafetyTests.hostile)
        #expect(TerminalSafetyTests.controls(s).isEmpty, "\(s.unicodeScalars.map(\.value))")
        #expect(s.contains("Arsenal") && s.contains("lanesrA") && s.contains(" FC "))
        #expect(s.contains("\u{FFFD}"))
        #expect(TerminalText.safe("Beşiktaş 2.10 中国 ⚽") == "Beşiktaş 2.10 中国 ⚽")
    }

    @Test("Tables, TSV and CSV print no control character from a provider")
    func tabular() {
        let t = Tabular(columns: [.init("HOME"), .init("PRICE")], rows: [[TerminalSafetyTests.hostile, "2.10"]])
        #expect(TerminalSafetyTests.controls(t.renderAligned(width: 80, color: false), allowing: [0x0A]).isEmpty)
        #expect(TerminalSafetyTests.controls(t.renderTSV(), allowing: [0x09, 0x0A]).isEmpty)
        #expect(TerminalSafetyTests.controls(t.renderCSV(), allowing: [0x0D, 0x0A]).isEmpty)
        #expect(t.renderTSV().split(separator: "\n").count == 2, "a newline in a cell must not add a row")
    }

    @Test("The detail view and the dashboard's screen show no control character")
    func detailAndScreen() {
        let e = Event(provider: .tickodds, id: "1", sport: "soccer", league: TerminalSafetyTests.hostile, home: TerminalSafetyTests.hostile,
                      away: "Chelsea", status: .live, startTime: nil, score: Score(home: 1, away: 0), clock: "67:00", period: nil,
                      markets: [Market(id: "m", name: TerminalSafetyTests.hostile, book: "tickodds",
                                       selections: [Selection(id: "h", name: TerminalSafetyTests.hostile, line: nil, price: Price(decimal: "2.10"), suspended: false)])])
        let detail = EventReporter.detail(e, options: RenderOptions(oddsFormat: .decimal, color: false, width: 100))
        #expect(TerminalSafetyTests.controls(detail, allowing: [0x0A]).isEmpty)
        var screen = Screen(width: 60, height: 2)
        screen.put(TerminalSafetyTests.hostile, x: 0, y: 0)
        #expect(TerminalSafetyTests.controls(screen.text, allowing: [0x0A]).isEmpty)
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

@Suite("Terminal safety through the CLI")
struct TerminalSafetyCLITests {
    @Test("odds live on a recording with a hostile team name: table, TSV and CSV carry no control character; JSON escapes it")
    func liveReplay() async throws {
        let name = JSONWriter.quote(TerminalSafetyTests.hostile)
        let event = "{\"fixtureId\":\"9\",\"sportName\":\"Soccer\",\"league\":\(name),\"home\":\(name),\"away\":\"Chelsea\",\"status\":\"in_progress\",\"marketGroups\":[{\"name\":\(name),\"key\":\"full_time_result\",\"selections\":[{\"name\":\(name),\"odds\":2.10,\"side\":\"home\"}]}]}"
        let line = "{\"t\":1795439194362,\"feed\":\"tickodds/live\",\"frame\":{\"type\":\"snapshot\",\"events\":[\(event)]}}\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("odds-hostile-\(UUID().uuidString).ndjson").path
        try line.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        for (flag, allowed) in [(["--format", "table"], Set<UInt32>([0x0A])), (["--format", "tsv"], [0x09, 0x0A]), (["--csv"], [0x0D, 0x0A]), (["--ndjson"], [0x0A])] {
            let r = try await CLI.run(["live", "--replay", file] + flag)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("Arsenal"), "\(flag): \(r.stdout)")
            #expect(TerminalSafetyTests.controls(r.stdout, allowing: allowed).isEmpty, "\(flag)")
        }
    }
}
