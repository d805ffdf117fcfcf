import Foundation
import OddsJSON
import OddsModel

/// The time a provider puts on a message (BoltOdds' ISO `timestamp`, PulseScore's and SportsAPIPro v2's
/// `timestamp` in milliseconds, SportsAPIPro v1's `ts`), read in any plausible form: Unix seconds or
/// milliseconds as a number or as digits, or ISO 8601 text. Nil when absent, unreadable or outside 2000–2100:
/// a provider's clock is told, never guessed.
public enum ProviderTime {
    /// The time in `value`.
    public static func read(_ value: JSONValue?) -> Date? {
        switch value {
        case .number(let n)?: return Double(n).flatMap(ISODate.unix)
        case .string(let s)?: return ISODate.parse(lenient: s)
        default: return nil
        }
    }

    /// How far into a frame its envelope's time is looked for: it comes before the payload (as every provider's
    /// docs show it), and a frame of tens of MB is never scanned for it.
    public static let envelopeBytes = 4096

    /// The time in a message's top-level member `key` (in a frame that is a list of messages, the first one's),
    /// read from its first `envelopeBytes` without decoding the rest; nil when it is not there.
    public static func read(_ frame: UnsafeBufferPointer<UInt8>, key: StaticString) -> Date? {
        var s = JSONScanner(UnsafeBufferPointer(rebasing: frame.prefix(envelopeBytes)))
        do {
            if s.isArray() {
                guard try s.enterArray() else { return nil }
            }
            guard s.isObject(), try s.enterObjectBeforeKey() else { return nil }
            repeat {
                try s.readMemberKey()
                guard s.key(is: key) else {
                    try s.skip()
                    continue
                }
                // The common form read from its bytes (a frame each, on the replay's path); any other as text.
                if let bytes = s.plainString() {
                    if let date = ISODate.parse(bytes: bytes) { return ISODate.unix(date.timeIntervalSince1970) }
                    return ISODate.parse(lenient: String(decoding: bytes, as: UTF8.self))
                }
                switch try s.scalar() {
                case .number(let n): return Double(n).flatMap(ISODate.unix)
                case .string(let t): return ISODate.parse(lenient: t)
                default: return nil
                }
            } while try s.nextMemberBeforeKey()
        } catch {
            return nil
        }
        return nil
    }
}

extension Inbound {
    /// The message without the provider's time (what it says, for a reader that looks at its shape).
    public var unstamped: Inbound {
        if case .stamped(let inner, _) = self { return inner.unstamped }
        return self
    }

    /// The message with the provider's time on it, when it has one and the message carries updates.
    public func stamped(_ at: Date?) -> Inbound {
        guard let at, count > 0 else { return self }
        return .stamped(self, at: at)
    }
}
