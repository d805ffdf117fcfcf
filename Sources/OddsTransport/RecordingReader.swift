import CFileMap
import Foundation
import NIOConcurrencyHelpers
import OddsJSON
import OddsModel

/// Reads a recording line by line, holding one line at a time (a line may be tens of MB).
public final class RecordingReader {
    private let handle: FileHandle
    /// The bytes read and not yet taken, `storage[start..<count]`, in memory of its own: the file is
    /// read straight into it (no `Data` in between), and a line is parsed where it lies.
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity = RecordingReader.usualCapacity
    private var count = 0
    private var start = 0
    private var atEnd = false
    /// Bytes of the file read so far (the file offset of `storage[count]`).
    private var position: Int64 = 0
    /// A line longer than a first read (64 KiB), mapped from the file rather than read (`odds_map_file`):
    /// no copy, and no fresh memory to fault in for tens of MB. Unmapped by `endView`.
    private var mapped: odds_file_map?
    /// Whether the recording is a regular file (a pipe or a terminal is read, never mapped).
    private let mappable: Bool
    public let path: String
    /// The scout of this very file, whose mapping a long line is taken from when it has found the line's end.
    private let scout: RecordingScout?
    /// Whether the last line came from the scout (for tests).
    var lastLineScouted: Bool { scoutedEnd != nil }
    /// Where the last line taken from the scout ends (the next line's offset), until the reader is done with it.
    private var scoutedEnd: Int64?
    /// Lines that were not recording lines, skipped.
    public private(set) var malformed = 0
    public private(set) var lineNumber = 0

    /// A reader of the recording at `path`; `scout`, when it scouts this very file (unchanged), gives
    /// its long lines (by default the scout started for this process's replay, `RecordingScout.early`).
    public init(path: String, scout: RecordingScout? = RecordingScout.early) throws {
        self.path = path
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw OddsError.usage("Cannot read the recording \(path): \(FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file").")
        }
        self.handle = handle
        var info = stat()
        mappable = fstat(handle.fileDescriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        self.scout = mappable && scout?.matches(handle.fileDescriptor) == true ? scout : nil
        storage = RecordingReader.allocate(capacity)
    }

    deinit {
        if let held { free(held.baseAddress) }
        if var mapped { odds_unmap_file(&mapped) }
        free(storage)
        try? handle.close()
    }

    /// The next frame, or nil at the end of the file. Lines that are not recording lines are counted and skipped.
    public func next() -> RecordedFrame? {
        guard let view = nextView() else { return nil }
        let frame = RecordedFrame(t: view.t, feed: view.feed, demo: view.demo, bytes: Array(view.bytes))
        // A line of tens of MB grew the storage; its frame is copied out, so the storage goes back
        // to its usual size before the frame is decoded (the peak is the frame, not the frame twice).
        endView()
        return frame
    }

    /// A frame where the reader holds it, without a copy: `bytes` are valid until the reader's next call.
    public struct FrameView {
        public var t: Int64
        public var feed: String
        public var demo: Bool
        public var bytes: UnsafeBufferPointer<UInt8>
        public var date: Date { Date(timeIntervalSince1970: Double(t) / 1000) }
    }

    /// The next frame in place (`odds live --replay` decodes it where it was read), or nil at the end
    /// of the file. Lines that are not recording lines are counted and skipped.
    public func nextView() -> FrameView? {
        endView()
        while let b = nextLine() {
            lineNumber += 1
            if b.isEmpty { continue }
            if let (t, feed, demo, range) = RecordingReader.layout(b) {
                return FrameView(t: t, feed: feed, demo: demo, bytes: UnsafeBufferPointer(rebasing: b[range]))
            }
            if let frame = RecordingReader.members(b) {
                let copy = UnsafeMutableBufferPointer(start: RecordingReader.allocate(max(1, frame.bytes.count)), count: frame.bytes.count)
                _ = copy.initialize(from: frame.bytes)
                held = copy
                return FrameView(t: frame.t, feed: frame.feed, demo: frame.demo, bytes: UnsafeBufferPointer(copy))
            }
            malformed += 1
        }
        return nil
    }

    /// The bytes of the last view when they were not the line itself (a frame read member by member).
    private var held: UnsafeMutableBufferPointer<UInt8>?

    /// Done with the last view (its bytes are invalid after this): a long line's storage and a frame
    /// read member by member are let go of now rather than at the next read.
    public func endView() {
        if capacity > RecordingReader.usualCapacity { shrink() }
        if let held { free(held.baseAddress); self.held = nil }
        if var map = mapped { odds_unmap_file(&map); mapped = nil }
        if let end = scoutedEnd { scout?.release(before: end); scoutedEnd = nil }
    }

    /// Whether the last line was mapped from the file rather than read (for tests).
    var lastLineMapped: Bool { mapped != nil }

    static let usualCapacity = 1 << 22

    /// Bytes of storage held now (for tests: back to `usualCapacity` once a long line is done with).
    var storageCapacity: Int { capacity }

    /// The storage is C memory (`malloc`, `realloc`, `free`), so that it can grow in place.
    private static func allocate(_ bytes: Int) -> UnsafeMutablePointer<UInt8> {
        guard let p = malloc(bytes) else { fatalError("out of memory reading a recording") }
        return p.assumingMemoryBound(to: UInt8.self)
    }

    /// Moves what is left to storage of the usual size, if it fits.
    private func shrink() {
        let left = count - start
        guard left + (1 << 20) <= RecordingReader.usualCapacity else { return }
        let smaller = RecordingReader.allocate(RecordingReader.usualCapacity)
        if left > 0 { smaller.update(from: storage + start, count: left) }
        free(storage)
        storage = smaller
        capacity = RecordingReader.usualCapacity
        scanned -= start
        count = left
        start = 0
    }

    /// Where the search for the next newline resumes: a long line is scanned once, not once per chunk.
    private var scanned = 0

    /// The next line (valid until the next call), without its newline.
    private func nextLine() -> UnsafeBufferPointer<UInt8>? {
        while true {
            let from = max(start, scanned)
            if from < count, let hit = memchr(storage + from, 0x0A, count - from) {
                let nl = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - UnsafePointer(storage)
                let line = UnsafeBufferPointer(start: storage + start, count: nl - start)
                start = nl + 1
                scanned = start
                return line
            }
            if atEnd {
                guard start < count else { return nil }
                let line = UnsafeBufferPointer(start: storage + start, count: count - start)
                start = count
                return line
            }
            scanned = count
            // A long line the scout has found whole: taken from its mapping, with no more of it read.
            if scout != nil, let line = scoutedLine(at: position - Int64(count - start), begun: count - start) { return line }
            if count - start >= RecordingReader.firstChunk, let line = mapLine() { return line }
            fill()
        }
    }

    /// The line begun in the storage, mapped from the file to its newline (or the file's end), once
    /// `firstChunk` bytes of it are read without its end and the file can be mapped; nil to read on instead. The
    /// file is read on after the line.
    private func mapLine() -> UnsafeBufferPointer<UInt8>? {
        guard mappable else { return nil }
        var info = stat()
        guard fstat(handle.fileDescriptor, &info) == 0, Int64(info.st_size) > position else { return nil }
        let begun = count - start
        let lineStart = position - Int64(begun)
        let length = Int(Int64(info.st_size) - lineStart)
        var map = odds_file_map()
        guard odds_map_file(handle.fileDescriptor, lineStart, length, &map) == 0, let bytes = map.bytes else { return nil }
        var end = length
        if let hit = memchr(bytes + begun, 0x0A, length - begun) {
            end = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - bytes
        }
        let next = lineStart + Int64(min(end + 1, length))
        guard lseek(handle.fileDescriptor, off_t(next), SEEK_SET) == off_t(next) else {
            odds_unmap_file(&map)
            return nil
        }
        mapped = map
        position = next
        count = 0; start = 0; scanned = 0
        // Long lines come in runs (a state's frames, one after another): the line after is read a
        // little first, so that if it is long too it is mapped without 1 MiB read and thrown away.
        readSmall = true
        if end == length { atEnd = true }
        return UnsafeBufferPointer(start: bytes, count: end)
    }

    /// The long line at file offset `lineStart`, of which `begun` bytes are in the storage, from the
    /// scout's mapping (valid as long as the scout); nil when the scout has not found its end. The file
    /// is read on after the line.
    private func scoutedLine(at lineStart: Int64, begun: Int) -> UnsafeBufferPointer<UInt8>? {
        guard let line = scout?.line(at: lineStart), line.count >= begun else { return nil }
        let next = lineStart + Int64(line.count) + 1
        guard lseek(handle.fileDescriptor, off_t(next), SEEK_SET) == off_t(next) else { return nil }
        position = next
        count = 0; start = 0; scanned = 0
        readSmall = true
        scoutedEnd = next
        return line
    }

    /// Bytes read at a time.
    private static let chunk = 1 << 20
    /// Bytes read first, and after a mapped line; a line not ended within them is mapped.
    public static let firstChunk = 1 << 16
    /// Whether the next read is of `firstChunk` bytes.
    private var readSmall = true

    /// Reads the next chunk (1 MiB; `firstChunk` when `readSmall`) behind what is left; the lines taken
    /// go first, and the storage doubles for a line longer than it.
    private func fill() {
        let chunk = RecordingReader.chunk
        if start > 0 {
            count -= start
            scanned -= start
            if count > 0 { memmove(storage, storage + start, count) }
            start = 0
        }
        if capacity - count < chunk {
            var grown = capacity
            while grown - count < chunk { grown *= 2 }
            // `realloc`: extended in place where it can be; past the allocator's mapping threshold (32 MiB)
            // the storage is a mapping of its own, which the kernel moves instead of copying, so a line of
            // tens of MB never holds the old and the new storage at once.
            guard let bigger = realloc(storage, grown) else { fatalError("out of memory reading \(path)") }
            storage = bigger.assumingMemoryBound(to: UInt8.self)
            capacity = grown
        }
        // The first read, and the one after a mapped line, is small: a reader often wants only the first
        // line (the replay's probe of the recording), and each page read into is a page touched for the first time.
        let size = readSmall ? RecordingReader.firstChunk : chunk
        readSmall = false
        var n: Int
        repeat { n = read(handle.fileDescriptor, storage + count, size) } while n < 0 && errno == EINTR
        if n > 0 { count += n; position += Int64(n) } else { atEnd = true }
    }

    /// Parses one recording line; nil if it is not one.
    public static func parse(_ line: [UInt8]) -> RecordedFrame? {
        line.withUnsafeBufferPointer { parse($0) }
    }

    /// Parses one recording line. The layout `Recorder` writes (`{"t":N,"feed":"…"[,"demo":B],"frame":…}`)
    /// is read directly, the frame's bytes taken without scanning them (its decoder reads them and
    /// refuses what is not JSON); any other line, or a frame under `"text"`, member by member.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> RecordedFrame? {
        recorderLayout(bytes) ?? members(bytes)
    }

    /// A line exactly as `Recorder` writes it; nil for anything else.
    static func recorderLayout(_ b: UnsafeBufferPointer<UInt8>) -> RecordedFrame? {
        guard let (t, feed, demo, range) = layout(b) else { return nil }
        return RecordedFrame(t: t, feed: feed, demo: demo, bytes: Array(UnsafeBufferPointer(rebasing: b[range])))
    }

    /// `recorderLayout`'s reading: the members and where the frame lies in the line.
    static func layout(_ b: UnsafeBufferPointer<UInt8>) -> (t: Int64, feed: String, demo: Bool, frame: Range<Int>)? {
        var i = 0
        func literal(_ text: StaticString) -> Bool {
            let n = text.utf8CodeUnitCount
            guard i + n <= b.count, memcmp(b.baseAddress! + i, text.utf8Start, n) == 0 else { return false }
            i += n
            return true
        }
        guard literal("{\"t\":") else { return nil }
        var t: Int64 = 0, digits = 0
        let negative = i < b.count && b[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        while i < b.count, b[i] >= 0x30, b[i] <= 0x39, digits < 18 { t = t * 10 + Int64(b[i] - 0x30); i += 1; digits += 1 }
        guard digits > 0, literal(",\"feed\":\"") else { return nil }
        let feedStart = i
        // A plain feed name: printable ASCII, no escapes.
        while i < b.count, b[i] != UInt8(ascii: "\""), b[i] != UInt8(ascii: "\\"), b[i] >= 0x20, b[i] < 0x7F { i += 1 }
        guard i < b.count, b[i] == UInt8(ascii: "\""), i > feedStart else { return nil }
        let feed = String(decoding: UnsafeBufferPointer(rebasing: b[feedStart..<i]), as: UTF8.self)
        i += 1
        var demo = false
        if literal(",\"demo\":true") { demo = true } else { _ = literal(",\"demo\":false") }
        guard literal(",\"frame\":") else { return nil }
        var end = b.count
        while end > i, b[end - 1] == 0x20 || b[end - 1] == 0x0D || b[end - 1] == 0x09 { end -= 1 }
        guard end > i + 1, b[end - 1] == UInt8(ascii: "}"), feed.utf8.contains(UInt8(ascii: "/")) else { return nil }
        return (negative ? -t : t, feed, demo, i..<(end - 1))
    }

    /// A line read member by member (a recording line written by hand, or with its members reordered).
    static func members(_ bytes: UnsafeBufferPointer<UInt8>) -> RecordedFrame? {
        guard let members = try? JSONSpan.members(bytes) else { return nil }
        var t: Int64?
        var feed: String?
        var demo = false
        var frame: [UInt8]?
        for (key, range) in members {
            let value = UnsafeBufferPointer(rebasing: bytes[range])
            switch key {
            case "t":
                if case .number(let n)? = try? JSONParser.parse(bytes: value) { t = Int64(n) }
            case "feed":
                if case .string(let s)? = try? JSONParser.parse(bytes: value) { feed = s }
            case "demo":
                if case .bool(let b)? = try? JSONParser.parse(bytes: value) { demo = b }
            case "frame":
                frame = Array(value)
            case "text":
                if case .string(let s)? = try? JSONParser.parse(bytes: value) { frame = Array(s.utf8) }
            default:
                break
            }
        }
        guard let t, let feed, feed.contains("/"), let frame else { return nil }
        return RecordedFrame(t: t, feed: feed, demo: demo, bytes: frame)
    }
}
