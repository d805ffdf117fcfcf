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

/// The replay path is the benchmark path (issue 18): the recording reader's direct reading of the
/// layout `Recorder` writes agrees with reading a line member by member.
@Suite("Recording lines", .unitLane)
struct RecordingLineTests {
    @Test("Recorder's layout and any other member order read the same; text frames and CRLF too")
    func layouts() throws {
        let frame = #"{"type":"heartbeat","timestamp":"2026-11-22T04:39:37Z"}"#
        let written = Recorder.line(feed: "tickodds/live", bytes: Array(frame.utf8), at: Date(timeIntervalSince1970: 1.5), demo: true)
        let fast = try #require(RecordingReader.parse(Array(written.dropLast())))
        #expect(fast.t == 1500 && fast.feed == "tickodds/live" && fast.demo && fast.bytes == Array(frame.utf8))
        let reordered = #"{"frame":\#(frame),"demo":true,"feed":"tickodds/live","t":1500}"#
        let slow = try #require(RecordingReader.parse(Array(reordered.utf8)))
        #expect(slow.t == fast.t && slow.feed == fast.feed && slow.demo == fast.demo && slow.bytes == fast.bytes)
        let crlf = try #require(RecordingReader.parse(Array(#"{"t":7,"feed":"pulsescore/live-tennis","frame":[1,2]}"#.utf8) + [0x0D]))
        #expect(crlf.bytes == Array("[1,2]".utf8) && crlf.feed == "pulsescore/live-tennis" && !crlf.demo)
        let text = Recorder.line(feed: "boltodds/odds", bytes: Array("not json".utf8), at: Date(timeIntervalSince1970: 2), demo: false)
        #expect(RecordingReader.parse(Array(text.dropLast()))?.bytes == Array("not json".utf8))
        // Not a recording line: refused either way.
        for bad in [#"{"t":1,"feed":"nofeed","frame":{}}"#, #"{"t":"x","feed":"a/b","frame":{}}"#, "[]", #"{"t":1,"feed":"a/b","frame":"#] {
            #expect(RecordingReader.parse(Array(bad.utf8)) == nil, "\(bad)")
        }
    }

    @Test("A recorder writes each frame as its line: JSON as it is between head and tail, raw line breaks as spaces, text quoted")
    func recorderWrites() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("odds-rec-\(UUID().uuidString).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let frames = [#"{"a":[1,2]}"#, "{\"a\":\r\n[1,\n2]}", "not json", "[" + String(repeating: "1,", count: 200_000) + "1]", ""]
        let recorder = try Recorder(path: path, demo: true)
        var expected: [UInt8] = []
        for (i, frame) in frames.enumerated() {
            let at = Date(timeIntervalSince1970: Double(i) + 0.25)
            Array(frame.utf8).withUnsafeBufferPointer { recorder.frame(feed: "boltodds/odds", bytes: $0, at: at) }
            expected += Recorder.line(feed: "boltodds/odds", bytes: Array(frame.utf8), at: at, demo: true)
        }
        #expect(recorder.frames == frames.count && recorder.bytes == expected.count && !recorder.failed)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == expected)
        let back = try RecordingReader(path: path)
        #expect(back.next()?.bytes == Array(frames[0].utf8))
        #expect(back.next()?.bytes == Array("{\"a\":  [1, 2]}".utf8))
    }

    @Test("A file read through ReplayDecoder gives each frame's updates, with the recorded time, and counts bad frames")
    func decoder() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("odds-replay-\(UUID().uuidString).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let good = #"{"type":"heartbeat","timestamp":"2026-11-22T04:39:37Z"}"#
        var text = ""
        for (i, frame) in [good, "{broken", good].enumerated() {
            text += String(decoding: Recorder.line(feed: "tickodds/live", bytes: Array(frame.utf8), at: Date(timeIntervalSince1970: Double(i)), demo: false), as: UTF8.self)
        }
        text += "not a recording line\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let stats = FeedStats()
        let decoder = ReplayDecoder([TickOddsFeed(settings: ProviderSettings(key: nil, restURL: "", webSocketURL: ""), sport: nil)],
                                    reader: try RecordingReader(path: path), stats: stats)
        var times: [Int64] = []
        while let step = decoder.next() { times.append(step.t); #expect(step.messages.allSatisfy { $0.connection == "live" }) }
        #expect(times == [0, 2000] && stats.frames == 3 && stats.malformed == 1)
    }
}
