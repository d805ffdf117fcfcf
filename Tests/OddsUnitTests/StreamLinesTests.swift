import Foundation
import OddsJSON
import OddsModel
import OddsOutput
import OddsStore
import OddsTestSupport
import OddsValue
import Testing

/// `odds stream`'s lines built and written beside the reading: the same lines, in order, bounded, and none left behind.
@Suite("Stream lines built on a thread of their own", .unitLane)
struct StreamLinesTests {
    /// What a sink was given, and a way to hold it up.
    final class Sink: @unchecked Sendable {  // every field but `gate` is touched under `lock`
        private let lock = NSLock()
        private var bytes: [UInt8] = []
        private var calls = 0
        private var _held = false, _open = true
        let gate = DispatchSemaphore(value: 0)

        /// Whether the next call waits for `gate`; what each call answers.
        var held: Bool { get { lock.withLock { _held } } set { lock.withLock { _held = newValue } } }
        var open: Bool { get { lock.withLock { _open } } set { lock.withLock { _open = newValue } } }

        func take(_ chunk: [UInt8]) -> Bool {
            if held { gate.wait() }
            return lock.withLock {
                bytes += chunk
                calls += 1
                return _open
            }
        }
        var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }
        var callCount: Int { lock.withLock { calls } }
    }

    /// A whole event sent after each price change, some suspensions, a remove, and an event the store drops.
    static func messages() -> [FeedMessage] {
        var e = ValueTests.event([("a", ["1.91", "1.91"]), ("b", ["2.05", "1.80"])])
        var out: [FeedMessage] = []
        var rng = SystemRandomNumberGenerator()
        for step in 0..<600 {
            let at = Date(timeIntervalSince1970: 1_800_000_000 + Double(step))
            let m = Int.random(in: 0..<e.markets.count, using: &rng), s = Int.random(in: 0..<2, using: &rng)
            if step % 7 == 3 {
                e.markets[m].selections[s].suspended.toggle()
            } else {
                e.markets[m].selections[s].price = Price(decimal: "\(Int.random(in: 1...3, using: &rng)).\(Int.random(in: 10...99, using: &rng))")
                let p = PriceUpdate(eventID: e.id, marketID: e.markets[m].id, marketName: e.markets[m].name, book: e.markets[m].book,
                                    selection: e.markets[m].selections[s])
                out.append(FeedMessage(provider: .boltodds, receivedAt: at, update: .price(p)))
            }
            out.append(FeedMessage(provider: .boltodds, receivedAt: at, update: .upsert(e)))
            if step == 400 { out.append(FeedMessage(provider: .boltodds, receivedAt: at, update: .remove(eventID: e.id))) }
        }
        return out
    }

    /// Each message's line as the stream reads it, and the text a line at a time built afresh.
    static func lines(_ messages: [FeedMessage]) -> (lines: [StreamLines.Line], text: String) {
        var store = LiveStore(), values = StreamValueNotes(), moves = PriceLineMoves()
        var lines: [StreamLines.Line] = [], text = ""
        for message in messages {
            store.apply(message)
            let move = moves.move(for: message, in: store)
            let notes = values.notes(for: message, in: store)
            lines.append(.init(message: message, move: move, notes: notes.events, priceNotes: notes.price))
            text += EventJSON.update(message, move: move, labels: [("demo", .bool(true))], notes: { notes.events[$0.id] },
                                     priceNotes: notes.price).rendered + "\n"
        }
        return (lines, text)
    }

    @Test("On a thread of their own and on the caller's, the lines are the ones built afresh, in order, markets copied or not",
          arguments: [true, false])
    func sameLines(threaded: Bool) {
        let (lines, expected) = Self.lines(Self.messages())
        let sink = Sink()
        let writer = StreamLines(labels: [("demo", .bool(true))], capacity: 3, threaded: threaded) { sink.take($0) }
        for (i, line) in lines.enumerated() {
            #expect(writer.send(line))
            // Now and then what the store holds is sent as the stream does, before the event is removed and after.
            if i % 97 == 0 { writer.prune([:]) }
        }
        writer.finish()
        #expect(sink.text == expected)
        #expect(sink.text.split(separator: "\n").count == lines.count)
    }

    @Test("A sink held up holds the sender up: at most the capacity waits, and every line arrives once it goes on")
    func bounded() async throws {
        let (lines, expected) = Self.lines(Array(Self.messages().prefix(200)))
        let sink = Sink()
        sink.held = true
        let writer = StreamLines(capacity: 4, threaded: true) { sink.take($0) }
        let sent = Counter()
        let sender = Thread {
            for line in lines { writer.send(line); sent.add() }
        }
        sender.start()
        // The builder takes what waits (at most the capacity) and is held by the sink; as many again can wait.
        try await Task.sleep(for: .milliseconds(300))
        #expect(sent.value <= 2 * 4 + 1, "\(sent.value) sent while the sink was held")
        #expect(sent.value >= 4)
        sink.held = false
        sink.gate.signal()
        for _ in 0..<500 where sent.value < lines.count { try await Task.sleep(for: .milliseconds(10)) }
        #expect(sent.value == lines.count)
        writer.finish()
        #expect(sink.text == expected.replacingOccurrences(of: ",\"demo\":true", with: ""))
    }

    @Test("One line on its own is written without waiting for more (a quiet live feed)")
    func lone() async throws {
        let (lines, _) = Self.lines(Array(Self.messages().prefix(1)))
        let sink = Sink()
        let writer = StreamLines(threaded: true) { sink.take($0) }
        writer.send(lines[0])
        for _ in 0..<200 where sink.callCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(sink.callCount == 1)
        writer.finish()
    }

    @Test("Once the reader is gone, sending says so and nothing more is built or written", arguments: [true, false])
    func readerGone(threaded: Bool) async throws {
        let (lines, _) = Self.lines(Self.messages())
        let sink = Sink()
        sink.open = false
        let writer = StreamLines(capacity: 2, threaded: threaded) { sink.take($0) }
        var refused = false
        for line in lines where !refused { refused = !writer.send(line) }
        writer.finish()
        #expect(refused)
        #expect(sink.callCount == 1)
    }
}
