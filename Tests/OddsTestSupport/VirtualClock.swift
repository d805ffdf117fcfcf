import Foundation
import OddsTransport

/// A clock that moves only when the test says: `advance(by:)` wakes every sleeper whose time has come,
/// in order. A 5-second rule or a backoff then costs no real time, and a slow machine cannot make
/// the test see a wait end early or late.
public final class VirtualClock: FeedClock, @unchecked Sendable {  // all state is behind `lock`
    private let lock = NSLock()
    private var current: Date
    private var nextID = 0
    private var sleepers: [Int: (due: Date, continuation: CheckedContinuation<Void, Error>)] = [:]
    private var cancelled = Set<Int>()

    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = start }

    public var now: Date { lock.withLock { current } }

    /// How many tasks are asleep on this clock.
    public var sleeping: Int { lock.withLock { sleepers.count } }

    /// When each sleeper wakes, earliest first.
    public var dues: [Date] { lock.withLock { sleepers.values.map(\.due).sorted() } }

    public func sleep(_ seconds: TimeInterval) async throws {
        guard seconds > 0 else { try Task.checkCancellation(); await Task.yield(); return }
        let id: Int = lock.withLock { nextID += 1; return nextID }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, Error>) in
                let cancelledAlready: Bool = lock.withLock {
                    if cancelled.remove(id) != nil { return true }
                    sleepers[id] = (current.addingTimeInterval(seconds), c)
                    return false
                }
                if cancelledAlready { c.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let c: CheckedContinuation<Void, Error>? = lock.withLock {
                if let s = sleepers.removeValue(forKey: id) { return s.continuation }
                cancelled.insert(id)
                return nil
            }
            c?.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock on by `seconds` and wakes the sleepers now due, earliest first.
    public func advance(by seconds: TimeInterval) {
        let due: [CheckedContinuation<Void, Error>] = lock.withLock {
            current = current.addingTimeInterval(seconds)
            let ready = sleepers.filter { $0.value.due <= current }.sorted { $0.value.due < $1.value.due }
            for (id, _) in ready { sleepers[id] = nil }
            return ready.map(\.value.continuation)
        }
        for c in due { c.resume() }
    }

    /// Waits (in real time, bounded) until some task sleeps on this clock.
    public func waitForSleeper(count: Int = 1, timeout: Double = 60) async throws {
        try await waitFor("\(count) sleeper(s) on the virtual clock", timeout: timeout) { self.sleeping >= count }
    }
}
