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

    /// Calls `element` with each element's bytes (nil for NULL), in order; returns the count.
    @discardableResult
    static func read(_ cell: ByteBuffer?, _ element: (inout ByteBuffer?) throws -> Void) throws -> Int {
        guard var buffer = cell else { throw Malformed() }
        guard let dimensions = buffer.readInteger(as: Int32.self), buffer.readInteger(as: Int32.self) != nil,
              buffer.readInteger(as: UInt32.self) != nil else { throw Malformed() }
        if dimensions == 0 { return 0 }
        guard dimensions == 1, let count = buffer.readInteger(as: Int32.self), count >= 0, buffer.readInteger(as: Int32.self) != nil
        else { throw Malformed() }
        for _ in 0..<Int(count) {
            guard let length = buffer.readInteger(as: Int32.self) else { throw Malformed() }
            if length < 0 {
                var none: ByteBuffer? = nil
                try element(&none)
            } else {
                guard let slice = buffer.readSlice(length: Int(length)) else { throw Malformed() }
                var bytes: ByteBuffer? = slice
                try element(&bytes)
            }
        }
        return Int(count)
    }

    /// A bigint[]'s elements.
    static func ints(_ cell: ByteBuffer?) throws -> [Int64?] {
        var out: [Int64?] = []
        try read(cell) { bytes in
            guard bytes != nil else { out.append(nil); return }
            guard bytes!.readableBytes == 8, let v = bytes!.readInteger(as: Int64.self) else { throw Malformed() }
            out.append(v)
        }
        return out
    }

    /// A boolean[]'s elements.
    static func bools(_ cell: ByteBuffer?) throws -> [Bool?] {
        var out: [Bool?] = []
        try read(cell) { bytes in
            guard bytes != nil else { out.append(nil); return }
            guard bytes!.readableBytes == 1, let v = bytes!.readInteger(as: UInt8.self) else { throw Malformed() }
            out.append(v != 0)
        }
        return out
    }
}
