import Foundation
import OddsJSON
import OddsModel
import OddsStore

/// Builds a stream's NDJSON lines and hands them to a sink on a thread of its own, in the order they were sent:
/// reading each message (the store, moves, value notes) and writing its line then run on two cores. At most
/// `capacity` lines wait; `send` waits for room, so that no line is ever dropped and memory stays bounded. On one
/// core, `send` builds and writes each line itself.
public final class StreamLines: @unchecked Sendable {
    // @unchecked: `jobs` and the flags are behind `condition`; `markets` and the buffer belong to the building thread.

    /// What one line is made of, as the reading side worked it out.
    public struct Line: Sendable {
        public var message: FeedMessage
        public var move: PriceMove?
        /// The fused match the message is about.
        public var match: String?
        /// Value notes of the events the message carries, by event id, and a price line's own.
        public var notes: [String: PriceNotes]
        public var priceNotes: [(String, JSONOutput)]

        public init(message: FeedMessage, move: PriceMove? = nil, match: String? = nil, notes: [String: PriceNotes] = [:],
                    priceNotes: [(String, JSONOutput)] = []) {
            self.message = message
            self.move = move
            self.match = match
            self.notes = notes
            self.priceNotes = priceNotes
        }
    }

    private enum Job {
        case line(Line)
        /// Keep the markets written for what the store now holds only.
        case prune([EventKey: EventState])
    }

    /// Lines waiting at most; and how many bytes of lines go to the sink at once.
    public let capacity: Int
    static let chunk = 64 << 10
    /// Lines that wake the building thread, and how long a line waits for more before it is built anyway.
    static let wakeRun = 32
    static let linger: TimeInterval = 0.002
    private let labels: [(String, JSONOutput)]
    private let sink: @Sendable ([UInt8]) -> Bool
    private let markets = WrittenMarkets()
    private let threaded: Bool
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var finishing = false, finished = false, closed = false
    private var senderWaiting = false
    /// While the builder waits: how many lines waiting wake it.
    private var wakeAt: Int?
    /// The inline path's buffer.
    private var buffer: [UInt8] = []

    /// `sink` gets whole lines (one or more, each ending in a newline) and answers false once its reader is gone:
    /// lines are then neither built nor sent, and `send` answers false. `labels` go on every line.
    public init(labels: [(String, JSONOutput)] = [], capacity: Int = 256, threaded: Bool = Concurrently.hasSpareCore,
                sink: @escaping @Sendable ([UInt8]) -> Bool) {
        self.labels = labels
        self.capacity = max(1, capacity)
        self.sink = sink
        self.threaded = threaded
        guard threaded else { return }
        let thread = Thread { [self] in run() }
        thread.name = "odds-lines"
        thread.start()
    }

    /// Queues `line` (on one core, writes it); false once the sink's reader is gone.
    @discardableResult
    public func send(_ line: Line) -> Bool {
        guard threaded else {
            guard !closed else { return false }
            buffer.removeAll(keepingCapacity: true)
            build(line, into: &buffer)
            closed = !sink(buffer)
            return !closed
        }
        return enqueue(.line(line))
    }

    /// Lets go of the markets written for events `events` (a store's) no longer holds.
    public func prune(_ events: [EventKey: EventState]) {
        guard threaded else { markets.prune { events[$0]?.event }; return }
        _ = enqueue(.prune(events))
    }

    /// Writes every line sent and stops the thread. Sending after it is an error.
    public func finish() {
        guard threaded else { return }
        condition.lock()
        finishing = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }

    private func enqueue(_ job: Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while jobs.count >= capacity, !closed { senderWaiting = true; condition.wait() }
        senderWaiting = false
        guard !closed else { return false }
        jobs.append(job)
        // The builder, waiting, is woken for a run of lines rather than for each: it looks again within `linger`.
        if let wakeAt, jobs.count >= wakeAt { condition.broadcast() }
        return true
    }

    private func run() {
        var taken: [Job] = []
        var out: [UInt8] = []
        out.reserveCapacity(Self.chunk + 8192)
        var open = true
        while true {
            condition.lock()
            wakeAt = 1
            while jobs.isEmpty, !finishing { condition.wait() }
            if jobs.count < Self.wakeRun, !finishing {
                wakeAt = Self.wakeRun
                let deadline = Date(timeIntervalSinceNow: Self.linger)
                while jobs.count < Self.wakeRun, !finishing, condition.wait(until: deadline) {}
            }
            wakeAt = nil
            swap(&jobs, &taken)
            let done = finishing && taken.isEmpty
            if senderWaiting { condition.broadcast() }
            condition.unlock()
            if done { break }
            for job in taken where open {
                switch job {
                case .line(let line):
                    build(line, into: &out)
                    if out.count >= Self.chunk { open = sink(out); out.removeAll(keepingCapacity: true) }
                case .prune(let events):
                    markets.prune { events[$0]?.event }
                }
            }
            taken.removeAll(keepingCapacity: true)
            if open, !out.isEmpty { open = sink(out); out.removeAll(keepingCapacity: true) }
            if !open {
                // The reader is gone: nothing more is built, and a sender waiting for room is let go.
                condition.lock()
                closed = true
                condition.broadcast()
                condition.unlock()
            }
        }
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    private func build(_ line: Line, into out: inout [UInt8]) {
        let notes = line.notes
        EventJSON.update(line.message, move: line.move, match: line.match, labels: labels, notes: { notes[$0.id] },
                         priceNotes: line.priceNotes, written: markets).write(to: &out)
        out.append(0x0A)
    }
}
