import Foundation
import OddsModel
import OddsStore

/// Why a source is in its fused match, or why it nearly was.
public struct MatchEvidence: Sendable, Hashable {
    /// 0…1: 1 for the same names and start, less for abbreviated names or a start unknown or minutes apart.
    public var confidence: Double
    /// In words: "names equal; start 4 min apart".
    public var reason: String
}

/// One provider's event in a fused match.
public struct FusedSource: Sendable, Hashable {
    public var key: EventKey
    /// How it was joined (the first source founded the match: confidence 1).
    public var evidence: MatchEvidence
}

/// A join the matcher did not make, for `--explain`: so a user can see why, and add an alias.
public struct NearMiss: Sendable, Hashable {
    public var key: EventKey
    /// The fused match it came closest to.
    public var matchID: String
    public var evidence: MatchEvidence
}

/// Joins the same real match across providers into one fused match, by sport, both teams (canonical
/// names: `MatchNames`) and kick-off. A wrong join shows one match's price against another's score, so
/// the matcher joins only when sure: at or over `threshold`, clearly better than the next candidate,
/// and never two events of one provider. Candidates are found through an index of (sport, the first
/// letters of each name word), not by comparing every pair; an event seen before with the same sport,
/// names and start is not matched again.
public struct MatchFusion: Sendable {
    /// Kick-offs further apart than this are different matches.
    public var window: TimeInterval = 30 * 60
    /// The least confidence at which sources are joined.
    public var threshold = 0.75
    /// How much better than the next candidate the best must be.
    public var margin = 0.1
    public let names: MatchNames

    /// A source as the matcher keeps it (a class: compared many times, copied never).
    private final class Member: Sendable {
        let key: EventKey
        let sport: String
        let home: String
        let away: String?
        let homeBytes: [UInt8]
        let awayBytes: [UInt8]?
        let start: Date?
        let evidence: MatchEvidence
        /// What matching looked at, as sent (sport, names, start): unchanged, the event is not matched again.
        let sent: Sent

        init(key: EventKey, sport: String, home: String, away: String?, start: Date?, evidence: MatchEvidence, sent: Sent) {
            self.key = key; self.sport = sport; self.home = home; self.away = away; self.homeBytes = Array(home.utf8)
            self.awayBytes = away.map { Array($0.utf8) }; self.start = start; self.evidence = evidence; self.sent = sent
        }

        func joined(with evidence: MatchEvidence) -> Member {
            Member(key: key, sport: sport, home: home, away: away, start: start, evidence: evidence, sent: sent)
        }
    }

    private struct Sent: Equatable, Sendable {
        var sport: String, home: String, away: String?, start: Date?
        init(_ e: Event) { sport = e.sport; home = e.home; away = e.away; start = e.startTime }
    }

    private struct Group: Sendable {
        var id: String
        var members: [Member]
        /// The index key its members share (they were found by it).
        let block: String
    }

    private var groups: [Int: Group] = [:]
    private var assignment: [EventKey: Int] = [:]
    private var index: [String: Set<Int>] = [:]
    private var nextGroup = 0
    /// Near misses of the last `update`, newest decision per event.
    public private(set) var nearMisses: [EventKey: NearMiss] = [:]

    public init(names: MatchNames = MatchNames()) { self.names = names }

    /// Takes the current events of every source: events gone leave their matches, new or renamed events
    /// are matched, the rest keep their place without being matched again.
    public mutating func update(_ events: [Event]) {
        let current = Set(events.map { EventKey(provider: $0.provider, id: $0.id) })
        for key in Array(assignment.keys) where !current.contains(key) { remove(key) }
        for key in Array(nearMisses.keys) where !current.contains(key) { nearMisses[key] = nil }
        var pending: [Int] = []
        for (i, event) in events.enumerated() {
            let key = EventKey(provider: event.provider, id: event.id)
            if let g = assignment[key] {
                if groups[g]?.members.first(where: { $0.key == key })?.sent == Sent(event) { continue }
                remove(key)
            }
            pending.append(i)
        }
        // A fixed order, so that the same events always make the same matches.
        pending.sort { (events[$0].provider, events[$0].id) < (events[$1].provider, events[$1].id) }
        for i in pending { place(member(events[i])) }
    }

    /// Takes one event as it is now (a stream's upsert): matched only when new, or when its sport, names or
    /// start changed. Returns its fused match's id.
    @discardableResult
    public mutating func upsert(_ event: Event) -> String {
        let key = EventKey(provider: event.provider, id: event.id)
        if let g = assignment[key] {
            if let group = groups[g], group.members.first(where: { $0.key == key })?.sent == Sent(event) { return group.id }
            remove(key)
        }
        place(member(event))
        return matchID(of: key)!
    }

    /// Takes an event that is gone (a stream's remove, a snapshot that no longer has it).
    public mutating func forget(_ key: EventKey) {
        remove(key)
        nearMisses[key] = nil
    }

    /// Forgets every event `keep` says is gone (events leave a store without a remove: a snapshot drops
    /// them, an ended match is dropped after a while).
    public mutating func prune(keeping keep: (EventKey) -> Bool) {
        for key in assignment.keys where !keep(key) { forget(key) }
        for key in nearMisses.keys where !keep(key) { nearMisses[key] = nil }
    }

    /// The fused matches: each group's id and sources, in the order they were founded.
    public var matches: [(id: String, sources: [FusedSource])] {
        groups.keys.sorted().map { g in (groups[g]!.id, groups[g]!.members.map { FusedSource(key: $0.key, evidence: $0.evidence) }) }
    }

    /// The fused match `key` belongs to.
    public func matchID(of key: EventKey) -> String? { assignment[key].flatMap { groups[$0]?.id } }

    /// The fused match `key` belongs to, with its sources.
    public func match(of key: EventKey) -> (id: String, sources: [FusedSource])? {
        guard let g = assignment[key], let group = groups[g] else { return nil }
        return (group.id, group.members.map { FusedSource(key: $0.key, evidence: $0.evidence) })
    }

    /// Every event the matcher holds.
    public var keys: Dictionary<EventKey, Int>.Keys { assignment.keys }

    // MARK: - Matching

    private func member(_ e: Event) -> Member {
        let home = names.canonical(e.home), away = e.away.map(names.canonical)
        return Member(key: EventKey(provider: e.provider, id: e.id), sport: e.sport, home: home, away: away, start: e.startTime,
                      evidence: MatchEvidence(confidence: 1, reason: "first source"), sent: Sent(e))
    }

    /// The index key: the sport, and the first three letters of each word of both names. Every pair the
    /// matcher can join shares it (equal names, or the same number of words each beginning the other's
    /// by three letters or more), so a candidate is found by one lookup, not by comparing every pair.
    private static func block(_ m: Member) -> String {
        var key = Array(m.sport.utf8)
        for name in [m.homeBytes, m.awayBytes ?? [0x2D]] {
            key.append(0x7C)
            var inWord = 0
            for b in name {
                if b == 0x20 { inWord = 0; key.append(0x2E); continue }
                if inWord < 3 { key.append(b) }
                inWord += 1
            }
        }
        return String(decoding: key, as: UTF8.self)
    }

    /// How sure it is that `a` and `b` are one match; nil when they cannot be.
    private func evidence(_ a: Member, _ b: Member) -> MatchEvidence? {
        guard a.sport == b.sport, a.sport != "unknown", a.key.provider != b.key.provider else { return nil }
        var reasons: [String] = []
        let home = MatchNames.similarity(bytes: a.homeBytes, b.homeBytes)
        guard home > 0 else { return nil }
        var confidence = home
        if home < 1 { reasons.append("home names abbreviated") }
        switch (a.awayBytes, b.awayBytes) {
        case let (x?, y?):
            let away = MatchNames.similarity(bytes: x, y)
            guard away > 0 else { return nil }
            if away < 1 { reasons.append("away names abbreviated") }
            confidence = min(confidence, away)
        case (nil, nil):
            // A race is its name and its time: both must be known.
            guard a.start != nil, b.start != nil else { return nil }
        default:
            return nil
        }
        if reasons.isEmpty { reasons.append("names equal") }
        if let s = a.start, let t = b.start {
            let apart = abs(s.timeIntervalSince(t))
            let limit = a.away == nil ? min(window, 5 * 60) : window
            guard apart <= limit else { return nil }
            confidence *= 1 - 0.1 * apart / max(limit, 1)
            reasons.append(apart < 60 ? "same start" : "start \(Int(apart / 60)) min apart")
        } else {
            confidence *= 0.9
            reasons.append("a start unknown")
        }
        return MatchEvidence(confidence: (confidence * 1000).rounded() / 1000, reason: reasons.joined(separator: "; "))
    }

    private mutating func place(_ member: Member) {
        let block = MatchFusion.block(member)
        let candidates = index[block] ?? []
        var scored: [(group: Int, evidence: MatchEvidence)] = []
        for g in candidates.sorted() {
            guard let members = groups[g]?.members, !members.contains(where: { $0.key.provider == member.key.provider }) else { continue }
            // Every source of the match must be able to be this one (a kick-off 45 minutes from one of them is
            // not excused by another that has none); the closest gives the evidence.
            let each = members.map { evidence(member, $0) }
            guard !each.contains(where: { $0 == nil }) else { continue }
            if let best = each.compactMap({ $0 }).max(by: { $0.confidence < $1.confidence }) { scored.append((g, best)) }
        }
        scored.sort { $0.evidence.confidence > $1.evidence.confidence || ($0.evidence.confidence == $1.evidence.confidence && $0.group < $1.group) }
        nearMisses[member.key] = nil
        if let best = scored.first, best.evidence.confidence >= threshold {
            let runnerUp = scored.dropFirst().first
            if let runnerUp, best.evidence.confidence - runnerUp.evidence.confidence < margin {
                // Two rows fit about equally: joining either could be the wrong one.
                var e = best.evidence
                e.reason += "; as close to another match: not joined"
                nearMisses[member.key] = NearMiss(key: member.key, matchID: groups[best.group]!.id, evidence: e)
            } else {
                add(member.joined(with: best.evidence), to: best.group)
                return
            }
        } else if let best = scored.first {
            nearMisses[member.key] = NearMiss(key: member.key, matchID: groups[best.group]!.id, evidence: best.evidence)
        }
        let g = nextGroup
        nextGroup += 1
        groups[g] = Group(id: MatchFusion.matchID(founder: member.key), members: [], block: block)
        index[block, default: []].insert(g)
        add(member, to: g)
    }

    /// A fused match's id: "m" and the stable hash of its first source's key.
    static func matchID(founder key: EventKey) -> String { "m" + Event.stableHex("\(key.provider.rawValue)/\(key.id)") }

    private mutating func add(_ member: Member, to g: Int) {
        groups[g]!.members.append(member)
        assignment[member.key] = g
    }

    private mutating func remove(_ key: EventKey) {
        guard let g = assignment.removeValue(forKey: key), var group = groups[g] else { return }
        group.members.removeAll { $0.key == key }
        if group.members.isEmpty {
            index[group.block]?.remove(g)
            if index[group.block]?.isEmpty == true { index[group.block] = nil }
            groups[g] = nil
        } else {
            groups[g] = group
        }
    }
}
