import Foundation
import OddsTransport

/// What wakes the dashboard's UI loop between passes: a key on the terminal (`KeyWatcher`), a signal, the
/// feed's next message when the loop asked for it, or the loop's own deadline (the next tick or frame).
/// The loop sleeps in `wait` instead of polling on a timer: an idle dashboard wakes four times a second,
/// a busy one about thirty.
final class Wakeup: @unchecked Sendable {
    // @unchecked: every field is behind `lock`.
    private let lock = NSLock()
    private var waiter: CheckedContinuation<Bool, Never>?
    /// Counts waits, so that a late timer of an earlier wait wakes nothing.
    private var generation = 0
    private var pending = false
    private var feedArmed = false
    /// The wait whose deadline passed before it parked (a deadline of zero or already past): its park
    /// returns at once. Without it, that wake-up found no waiter and was lost, and the loop slept until a key.
    private var expired = 0
    /// What the deadlines are kept on.
    private let clock: any FeedClock

    init(clock: any FeedClock = SystemClock()) { self.clock = clock }

    /// Wakes the loop now (or makes its next `wait` return at once).
    func signal() { wake(signalled: true, generation: nil) }

    /// The feed buffered a message: wakes the loop if its `wait` asked for the feed.
    func feedArrived() {
        let armed: Bool = lock.withLock {
            let a = feedArmed
            feedArmed = false
            return a
        }
        if armed { signal() }
    }

    private func wake(signalled: Bool, generation expected: Int?) {
        let w: CheckedContinuation<Bool, Never>? = lock.withLock {
            if let expected, expected != generation { return nil }
            guard let w = waiter else {
                if signalled { pending = true } else if let expected { expired = expected }
                return nil
            }
            waiter = nil
            return w
        }
        w?.resume(returning: signalled)
    }

    /// Sleeps until `signal`, `seconds` at most; with `feed`, the feed's next message wakes it too.
    /// Returns true when something woke it, false when the time ran out.
    @discardableResult
    func wait(seconds: Double, feed: Bool) async -> Bool {
        guard let turn = begin(feed: feed) else { return true }
        let timer = Task { [weak self, clock] in
            try? await clock.sleep(max(0, seconds))
            if !Task.isCancelled { self?.wake(signalled: false, generation: turn) }
        }
        let woke = await withCheckedContinuation { park($0) }
        timer.cancel()
        lock.withLock { feedArmed = false }
        return woke
    }

    /// Nil when a signal came since the last wait (taken now); otherwise arms the feed as asked and
    /// returns this wait's turn.
    private func begin(feed: Bool) -> Int? {
        lock.withLock {
            if pending {
                pending = false
                feedArmed = false
                return nil
            }
            feedArmed = feed
            generation += 1
            return generation
        }
    }

    private func park(_ c: CheckedContinuation<Bool, Never>) {
        let now: Bool? = lock.withLock {
            if pending { pending = false; return true }
            if expired == generation { return false }
            waiter = c
            return nil
        }
        if let now { c.resume(returning: now) }
    }
}

/// Watches the terminal's input on a thread of its own (blocked in `poll`, never in the cooperative pool)
/// and wakes the UI loop when a key is there. Curses itself is only called by the loop: after it has read
/// the keys it calls `keysRead`, and the watcher looks again.
final class KeyWatcher: @unchecked Sendable {
    // @unchecked: `waiting` is behind `lock`; the pipe and semaphores are thread-safe.
    private let fd: Int32
    private var pipeFDs: [Int32] = [-1, -1]
    private let consumed = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var waiting = false

    /// Nil when no pipe can be made (the loop then wakes on its deadlines alone).
    init?(fd: Int32, wake: @escaping @Sendable () -> Void) {
        self.fd = fd
        guard pipe(&pipeFDs) == 0 else { return nil }
        let thread = Thread { [self] in
            watch(wake)
            finished.signal()
        }
        thread.name = "odds-keys"
        thread.start()
    }

    private func watch(_ wake: @Sendable () -> Void) {
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: pipeFDs[0], events: Int16(POLLIN), revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            let n = poll(&fds, 2, -1)
            if n < 0 {
                // A signal (a resize's SIGWINCH among them): the loop looks at once.
                if errno == EINTR { wake(); continue }
                return
            }
            if fds[1].revents != 0 { return }
            if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                // The terminal is gone: the loop's own reads and deadlines take it from here.
                wake()
                return
            }
            guard fds[0].revents & Int16(POLLIN) != 0 else { continue }
            lock.withLock { waiting = true }
            wake()
            consumed.wait()
        }
    }

    /// The loop read the keys that were there: watch again.
    func keysRead() {
        let release: Bool = lock.withLock {
            let w = waiting
            waiting = false
            return w
        }
        if release { consumed.signal() }
    }

    /// Stops the thread (within a second) and closes the pipe.
    func stop() {
        var byte: UInt8 = 1
        _ = write(pipeFDs[1], &byte, 1)
        keysRead()
        _ = finished.wait(timeout: .now() + 1)
        close(pipeFDs[0])
        close(pipeFDs[1])
    }
}
