import Foundation

/// Two pieces of work at once, for the few places where one large job splits in two (a large frame's
/// halves, a large table's rows): the machines this runs on have few cores, and a pool shared with
/// the rest of the program may have none free.
public enum Concurrently {
    /// `first()` on the calling thread while `second()` runs on a thread of its own; both answers once
    /// both are done. A thread of its own rather than a shared pool: the caller may itself be one of
    /// the pool's few threads, and work large enough to split pays for a thread's start many times.
    public static func pair<A, B>(_ first: () -> A, _ second: @escaping () -> B) -> (A, B) {
        let box = ResultBox<B>(second)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread { [box] in
            box.value = box.work()
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        let a = first()
        done.wait()
        return (a, box.value!)
    }

    /// The second piece's work and answer: the answer is written by its thread before the semaphore
    /// is signalled and read by the caller after it has waited on it.
    private final class ResultBox<B>: @unchecked Sendable {
        let work: () -> B
        var value: B?
        init(_ work: @escaping () -> B) { self.work = work }
    }
}
