import Foundation

/// Two pieces of work at once, for the few places where one large job splits in two (a large frame's
/// halves, a large table's rows): the machines this runs on have few cores, and a pool shared with
/// the rest of the program may have none free.
public enum Concurrently {
    /// The cores this process may run on: its affinity mask (`taskset`, a container's cpuset), as the
    /// kernel lists it in `/proc/self/status` (`ProcessInfo.activeProcessorCount` counts every online
    /// core); the online cores when that cannot be read.
    public static let cores: Int = {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }),
              let n = count(cpuList: line.dropFirst("Cpus_allowed_list:".count)) else {
            return ProcessInfo.processInfo.activeProcessorCount
        }
        return n
    }()

    /// The cores of a kernel CPU list ("0-3,8,10-11": 7); nil when it is not one.
    public static func count(cpuList: Substring) -> Int? {
        var total = 0
        // Split on commas and trimmed by hand: Foundation's trimming goes through NSString, whose first
        // use slows the start of a replay.
        for part in cpuList.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" || $0 == "\n" }) {
            let ends = part.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
            switch ends.count {
            case 1: guard ends[0] != nil else { return nil }; total += 1
            case 2:
                guard let a = ends[0], let b = ends[1], a <= b else { return nil }
                total += b - a + 1
            default: return nil
            }
        }
        return total > 0 ? total : nil
    }

    /// Whether a second thread can run beside this one. On one core, two threads only take turns and
    /// share out the work they hand each other (slower than one thread doing it all), so the work is
    /// done on the calling thread instead.
    public static var hasSpareCore: Bool { cores > 1 }

    /// `first()` on the calling thread while `second()` runs on a thread of its own; both answers once
    /// both are done. A thread of its own rather than a shared pool: the caller may itself be one of
    /// the pool's few threads, and work large enough to split pays for a thread's start many times.
    /// On one core, `first()` then `second()` on the calling thread.
    public static func pair<A, B>(_ first: () -> A, _ second: @escaping () -> B) -> (A, B) {
        guard hasSpareCore else { return (first(), second()) }
        let box = ResultBox<B>(second)
        let done = DispatchSemaphore(value: 0)
        startThread { [box] in
            box.value = box.work()
            done.signal()
        }
        let a = first()
        done.wait()
        return (a, box.value!)
    }

    /// `produce` on a thread of its own, handing what it makes, in order, to `consume` on the calling
    /// thread, at most `depth` items ahead of it (memory stays bounded when the consumer is the
    /// slower). `send` answers false once the consumer has stopped (its `consume` answered false):
    /// the producer should then return. Returns when both are done, so nothing either captured is
    /// used after it returns. Without `ahead` (one core), `produce` runs on the calling thread and
    /// each item goes straight to `consume`.
    public static func pipeline<Item>(depth: Int, ahead: Bool = hasSpareCore, produce: @escaping (_ send: (Item) -> Bool) -> Void,
                                      consume: (Item) -> Bool) {
        pipeline(depth: depth, ahead: ahead, balancing: { send, _ in produce(send) }, consume: consume)
    }

    /// `pipeline`, with the producer able to ask how many items wait for the consumer (`waiting()`),
    /// to share work out with it: none waiting, the consumer is about to run out. Without `ahead`, 0.
    public static func pipeline<Item>(depth: Int, ahead: Bool = hasSpareCore,
                                      balancing produce: @escaping (_ send: (Item) -> Bool, _ waiting: () -> Int) -> Void,
                                      consume: (Item) -> Bool) {
        guard ahead else {
            var stopped = false
            produce({ item in
                guard !stopped else { return false }
                stopped = !consume(item)
                return !stopped
            }, { 0 })
            return
        }
        let channel = Channel<Item>(depth: max(1, depth))
        let work = ProducerBox(produce)
        startThread { [channel, work] in
            work.produce({ channel.put($0) }, { channel.waiting })
            channel.finish()
        }
        while let item = channel.take() {
            if !consume(item) { channel.cancel(); break }
        }
        channel.waitUntilFinished()
    }

    /// `body` on a new thread with the stack of a main thread (8 MiB): the decoders recurse into nested JSON.
    private static func startThread(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The producer's work, run on its thread while the caller waits for it (`pipeline`).
    private final class ProducerBox<Item>: @unchecked Sendable {
        let produce: (_ send: (Item) -> Bool, _ waiting: () -> Int) -> Void
        init(_ produce: @escaping (_ send: (Item) -> Bool, _ waiting: () -> Int) -> Void) { self.produce = produce }
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

        /// Items put and not yet taken.
        var waiting: Int {
            condition.lock()
            defer { condition.unlock() }
            return count
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
