import Foundation
import OddsModel
import OddsStore

/// One real match as every source that has it sees it, joined: a view over the sources' own events,
/// which stay as they were sent.
public struct FusedMatch: Sendable {
    /// Stable while its first source lives ("m" and 7 hex digits).
    public var id: String
    /// The match as one event: names from its first source; score, clock, period and status from the
    /// freshest source that has a scoreboard (its clock, when it has none, from the freshest that has one
    /// and the same score); every source's incidents, once each; every source's
    /// markets, each naming its provider, the match result of all of them as one market (`resultMarketID`)
    /// whose selections are home, draw and away, so that its best price is the best of every source.
    public var event: Event
    public var sources: [FusedSource]
    /// The sources' own events, in the order of `sources`.
    public var sourceEvents: [Event]
    /// Where the sources disagree, in words ("score: tickodds 1-0, sportsapi 2-0"); the freshest is shown.
    public var conflicts: [String]
    /// The least confidence of any join.
    public var confidence: Double { sources.map(\.evidence.confidence).min() ?? 1 }

    /// The id of the fused match-result market.
    public static let resultMarketID = "result"
}

extension MatchFusion {
    /// The fused matches of `events` (the set `update` last took). Prices of a source in `stale` are
    /// shown suspended: a stale or suspended price never wins the best price.
    public func fused(_ events: [Event], stale: Set<EventKey> = []) -> [FusedMatch] {
        var byKey: [EventKey: Event] = [:]
        for e in events { byKey[EventKey(provider: e.provider, id: e.id)] = e }
        return matches.compactMap { match in
            let present = match.sources.filter { byKey[$0.key] != nil }
            guard !present.isEmpty else { return nil }
            return FusedMatch.build(id: match.id, sources: present, events: present.map { byKey[$0.key]! }, stale: stale)
        }
    }
}

extension FusedMatch {
    /// `markets(event, stale)` gives a source's markets as the fused match shows them (`sourceMarkets`, or a
    /// cache of it: a live view rebuilds a match on every change of one source).
    static func build(id: String, sources: [FusedSource], events: [Event], stale: Set<EventKey>,
                      markets: (Event, Bool) -> [Market] = sourceMarkets) -> FusedMatch {
        let base = events[0]
        var fused = Event(provider: base.provider, id: id, sport: base.sport, league: base.league, home: base.home, away: base.away,
                          status: base.status, startTime: events.compactMap(\.startTime).min(), markets: [])
        fused.updatedAt = events.compactMap(\.updatedAt).max()
        // The scoreboard of the freshest source that has one.
        let scored = events.filter { $0.score != nil || $0.scoreText != nil }
        let freshest: (Event, Event) -> Bool = { ($0.updatedAt ?? .distantPast) < ($1.updatedAt ?? .distantPast) }
        if let fresh = scored.max(by: freshest) {
            fused.score = fresh.score; fused.scoreText = fresh.scoreText; fused.clock = fresh.clock
            fused.clockStart = fresh.clockStart; fused.period = fresh.period; fused.status = fresh.status
            // A scoreboard without a running clock (BoltOdds gives the half, not the minute) takes the clock of
            // the freshest source that has one and shows the same score: "67'" rather than "2H".
            if fresh.clock == nil, fresh.clockStart == nil,
               let timed = scored.filter({ ($0.clock != nil || $0.clockStart != nil) && $0.score == fresh.score && $0.scoreText == fresh.scoreText })
                .max(by: freshest) {
                fused.clock = timed.clock; fused.clockStart = timed.clockStart; fused.period = timed.period
            }
            // A clock only moves on. One sent as a minute is as old as its source's last scoreboard, which other
            // messages (odds) do not renew: shown as the freshest source's, it would go back. A clock two
            // minutes or more behind another of the same score and status is shown as the one furthest on.
            let at = fused.updatedAt ?? .distantPast
            func minute(_ e: Event) -> Int? {
                guard !Event.countdownSports.contains(e.sport) else { return nil }
                if e.status == .live, let start = e.clockStart { return start.minute + max(0, Int(at.timeIntervalSince(start.at) / 60)) + 1 }
                return e.clock.flatMap(Event.minute(fromClock:))
            }
            let ahead = scored.filter { $0.score == fresh.score && $0.scoreText == fresh.scoreText && $0.status == fresh.status }
                .compactMap { e in minute(e).map { (e, $0) } }.max { $0.1 < $1.1 }
            if let shown = minute(fused), let ahead, ahead.1 >= shown + 2 {
                fused.clock = ahead.0.clock; fused.clockStart = ahead.0.clockStart; fused.period = ahead.0.period ?? fused.period
            }
        }
        var conflicts: [String] = []
        let scores = scored.map { ($0.provider, $0.score.map { "\($0.home)-\($0.away)" } ?? $0.scoreText ?? "") }
        if Set(scores.map(\.1)).count > 1 {
            conflicts.append("score: " + scores.map { "\($0.0.rawValue) \($0.1)" }.joined(separator: ", "))
        }
        fused.incidents = mergedIncidents(events)
        fused.stats = events.first { !$0.stats.isEmpty }?.stats ?? []
        fused.lineups = events.first { $0.lineups != nil }?.lineups
        fused.markets = events.flatMap { e in markets(e, stale.contains(EventKey(provider: e.provider, id: e.id))) }
        let origins = zip(sources, events).map { EventSource($1, confidence: $0.evidence.confidence, reason: $0.evidence.reason) }
        fused.match = MatchInfo(id: id, confidence: sources.map(\.evidence.confidence).min() ?? 1, sources: origins, conflicts: conflicts)
        return FusedMatch(id: id, event: fused, sources: sources, sourceEvents: events, conflicts: conflicts)
    }

    /// The id of the fused both-teams-to-score market; totals are `total:<line>` ("total:2.5").
    public static let bothTeamsToScoreID = "btts"

    /// Whether `id` is one a market of one meaning gets across sources (`sourceMarkets`): the match result, a total
    /// or spread of one line, both teams to score.
    public static func isByMeaning(_ id: String) -> Bool {
        id == resultMarketID || id == bothTeamsToScoreID || id.hasPrefix("total:") || id.hasPrefix("spread:")
    }

    /// A source's markets, each naming its provider and book. Markets of one meaning get one id across
    /// sources, so that each selection's best price is the best of every source: the match result
    /// (`result`: home, draw, away), totals per line (`total:2.5`: over, under) and both teams to score
    /// (`btts`: yes, no). Others keep their own.
    static func sourceMarkets(_ e: Event, stale: Bool) -> [Market] {
        let main = mainMarket(of: e)
        return e.markets.flatMap { market -> [Market] in
            let normalized = normalized(market, main: main, event: e)
            return stale ? normalized.map(suspended) : normalized
        }
    }

    /// The market tables call the match result, for a match of two teams.
    public static func mainMarket(of e: Event) -> Market? {
        e.away != nil ? e.markets.first(where: { Event.isMainMarketName($0.name) }) : nil
    }

    /// One market of `e` by meaning (`sourceMarkets`): the match result as `result`, totals and spreads one
    /// market per line, both teams to score as `btts`, any other as it is; each naming its provider and book.
    /// `main` is `mainMarket(of: e)`.
    public static func normalized(_ market: Market, main: Market?, event e: Event) -> [Market] {
        var m = market
        m.provider = m.provider ?? e.provider
        if m.book == nil { m.book = e.provider.singleBook ?? e.provider.rawValue }
        if e.away != nil, main.map({ market.id == $0.id && market.name == $0.name }) != true,
           let byMeaning = byMeaning(m) ?? spreads(m, event: e), !isPartOrOther(m.name, event: e) {
            return byMeaning
        }
        return resultOrSame(m, main: main, event: e, stale: false).map { [$0] } ?? []
    }

    /// `normalized`, with each normalized selection's index in `market.selections` (the price it came from).
    public static func normalizedWithOrigins(_ market: Market, main: Market?, event e: Event) -> [(market: Market, origins: [Int])] {
        // The normalizers copy each selection they keep whole, link included: the link carries the index through.
        var tagged = market
        for i in tagged.selections.indices { tagged.selections[i].deepLink = DeepLink(String(i)) }
        return normalized(tagged, main: main, event: e).map { m in
            var out = m
            let origins = m.selections.map { Int($0.deepLink!.head)! }
            for (j, i) in origins.enumerated() { out.selections[j].deepLink = market.selections[i].deepLink }
            return (out, origins)
        }
    }

    static func suspended(_ m: Market) -> Market {
        var m = m
        for i in m.selections.indices { m.selections[i].suspended = true }
        return m
    }

    /// Words of a market's name that say it prices part of the match (a half, a quarter, a period, a set), a count
    /// other than the score (corners, cards, shots), or one side or player: "1st Half Total Goals", "Total Corners",
    /// "Team Total", "Both Teams to Score - 1st Half". Such a market keeps its own id: joined by line with the
    /// match's own, a first half's 1.5 would stand as the match's best price, and as a false arbitrage.
    static let partOrOtherWords: Set<Substring> = [
        "1st", "2nd", "3rd", "4th", "5th", "first", "second", "third", "fourth", "fifth", "half", "halves", "1h", "2h", "h1", "h2",
        "quarter", "quarters", "q1", "q2", "q3", "q4", "period", "periods", "p1", "p2", "p3", "set", "inning", "innings", "map",
        "corner", "corners", "card", "cards", "booking", "bookings", "shots", "fouls", "offsides", "tackles", "aces", "team", "home",
        "away", "player", "players", "race", "exact", "odd", "even", "and",
    ]

    /// Whether `name` (a market's) is of part of the match, of another count than the score, of one side or player
    /// (`partOrOtherWords`, or a team's name in it), or a combination ("Both Teams To Score & Over 2.5"): never joined
    /// with the match's own by meaning.
    public static func isPartOrOther(_ name: String, event e: Event) -> Bool {
        if name.contains("&") { return true }
        let folded = TeamName.fold(name)
        if folded.split(separator: " ").contains(where: partOrOtherWords.contains) { return true }
        // "Arsenal Total Goals": one team's.
        for team in [e.home, e.away].compactMap({ $0 }) {
            let t = TeamName.fold(team)
            if t.utf8.count >= 3, TeamName.holds(folded, words: t) { return true }
        }
        return false
    }

    /// Whether a market's folded name is a three-way (European) handicap: it has a draw, and is no spread.
    public static func isThreeWay(_ folded: String) -> Bool { folded.contains("3 way") || folded.contains("european") }

    /// A word of a selection's name without the brackets a line may stand in: "(-4.5)" is "-4.5".
    static func unbracketed(_ word: some StringProtocol) -> String { word.trimmingCharacters(in: CharacterSet(charactersIn: "()[]")) }

    /// Totals and both teams to score under their common ids; nil for a market of another meaning.
    static func byMeaning(_ m: Market) -> [Market]? {
        let name = TeamName.fold(m.name)
        let folded = m.selections.map { TeamName.fold($0.name) }
        if name.contains("both teams to score") || name == "btts" {
            let picked = m.selections.filter { ["yes", "no"].contains(TeamName.fold($0.name)) }.map { s -> Selection in
                var s = s
                s.id = TeamName.fold(s.name)
                return s
            }
            guard !picked.isEmpty else { return nil }
            var out = m
            out.id = bothTeamsToScoreID
            out.name = "Both teams to score"
            out.selections = picked
            return [out]
        }
        // SofaScore (SportsAPIPro v2) calls a football match's total "Match goals" (its line after the name).
        let isTotal = name.contains("total") || name.contains("over under") || name == "match goals" || name.hasPrefix("match goals ")
        // Each selection over or under and nothing else but its line ("Over 2.5"; never "Over 2.5 & Yes").
        func isSide(_ f: String) -> Bool {
            let words = f.split(separator: " ")
            return ["over", "under"].contains(words.first ?? "") && words.dropFirst().allSatisfy { $0.allSatisfy(\.isNumber) }
        }
        guard isTotal, !folded.isEmpty, folded.allSatisfy(isSide) else { return nil }
        var byLine: [String: [Selection]] = [:]
        var order: [String] = []
        for (s, f) in zip(m.selections, folded) {
            // A line only in the name ("Over 2.5", "Under (3.5)") is read from the name as written: folded, its
            // point is a space.
            let named = s.name.split(separator: " ").dropFirst().lazy
                .map(unbracketed).first { canonicalLine($0) != nil }
            guard let line = (s.line ?? named).flatMap(canonicalLine) else { continue }
            var s = s
            s.id = f.hasPrefix("over") ? "over" : "under"
            s.line = line
            if byLine[line] == nil { order.append(line) }
            byLine[line, default: []].append(s)
        }
        guard !order.isEmpty else { return nil }
        return order.map { line in
            var out = m
            out.id = "total:\(line)"
            out.name = "Total \(line)"
            out.selections = byLine[line]!
            return out
        }
    }

    /// Spreads (handicaps) under `spread:<home line>` ("spread:-4.5": home -4.5, away +4.5), selections `home`
    /// and `away` by team, never by place, each with its own side's line; nil for a market of another meaning.
    /// A line is the selection's own (signed per side: "+4.5" for the away side of home -4.5), or, where the
    /// provider names it, the trailing number of its name ("Boston Celtics -4.5"); one line shared by both
    /// sides is the market's, given from the home side (inferred: SofaScore's choice group).
    static func spreads(_ m: Market, event e: Event) -> [Market]? {
        let name = TeamName.fold(m.name)
        guard name.contains("spread") || (name.contains("handicap") && !isThreeWay(name)) else {
            return nil
        }
        var sides: [(selection: Selection, home: Bool, line: String)] = []
        for s in m.selections {
            var words = s.name.split(separator: " ").map(String.init)
            var named: String?
            // Never the whole name: "1" and "2" are the sides.
            // A line may be bracketed: "Boston Celtics (-4.5)".
            func signed(_ word: String) -> String? { canonicalSigned(unbracketed(word)) }
            while words.count > 1, let last = words.last, ["spread", "handicap"].contains(TeamName.fold(last)) || signed(last) != nil {
                if named == nil { named = signed(last) }
                words.removeLast()
            }
            var team = s
            team.name = words.joined(separator: " ")
            guard let outcome = e.outcome(of: team), outcome != .draw,
                  let line = s.line.flatMap(canonicalSigned) ?? named else { continue }
            sides.append((s, outcome == .home, line))
        }
        guard sides.contains(where: \.home), sides.contains(where: { !$0.home }) else { return nil }
        let shared = Set(sides.map(\.line)).count == 1 && sides[0].line != "0"
        var byLine: [String: [Selection]] = [:]
        var order: [String] = []
        for side in sides {
            let homeLine = shared || side.home ? side.line : negated(side.line)
            var s = side.selection
            s.id = side.home ? "home" : "away"
            s.line = side.home ? homeLine : negated(homeLine)
            if byLine[homeLine] == nil { order.append(homeLine) }
            byLine[homeLine, default: []].append(s)
        }
        return order.map { line in
            var out = m
            out.id = "spread:\(line)"
            out.name = "Spread \(line.hasPrefix("-") || line == "0" ? line : "+" + line)"
            out.selections = byLine[line]!
            return out
        }
    }

    /// "-4.50" is -4.5, "+4.5" and "4.5" are 4.5; nil for text that is no number.
    static func canonicalSigned(_ text: String) -> String? {
        var t = text.trimmingCharacters(in: .whitespaces)
        let negative = t.hasPrefix("-")
        if negative || t.hasPrefix("+") { t.removeFirst() }
        guard let unsigned = canonicalLine(t), !unsigned.hasPrefix("-") else { return nil }
        if unsigned.allSatisfy({ $0 == "0" || $0 == "." }) { return "0" }
        return negative ? "-" + unsigned : unsigned
    }

    static func negated(_ line: String) -> String {
        line == "0" ? "0" : line.hasPrefix("-") ? String(line.dropFirst()) : "-" + line
    }

    /// "2.50" and "+2.5" are the line 2.5; nil for text that is no number.
    static func canonicalLine(_ text: String) -> String? {
        var raw = Substring(text)
        while raw.first == " " { raw.removeFirst() }
        while raw.last == " " { raw.removeLast() }
        if raw.hasPrefix("+") { raw.removeFirst() }
        guard !raw.isEmpty, raw.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D }), Double(raw) != nil else { return nil }
        var t = String(raw)
        if t.contains(".") {
            while t.hasSuffix("0") { t.removeLast() }
            if t.hasSuffix(".") { t.removeLast() }
        }
        return t
    }

    /// The source's match result as the fused result market; any other market as it is.
    static func resultOrSame(_ market: Market, main: Market?, event e: Event, stale: Bool) -> Market? {
        var m = market
        if let main, market.id == main.id, market.name == main.name {
            m.id = FusedMatch.resultMarketID
            m.name = "Match result"
            // Each selection by its outcome, never by its place: one that cannot be told is left out, unless it
            // is the only one left and the market lacks just one team (a book spelling "Bayern München" for
            // "Bayern Munich" beside "Draw" and "RB Leipzig" can only mean the home side).
            var outcomes = market.selections.map { e.outcome(of: $0) }
            let unknown = outcomes.indices.filter { outcomes[$0] == nil }
            let missing = [MatchOutcome.home, .away].filter { !outcomes.contains($0) }
            if unknown.count == 1, missing.count == 1, e.away != nil { outcomes[unknown[0]] = missing[0] }
            m.selections = zip(market.selections, outcomes).compactMap { s, outcome in
                guard let outcome else { return nil }
                var s = s
                s.id = ["home", "draw", "away"][outcome.rawValue]
                s.line = nil
                return s
            }
            if m.selections.isEmpty { return nil }
        }
        return stale ? suspended(m) : m
    }

    /// Every source's incidents, once each (`IncidentLog`), in match order.
    static func mergedIncidents(_ events: [Event]) -> [Incident] {
        var log = IncidentLog()
        for e in events { for incident in e.incidents { log.tell(incident, by: e.provider) } }
        return Incident.inMatchOrder(log.incidents)
    }

    /// Whether `incident` is one of `known` as another source tells it: the same kind within a minute, and the same side,
    /// player and card colour where both sources say (one that does not say matches any).
    public static func isDuplicate(_ incident: Incident, of known: [Incident]) -> Bool {
        func same<T: Equatable>(_ a: T?, _ b: T?) -> Bool { a == nil || b == nil || a == b }
        let player = incident.player.map(TeamName.fold)
        let card = incident.kind == .card ? cardColour(incident.detail) : nil
        return known.contains { k in
            k.kind == incident.kind && same(k.team, incident.team) && same(k.player.map(TeamName.fold), player)
                && same(k.kind == .card ? cardColour(k.detail) : nil, card)
                && abs((k.minute ?? -10) - (incident.minute ?? -10)) <= 1
                && (k.minute == nil) == (incident.minute == nil)
        }
    }

    /// A card's colour as its detail says it ("Yellow Card", "yellow", "Red card"); a second yellow is the red it
    /// sends a player off with (one feed says which, another just "Red card"); nil where it does not say
    /// (SofaScore's card without a class is "Card").
    static func cardColour(_ detail: String?) -> String? {
        guard let d = detail.map(TeamName.fold) else { return nil }
        if d.contains("second") || d.contains("red") { return "red" }
        if d.contains("yellow") { return "yellow" }
        return nil
    }

    /// The fused view of one match's source events as they are now (the first source's names, the
    /// freshest scoreboard, every incident once), with `id`.
    public static func view(id: String, events: [Event]) -> Event? {
        guard !events.isEmpty else { return nil }
        let sources = events.map { FusedSource(key: EventKey(provider: $0.provider, id: $0.id), evidence: MatchEvidence(confidence: 1, reason: "")) }
        return build(id: id, sources: sources, events: events, stale: []).event
    }
}

/// A match's incidents as several providers tell them, each kept once. An incident another provider
/// already told (`FusedMatch.isDuplicate`) is that telling, and each kept incident stands for one
/// telling per other provider, not for all of them: a provider's own two cards of one minute stay two.
/// It keeps the latest `capacity` incidents, and a telling is compared only with those of its kind
/// within a minute of it.
public struct IncidentLog: Sendable {
    /// Incidents kept, at most: a match's whole story many times over.
    public static let capacity = 1_000

    struct Entry: Sendable {
        var provider: ProviderID
        var incident: Incident
        var absorbed: Set<ProviderID>
    }
    /// Where incidents of one kind and minute are: what a telling is compared with.
    struct Moment: Hashable, Sendable {
        var kind: IncidentKind
        var minute: Int?
    }

    /// By sequence number, `first..<next`.
    private var entries: [Int: Entry] = [:]
    private var byMoment: [Moment: [Int]] = [:]
    private var first = 0
    private var next = 0

    public init() {}

    /// The incidents kept, in the order they were first told.
    public var incidents: [Incident] { (first..<next).compactMap { entries[$0]?.incident } }

    /// Takes `incident` as `provider` tells it; true when it is new, false when it is another
    /// provider's telling of one already kept.
    @discardableResult
    public mutating func tell(_ incident: Incident, by provider: ProviderID) -> Bool {
        let minutes: [Int?] = incident.minute.map { [$0 - 1, $0, $0 + 1] } ?? [nil]
        // The first told of those it could be, as they were told.
        let candidates = minutes.flatMap { byMoment[Moment(kind: incident.kind, minute: $0)] ?? [] }.sorted()
        for seq in candidates {
            guard let e = entries[seq], e.provider != provider, !e.absorbed.contains(provider),
                  FusedMatch.isDuplicate(incident, of: [e.incident]) else { continue }
            entries[seq]!.absorbed.insert(provider)
            return false
        }
        entries[next] = Entry(provider: provider, incident: incident, absorbed: [])
        byMoment[Moment(kind: incident.kind, minute: incident.minute), default: []].append(next)
        next += 1
        if next - first > IncidentLog.capacity {
            if let old = entries.removeValue(forKey: first) {
                let moment = Moment(kind: old.incident.kind, minute: old.incident.minute)
                byMoment[moment]?.removeAll { $0 == first }
                if byMoment[moment]?.isEmpty == true { byMoment[moment] = nil }
            }
            first += 1
        }
        return true
    }
}
