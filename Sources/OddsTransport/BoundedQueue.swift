import NIOConcurrencyHelpers

/// A single-consumer async queue with a fixed capacity: `send` suspends while the queue is full, so
/// a slow consumer slows the producer (and, through it, the socket) instead of growing a buffer.
///
/// The consumer ends the queue by cancelling its task or dropping its iterator; `onTermination`
/// then runs once (the feed uses it to cancel the producing task) and every suspended `send` returns.
public final class BoundedQueue<Element: Sendable>: AsyncSequence, @unchecked Sendable {
    // @unchecked: every mutable field below is read and written only under `lock`.
    private struct State {
        var buffer: [Element] = []
        var head = 0
        var finished = false
        var failure: Error?
        var terminated = false
        var consumer: CheckedContinuation<Element?, Error>?
        var producers: [CheckedContinuation<Void, Never>] = []
        var onTermination: (@Sendable () -> Void)?
        var onSend: (@Sendable () -> Void)?
        var accepted = 0
        var count: Int { buffer.count - head }
    }

    public let capacity: Int
    private let lock = NIOLockedValueBox(State())

    public init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// Runs once, when the consumer stops (cancelled or iterator dropped) or after `finish`.
    public func setOnTermination(_ body: @escaping @Sendable () -> Void) {
        let run: Bool = lock.withLockedValue { s in
            if s.terminated { return true }
            s.onTermination = body
            return false
        }
        if run { body() }
    }

    /// Runs after each element (or run of elements) is buffered and when the sequence ends: a consumer that polls (the dashboard)
    /// sleeps until then instead of polling on a timer.
    public func setOnSend(_ body: @escaping @Sendable () -> Void) {
        lock.withLockedValue { $0.onSend = body }
    }

    /// Elements waiting for the consumer.
    public var count: Int { lock.withLockedValue { $0.count } }

    /// Elements ever accepted by `send`: a consumer that has taken this many has seen everything sent so far.
    public var accepted: Int { lock.withLockedValue { $0.accepted } }

    /// Producers held in `send` until the consumer takes.
    public var waitingSenders: Int { lock.withLockedValue { $0.producers.count } }

    /// Adds `element`, waiting while the queue is full. Returns false if the consumer is gone.
    @discardableResult
    public func send(_ element: Element) async -> Bool { await send(run: CollectionOfOne(element)) }

    /// Adds `elements` in order with one hand-over, waiting while the queue is full: a producer with a run of
    /// elements ready (a replay at full speed) wakes the consumer once for the run instead of once an element.
    /// The run goes in whole once there is room, so the queue can hold up to `capacity - 1 + elements.count`.
    /// Returns false if the consumer is gone.
    @discardableResult
    public func send(contentsOf elements: [Element]) async -> Bool { await send(run: elements) }

    private func send<Run: Collection>(run: Run) async -> Bool where Run.Element == Element {
        guard let first = run.first else { return true }
        while true {
            var hook: (@Sendable () -> Void)?
            var consumer: CheckedContinuation<Element?, Error>?
            let step: QueueStep = lock.withLockedValue { s in
                if s.terminated || s.finished { return .done(false) }
                guard s.count < capacity else { return .wait }
                s.accepted += run.count
                if let c = s.consumer {
                    // A waiting consumer means the buffer is empty: it takes the first now, the rest are buffered.
                    s.consumer = nil
                    s.buffer.append(contentsOf: run.dropFirst())
                    consumer = c
                } else {
                    s.buffer.append(contentsOf: run)
                }
                hook = s.onSend
                return .done(true)
            }
            switch step {
            case .done(let ok):
                // Resumed outside the lock: resuming takes the consumer task's own lock, which its cancellation
                // holds while its handler (`terminate`) waits for this one.
                consumer?.resume(returning: first)
                hook?()
                return ok
            case .wait:
                await room()
            }
        }
    }

    /// Returns once the queue has room (or has ended).
    private func room() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let resumeNow: Bool = lock.withLockedValue { s in
                if s.terminated || s.finished || s.count < capacity { return true }
                s.producers.append(c)
                return false
            }
            if resumeNow { c.resume() }
        }
    }

    /// Takes every buffered element at once without waiting, and wakes the waiting producers: for a
    /// consumer that polls (the dashboard's UI loop) instead of iterating.
    public func takeAll() -> [Element] { poll().elements }

    /// For a consumer that polls: every buffered element, and once the sequence ended and nothing is left,
    /// its end (`.failure` with the error it was finished with). Wakes the waiting producers.
    public func poll() -> (elements: [Element], end: Result<Void, Error>?) {
        let (taken, end, producers): ([Element], Result<Void, Error>?, [CheckedContinuation<Void, Never>]) = lock.withLockedValue { s in
            let (t, p) = Self.drain(&s)
            guard s.finished || s.terminated else { return (t, nil, p) }
            return (t, s.failure.map { .failure($0) } ?? .success(()), p)
        }
        for p in producers { p.resume() }
        return (taken, end)
    }

    /// A polling consumer is done: as when an iterating consumer goes away (`onTermination` runs).
    public func stop() { terminate() }

    /// Ends the sequence after the buffered elements, with `error` if given.
    public func finish(throwing error: Error? = nil) {
        let (consumer, producers, hook): (CheckedContinuation<Element?, Error>?, [CheckedContinuation<Void, Never>], (@Sendable () -> Void)?) =
            lock.withLockedValue { s in
                guard !s.finished else { return (nil, [], nil) }
                s.finished = true
                s.failure = error
                let p = s.producers
                s.producers = []
                // A waiting consumer means the buffer is empty: it gets the end now.
                let c = s.consumer
                s.consumer = nil
                return (c, p, s.onSend)
            }
        for p in producers { p.resume() }
        hook?()
        if let consumer {
            if let error { consumer.resume(throwing: error) } else { consumer.resume(returning: nil) }
        }
    }

    /// The consumer is gone: drop what is buffered, wake every producer, run `onTermination`.
    func terminate() {
        let (consumer, producers, hook): (CheckedContinuation<Element?, Error>?, [CheckedContinuation<Void, Never>], (@Sendable () -> Void)?) =
            lock.withLockedValue { s in
                guard !s.terminated else { return (nil, [], nil) }
                s.terminated = true
                s.buffer = []
                s.head = 0
                let r = (s.consumer, s.producers, s.onTermination)
                s.consumer = nil
                s.producers = []
                s.onTermination = nil
                s.onSend = nil
                return r
            }
        for p in producers { p.resume() }
        consumer?.resume(returning: nil)
        hook?()
    }

    func next() async throws -> Element? {
        // The consumer's task cancelled: it is gone, as when it is cancelled while waiting.
        if Task.isCancelled {
            terminate()
            return nil
        }
        // A buffered element (or the end) is taken without suspending.
        if let ready = take() {
            switch ready {
            case .value(let e): return e
            case .end(let error?): throw error
            default: return nil
            }
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Element?, Error>) in
                let (outcome, wake): (QueueOutcome<Element>?, [CheckedContinuation<Void, Never>]) = lock.withLockedValue { s in
                    let now = Self.take(&s, capacity: capacity)
                    if now.0 == nil { s.consumer = c }
                    return now
                }
                for p in wake { p.resume() }
                switch outcome {
                case .value(let e)?: c.resume(returning: e)
                case .end(let error?)?: c.resume(throwing: error)
                case .end(nil)?: c.resume(returning: nil)
                case .wait?, nil: break
                }
            }
        } onCancel: {
            terminate()
        }
    }

    /// Every element buffered now, at least one, waiting while there is none; nil at the end. One hand-over a
    /// run instead of one an element: a consumer that keeps up with a busy feed (a replay at full speed) takes
    /// the elements in runs. The queue counts only what it still buffers, so the run in the consumer's hands and a
    /// full queue together hold up to twice `capacity`.
    func nextRun() async throws -> [Element]? {
        if Task.isCancelled {
            terminate()
            return nil
        }
        switch try takeRun() {
        case .run(let run): return run
        case .end: return nil
        case .wait: break
        }
        guard let first = try await next() else { return nil }
        // What came meanwhile; the end, if it came too, is kept for the next call.
        let (rest, wake) = lock.withLockedValue { Self.drain(&$0) }
        for p in wake { p.resume() }
        return [first] + rest
    }

    /// Under the lock: every buffered element (moved out, not copied), the buffer left empty, and the producers
    /// waiting for room, all of them now that there is.
    private static func drain(_ s: inout State) -> ([Element], [CheckedContinuation<Void, Never>]) {
        var run: [Element] = []
        swap(&run, &s.buffer)
        if s.head > 0 {
            run.removeFirst(s.head)
            s.head = 0
        }
        var wake: [CheckedContinuation<Void, Never>] = []
        swap(&wake, &s.producers)
        return (run, wake)
    }

    private enum RunStep { case run([Element]), end, wait }

    /// The buffered run or the end, if there is one now.
    private func takeRun() throws -> RunStep {
        let (run, end, wake): ([Element], Result<Void, Error>?, [CheckedContinuation<Void, Never>]) = lock.withLockedValue { s in
            if s.terminated { return ([], .success(()), []) }
            if s.count > 0 {
                let (run, wake) = Self.drain(&s)
                return (run, nil, wake)
            }
            if s.finished {
                let f = s.failure
                s.failure = nil
                return ([], f.map { .failure($0) } ?? .success(()), [])
            }
            return ([], nil, [])
        }
        for p in wake { p.resume() }
        switch end {
        case .failure(let error)?: throw error
        case .success?: return .end
        case nil: return run.isEmpty ? .wait : .run(run)
        }
    }

    /// The next element or the end, if there is one now.
    private func take() -> QueueOutcome<Element>? {
        let (outcome, wake) = lock.withLockedValue { Self.take(&$0, capacity: capacity) }
        for p in wake { p.resume() }
        return outcome
    }

    /// Under the lock: the next element or the end, if there is one now, and the producers to wake. The producers waiting on a full queue
    /// are woken once it is down to half, all at once, not one for each element taken: a busy feed then hands
    /// over elements in runs instead of waking a thread for every one.
    private static func take(_ s: inout State, capacity: Int) -> (QueueOutcome<Element>?, [CheckedContinuation<Void, Never>]) {
        if s.terminated { return (.end(nil), []) }
        if s.count > 0 {
            let e = s.buffer[s.head]
            s.head += 1
            if s.head > 64 && s.head * 2 > s.buffer.count {
                s.buffer.removeFirst(s.head)
                s.head = 0
            }
            var wake: [CheckedContinuation<Void, Never>] = []
            if !s.producers.isEmpty && s.count <= capacity / 2 { swap(&wake, &s.producers) }
            return (.value(e), wake)
        }
        if s.finished {
            let f = s.failure
            s.failure = nil
            return (.end(f), [])
        }
        return (nil, [])
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        /// Terminates the queue when the last copy of the iterator goes away.
        final class Token: @unchecked Sendable {
            let queue: BoundedQueue
            init(_ queue: BoundedQueue) { self.queue = queue }
            deinit { queue.terminate() }
        }
        let token: Token
        public mutating func next() async throws -> Element? { try await token.queue.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(token: .init(self)) }

    /// The same elements in runs: each step hands over everything buffered at once (at least one element).
    /// Dropping its iterator ends the queue, as for the elements one by one.
    public var runs: Runs { Runs(queue: self) }

    public struct Runs: AsyncSequence {
        let queue: BoundedQueue
        public func makeAsyncIterator() -> Iterator { Iterator(token: .init(queue)) }

        public struct Iterator: AsyncIteratorProtocol {
            let token: AsyncIterator.Token
            public mutating func next() async throws -> [Element]? { try await token.queue.nextRun() }
        }
    }
}

private enum QueueStep { case done(Bool), wait }
private enum QueueOutcome<Element> { case value(Element), end(Error?), wait }
