import Foundation
import OddsModel

/// Repeated warnings as a person can read them: the first of a kind is said whole (its provider
/// text cut to `ProviderText.excerptLimit`), later ones of that kind within `interval` are counted
/// and said as one line when the interval has passed (or the connection ends). A frame of 200,000
/// bad messages is two lines on stderr, not 200,000.
public struct WarningGate: Sendable {
    public let interval: TimeInterval
    private var kinds: [String: Kind] = [:]
    private struct Kind: Sendable { var since: Date; var pending: Int; var last: String }

    public init(interval: TimeInterval = 10) { self.interval = interval }

    /// The lines to say now for a warning of `kind` with `detail` (cut here).
    public mutating func note(_ kind: String, _ detail: String, now: Date) -> [String] {
        let detail = ProviderText.excerpt(detail)
        guard var k = kinds[kind] else {
            kinds[kind] = Kind(since: now, pending: 0, last: detail)
            return ["\(kind): \(detail)"]
        }
        k.pending += 1
        k.last = detail
        kinds[kind] = k
        return due(now: now)
    }

    /// Whether any count waits to be said.
    public var hasPending: Bool { kinds.values.contains { $0.pending > 0 } }

    /// The counts whose interval has passed (all of them with `force`), as lines.
    public mutating func due(now: Date, force: Bool = false) -> [String] {
        var lines: [String] = []
        for (name, k) in kinds.sorted(by: { $0.key < $1.key }) where k.pending > 0 {
            let elapsed = now.timeIntervalSince(k.since)
            guard force || elapsed >= interval else { continue }
            let seconds = max(1, Int(elapsed.rounded()))
            lines.append("\(name): \(k.pending) more in the last \(seconds) s (the latest: \(k.last))")
            kinds[name] = Kind(since: now, pending: 0, last: k.last)
        }
        return lines
    }
}
