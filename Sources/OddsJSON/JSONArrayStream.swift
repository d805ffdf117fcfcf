#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON array read element by element as its bytes arrive: each complete top-level element is
/// handed on as soon as its last byte is in, so that a message of tens of MB (BoltOdds' initial
/// state, an array of thousands of messages) is never held whole.
///
/// The split is structural (strings, escapes, nesting); each element's own reader checks it in full.
/// Bytes are kept in a window of their own: an element's bytes stay valid, unmoved, for as long as
/// `generation` is unchanged (a reader may keep pointers into earlier elements until then).
public final class JSONArrayStream {
    /// Why the bytes are not an array of elements.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The first byte that is not white space is not `[`.
        case notArray
        /// Malformed at this byte of the message (a bracket that closes nothing or the wrong thing,
        /// a comma with no element before or after it, bytes after the array, nesting too deep).
        case malformed(offset: Int, String)
        /// The message ended inside the array.
        case unfinished

        public var description: String {
            switch self {
            case .notArray: return "not a JSON array"
            case .malformed(let offset, let why): return "malformed JSON array at byte \(offset): \(why)"
            case .unfinished: return "the JSON array ends early"
            }
        }
    }

    /// Changes each time bytes handed on earlier may have moved (the window was compacted or grown).
    public private(set) var generation = 0
    /// Bytes given so far.
    public private(set) var received = 0

    private enum State { case beforeArray, beforeElement, afterComma, inElement, ended }

    private var window: UnsafeMutablePointer<UInt8>?
    private var capacity = 0
    private let initialCapacity: Int
    /// Bytes held in the window; `count` of them valid.
    private var count = 0
    /// Where the next byte to scan is, and where the element being read began.
    private var scan = 0
    private var elementStart = 0
    /// The message's offset of the window's first byte (for errors).
    private var base = 0
    private var state = State.beforeArray
    /// Open brackets inside the current element.
    private var open: [UInt8] = []
    private var inString = false
    private static let maxDepth = 512

    /// `window` is the window's first size: it grows when one element is larger.
    public init(window: Int = 4 << 20) {
        initialCapacity = max(64, window)
    }

    deinit { window?.deallocate() }

    /// True when the first byte that is not white space is `[`, false for another byte, nil when
    /// the bytes are all white space.
    public static func startsArray(_ bytes: UnsafeRawBufferPointer) -> Bool? {
        for b in bytes where !isSpace(b) { return b == UInt8(ascii: "[") }
        return nil
    }

    @inline(__always) private static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
    }

    /// Takes the next bytes of the message; `element` gets each element they complete (its bytes,
    /// white space trimmed, valid until `generation` changes) in order. Throws at the first byte
    /// that cannot be part of an array; nothing more should then be given.
    public func feed(_ bytes: UnsafeRawBufferPointer, element: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        received += bytes.count
        guard !bytes.isEmpty else { return }
        reserve(bytes.count)
        (window! + count).update(from: bytes.bindMemory(to: UInt8.self).baseAddress!, count: bytes.count)
        count += bytes.count
        try scanWindow(element)
    }

    /// The message is complete: throws unless the array was closed.
    public func finish() throws {
        guard case .ended = state else { throw Failure.unfinished }
    }

    /// Room for `n` more bytes: the bytes already handed on are dropped, and the window grows when
    /// what is left (one element being read) needs it.
    private func reserve(_ n: Int) {
        if count + n <= capacity { return }
        let keep = count - elementStart
        if window != nil, keep + n <= capacity, elementStart > 0 {
            // Compact: only the element being read is kept.
            if keep > 0 { window!.update(from: window! + elementStart, count: keep) }
        } else {
            let size = max(initialCapacity, capacity * 2, keep + n)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
            if let window {
                if keep > 0 { grown.update(from: window + elementStart, count: keep) }
                window.deallocate()
            }
            window = grown
            capacity = size
        }
        base += elementStart
        scan -= elementStart
        count = keep
        elementStart = 0
        generation += 1
    }

    private func fail(_ at: Int, _ why: String) -> Failure { .malformed(offset: base + at, why) }

    private func scanWindow(_ element: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let w = window!
        var i = scan
        defer { scan = i }
        while i < count {
            if case .inElement = state {
                if inString {
                    // The bulk of JSON is strings: the next quote (memchr) ends one unless an odd run of
                    // backslashes escapes it. The window holds the whole element, so the run is all there.
                    guard let found = memchr(w + i, 0x22, count - i) else { i = count; break }
                    let q = found.assumingMemoryBound(to: UInt8.self) - w
                    var backslashes = 0
                    while q - 1 - backslashes > elementStart, w[q - 1 - backslashes] == 0x5C { backslashes += 1 }
                    i = q + 1
                    if backslashes & 1 == 0 { inString = false }
                    continue
                }
                let b = w[i]
                switch b {
                case UInt8(ascii: "\""):
                    inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard open.count < JSONArrayStream.maxDepth else { throw fail(i, "nested too deep") }
                    open.append(b)
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if let last = open.last {
                        guard (last == UInt8(ascii: "{")) == (b == UInt8(ascii: "}")) else { throw fail(i, "a bracket that closes the wrong thing") }
                        open.removeLast()
                    } else if b == UInt8(ascii: "]") {
                        try hand(elementStart, i, element)
                        state = .ended
                    } else {
                        throw fail(i, "a brace that closes nothing")
                    }
                case UInt8(ascii: ",") where open.isEmpty:
                    try hand(elementStart, i, element)
                    state = .afterComma
                default:
                    break
                }
                i += 1
                continue
            }
            let b = w[i]
            switch state {
            case .beforeArray:
                if !JSONArrayStream.isSpace(b) {
                    guard b == UInt8(ascii: "[") else { throw Failure.notArray }
                    state = .beforeElement
                }
                elementStart = i + 1
            case .beforeElement, .afterComma:
                if JSONArrayStream.isSpace(b) {
                    elementStart = i + 1
                } else if b == UInt8(ascii: "]") {
                    guard case .beforeElement = state else { throw fail(i, "a comma before the closing bracket") }
                    state = .ended
                } else if b == UInt8(ascii: ",") {
                    throw fail(i, "a comma with no element before it")
                } else {
                    elementStart = i
                    state = .inElement
                    continue
                }
            case .ended:
                guard JSONArrayStream.isSpace(b) else { throw fail(i, "bytes after the array") }
            case .inElement:
                break
            }
            i += 1
        }
        // Nothing before the element being read is needed again.
        if case .inElement = state {} else { elementStart = i }
    }

    /// Hands on the element from `start` to `end` (exclusive), trailing white space trimmed.
    private func hand(_ start: Int, _ end: Int, _ element: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        var e = end
        while e > start, JSONArrayStream.isSpace(window![e - 1]) { e -= 1 }
        guard e > start else { throw fail(end, "an empty element") }
        elementStart = end + 1
        try element(UnsafeBufferPointer(start: window! + start, count: e - start))
    }
}
