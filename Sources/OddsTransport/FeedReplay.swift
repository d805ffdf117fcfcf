import CFileMap
import Foundation
import NIOConcurrencyHelpers
import OddsJSON
import OddsModel

/// How fast a recording is replayed.
public enum ReplaySpeed: Sendable, Equatable {
    /// As fast as the consumer takes it.
    case max
    /// `factor` times real time (2 = twice as fast).
    case times(Double)

    /// "max", or a positive number such as 1, 2, 0.5 or "10x".
    public init?(_ text: String) {
        let t = text.lowercased().trimmingSpaces
        if t == "max" { self = .max; return }
        let number = t.hasSuffix("x") ? String(t.dropLast()) : t
        guard let f = Double(number), f.isFinite, f > 0, f <= 1_000_000 else { return nil }
        self = .times(f)
    }
}

/// Feeds a recording through a provider's own decoder instead of the network: the same path from
/// frame to normalized update as a live connection.
public enum FeedReplay {
    /// Frames due this close together (seconds) are replayed at once.
    static let burst = 0.010
    /// The most messages handed to the consumer at once.
    static let run = 64

    /// Replays the frames of the adapters' connections through them (each frame to the adapter of
    /// its `"<provider>/<connection>"`); other lines (REST bodies, other feeds) are skipped. Messages
    /// carry the recorded receive time. A message the provider calls fatal ends the replay with its error.
    /// The recorded spacing, divided by `speed`, is kept on `clock`.
    public static func run(_ decoder: ReplayDecoder, speed: ReplaySpeed, stats: FeedStats,
                           clock: any FeedClock = SystemClock()) -> FeedStream {
        let box = UncheckedBox(decoder)
        let queue = FeedStream(capacity: FeedRunner.bufferCapacity)
        let task = Task {
            let decoder = box.value
            var startT: Int64?
            var startWall = clock.now
            // Messages ready to go: handed over in runs, one wake-up of the consumer for a run instead of one a
            // message. A run goes out when it is full, before any wait for a frame's time, and at the end.
            var run: [FeedMessage] = []
            run.reserveCapacity(FeedReplay.run)
            /// Hands the run over; false when the consumer is gone.
            func handOver() async -> Bool {
                defer { run.removeAll(keepingCapacity: true) }
                return await queue.send(contentsOf: run)
            }
            while !Task.isCancelled, var step = decoder.next() {
                if let error = step.fatal {
                    guard await handOver() else { return }
                    queue.finish(throwing: error)
                    return
                }
                if case .times(let factor) = speed {
                    // Each frame at its recorded time from the first (scaled): the pace does not drift with
                    // each wait's overshoot, and frames due within a few milliseconds go out together.
                    if let startT {
                        let due = Double(step.t - startT) / 1000 / factor
                        let wait = due - clock.now.timeIntervalSince(startWall)
                        if wait > FeedReplay.burst {
                            guard await handOver() else { return }
                            do { try await clock.sleep(min(wait, 3600)) } catch { break }
                        }
                    } else {
                        startT = step.t
                        startWall = clock.now
                    }
                }
                // The step lets go of each update as the run takes it: a message is held once.
                for i in step.messages.indices {
                    run.append(step.messages[i])
                    step.messages[i].update = .heartbeat
                    if run.count >= FeedReplay.run, !(await handOver()) { return }
                }
            }
            guard await handOver() else { return }
            queue.finish()
        }
        queue.setOnTermination { task.cancel() }
        return queue
    }

    public static func run(_ adapters: [any FeedAdapter], reader: RecordingReader, speed: ReplaySpeed,
                           stats: FeedStats, clock: any FeedClock = SystemClock()) -> FeedStream {
        run(ReplayDecoder(adapters, reader: reader, stats: stats), speed: speed, stats: stats, clock: clock)
    }
}
