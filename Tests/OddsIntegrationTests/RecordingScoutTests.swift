import Foundation
import OddsTestSupport
@testable import OddsTransport
import Testing

/// The scout that finds a recording's long lines ahead of its reader (`RecordingScout`). Its tests wait for the scout's
/// thread by blocking theirs (up to ten seconds a wait on a loaded machine): on the heavy lane, never on the pool's two
/// threads, whose stall held every socket test of a run at "connecting" for half a minute.
@Suite("Recording scout", .heavyLane)
struct RecordingScoutTests {
    static func temporary() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("odds-scout-\(UUID().uuidString).ndjson").path
    }

    /// Recording lines of frames padded to `sizes` bytes.
    static func lines(_ sizes: [Int]) -> [String] {
        sizes.enumerated().map { i, size in
            "{\"t\":\(i),\"feed\":\"boltodds/odds\",\"frame\":{\"pad\":\"" + String(repeating: "s", count: size) + "\"}}"
        }
    }

    /// Waits (at most 10 s) for the scout to stop looking.
    static func settle(_ scout: RecordingScout) throws {
        let deadline = Date().addingTimeInterval(10)
        while !scout.isDone && Date() < deadline { usleep(1_000) }
        try #require(scout.isDone)
    }

    /// Every frame of `path` through a reader with `scout`: (t, frame bytes, taken from the scout).
    static func read(_ path: String, scout: RecordingScout?) throws -> [(t: Int64, bytes: [UInt8], scouted: Bool)] {
        let reader = try RecordingReader(path: path, scout: scout)
        var frames: [(Int64, [UInt8], Bool)] = []
        while frames.count < 20_000, let view = reader.nextView() {
            frames.append((view.t, Array(view.bytes), reader.lastLineScouted))
        }
        #expect(reader.malformed == 0)
        return frames
    }

    @Test("The scout lists a recording's long lines; a reader takes each from the scout's mapping and reads the same frames as one without")
    func longLinesFromTheScout() throws {
        let path = RecordingScoutTests.temporary()
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Long lines one after another (a state's frames), short ones between, one just under the 64 KiB mark.
        let sizes = [10, 200_000, 300_000, 5, 70_000, 9, (1 << 16) - 200, 250_000, 3]
        let lines = RecordingScoutTests.lines(sizes)
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let long = lines.map { $0.utf8.count >= RecordingReader.firstChunk }
        #expect(long == [false, true, true, false, true, false, false, true, false])

        let scout = try #require(RecordingScout(path: path))
        try RecordingScoutTests.settle(scout)
        #expect(scout.found == 4)
        let scouted = try RecordingScoutTests.read(path, scout: scout)
        let plain = try RecordingScoutTests.read(path, scout: nil)
        #expect(scouted.count == sizes.count && plain.count == sizes.count)
        for i in sizes.indices where i < scouted.count && i < plain.count {
            #expect(scouted[i].t == Int64(i) && scouted[i].bytes == plain[i].bytes, "frame \(i)")
            #expect(scouted[i].bytes.elementsEqual(lines[i].utf8.dropFirst("{\"t\":\(i),\"feed\":\"boltodds/odds\",\"frame\":".utf8.count).dropLast()), "frame \(i)")
            #expect(scouted[i].scouted == long[i], "frame \(i)")
            #expect(!plain[i].scouted)
        }
        // A second reader of the same file takes the same lines from the same scout.
        #expect(try RecordingScoutTests.read(path, scout: scout).map(\.scouted) == long)
    }

    @Test("A file changed after it was scouted is read by itself; so is a recording of short lines, which the scout gives up on")
    func changedOrShortLines() throws {
        let path = RecordingScoutTests.temporary()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let lines = RecordingScoutTests.lines([100_000, 7, 120_000])
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let scout = try #require(RecordingScout(path: path))
        try RecordingScoutTests.settle(scout)
        #expect(scout.found == 2)
        // Appended to: another size, so the scout's lines may not be where they were.
        let more = RecordingScoutTests.lines([1, 2, 3, 90_000])[3]
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data((more + "\n").utf8))
        try handle.close()
        let read = try RecordingScoutTests.read(path, scout: scout)
        #expect(read.map(\.t) == [0, 1, 2, 3] && read.allSatisfy { !$0.scouted })
        #expect(read.last?.bytes.count == 90_000 + "{\"pad\":\"\"}".utf8.count)

        // 2 MiB of short lines, then a long one: the scout stops 1 MiB past the start, having found none.
        let short = RecordingScoutTests.temporary()
        defer { try? FileManager.default.removeItem(atPath: short) }
        let shortLines = RecordingScoutTests.lines(Array(repeating: 100, count: 15_000) + [200_000])
        try (shortLines.joined(separator: "\n") + "\n").write(toFile: short, atomically: true, encoding: .utf8)
        let giving = try #require(RecordingScout(path: short))
        try RecordingScoutTests.settle(giving)
        #expect(giving.found == 0)
        let frames = try RecordingScoutTests.read(short, scout: giving)
        #expect(frames.count == shortLines.count && frames.allSatisfy { !$0.scouted })
        #expect(frames.last?.bytes.count == 200_000 + "{\"pad\":\"\"}".utf8.count)
    }

    @Test("Only a non-empty regular file is scouted, and a FIFO with no writer does not hold the scout up")
    func onlyRegularFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("odds-scout-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let started = Date()
        #expect(RecordingScout(path: fifo) == nil)
        #expect(Date().timeIntervalSince(started) < 2)
        #expect(RecordingScout(path: dir) == nil)
        #expect(RecordingScout(path: dir + "/missing") == nil)
        #expect(FileManager.default.createFile(atPath: dir + "/empty", contents: Data()))
        #expect(RecordingScout(path: dir + "/empty") == nil)
    }

    @Test("The recording to scout is the last --replay's value, as the words stand")
    func replayPath() {
        #expect(RecordingScout.replayPath(["odds", "live", "--replay", "a.ndjson", "--speed", "max"]) == "a.ndjson")
        #expect(RecordingScout.replayPath(["odds", "live", "--replay=b.ndjson"]) == "b.ndjson")
        #expect(RecordingScout.replayPath(["odds", "live", "--replay", "a", "--replay=c"]) == "c")
        #expect(RecordingScout.replayPath(["odds", "live", "--replay", "-"]) == nil)
        #expect(RecordingScout.replayPath(["odds", "live", "--replay"]) == nil)
        #expect(RecordingScout.replayPath(["odds", "live", "--", "--replay", "x"]) == nil)
        #expect(RecordingScout.replayPath(["odds", "live", "--sport", "soccer"]) == nil)
    }
}

extension RecordingScoutTests {
    /// KiB of the mapping at `base` resident in this process (`Rss` in `/proc/self/smaps`); nil if not found.
    static func residentKiB(at base: UInt) -> Int? {
        // Read to its end (procfs gives no size to read by).
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/smaps"), let data = try? handle.readToEnd() else { return nil }
        try? handle.close()
        let smaps = String(decoding: data, as: UTF8.self)
        var inside = false
        for line in smaps.split(separator: "\n") {
            if let dash = line.firstIndex(of: "-"), let start = UInt(line[..<dash], radix: 16), line[dash...].contains(" ") {
                inside = start == base
            } else if inside, line.hasPrefix("Rss:") {
                return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
            }
        }
        return nil
    }

    @Test("Pages of the lines a reader is done with are given back by the scout's thread: a replay holds one frame of the file, not all it has read")
    func pagesGivenBack() throws {
        let path = RecordingScoutTests.temporary()
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Lines of 3 MB: pages are given back in whole 2 MiB blocks of the file (`odds_scout_release`).
        let lines = RecordingScoutTests.lines([3_000_000, 3_000_000, 3_000_000, 3_000_000])
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let scout = try #require(RecordingScout(path: path))
        try RecordingScoutTests.settle(scout)
        #expect(scout.found == 4)
        let base = scout.mapping.base
        // The scout read the whole file: its pages are mapped (about 12 MB).
        let full = try #require(RecordingScoutTests.residentKiB(at: base))
        #expect(full > 11_000)
        func settled(below kib: Int) -> Int? {
            let deadline = Date().addingTimeInterval(10)
            var now = RecordingScoutTests.residentKiB(at: base)
            while let n = now, n >= kib, Date() < deadline { usleep(2_000); now = RecordingScoutTests.residentKiB(at: base) }
            return now
        }
        let reader = try RecordingReader(path: path, scout: scout)
        _ = try #require(reader.nextView())
        _ = try #require(reader.nextView())
        // The first frame is done with once the second is asked for: its first 2 MiB back (the block it
        // shares with the second frame is kept).
        let afterOne = try #require(settled(below: full - 2_000))
        #expect(afterOne < full - 2_000)
        while reader.nextView() != nil {}
        // All done with: nothing but the last partial page is held.
        let afterAll = try #require(settled(below: 16))
        #expect(afterAll < 16)
    }
}
