import Foundation

/// Exponential backoff: `initial`, doubling, capped at `maximum`; `maxAttempts` nil retries forever.
public struct BackoffPolicy: Sendable, Hashable {
    public var initial: TimeInterval
    public var maximum: TimeInterval
    public var maxAttempts: Int?

    public init(initial: TimeInterval, maximum: TimeInterval, maxAttempts: Int?) {
        self.initial = initial; self.maximum = maximum; self.maxAttempts = maxAttempts
    }

    /// WebSocket reconnects: 1, 2, 4, 8, 16, 30, 30 … seconds, forever.
    public static let reconnect = BackoffPolicy(initial: 1, maximum: 30, maxAttempts: nil)
    /// REST 429 and 5xx retries: 0.5, 1, 2, 4 seconds, then give up.
    public static let rest = BackoffPolicy(initial: 0.5, maximum: 8, maxAttempts: 4)

    /// The wait before retry number `attempt` (1-based).
    public func delay(attempt: Int) -> TimeInterval {
        guard attempt > 0 else { return 0 }
        let exponent = min(attempt - 1, 30)
        return min(maximum, initial * pow(2, Double(exponent)))
    }

    /// The wait before retry `attempt` with "equal jitter": half the exponential delay, plus a random
    /// share (`jitter` in 0..<1) of the other half, so clients that failed together spread out.
    public func delay(attempt: Int, jitter: Double) -> TimeInterval {
        let full = delay(attempt: attempt)
        let j = jitter.isFinite ? min(max(jitter, 0), 1) : 0
        return full / 2 + full / 2 * j
    }

    public func allows(attempt: Int) -> Bool { maxAttempts.map { attempt <= $0 } ?? true }
}

/// Spaces request starts so that no more than `perSecond` begin in any second.
public actor RateLimiter {
    private let interval: TimeInterval
    /// How far ahead of its steady pace a burst may run.
    private let tolerance: TimeInterval
    /// When the next request would be due at the steady pace (the cell rate algorithm's "TAT").
    private var due: Date = .distantPast

    private let clock: any FeedClock

    /// `perSecond` requests a second on average, of which `burst` may come at once, on `clock`.
    public init(perSecond: Double, burst: Int = 1, clock: any FeedClock = SystemClock()) {
        self.interval = 1 / perSecond
        self.tolerance = Double(max(1, burst) - 1) / perSecond
        self.clock = clock
    }

    /// Takes the next place and says how many seconds to wait before using it (0: at once).
    public func reserve() -> TimeInterval {
        let now = clock.now
        let start = max(now, due.addingTimeInterval(-tolerance))
        due = max(due, start).addingTimeInterval(interval)
        return start.timeIntervalSince(now)
    }

    /// Waits until the next request may start.
    public func acquire() async {
        let wait = reserve()
        if wait > 0 { try? await clock.sleep(wait) }
    }
}
