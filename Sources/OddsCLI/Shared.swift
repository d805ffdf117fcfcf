import Foundation
import OddsJSON
import OddsModel
import OddsOutput
import OddsStore
import OddsTransport

func printSports(_ sports: [SportCount], _ rt: Runtime) {
    let records: [[(String, JSONOutput)]] = sports.map {
        [("sport", .string($0.sport)), ("name", .string($0.name)), ("count", $0.count.map { .int($0) } ?? .null)]
    }
    rt.io.out(RecordReporter.render(columns: [.init("SPORT"), .init("NAME"), .init("LIVE", rightAligned: true)],
                                    records: records, format: rt.outputFormat, options: rt.renderOptions))
}

/// Streams a provider's feed (or a replay of one) to stdout as NDJSON, folding it into a `LiveStore`
/// to add each price's previous value. Ends on `limit`, the end of a replay, a signal (exit 0) or a
/// fatal feed error (thrown). Writing waits for stdout, and the feed waits for the writer: a stalled
/// reader holds the socket back instead of growing memory.
func runStream(_ feed: FeedStream, stats: FeedStats, options: StreamOptions, _ rt: Runtime) async throws {
    let labels = rt.renderOptions.jsonLabels
    let books = rt.common.bookFilter
    let io = rt.io
    let limit = options.limit
    let interrupted = try await untilInterrupted {
        var store = LiveStore()
        var moves = PriceLineMoves()
        var written = 0
        for try await received in feed {
            guard let message = books.apply(received) else { continue }
            store.apply(message)
            let move = moves.move(for: message, in: store)
            io.out(EventJSON.update(message, move: move, labels: labels).rendered + "\n")
            written += 1
            if io.stdoutClosed { return }
            if let limit, written >= limit { return }
        }
    }
    if rt.common.verbose || stats.malformed > 0 || interrupted {
        io.err("\(stats.frames) messages received, \(stats.malformed) malformed skipped, \(stats.connects) connection(s).")
    }
}
