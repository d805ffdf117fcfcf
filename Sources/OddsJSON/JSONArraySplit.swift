import Foundation

/// Reading one large JSON array in two halves at once (`Concurrently.pair`): a guessed cut between
/// two of its elements. The guess is only a guess (a nested array of objects has the same bytes):
/// the decoder of the first half confirms it by ending an element exactly there, and otherwise reads
/// on to the end as if no cut had been made, so the answer never depends on the guess.
public enum JSONArraySplit {
    /// The index of the `{` that starts an element of an array of objects, at or after the middle of
    /// `bytes` and within `window` bytes of it: the first `}` `,` `{` there (whitespace allowed
    /// between them). Nil when there is none.
    public static func cut(_ bytes: UnsafeBufferPointer<UInt8>, window: Int = 1 << 20) -> Int? {
        guard bytes.count >= 8 else { return nil }
        let end = min(bytes.count, bytes.count / 2 + window)
        var i = bytes.count / 2
        while i < end {
            // memchr's speed for the closing brace, then a look at what follows it.
            let rest = end - i
            guard let found = memchr(bytes.baseAddress! + i, Int32(UInt8(ascii: "}")), rest) else { return nil }
            i = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
            var j = JSONSpan.skipWhitespace(bytes, from: i)
            guard j < bytes.count, bytes[j] == UInt8(ascii: ",") else { continue }
            j = JSONSpan.skipWhitespace(bytes, from: j + 1)
            if j < bytes.count, bytes[j] == UInt8(ascii: "{") { return j }
        }
        return nil
    }
}
