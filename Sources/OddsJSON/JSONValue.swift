/// A parsed JSON document. Numbers keep their literal text, so "4.50" stays "4.50":
/// prices are never routed through a binary float.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// The number exactly as written in the document.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in document order. Objects from providers are small: a linear search beats hashing
    /// every key of every object (the profile of the firehose showed hashing and dictionary growth).
    case object(JSONMembers)

    /// The member `key`; with duplicate keys, the last one (as a dictionary would keep).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let o) = self else { return nil }
        return o[key]
    }

    public var isObject: Bool { if case .object = self { return true } else { return false } }

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

    /// The members as a dictionary (built on each call: for the rare callers that enumerate keys).
    public var object: [String: JSONValue]? {
        guard case .object(let o) = self else { return nil }
        return Dictionary(o.members.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// As `JSONScalar.int`: the two readings of a value agree by construction.
    public var int: Int? { JSONScalar(self).int }

    /// true, 1, "1", "true" (as `JSONScalar.bool`).
    public var bool: Bool? { JSONScalar(self).bool }

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

/// An object's members in document order.
public struct JSONMembers: Hashable, Sendable {
    public var members: [(key: String, value: JSONValue)]

    public init(_ members: [(key: String, value: JSONValue)] = []) { self.members = members }

    public subscript(key: String) -> JSONValue? {
        // Last wins, as in a dictionary built in document order.
        for i in members.indices.reversed() where members[i].key == key { return members[i].value }
        return nil
    }

    public static func == (a: JSONMembers, b: JSONMembers) -> Bool {
        a.members.count == b.members.count && zip(a.members, b.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        for m in members { hasher.combine(m.key); hasher.combine(m.value) }
    }
}
