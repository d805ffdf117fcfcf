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

    /// `produce` on a thread of its own, handing what it makes, in order, to `consume` on the calling
    /// thread, at most `depth` items ahead of it (memory stays bounded when the consumer is the
    /// slower). `send` answers false once the consumer has stopped (its `consume` answered false):
    /// the producer should then return. Returns when both are done, so nothing either captured is
    /// used after it returns.
    public static func pipeline<Item>(depth: Int, produce: @escaping (_ send: (Item) -> Bool) -> Void,
                                      consume: (Item) -> Bool) {
        let channel = Channel<Item>(depth: max(1, depth))
        let work = ProducerBox(produce)
        let thread = Thread { [channel, work] in
            work.produce { channel.put($0) }
            channel.finish()
        }
        thread.stackSize = 8 << 20
        thread.start()
        while let item = channel.take() {
            if !consume(item) { channel.cancel(); break }
        }
        channel.waitUntilFinished()
    }

    /// The producer's work, run on its thread while the caller waits for it (`pipeline`).
    private final class ProducerBox<Item>: @unchecked Sendable {
        let produce: (_ send: (Item) -> Bool) -> Void
        init(_ produce: @escaping (_ send: (Item) -> Bool) -> Void) { self.produce = produce }
    }

    /// A bounded queue between one producer thread and one consumer thread, under one condition lock:
    /// a ring of `depth` slots.
    private final class Channel<Item>: @unchecked Sendable {
        private let condition = NSCondition()
        private var slots: [Item?]
        private var head = 0
        private var count = 0
        private var finished = false
        private var cancelled = false

        init(depth: Int) { slots = Array(repeating: nil, count: depth) }

        /// Waits for room; false (and the item dropped) once the consumer has stopped.
        func put(_ item: Item) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while count == slots.count && !cancelled { condition.wait() }
            if cancelled { return false }
            slots[(head + count) % slots.count] = item
            count += 1
            condition.broadcast()
            return true
        }

        /// The next item, waiting for one; nil once the producer is done and all are taken.
        func take() -> Item? {
            condition.lock()
            defer { condition.unlock() }
            while count == 0 && !finished { condition.wait() }
            guard count > 0 else { return nil }
            // Taken out of its slot: the channel keeps no second reference to what the consumer keeps.
            let item = slots[head].take()
            head = (head + 1) % slots.count
            count -= 1
            condition.broadcast()
            return item
        }

        func finish() {
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }

        func cancel() {
            condition.lock()
            cancelled = true
            condition.broadcast()
            condition.unlock()
        }

        func waitUntilFinished() {
            condition.lock()
            while !finished { condition.wait() }
            condition.unlock()
        }
    }

    /// The second piece's work and answer: the answer is written by its thread before the semaphore
    /// is signalled and read by the caller after it has waited on it.
    private final class ResultBox<B>: @unchecked Sendable {
        let work: () -> B
        var value: B?
        init(_ work: @escaping () -> B) { self.work = work }
    }
}
