import CFileMap
import Foundation
import OddsModel
import OddsJSON
@testable import OddsSimulator
import OddsSimulatorFaults
import OddsStore
@testable import OddsPulseScore
@testable import OddsTickOdds
@testable import OddsTransport
import OddsTestSupport
import Testing

/// The bounded queue between a feed and its consumer.
@Suite("Bounded queue")
struct BoundedQueueTests {
    @Test("A full queue holds the producer until the consumer takes; order is kept")
    func holdsProducer() async throws {
        let queue = BoundedQueue<Int>(capacity: 3)
        let sent = Counter()
        let producer = Task {
            for i in 0..<10 { await queue.send(i); sent.add() }
            queue.finish()
        }
        // The producer can get exactly `capacity` elements in, then waits in its fourth send.
        try await waitFor("the producer held in send", timeout: 5) { queue.waitingSenders == 1 }
        #expect(sent.value == 3)
        #expect(queue.count == 3)
        var got: [Int] = []
        for try await x in queue { got.append(x) }
        #expect(got == Array(0..<10))
        await producer.value
    }

    @Test("A held producer is let go once the queue is down to half; a cancelled consumer stops though elements are buffered")
    func halfAndCancel() async throws {
        let queue = BoundedQueue<Int>(capacity: 8)
        let producer = Task { for i in 0..<100 { guard await queue.send(i) else { return } } }
        try await waitFor("the producer held in send", timeout: 5) { queue.waitingSenders == 1 }
        var it = queue.makeAsyncIterator()
        // Taking three of eight leaves five: more than half, the producer stays held.
        for i in 0..<3 { #expect(try await it.next() == i) }
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(queue.waitingSenders == 1 && queue.count == 5)
        // Down to four (half): let go, it fills the queue again.
        #expect(try await it.next() == 3)
        try await waitFor("the queue full again", timeout: 5) { queue.count == 8 }
        // A consumer whose task is cancelled takes nothing more, though elements wait: its iterator ends.
        let consumer = Task { () -> Int in
            var taken = 0
            for try await _ in queue {
                taken += 1
                if taken == 2 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return taken
        }
        #expect(try await consumer.value == 2)
        #expect(await producer.value == ())
    }

    @Test("A consumer that stops wakes a waiting producer, whose send returns false, and runs onTermination once")
    func consumerGone() async throws {
        let queue = BoundedQueue<Int>(capacity: 1)
        let terminated = Counter()
        queue.setOnTermination { terminated.add() }
        let result = Task { () -> Bool in
            await queue.send(1)
            // Whether 2 still fits depends on timing; 3 never does while the consumer holds only one.
            _ = await queue.send(2)
            return await queue.send(3)
        }
        do {
            var it = queue.makeAsyncIterator()
            #expect(try await it.next() == 1)
        }
        // The iterator is gone: the queue is terminated.
        #expect(await result.value == false)
        #expect(terminated.value == 1)
    }

    @Test("A run sent at once: a waiting consumer gets its first, the rest wait in order; a full queue holds the run; onSend once a run")
    func sendRun() async throws {
        let queue = BoundedQueue<Int>(capacity: 4)
        let sends = Counter()
        queue.setOnSend { sends.add() }
        let first = Task { try await queue.next() }
        try await Task.sleep(nanoseconds: 20_000_000)
        #expect(await queue.send(contentsOf: [1, 2, 3]))
        #expect(try await first.value == 1)
        #expect(queue.count == 2 && queue.accepted == 3 && sends.value == 1)
        // Room for one more, so the whole run goes in (past the capacity); the next run waits for the queue to drain.
        #expect(await queue.send(contentsOf: [4, 5, 6]))
        #expect(queue.count == 5)
        let held = Task { await queue.send(contentsOf: [7, 8]) }
        try await waitFor("the run held in send", timeout: 5) { queue.waitingSenders == 1 }
        #expect(await queue.send(contentsOf: []))
        var got: [Int] = []
        for _ in 0..<7 { if let x = try await queue.next() { got.append(x) } }
        #expect(got == [2, 3, 4, 5, 6, 7, 8])
        #expect(await held.value && sends.value == 3)
        queue.stop()
        #expect(await queue.send(contentsOf: [9, 10]) == false)
    }

    @Test("takeAll returns what is buffered at once and lets a waiting producer go on")
    func takeAll() async throws {
        let queue = BoundedQueue<Int>(capacity: 2)
        let producer = Task { for i in 0..<3 { await queue.send(i) } }
        let deadline = Date().addingTimeInterval(5)
        while queue.count < 2 && Date() < deadline { try await Task.sleep(nanoseconds: 5_000_000) }
        #expect(queue.takeAll() == [0, 1])
        await producer.value
        #expect(queue.takeAll() == [2])
        #expect(queue.takeAll().isEmpty)
    }

    @Test("poll takes what is buffered and reports the end once nothing is left; onSend runs for each element and the end")
    func pollAndOnSend() async throws {
        struct Boom: Error {}
        let queue = BoundedQueue<Int>(capacity: 4)
        let sends = Counter()
        queue.setOnSend { sends.add() }
        await queue.send(1)
        await queue.send(2)
        #expect(sends.value == 2)
        var (elements, end) = queue.poll()
        #expect(elements == [1, 2] && end == nil)
        await queue.send(3)
        queue.finish(throwing: Boom())
        #expect(sends.value == 4)
        (elements, end) = queue.poll()
        #expect(elements == [3])
        guard case .failure(let error)? = end else { Issue.record("no end"); return }
        #expect(error is Boom)
        // A polling consumer's stop: producers are released, sends refused.
        let other = BoundedQueue<Int>(capacity: 1)
        let stopped = Counter()
        other.setOnTermination { stopped.add() }
        other.stop()
        #expect(await other.send(1) == false)
        #expect(stopped.value == 1)
    }

    @Test("runs: everything buffered in one hand-over, a held producer let go, a waiting consumer woken, the end and its error after the last run")
    func runs() async throws {
        struct Boom: Error {}
        let queue = BoundedQueue<Int>(capacity: 4)
        let producer = Task { for i in 0..<6 { guard await queue.send(i) else { return } } }
        try await waitFor("the producer held in send", timeout: 5) { queue.waitingSenders == 1 }
        var it = queue.runs.makeAsyncIterator()
        // One step takes all four buffered, and the held producer goes on.
        #expect(try await it.next() == [0, 1, 2, 3])
        try await waitFor("the producer let go", timeout: 5) { queue.count == 2 }
        await producer.value
        #expect(try await it.next() == [4, 5])
        // Nothing buffered: the consumer waits, and a run sent at once arrives whole.
        let waiting = Task { try await queue.nextRun() }
        try await Task.sleep(nanoseconds: 20_000_000)
        #expect(await queue.send(contentsOf: [6, 7, 8]))
        #expect(try await waiting.value == [6, 7, 8])
        // The buffered elements, then the error, then nothing.
        await queue.send(9)
        queue.finish(throwing: Boom())
        #expect(try await it.next() == [9])
        await #expect(throws: Boom.self) { try await it.next() }
        #expect(try await it.next() == nil)
    }

    @Test("runs: dropping the iterator ends the queue once; a one-by-one take before a run keeps order")
    func runsEnd() async throws {
        let queue = BoundedQueue<Int>(capacity: 8)
        let terminated = Counter()
        queue.setOnTermination { terminated.add() }
        for i in 0..<5 { await queue.send(i) }
        #expect(try await queue.next() == 0)
        do {
            var it = queue.runs.makeAsyncIterator()
            #expect(try await it.next() == [1, 2, 3, 4])
        }
        #expect(terminated.value == 1)
        #expect(await queue.send(5) == false)
    }

    @Test("finish(throwing:) delivers the buffered elements, then the error")
    func finishThrowing() async throws {
        struct Boom: Error {}
        let queue = BoundedQueue<Int>(capacity: 4)
        await queue.send(1)
        await queue.send(2)
        queue.finish(throwing: Boom())
        var got: [Int] = []
        await #expect(throws: Boom.self) {
            for try await x in queue { got.append(x) }
        }
        #expect(got == [1, 2])
    }

    @Test("A consumer cancelled just as a send hands it an element: neither waits on the other")
    func cancelWhileSending() async throws {
        // The consumer's cancellation takes its task's lock and then the queue's (`terminate`); a send that woke the
        // consumer under the queue's lock took them the other way round. The cancels come from a thread of their own,
        // so a deadlock holds that thread and one of the pool, and the time limit below says so instead of a hang.
        let canceller = Canceller()
        defer { canceller.stop() }
        let rounds = 3000
        let done = Counter()
        let work = Task {
            for _ in 0..<rounds {
                let queue = BoundedQueue<Int>(capacity: 4)
                let consumer = Task { for try await _ in queue {} }
                let sender = Task { await queue.send(1) }
                canceller.cancel(consumer)
                _ = await sender.value
                _ = await consumer.result
                done.add()
            }
        }
        defer { work.cancel() }
        try await waitFor("\(rounds) rounds without a deadlock", timeout: 60) { done.value == rounds }
    }
}

/// Cancels tasks from a thread of its own, as a signal handler or another connection would.
private final class Canceller: @unchecked Sendable {
    // @unchecked: `tasks` and `stopped` are behind `condition`.
    private let condition = NSCondition()
    private var tasks: [Task<Void, Error>] = []
    private var stopped = false

    init() { Thread { [self] in run() }.start() }

    func cancel(_ task: Task<Void, Error>) { condition.withLock { tasks.append(task); condition.signal() } }

    func stop() { condition.withLock { stopped = true; condition.signal() } }

    private func run() {
        while true {
            let batch: [Task<Void, Error>] = condition.withLock {
                while tasks.isEmpty && !stopped { condition.wait() }
                defer { tasks.removeAll() }
                return tasks
            }
            if batch.isEmpty { return }
            for t in batch { t.cancel() }
        }
    }
}

@Suite("Reconnect policy")
struct ReconnectPolicyTests {
    @Test("Jittered delays lie between half and all of the exponential delay, capped at 30 s")
    func jitter() {
        let p = BackoffPolicy.reconnect
        for attempt in 1...12 {
            let full = p.delay(attempt: attempt)
            #expect(p.delay(attempt: attempt, jitter: 0) == full / 2)
            #expect(p.delay(attempt: attempt, jitter: 0.999) < full + 1e-9)
            #expect(p.delay(attempt: attempt, jitter: 0.5) > full / 2)
            #expect(p.delay(attempt: attempt, jitter: .nan) == full / 2)
            #expect(full <= 30)
        }
        #expect(p.delay(attempt: 1) == 1)
        #expect(p.delay(attempt: 3) == 4)
        #expect(p.delay(attempt: 100) == 30)
    }

    @Test("A documented connection rate (12 a minute) makes the 13th connection wait for the window")
    func connectionRate() {
        var rate = ConnectionRate(perMinute: 12)
        let t0 = Date(timeIntervalSince1970: 1_000_000)
        for i in 0..<12 {
            #expect(rate.wait(now: t0.addingTimeInterval(Double(i))) == nil)
            rate.record(t0.addingTimeInterval(Double(i)))
        }
        let wait = rate.wait(now: t0.addingTimeInterval(12))
        #expect(wait != nil && abs(wait! - 48) < 1e-6)
        #expect(rate.wait(now: t0.addingTimeInterval(60.5)) == nil)
        var unlimited = ConnectionRate(perMinute: nil)
        for _ in 0..<100 { unlimited.record(t0) }
        #expect(unlimited.wait(now: t0) == nil)
    }

    @Test("A server that sends a snapshot and drops: the backoff attempt keeps growing, it does not reset on the first frame")
    func noResetOnFirstFrame() async throws {
        try await withSimulator { sim, transport in
            for _ in 0..<6 { await sim.closeNextConnection(code: 1011) }
            let adapter = TickOddsFeed(settings: settings(sim, .tickodds), sport: "soccer")
            let probe = FeedProbe(FeedRunner.run(adapter, transport: transport, stats: FeedStats(), policy: fastReconnect))
            defer { probe.stop() }
            try await probe.wait("five reconnects") { $0.count(\.isReconnecting) >= 5 }
            let attempts = probe.updates.compactMap { u -> Int? in
                if case .connection(.reconnecting(_, let attempt, _)) = u { return attempt }
                return nil
            }
            #expect(Array(attempts.prefix(5)) == [1, 2, 3, 4, 5])
        }
    }
}

@Suite("Back-pressure over loopback")
struct BackPressureTests {
    @Test("A stalled consumer stops the socket being read: the queue stays bounded, the server is held back, no reconnect")
    func stalledConsumer() async throws {
        try await withSimulator({ o in
            o.tickInterval = 0.005
            o.secondsPerTick = 1
            o.slowClientBuffer = 256 << 10
        }) { sim, transport in
            // PulseScore broadcasts every live event each tick; padded, that is about 13 MB/s, enough to
            // fill the kernel's socket buffers within the stall.
            await sim.setPadding(bytes: 64 << 10)
            let stats = FeedStats()
            let adapter = PulseScoreFeed(settings: settings(sim, .pulsescore), sport: "soccer")
            let feed = FeedRunner.run(adapter, transport: transport, stats: stats, policy: fastReconnect)
            var iterator = feed.makeAsyncIterator()
            // Read until live, then stop reading for a while.
            var seen = 0
            while seen < 20, try await iterator.next() != nil { seen += 1 }
            // The queue fills up to its capacity and no further (the producer, once held, is let go only when the
            // queue is down to half: it may stay held with a few taken).
            let fillDeadline = Date().addingTimeInterval(20)
            while feed.waitingSenders == 0, Date() < fillDeadline { try await Task.sleep(nanoseconds: 20_000_000) }
            let full = feed.count
            #expect(full <= feed.capacity && full >= feed.capacity - seen, "\(full) of \(feed.capacity)")
            // From then on the socket is not read. The kernel's buffers fill, then the server's own: it holds back
            // (skips) what the client does not read. Twenty skipped ticks later, at most the frame NIO had buffered
            // has been decoded.
            let framesAtFull = stats.frames
            let skippedAtFull = await sim.skippedForSlowClients
            try await waitFor("the server held back twenty ticks", timeout: 20) { await sim.skippedForSlowClients >= skippedAtFull + 20 }
            #expect(feed.count == full)
            #expect(stats.frames - framesAtFull <= 1, "frames decoded while the queue was full: \(stats.frames - framesAtFull)")
            // Reading again resumes the flow on the same connection.
            let before = stats.frames
            var more = 0
            let deadline = Date().addingTimeInterval(10)
            while stats.frames < before + 200, Date() < deadline, try await iterator.next() != nil { more += 1 }
            #expect(stats.frames >= before + 200)
            #expect(stats.connects == 1)
        }
    }
}

@Suite("Record and replay")
struct RecordReplayTests {
    @Test("A recording line keeps a JSON frame verbatim on one line; a frame that is not JSON goes under text")
    func lineFormat() throws {
        let at = Date(timeIntervalSince1970: 1_795_000_000.123)
        let json = Array("{\n  \"type\": \"heartbeat\",\r\n  \"odds\": 4.50\n}".utf8)
        let line = String(decoding: Recorder.line(feed: "tickodds/live", bytes: json, at: at, demo: false), as: UTF8.self)
        #expect(line == "{\"t\":1795000000123,\"feed\":\"tickodds/live\",\"frame\":{   \"type\": \"heartbeat\",    \"odds\": 4.50 }}\n")
        let text = String(decoding: Recorder.line(feed: "tickodds/live", bytes: Array("not json\n\"at all\"".utf8), at: at, demo: true),
                          as: UTF8.self)
        #expect(text == "{\"t\":1795000000123,\"feed\":\"tickodds/live\",\"demo\":true,\"text\":\"not json\\n\\\"at all\\\"\"}\n")
        let parsed = try #require(RecordingReader.parse(Array(line.utf8.dropLast())))
        #expect(parsed.t == 1_795_000_000_123)
        #expect(parsed.providerName == "tickodds")
        #expect(parsed.connection == "live")
        #expect(String(decoding: parsed.bytes, as: UTF8.self) == "{   \"type\": \"heartbeat\",    \"odds\": 4.50 }")
        let parsedText = try #require(RecordingReader.parse(Array(text.utf8.dropLast())))
        #expect(String(decoding: parsedText.bytes, as: UTF8.self) == "not json\n\"at all\"")
        #expect(parsedText.demo)
        #expect(RecordingReader.parse(Array("{\"t\":1,\"feed\":\"x\"}".utf8)) == nil)
        #expect(RecordingReader.parse(Array("{\"t\":1,\"feed\":\"a/b\",\"frame\":{".utf8)) == nil)
    }

    @Test("A TickOdds session recorded over loopback replays through the same decoder to the same store")
    func roundTrip() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("odds-rec-\(UUID().uuidString).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var live = LiveStore()
        try await withSimulator { sim, transport in
            let recorder = try Recorder(path: path, demo: false)
            transport.frameTap = recorder
            let stats = FeedStats()
            let adapter = TickOddsFeed(settings: settings(sim, .tickodds), sport: nil)
            let probe = FeedProbe(FeedRunner.run(adapter, transport: transport, stats: stats, policy: fastReconnect))
            defer { probe.stop() }
            try await probe.wait("snapshot") { $0.count(\.isSnapshot) == 1 }
            for _ in 0..<15 { await sim.tick() }
            await sim.injectMalformed(count: 2)
            await sim.tick()
            // A third malformed frame after the tick's: once it is counted, every frame before it was decoded and
            // its messages sent; once the probe has taken all that was sent, the live state is complete.
            await sim.injectMalformed(count: 1)
            try await probe.wait("the malformed frames and what lies between, taken") { p in stats.malformed == 3 && p.caughtUp }
            #expect(recorder.frames == stats.frames)
            for m in probe.messages { live.apply(m) }
        }
        let reader = try RecordingReader(path: path)
        let stats = FeedStats()
        let replay = FeedReplay.run([TickOddsFeed(settings: ProviderSettings(key: nil, restURL: "", webSocketURL: ""), sport: nil)],
                                    reader: reader, speed: .max, stats: stats)
        var replayed = LiveStore()
        for try await m in replay { replayed.apply(m) }
        #expect(stats.malformed == 3)
        #expect(reader.malformed == 0)
        let a = live.currentEvents().map { strip($0) }
        let b = replayed.currentEvents().map { strip($0) }
        #expect(!a.isEmpty)
        #expect(a == b)
    }

    @Test("Lines longer than the read chunk (a 3 MB frame) come back whole, and so does the line after")
    func longLines() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("odds-rec-\(UUID().uuidString).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let big = "{\"pad\":\"" + String(repeating: "x", count: 3 << 20) + "\"}"
        let text = "{\"t\":1,\"feed\":\"tickodds/live\",\"frame\":\(big)}\nnot a recording line\n{\"t\":2,\"feed\":\"tickodds/live\",\"frame\":[1]}"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let reader = try RecordingReader(path: path)
        #expect(reader.next()?.bytes.count == big.utf8.count)
        let last = try #require(reader.next())
        #expect(last.t == 2 && last.bytes == Array("[1]".utf8))
        #expect(reader.next() == nil)
        #expect(reader.malformed == 1)
    }

    @Test("Lines around the first read's size (64 KiB) and a read chunk's (1 MiB) come back whole, in order")
    func linesAroundTheFirstRead() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("odds-rec-\(UUID().uuidString).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = RecordingReader.firstChunk
        // Frames whose lines end just before, at and after the first read, then one past a whole chunk.
        let sizes = [10, first - 60, first - 40, first + 1, 3, (1 << 20) + 5, 7]
        let frames = sizes.map { "{\"pad\":\"" + String(repeating: "y", count: $0) + "\"}" }
        let text = frames.enumerated().map { "{\"t\":\($0.offset),\"feed\":\"tickodds/live\",\"frame\":\($0.element)}" }.joined(separator: "\n")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let reader = try RecordingReader(path: path)
        for (i, frame) in frames.enumerated() {
            let read = try #require(reader.next(), "frame \(i)")
            #expect(read.t == Int64(i) && read.bytes == Array(frame.utf8), "frame \(i)")
        }
        #expect(reader.next() == nil && reader.malformed == 0)
    }

    @Test("Long lines one after another are each mapped once 64 KiB of them are read, and the lines around them come back whole")
    func runsOfLongLinesMapped() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("odds-rec-\(UUID().uuidString).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // A state's frames come one after another, each less than a read chunk (1 MiB): mapped, none
        // read. After them, short and long lines as they fall in what is read.
        let sizes = [200_000, 300_000, 250_000, 5, 70_000, 9, (1 << 16) - 200, 250_000, 3]
        let frames = sizes.map { "{\"pad\":\"" + String(repeating: "z", count: $0) + "\"}" }
        let text = frames.enumerated().map { "{\"t\":\($0.offset),\"feed\":\"boltodds/odds\",\"frame\":\($0.element)}" }.joined(separator: "\n") + "\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let reader = try RecordingReader(path: path)
        for (i, frame) in frames.enumerated() {
            let view = try #require(reader.nextView(), "frame \(i)")
            #expect(view.t == Int64(i) && view.bytes.elementsEqual(frame.utf8), "frame \(i)")
            if i < 3 { #expect(reader.lastLineMapped, "frame \(i) of \(sizes[i]) bytes") }
            if sizes[i] < 1 << 16 { #expect(!reader.lastLineMapped, "frame \(i) of \(sizes[i]) bytes") }
        }
        #expect(reader.nextView() == nil && reader.malformed == 0 && !reader.lastLineMapped)
    }

    @Test("Frames are read in place: a long line's storage goes once it is done with, and lines read member by member or as text hold their own bytes", .heavyLane)
    func framesInPlace() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("odds-rec-\(UUID().uuidString).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let big = "[" + String(repeating: "{\"a\":1},", count: 1 << 20) + "{\"a\":2}]"
        let lines = [
            "{\"t\":1,\"feed\":\"boltodds/odds\",\"frame\":\(big)}",
            "{\"feed\":\"tickodds/live\",\"frame\":{\"x\":[1, 2]},\"t\":2}",
            "{\"t\":3,\"feed\":\"tickodds/live\",\"text\":\"not json\"}",
            "{\"t\":4,\"feed\":\"tickodds/live\",\"frame\":[4]}",
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let reader = try RecordingReader(path: path)
        let first = try #require(reader.nextView())
        #expect(first.t == 1 && first.feed == "boltodds/odds" && first.bytes.count == big.utf8.count)
        #expect(first.bytes.elementsEqual(big.utf8))
        // A line longer than the storage is mapped from the file, not read into grown storage.
        #expect(reader.lastLineMapped && reader.storageCapacity == RecordingReader.usualCapacity)
        let second = try #require(reader.nextView())
        // The 9 MB line's mapping is gone once the next frame is asked for.
        #expect(!reader.lastLineMapped)
        #expect(second.t == 2 && String(decoding: second.bytes, as: UTF8.self) == "{\"x\":[1, 2]}")
        let third = try #require(reader.nextView())
        #expect(third.t == 3 && String(decoding: third.bytes, as: UTF8.self) == "not json")
        let fourth = try #require(reader.next())
        #expect(fourth.t == 4 && fourth.bytes == Array("[4]".utf8))
        #expect(reader.nextView() == nil)

        // `next` (a copy) lets the long line's storage go at once.
        let again = try RecordingReader(path: path)
        #expect(again.next()?.bytes.count == big.utf8.count)
        #expect(again.storageCapacity == RecordingReader.usualCapacity)
    }

    @Test("A long last line without its newline is mapped to the file's end; through a pipe the storage grows for it and goes back after", .heavyLane)
    func longLinesMappedOrRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("odds-rec-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let big = "[" + String(repeating: "{\"a\":1},", count: 1 << 20) + "{\"a\":2}]"
        let text = "{\"t\":1,\"feed\":\"tickodds/live\",\"frame\":[0]}\n{\"t\":2,\"feed\":\"boltodds/odds\",\"frame\":\(big)}"

        let file = dir + "/file.ndjson"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let reader = try RecordingReader(path: file)
        #expect(reader.nextView()?.t == 1)
        let last = try #require(reader.nextView())
        #expect(last.t == 2 && last.bytes.elementsEqual(big.utf8) && reader.lastLineMapped)
        #expect(reader.nextView() == nil && !reader.lastLineMapped)

        // A pipe cannot be mapped: the same lines are read, the storage grown for the long one.
        let fifo = dir + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let written = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            if let out = FileHandle(forWritingAtPath: fifo) { out.write(Data(text.utf8)); try? out.close() }
            written.signal()
        }
        let piped = try RecordingReader(path: fifo)
        #expect(piped.nextView()?.t == 1)
        let read = try #require(piped.nextView())
        #expect(read.t == 2 && read.bytes.elementsEqual(big.utf8) && !piped.lastLineMapped)
        #expect(piped.storageCapacity > RecordingReader.usualCapacity)
        #expect(piped.nextView() == nil)
        #expect(piped.storageCapacity == RecordingReader.usualCapacity)
        #expect(written.wait(timeout: .now() + 10) == .success)
    }

    @Test("A mapped recording cut short while it is read gives zeros, not SIGBUS")
    func mappedFileCutShort() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("odds-map-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: UInt8(ascii: "x"), count: 1 << 16).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_RDWR)
        #expect(fd >= 0)
        defer { close(fd) }
        var map = odds_file_map()
        #expect(odds_map_file(fd, 100, (1 << 16) - 100, &map) == 0)
        defer { odds_unmap_file(&map) }
        let bytes = try #require(map.bytes)
        #expect(bytes[0] == UInt8(ascii: "x") && bytes[(1 << 16) - 101] == UInt8(ascii: "x"))
        let before = odds_file_map_cut_short()
        #expect(ftruncate(fd, 4096) == 0)
        // The first page is still the file's; the rest went with the truncation and reads as zeros.
        #expect(bytes[0] == UInt8(ascii: "x"))
        #expect(bytes[(1 << 16) - 101] == 0)
        #expect(odds_file_map_cut_short() == before + 1)
    }

    @Test("takeUpdates leaves a keepalive and hands the updates over")
    func takeUpdates() {
        var inbound = Inbound.data([.heartbeat, .heartbeat])
        #expect(inbound.takeUpdates().count == 2)
        #expect(inbound == .keepalive)
        var retry = Inbound.retry(reason: "r", after: 1, resend: [])
        #expect(retry.takeUpdates().isEmpty)
        #expect(retry == .retry(reason: "r", after: 1, resend: []))
    }

    /// Receive times differ between the live run and the recording's millisecond stamps.
    func strip(_ e: Event) -> Event { var e = e; e.updatedAt = nil; return e }

    @Test("Replay at a speed factor keeps the recorded spacing, scaled")
    func speed() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("odds-rec-\(UUID().uuidString).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var text = ""
        for i in 0..<3 {
            text += "{\"t\":\(1_000_000 + i * 400),\"feed\":\"tickodds/live\",\"frame\":{\"type\":\"heartbeat\",\"timestamp\":\"2026-11-22T04:39:37Z\"}}\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        // On a virtual clock: each frame waits for exactly its scaled spacing, however busy the machine.
        let clock = VirtualClock()
        let replay = FeedReplay.run([TickOddsFeed(settings: ProviderSettings(key: nil, restURL: "", webSocketURL: ""), sport: nil)],
                                    reader: try RecordingReader(path: path), speed: .times(2), stats: FeedStats(), clock: clock)
        let probe = FeedProbe(replay)
        defer { probe.stop() }
        try await probe.wait("the first frame at once") { $0.messages.count == 1 }
        // 400 ms recorded between frames, at twice the speed: 200 ms on the clock.
        try await clock.waitForSleeper()
        #expect(clock.dues == [clock.now.addingTimeInterval(0.2)])
        clock.advance(by: 0.19)
        #expect(clock.sleeping == 1 && probe.messages.count == 1)
        clock.advance(by: 0.02)
        try await probe.wait("the second frame") { $0.messages.count == 2 }
        try await clock.waitForSleeper()
        clock.advance(by: 0.21)
        try await probe.wait("the third frame, and the end") { $0.messages.count == 3 && $0.finished }
        #expect(ReplaySpeed("max") == .max)
        #expect(ReplaySpeed("2x") == .times(2))
        #expect(ReplaySpeed("0") == nil)
        #expect(ReplaySpeed("-1") == nil)
        #expect(ReplaySpeed("inf") == nil)
        #expect(ReplaySpeed("nan") == nil)
        // Spaces around it and any case, as typed or quoted in a config.
        #expect(ReplaySpeed(" MAX\t") == .max)
        #expect(ReplaySpeed(" 1.5x ") == .times(1.5))
        #expect(ReplaySpeed("1 5") == nil)
    }
}

@Suite("Simulator prices")
struct SimulatorPriceTests {
    @Test("A vanishing probability gives the longest price on the ladder instead of trapping on an Int overflow")
    func tinyProbability() {
        #expect(SimWorld.toPrice(1e-300) == 10000)
        #expect(SimWorld.toPrice(.leastNonzeroMagnitude) == 10000)
        #expect(SimWorld.toPrice(0) == 10100)
        #expect(SimWorld.toPrice(.nan) == 10100)
        #expect(SimWorld.toPrice(0.5) == 189)
    }
}

@Suite("ISO 8601 by hand")
struct ISODateTests {
    @Test("Agrees with Foundation's formatter on valid timestamps and refuses malformed ones")
    func agrees() {
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for text in ["2026-11-22T04:39:37Z", "1970-01-01T00:00:00Z", "2000-02-29T23:59:59Z", "2026-11-22T04:39:37+02:00",
                     "2026-11-22T04:39:37-05:30", "1999-12-31T23:59:59Z", "2100-03-01T00:00:00Z"] {
            #expect(ISODate.parse(text) == plain.date(from: text), "\(text)")
        }
        let ms = ISODate.parse("2026-11-22T04:39:37.042Z")!
        #expect(abs(ms.timeIntervalSince(fractional.date(from: "2026-11-22T04:39:37.042Z")!)) < 1e-6)
        for bad in ["", "2026-11-22", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z",
                    "2026-11-22T24:00:00Z", "2026-11-22T04:39:37", "2026-11-22T04:39:37Zjunk", "2026-11-22T04:39:37.Z",
                    "2026-11-22T04:39:37+0200", "２０２６-11-22T04:39:37Z", "2026-11-22T04:39:37.0000000001Z"] {
            #expect(ISODate.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("Writes what Foundation's formatters write, with and without milliseconds")
    func writes() {
        let plain = ISO8601DateFormatter()
        var style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        style.timeZone = TimeZone(identifier: "UTC")!
        var random = SeededRandom(seed: 18)
        var instants: [Double] = [0, -1, -0.0005, 0.9995, 0.4995, 0.5, 0.0004, 0.001, 1_795_440_000, 1_795_440_000.042,
                                  951_868_799.999, 951_868_799.9996, -2_208_988_800, 253_402_300_799.5, 4_102_444_800, -86_400.25]
        for _ in 0..<5_000 { instants.append(Double(random.next() % 6_000_000_000) - 2_000_000_000 + Double(random.next() % 1000) / 1000) }
        for _ in 0..<2_000 { instants.append(Double(random.next() % 4_000_000_000) + random.unit()) }
        for t in instants {
            let d = Date(timeIntervalSince1970: t)
            #expect(ISODate.text(d) == plain.string(from: d), "\(t)")
            #expect(ISODate.text(d, milliseconds: true) == style.format(d), "\(t)")
        }
        // Outside years 1900–9999 Foundation writes them.
        for t in [1e12, -62_135_596_800] {
            let far = Date(timeIntervalSince1970: t)
            #expect(ISODate.text(far) == plain.string(from: far) && ISODate.text(far, milliseconds: true) == style.format(far))
        }
    }
}

@Suite("Retry-After from outside")
struct RetryAfterTests {
    @Test("inf, 1e400, NaN, negative and absurd values are unreadable, not a crash; seconds and HTTP dates still work")
    func hostile() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        for bad in ["inf", "-inf", "1e400", "nan", "-1", "1e300", "99999999999", "soon", ""] {
            #expect(retryAfterSeconds(bad, now: now) == nil, "\(bad)")
        }
        #expect(retryAfterSeconds("120", now: now) == 120)
        #expect(retryAfterSeconds("0.5", now: now) == 0.5)
        let date = retryAfterSeconds("Thu, 19 Nov 2026 09:46:50 GMT", now: now)
        #expect(date != nil)
    }
}

@Suite("TickOdds sport names")
struct TickOddsSportTests {
    @Test("An event without sportName is of an unknown sport, never soccer; names match whatever their case")
    func unknownSport() throws {
        let bare = try TickOddsWire.event(JSONParser.parse(#"{"fixtureId":"1","home":"A","away":"B","status":"in_progress"}"#))
        #expect(bare.sport == "unknown")
        let upper = try TickOddsWire.event(JSONParser.parse(#"{"fixtureId":"2","home":"A","away":"B","sportName":"ICE HOCKEY"}"#))
        #expect(upper.sport == "ice-hockey")
        let feed = TickOddsFeed(settings: ProviderSettings(key: nil, restURL: "", webSocketURL: ""), sport: "soccer")
        let updates = try feed.decode(#"{"type":"match_start","event":{"fixtureId":"3","home":"A","away":"B"}}"#, first: false)
        #expect(updates.isEmpty)
    }
}
