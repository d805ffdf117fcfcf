import Foundation
import Testing

/// Two threads of their own for tests that compute for a while without a suspension point.
///
/// Swift Testing runs every test on the concurrency pool, which has one thread a core: two here. A
/// synchronous test holds its thread until it returns, so two long ones at once leave no thread to resume
/// the network tests' tasks (their feeds' pumps, their waits), whose timeouts then pass while nothing runs.
/// Tests marked `.heavyLane` run here instead: they queue behind each other, never in front of the pool's work.
public final class HeavyLane: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` is read and written only with `condition` locked.
    public static let shared = HeavyLane(threads: 2)

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init(threads: Int) {
        for _ in 0..<threads {
            Thread { [unowned self] in self.work() }.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// True on one of the lane's threads.
    public static var isCurrent: Bool { Thread.current.threadDictionary["odds.heavy-lane"] != nil }

    private func work() {
        Thread.current.threadDictionary["odds.heavy-lane"] = true
        Thread.current.name = "heavy-lane"  // set from the thread itself, it names the OS thread (perf, gdb)
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Runs a test (or each test of a suite) on `HeavyLane`: for synchronous tests that take a second or
/// more of CPU, or block a thread on purpose.
public struct HeavyLaneTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(HeavyLane.shared) { try await function() }
    }
}

extension Trait where Self == HeavyLaneTrait {
    /// See `HeavyLaneTrait`.
    public static var heavyLane: Self { HeavyLaneTrait() }
}
