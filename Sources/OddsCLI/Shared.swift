import Foundation
import OddsJSON
import OddsFusion
import OddsHistory
import OddsModel
import OddsCommandSupport
import OddsOutput
import OddsStore
import OddsValue
import OddsTransport

/// Streams a provider's feed (or a replay of one) to stdout as NDJSON, folding it into a `LiveStore`
/// to add each price's previous value. Ends on `limit`, the end of a replay, a signal (exit 0) or a
/// fatal feed error (thrown). Writing waits for stdout, and the feed waits for the writer: a stalled
/// reader holds the socket back instead of growing memory.
/// The counts are said once at the end: a replay's as frames replayed, a live feed's with its connections.
/// With `fusion` (several providers), each line about one match carries its fused match's id (`match`).
/// `history` is the writer `withHistory` opened before the feed was made.
func runStream(_ feed: FeedStream, stats: FeedStats, options: StreamOptions, _ rt: Runtime, history: HistoryWriter?, human: Bool = false,
               replayed: Bool = false, fusion initialFusion: MatchFusion? = nil) async throws {
    let labels = rt.renderOptions.jsonLabels
    let books = rt.common.bookFilter
    let io = rt.io
    let limit = options.limit
    // Lines are built and written beside the reading (never for a collector, which prints nothing).
    let lines = human || rt.collecting ? nil : StreamLines(labels: labels) { [io] bytes in
        io.out(line: bytes)
        return !io.stdoutClosed
    }
    defer { lines?.finish() }
    let interrupted = try await untilInterrupted {
        var store = LiveStore()
        var moves = PriceLineMoves()
        var values = StreamValueNotes()
        var written = 0
        var fusion = initialFusion
        var membership = HistoryMembership()
        for try await run in feed.runs {
            for received in run {
                guard let message = books.apply(received) else { continue }
                store.apply(message)
                let matchID = fusion?.follow(message, in: store)
                history?.record(message, in: store, member: membership.member(of: message, matchID: matchID, fusion: fusion))
                // Only a printed JSON line needs its move.
                let move = lines == nil ? nil : moves.move(for: message, in: store)
                // Now and then, what follows the store keeps only what the store still has.
                if written % 4096 == 0 {
                    values.prune(store)
                    moves.prune(store)
                    lines?.prune(store.events)
                    fusion?.prune { store.events[$0] != nil }
                }
                if let lines {
                    let notes = values.notes(for: message, in: store)
                    guard lines.send(.init(message: message, move: move, match: matchID, notes: notes.events, priceNotes: notes.price)) else { return }
                } else if human {
                    guard let line = humanLine(message, store: store) else { continue }
                    io.out(TerminalText.safe(line) + "\n")
                }
                written += 1
                if io.stdoutClosed { return }
                if let limit, written >= limit { return }
            }
        }
    }
    lines?.finish()
    if replayed {
        rt.reportReplay(stats)
    } else if rt.common.verbose || stats.malformed > 0 || interrupted {
        io.err("\(stats.frames) messages received, \(stats.malformed) malformed skipped, \(stats.connects) connection(s).")
    }
}

/// Opens the history `options` name (nil: none) before `body` makes its feed, so that a history that cannot be
/// written (another writer, a database away) is refused before any connection is made; what the writer could not
/// keep is said when `body` ends, however it ends.
func withHistory<T>(_ options: HistoryOptions, _ rt: Runtime, _ body: (HistoryWriter?) async throws -> T) async throws -> T {
    let writer = try rt.historyWriter(options)
    defer { rt.finishHistory(writer) }
    return try await body(writer)
}

/// A scores or play-by-play update as one line for a person ("19:42:07  Bills v Bengals  11-21  Q3 10:31");
/// nil for what a person need not see (heartbeats, prices).
func humanLine(_ m: FeedMessage, store: LiveStore) -> String? {
    let time = ISODate.timeOfDay(m.receivedAt)
    func title(_ id: String) -> String { store.events[EventKey(provider: m.provider, id: id)]?.event.title ?? id }
    switch m.update {
    case .scoreboard(let b):
        let facts = [b.score?.text ?? b.scoreText, b.period, b.clock, b.status.map(\.rawValue)].compactMap { $0 }
        return "\(time)  \(title(b.eventID))  " + facts.joined(separator: "  ")
    case .incident(let id, let i):
        guard let e = store.events[EventKey(provider: m.provider, id: id)]?.event else { return "\(time)  \(id)  \(i.detail ?? i.kind.rawValue)" }
        return "\(time)  \(e.title)  " + EventReporter.incidentLine(i, event: e)
    case .stats(let id, let list):
        return "\(time)  \(title(id))  " + list.prefix(5).map { "\($0.name) \($0.home)-\($0.away)" }.joined(separator: ", ")
    case .lineups(let id, let l):
        let sides = [l.home, l.away].map { $0.map { "\($0.formation ?? "?") (\($0.starters.count) + \($0.substitutes.count))" } ?? "not yet" }
        return "\(time)  \(title(id))  lineups: " + sides.joined(separator: " v ")
    case .bookUpsert(let e, let book):
        let main = e.mainMarket.map { m in m.selections.map { "\($0.name) \($0.suspended ? "SUSP" : $0.price?.text ?? "-")" }.joined(separator: "  ") }
        return "\(time)  \(title(e.id))  \(book): " + (main ?? "no markets")
    case .bookViews(let e, let books):
        let lines = FeedUpdate.splitBookViews(e, books: books).map { view, book in
            humanLine(FeedMessage(provider: m.provider, connection: m.connection, receivedAt: m.receivedAt,
                                  update: .bookUpsert(view, book: book)), store: store) ?? ""
        }
        return lines.joined(separator: "\n")
    case .connection(let state):
        return "\(time)  \(m.provider.displayName) \(m.connection): \(state.label)"
    default:
        return nil
    }
}
