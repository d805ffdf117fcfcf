import Foundation

/// A deep link kept as a head that many selections share (a game's page at one book) and a tail short
/// enough to be stored inline (the outcome's number): kept whole, the links of a full BoltOdds state
/// were a large part of the store's memory, one allocation each. The split is a function of the text alone (after
/// the last `=` or `/`, when 1 to 15 bytes follow), so equal links have equal parts. The tail is
/// kept as its bytes, packed in two words: made a `String`, it was a large part of reading a BoltOdds outcome.
public struct DeepLink: Hashable, Sendable {
    public let head: String
    /// The tail's bytes, in the memory of the two words in order, and its length in their last
    /// byte; both zero: no tail.
    private let tailLow: UInt64
    private let tailHigh: UInt64

    /// The link's text, split.
    public init(_ text: String) {
        var text = text
        self = text.withUTF8 { DeepLink(bytes: $0) }
    }

    /// The link's UTF-8 bytes, split; `head` makes the head's `String` (a decoder shares one between
    /// the outcomes of a game at one book).
    public init(bytes: UnsafeBufferPointer<UInt8>,
                head: (UnsafeBufferPointer<UInt8>) -> String = { String(decoding: $0, as: UTF8.self) }) {
        guard let cut = DeepLink.cut(bytes) else {
            self.init(head: String(decoding: bytes, as: UTF8.self), tailLow: 0, tailHigh: 0)
            return
        }
        self.init(splitHead: head(UnsafeBufferPointer(rebasing: bytes[..<cut])), tail: UnsafeBufferPointer(rebasing: bytes[cut...]))
    }

    /// A link whose split is known, for a decoder that found the last link's head again and read
    /// only the tail: `head` must end with `=` or `/`, and `tail` be 1 to 15 bytes with neither (as
    /// `init(bytes:)` splits `head + tail`); unchecked.
    package init(splitHead head: String, tail: UnsafeBufferPointer<UInt8>) {
        assert((1...15).contains(tail.count) && !tail.contains { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "/") })
        // The bytes copied into the two words' memory, the count in their last byte.
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(tail))
            raw[15] = UInt8(tail.count)
        }
        self.init(head: head, tailLow: words.0, tailHigh: words.1)
    }

    private init(head: String, tailLow: UInt64, tailHigh: UInt64) {
        self.head = head; self.tailLow = tailLow; self.tailHigh = tailHigh
    }

    /// The part after the head: up to 15 bytes, the outcome's own; nil when the link was not split.
    public var tail: String? {
        withUnsafeBytes(of: (tailLow, tailHigh)) { raw in
            let count = Int(raw[15])
            return count == 0 ? nil : String(decoding: raw.prefix(count), as: UTF8.self)
        }
    }

    public var text: String { tail.map { head + $0 } ?? head }

    /// Where the tail starts: after the last `=` or `/`, when 1 to 15 bytes follow; nil: no split.
    static func cut(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        // Only the last 16 bytes can hold the separator of a tail of 15 or fewer.
        let end = bytes.count, floor = max(0, end - 16)
        var i = end
        while i > floor {
            let b = base[i - 1]
            if b == UInt8(ascii: "=") || b == UInt8(ascii: "/") { break }
            i -= 1
        }
        let tail = end - i
        return i > 0 && tail >= 1 && tail <= 15 ? i : nil
    }
}
