import Foundation

/// The short id tables show for a long provider id.
extension Event {
    /// The id tables show: the provider's own when it is short (12 characters at most, no spaces),
    /// else a short stable id made from it ("g" and 7 hex digits), so that a BoltOdds game label
    /// ("New York Mets vs Los Angeles Angels, 2025-07-23, 01") is not a column of its own. Commands
    /// that take an event accept either; JSON keeps the provider's id.
    public var shortID: String { Event.shortID(for: id) }

    public static func shortID(for id: String) -> String {
        guard id.utf8.count > 12 || id.utf8.contains(0x20) else { return id }
        return "g" + stableHex(id)
    }

    /// 7 hex digits of FNV-1a over `text`: stable across runs and machines (Swift's Hasher is seeded per process).
    public static func stableHex(_ text: String) -> String {
        var h: UInt64 = 14_695_981_039_346_656_037
        // Over the contiguous bytes: the `utf8` view's iterator was most of the cost of a large table's ids.
        var text = text
        text.withUTF8 { bytes in
            for b in bytes { h = (h ^ UInt64(b)) &* 1_099_511_628_211 }
        }
        // The top 28 bits as 7 lowercase hex digits, zero-padded: a small string, made from its bytes.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 7) { digits in
            for i in 0..<7 {
                let d = UInt8(truncatingIfNeeded: h >> (60 - 4 * i)) & 0xF
                digits[i] = d < 10 ? 0x30 + d : 0x57 + d
            }
            return String(decoding: digits, as: UTF8.self)
        }
    }

    /// Whether `text` has the form of a short id made by `shortID(for:)`.
    public static func isShortID(_ text: String) -> Bool {
        text.utf8.count == 8 && text.hasPrefix("g") && text.utf8.dropFirst().allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
