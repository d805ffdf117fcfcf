import Foundation
import Testing

/// Threads of their own for tests that compute without a suspension point.
///
/// Swift Testing runs every test on the concurrency pool, which has one thread a core: two here. A
/// synchronous test holds its thread until it returns, so two long ones at once leave no thread to resume
/// the network tests' tasks (their feeds' pumps, their waits), whose timeouts then pass while nothing runs.
/// Hundreds of short ones started together do the same: a task woken behind them waits for all of them.
/// Tests marked `.heavyLane` (long ones) or `.unitLane` (the unit target's suites) run on a lane instead:
/// they queue behind each other, never in front of the pool's work.
public final class HeavyLane: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` is read and written only with `condition` locked.
    /// The lane of `.heavyLane`.
    public static let shared = HeavyLane(name: "heavy-lane", threads: 2)
    /// The lane of `.unitLane`.
    public static let unit = HeavyLane(name: "unit-lane", threads: 2)

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private let name: String

    private init(name: String, threads: Int) {
        self.name = name
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

    /// True on one of the heavy lane's threads.
    public static var isCurrent: Bool { shared.isCurrent }

    /// True on one of this lane's threads.
    public var isCurrent: Bool { Thread.current.threadDictionary["odds.lane"] as? String == name }

    private func work() {
        Thread.current.threadDictionary["odds.lane"] = name
        Thread.current.name = name  // set from the thread itself, it names the OS thread (perf, gdb)
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Runs a test (or each test of a suite) on a `HeavyLane`.
public struct HeavyLaneTrait: TestTrait, SuiteTrait, TestScoping {
    let lane: HeavyLane
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(lane) { try await function() }
    }
}

extension Trait where Self == HeavyLaneTrait {
    /// On `HeavyLane.shared`: for synchronous tests that take a second or more of CPU, or block a thread on
    /// purpose (a test's own trait wins over its suite's).
    public static var heavyLane: Self { HeavyLaneTrait(lane: .shared) }
    /// On `HeavyLane.unit`: the unit target's suites, short synchronous tests by the hundred.
    public static var unitLane: Self { HeavyLaneTrait(lane: .unit) }
}
