import Foundation

/// A score in goals, points or sets.
public struct Score: Hashable, Sendable {
    public var home: Int
    public var away: Int
    public init(home: Int, away: Int) { self.home = home; self.away = away }

    /// Reads "2-1", "2 - 1" or "2:1".
    public init?(text: String) {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII (every score on the wire): the same split and trim on bytes, without Foundation.
            let parts = text.utf8.split(whereSeparator: { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ":") })
            guard parts.count == 2, let h = Score.int(parts[0]), let a = Score.int(parts[1]) else { return nil }
            self.init(home: h, away: a)
            return
        }
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == ":" })
        guard parts.count == 2,
              let h = Int(parts[0].trimmingCharacters(in: .whitespaces)),
              let a = Int(parts[1].trimmingCharacters(in: .whitespaces)) else { return nil }
        self.init(home: h, away: a)
    }

    /// An integer between ASCII spaces and tabs (the ASCII members of `.whitespaces`).
    private static func int(_ part: Substring.UTF8View) -> Int? {
        var part = part[...]
        while let b = part.first, b == 0x20 || b == 0x09 { part.removeFirst() }
        while let b = part.last, b == 0x20 || b == 0x09 { part.removeLast() }
        return Int(Substring(part))
    }

    public var text: String { "\(home)-\(away)" }
}

/// Which side of a fixture something belongs to.
public enum Side: String, Sendable, Codable { case home, away }
