import Foundation
import NIOCore
@testable import OddsBoltOdds
import OddsJSON
import OddsModel
import OddsOutput
@testable import OddsSimulator
@testable import OddsTransport
import OddsTestSupport
import Testing

/// Large messages read as their bytes arrive: WebSocket frames put together (or handed on in parts)
/// from any split of the bytes, a JSON array split into its elements from any split, and BoltOdds'
/// initial state read element by element exactly as it is read whole.
@Suite("Large messages read as they arrive", .unitLane)
struct StreamingTests {
    // MARK: - WebSocket frames

    /// One frame as a server writes it (unmasked unless `mask` is given).
    static func frame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, mask: [UInt8]? = nil) -> [UInt8] {
        var out: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let m: UInt8 = mask == nil ? 0 : 0x80
        if payload.count < 126 {
            out.append(m | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            out += [m | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            out.append(m | 127)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        guard let mask else { return out + payload }
        return out + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }

    static func bytes(_ n: Int, seed: UInt64) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        return (0..<n).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    /// What the reader makes of `wire` given in chunks cut at `cuts`: whole messages (parts put
    /// together, with how many parts), pings, pongs and closes, in order.
    static func read(_ wire: [UInt8], cuts: [Int], streamFrom: Int = 1000, max: Int = 1 << 20) throws -> [String] {
        var reader = WebSocketReader(maxMessageSize: max, streamFrom: streamFrom)
        var out: [WebSocketInput] = []
        var start = 0
        for end in cuts + [wire.count] where end >= start {
            var buffer = ByteBuffer(bytes: wire[start..<end])
            try reader.read(&buffer, allocator: ByteBufferAllocator(), into: &out)
            #expect(buffer.readableBytes == 0)
            start = end
        }
        var said: [String] = []
        var pending: [UInt8] = []
        var parts = 0
        for input in out {
            switch input {
            case .message(let b): said.append("message \(StreamingTests.digest(Array(b.readableBytesView))) whole")
            case .part(let b, let final):
                pending += Array(b.readableBytesView)
                parts += 1
                if final {
                    said.append("message \(StreamingTests.digest(pending)) in \(parts > 1 ? "parts" : "one part")")
                    pending = []
                    parts = 0
                }
            case .ping(let b): said.append("ping \(String(decoding: b.readableBytesView, as: UTF8.self))")
            case .pong: said.append("pong")
            case .close(let b): said.append("close \(Array(b.readableBytesView))")
            }
        }
        if !pending.isEmpty { said.append("unfinished \(pending.count)") }
        return said
    }

    static func digest(_ b: [UInt8]) -> String { "\(b.count):\(b.reduce(UInt64(1469598103934665603)) { ($0 ^ UInt64($1)) &* 1099511628211 })" }

    @Test("Frames read from any split of the bytes: small messages whole, large ones in parts, fragments with pings between them, masked frames unmasked")
    func framesFromAnySplit() throws {
        let small = Array("{\"action\":\"ping\"}".utf8)
        let big = StreamingTests.bytes(70_000, seed: 1)      // one frame with a 64-bit length
        let mid = StreamingTests.bytes(3_000, seed: 2)       // a 16-bit length, over streamFrom
        let frag = StreamingTests.bytes(2_400, seed: 3)      // three fragments of 800: grows past streamFrom
        let tiny = StreamingTests.bytes(300, seed: 4)        // fragments that stay under it
        var wire: [UInt8] = []
        wire += StreamingTests.frame(0x1, small)
        wire += StreamingTests.frame(0x1, big)
        wire += StreamingTests.frame(0x2, mid, mask: [1, 2, 3, 4])
        wire += StreamingTests.frame(0x1, Array(frag[0..<800]), fin: false)
        wire += StreamingTests.frame(0x9, Array("a".utf8))
        wire += StreamingTests.frame(0x0, Array(frag[800..<1600]), fin: false)
        wire += StreamingTests.frame(0xA, [])
        wire += StreamingTests.frame(0x0, Array(frag[1600...]), fin: false)
        wire += StreamingTests.frame(0x0, [], fin: true)
        wire += StreamingTests.frame(0x1, Array(tiny[0..<100]), fin: false)
        wire += StreamingTests.frame(0x9, Array("b".utf8))
        wire += StreamingTests.frame(0x0, Array(tiny[100...]), fin: true)
        wire += StreamingTests.frame(0x1, [])
        wire += StreamingTests.frame(0x8, [0x03, 0xE8])
        let expected = [
            "message \(StreamingTests.digest(small)) whole", "message \(StreamingTests.digest(big)) in parts", "message \(StreamingTests.digest(mid)) in parts",
            "ping a", "pong", "message \(StreamingTests.digest(frag)) in parts", "ping b", "message \(StreamingTests.digest(tiny)) whole",
            "message \(StreamingTests.digest([])) whole", "close [3, 232]",
        ]
        // At once, a byte at a time, and cut at random places.
        // (A large message read at once is one part; what matters is that it is never "whole".)
        func read(_ cuts: [Int]) throws -> [String] {
            try StreamingTests.read(wire, cuts: cuts).map { $0.replacingOccurrences(of: "in one part", with: "in parts") }
        }
        #expect(try read([]) == expected)
        #expect(try read(Array(1..<wire.count)) == expected)
        var random = SeededRandom(seed: 9)
        for _ in 0..<200 {
            #expect(try read((0..<Int(random.next() % 40)).map { _ in Int(random.next() % UInt64(wire.count)) }.sorted()) == expected)
        }
    }

    @Test("Bytes that break the protocol, and frames or messages over the bound, are refused with what came before kept")
    func violationsAndBounds() throws {
        func failure(_ wire: [UInt8], max: Int = 1 << 20) -> WebSocketReadError? {
            var reader = WebSocketReader(maxMessageSize: max, streamFrom: 1000)
            var out: [WebSocketInput] = []
            var buffer = ByteBuffer(bytes: wire)
            do { try reader.read(&buffer, allocator: ByteBufferAllocator(), into: &out) } catch { return error as? WebSocketReadError }
            return nil
        }
        let ok = StreamingTests.frame(0x1, Array("{}".utf8))
        #expect(failure(ok) == nil)
        #expect(failure(ok + StreamingTests.frame(0x0, [1])) == .violation("a continuation frame with no message to continue"))
        #expect(failure(StreamingTests.frame(0x1, [1], fin: false) + StreamingTests.frame(0x1, [2])) == .violation("a new message inside a fragmented one"))
        #expect(failure(StreamingTests.frame(0x9, [1], fin: false)) == .violation("a control frame fragmented or over 125 bytes"))
        #expect(failure(StreamingTests.frame(0x9, Array(repeating: 1, count: 126))) == .violation("a control frame fragmented or over 125 bytes"))
        #expect(failure(StreamingTests.frame(0x3, [1])) == .violation("the reserved opcode 3"))
        #expect(failure([0x81, 127, 0x80, 0, 0, 0, 0, 0, 0, 1]) == .violation("a frame length with its top bit set"))
        // The header alone says too large: refused before any of it is read.
        #expect(failure([0x81, 127, 0, 0, 0, 0, 0x10, 0, 0, 0], max: 1 << 20) == .tooLarge)
        #expect(failure(StreamingTests.frame(0x1, StreamingTests.bytes(2000, seed: 1)), max: 1999) == .tooLarge)
        // Fragments within the bound each, over it together.
        let halves = StreamingTests.frame(0x1, StreamingTests.bytes(1500, seed: 1), fin: false) + StreamingTests.frame(0x0, StreamingTests.bytes(1500, seed: 2))
        #expect(failure(halves, max: 2999) == .tooLarge)
        #expect(failure(halves, max: 3000) == nil)
        // What came before the bad bytes is handed on.
        var reader = WebSocketReader(maxMessageSize: 1 << 20, streamFrom: 1000)
        var out: [WebSocketInput] = []
        var buffer = ByteBuffer(bytes: ok + StreamingTests.frame(0x0, [1]))
        #expect(throws: WebSocketReadError.self) { try reader.read(&buffer, allocator: ByteBufferAllocator(), into: &out) }
        #expect(out == [.message(ByteBuffer(bytes: Array("{}".utf8)))])
    }

    // MARK: - JSON arrays element by element

    /// The elements `JSONArrayStream` hands on for `text` cut at `cuts`, or the error it throws.
    static func split(_ text: String, cuts: [Int], window: Int = 64) -> Result<[String], JSONArrayStream.Failure> {
        let bytes = Array(text.utf8)
        let stream = JSONArrayStream(window: window)
        var elements: [String] = []
        var start = 0
        do {
            for end in cuts + [bytes.count] where end >= start {
                try bytes[start..<end].withUnsafeBytes { raw in
                    try stream.feed(raw) { elements.append(String(decoding: $0, as: UTF8.self)) }
                }
                start = end
            }
            try stream.finish()
        } catch {
            return .failure(error as! JSONArrayStream.Failure)
        }
        return .success(elements)
    }

    @Test("An array split into its elements from any split of its bytes: strings with brackets, commas, quotes and escapes, nesting, scalars, white space")
    func arrayElementsFromAnySplit() throws {
        let elements = [
            #"{"a":"x],[}{\"y\\","b":[1,{"c":[]}],"d":"\\"}"#, #"[1,2,[3,"]"]]"#, #""a, \"quoted\" string""#, "-12.5e3",
            #"["a\\\"b", "\\", "\\\\\"]\"", "}"]"#, "true", "null", #"{"long":"\#(String(repeating: "z", count: 300))"}"#, "{}", "[]",
        ]
        let text = " \n[ " + elements.joined(separator: " ,\n\t") + " ]  \n"
        #expect(StreamingTests.split(text, cuts: []) == .success(elements))
        for cut in 0...text.utf8.count {
            #expect(StreamingTests.split(text, cuts: [cut]) == .success(elements), "cut at \(cut)")
        }
        #expect(StreamingTests.split(text, cuts: Array(1..<text.utf8.count)) == .success(elements))
        #expect(StreamingTests.split("[]", cuts: [1]) == .success([]))
        #expect(StreamingTests.split(" [ ] ", cuts: []) == .success([]))
    }

    @Test("A malformed array is refused at the byte that breaks it; one that ends early or is not an array says so")
    func malformedArrays() {
        #expect(StreamingTests.split(#"{"a":1}"#, cuts: []) == .failure(.notArray))
        #expect(StreamingTests.split("[1,2", cuts: []) == .failure(.unfinished))
        #expect(StreamingTests.split(#"[{"a":"]"#, cuts: []) == .failure(.unfinished))
        #expect(StreamingTests.split("[1,]", cuts: []) == .failure(.malformed(offset: 3, "a comma before the closing bracket")))
        #expect(StreamingTests.split("[,1]", cuts: []) == .failure(.malformed(offset: 1, "a comma with no element before it")))
        #expect(StreamingTests.split("[{]]", cuts: []) == .failure(.malformed(offset: 2, "a bracket that closes the wrong thing")))
        #expect(StreamingTests.split("[1}]", cuts: []) == .failure(.malformed(offset: 2, "a brace that closes nothing")))
        #expect(StreamingTests.split("[1] x", cuts: []) == .failure(.malformed(offset: 4, "bytes after the array")))
        let deep = "[" + String(repeating: "[", count: 600) + String(repeating: "]", count: 601)
        guard case .failure(.malformed(_, "nested too deep")) = StreamingTests.split(deep, cuts: [50, 300]) else {
            Issue.record("nesting past 512 levels was not refused"); return
        }
        // The offset counts from the message's first byte, however the window moved.
        let long = "[" + Array(repeating: #""0123456789""#, count: 50).joined(separator: ",") + ",}]"
        #expect(StreamingTests.split(long, cuts: [100, 200, 400], window: 64) == .failure(.malformed(offset: 1 + 50 * 13, "a brace that closes nothing")))
    }

    @Test("Elements keep their bytes, unmoved, until the generation changes; the window stays small for small elements")
    func generations() throws {
        let stream = JSONArrayStream(window: 256)
        var seen: [(pointer: UnsafeBufferPointer<UInt8>, text: String, generation: Int)] = []
        let element = #"{"k":"0123456789012345678901234567890123456789"}"#
        let text = "[" + Array(repeating: element, count: 100).joined(separator: ",") + "]"
        let bytes = Array(text.utf8)
        var start = 0
        var random = SeededRandom(seed: 3)
        while start < bytes.count {
            let end = min(bytes.count, start + 1 + Int(random.next() % 90))
            try bytes[start..<end].withUnsafeBytes { raw in
                try stream.feed(raw) { span in
                    // Every element handed on in this generation is still there, unchanged.
                    for s in seen where s.generation == stream.generation {
                        #expect(String(decoding: s.pointer, as: UTF8.self) == s.text)
                    }
                    seen.append((span, String(decoding: span, as: UTF8.self), stream.generation))
                }
            }
            start = end
        }
        try stream.finish()
        #expect(seen.count == 100 && seen.allSatisfy { $0.text == element })
        #expect(stream.generation > 10)
        #expect(stream.received == bytes.count)
    }

    // MARK: - BoltOdds element by element

    /// Every book's initial state of every simulated game, as one array (the shape of BoltOdds'
    /// initial state), with a ping, an unreadable message and an error among them.
    static func boltInitialState() -> String {
        var options = Simulator.Options()
        options.tickInterval = 0
        let sim = Simulator(options: options)
        var messages: [String] = [#"{"action":"socket_connected"}"#]
        for m in sim.world.live where m.away != nil {
            guard let ref = BoltOdds.ref(m) else { continue }
            for book in BoltOdds.books.indices {
                messages.append(BoltOdds.message("initial_state", BoltOdds.data(ref, book: book, outcomes: BoltOdds.outcomes(m, book: book))).rendered)
            }
            messages.append(#"{"action":"ping"}"#)
        }
        messages.insert(#"{"action":"initial_state","data":"not an object"}"#, at: messages.count / 2)
        messages.insert(#"{"action":"error","message":"game not found"}"#, at: messages.count / 3)
        return "[" + messages.joined(separator: ",") + "]"
    }

    @Test("A new generation drops what earlier elements taught: bytes rewritten in place are read afresh, never taken as the bytes read before")
    func generationResetsTemplates() throws {
        let feed = BoltOddsOddsFeed(settings: BoltOddsDecoderTests.settings, filters: BoltOddsFilters(), index: BoltOddsGameIndex())
        let reader = try #require(feed.elementReader(first: false))
        func text(_ book: String, _ odds: String) -> [UInt8] {
            Array(#"{"action":"initial_state","data":{"sport":"NBA","sportsbook":"\#(book)","game":"A vs B, 2026-11-24, 01","home_team":"A","away_team":"B","info":{},"outcomes":{"A Moneyline":{"odds":"\#(odds)","outcome_name":"Moneyline","outcome_target":"A"}}}}"#.utf8)
        }
        let first = text("fanduel", "+120"), second = text("caesars", "-130")
        #expect(first.count == second.count)
        // One buffer, as the window is: the second element is written where the first was.
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: first.count)
        defer { buffer.deallocate() }
        func read(_ bytes: [UInt8], generation: Int) throws -> (book: String?, odds: String?) {
            _ = buffer.initialize(from: bytes)
            let inbound = try reader.element(UnsafeBufferPointer(buffer), generation: generation)
            guard case .bookUpsert(let e, let book)? = inbound.updates.first else { return (nil, nil) }
            return (book, e.markets.first?.selections.first?.price?.text)
        }
        #expect(try read(first, generation: 0) == ("fanduel", "+120"))
        #expect(try read(second, generation: 1) == ("caesars", "-130"))
    }

    @Test("BoltOdds' initial state read element by element as it arrives gives exactly what it gives read whole, whatever the cuts and however often the window moves")
    func boltOddsElementsAgreeWithWhole() throws {
        let text = StreamingTests.boltInitialState()
        let bytes = Array(text.utf8)
        #expect(bytes.count > 100_000)
        let fixed = Date(timeIntervalSince1970: 1_795_440_000)
        let feed = BoltOddsOddsFeed(settings: BoltOddsDecoderTests.settings, filters: BoltOddsFilters(), index: BoltOddsGameIndex())
        feed.now = { fixed }
        let whole = try feed.receive(bytes, first: false)
        #expect(whole.updates.count > 100)
        // The unreadable element is skipped in both; the error is said in both.
        #expect(whole.skipped.count == 1)
        #expect(whole.notices.count == 1)
        var random = SeededRandom(seed: 11)
        for window in [256, 4096, 1 << 20] {
            let cuts = (0..<30).map { _ in Int(random.next() % UInt64(bytes.count)) }.sorted()
            let read = try #require(BoltOddsDecoders.elements(bytes, cuts: cuts, now: fixed, window: window))
            #expect(read.updates == whole.updates, "window \(window)")
            #expect(read.skipped == 1)
            #expect(read.notices == whole.notices)
        }
        // A byte at a time through the smallest window.
        let slow = try #require(BoltOddsDecoders.elements(bytes, cuts: Array(stride(from: 1, to: bytes.count, by: 7)), now: fixed, window: 64))
        #expect(slow.updates == whole.updates)
    }
}
