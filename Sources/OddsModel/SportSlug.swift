import Foundation

/// Turns a provider's sport name into the slug used everywhere ("Ice Hockey" → "ice-hockey").
public func sportSlug(_ name: String) -> String {
    guard name.utf8.allSatisfy({ $0 < 0x80 }) else {
        return name.lowercased().split(whereSeparator: { $0 == " " || $0 == "_" }).joined(separator: "-")
    }
    // ASCII (every sport name on the wire): the same on bytes, one allocation at most.
    var slug: [UInt8] = []
    slug.reserveCapacity(name.utf8.count)
    var pendingDash = false
    for b in name.utf8 {
        if b == UInt8(ascii: " ") || b == UInt8(ascii: "_") { pendingDash = !slug.isEmpty; continue }
        if pendingDash { slug.append(UInt8(ascii: "-")); pendingDash = false }
        slug.append(b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b + 32 : b)
    }
    return String(decoding: slug, as: UTF8.self)
}
