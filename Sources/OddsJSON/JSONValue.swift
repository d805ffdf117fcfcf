/// A parsed JSON document. Numbers keep their literal text, so "4.50" stays "4.50":
/// prices are never routed through a binary float.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// The number exactly as written in the document.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// A string, or a number's literal text.
    public var text: String? {
        switch self {
        case .string(let s): return s
        case .number(let n): return n
        default: return nil
        }
    }

    public var array: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var object: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var int: Int? {
        switch self {
        case .number(let n): return Int(n)
        case .string(let s): return Int(s)
        case .bool(let b): return b ? 1 : 0
        default: return nil
        }
    }

    /// true, 1, "1", "true".
    public var bool: Bool? {
        switch self {
        case .bool(let b): return b
        case .number(let n): return n != "0"
        case .string(let s): return s == "1" || s.lowercased() == "true"
        default: return nil
        }
    }

    public var isNull: Bool { if case .null = self { return true } else { return false } }
}

/// Why a document could not be parsed.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    public let offset: Int
    public let reason: String
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

/// A provider message that is not what its protocol says. Live streams skip and count these.
public struct MalformedMessage: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension JSONParser {
    /// Parses a provider message; invalid JSON becomes a `MalformedMessage`.
    public static func message(_ text: String) throws -> JSONValue {
        do { return try parse(text) } catch { throw MalformedMessage("\(error)") }
    }

    /// Parses a provider answer body; invalid JSON becomes a `MalformedMessage`.
    public static func message(bytes: [UInt8]) throws -> JSONValue {
        do { return try parse(bytes: bytes) } catch { throw MalformedMessage("\(error)") }
    }
}
