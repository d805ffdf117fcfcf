import CFileMap
import Foundation
import NIOConcurrencyHelpers
import OddsJSON
import OddsModel

/// Decodes a recording frame by frame through a provider's own adapters, the same path from frame to
/// normalized update as a live connection, without a task or a queue in between: `odds live
/// --replay` folds its messages straight into a store, `FeedReplay.run` hands them to a stream, and
/// `odds-bench ingest` times exactly this.
public final class ReplayDecoder {
    private var byFeed: [String: any FeedAdapter] = [:]
    private var unknown = Set<String>()
    private var started = Set<String>()
    private let reader: RecordingReader
    private let stats: FeedStats
    private let more: (String) -> (any FeedAdapter)?

    /// `more` makes the adapter of a connection the recording names that `adapters` lack (a
    /// multi-sport recording replayed without `--sport`), so that nothing recorded is left out.
    public init(_ adapters: [any FeedAdapter], reader: RecordingReader, stats: FeedStats,
                more: @escaping (String) -> (any FeedAdapter)? = { _ in nil }) {
        for a in adapters { byFeed[a.feedName] = a }
        self.reader = reader
        self.stats = stats
        self.more = more
        // A replay is one connection, made at once.
        stats.connected()
    }

    /// One decoded frame: when it was received (Unix ms) and its messages.
    public struct Step {
        public var t: Int64
        public var messages: [FeedMessage]
        /// Set when the provider called the frame fatal: the replay ends with it.
        public var fatal: OddsError?
    }

    /// The next frame of a known connection, decoded; nil at the end. Undecodable frames are
    /// counted in `stats` and skipped.
    public func next() -> Step? {
        var step: Step?
        _ = forEachFrame { t, inbound, adapter, date in
            if case .fatal(let error) = inbound { step = Step(t: t, messages: [], fatal: error); return false }
            var messages: [FeedMessage] = []
            ReplayDecoder.handOver(&inbound, from: adapter, at: date) { messages.append($0) }
            step = Step(t: t, messages: messages)
            return false
        }
        // The frame is decoded: its line's storage is not held while the messages are handed on.
        reader.endView()
        return step
    }

    /// How the decoding thread shares frames out with the folding one. A connection that can be read
    /// on two threads (`FeedAdapter.detachedDecoder`) has some batches of its frames handed over
    /// undecoded, for the folding thread to read before it folds them: on two cores, decoding alone
    /// takes longer than folding (a TickOdds firehose), so one thread would wait on the other.
    public enum Sharing: Sendable, Equatable {
        /// A batch is handed over undecoded while fewer than `below` batches wait for the folding
        /// thread (it is about to run out of work), and decoded on the decoding thread otherwise.
        case balanced(below: Int)
        /// Every `n`th batch handed over undecoded, the first among them (tests: both ways, in an
        /// order known beforehand; 1: all).
        case every(Int)
        /// All decoded on the decoding thread.
        case never

        /// The usual: handed over undecoded when only the batch just handed on waits, that is when the
        /// folding thread is about to run out of work. On a TickOdds firehose replay this kept both threads
        /// busy: faster than handing none over or a fixed share of the batches.
        public static let usual = Sharing.balanced(below: 2)

        /// Whether the batch numbered `batch` (from 0) is handed over undecoded, `waiting` batches waiting.
        func handsOver(batch: Int, waiting: () -> Int) -> Bool {
            switch self {
            case .balanced(let below): return waiting() < below
            case .every(let n): return n > 0 && batch % n == 0
            case .never: return false
            }
        }
    }

    /// Every remaining message, in order, to `body`, as fast as it decodes (`odds live --replay`):
    /// `ahead` (with a spare core), frames are decoded on a thread of their own, a few batches ahead
    /// of `body` (which folds them into a store on the calling thread), so that decoding and folding
    /// run side by side, and `sharing` says which batches the calling thread decodes itself; otherwise
    /// each batch is decoded and handed on in turn (`Concurrently.pipeline`). No array of messages per
    /// frame. `mergingBookViews` (for a store): a decoder may hand a game's books' views in a row on as
    /// one `bookViews` update (`FeedAdapter.receive(span:first:mergingBookViews:)`), merged on the thread
    /// that made them; folded, each view would be let go of on the folding thread, into the decoding
    /// thread's heap while that thread allocates in it, and the two would wait on its lock. Throws a
    /// fatal message's error, after every message before it.
    public func forEach(ahead: Bool = Concurrently.hasSpareCore, sharing: Sharing = .usual, mergingBookViews: Bool = false,
                        _ body: (consuming FeedMessage) -> Void) throws {
        let outcome = Outcome()
        let stats = self.stats
        // The folding thread's own readers, by connection (each reader is used by one thread only).
        var readers = DetachedReaders()
        Concurrently.pipeline(depth: 4, ahead: ahead, balancing: { [self] send, waiting in
            var own = DetachedReaders()
            var batch = DecodedFrames(), batches = 0
            var handing = sharing.handsOver(batch: 0, waiting: waiting)
            _ = forEachView { frame, adapter, first in
                // Only with a second thread: alone, the connection reads its own frames.
                if ahead, let detached = own.reader(for: adapter) {
                    if handing {
                        batch.add(undecoded: frame.bytes, from: adapter, at: frame.date, first: first)
                    } else if let updates = read(frame.bytes, with: detached) {
                        batch.add(.read(updates), from: adapter, at: frame.date, first: first)
                    }
                } else if let inbound = received(frame, by: adapter, first: first, mergingBookViews: mergingBookViews) {
                    if case .fatal(let error) = inbound { outcome.failure = error; return false }
                    batch.add(.inbound(inbound), from: adapter, at: frame.date, first: first)
                }
                guard batch.isFull else { return true }
                defer {
                    batch = DecodedFrames()
                    batches += 1
                    handing = sharing.handsOver(batch: batches, waiting: waiting)
                }
                return send(batch)
            }
            if !batch.frames.isEmpty { _ = send(batch) }
        }, consume: { batch in
            // In place in the batch, which only this thread holds now: each list is moved, not copied.
            for i in batch.frames.indices {
                let (adapter, date, first) = (batch.frames[i].adapter, batch.frames[i].date, batch.frames[i].first)
                var work = Work.inbound(.keepalive)
                swap(&work, &batch.frames[i].work)
                var inbound: Inbound
                // What the decoding thread's `receive` skipped is counted there.
                var counted = false
                switch consume work {
                case .inbound(let decoded):
                    inbound = decoded
                    counted = true
                case .read(let updates):
                    inbound = adapter.receive(decoded: updates, first: first)
                case .undecoded(let range):
                    guard let reader = readers.reader(for: adapter),
                          let updates = batch.bytes.withUnsafeBufferPointer({ read(UnsafeBufferPointer(rebasing: $0[range]), with: reader) })
                    else { continue }
                    inbound = adapter.receive(decoded: updates, first: first)
                }
                if !counted {
                    for reason in inbound.skipped { stats.skipped(reason) }
                    if case .fatal(let error) = inbound { outcome.folded = error; return false }
                }
                ReplayDecoder.handOver(&inbound, from: adapter, at: date, to: body)
            }
            return true
        })
        // The folding thread's is the earlier frame's: the decoding thread stops at its own.
        if let failure = outcome.folded ?? outcome.failure { throw failure }
    }

    /// Each connection's detached reader for one thread, asked for once (a connection without one too).
    private struct DetachedReaders {
        private var known: [ObjectIdentifier: DetachedDecoder?] = [:]

        mutating func reader(for adapter: any FeedAdapter) -> DetachedDecoder? {
            let key = ObjectIdentifier(adapter)
            if let reader = known[key] { return reader }
            let reader = adapter.detachedDecoder()
            known[key] = reader
            return reader
        }
    }

    /// A frame's bytes read by a detached reader; nil, counted as malformed, when it cannot read them.
    private func read(_ bytes: UnsafeBufferPointer<UInt8>, with reader: DetachedDecoder) -> [FeedUpdate]? {
        do {
            return try reader(bytes)
        } catch {
            stats.skipped(String(describing: error))
            return nil
        }
    }

    /// What each thread found fatal, read after both are done: `failure` the decoding thread's,
    /// `folded` the folding thread's (a frame it read).
    private final class Outcome: @unchecked Sendable {
        var failure: OddsError?
        var folded: OddsError?
    }

    /// A frame on its way to the folding thread: decoded, read by a connection's detached reader (its
    /// connection's state still to apply), or its bytes, in the batch's, to read there.
    private enum Work {
        case inbound(Inbound)
        case read([FeedUpdate])
        case undecoded(Range<Int>)
    }

    /// Frames handed from the decoding thread to the folding one, several small frames at a time (a
    /// firehose sends thousands a second) and a large one on its own.
    private final class DecodedFrames {
        var frames: [(work: Work, adapter: any FeedAdapter, date: Date, first: Bool)] = []
        /// The bytes of the frames handed over undecoded.
        var bytes: [UInt8] = []
        private var updates = 0

        func add(_ work: Work, from adapter: any FeedAdapter, at date: Date, first: Bool) {
            switch work {
            case .inbound(let inbound): updates += inbound.count
            case .read(let list): updates += list.count
            case .undecoded: break
            }
            frames.append((work, adapter, date, first))
        }

        func add(undecoded frame: UnsafeBufferPointer<UInt8>, from adapter: any FeedAdapter, at date: Date, first: Bool) {
            if bytes.isEmpty { bytes.reserveCapacity(DecodedFrames.undecodedBytes + frame.count) }
            let start = bytes.count
            bytes.append(contentsOf: frame)
            frames.append((.undecoded(start..<bytes.count), adapter, date, first))
        }

        /// Handed on at 256 frames or 2,048 updates: on a TickOdds firehose replay, smaller batches were
        /// slower (the threads wait on each other more often), and so were larger ones (the batch no longer
        /// fits in a core's cache). Undecoded, at 1 MiB of frames.
        var isFull: Bool { frames.count >= 256 || updates >= 2_048 || bytes.count >= DecodedFrames.undecodedBytes }

        static let undecodedBytes = 1 << 20
    }

    /// A frame's updates as messages to `body`, each moved out of the list as it goes (a heartbeat left
    /// in its place): nothing is copied, and what the consumer keeps is not held twice.
    private static func handOver(_ inbound: inout Inbound, from adapter: any FeedAdapter, at date: Date, stamped: Date? = nil,
                                 to body: (consuming FeedMessage) -> Void) {
        // A batch's messages each in turn, in place (a large frame read in halves is two lists).
        if case .batch(var items, _) = inbound {
            inbound = .keepalive
            for i in items.indices { handOver(&items[i], from: adapter, at: date, stamped: stamped, to: body) }
            return
        }
        if case .stamped(var inner, let at) = inbound {
            inbound = .keepalive
            handOver(&inner, from: adapter, at: date, stamped: at, to: body)
            return
        }
        let provider = adapter.provider, connection = adapter.connectionName
        var updates = inbound.takeUpdates()
        for i in updates.indices {
            var update = FeedUpdate.heartbeat
            swap(&update, &updates[i])
            body(FeedMessage(provider: provider, connection: connection, receivedAt: date, providerTime: stamped, update: consume update))
        }
    }

    /// Decodes frames and hands each one's answer to `body` while it returns true; false at the end.
    private func forEachFrame(_ body: (Int64, inout Inbound, any FeedAdapter, Date) -> Bool) -> Bool {
        forEachView { frame, adapter, first in
            guard var inbound = received(frame, by: adapter, first: first) else { return true }
            return body(frame.t, &inbound, adapter, frame.date)
        }
    }

    /// A frame read by its connection's own `receive`, what it left out counted; nil, counted as
    /// malformed, when it cannot be read.
    private func received(_ frame: RecordingReader.FrameView, by adapter: any FeedAdapter, first: Bool,
                          mergingBookViews: Bool = false) -> Inbound? {
        do {
            let inbound = try adapter.receive(span: frame.bytes, first: first, mergingBookViews: mergingBookViews)
            for reason in inbound.skipped { stats.skipped(reason) }
            return inbound
        } catch {
            stats.skipped(String(describing: error))
            return nil
        }
    }

    /// Each frame of a known connection, in place, with its connection's adapter and whether it is
    /// that connection's first, to `body` while it returns true; false at the end.
    private func forEachView(_ body: (RecordingReader.FrameView, any FeedAdapter, Bool) -> Bool) -> Bool {
        // The last connection's adapter is kept at hand: recordings run long on one connection.
        var lastFeed = "", lastAdapter: (any FeedAdapter)?
        var frames = 0, bytes = 0
        defer { stats.frames(frames, bytes: bytes) }
        while let frame = reader.nextView() {
            let adapter: any FeedAdapter
            if let last = lastAdapter, frame.feed == lastFeed {
                adapter = last
            } else if let known = byFeed[frame.feed] {
                adapter = known
            } else {
                guard !unknown.contains(frame.feed), let made = more(frame.feed) else { unknown.insert(frame.feed); continue }
                byFeed[frame.feed] = made
                adapter = made
            }
            let first = (lastAdapter == nil || frame.feed != lastFeed) && started.insert(frame.feed).inserted
            lastFeed = frame.feed
            lastAdapter = adapter
            frames += 1
            bytes += frame.bytes.count
            if !body(frame, adapter, first) { return true }
        }
        return false
    }
}
