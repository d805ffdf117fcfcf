import CFileMap

/// Where a recording's long lines (a frame of MBs each) end, found ahead on a thread of its own.
///
/// A replay begins with a serial stretch on one core: the command line is parsed (most of it), and
/// then each multi-MB frame is found (mapped, and searched for its newline) before its two halves can
/// be decoded at once. The scout does the finding while the command line is parsed, on the core that
/// is idle then: started before parsing (`startEarly`) from the words after `--replay`, it maps the
/// file and lists the ends of lines of `RecordingReader.firstChunk` bytes or more. A `RecordingReader`
/// of the same file (device, inode, size and modification time) takes such a line from the scout's
/// mapping, with no mapping or search of its own. A recording of short lines is read as before: the
/// scout gives up 1 MiB past the last long line it found. The pages of a line the reader is done with
/// are given back by the scout's thread (in whole 2 MiB blocks of the file), so that the replay holds about
/// one frame of the file at a time.
public final class RecordingScout: @unchecked Sendable {
    // @unchecked: the C scout publishes each line before it counts it (release and acquire).
    private let raw: OpaquePointer
    /// Bytes of the file the scout maps at most (from its start).
    public static let limit = 64 << 20
    /// Bytes past the last long line after which the scout stops looking.
    public static let giveUp = 1 << 20

    /// Starts scouting the file at `path`; nil for anything but a non-empty regular file.
    public init?(path: String, limit: Int = RecordingScout.limit, minLine: Int = RecordingReader.firstChunk,
                 giveUp: Int = RecordingScout.giveUp) {
        guard let raw = odds_scout_start(path, limit, minLine, giveUp) else { return nil }
        self.raw = raw
    }

    deinit { odds_scout_finish(raw) }

    /// Whether `fd` is the file scouted, unchanged since.
    func matches(_ fd: Int32) -> Bool { odds_scout_matches(raw, fd) != 0 }

    /// The long line starting at `offset` of the file (without its newline), if the scout has found its end.
    func line(at offset: Int64) -> UnsafeBufferPointer<UInt8>? {
        var bytes: UnsafePointer<UInt8>?
        var length = 0
        guard odds_scout_line(raw, offset, &bytes, &length) != 0, let bytes else { return nil }
        return UnsafeBufferPointer(start: bytes, count: length)
    }

    /// The reader is done with the file before `offset`: the scout's thread gives those pages back.
    func release(before offset: Int64) { odds_scout_release(raw, offset) }

    /// Where the scout's mapping starts, and its size (for tests).
    var mapping: (base: UInt, size: Int) {
        var base: UnsafeRawPointer?
        var size = 0
        odds_scout_mapping(raw, &base, &size)
        return (UInt(bitPattern: base), size)
    }

    /// Long lines found so far.
    public var found: Int { odds_scout_found(raw) }
    /// Whether the scout has stopped looking.
    public var isDone: Bool { odds_scout_done(raw) != 0 }

    /// The scout of this process's replay, started by `startEarly`; it lives as long as the process.
    public static var early: RecordingScout? { earlyScout }
    // Written once by `startEarly`, on the main thread before any other thread exists; read after.
    nonisolated(unsafe) private static var earlyScout: RecordingScout?

    /// Starts `early` for the recording the command line names after `--replay` (the last one), if
    /// any; called first thing in the process, before the command line is parsed.
    public static func startEarly(arguments: [String]) {
        guard earlyScout == nil, let path = replayPath(arguments) else { return }
        earlyScout = RecordingScout(path: path)
    }

    /// The value of the last `--replay FILE` or `--replay=FILE`, as the words stand (not "-").
    static func replayPath(_ arguments: [String]) -> String? {
        var path: String?
        var i = 1
        while i < arguments.count {
            let word = arguments[i]
            if word == "--" { break }
            if word == "--replay", i + 1 < arguments.count {
                path = arguments[i + 1]; i += 2; continue
            }
            if word.hasPrefix("--replay=") { path = String(word.dropFirst("--replay=".count)) }
            i += 1
        }
        guard let path, !path.isEmpty, path != "-" else { return nil }
        return path
    }
}
