import Foundation
import OddsModel

/// Finds the stored match a user names: a provider's event id, a BoltOdds label or its short id, a fused match's
/// id, or a team (that team's live match, else its latest; the others are named so the user can pick).
public enum StoredMatchFinder {
    public struct Found: Sendable, Equatable {
        /// The sources of the match chosen (several when providers were fused).
        public var sources: [StoredSource]
        /// Other matches the words also fit, newest first, one source each.
        public var others: [StoredSource]
    }

    public static func find(_ typed: String, in all: [StoredSource], names: MatchNames = MatchNames()) -> Found? {
        let text = typed.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        // An id: the provider's own, a short id, or a fused match's.
        let byID = all.filter { $0.key.eventID == text || Event.shortID(for: $0.key.eventID) == text || $0.matchKey == text }
        if let first = byID.first { return Found(sources: withMatch(first, all), others: []) }
        // A team: the best named first ("Inter" is Internazionale before Inter Miami), then the live one, then the latest.
        let level = naming(text, names: names)
        let named = all.map { (source: $0, level: level($0)) }.filter { $0.level > .none }
        guard let best = named.map(\.level).max() else { return nil }
        let hits = named.map(\.source), top = named.filter { $0.level == best }.map(\.source)
        // Live by its own last status, unless another provider of its match said it ended: a feed that drops a
        // finished match (PulseScore) leaves its last status as live.
        let ended = Set(all.filter { $0.status == EventStatus.ended.rawValue }.compactMap(\.matchKey))
        let live = top.filter { $0.status.flatMap(EventStatus.init(rawValue:))?.isInPlay == true && !($0.matchKey.map(ended.contains) ?? false) }
        let chosen = (live.isEmpty ? top : live).max { $0.lastSeen < $1.lastSeen }!
        let sources = withMatch(chosen, all)
        var seen = Set(sources.map(\.rowID))
        var others: [StoredSource] = []
        for h in hits.sorted(by: { $0.lastSeen > $1.lastSeen }) where !seen.contains(h.rowID) {
            let group = withMatch(h, all)
            for g in group { seen.insert(g.rowID) }
            others.append(h)
        }
        return Found(sources: sources, others: others)
    }

    /// Whether a source's teams are named `text`, for a list of them (`text` is read once): a part of a name, or the
    /// same words as the matcher reads them.
    public static func named(_ text: String, names: MatchNames = MatchNames()) -> (StoredSource) -> Bool {
        let level = naming(text, names: names)
        return { level($0) > .none }
    }

    /// How well `text` names one of a source's teams: as the matcher compares words (abbreviated or equal, aliases
    /// read), or, at least, a part of the name. `text` is read once, here, not once a source.
    static func naming(_ text: String, names: MatchNames) -> (StoredSource) -> NameMatch {
        let folded = TeamName.fold(text)
        guard !folded.isEmpty else { return { _ in .none } }
        let words = names.words(text)
        return { source in
            [source.home, source.away ?? ""].map { name -> NameMatch in
                let n = TeamName.fold(name)
                guard !n.isEmpty else { return .none }
                let level = MatchNames.compare(names.words(name), words)
                if level >= .abbreviated { return level }
                return n.contains(folded) ? .partial : .none
            }.max() ?? .none
        }
    }

    /// `source` and every source fused with it.
    static func withMatch(_ source: StoredSource, _ all: [StoredSource]) -> [StoredSource] {
        guard let key = source.matchKey else { return [source] }
        return all.filter { $0.matchKey == key || $0.rowID == source.rowID }
    }

    /// The stored match `typed` names in `history` (an event id or a fused match's key by index; a short id or a
    /// team among every source), with its sources fused; nil when none.
    public static func lookup(_ typed: String, in history: any HistoryBackend) throws -> Found? {
        let id = typed.trimmingCharacters(in: .whitespaces)
        var direct = id.isEmpty ? [] : try history.matches(MatchQuery(id: id))
        for key in Set(direct.compactMap(\.matchKey)) where key != id { direct += try history.matches(MatchQuery(id: key)) }
        var seen = Set<Int64>()
        direct = direct.filter { seen.insert($0.rowID).inserted }
        if let found = find(typed, in: direct) { return found }
        return find(typed, in: try history.matches(MatchQuery()))
    }
}
