import Foundation
import OddsModel

/// When a writer watched each provider's feed, as spans (`WatchSpan`). A span opens with a provider's first
/// message (a connection state alone opens none), runs on with every message after, and ends when a connection
/// of the provider goes down or stale, when what it sent could not be kept (a full queue, a failed write), or
/// when the writer stops; the next message opens another.
struct WatchLog {
    /// An open span's end is handed out again once it has moved on this far: a kill -9 loses at most that much.
    static let step: TimeInterval = 1

    private var open: [ProviderID: WatchRow] = [:]
    private var ended: [WatchRow] = []
    /// Each open span's end as last handed out.
    private var handed: [Int: Date] = [:]
    private var next = 0

    /// A message of `provider` received `at`.
    mutating func saw(_ message: FeedMessage) {
        if case .connection(let state) = message.update {
            switch state {
            case .reconnecting, .stale, .stopped: end(message.provider)
            case .connecting, .live, .degraded: break
            }
            return
        }
        let at = message.receivedAt
        if var row = open[message.provider] {
            if at > row.watched.to { row.watched.to = at; open[message.provider] = row }
        } else {
            open[message.provider] = WatchRow(span: next, watched: WatchSpan(provider: message.provider, from: at, to: at))
            next += 1
        }
    }

    /// Ends `provider`'s span: what follows is not known to follow on from it.
    mutating func end(_ provider: ProviderID) {
        if let row = open.removeValue(forKey: provider) { ended.append(row) }
    }

    /// The spans to write: those begun or ended since the last time, and those whose end moved on by `step`
    /// (`all`: every open one, as the writer stops).
    mutating func take(all: Bool = false) -> [WatchRow] {
        var out = ended
        for row in ended { handed[row.span] = nil }
        ended = []
        for row in open.values.sorted(by: { $0.span < $1.span }) {
            if !all, let last = handed[row.span], row.watched.to.timeIntervalSince(last) < Self.step { continue }
            handed[row.span] = row.watched.to
            out.append(row)
        }
        return out
    }

    /// After a failed write: the spans handed out were not kept, and what was received meanwhile is lost; each
    /// provider's next message opens a new span.
    mutating func failed() {
        open = [:]
        ended = []
        handed = [:]
    }
}
