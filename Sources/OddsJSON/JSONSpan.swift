/// Finds where JSON values end without building them: the recorder and replay use it to keep a
/// frame's bytes verbatim, and the fast decoders to skip what they do not read.
///
/// It checks structure (brackets, strings and their escapes, literals, numbers, nesting up to
/// `maxDepth`) but not UTF-8: a span is handed on as bytes, and whoever reads it validates it.
public enum JSONSpan {
    public static let maxDepth = 512

    /// The index just past the value that starts at `start` (after optional whitespace).
    public static func valueEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws -> Int {
        var i = skipWhitespace(bytes, from: start)
        var depth = 0
        // Closers expected, innermost last: `}` or `]`.
        var stack: [UInt8] = []
        while true {
            guard i < bytes.count else { throw JSONParseError(offset: i, reason: "unexpected end") }
            switch bytes[i] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                guard depth < maxDepth else { throw JSONParseError(offset: i, reason: "nested too deeply") }
                let closer = bytes[i] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                stack.append(closer)
                i = skipWhitespace(bytes, from: i + 1)
                if i < bytes.count, bytes[i] == closer {
                    stack.removeLast(); depth -= 1; i += 1
                    if let end = try afterValue(bytes, &i, &stack, &depth) { return end }
                    continue
                }
                if closer == UInt8(ascii: "}") { i = try key(bytes, i) }
                continue
            case UInt8(ascii: "\""):
                i = try stringEnd(bytes, from: i)
            case UInt8(ascii: "t"): i = try literal(bytes, i, "true")
            case UInt8(ascii: "f"): i = try literal(bytes, i, "false")
            case UInt8(ascii: "n"): i = try literal(bytes, i, "null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                i = try numberEnd(bytes, from: i)
            default:
                throw JSONParseError(offset: i, reason: "unexpected character")
            }
            if let end = try afterValue(bytes, &i, &stack, &depth) { return end }
        }
    }

    /// After a value inside containers: a comma (then the next key or value) or closers. Returns the
    /// end when the outermost value is complete.
    private static func afterValue(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ stack: inout [UInt8],
                                   _ depth: inout Int) throws -> Int? {
        while true {
            guard let closer = stack.last else { return i }
            i = skipWhitespace(bytes, from: i)
            guard i < bytes.count else { throw JSONParseError(offset: i, reason: "unexpected end") }
            if bytes[i] == UInt8(ascii: ",") {
                i = skipWhitespace(bytes, from: i + 1)
                if closer == UInt8(ascii: "}") { i = try key(bytes, i) }
                return nil
            }
            guard bytes[i] == closer else { throw JSONParseError(offset: i, reason: "expected ',' or a closing bracket") }
            stack.removeLast()
            depth -= 1
            i += 1
        }
    }

    /// A member's key and its colon; returns the index of its value.
    private static func key(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) throws -> Int {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "\"") else {
            throw JSONParseError(offset: start, reason: "expected key")
        }
        var i = skipWhitespace(bytes, from: try stringEnd(bytes, from: start))
        guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw JSONParseError(offset: i, reason: "expected ':'") }
        i = skipWhitespace(bytes, from: i + 1)
        return i
    }

    /// The index of the first byte from `start` on that is not JSON whitespace.
    @inlinable
    public static func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return i
            }
        }
        return i
    }

    /// The index just past the closing quote of the string starting at `start`.
    public static func stringEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws -> Int {
        var i = start + 1
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { return i + 1 }
            if b < 0x20 { throw JSONParseError(offset: i, reason: "control character in string") }
            if b == UInt8(ascii: "\\") {
                guard i + 1 < bytes.count else { break }
                switch bytes[i + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i += 2
                case UInt8(ascii: "u"):
                    guard i + 6 <= bytes.count else { throw JSONParseError(offset: i, reason: "unterminated string") }
                    for k in 2..<6 where !isHex(bytes[i + k]) {
                        throw JSONParseError(offset: i + k, reason: "invalid \\u escape")
                    }
                    i += 6
                default:
                    throw JSONParseError(offset: i + 1, reason: "invalid escape")
                }
                continue
            }
            i += 1
        }
        throw JSONParseError(offset: i, reason: "unterminated string")
    }

    public static func numberEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws -> Int {
        var i = start
        func digits() -> Bool {
            let s = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            return i > s
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        if i < bytes.count, bytes[i] == UInt8(ascii: "0") { i += 1 } else {
            guard digits() else { throw JSONParseError(offset: i, reason: "invalid number") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() else { throw JSONParseError(offset: i, reason: "invalid number") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() else { throw JSONParseError(offset: i, reason: "invalid number") }
        }
        return i
    }

    private static func literal(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int, _ word: StaticString) throws -> Int {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { throw JSONParseError(offset: i, reason: "unexpected end") }
        for k in 0..<n where bytes[i + k] != word.utf8Start[k] {
            throw JSONParseError(offset: i, reason: "invalid literal")
        }
        return i + n
    }

    private static func isHex(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
    }

    /// The top-level members of an object as key → byte range of the value. Keys are decoded strings.
    public static func members(_ bytes: UnsafeBufferPointer<UInt8>) throws -> [(key: String, range: Range<Int>)] {
        var i = skipWhitespace(bytes, from: 0)
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { throw JSONParseError(offset: i, reason: "expected an object") }
        i = skipWhitespace(bytes, from: i + 1)
        var out: [(String, Range<Int>)] = []
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { return out }
        while true {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw JSONParseError(offset: i, reason: "expected key") }
            let keyEnd = try stringEnd(bytes, from: i)
            guard case .string(let name) = try JSONParser.parse(bytes: UnsafeBufferPointer(rebasing: bytes[i..<keyEnd])) else {
                throw JSONParseError(offset: i, reason: "expected key")
            }
            i = skipWhitespace(bytes, from: keyEnd)
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw JSONParseError(offset: i, reason: "expected ':'") }
            let valueStart = skipWhitespace(bytes, from: i + 1)
            let valueEnd = try self.valueEnd(bytes, from: valueStart)
            out.append((name, valueStart..<valueEnd))
            i = skipWhitespace(bytes, from: valueEnd)
            guard i < bytes.count else { throw JSONParseError(offset: i, reason: "unexpected end") }
            if bytes[i] == UInt8(ascii: "}") {
                guard skipWhitespace(bytes, from: i + 1) == bytes.count else { throw JSONParseError(offset: i + 1, reason: "trailing characters") }
                return out
            }
            guard bytes[i] == UInt8(ascii: ",") else { throw JSONParseError(offset: i, reason: "expected ',' or '}'") }
            i = skipWhitespace(bytes, from: i + 1)
        }
    }
}
