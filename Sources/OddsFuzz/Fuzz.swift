import Foundation
import OddsJSON
import OddsModel
import OddsProviders
import OddsTransport

/// A deterministic fuzzer for the provider decoders: hostile variants of real frames (truncated,
/// mutated, wrong types, unknown types, numbers out of range, deep nesting, huge strings, control
/// characters, invalid UTF-8, lone surrogates) fed through each decoder's public entry point.
/// A crash ends the process; a hang shows as an input that took too long. Used by the tests (a
/// short run) and by `odds-bench fuzz` (a million inputs per decoder).
public struct Fuzzer {
    /// One decoder under test: it gets bytes and may throw; it must not crash or hang.
    public typealias Target = FuzzTarget

    public struct Report: CustomStringConvertible {
        public var target: String
        public var inputs = 0
        public var accepted = 0
        public var rejected = 0
        public var slowest: Double = 0
        public var seconds: Double = 0
        public var stillWorks = true
        /// Inputs on which a fast decoder and its reference disagreed (must be 0), and the first one.
        public var disagreements = 0
        public var firstDisagreement: [UInt8]?
        public var description: String {
            String(format: "%@: %d inputs, %d accepted, %d rejected, slowest %.1f ms, %.1f s, decodes afterwards: %@",
                   target as NSString, inputs, accepted, rejected, slowest * 1000, seconds, stillWorks ? "yes" : "NO")
                + (disagreements > 0 ? ", DISAGREEMENTS: \(disagreements)" : "")
        }
    }

    public var random: SeededRandom
    public let corpus: [[UInt8]]

    public init(corpus: [[UInt8]], seed: UInt64) {
        precondition(!corpus.isEmpty)
        self.corpus = corpus
        self.random = SeededRandom(seed: seed)
    }

    /// Runs `count` hostile inputs through `target`.
    public mutating func run(_ target: Target, count: Int) -> Report {
        var report = Report(target: target.name)
        let start = Date()
        for _ in 0..<count {
            let input = mutant()
            let t = DispatchTime.now().uptimeNanoseconds
            if target.decode(input) { report.accepted += 1 } else { report.rejected += 1 }
            report.slowest = max(report.slowest, Double(DispatchTime.now().uptimeNanoseconds - t) / 1e9)
            report.inputs += 1
            if let disagrees = target.disagrees, disagrees(input) {
                report.disagreements += 1
                if report.firstDisagreement == nil { report.firstDisagreement = input }
            }
        }
        report.seconds = Date().timeIntervalSince(start)
        report.stillWorks = target.stillWorks()
        return report
    }

    static let hostileTokens: [[UInt8]] = [
        Array("1e400".utf8), Array(String(repeating: "9", count: 400).utf8), Array("-1e-400".utf8), Array("-0".utf8),
        Array("0.0000000000000000000001".utf8), Array("NaN".utf8), Array("Infinity".utf8), Array("null".utf8),
        Array("true".utf8), Array("{}".utf8), Array("[]".utf8), Array("\"\"".utf8), Array("[1,2,3]".utf8),
        Array("\"\\ud800\"".utf8), Array("\"\\udc00x\"".utf8), Array("\"\\u0000\\u001b]0;x\\u0007\"".utf8),
        Array("\"\u{202E}evil\u{2066}\"".utf8), [0x22, 0xFF, 0xFE, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
        [0x00], [0x1B], Array("\"EVEN\"".utf8), Array("\"+\"".utf8), Array("\"1e9\"".utf8), Array("\"-110\"".utf8),
        Array("\"unknown_type\"".utf8), Array("-99999999999999999999".utf8),
    ]

    /// One hostile variant of a corpus frame.
    public mutating func mutant() -> [UInt8] {
        var bytes = corpus[random.int(corpus.count)]
        let rounds = 1 + random.int(3)
        for _ in 0..<rounds { mutate(&bytes) }
        return bytes
    }

    mutating func mutate(_ bytes: inout [UInt8]) {
        let n = bytes.count
        switch random.int(11) {
        case 0: // truncate
            bytes = Array(bytes.prefix(random.int(n + 1)))
        case 1: // flip bytes
            for _ in 0..<(1 + random.int(4)) where n > 0 { bytes[random.int(n)] = UInt8(truncatingIfNeeded: random.next()) }
        case 2: // insert raw bytes, control characters and broken UTF-8 among them
            let junk: [UInt8] = (0..<(1 + random.int(8))).map { _ in
                [0x00, 0x1B, 0x07, 0x7F, 0x9B, 0xFF, 0xC3, 0x22, 0x5C, 0x7B, 0x5B, 0x2C][random.int(12)]
            }
            bytes.insert(contentsOf: junk, at: random.int(n + 1))
        case 3: // delete a range
            guard n > 1 else { return }
            let a = random.int(n), b = min(n, a + 1 + random.int(64))
            bytes.removeSubrange(a..<b)
        case 4, 5: // replace a scalar value (after a colon) with a hostile token: wrong types, huge numbers
            replaceValue(&bytes, with: Fuzzer.hostileTokens[random.int(Fuzzer.hostileTokens.count)])
        case 6: // a huge string value
            replaceValue(&bytes, with: [0x22] + [UInt8](repeating: 0x61, count: 1 << (10 + random.int(8))) + [0x22])
        case 7: // deep nesting
            let depth = 100 + random.int(20_000)
            bytes = [UInt8](repeating: 0x5B, count: depth) + bytes + [UInt8](repeating: 0x5D, count: random.int(2) == 0 ? depth : 0)
        case 8: // duplicate a segment (duplicate keys, repeated items)
            guard n > 1 else { return }
            let a = random.int(n), b = min(n, a + 1 + random.int(256))
            bytes.insert(contentsOf: bytes[a..<b], at: random.int(n + 1))
        case 9: // an unknown or different message type
            if let r = find(Array("\"type\":\"".utf8), in: bytes) {
                let types = ["snapshot", "update", "match_start", "match_end", "heartbeat", "data", "error", "zzz", ""]
                var end = r.upperBound
                while end < bytes.count, bytes[end] != 0x22 { end += 1 }
                bytes.replaceSubrange(r.upperBound..<end, with: Array(types[random.int(types.count)].utf8))
            }
        default: // splice two frames
            let other = corpus[random.int(corpus.count)]
            bytes = Array(bytes.prefix(random.int(n + 1))) + Array(other.suffix(random.int(other.count + 1)))
        }
    }

    /// Replaces the value after a random `:` (up to the next `,` `}` or `]`) with `token`.
    mutating func replaceValue(_ bytes: inout [UInt8], with token: [UInt8]) {
        let colons = bytes.indices.filter { bytes[$0] == 0x3A }
        guard !colons.isEmpty else { bytes += token; return }
        let start = colons[random.int(colons.count)] + 1
        var end = start
        var inString = false
        while end < bytes.count {
            let b = bytes[end]
            if b == 0x22 { inString.toggle() }
            if !inString && (b == 0x2C || b == 0x7D || b == 0x5D) { break }
            end += 1
        }
        bytes.replaceSubrange(start..<end, with: token)
    }

    func find(_ needle: [UInt8], in hay: [UInt8]) -> Range<Int>? {
        guard needle.count <= hay.count else { return nil }
        for i in 0...(hay.count - needle.count) where hay[i] == needle[0] && Array(hay[i..<(i + needle.count)]) == needle {
            return i..<(i + needle.count)
        }
        return nil
    }

    // MARK: - The decoders

    /// Every decoder that reads provider or recording bytes: each registered provider's own targets,
    /// and the shared JSON parser, span scanner and recording-line reader, each checked afterwards
    /// with a valid frame taken from `corpus`.
    public static func targets(corpus: [[UInt8]]) -> [Target] {
        let json = corpus.first { $0.withUnsafeBufferPointer(JSONScanner.isJSON) } ?? Array("{}".utf8)
        let shared = [
            Target(name: "json parser", decode: { bytes in bytes.withUnsafeBufferPointer { (try? JSONParser.parse(bytes: $0)) != nil } },
                   stillWorks: { json.withUnsafeBufferPointer { (try? JSONParser.parse(bytes: $0)) != nil } }),
            Target(name: "json span", decode: { bytes in bytes.withUnsafeBufferPointer { (try? JSONSpan.valueEnd($0, from: 0)) != nil } },
                   stillWorks: { json.withUnsafeBufferPointer { b in
                       (try? JSONSpan.valueEnd(b, from: 0)).map { JSONSpan.skipWhitespace(b, from: $0) == b.count } ?? false
                   } }),
            // The reader takes a frame's bytes as they stand (the decoder judges them): what it hands on
            // must be exactly the frame, and a JSON frame must scan as JSON.
            Target(name: "recording line", decode: { bytes in
                guard let frame = RecordingReader.parse(Array("{\"t\":1,\"feed\":\"any/live\",\"frame\":".utf8) + bytes + [0x7D]) else { return false }
                guard frame.bytes == bytes else { return false }
                return frame.bytes.withUnsafeBufferPointer(JSONScanner.isJSON)
            }, stillWorks: {
                RecordingReader.parse(Array("{\"t\":1,\"feed\":\"any/live\",\"frame\":".utf8) + json + [0x7D]) != nil
            }),
        ]
        return ProviderRegistry.descriptors.flatMap { $0.fuzzTargets(corpus) } + shared
    }

    /// Runs every decoder over `count` hostile variants of `corpus`.
    public static func runAll(corpus: [[UInt8]], count: Int, seed: UInt64) -> [Report] {
        var fuzzer = Fuzzer(corpus: corpus, seed: seed)
        return targets(corpus: corpus).map { fuzzer.run($0, count: count) }
    }
}

extension SeededRandom {
    /// Uniform in 0..<n (0 when n ≤ 1).
    mutating func int(_ n: Int) -> Int { n <= 1 ? 0 : Int(next() % UInt64(n)) }
}
