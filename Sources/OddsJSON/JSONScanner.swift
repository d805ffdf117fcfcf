#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A single-pass reader over a JSON document's bytes for decoders that know the shape they want:
/// keys are compared as bytes (no `String` per key), the values a decoder asks for are decoded as
/// scalars, and everything else is skipped without building anything.
///
/// It accepts exactly what `JSONParser` accepts: the same grammar, the same nesting limit, strings
/// validated as UTF-8 (also where skipped), so a fast decoder and the generic one agree on which
/// documents are JSON. Errors are `JSONParseError`s.
public struct JSONScanner {
    // Inlinable: the decoders in other modules call these per key and per value.
    public let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline var _index = 0
    public var index: Int { _index }
    /// Containers open around the current position.
    public var nesting: Int { depth }
    /// Containers open around the current position (the generic parser's depth).
    @usableFromInline var depth = 0
    /// The current member's key: its raw bytes, or the decoded text when it had escapes.
    @usableFromInline var keyStart = 0
    @usableFromInline var keyCount = 0
    @usableFromInline var escapedKey: String?
    /// The generic parser's nesting limit.
    @usableFromInline static let maxDepth = 512

    @inlinable
    public init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Whether `bytes` are one JSON document (validated, nothing built).
    public static func isJSON(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var s = JSONScanner(bytes)
        do { try s.skip(); try s.finish(); return true } catch { return false }
    }

    /// A scanner that resumes at `index` inside `nesting` open containers, as one that had read the
    /// document up to there would be: for a decoder that knows where a member it read before stands
    /// (its bytes before `index` being those it read then, at the same nesting).
    @inlinable
    public init(_ bytes: UnsafeBufferPointer<UInt8>, resumingAt index: Int, nesting: Int) {
        self.bytes = bytes
        _index = min(max(0, index), bytes.count)
        depth = nesting
    }

    /// Moves to `index` (not back), past bytes the caller has checked itself: a whole value that is
    /// byte for byte one this scanner's grammar accepted before at this nesting (see `consume`).
    @inlinable
    public mutating func skipChecked(to index: Int) {
        if index > _index { _index = min(index, bytes.count) }
    }

    /// How many bytes from `index` on are the same as `other`'s from `otherIndex` on (at most what
    /// both have left): where two versions of a document first differ. Eight bytes at a time.
    @inlinable
    public func sameBytes(from index: Int, as other: UnsafeBufferPointer<UInt8>, from otherIndex: Int) -> Int {
        let n = min(bytes.count - index, other.count - otherIndex)
        guard n > 0, let a = bytes.baseAddress, let b = other.baseAddress else { return 0 }
        var k = 0
        while k + 8 <= n {
            let x = UnsafeRawPointer(a + index + k).loadUnaligned(as: UInt64.self)
            let y = UnsafeRawPointer(b + otherIndex + k).loadUnaligned(as: UInt64.self)
            if x != y { return k + (x ^ y).littleEndian.trailingZeroBitCount / 8 }
            k += 8
        }
        while k < n, a[index + k] == b[otherIndex + k] { k += 1 }
        return k
    }

    @usableFromInline
    func error(_ reason: String) -> JSONParseError { JSONParseError(offset: _index, reason: reason) }

    @inlinable @inline(__always)
    mutating func skipWhitespace() {
        // Usually there is none: one comparison.
        if _index < bytes.count, bytes[_index] > 0x20 { return }
        _index = JSONSpan.skipWhitespace(bytes, from: _index)
    }

    /// The first byte of the next value (after whitespace), nil at the end.
    @inlinable
    public mutating func peek() -> UInt8? {
        skipWhitespace()
        return _index < bytes.count ? bytes[_index] : nil
    }

    /// After the top-level value: only whitespace may follow.
    @inlinable
    public mutating func finish() throws {
        skipWhitespace()
        guard _index == bytes.count else { throw error("trailing characters") }
    }

    @inlinable
    mutating func checkDepth() throws {
        guard depth < JSONScanner.maxDepth else { throw error("nested too deeply") }
    }

    // MARK: Objects and arrays

    /// Enters the object that starts here and reads its first key. False (with the object consumed)
    /// when it is empty. Throws when the value is not an object: call `isObject` first if it may not be.
    @inlinable
    public mutating func enterObject() throws -> Bool {
        guard try enterObjectBeforeKey() else { return false }
        try readKey()
        return true
    }

    /// After a member's value: true with the next key read, false when the object closed.
    @inlinable
    public mutating func nextMember() throws -> Bool {
        guard try nextMemberBeforeKey() else { return false }
        try readKey()
        return true
    }

    /// `enterObject()` without reading the first key: the scanner stops at it, for `member(matches:)`
    /// or `readMemberKey()`. False (with the object consumed) when it is empty.
    @inlinable
    public mutating func enterObjectBeforeKey() throws -> Bool {
        try checkDepth()
        skipWhitespace()
        guard _index < bytes.count, bytes[_index] == UInt8(ascii: "{") else { throw error("expected an object") }
        _index += 1
        skipWhitespace()
        if _index < bytes.count, bytes[_index] == UInt8(ascii: "}") { _index += 1; return false }
        depth += 1
        return true
    }

    /// `nextMember()` without reading the next key (see `enterObjectBeforeKey`).
    @inlinable @inline(__always)
    public mutating func nextMemberBeforeKey() throws -> Bool {
        skipWhitespace()
        guard _index < bytes.count else { throw error("unexpected end") }
        if bytes[_index] == UInt8(ascii: ",") {
            _index += 1
            skipWhitespace()
            return true
        }
        guard bytes[_index] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
        _index += 1
        depth -= 1
        return false
    }

    /// When the key the scanner stopped at is `name` written plainly (`"name":`, no escapes), reads
    /// it and returns true; false with nothing consumed otherwise (read it with `readMemberKey()`).
    @inlinable @inline(__always)
    public mutating func readMemberKey(ifLiteral name: StaticString) -> Bool {
        let n = name.utf8CodeUnitCount
        guard _index + n + 2 < bytes.count, bytes[_index] == UInt8(ascii: "\""), bytes[_index + n + 1] == UInt8(ascii: "\"")
        else { return false }
        let p = name.utf8Start
        var k = 0
        while k < n {
            if bytes[_index + 1 + k] != p[k] { return false }
            k += 1
        }
        let i = JSONSpan.skipWhitespace(bytes, from: _index + n + 2)
        guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return false }
        keyStart = _index + 1
        keyCount = n
        escapedKey = nil
        _index = i + 1
        skipWhitespace()
        return true
    }

    /// Reads the object here member by member: `body` is given the scanner with the member's key read,
    /// where the member starts (its key's quote) and where its value starts, and must move past the
    /// value. False when the value here is not an object, or (`unique`) a key comes twice (compared
    /// decoded, so an escaped spelling is the same key).
    @inlinable
    public mutating func forEachMember(unique: Bool, _ body: (inout JSONScanner, _ start: Int, _ valueStart: Int) throws -> Void) throws -> Bool {
        guard isObject() else { return false }
        guard try enterObjectBeforeKey() else { return true }
        var seen = Set<String>()
        repeat {
            let start = _index
            try readMemberKey()
            if unique { guard seen.insert(currentKey).inserted else { return false } }
            try body(&self, start, _index)
        } while try nextMemberBeforeKey()
        return true
    }

    /// When the bytes here are exactly `rest`: the rest of an object up to and including its closing
    /// brace, as this scanner read it before at the same nesting depth (see `consume`), moves past
    /// them, leaving the object, and returns true.
    @inlinable
    public mutating func objectRest(matches rest: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = rest.count
        guard n > 0, depth > 0, _index + n <= bytes.count, rest[n - 1] == UInt8(ascii: "}"),
              memcmp(bytes.baseAddress! + _index, rest.baseAddress!, n) == 0 else { return false }
        _index += n
        depth -= 1
        return true
    }

    /// Reads the key the scanner stopped at (after `enterObjectBeforeKey` or `nextMemberBeforeKey`).
    @inlinable
    public mutating func readMemberKey() throws { try readKey() }

    /// When the bytes here are exactly `member` (a whole `"key": value` this scanner read before at
    /// the same nesting depth, see `consume`) and a `,` or `}` follows, moves past them and returns
    /// true. The key is then not read: the caller knows it from when it read those bytes.
    @inlinable
    public mutating func member(matches member: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = member.count
        guard n > 0, _index + n < bytes.count,
              memcmp(bytes.baseAddress! + _index, member.baseAddress!, n) == 0 else { return false }
        // A number is not self-delimiting ("1.5" is a prefix of "1.55"): what follows must end the member.
        let i = JSONSpan.skipWhitespace(bytes, from: _index + n)
        guard i < bytes.count, bytes[i] == UInt8(ascii: ",") || bytes[i] == UInt8(ascii: "}") else { return false }
        _index += n
        return true
    }

    /// When the bytes here are exactly `key` (a key with its colon, as this scanner read it before
    /// from `readMemberKey()`'s start to its end), moves past them and returns true; the key's text
    /// is the caller's to remember (`currentKey` is not updated).
    @inlinable
    public mutating func key(matches key: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = key.count
        guard n > 0, _index + n <= bytes.count,
              memcmp(bytes.baseAddress! + _index, key.baseAddress!, n) == 0 else { return false }
        _index += n
        return true
    }

    /// Enters the array that starts here. False (with the array consumed) when it is empty.
    @inlinable
    public mutating func enterArray() throws -> Bool {
        try checkDepth()
        skipWhitespace()
        guard _index < bytes.count, bytes[_index] == UInt8(ascii: "[") else { throw error("expected an array") }
        _index += 1
        skipWhitespace()
        if _index < bytes.count, bytes[_index] == UInt8(ascii: "]") { _index += 1; return false }
        depth += 1
        return true
    }

    /// After an element: true when another follows, false when the array closed.
    @inlinable
    public mutating func nextElement() throws -> Bool {
        skipWhitespace()
        guard _index < bytes.count else { throw error("unexpected end") }
        if bytes[_index] == UInt8(ascii: ",") { _index += 1; return true }
        guard bytes[_index] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
        _index += 1
        depth -= 1
        return false
    }

    /// The index of the first byte from `i` on that ends a plain string run: a quote, a backslash,
    /// a control character or a non-ASCII byte (`bytes.count` when none). Eight bytes at a time.
    @inlinable @inline(__always)
    func plainRunEnd(from start: Int) -> Int {
        var i = start
        let n = bytes.count
        guard let base = bytes.baseAddress else { return n }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while i + 8 <= n {
            let x = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self).littleEndian
            let q = x ^ (ones &* 0x22)
            let b = x ^ (ones &* 0x5C)
            // A byte that is zero (after the xor) or below 0x20 sets its high bit; so does any byte >= 0x80.
            // Borrows can also mark bytes above a marked one, but the lowest mark is always exact.
            let marks = ((q &- ones) & ~q | (b &- ones) & ~b | (x &- ones &* 0x20) & ~x | x) & highs
            if marks != 0 { return i + marks.trailingZeroBitCount / 8 }
            i += 8
        }
        while i < n {
            let c = base[i]
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 || c >= 0x80 { return i }
            i += 1
        }
        return n
    }

    @inlinable
    mutating func readKey() throws {
        guard _index < bytes.count, bytes[_index] == UInt8(ascii: "\"") else { throw error("expected key") }
        let start = _index + 1
        let i = plainRunEnd(from: start)
        if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
            keyStart = start
            keyCount = i - start
            escapedKey = nil
            _index = i + 1
        } else {
            escapedKey = try parseString()
            keyCount = -1
        }
        skipWhitespace()
        guard _index < bytes.count, bytes[_index] == UInt8(ascii: ":") else { throw error("expected ':'") }
        _index += 1
        skipWhitespace()
    }

    /// The current member's key as text (keys that name things: BoltOdds' outcome keys).
    public var currentKey: String {
        guard keyCount >= 0 else { return escapedKey ?? "" }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[keyStart..<(keyStart + keyCount)]), as: UTF8.self)
    }

    /// The current member's key as its bytes when it is printable ASCII without escapes; nil otherwise
    /// (read `currentKey`).
    @inlinable
    public var currentKeyBytes: UnsafeBufferPointer<UInt8>? {
        guard keyCount >= 0 else { return nil }
        return UnsafeBufferPointer(rebasing: bytes[keyStart..<(keyStart + keyCount)])
    }

    /// True when the current member's key is `name` (an ASCII key as written in the wire format).
    @inlinable
    public func key(is name: StaticString) -> Bool {
        let n = name.utf8CodeUnitCount
        guard keyCount == n else { return keyCount < 0 && escapedKey == name.description }
        let p = name.utf8Start
        var k = 0
        while k < n {
            if bytes[keyStart + k] != p[k] { return false }
            k += 1
        }
        return true
    }

    // MARK: Values

    /// The value here as a scalar; an object or array is skipped and read as `.container`.
    @inlinable
    public mutating func scalar() throws -> JSONScalar {
        try checkDepth()
        skipWhitespace()
        guard _index < bytes.count else { throw error("unexpected end") }
        switch bytes[_index] {
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = _index
            try skipNumber()
            return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<_index]), as: UTF8.self))
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            try skip()
            return .container
        default: throw error("unexpected character")
        }
    }

    /// When the value here is a string of printable ASCII without escapes, its bytes (between the
    /// quotes), moved past; nil otherwise, with nothing consumed (read it with `scalar()`). Lets a
    /// decoder look at a value's bytes, or share one `String` for bytes it has seen, instead of
    /// making a `String` for every value.
    @inlinable @inline(__always)
    public mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        skipWhitespace()
        guard depth < JSONScanner.maxDepth, _index < bytes.count, bytes[_index] == UInt8(ascii: "\"") else { return nil }
        let start = _index + 1
        let i = plainRunEnd(from: start)
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
        _index = i + 1
        return UnsafeBufferPointer(rebasing: bytes[start..<i])
    }

    /// Skips the value here, checking it as the generic parser would.
    @inlinable
    public mutating func skip() throws {
        try checkDepth()
        skipWhitespace()
        guard _index < bytes.count else { throw error("unexpected end") }
        switch bytes[_index] {
        case UInt8(ascii: "{"):
            guard try enterObject() else { return }
            repeat { try skip() } while try nextMember()
        case UInt8(ascii: "["):
            guard try enterArray() else { return }
            repeat { try skip() } while try nextElement()
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try skipNumber()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: throw error("unexpected character")
        }
    }

    /// The byte range of the value here, skipped (to decode later with a scanner of its own).
    @inlinable
    public mutating func skipRange() throws -> Range<Int> {
        skipWhitespace()
        let start = _index
        try skip()
        return start..<_index
    }

    /// When the bytes here (after whitespace) are exactly `expected`, moves past them and returns
    /// true. `expected` must be one whole value this scanner's grammar accepted before at this
    /// nesting depth or a deeper one: a JSON value ends where its own bytes say, so the same bytes
    /// are the same value (and what was within the nesting limit deeper is within it here).
    @inlinable
    public mutating func consume(_ expected: [UInt8]) -> Bool {
        skipWhitespace()
        let n = expected.count
        guard n > 0, _index + n <= bytes.count else { return false }
        let same = expected.withUnsafeBufferPointer { e in
            memcmp(bytes.baseAddress! + _index, e.baseAddress!, n) == 0
        }
        if same { _index += n }
        return same
    }

    /// True when the value here is an object.
    @inlinable
    public mutating func isObject() -> Bool { peek() == UInt8(ascii: "{") }

    /// True when the value here is an array.
    @inlinable
    public mutating func isArray() -> Bool { peek() == UInt8(ascii: "[") }

    @inlinable
    mutating func literal(_ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        guard _index + n <= bytes.count else { throw error("unexpected end") }
        for k in 0..<n where bytes[_index + k] != word.utf8Start[k] { throw error("invalid literal") }
        _index += n
    }

    @inlinable
    mutating func skipNumber() throws {
        _index = try JSONSpan.numberEnd(bytes, from: _index)
    }

    /// Skips a string: plain ASCII is only scanned; escapes and UTF-8 are checked as when decoding.
    @inlinable
    mutating func skipString() throws {
        let i = plainRunEnd(from: _index + 1)
        if i < bytes.count, bytes[i] == UInt8(ascii: "\"") { _index = i + 1; return }
        _ = try parseString()
    }

    /// Decodes the string that starts here, exactly as `JSONParser` does.
    @usableFromInline
    mutating func parseString() throws -> String {
        var reader = JSONParser.Reader(bytes: bytes)
        reader.index = _index
        defer { _index = reader.index }
        return try reader.parseString()
    }
}

/// A member's value as read by `JSONScanner.scalar()`: what the decoders' `.string`, `.text`,
/// `.int` and `.bool` look at, with the same meaning as on `JSONValue`.
public enum JSONScalar: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    /// An object or an array (skipped).
    case container

    public init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n): self = .number(n)
        case .string(let s): self = .string(s)
        case .array, .object: self = .container
        }
    }

    public var string: String? { if case .string(let s) = self { return s } else { return nil } }

    /// A string, or a number's literal text.
    public var text: String? {
        switch self {
        case .string(let s): return s
        case .number(let n): return n
        default: return nil
        }
    }

    /// A whole number: an integer (`1`), a number with an integral value (`1.0`, `-1.0`, `1e2`), or
    /// a string holding either (`"1"`, `"1.0"`). Feeds send counts and ids in all of these forms;
    /// `1.5`, `"abc"` or a value beyond `Int` is nil, never a truncation.
    public var int: Int? {
        switch self {
        case .number(let n): return Int(n) ?? JSONScalar.integral(n)
        case .string(let s): return Int(s) ?? JSONScalar.integral(s)
        case .bool(let b): return b ? 1 : 0
        default: return nil
        }
    }

    /// The integer a JSON number's text denotes exactly (`"3.0"`, `"-1.00"`, `"2e1"`, `"1.5E+1"`),
    /// nil when it has a fractional part, is not a JSON number or is out of `Int`'s range.
    public static func integral(_ text: String) -> Int? {
        var digits: [UInt8] = []
        var negative = false, pointAt: Int?, exponent = 0
        var bytes = text.utf8[...]
        guard bytes.count <= 64 else { return nil }
        if bytes.first == UInt8(ascii: "-") { negative = true; bytes = bytes.dropFirst() }
        var sawDigit = false
        while let b = bytes.first {
            if b >= 0x30 && b <= 0x39 { digits.append(b - 0x30); sawDigit = true }
            else if b == UInt8(ascii: "."), pointAt == nil, sawDigit { pointAt = digits.count }
            else { break }
            bytes = bytes.dropFirst()
        }
        guard sawDigit, pointAt != digits.count else { return nil }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            var sign = 1
            if let s = bytes.first, s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { sign = s == UInt8(ascii: "-") ? -1 : 1; bytes = bytes.dropFirst() }
            guard !bytes.isEmpty, bytes.count <= 4, let e = Int(Substring(bytes)), e >= 0 else { return nil }
            exponent = sign * e
            bytes = bytes[bytes.endIndex...]
        }
        guard bytes.isEmpty else { return nil }
        // The value is digits × 10^(exponent − fraction digits).
        var shift = exponent - (pointAt.map { digits.count - $0 } ?? 0)
        while shift < 0 {
            guard let last = digits.last, last == 0 else { return nil }
            digits.removeLast(); shift += 1
        }
        var value = 0
        for d in digits {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int(d))
            guard !o1, !o2 else { return nil }
            value = a
        }
        for _ in 0..<shift {
            if value == 0 { break }
            let (m, o) = value.multipliedReportingOverflow(by: 10)
            guard !o else { return nil }
            value = m
        }
        return negative ? -value : value
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
}
