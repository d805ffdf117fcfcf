import OddsJSON
import OddsModel
import OddsTestSupport
import Testing

@Suite("JSON parser", .unitLane)
struct JSONTests {
    @Test("Numbers keep their literal text")
    func numberText() throws {
        let v = try JSONParser.parse(#"{"a": 4.50, "b": -0.5e3, "c": 7}"#)
        #expect(v["a"] == .number("4.50"))
        #expect(v["b"] == .number("-0.5e3"))
        #expect(v["c"]?.int == 7)
    }

    @Test("Strings, escapes and Unicode")
    func strings() throws {
        let v = try JSONParser.parse(#"["a\"b", "\u00e9\u4e2d", "\ud83d\ude00", "Beşiktaş", "tab\tnew\nline"]"#)
        #expect(v.array?.map { $0.string } == ["a\"b", "é中", "😀", "Beşiktaş", "tab\tnew\nline"])
    }

    @Test("Malformed documents are rejected with an offset", arguments: [
        "", "{", "[1,]", "{\"a\" 1}", "nul", "\"abc", "[1 2]", "01", "1.", "{\"a\":1}x", "\"\\ud800\"", "[\"\u{01}\"]",
    ])
    func malformed(text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
        var t = text
        #expect(!t.withUTF8 { JSONScanner.isJSON($0) })
    }

    @Test("isJSON says what the parser says, without building the document")
    func isJSONAgrees() {
        var random = SeededRandom(seed: 7)
        let pieces = ["{", "}", "[", "]", ",", ":", "\"a\"", "\"\\u00e9\"", "\"\\ud800\"", "1", "-0.5e3", "01", "true", "nul", " ", "\n",
                      "\"x\u{01}\"", "\"é\"", "null", "1.", "2"]
        var documents = [#"{"a":[1,2,{"b":null}],"c":"d"}"#, "  [ ]  ", "7", String(repeating: "[", count: 600) + String(repeating: "]", count: 600)]
        for _ in 0..<3_000 {
            documents.append((0..<Int(random.next() % 8 + 1)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined())
        }
        var valid = 0
        for d in documents {
            let parsed = (try? JSONParser.parse(d)) != nil
            var t = d
            #expect(t.withUTF8 { JSONScanner.isJSON($0) } == parsed, "\(d)")
            if parsed { valid += 1 }
        }
        #expect(valid > 100)
    }

    @Test("Writer escapes and keeps key order")
    func writer() throws {
        let out = JSONOutput.object([("z", .string("a\"b\n\u{01}")), ("a", .number("1.50")), ("n", .null)]).rendered
        #expect(out == #"{"z":"a\"b\n\u0001","a":1.50,"n":null}"#)
        let back = try JSONParser.parse(out)
        #expect(back["z"]?.string == "a\"b\n\u{01}")
    }

    @Test("Deep nesting is bounded")
    func depth() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(deep) }
    }
}
