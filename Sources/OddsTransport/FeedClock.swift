import Foundation

/// The time everything that waits goes by: backoff, the connection rate, watchdogs, pings, delayed
/// sends, rate limiters, REST retries. Real in the product; tests inject a virtual clock, so that a
/// 5-second rule or a backoff costs them no real time and no machine is too slow for them.
public protocol FeedClock: Sendable {
    /// Now, on this clock.
    var now: Date { get }
    /// Returns after `seconds` on this clock (at once for 0 or less); throws when the task is cancelled.
    func sleep(_ seconds: TimeInterval) async throws
}

/// The wall clock.
public struct SystemClock: FeedClock {
    public init() {}
    public var now: Date { Date() }
    public func sleep(_ seconds: TimeInterval) async throws {
        guard seconds > 0 else { try Task.checkCancellation(); return }
        try await Task.sleep(nanoseconds: UInt64(min(seconds, 86_400) * 1_000_000_000))
    }
}
