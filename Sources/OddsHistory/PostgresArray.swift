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

/// A one-dimensional array read back in the binary format, element by element, into a caller's closure: a match's
/// price changes come back as a few arrays a selection rather than as a row each.
enum PostgresArrayReader {
    struct Malformed: Error {}

    /// Each element of a one-dimensional array of `width`-byte elements, read by `decode` (nil for NULL). An array
    /// of any other shape, an element of another width, or bytes cut short: `Malformed`.
    static func elements<T>(_ cell: ByteBuffer?, width: Int, _ decode: (inout ByteBuffer) -> T?) throws -> [T?] {
        guard var buffer = cell else { throw Malformed() }
        guard let dimensions = buffer.readInteger(as: Int32.self), buffer.readInteger(as: Int32.self) != nil,
              buffer.readInteger(as: UInt32.self) != nil else { throw Malformed() }
        if dimensions == 0 { return [] }
        guard dimensions == 1, let count = buffer.readInteger(as: Int32.self), count >= 0, buffer.readInteger(as: Int32.self) != nil
        else { throw Malformed() }
        var out: [T?] = []
        out.reserveCapacity(Int(count))
        for _ in 0..<Int(count) {
            guard let length = buffer.readInteger(as: Int32.self) else { throw Malformed() }
            if length < 0 {
                out.append(nil)
                continue
            }
            guard length == width, var bytes = buffer.readSlice(length: width), let value = decode(&bytes) else { throw Malformed() }
            out.append(value)
        }
        return out
    }

    /// A bigint[]'s elements.
    static func ints(_ cell: ByteBuffer?) throws -> [Int64?] {
        try elements(cell, width: 8) { $0.readInteger(as: Int64.self) }
    }

    /// A boolean[]'s elements.
    static func bools(_ cell: ByteBuffer?) throws -> [Bool?] {
        try elements(cell, width: 1) { $0.readInteger(as: UInt8.self).map { $0 != 0 } }
    }
}
