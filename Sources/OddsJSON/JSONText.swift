/// Compact JSON text written as it is described, without building a `JSONOutput` first: the same text
/// `JSONOutput.write(to:)` gives for the same object, for the paths that write a lot of it (a stream's markets).
public struct JSONText {
    public private(set) var bytes: [UInt8] = []
    /// Whether the next member or element follows another (and so takes a comma).
    private var follows = false

    public init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    public mutating func beginObject() { separate(); bytes.append(0x7B); follows = false }
    public mutating func endObject() { bytes.append(0x7D); follows = true }
    public mutating func beginArray() { separate(); bytes.append(0x5B); follows = false }
    public mutating func endArray() { bytes.append(0x5D); follows = true }

    /// The next member's key, one the program spells (plain ASCII, nothing to escape): copied as it is.
    public mutating func key(_ k: StaticString) {
        separate()
        bytes.append(0x22)
        k.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(0x22)
        bytes.append(0x3A)
        follows = false
    }

    /// The next member's key, whatever its text; its value is written next.
    public mutating func key(text k: String) {
        separate()
        JSONWriter.quote(k, into: &bytes)
        bytes.append(0x3A)
        follows = false
    }

    public mutating func string(_ s: String) { separate(); JSONWriter.quote(s, into: &bytes); follows = true }
    /// A string, or null.
    public mutating func string(_ s: String?) { if let s { string(s) } else { null() } }
    public mutating func bool(_ b: Bool) { separate(); bytes.append(contentsOf: (b ? "true" : "false").utf8); follows = true }
    public mutating func null() { separate(); bytes.append(contentsOf: "null".utf8); follows = true }
    public mutating func value(_ v: JSONOutput) { separate(); v.write(to: &bytes); follows = true }
    /// Members, in order.
    public mutating func members(_ fields: [(String, JSONOutput)]) { for (k, v) in fields { key(text: k); value(v) } }

    private mutating func separate() { if follows { bytes.append(0x2C) } }
}
