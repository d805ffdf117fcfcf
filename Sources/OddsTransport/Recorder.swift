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
