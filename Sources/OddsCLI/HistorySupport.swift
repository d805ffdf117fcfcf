import Foundation
import OddsCommandSupport
import OddsFusion
import OddsHistory
import OddsModel
import OddsStore

extension Runtime {
    /// Where the history is, as the command line and the config say; nil when it is off.
    func historyLocation(_ options: HistoryOptions) -> HistoryLocation? {
        if options.noHistory { return nil }
        guard let text = options.history ?? config.history else { return nil }
        return HistoryLocation.parse(text, environment: io.environment)
    }

    /// The history writer a long-running command feeds, when history is on. Opening fails with one sentence
    /// (exit 9) before anything is streamed.
    func historyWriter(_ options: HistoryOptions) throws -> HistoryWriter? {
        guard let location = historyLocation(options) else { return nil }
        let backend = try History.open(location, writing: true)
        let io = io
        let writer = HistoryWriter(backend: backend, retentionDays: config.historyDays ?? 90, demo: demo, lossless: replaying) { line in
            io.err(line)
        }
        if common.verbose { io.err("keeping history in \(location)") }
        return writer
    }

    /// Says what the writer could not keep, once the command ends.
    func finishHistory(_ writer: HistoryWriter?) {
        guard let writer else { return }
        let counts = writer.finish()
        if counts.dropped > 0 || counts.lost > 0 {
            io.err("history: \(counts.dropped) update(s) dropped (the writer fell behind), \(counts.lost) change(s) not written.")
        }
        if counts.skipped > 0 {
            io.err("history: \(counts.skipped) update(s) not kept: an id longer than \(HistoryWriter.maxIDBytes) bytes is not an id.")
        }
        // The collector's whole work, said in its log (cron, systemd) whether or not verbose.
        if common.verbose || collecting {
            io.err("history: \(counts.written) change(s) kept in \(writer.location).")
        }
    }
}

/// The fused match each source belongs to, told to the history only when it changes (working out the join's
/// reason for every message would cost the live path).
struct HistoryMembership {
    private var last: [EventKey: (matchKey: String, reason: String)] = [:]

    mutating func member(of message: FeedMessage, matchID: String?, fusion: MatchFusion?) -> (matchKey: String, reason: String)? {
        guard let matchID, let fusion, let id = message.update.eventID else { return nil }
        let key = EventKey(provider: message.provider, id: id)
        if let known = last[key], known.matchKey == matchID { return known }
        let reason = fusion.match(of: key)?.sources.first { $0.key == key }?.evidence.reason ?? ""
        last[key] = (matchID, reason)
        return (matchID, reason)
    }
}
