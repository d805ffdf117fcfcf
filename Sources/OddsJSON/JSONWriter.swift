/// JSON text helpers.
public enum JSONWriter {
    /// A JSON string literal for `s` (also a valid TOML basic string).
    public static func quote(_ s: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 2)
        quote(s, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the JSON string literal for `s` to `out` as UTF-8. Runs of bytes that need no escape are
    /// copied whole; C0 must be escaped (RFC 8259), and DEL, C1 and the bidi controls are too, so that a
    /// JSON line printed on a terminal cannot drive it.
    public static func quote(_ s: String, into out: inout [UInt8]) {
        out.append(0x22)
        var s = s
        s.withUTF8 { bytes in
            let n = bytes.count
            var start = 0, i = 0
            while i < n {
                let b = bytes[i]
                // Plain ASCII and most multi-byte text: nothing to do but move on.
                if b >= 0x20 && b != 0x22 && b != 0x5C && b < 0x7F { i += 1; continue }
                let escape: StaticString?, value: UInt32, length: Int
                switch b {
                case 0x22: escape = "\\\""; value = 0; length = 1
                case 0x5C: escape = "\\\\"; value = 0; length = 1
                case 0x0A: escape = "\\n"; value = 0; length = 1
                case 0x0D: escape = "\\r"; value = 0; length = 1
                case 0x09: escape = "\\t"; value = 0; length = 1
                case 0x00..<0x20, 0x7F: escape = nil; value = UInt32(b); length = 1
                case 0xC2 where i + 1 < n && (0x80...0x9F).contains(bytes[i + 1]):
                    escape = nil; value = UInt32(bytes[i + 1]); length = 2
                case 0xE2 where i + 2 < n && ((bytes[i + 1] == 0x80 && (0xAA...0xAE).contains(bytes[i + 2]))
                                             || (bytes[i + 1] == 0x81 && (0xA6...0xA9).contains(bytes[i + 2]))):
                    escape = nil; value = 0x2000 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F); length = 3
                default: i += 1; continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                if let escape {
                    escape.withUTF8Buffer { out.append(contentsOf: $0) }
                } else {
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: [0x5C, 0x75, hex[Int(value >> 12 & 0xF)], hex[Int(value >> 8 & 0xF)],
                                            hex[Int(value >> 4 & 0xF)], hex[Int(value & 0xF)]])
                }
                i += length
                start = i
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<n]))
        }
        out.append(0x22)
    }
}

/// A value to write as JSON, with object keys in a fixed order.
public indirect enum JSONOutput: Sendable {
    case null
    case bool(Bool)
    /// Written verbatim: must already be valid JSON number text.
    case number(String)
    case string(String)
    case array([JSONOutput])
    case object([(String, JSONOutput)])
    /// Compact JSON text as `write(to:)` wrote it, copied as it is: what a stream writes again unchanged.
    case written([UInt8])

    public static func int(_ v: Int) -> JSONOutput { .number(String(v)) }

    /// A parsed document written back as it was (numbers keep their text).
    public init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n): self = .number(n)
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map(JSONOutput.init))
        case .object(let members): self = .object(members.members.map { ($0.key, JSONOutput($0.value)) })
        }
    }

    /// Every scalar of the document with its path ("game.scorePerPeriod.Q1.home", "players.0.player.player_name").
    public static func leaves(_ value: JSONValue, path: String = "") -> [(path: String, value: String)] {
        func join(_ key: String) -> String { path.isEmpty ? key : path + "." + key }
        switch value {
        case .null: return [(path, "null")]
        case .bool(let b): return [(path, b ? "true" : "false")]
        case .number(let n): return [(path, n)]
        case .string(let s): return [(path, s)]
        case .array(let items): return items.enumerated().flatMap { leaves($0.element, path: join(String($0.offset))) }
        case .object(let members): return members.members.flatMap { leaves($0.value, path: join($0.key)) }
        }
    }
    public static func optionalString(_ v: String?) -> JSONOutput { v.map { .string($0) } ?? .null }

    /// Compact JSON text.
    public var rendered: String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the compact JSON text as UTF-8 (bytes, not a String: appending to a String costs far more).
    public func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.append(contentsOf: n.utf8)
        case .string(let s): JSONWriter.quote(s, into: &out)
        case .array(let items):
            out.append(0x5B)
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(0x2C) }
                item.write(to: &out)
            }
            out.append(0x5D)
        case .object(let fields):
            out.append(0x7B)
            for (i, (k, v)) in fields.enumerated() {
                if i > 0 { out.append(0x2C) }
                JSONWriter.quote(k, into: &out)
                out.append(0x3A)
                v.write(to: &out)
            }
            out.append(0x7D)
        case .written(let bytes):
            out.append(contentsOf: bytes)
        }
    }
}

extension JSONOutput: Equatable {
    /// The same value built the same way (keys in the same order); text already written compares as text.
    public static func == (a: JSONOutput, b: JSONOutput) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)), (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)): return same(x, y)
        case (.written(let x), .written(let y)): return x == y
        default: return false
        }
    }

    /// Whether two objects' members are the same, in the same order (as `==` on `.object`s, without making them).
    public static func same(_ x: [(String, JSONOutput)], _ y: [(String, JSONOutput)]) -> Bool {
        guard x.count == y.count else { return false }
        for i in x.indices where x[i].0 != y[i].0 || x[i].1 != y[i].1 { return false }
        return true
    }

    /// The same value as text already written: copied as it is wherever it goes, and compared as text.
    public var prewritten: JSONOutput {
        if case .written = self { return self }
        var out: [UInt8] = []
        write(to: &out)
        return .written(out)
    }
}
