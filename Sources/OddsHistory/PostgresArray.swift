import NIOCore
import PostgresNIO

/// A one-dimensional array bound as one parameter, whose elements may be NULL (postgres-nio's own arrays cannot
/// hold NULL). A batch's rows go to the server as one array a column and come back out through `unnest`.
struct PostgresArray<Element: PostgresArrayEncodable & PostgresNonThrowingEncodable>: PostgresDynamicTypeEncodable {
    var elements: [Element?]

    init(_ elements: [Element?]) { self.elements = elements }

    var psqlType: PostgresDataType { Element.psqlArrayType }
    var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        // The binary array format: dimensions, whether any element is NULL, the element type; then, per dimension,
        // its length and lower bound; then each element as its length (-1 for NULL) and its bytes.
        buffer.writeInteger(elements.isEmpty ? 0 : 1, as: Int32.self)
        buffer.writeInteger(elements.contains { $0 == nil } ? 1 : 0, as: Int32.self)
        buffer.writeInteger(Element.psqlType.rawValue)
        guard !elements.isEmpty else { return }
        buffer.writeInteger(Int32(elements.count))
        buffer.writeInteger(1, as: Int32.self)
        for element in elements {
            guard let element else {
                buffer.writeInteger(-1, as: Int32.self)
                continue
            }
            let lengthAt = buffer.writerIndex
            buffer.writeInteger(0, as: Int32.self)
            element.encode(into: &buffer, context: context)
            buffer.setInteger(Int32(buffer.writerIndex - lengthAt - 4), at: lengthAt)
        }
    }
}

/// A one-dimensional array read back in the binary format: a match's price changes come back as a few arrays a
/// selection rather than as a row each. Read straight from the cell's bytes, element by element.
enum PostgresArrayReader {
    struct Malformed: Error {}

    /// Each element of a one-dimensional array of `width`-byte elements (nil for NULL), from its big-endian bytes
    /// as an unsigned number. An array of any other shape, an element of another width, or bytes cut short:
    /// `Malformed`.
    static func elements(_ cell: ByteBuffer?, width: Int) throws -> [UInt64?] {
        guard let cell else { throw Malformed() }
        return try cell.withUnsafeReadableBytes { raw -> [UInt64?] in
            var at = 0
            func int32() throws -> Int32 {
                guard at + 4 <= raw.count else { throw Malformed() }
                var v: UInt32 = 0
                for k in 0..<4 { v = v << 8 | UInt32(raw[at + k]) }
                at += 4
                return Int32(bitPattern: v)
            }
            let dimensions = try int32()
            _ = try int32()
            _ = try int32()
            if dimensions == 0 { return [] }
            guard dimensions == 1 else { throw Malformed() }
            let count = Int(try int32())
            _ = try int32()
            // Every element takes at least its length's four bytes: a count the bytes cannot hold is malformed.
            guard count >= 0, count <= (raw.count - at) / 4 else { throw Malformed() }
            var out: [UInt64?] = []
            out.reserveCapacity(count)
            for _ in 0..<count {
                let length = try int32()
                if length < 0 {
                    out.append(nil)
                    continue
                }
                guard Int(length) == width, at + width <= raw.count else { throw Malformed() }
                var v: UInt64 = 0
                for k in 0..<width { v = v << 8 | UInt64(raw[at + k]) }
                at += width
                out.append(v)
            }
            return out
        }
    }

    /// A bigint[]'s elements.
    static func ints(_ cell: ByteBuffer?) throws -> [Int64?] {
        try elements(cell, width: 8).map { $0.map { Int64(bitPattern: $0) } }
    }

    /// A boolean[]'s elements.
    static func bools(_ cell: ByteBuffer?) throws -> [Bool?] {
        try elements(cell, width: 1).map { $0.map { $0 != 0 } }
    }
}

/// A price change's exact odds and suspension in one bigint, as `history show` reads a match's changes from
/// PostgreSQL: numerator × 2³² + denominator × 2 + suspended, for a numerator under 2³¹ and a denominator under
/// 2³⁰; -1 (-2 suspended) for no price; -3 (-4 suspended) for a price too wide to pack, read as it is instead.
struct PackedPrice {
    /// The expression that packs a `price_change` row's columns.
    static let sql = """
        CASE WHEN odds_num IS NULL OR odds_den IS NULL OR odds_den <= 0 THEN -1 - suspended::int
             WHEN odds_num BETWEEN 0 AND 2147483647 AND odds_den <= 1073741823 THEN odds_num * 4294967296 + odds_den * 2 + suspended::int
             ELSE -3 - suspended::int END
        """

    var odds: (Int64, Int64)?
    var suspended: Bool
    /// The odds did not fit: read them from the row.
    var isWide: Bool

    init(_ packed: Int64?) {
        let v = packed ?? -1
        if v >= 0 {
            odds = (v >> 32, (v & 0xFFFF_FFFF) >> 1)
            suspended = v & 1 == 1
            isWide = false
        } else {
            odds = nil
            suspended = v == -2 || v == -4
            isWide = v <= -3
        }
    }
}
