import Foundation

/// A thread of its own for the tasks that prefer it: PostgreSQL's rows arrive through an async sequence (the one
/// PostgresNIO reads with back-pressure), and the caller waiting for them on a lock may itself hold one of the
/// shared pool's few threads. Reading them here needs none of that pool.
final class ReaderThread: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` and `stopping` are behind `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false

    init(name: String) {
        // The thread holds the executor until it ends (`stop`).
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Ends the thread once the jobs already queued have run.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            if batch.isEmpty { return }
            for job in batch { job.runSynchronously(on: executor) }
        }
    }
}
