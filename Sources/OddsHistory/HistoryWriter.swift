import Foundation
import OddsModel
import OddsStore

/// Keeps every change in a history without holding up the live path: `record` appends to a bounded queue, and a
/// thread of its own works out what changed and writes it, one transaction every `flushInterval`. A database that
/// goes away gets one warning; what cannot be written meanwhile is counted, and writing resumes (with no duplicate)
/// when it can. A kill -9 loses at most what was queued since the last transaction.
public final class HistoryWriter: @unchecked Sendable {
    // @unchecked: the queue and the counters are behind `condition`; the tracker and the backend belong to the thread.

    /// How long changes wait before their transaction.
    public static let flushInterval: TimeInterval = 0.25
    /// The longest id (of an event, book, market, line or selection) kept; a longer one is not an id.
    public static let maxIDBytes = HistoryKeys.maxIDBytes
    /// How often retention pruning runs.
    static let pruneInterval: TimeInterval = 3600

    public let location: HistoryLocation
    private let backend: any HistoryBackend
    private let capacity: Int
    private let lossless: Bool
    private let retention: TimeInterval?
    private let warn: @Sendable (String) -> Void
    private let condition = NSCondition()
    private var pending: [HistoryInput] = []
    private var finishing = false
    private var finished = false
    private var tally = Counts()
    private var tracker = ChangeTracker()
    private var watch = WatchLog()
    private var failing = false
    private var lastPrune = Date.distantPast

    /// What the writer did: changes written, inputs dropped because the queue was full, changes lost to failed writes.
    public struct Counts: Sendable, Equatable {
        public var written = 0
        public var dropped = 0
        public var lost = 0
        public var batches = 0
        /// Sources and selections not kept because an id of theirs is too long to be one.
        public var skipped = 0
    }

    /// Starts writing to `backend`. `retentionDays` (nil: keep everything) prunes older changes at start and hourly;
    /// `warn` gets one line when writing fails and one when it resumes. `lossless` (a replay, which can wait): a full
    /// queue holds `record` until there is room, instead of dropping.
    public init(backend: any HistoryBackend, capacity: Int = 50_000, retentionDays: Int? = 90, demo: Bool = false,
                lossless: Bool = false, warn: @escaping @Sendable (String) -> Void) {
        self.backend = backend
        self.location = backend.location
        self.capacity = capacity
        self.lossless = lossless
        self.retention = retentionDays.map { TimeInterval($0) * 86_400 }
        self.warn = warn
        tracker.demo = demo
        let thread = Thread { [self] in run() }
        thread.name = "odds-history"
        thread.start()
    }

    /// Queues what `message` changed in `store` (after it was applied). Never waits on the database.
    public func record(_ message: FeedMessage, in store: LiveStore, member: (matchKey: String, reason: String)? = nil) {
        var inputs = HistoryInput.of(message, in: store)
        if let member { for i in inputs.indices { inputs[i].member = member } }
        condition.lock()
        defer { condition.unlock() }
        guard !finishing else { return }
        // Every message kept tells that its feed was watched then, heartbeats too; one dropped ends the watch.
        if inputs.isEmpty || queue(inputs) { watch.saw(message) } else { watch.end(message.provider) }
    }

    /// Queues inputs; past the queue's capacity they are dropped and counted.
    public func record(_ inputs: [HistoryInput]) {
        condition.lock()
        defer { condition.unlock() }
        _ = queue(inputs)
    }

    /// False when some were dropped. With `condition` locked.
    private func queue(_ inputs: [HistoryInput]) -> Bool {
        while lossless, !finishing, pending.count + inputs.count > capacity, !pending.isEmpty { condition.wait() }
        guard !finishing else { return true }
        // A feed that sends a price change and then its whole event in one message (TickOdds) would have the event
        // read twice for one change: the whole event stands for the price change it already holds.
        if let next = inputs.first, let last = pending.last, next.covers(last) { pending.removeLast() }
        let room = max(0, capacity - pending.count)
        if room >= inputs.count {
            pending.append(contentsOf: inputs)
            if lossless, pending.count >= capacity / 2 { condition.broadcast() }
            return true
        }
        pending.append(contentsOf: inputs.prefix(room))
        tally.dropped += inputs.count - room
        return false
    }

    public var counts: Counts { condition.lock(); defer { condition.unlock() }; return tally }

    /// Writes what is queued, stops the thread and closes the database. Returns what was done.
    @discardableResult
    public func finish() -> Counts {
        condition.lock()
        finishing = true
        condition.broadcast()
        while !finished { condition.wait() }
        let result = tally
        condition.unlock()
        return result
    }

    private func run() {
        var nextFlush = Date().addingTimeInterval(HistoryWriter.flushInterval)
        prune(now: Date())
        while true {
            condition.lock()
            while !finishing, Date() < nextFlush, !(lossless && pending.count >= capacity / 2) { _ = condition.wait(until: nextFlush) }
            let items = pending
            pending = []
            let done = finishing
            let watches = watch.take(all: done)
            condition.broadcast()
            condition.unlock()
            nextFlush = Date().addingTimeInterval(HistoryWriter.flushInterval)
            flush(items, watches)
            if done { break }
            let now = Date()
            if now.timeIntervalSince(lastPrune) >= HistoryWriter.pruneInterval { prune(now: now) }
        }
        backend.close()
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    private func flush(_ items: [HistoryInput], _ watches: [WatchRow]) {
        guard !items.isEmpty || !watches.isEmpty else { return }
        var batch = HistoryBatch()
        batch.watches = watches
        do {
            for item in items { try tracker.observe(item, lookup: backend, into: &batch) }
            let written = batch.isEmpty ? 0 : try backend.write(batch)
            condition.lock()
            tally.written += written
            if !items.isEmpty { tally.batches += 1 }
            tally.skipped = tracker.skipped
            let lost = tally.lost
            condition.unlock()
            if failing {
                failing = false
                warn("history: writing to \(location) again (\(lost) change(s) could not be written meanwhile).")
            }
        } catch {
            // What is known is asked of the database again once it answers, so nothing is written twice.
            tracker.reset()
            condition.lock()
            watch.failed()
            // A batch of watch spans alone lost no change.
            tally.lost += items.isEmpty ? 0 : max(batch.changes, 1)
            condition.unlock()
            if !failing {
                failing = true
                let sentence = (error as? OddsError)?.message ?? String(describing: error)
                warn("history: \(sentence) The live view goes on; changes are counted and dropped until the history can be written again.")
            }
        }
    }

    private func prune(now: Date) {
        lastPrune = now
        guard let retention else { return }
        do { _ = try backend.prune(before: now.addingTimeInterval(-retention)) } catch {
            warn("history: " + ((error as? OddsError)?.message ?? String(describing: error)))
        }
    }
}
