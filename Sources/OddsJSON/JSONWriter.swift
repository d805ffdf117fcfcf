/// JSON text helpers.
public enum JSONWriter {
    /// A JSON string literal for `s` (also a valid TOML basic string).
    public static func quote(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // C0 must be escaped (RFC 8259); DEL, C1 and the bidi controls are too, so a JSON line
            // printed on a terminal cannot drive it.
            case let c where c.value < 0x20 || (0x7F...0x9F).contains(c.value) || (0x202A...0x202E).contains(c.value)
                || (0x2066...0x2069).contains(c.value):
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
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
        var out = ""
        write(to: &out)
        return out
    }

    public func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let s): out += JSONWriter.quote(s)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (i, (k, v)) in fields.enumerated() {
                if i > 0 { out += "," }
                out += JSONWriter.quote(k)
                out += ":"
                v.write(to: &out)
            }
            out += "}"
        }
    }
}
