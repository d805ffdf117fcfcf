import Foundation
import Logging
import OddsJSON
import OddsModel
@testable import OddsOutput
import OddsStore
@testable import OddsSportsAPI
@testable import OddsBoltOdds
@testable import OddsCLI
@testable import OddsTransport
import OddsTickOdds
import OddsSimulator
import OddsSimulatorFaults
import OddsTestSupport
import Testing

@Suite("Replay decodes ahead", .unitLane)
struct ReplayAheadTests {
    /// A recording of `frames` on `feed`, one a second from the epoch, in a temporary file (its path).
    static func recording(_ frames: [[UInt8]], feed: String, name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("odds-\(name)-\(UUID().uuidString).ndjson").path
        var text: [UInt8] = []
        for (i, frame) in frames.enumerated() {
            text += Recorder.line(feed: feed, bytes: frame, at: Date(timeIntervalSince1970: Double(i)), demo: false)
        }
        try Data(text).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("A pipeline hands every item on in order, never more than its depth ahead of a slow consumer")
    func inOrder() {
        let produced = Counter()
        var taken: [Int] = []
        var mostAhead = 0
        Concurrently.pipeline(depth: 3, ahead: true, produce: { send in
            for i in 0..<2_000 {
                produced.add()
                guard send(i) else { return }
            }
        }, consume: { item in
            // Produced but not yet taken: `depth` queued, one being put, and this one.
            mostAhead = max(mostAhead, produced.value - taken.count)
            taken.append(item)
            if item % 100 == 0 { usleep(2_000) }
            return true
        })
        #expect(taken == Array(0..<2_000))
        #expect(mostAhead <= 3 + 2, "ahead by \(mostAhead)")
        #expect(mostAhead >= 2, "the producer never ran ahead: no pipeline")
        // On one core: on this thread, each item straight to the consumer, never one ahead.
        var inline: [Int] = []
        let made = Counter()
        Concurrently.pipeline(depth: 3, ahead: false, produce: { send in
            for i in 0..<2_000 { made.add(); guard send(i) else { return } }
        }, consume: { item in
            #expect(made.value == inline.count + 1)
            inline.append(item)
            return true
        })
        #expect(inline == Array(0..<2_000))
    }

    @Test("The cores this process may use are read from its affinity mask, as nproc counts them")
    func cores() throws {
        #expect(Concurrently.count(cpuList: "0-3,8,10-11") == 7 && Concurrently.count(cpuList: " 0\t") == 1)
        #expect(Concurrently.count(cpuList: "0-1") == 2 && Concurrently.count(cpuList: "2,4") == 2)
        for bad in ["", "x", "3-1", "0-", "-1", "1-2-3"] { #expect(Concurrently.count(cpuList: Substring(bad)) == nil, "\(bad)") }
        #expect(Concurrently.hasSpareCore == (Concurrently.cores > 1))
        // nproc reads the mask with sched_getaffinity(2); the count here is the kernel's list of it.
        let nproc = Process()
        nproc.executableURL = URL(fileURLWithPath: "/usr/bin/nproc")
        let out = Pipe()
        nproc.standardOutput = out
        try nproc.run()
        nproc.waitUntilExit()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) == Concurrently.cores)
    }

    @Test("A consumer that stops stops the producer, and the pipeline returns only when both are done")
    func stops() {
        // On a thread of its own (two cores or more) and on this thread (one core).
        for ahead in [true, false] {
            let produced = Counter()
            let refused = Counter()
            var taken: [Int] = []
            Concurrently.pipeline(depth: 2, ahead: ahead, produce: { send in
                for i in 0..<1_000_000 {
                    produced.add()
                    guard send(i) else { refused.add(); return }
                }
            }, consume: { item in
                taken.append(item)
                return taken.count < 5
            })
            #expect(taken == [0, 1, 2, 3, 4], "ahead: \(ahead)")
            #expect(refused.value == 1, "the producer was told to stop, and had stopped on return (ahead: \(ahead))")
            #expect(produced.value <= (ahead ? 5 + 2 + 1 : 5), "ahead: \(ahead)")
            // Nothing produced: the consumer is never called.
            var calls = 0
            Concurrently.pipeline(depth: 1, ahead: ahead, produce: { (_: (Int) -> Bool) -> Void in }, consume: { _ in calls += 1; return true })
            #expect(calls == 0)
        }
    }

    @Test("A replay decoded ahead gives every frame's updates in order, a large frame read in halves included")
    func replayInOrder() throws {
        let now = Date(timeIntervalSince1970: 1_795_440_000)
        let big = BoltOddsFastPathTests.state(games: 700, books: 3)
        let other = BoltOddsFastPathTests.state(games: 800, books: 3).map { $0 == UInt8(ascii: "H") ? UInt8(ascii: "G") : $0 }
        #expect(big.count >= 1 << 20 && other.count >= 1 << 20)
        #expect(BoltOddsDecoders.split(big).halves && BoltOddsDecoders.split(other).halves)
        let small = Array(String(decoding: BoltOddsFastPathTests.state(games: 1, books: 2).dropFirst().dropLast(), as: UTF8.self)
            .components(separatedBy: #"},{"action""#)[0].appending("}").utf8)
        let frames = [big, small] + Array(repeating: small, count: 600) + [other, small]
        let path = try ReplayAheadTests.recording(frames, feed: "boltodds/odds", name: "ahead")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var expected: [FeedUpdate] = []
        for frame in frames { expected += try #require(BoltOddsDecoders.wholeUpdates(frame, now: now)) }
        // Decoded ahead (two cores or more) and in turn (one core): the same messages.
        for ahead in [true, false] {
            let stats = FeedStats()
            let decoder = ReplayDecoder([BoltOddsDecoders.oddsAdapter(now: now)], reader: try RecordingReader(path: path), stats: stats)
            var got: [FeedUpdate] = []
            var times: [Date] = []
            try decoder.forEach(ahead: ahead) { message in
                times.append(message.receivedAt)
                got.append(message.update)
            }
            #expect(got.count == expected.count && got == expected, "ahead: \(ahead)")
            #expect(times == times.sorted() && times.last == Date(timeIntervalSince1970: Double(frames.count - 1)))
            #expect(stats.frames == frames.count && stats.malformed == 0)
        }
    }

    @Test("A replay into a store with each game's books' views merged builds the store the views build one by one, decoded ahead or in turn")
    func replayMergedViews() throws {
        let now = Date(timeIntervalSince1970: 1_795_440_000)
        let big = BoltOddsFastPathTests.state(games: 700, books: 3)
        let small = Array(String(decoding: BoltOddsFastPathTests.state(games: 1, books: 2).dropFirst().dropLast(), as: UTF8.self)
            .components(separatedBy: #"},{"action""#)[0].appending("}").replacingOccurrences(of: "+100", with: "+155").utf8)
        // The state, then the first game's first book again (its price moves), then the state again.
        let frames = [big, small, big]
        let path = try ReplayAheadTests.recording(frames, feed: "boltodds/odds", name: "merged")
        defer { try? FileManager.default.removeItem(atPath: path) }
        func store(ahead: Bool, merging: Bool) throws -> (events: [Event], moves: Int, updates: Int) {
            let decoder = ReplayDecoder([BoltOddsDecoders.oddsAdapter(now: now)], reader: try RecordingReader(path: path), stats: FeedStats())
            var store = LiveStore(), updates = 0
            try decoder.forEach(ahead: ahead, mergingBookViews: merging) { message in
                updates += 1
                store.apply(message)
            }
            return (store.currentEvents(), store.events.values.reduce(0) { $0 + $1.moves.count }, updates)
        }
        let expected = try store(ahead: false, merging: false)
        #expect(expected.events.count == 700 && expected.moves > 0 && expected.updates == 700 * 3 * 2 + 1)
        for ahead in [true, false] {
            let got = try store(ahead: ahead, merging: true)
            #expect(got.events == expected.events && got.moves == expected.moves, "ahead: \(ahead)")
            #expect(got.updates <= 700 * 2 + 1 + 4, "ahead: \(ahead): \(got.updates) updates")
        }
    }

    /// A TickOdds feed of `count` frames over a few fixtures: odds updates that suspend and reopen
    /// lines, score updates whose refreshed events do not mention the suspensions, heartbeats, broken
    /// frames, matches that end and start again, and a snapshot now and then.
    static func tickOddsFrames(_ count: Int) -> [[UInt8]] {
        var random = SeededRandom(seed: 18)
        func event(_ id: Int, home: String, score: String) -> String {
            #"{"fixtureId":"\#(id)","sportName":"Soccer","home":"H\#(id)","away":"A\#(id)","score":"\#(score)","status":"in_progress","marketGroups":[{"name":"Fulltime Result","key":"full_time_result","period":"full_game","selections":[{"id":"\#(id):full_time_result:full_game:home","name":"H\#(id)","odds":\#(home),"side":"home","isMain":true},{"id":"\#(id):full_time_result:full_game:away","name":"A\#(id)","odds":3.10,"side":"away","isMain":true}]}]}"#
        }
        var frames: [String] = []
        for i in 0..<count {
            let id = random.int(1...6), home = "2.\(random.int(10...99))", score = "\(random.int(0...3))-\(random.int(0...3))"
            switch random.int(0...19) {
            case 0...8:
                let suspended = random.chance(0.4)
                frames.append(#"{"type":"update","fixtureId":"\#(id)","change":"odds","event":\#(event(id, home: home, score: score)),"selection":{"id":"\#(id):full_time_result:full_game:home","name":"H\#(id)","odds":\#(home),"handicap":null,"suspended":\#(suspended)},"marketName":"Fulltime Result"}"#)
            case 9...14:
                frames.append(#"{"type":"update","fixtureId":"\#(id)","change":"score","from":"0-0","to":"\#(score)","event":\#(event(id, home: home, score: score))}"#)
            case 15: frames.append(#"{"type":"heartbeat","timestamp":"2026-11-26T04:39:37Z"}"#)
            case 16: frames.append("{broken \(i)")
            case 17: frames.append(#"{"type":"match_end","fixtureId":"\#(id)","event":\#(event(id, home: home, score: score))}"#)
            case 18: frames.append(#"{"type":"match_start","event":\#(event(id, home: home, score: score))}"#)
            default:
                let events = (1...6).filter { _ in random.chance(0.7) }.map { event($0, home: "1.\(random.int(10...99))", score: "0-0") }
                frames.append(#"{"type":"snapshot","count":\#(events.count),"events":[\#(events.joined(separator: ","))]}"#)
            }
        }
        return frames.map { Array($0.utf8) }
    }

    @Test("A TickOdds replay read on both threads gives the updates of one connection reading every frame in turn, suspensions kept across batches")
    func sharedOut() throws {
        let frames = ReplayAheadTests.tickOddsFrames(1_500)
        let path = try ReplayAheadTests.recording(frames, feed: "tickodds/live", name: "shared")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let settings = ProviderSettings(key: nil, restURL: "", webSocketURL: "")
        // One connection, every frame in turn, as a live feed reads them.
        let live = TickOddsFeed(settings: settings, sport: nil)
        var expected: [FeedUpdate] = [], malformed = 0
        for frame in frames {
            do { expected += try live.receive(frame, first: false).updates } catch { malformed += 1 }
        }
        #expect(malformed > 20 && expected.contains { if case .price(let p) = $0 { return p.selection.suspended } else { return false } })
        #expect(expected.contains { if case .upsert(let e) = $0 { return e.markets.contains { $0.selections.contains(where: \.suspended) } } else { return false } },
                "a suspension kept in a refreshed event")
        let sharings: [ReplayDecoder.Sharing] = [.never, .every(1), .every(2), .every(3), .usual]
        for ahead in [true, false] {
            for sharing in sharings {
                let stats = FeedStats()
                let decoder = ReplayDecoder([TickOddsFeed(settings: settings, sport: nil)], reader: try RecordingReader(path: path), stats: stats)
                var got: [FeedUpdate] = [], times: [Date] = []
                try decoder.forEach(ahead: ahead, sharing: sharing) { message in
                    times.append(message.receivedAt)
                    got.append(message.update)
                }
                // A keepalive is a heartbeat on the stream.
                let updates = got.filter { $0 != .heartbeat }, wanted = expected.filter { $0 != .heartbeat }
                #expect(updates.count == wanted.count && updates == wanted, "ahead: \(ahead), \(sharing)")
                #expect(times == times.sorted(), "ahead: \(ahead), \(sharing)")
                #expect(stats.frames == frames.count && stats.malformed == malformed, "ahead: \(ahead), \(sharing)")
            }
        }
    }

    /// A connection whose frames are event ids, read on either thread; the state it keeps calls the
    /// frame "fatal" fatal (as a bad key sent as a message is).
    final class FatalAfterRead: FeedAdapter {
        let provider = ProviderID.tickodds
        let silenceLimit: TimeInterval? = nil
        func endpoint() throws -> (url: String, headers: [(String, String)]) { ("ws://127.0.0.1:1/", []) }
        func didConnect(_ link: FeedLink) {}
        func closeAction(code: Int?) -> CloseAction { .reconnect(reason: "closed") }
        func receive(_ frame: [UInt8], first: Bool) throws -> Inbound {
            receive(decoded: frame.withUnsafeBufferPointer { FatalAfterRead.read($0) }, first: first)
        }
        func detachedDecoder() -> DetachedDecoder? { { FatalAfterRead.read($0) } }
        func receive(decoded: consuming [FeedUpdate], first: Bool) -> Inbound {
            decoded.first?.eventID == "fatal" ? .fatal(.authentication(.tickodds, "Invalid API key")) : .data(decoded)
        }
        static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> [FeedUpdate] { [.remove(eventID: String(decoding: bytes, as: UTF8.self))] }
    }

    @Test("A frame that the folding thread reads and finds fatal ends the replay with its error, after every message before it")
    func fatalAfterRead() throws {
        let frames = (0..<1_000).map { Array(($0 == 700 ? "fatal" : "\($0)").utf8) }
        let path = try ReplayAheadTests.recording(frames, feed: "tickodds/live", name: "fatal-read")
        defer { try? FileManager.default.removeItem(atPath: path) }
        for ahead in [true, false] {
            for sharing in [ReplayDecoder.Sharing.never, .every(1), .every(2), .usual] {
                let decoder = ReplayDecoder([FatalAfterRead()], reader: try RecordingReader(path: path), stats: FeedStats())
                var got: [String] = []
                #expect(throws: OddsError.self, "ahead: \(ahead), \(sharing)") { try decoder.forEach(ahead: ahead, sharing: sharing) { got.append($0.update.eventID ?? "") } }
                #expect(got == (0..<700).map(String.init), "ahead: \(ahead), \(sharing)")
            }
        }
    }

    @Test("Batches are handed over undecoded as the sharing says: every nth, or while the folding thread has at most so many waiting")
    func sharingRule() {
        #expect((0..<6).map { ReplayDecoder.Sharing.every(2).handsOver(batch: $0, waiting: { 9 }) } == [true, false, true, false, true, false])
        #expect((0..<3).allSatisfy { ReplayDecoder.Sharing.every(1).handsOver(batch: $0, waiting: { 0 }) })
        #expect(!ReplayDecoder.Sharing.never.handsOver(batch: 0, waiting: { 0 }))
        #expect(ReplayDecoder.Sharing.balanced(below: 2).handsOver(batch: 5, waiting: { 1 }))
        #expect(!ReplayDecoder.Sharing.balanced(below: 2).handsOver(batch: 5, waiting: { 2 }))
    }

    @Test("A fatal frame ends a replay decoded ahead with its error, after every message before it")
    func fatal() throws {
        let now = Date(timeIntervalSince1970: 1_795_440_000)
        let small = Array(String(decoding: BoltOddsFastPathTests.state(games: 1, books: 2).dropFirst().dropLast(), as: UTF8.self)
            .components(separatedBy: #"},{"action""#)[0].appending("}").utf8)
        let bad = Array(#"{"action":"error","message":"Invalid API key"}"#.utf8)
        let path = try ReplayAheadTests.recording([small, small, small, bad, small], feed: "boltodds/odds", name: "fatal")
        defer { try? FileManager.default.removeItem(atPath: path) }
        for ahead in [true, false] {
            let decoder = ReplayDecoder([BoltOddsDecoders.oddsAdapter(now: now)], reader: try RecordingReader(path: path), stats: FeedStats())
            var got = 0
            #expect(throws: OddsError.self) { try decoder.forEach(ahead: ahead) { _ in got += 1 } }
            #expect(got == 3 * (try #require(BoltOddsDecoders.wholeUpdates(small, now: now))).count, "ahead: \(ahead)")
        }
    }
}
