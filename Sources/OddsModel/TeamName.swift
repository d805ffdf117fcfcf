import Foundation

/// Team names compared as people read them: case, diacritics, punctuation and spacing folded.
public enum TeamName {
    /// Lower case, without diacritics, punctuation as spaces, spaces collapsed.
    public static func fold(_ name: String) -> String {
        var name = name
        // ASCII (most names, and every mark): on the string's own bytes, into a buffer on the stack,
        // without Foundation (a table folds two names a row).
        let ascii: String? = name.withUTF8 { bytes in
            guard !bytes.isEmpty else { return "" }
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { out in
                var n = 0
                var space = false
                for b in bytes {
                    let lower = b >= 0x41 && b <= 0x5A ? b + 32 : b
                    if (lower >= 0x61 && lower <= 0x7A) || (lower >= 0x30 && lower <= 0x39) {
                        if space && n > 0 { out[n] = 0x20; n += 1 }
                        out[n] = lower; n += 1
                        space = false
                    } else {
                        space = true
                    }
                }
                return String(decoding: UnsafeBufferPointer(rebasing: out[..<n]), as: UTF8.self)
            }
        }
        if let ascii { return ascii }
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var out = ""
        var space = false
        for ch in folded.unicodeScalars {
            if ch.properties.isAlphabetic || ch.properties.numericType != nil {
                if space && !out.isEmpty { out.append(" ") }
                out.unicodeScalars.append(ch)
                space = false
            } else {
                space = true
            }
        }
        return out
    }

    /// Whether folded `name` holds folded `phrase` as whole words: "1st half total goals" holds "1st half" and
    /// "total", never "st half" or "tot".
    public static func holds(_ name: String, words phrase: String) -> Bool {
        (" " + name + " ").contains(" " + phrase + " ")
    }

    /// Whether every word of the shorter of two folded names (3 letters or more each) is a word of the longer.
    public static func sameWords(_ a: String, _ b: String) -> Bool {
        let wa = a.split(separator: " ").filter { $0.count >= 3 }, wb = b.split(separator: " ").filter { $0.count >= 3 }
        guard !wa.isEmpty, !wb.isEmpty else { return false }
        let (short, long) = wa.count <= wb.count ? (wa, Set(wb)) : (wb, Set(wa))
        return short.allSatisfy(long.contains)
    }
}
