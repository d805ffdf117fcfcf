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

/// Joins the same real match across providers into one fused match, on evidence: both teams' names compared
/// by words (`MatchNames`), the kick-off of every source that sends one, status (a live match is not one that
/// starts tomorrow), for a match under way its score, and the league. A wrong join shows one match's price
/// against another's score, so the matcher joins only when sure: at or over `threshold`, clearly better than
/// the next candidate, never two events of one provider, and never when any source of the match says
/// otherwise (a kick-off too far apart, live against scheduled, another score). A name that is only a part of
/// the other ("Valladolid" / "Real Valladolid") joins only when the opponent's name is sure and the kick-offs
/// agree (or both matches are under way). Candidates are found through an index of each team's words and of
/// the kick-off, not by comparing every pair; an event seen before with the same sport, names, start and
/// status is not matched again.
public struct MatchFusion: Sendable {
    /// Kick-offs further apart than this are different matches.
    public var window: TimeInterval = 30 * 60
    /// The least confidence at which sources are joined.
    public var threshold = 0.75
    /// How much better than the next candidate the best must be.
    public var margin = 0.1
    public let names: MatchNames

    /// Where a match stands, as matching compares it.
    enum Phase { case before, playing, over }

    /// A source as the matcher keeps it (a class: compared many times, copied never).
    private final class Member: Sendable {
        let key: EventKey
        let sport: String
        let home: TeamWords
        let away: TeamWords?
        let start: Date?
        let phase: Phase?
        let score: Score?
        let league: [String]
        /// When the source last spoke: a live match without a start began before it.
        let seen: Date?
        let evidence: MatchEvidence
        /// What matching looked at, as sent (sport, names, start, status): unchanged, the event is not matched again.
        let sent: Sent
        /// Its index keys: the sport with each name word's first letters, and with its kick-off's half hour.
        let keys: [String]

        init(key: EventKey, sport: String, home: TeamWords, away: TeamWords?, start: Date?, phase: Phase?, score: Score?,
             league: [String], seen: Date?, evidence: MatchEvidence, sent: Sent, keys: [String]) {
            self.key = key; self.sport = sport; self.home = home; self.away = away; self.start = start; self.phase = phase
            self.score = score; self.league = league; self.seen = seen; self.evidence = evidence; self.sent = sent; self.keys = keys
        }

        func joined(with evidence: MatchEvidence) -> Member {
            Member(key: key, sport: sport, home: home, away: away, start: start, phase: phase, score: score, league: league,
                   seen: seen, evidence: evidence, sent: sent, keys: keys)
        }
    }

    private struct Sent: Equatable, Sendable {
        var sport: String, home: String, away: String?, start: Date?, status: EventStatus
        init(_ e: Event) { sport = e.sport; home = e.home; away = e.away; start = e.startTime; status = e.status }
    }

    private struct Group: Sendable {
        var id: String
        var members: [Member]
    }

    private var groups: [Int: Group] = [:]
    private var assignment: [EventKey: Int] = [:]
    private var index: [String: Set<Int>] = [:]
    private var nextGroup = 0
    /// Near misses of the last `update`, newest decision per event.
    public private(set) var nearMisses: [EventKey: NearMiss] = [:]
    /// The matches the last `update`, `upsert` or `forget` left without a source: the one an event left, and any whose
    /// sources all moved into another when two were found to be one match (a view drops their rows).
    public private(set) var dissolved: [String] = []

    public init(names: MatchNames = MatchNames()) { self.names = names }

    /// Takes the current events of every source: events gone leave their matches, new or renamed events
    /// are matched, the rest keep their place without being matched again.
    public mutating func update(_ events: [Event]) {
        dissolved.removeAll(keepingCapacity: true)
        let current = Set(events.map { EventKey(provider: $0.provider, id: $0.id) })
        for key in Array(assignment.keys) where !current.contains(key) { remove(key) }
        for key in Array(nearMisses.keys) where !current.contains(key) { nearMisses[key] = nil }
        var pending: [Int] = []
        for (i, event) in events.enumerated() {
            let key = EventKey(provider: event.provider, id: event.id)
            if let g = assignment[key] {
                if let group = groups[g], !needsPlacing(event, key, in: group) { continue }
                remove(key)
            }
            pending.append(i)
        }
        // Sources with a kick-off first (they found the matches that others join), then a fixed order, so that
        // the same events always make the same matches.
        pending.sort {
            let a = events[$0], b = events[$1]
            if (a.startTime == nil) != (b.startTime == nil) { return a.startTime != nil }
            return (a.provider, a.id) < (b.provider, b.id)
        }
        for i in pending { place(member(events[i])) }
    }

    /// Whether `event`, held in `group`, is matched again: when its sport, names, start or status changed; and,
    /// alone in its match, when its score did (a source first seen without the evidence to join, BoltOdds' odds
    /// before its score, joins once the score comes). A source in a match keeps it through a goal another has not
    /// yet seen.
    private func needsPlacing(_ event: Event, _ key: EventKey, in group: Group) -> Bool {
        guard let member = group.members.first(where: { $0.key == key }) else { return true }
        return member.sent != Sent(event) || group.members.count == 1 && member.score != event.score
    }

    /// Takes one event as it is now (a stream's upsert): matched only when new, when its sport, names, start or
    /// status changed, or, alone in its match, when its score did. Returns its fused match's id.
    @discardableResult
    public mutating func upsert(_ event: Event) -> String {
        dissolved.removeAll(keepingCapacity: true)
        let key = EventKey(provider: event.provider, id: event.id)
        if let g = assignment[key] {
            if let group = groups[g], !needsPlacing(event, key, in: group) { return group.id }
            remove(key)
        }
        place(member(event))
        return matchID(of: key)!
    }

    /// Follows a stream: the event `message` is about, as `store` (with the message applied) now holds it, is
    /// matched, or forgotten when the store no longer has it; a snapshot's events are each matched (unchanged
    /// ones cost nothing). Returns the fused match's id of a message about one event.
    public mutating func follow(_ message: FeedMessage, in store: LiveStore) -> String? {
        if let id = message.update.eventID {
            let key = EventKey(provider: message.provider, id: id)
            guard let event = store.events[key]?.event else { forget(key); return nil }
            return upsert(event)
        }
        if case .snapshot = message.update {
            for event in store.currentEvents(provider: message.provider) { upsert(event) }
        }
        return nil
    }

    /// Takes an event that is gone (a stream's remove, a snapshot that no longer has it).
    public mutating func forget(_ key: EventKey) {
        dissolved.removeAll(keepingCapacity: true)
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
        let home = names.words(e.home), away = e.away.map(names.words)
        let phase: Phase? = switch e.status {
        case .scheduled: .before
        case .live, .halftime, .suspended: .playing
        case .ended: .over
        case .unknown: nil
        }
        var keys: [String] = []
        for w in home.words + (away?.words ?? []) + [home.initials, away?.initials ?? ""] where !w.isEmpty {
            let k = e.sport + "|" + w.prefix(3)
            if !keys.contains(k) { keys.append(k) }
        }
        if let s = e.startTime { keys.append(e.sport + "@" + String(Int((s.timeIntervalSince1970 / window).rounded(.down)))) }
        let league = e.league.map { TeamName.fold($0).split(separator: " ").map(String.init)
            .filter { $0.count >= 3 && !MatchFusion.leagueWords.contains($0) } } ?? []
        return Member(key: EventKey(provider: e.provider, id: e.id), sport: e.sport, home: home, away: away, start: e.startTime,
                      phase: phase, score: e.score, league: league, seen: e.updatedAt,
                      evidence: MatchEvidence(confidence: 1, reason: "first source"), sent: Sent(e), keys: keys)
    }

    /// Words of league names that say nothing of which league it is.
    static let leagueWords: Set<String> = ["league", "liga", "division", "football", "soccer", "the", "cup", "women", "men", "first", "1st"]

    /// Sports whose scores are small and change seldom: two goals apart are two matches, not a late feed.
    static let lowScoring: Set<String> = ["soccer", "ice-hockey"]

    /// What two sources say about being one match.
    private enum Verdict {
        /// They can be one, this sure.
        case join(MatchEvidence)
        /// Their names fit, but other evidence says they are not one (why, in words).
        case separate(String)
        /// Their names fit only in part and nothing confirms it: no reason to join, none to keep apart from
        /// a match that other sources confirm.
        case unconfirmed(String)
        /// Nothing in common.
        case unrelated
    }

    /// How sure it is that `a` and `b` are one match.
    private func verdict(_ a: Member, _ b: Member) -> Verdict {
        guard a.sport == b.sport, a.sport != "unknown", a.key.provider != b.key.provider else { return .unrelated }
        let home = MatchNames.compare(a.home, b.home)
        guard home != .none else { return .unrelated }
        var reasons: [String] = []
        var confidence: Double
        var partial = home == .partial, doublePartial = false
        let race = a.away == nil && b.away == nil
        switch (a.away, b.away) {
        case let (x?, y?):
            let away = MatchNames.compare(x, y)
            guard away != .none else { return .unrelated }
            doublePartial = home == .partial && away == .partial
            partial = partial || away == .partial
            reasons.append(home == away ? "names \(home.label)" : "home \(home.label), away \(away.label)")
            confidence = min(home.weight, away.weight)
        case (nil, nil):
            guard home == .equal else { return .unrelated }
            // A race is its name and its time: both must be known.
            guard a.start != nil, b.start != nil else { return .separate("a race without a start") }
            reasons.append("names equal")
            confidence = 1
        default:
            return .unrelated
        }
        // Kick-off.
        var startsAgree = false
        if let s = a.start, let t = b.start {
            let apart = abs(s.timeIntervalSince(t))
            let limit = race ? min(window, 5 * 60) : window
            guard apart <= limit else { return .separate("kick-offs \(MatchFusion.span(apart)) apart") }
            confidence *= 1 - 0.1 * apart / max(limit, 1)
            reasons.append(apart < 60 ? "same kick-off" : "kick-offs \(Int(apart / 60)) min apart")
            startsAgree = true
        } else {
            confidence *= 0.9
            reasons.append("a kick-off unknown")
        }
        // Status: a match under way is not one that has not begun, unless both kick-offs say it is starting.
        switch (a.phase, b.phase) {
        case (.before?, .playing?), (.playing?, .before?):
            guard startsAgree else {
                let (waiting, playing) = a.phase == .before ? (a, b) : (b, a)
                if let s = waiting.start, let seen = playing.seen, s.timeIntervalSince(seen) > window {
                    return .separate("live against scheduled, kicking off \(MatchFusion.span(s.timeIntervalSince(seen))) later")
                }
                // One without a kick-off cannot tell a match about to start from one under way: it does not veto a
                // join that other sources' kick-offs support.
                return .unconfirmed("live against scheduled, a kick-off unknown")
            }
            reasons.append("one not live yet")
        case (.before?, .over?), (.over?, .before?):
            return .separate("ended against scheduled")
        default: break
        }
        // The score of a match under way.
        var sameScore = false
        if let x = a.score, let y = b.score, a.phase != .before, b.phase != .before {
            let apart = abs(x.home - y.home) + abs(x.away - y.away)
            if apart == 0 {
                sameScore = true
                confidence += 0.03
                reasons.append("same score \(x.home)-\(x.away)")
            } else if MatchFusion.lowScoring.contains(a.sport), apart >= 2 || x.home < y.home && x.away > y.away || x.home > y.home && x.away < y.away {
                return .separate("scores \(x.home)-\(x.away) and \(y.home)-\(y.away)")
            } else {
                reasons.append("scores \(x.home)-\(x.away) and \(y.home)-\(y.away)")
            }
        }
        let sameLeague = !a.league.isEmpty && a.league.contains(where: b.league.contains)
        if sameLeague {
            confidence += 0.03
            reasons.append("same league")
        }
        if partial {
            // A name in part needs more: the kick-off, or, for two matches under way at once, the score or the
            // league (one club plays one match at a time); both names in part need two of these.
            let bothPlaying = a.phase == .playing && b.phase == .playing
            let confirmed = doublePartial
                ? [startsAgree, bothPlaying, sameScore, sameLeague].filter { $0 }.count >= 2 && (startsAgree || bothPlaying)
                : startsAgree || bothPlaying && (sameScore || sameLeague)
            guard confirmed else {
                return .unconfirmed(doublePartial ? "both names only in part" : reasons[0] + ", without a kick-off, score or league to confirm")
            }
        }
        return .join(MatchEvidence(confidence: (min(confidence, 1) * 1000).rounded() / 1000, reason: reasons.joined(separator: "; ")))
    }

    /// "4 min", "23 h".
    static func span(_ seconds: TimeInterval) -> String {
        seconds < 2 * 3600 ? "\(Int(seconds / 60)) min" : seconds < 3 * 86_400 ? "\(Int(seconds / 3600)) h" : "\(Int(seconds / 86_400)) days"
    }

    /// The groups worth comparing with `m`: those that share a word's first letters with it (every pair of
    /// names that can match does, initials included), else those of its kick-off's half hour. A key that many
    /// groups share (a common word, a busy half hour) is passed over while a rarer one finds candidates.
    private func candidates(_ m: Member) -> [Int] {
        // Gathered in a list, then sorted and made unique: cheaper than hashing each into a set.
        var found: [Int] = []
        var smallest: Set<Int>?
        // The kick-off's key is the last, when there is a kick-off (`member`).
        let kickOff = m.start == nil ? nil : m.keys.last
        for k in m.keys where k != kickOff {
            guard let s = index[k] else { continue }
            if s.count <= 64 { found += s } else if smallest == nil || s.count < smallest!.count { smallest = s }
        }
        if found.isEmpty, let k = kickOff, let s = index[k] {
            if s.count <= 64 { found += s } else if smallest == nil || s.count < smallest!.count { smallest = s }
        }
        if found.isEmpty, let smallest { found += smallest }
        found.sort()
        var unique = 0
        for g in found where unique == 0 || found[unique - 1] != g {
            found[unique] = g
            unique += 1
        }
        found.removeLast(found.count - unique)
        return found
    }

    /// What every pair across two sets of sources says: the surest join, the first reason to keep them apart,
    /// the first doubt, and whether any pair has nothing in common.
    private struct Fit {
        var best: MatchEvidence?
        var separation: String?
        var doubt: String?
        var unrelated = false
        /// Nothing keeps them apart.
        var compatible: Bool { separation == nil && !unrelated }
    }

    /// `unrelatedEnds`: a pair with nothing in common ends the look too (a merge wants every pair to fit; a
    /// placement still wants the first reason to keep them apart, for `--explain`). A reason to keep them apart
    /// always ends it: nothing after it changes the answer.
    private func fit(_ these: [Member], _ those: [Member], unrelatedEnds: Bool) -> Fit {
        var f = Fit()
        for a in these {
            for b in those {
                switch verdict(a, b) {
                case .join(let e): if f.best == nil || e.confidence > f.best!.confidence { f.best = e }
                case .separate(let why): f.separation = why; return f
                case .unconfirmed(let why): f.doubt = f.doubt ?? why
                case .unrelated: f.unrelated = true; if unrelatedEnds { return f }
                }
            }
        }
        return f
    }

    private mutating func place(_ member: Member) {
        var scored: [(group: Int, evidence: MatchEvidence)] = []
        var separated: (group: Int, reason: String)?
        var unconfirmed: (group: Int, reason: String)?
        for g in candidates(member) {
            guard let members = groups[g]?.members, !members.contains(where: { $0.key.provider == member.key.provider }) else { continue }
            // Every source of the match must be able to be this one (a kick-off 45 minutes from one of them is
            // not excused by another that has none); the closest gives the evidence.
            let f = fit([member], members, unrelatedEnds: false)
            if f.best == nil, let doubt = f.doubt, f.compatible, unconfirmed == nil { unconfirmed = (g, doubt) }
            if let separation = f.separation {
                if separated == nil { separated = (g, separation) }
                continue
            }
            if f.unrelated { continue }
            if let best = f.best { scored.append((g, best)) }
        }
        nearMisses[member.key] = nil
        switch choosing(scored) {
        case .join(let best):
            add(member.joined(with: best.evidence), to: best.group)
            mergeAround(best.group)
            return
        case .ambiguous(let best):
            var e = best.evidence
            e.reason += "; as close to another match: not joined"
            nearMisses[member.key] = NearMiss(key: member.key, matchID: groups[best.group]!.id, evidence: e)
        case .none:
            if let best = scored.min(by: MatchFusion.ranks) {
                nearMisses[member.key] = NearMiss(key: member.key, matchID: groups[best.group]!.id, evidence: best.evidence)
            } else if let why = separated ?? unconfirmed {
                nearMisses[member.key] = NearMiss(key: member.key, matchID: groups[why.group]!.id,
                                                  evidence: MatchEvidence(confidence: 0, reason: (separated == nil ? "unconfirmed: " : "separated: ") + why.reason))
            }
        }
        let g = nextGroup
        nextGroup += 1
        groups[g] = Group(id: MatchFusion.matchID(founder: member.key), members: [])
        // No merge: a source alone weighs the same candidates by the same rule as it just did.
        add(member, to: g)
    }

    /// What the candidates' evidence decides.
    private enum Choice {
        /// The best, at or over the threshold and clearly better than the next.
        case join((group: Int, evidence: MatchEvidence))
        /// The best at or over the threshold, but another fits about as well: joining either could be wrong.
        case ambiguous((group: Int, evidence: MatchEvidence))
        /// None sure enough.
        case none
    }

    /// `choose`, except that candidates about as close as the best that could be one match with it (no provider in
    /// common, and every pair of their sources fits at or over `threshold`) are not alternatives to it but more of
    /// the same match, each provider's source of it having been found alone: the best is joined, and a merge brings
    /// the others. Two games of one book (the same names an hour apart) still leave a source between them alone.
    private func choosing(_ scored: [(group: Int, evidence: MatchEvidence)]) -> Choice {
        let choice = choose(scored)
        guard case .ambiguous(let best) = choice, let top = groups[best.group]?.members else { return choice }
        let providers = Set(top.map(\.key.provider))
        for rival in scored where rival.group != best.group && best.evidence.confidence - rival.evidence.confidence < margin {
            guard let other = groups[rival.group]?.members, providers.isDisjoint(with: other.map(\.key.provider)) else { return choice }
            let f = fit(top, other, unrelatedEnds: true)
            guard f.compatible, let e = f.best, e.confidence >= threshold else { return choice }
        }
        return .join(best)
    }

    /// Whether `a` comes before `b`: surer, then older.
    private static func ranks(_ a: (group: Int, evidence: MatchEvidence), above b: (group: Int, evidence: MatchEvidence)) -> Bool {
        a.evidence.confidence > b.evidence.confidence || (a.evidence.confidence == b.evidence.confidence && a.group < b.group)
    }

    /// The one rule for joining, for a source and for a match: the best candidate joins when it is at or over
    /// `threshold` and `margin` better than the next.
    private func choose(_ scored: [(group: Int, evidence: MatchEvidence)]) -> Choice {
        let ranked = scored.sorted { MatchFusion.ranks($0, above: $1) }
        guard let best = ranked.first, best.evidence.confidence >= threshold else { return .none }
        if let runnerUp = ranked.dropFirst().first, best.evidence.confidence - runnerUp.evidence.confidence < margin { return .ambiguous(best) }
        return .join(best)
    }

    /// Joins group `g` with the one other match it is sure to be, when the two were kept apart only because a
    /// source without a kick-off or a live score could not confirm a name in part: every pair across them may
    /// be one match (none kept apart, none unrelated), at least one pair is sure, no provider is in both,
    /// and no other match fits as well. The older match keeps its id.
    private mutating func mergeAround(_ g: Int) {
        guard let group = groups[g] else { return }
        let providers = Set(group.members.map(\.key.provider))
        var candidates = Set<Int>()
        for m in group.members { candidates.formUnion(self.candidates(m)) }
        candidates.remove(g)
        var fits: [(group: Int, evidence: MatchEvidence)] = []
        for c in candidates.sorted() {
            guard let other = groups[c], providers.isDisjoint(with: other.members.map(\.key.provider)) else { continue }
            let f = fit(group.members, other.members, unrelatedEnds: true)
            if f.compatible, let best = f.best { fits.append((c, best)) }
        }
        guard case .join(let fit) = choosing(fits) else { return }
        let (keep, leave) = fit.group < g ? (fit.group, g) : (g, fit.group)
        let moving = groups[leave]!.members
        for m in moving { remove(m.key) }
        for m in moving {
            let evidence = MatchEvidence(confidence: fit.evidence.confidence, reason: fit.evidence.reason + "; with " + (keep == g ? "this match's" : "another match's") + " sources")
            add(m.joined(with: m.evidence.reason == "first source" ? evidence : m.evidence), to: keep)
            nearMisses[m.key] = nil
        }
        // Others as close may be this match too (each provider's source of it found alone): they follow. Each
        // merge joins a provider at least, so this ends.
        mergeAround(keep)
    }

    /// A fused match's id: "m" and the stable hash of its first source's key.
    static func matchID(founder key: EventKey) -> String { "m" + Event.stableHex("\(key.provider.rawValue)/\(key.id)") }

    private mutating func add(_ member: Member, to g: Int) {
        groups[g]!.members.append(member)
        assignment[member.key] = g
        for k in member.keys { index[k, default: []].insert(g) }
    }

    private mutating func remove(_ key: EventKey) {
        guard let g = assignment.removeValue(forKey: key), var group = groups[g] else { return }
        guard let leaving = group.members.first(where: { $0.key == key }) else { return }
        group.members.removeAll { $0.key == key }
        for k in leaving.keys where !group.members.contains(where: { $0.keys.contains(k) }) {
            index[k]?.remove(g)
            if index[k]?.isEmpty == true { index[k] = nil }
        }
        groups[g] = group.members.isEmpty ? nil : group
        if group.members.isEmpty { dissolved.append(group.id) }
    }
}
