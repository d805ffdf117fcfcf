import CFileMap
import Foundation
import NIOConcurrencyHelpers
import OddsJSON
import OddsModel

/// Writes every frame the client receives as one NDJSON line:
/// `{"t":<unix ms>,"feed":"<provider>/<connection>","frame":<the frame, verbatim>}`.
///
/// A frame that is JSON is kept verbatim (line breaks between tokens become spaces); one that is not is
/// kept as a string under `"text"`. Demo recordings carry `"demo":true`. Each line is written whole with
/// one `writev(2)` loop and no buffering, so `kill -9` loses at most the line in flight.
public final class Recorder: FrameTap, @unchecked Sendable {
    // @unchecked: the descriptor is written only under `lock`; the counters too.
    private let lock = NIOLock()
    private let fd: Int32
    private let ownsDescriptor: Bool
    private let demo: Bool
    private var _frames = 0
    private var _bytes = 0
    private var _failed = false

    /// Records to `path` (created or truncated, mode 0644), or to stdout for nil or "-".
    public init(path: String?, demo: Bool) throws {
        self.demo = demo
        if let path, path != "-" {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                throw OddsError.usage("Cannot write the recording to \(path): \(String(cString: strerror(errno))).")
            }
            self.fd = fd
            ownsDescriptor = true
        } else {
            fd = STDOUT_FILENO
            ownsDescriptor = false
        }
    }

    deinit { if ownsDescriptor { close(fd) } }

    public var frames: Int { lock.withLock { _frames } }
    public var bytes: Int { lock.withLock { _bytes } }
    /// True once a write failed (disk full, closed pipe); later frames are not recorded.
    public var failed: Bool { lock.withLock { _failed } }

    public func frame(feed: String, bytes: UnsafeBufferPointer<UInt8>, at: Date) {
        // A JSON frame with no raw line break goes out as it is, between its line's head and tail:
        // a frame of tens of MB is not copied into a line of its own first.
        let isJSON = JSONScanner.isJSON(bytes)
        let asIs = isJSON && !Recorder.hasLineBreak(bytes)
        let line = asIs ? Recorder.head(feed: feed, at: at, demo: demo) + Array(",\"frame\":".utf8)
                        : Recorder.line(feed: feed, bytes: bytes, at: at, demo: demo, isJSON: isJSON)
        let tail: [UInt8] = asIs ? Array("}\n".utf8) : []
        lock.withLock {
            guard !_failed else { return }
            let ok = line.withUnsafeBytes { head in
                tail.withUnsafeBytes { tail in Recorder.writeAll(fd, [head, UnsafeRawBufferPointer(asIs ? bytes : .init(start: nil, count: 0)), tail]) }
            }
            let count = line.count + (asIs ? bytes.count + tail.count : 0)
            if ok { _frames += 1; _bytes += count } else { _failed = true }
        }
    }

    /// Writes the parts one after the other with `writev` (one call for the lot, as a rule), resuming
    /// after a short write or a signal; false when the descriptor fails.
    private static func writeAll(_ fd: Int32, _ parts: [UnsafeRawBufferPointer]) -> Bool {
        var vectors = parts.filter { $0.count > 0 }.map { iovec(iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress), iov_len: $0.count) }
        var first = 0
        while first < vectors.count {
            let n = vectors[first...].withUnsafeBufferPointer { writev(fd, $0.baseAddress, Int32($0.count)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            var left = n
            while first < vectors.count, left >= vectors[first].iov_len { left -= vectors[first].iov_len; first += 1 }
            if left > 0 {
                vectors[first].iov_base = vectors[first].iov_base.map { $0 + left }
                vectors[first].iov_len -= left
            }
        }
        return true
    }

    private static func hasLineBreak(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        return memchr(base, 0x0A, bytes.count) != nil || memchr(base, 0x0D, bytes.count) != nil
    }

    /// A line's start: `{"t":…,"feed":…` and `,"demo":true` for demo data.
    private static func head(feed: String, at: Date, demo: Bool) -> [UInt8] {
        let ms = Int64((at.timeIntervalSince1970 * 1000).rounded())
        var out = Array("{\"t\":\(ms),\"feed\":".utf8)
        out += Array(JSONWriter.quote(feed).utf8)
        if demo { out += Array(",\"demo\":true".utf8) }
        return out
    }

    /// One recording line, newline included.
    public static func line(feed: String, bytes: [UInt8], at: Date, demo: Bool) -> [UInt8] {
        bytes.withUnsafeBufferPointer { line(feed: feed, bytes: $0, at: at, demo: demo) }
    }

    /// One recording line of bytes where they are.
    public static func line(feed: String, bytes: UnsafeBufferPointer<UInt8>, at: Date, demo: Bool) -> [UInt8] {
        line(feed: feed, bytes: bytes, at: at, demo: demo, isJSON: JSONScanner.isJSON(bytes))
    }

    private static func line(feed: String, bytes: UnsafeBufferPointer<UInt8>, at: Date, demo: Bool, isJSON: Bool) -> [UInt8] {
        var out = head(feed: feed, at: at, demo: demo)
        out.reserveCapacity(out.count + bytes.count + 16)
        if isJSON {
            out += Array(",\"frame\":".utf8)
            // Raw line breaks can only be whitespace between tokens in valid JSON.
            for b in bytes { out.append(b == 0x0A || b == 0x0D ? 0x20 : b) }
        } else {
            out += Array(",\"text\":".utf8)
            out += Array(JSONWriter.quote(String(decoding: bytes, as: UTF8.self)).utf8)
        }
        out += Array("}\n".utf8)
        return out
    }
}

/// One line of a recording.
public struct RecordedFrame: Sendable {
    /// When it was received, in Unix milliseconds.
    public var t: Int64
    /// `"<provider>/<connection>"`.
    public var feed: String
    public var demo: Bool
    /// The frame's bytes: the JSON verbatim, or the text of a non-JSON frame.
    public var bytes: [UInt8]

    /// The provider part of `feed`, as the registry names providers.
    public var providerName: String { RecordedFrame.providerName(of: feed) }
    /// The provider part of a recording line's `feed` ("boltodds" of "boltodds/odds").
    public static func providerName(of feed: String) -> String { String(feed.prefix(while: { $0 != "/" })) }
    public var connection: String { feed.split(separator: "/", maxSplits: 1).dropFirst().first.map(String.init) ?? "" }
    public var date: Date { Date(timeIntervalSince1970: Double(t) / 1000) }
}

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

/// How fast a recording is replayed.
public enum ReplaySpeed: Sendable, Equatable {
    /// As fast as the consumer takes it.
    case max
    /// `factor` times real time (2 = twice as fast).
    case times(Double)

    /// "max", or a positive number such as 1, 2, 0.5 or "10x".
    public init?(_ text: String) {
        let t = text.lowercased().trimmingSpaces
        if t == "max" { self = .max; return }
        let number = t.hasSuffix("x") ? String(t.dropLast()) : t
        guard let f = Double(number), f.isFinite, f > 0, f <= 1_000_000 else { return nil }
        self = .times(f)
    }
}

/// Decodes a recording frame by frame through a provider's own adapters, the same path from frame to
/// normalized update as a live connection, without a task or a queue in between: `odds live
/// --replay` folds its messages straight into a store, `FeedReplay.run` hands them to a stream, and
/// `odds-bench ingest` times exactly this.
public final class ReplayDecoder {
    private var byFeed: [String: any FeedAdapter] = [:]
    private var unknown = Set<String>()
    private var started = Set<String>()
    private let reader: RecordingReader
    private let stats: FeedStats
    private let more: (String) -> (any FeedAdapter)?

    /// `more` makes the adapter of a connection the recording names that `adapters` lack (a
    /// multi-sport recording replayed without `--sport`), so that nothing recorded is left out.
    public init(_ adapters: [any FeedAdapter], reader: RecordingReader, stats: FeedStats,
                more: @escaping (String) -> (any FeedAdapter)? = { _ in nil }) {
        for a in adapters { byFeed[a.feedName] = a }
        self.reader = reader
        self.stats = stats
        self.more = more
        // A replay is one connection, made at once.
        stats.connected()
    }

    /// One decoded frame: when it was received (Unix ms) and its messages.
    public struct Step {
        public var t: Int64
        public var messages: [FeedMessage]
        /// Set when the provider called the frame fatal: the replay ends with it.
        public var fatal: OddsError?
    }

    /// The next frame of a known connection, decoded; nil at the end. Undecodable frames are
    /// counted in `stats` and skipped.
    public func next() -> Step? {
        var step: Step?
        _ = forEachFrame { t, inbound, adapter, date in
            if case .fatal(let error) = inbound { step = Step(t: t, messages: [], fatal: error); return false }
            var messages: [FeedMessage] = []
            ReplayDecoder.handOver(&inbound, from: adapter, at: date) { messages.append($0) }
            step = Step(t: t, messages: messages)
            return false
        }
        // The frame is decoded: its line's storage is not held while the messages are handed on.
        reader.endView()
        return step
    }

    /// How the decoding thread shares frames out with the folding one. A connection that can be read
    /// on two threads (`FeedAdapter.detachedDecoder`) has some batches of its frames handed over
    /// undecoded, for the folding thread to read before it folds them: on two cores, decoding alone
    /// takes longer than folding (a TickOdds firehose), so one thread would wait on the other.
    public enum Sharing: Sendable, Equatable {
        /// A batch is handed over undecoded while fewer than `below` batches wait for the folding
        /// thread (it is about to run out of work), and decoded on the decoding thread otherwise.
        case balanced(below: Int)
        /// Every `n`th batch handed over undecoded, the first among them (tests: both ways, in an
        /// order known beforehand; 1: all).
        case every(Int)
        /// All decoded on the decoding thread.
        case never

        /// The usual: handed over undecoded when only the batch just handed on waits, that is when the
        /// folding thread is about to run out of work. On a TickOdds firehose replay this kept both threads
        /// busy: faster than handing none over or a fixed share of the batches.
        public static let usual = Sharing.balanced(below: 2)

        /// Whether the batch numbered `batch` (from 0) is handed over undecoded, `waiting` batches waiting.
        func handsOver(batch: Int, waiting: () -> Int) -> Bool {
            switch self {
            case .balanced(let below): return waiting() < below
            case .every(let n): return n > 0 && batch % n == 0
            case .never: return false
            }
        }
    }

    /// Every remaining message, in order, to `body`, as fast as it decodes (`odds live --replay`):
    /// `ahead` (with a spare core), frames are decoded on a thread of their own, a few batches ahead
    /// of `body` (which folds them into a store on the calling thread), so that decoding and folding
    /// run side by side, and `sharing` says which batches the calling thread decodes itself; otherwise
    /// each batch is decoded and handed on in turn (`Concurrently.pipeline`). No array of messages per
    /// frame. `mergingBookViews` (for a store): a decoder may hand a game's books' views in a row on as
    /// one `bookViews` update (`FeedAdapter.receive(span:first:mergingBookViews:)`), merged on the thread
    /// that made them; folded, each view would be let go of on the folding thread, into the decoding
    /// thread's heap while that thread allocates in it, and the two would wait on its lock. Throws a
    /// fatal message's error, after every message before it.
    public func forEach(ahead: Bool = Concurrently.hasSpareCore, sharing: Sharing = .usual, mergingBookViews: Bool = false,
                        _ body: (consuming FeedMessage) -> Void) throws {
        let outcome = Outcome()
        let stats = self.stats
        // The folding thread's own readers, by connection (each reader is used by one thread only).
        var readers = DetachedReaders()
        Concurrently.pipeline(depth: 4, ahead: ahead, balancing: { [self] send, waiting in
            var own = DetachedReaders()
            var batch = DecodedFrames(), batches = 0
            var handing = sharing.handsOver(batch: 0, waiting: waiting)
            _ = forEachView { frame, adapter, first in
                // Only with a second thread: alone, the connection reads its own frames.
                if ahead, let detached = own.reader(for: adapter) {
                    if handing {
                        batch.add(undecoded: frame.bytes, from: adapter, at: frame.date, first: first)
                    } else if let updates = read(frame.bytes, with: detached) {
                        batch.add(.read(updates), from: adapter, at: frame.date, first: first)
                    }
                } else if let inbound = received(frame, by: adapter, first: first, mergingBookViews: mergingBookViews) {
                    if case .fatal(let error) = inbound { outcome.failure = error; return false }
                    batch.add(.inbound(inbound), from: adapter, at: frame.date, first: first)
                }
                guard batch.isFull else { return true }
                defer {
                    batch = DecodedFrames()
                    batches += 1
                    handing = sharing.handsOver(batch: batches, waiting: waiting)
                }
                return send(batch)
            }
            if !batch.frames.isEmpty { _ = send(batch) }
        }, consume: { batch in
            // In place in the batch, which only this thread holds now: each list is moved, not copied.
            for i in batch.frames.indices {
                let (adapter, date, first) = (batch.frames[i].adapter, batch.frames[i].date, batch.frames[i].first)
                var work = Work.inbound(.keepalive)
                swap(&work, &batch.frames[i].work)
                var inbound: Inbound
                // What the decoding thread's `receive` skipped is counted there.
                var counted = false
                switch consume work {
                case .inbound(let decoded):
                    inbound = decoded
                    counted = true
                case .read(let updates):
                    inbound = adapter.receive(decoded: updates, first: first)
                case .undecoded(let range):
                    guard let reader = readers.reader(for: adapter),
                          let updates = batch.bytes.withUnsafeBufferPointer({ read(UnsafeBufferPointer(rebasing: $0[range]), with: reader) })
                    else { continue }
                    inbound = adapter.receive(decoded: updates, first: first)
                }
                if !counted {
                    for reason in inbound.skipped { stats.skipped(reason) }
                    if case .fatal(let error) = inbound { outcome.folded = error; return false }
                }
                ReplayDecoder.handOver(&inbound, from: adapter, at: date, to: body)
            }
            return true
        })
        // The folding thread's is the earlier frame's: the decoding thread stops at its own.
        if let failure = outcome.folded ?? outcome.failure { throw failure }
    }

    /// Each connection's detached reader for one thread, asked for once (a connection without one too).
    private struct DetachedReaders {
        private var known: [ObjectIdentifier: DetachedDecoder?] = [:]

        mutating func reader(for adapter: any FeedAdapter) -> DetachedDecoder? {
            let key = ObjectIdentifier(adapter)
            if let reader = known[key] { return reader }
            let reader = adapter.detachedDecoder()
            known[key] = reader
            return reader
        }
    }

    /// A frame's bytes read by a detached reader; nil, counted as malformed, when it cannot read them.
    private func read(_ bytes: UnsafeBufferPointer<UInt8>, with reader: DetachedDecoder) -> [FeedUpdate]? {
        do {
            return try reader(bytes)
        } catch {
            stats.skipped(String(describing: error))
            return nil
        }
    }

    /// What each thread found fatal, read after both are done: `failure` the decoding thread's,
    /// `folded` the folding thread's (a frame it read).
    private final class Outcome: @unchecked Sendable {
        var failure: OddsError?
        var folded: OddsError?
    }

    /// A frame on its way to the folding thread: decoded, read by a connection's detached reader (its
    /// connection's state still to apply), or its bytes, in the batch's, to read there.
    private enum Work {
        case inbound(Inbound)
        case read([FeedUpdate])
        case undecoded(Range<Int>)
    }

    /// Frames handed from the decoding thread to the folding one, several small frames at a time (a
    /// firehose sends thousands a second) and a large one on its own.
    private final class DecodedFrames {
        var frames: [(work: Work, adapter: any FeedAdapter, date: Date, first: Bool)] = []
        /// The bytes of the frames handed over undecoded.
        var bytes: [UInt8] = []
        private var updates = 0

        func add(_ work: Work, from adapter: any FeedAdapter, at date: Date, first: Bool) {
            switch work {
            case .inbound(let inbound): updates += inbound.count
            case .read(let list): updates += list.count
            case .undecoded: break
            }
            frames.append((work, adapter, date, first))
        }

        func add(undecoded frame: UnsafeBufferPointer<UInt8>, from adapter: any FeedAdapter, at date: Date, first: Bool) {
            if bytes.isEmpty { bytes.reserveCapacity(DecodedFrames.undecodedBytes + frame.count) }
            let start = bytes.count
            bytes.append(contentsOf: frame)
            frames.append((.undecoded(start..<bytes.count), adapter, date, first))
        }

        /// Handed on at 256 frames or 2,048 updates: on a TickOdds firehose replay, smaller batches were
        /// slower (the threads wait on each other more often), and so were larger ones (the batch no longer
        /// fits in a core's cache). Undecoded, at 1 MiB of frames.
        var isFull: Bool { frames.count >= 256 || updates >= 2_048 || bytes.count >= DecodedFrames.undecodedBytes }

        static let undecodedBytes = 1 << 20
    }

    /// A frame's updates as messages to `body`, each moved out of the list as it goes (a heartbeat left
    /// in its place): nothing is copied, and what the consumer keeps is not held twice.
    private static func handOver(_ inbound: inout Inbound, from adapter: any FeedAdapter, at date: Date,
                                 to body: (consuming FeedMessage) -> Void) {
        // A batch's messages each in turn, in place (a large frame read in halves is two lists).
        if case .batch(var items, _) = inbound {
            inbound = .keepalive
            for i in items.indices { handOver(&items[i], from: adapter, at: date, to: body) }
            return
        }
        let provider = adapter.provider, connection = adapter.connectionName
        var updates = inbound.takeUpdates()
        for i in updates.indices {
            var update = FeedUpdate.heartbeat
            swap(&update, &updates[i])
            body(FeedMessage(provider: provider, connection: connection, receivedAt: date, update: consume update))
        }
    }

    /// Decodes frames and hands each one's answer to `body` while it returns true; false at the end.
    private func forEachFrame(_ body: (Int64, inout Inbound, any FeedAdapter, Date) -> Bool) -> Bool {
        forEachView { frame, adapter, first in
            guard var inbound = received(frame, by: adapter, first: first) else { return true }
            return body(frame.t, &inbound, adapter, frame.date)
        }
    }

    /// A frame read by its connection's own `receive`, what it left out counted; nil, counted as
    /// malformed, when it cannot be read.
    private func received(_ frame: RecordingReader.FrameView, by adapter: any FeedAdapter, first: Bool,
                          mergingBookViews: Bool = false) -> Inbound? {
        do {
            let inbound = try adapter.receive(span: frame.bytes, first: first, mergingBookViews: mergingBookViews)
            for reason in inbound.skipped { stats.skipped(reason) }
            return inbound
        } catch {
            stats.skipped(String(describing: error))
            return nil
        }
    }

    /// Each frame of a known connection, in place, with its connection's adapter and whether it is
    /// that connection's first, to `body` while it returns true; false at the end.
    private func forEachView(_ body: (RecordingReader.FrameView, any FeedAdapter, Bool) -> Bool) -> Bool {
        // The last connection's adapter is kept at hand: recordings run long on one connection.
        var lastFeed = "", lastAdapter: (any FeedAdapter)?
        var frames = 0, bytes = 0
        defer { stats.frames(frames, bytes: bytes) }
        while let frame = reader.nextView() {
            let adapter: any FeedAdapter
            if let last = lastAdapter, frame.feed == lastFeed {
                adapter = last
            } else if let known = byFeed[frame.feed] {
                adapter = known
            } else {
                guard !unknown.contains(frame.feed), let made = more(frame.feed) else { unknown.insert(frame.feed); continue }
                byFeed[frame.feed] = made
                adapter = made
            }
            let first = (lastAdapter == nil || frame.feed != lastFeed) && started.insert(frame.feed).inserted
            lastFeed = frame.feed
            lastAdapter = adapter
            frames += 1
            bytes += frame.bytes.count
            if !body(frame, adapter, first) { return true }
        }
        return false
    }
}

/// Feeds a recording through a provider's own decoder instead of the network: the same path from
/// frame to normalized update as a live connection.
public enum FeedReplay {
    /// Frames due this close together (seconds) are replayed at once.
    static let burst = 0.010

    /// Replays the frames of the adapters' connections through them (each frame to the adapter of
    /// its `"<provider>/<connection>"`); other lines (REST bodies, other feeds) are skipped. Messages
    /// carry the recorded receive time. A message the provider calls fatal ends the replay with its error.
    /// The recorded spacing, divided by `speed`, is kept on `clock`.
    public static func run(_ decoder: ReplayDecoder, speed: ReplaySpeed, stats: FeedStats,
                           clock: any FeedClock = SystemClock()) -> FeedStream {
        let box = UncheckedBox(decoder)
        let queue = FeedStream(capacity: FeedRunner.bufferCapacity)
        let task = Task {
            let decoder = box.value
            var startT: Int64?
            var startWall = clock.now
            while !Task.isCancelled, var step = decoder.next() {
                if let error = step.fatal {
                    queue.finish(throwing: error)
                    return
                }
                if case .times(let factor) = speed {
                    // Each frame at its recorded time from the first (scaled): the pace does not drift with
                    // each wait's overshoot, and frames due within a few milliseconds go out together, one
                    // wake-up of the consumer for the burst instead of one a frame.
                    if let startT {
                        let due = Double(step.t - startT) / 1000 / factor
                        let wait = due - clock.now.timeIntervalSince(startWall)
                        if wait > FeedReplay.burst { do { try await clock.sleep(min(wait, 3600)) } catch { break } }
                    } else {
                        startT = step.t
                        startWall = clock.now
                    }
                }
                // The step lets go of each update as the queue takes it: a message is held once.
                for i in step.messages.indices {
                    let m = step.messages[i]
                    step.messages[i].update = .heartbeat
                    guard await queue.send(m) else { return }
                }
            }
            queue.finish()
        }
        queue.setOnTermination { task.cancel() }
        return queue
    }

    public static func run(_ adapters: [any FeedAdapter], reader: RecordingReader, speed: ReplaySpeed,
                           stats: FeedStats, clock: any FeedClock = SystemClock()) -> FeedStream {
        run(ReplayDecoder(adapters, reader: reader, stats: stats), speed: speed, stats: stats, clock: clock)
    }
}
