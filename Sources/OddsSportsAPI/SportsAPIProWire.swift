import Foundation
import OddsJSON
import OddsModel
import OddsTransport

/// SportsAPIPro's sport names and the project's slugs.
public enum SportsAPIProSports {
    /// v2's `x-sport` values (documented).
    public static let v2 = ["football", "basketball", "ice-hockey", "tennis", "rugby", "handball", "volleyball", "baseball",
                            "american-football", "cricket", "futsal", "mma", "motorsport", "darts", "snooker", "badminton",
                            "table-tennis", "beach-volley", "cycling", "esports", "bandy", "aussie-rules", "floorball",
                            "minifootball", "waterpolo"]
    /// v1's sport slugs (documented in its `connected` message and channel list).
    public static let v1 = ["football", "basketball", "tennis", "hockey", "handball", "american-football", "baseball",
                            "volleyball", "rugby"]

    private static let v2Aliases = ["soccer": "football", "hockey": "ice-hockey", "beach-volleyball": "beach-volley",
                                    "water-polo": "waterpolo", "australian-rules": "aussie-rules", "aussie-rules-football": "aussie-rules",
                                    "mixed-martial-arts": "mma", "ufc": "mma", "e-sports": "esports"]
    private static let v1Aliases = ["soccer": "football", "ice-hockey": "hockey"]

    /// The `x-sport` value for a sport as the user types it ("soccer", "Ice Hockey"); nil if v2 has none.
    public static func v2Value(_ typed: String) -> String? {
        let s = sportSlug(typed)
        let v = v2Aliases[s] ?? s
        return v2.contains(v) ? v : nil
    }

    /// v1's sport slug for a sport as typed; nil if v1 has none.
    public static func v1Value(_ typed: String) -> String? {
        let s = sportSlug(typed)
        let v = v1Aliases[s] ?? s
        return v1.contains(v) ? v : nil
    }

    /// The project's slug for a provider sport name (v1 or v2): football is soccer, hockey ice hockey.
    public static func slug(_ providerName: String) -> String {
        switch sportSlug(providerName) {
        case "football": return "soccer"
        case "hockey": return "ice-hockey"
        case let s: return s
        }
    }
}

/// A v2 channel, parsed from its documented name.
public enum SportsAPIProChannel: Hashable, Sendable {
    case liveScores(sport: String?)
    case match(String)
    case incidents(String)
    case stats(String)
    case odds(String)
    case lineups(String)

    /// The sub-channels of a match, as the docs list them.
    public static let matchParts = ["incidents", "stats", "odds", "lineups"]

    public init?(_ name: String) {
        if name == "live-scores" { self = .liveScores(sport: nil); return }
        if name.hasPrefix("live-scores:") {
            let sport = String(name.dropFirst("live-scores:".count))
            guard !sport.isEmpty else { return nil }
            self = .liveScores(sport: sport)
            return
        }
        let parts = name.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.first == "match", parts.count >= 2, !parts[1].isEmpty else { return nil }
        let id = parts[1]
        switch parts.count == 2 ? nil : parts[2] {
        case nil: self = .match(id)
        case "incidents"? where parts.count == 3: self = .incidents(id)
        case "stats"? where parts.count == 3: self = .stats(id)
        case "odds"? where parts.count == 3: self = .odds(id)
        case "lineups"? where parts.count == 3: self = .lineups(id)
        default: return nil
        }
    }

    public var name: String {
        switch self {
        case .liveScores(let sport): return sport.map { "live-scores:\($0)" } ?? "live-scores"
        case .match(let id): return "match:\(id)"
        case .incidents(let id): return "match:\(id):incidents"
        case .stats(let id): return "match:\(id):stats"
        case .odds(let id): return "match:\(id):odds"
        case .lineups(let id): return "match:\(id):lineups"
        }
    }

    public var matchID: String? {
        switch self {
        case .liveScores: return nil
        case .match(let id), .incidents(let id), .stats(let id), .odds(let id), .lineups(let id): return id
        }
    }

    /// Every channel of one match: score, incidents, stats, odds, lineups.
    public static func all(match id: String) -> [SportsAPIProChannel] {
        [.match(id), .incidents(id), .stats(id), .odds(id), .lineups(id)]
    }
}

/// Decoders of SportsAPIPro's messages. The envelopes are documented; the `data` payloads are not
/// (the docs show `{ ... }`), so every payload reader accepts the public shapes these feeds are
/// known by (SofaScore-style events, incidents, statistics, lineups and odds for v2; 365Scores-style
/// games for v1), and takes what it can from an object it does not fully know. Inferred; the README
/// lists these shapes.
public enum SportsAPIProWire {
    /// A v2 message.
    public enum Message: Equatable, Sendable {
        case welcome(natsConnected: Bool?, sport: String?)
        case subscribed(channel: String, mode: String?)
        case unsubscribed(channel: String)
        /// `timestamp`: the server's time of the message, in any form `ProviderTime` reads.
        case data(channel: String, snapshot: Bool, data: JSONValue, source: String?, timestamp: Date?)
        case pong
        case error(String, channel: String?)
    }

    public static func message(_ v: JSONValue) throws -> Message {
        guard v.isObject else { throw MalformedMessage("not an object") }
        guard let type = v["type"]?.string else { throw MalformedMessage("no type") }
        let channel = v["channel"]?.string
        switch type {
        case "welcome":
            return .welcome(natsConnected: v["natsConnected"]?.bool, sport: v["sport"]?.string)
        case "subscribed":
            guard let channel else { throw MalformedMessage("subscribed without a channel") }
            return .subscribed(channel: channel, mode: v["mode"]?.string)
        case "unsubscribed":
            guard let channel else { throw MalformedMessage("unsubscribed without a channel") }
            return .unsubscribed(channel: channel)
        case "snapshot", "update":
            guard let channel else { throw MalformedMessage("\(type) without a channel") }
            guard let data = v["data"], !data.isNull else { throw MalformedMessage("\(type) without data") }
            // A string or a number is no payload: unusable like null, never "nothing live".
            guard data.isObject || data.array != nil else { throw MalformedMessage("\(type) whose data is not an object or a list") }
            return .data(channel: channel, snapshot: type == "snapshot", data: data, source: v["source"]?.string,
                         timestamp: ProviderTime.read(v["timestamp"]))
        case "pong":
            return .pong
        case "error":
            let text = v["message"]?.text ?? v["error"]?.text ?? v["reason"]?.text ?? "an error without a message"
            return .error(text, channel: channel)
        default:
            throw MalformedMessage("unknown type '\(type)'")
        }
    }

    // MARK: - Payload helpers

    /// The first of several keys that is present and not null.
    static func first(_ v: JSONValue?, _ keys: [String]) -> JSONValue? {
        guard let v else { return nil }
        for k in keys { if let x = v[k], !x.isNull { return x } }
        return nil
    }

    /// A name: a string, or an object's `name` (or `shortName`).
    static func name(_ v: JSONValue?) -> String? {
        guard let v else { return nil }
        if let s = v.string { return s.isEmpty ? nil : s }
        return first(v, ["name", "shortName", "displayName"])?.string
    }

    /// A whole number in a sane range: an integer, a number with an integral value (`1.0`, as the
    /// public services behind these feeds send scores) or a string of either. Anything else (a
    /// fraction, a bool, a word, out of range) is unknown: nil, never zero.
    static func int(_ v: JSONValue?, range: ClosedRange<Int> = -1...100_000) -> Int? {
        guard let v else { return nil }
        if case .bool = v { return nil }
        guard let n = v.int, range.contains(n) else { return nil }
        return n
    }

    /// An id as text: a whole number in any of its forms is written as an integer (`12.0` and `"12"`
    /// are the match `12`), any other string as sent.
    static func id(_ v: JSONValue?) -> String? {
        guard let v else { return nil }
        switch v {
        case .number(let n): return v.int.map(String.init) ?? n
        case .string(let s):
            if let n = v.int, s.utf8.contains(UInt8(ascii: ".")) || s.utf8.contains(UInt8(ascii: "e")) || s.utf8.contains(UInt8(ascii: "E")) { return String(n) }
            return s
        default: return nil
        }
    }

    /// A list inside a payload: the payload itself when it is an array, else the first key that holds one.
    static func list(_ v: JSONValue, _ keys: [String]) -> [JSONValue]? {
        if let a = v.array { return a }
        for k in keys { if let a = v[k]?.array { return a } }
        return nil
    }

    // MARK: - Matches (live-scores, match:{id})

    /// The matches of a live-scores or match payload: an array, `events`/`matches`/`games`, or one match.
    public static func matches(_ data: JSONValue) -> [JSONValue] {
        if let l = list(data, ["events", "matches", "games", "liveEvents"]) { return l }
        if let e = first(data, ["event", "match", "game"]), e.isObject { return [e] }
        return data.isObject ? [data] : []
    }

    /// One match as a scoreboard; nil without an id. `sport` is the feed's sport when the match
    /// does not say; `at` the message's time, for a clock given as a period start.
    public static func scoreboard(_ m: JSONValue, channelMatchID: String? = nil, sport: String?, at: Date) -> Scoreboard? {
        guard let id = Self.id(first(m, ["id", "matchId", "eventId"])) ?? channelMatchID, !id.isEmpty, id.count <= 64 else { return nil }
        var board = Scoreboard(eventID: id)
        board.home = name(first(m, ["homeTeam", "home", "homeCompetitor"]))
        board.away = name(first(m, ["awayTeam", "away", "awayCompetitor"]))
        board.league = name(first(m, ["tournament", "league", "competition", "uniqueTournament"]))
        let sportName = name(first(m, ["sport"])) ?? m["tournament"]?["category"]?["sport"].flatMap { first($0, ["slug", "name"])?.string }
        board.sport = (sportName ?? sport).map(SportsAPIProSports.slug)
        let home = score(first(m, ["homeScore"])) ?? int(m["score"]?["home"])
        let away = score(first(m, ["awayScore"])) ?? int(m["score"]?["away"])
        if let home, let away, home >= 0, away >= 0 { board.score = Score(home: home, away: away) }
        let status = first(m, ["status"])
        let statusType = status.flatMap { $0.string ?? first($0, ["type"])?.string }?.lowercased()
        let description = status.flatMap { first($0, ["description", "text"])?.string }
        board.status = statusType.map(eventStatus) ?? description.map(eventStatus)
        if board.status == .live, let d = description?.lowercased(), d.contains("halftime") || d == "ht" || d.contains("half time") || d.contains("break") {
            board.status = .halftime
        }
        board.period = description ?? first(m, ["period", "periodName"])?.string
        (board.clock, board.clockStart) = clock(m, status: board.status, description: description, sport: board.sport, at: at)
        board.startTime = startTime(first(m, ["startTimestamp", "startTime", "startDate", "start_time", "kickoff", "kickOff", "date"]))
        // SofaScore's red cards per side (an event sends the member only for a side that has one).
        board.redCards = redCards(home: m["homeRedCards"], away: m["awayRedCards"])
        return board
    }

    /// Red cards per side from two counts of which a feed may send only the side that has one: a side
    /// without its member has none; nil when neither is sent, or when a count is unreadable (both unknown
    /// rather than guessed).
    static func redCards(home: JSONValue?, away: JSONValue?) -> Score? {
        guard home != nil || away != nil,
              let h = home == nil ? 0 : int(home, range: 0...20), let a = away == nil ? 0 : int(away, range: 0...20) else { return nil }
        return Score(home: h, away: a)
    }

    /// A start time as either API may send it: Unix seconds (SofaScore's `startTimestamp`), milliseconds,
    /// or ISO 8601 with or without an offset (365Scores' `startTime`), as a number or as text; nil when
    /// it is none of these or not between 2000 and 2100.
    static func startTime(_ v: JSONValue?) -> Date? {
        guard let v, !v.isNull else { return nil }
        if let s = v.string { return ISODate.parse(lenient: s) }
        return v.text.flatMap(Double.init).flatMap(ISODate.unix)
    }

    /// A score: a number, or an object's `current` (or `display`).
    static func score(_ v: JSONValue?) -> Int? {
        guard let v else { return nil }
        if let n = int(v, range: -1...10_000) { return n }
        return int(first(v, ["current", "display", "score"]), range: -1...10_000)
    }

    static func eventStatus(_ text: String) -> EventStatus {
        let t = text.lowercased()
        if ["inprogress", "in_progress", "live", "playing"].contains(t) || t.contains("half") && !t.contains("time") { return .live }
        if ["finished", "ended", "ft", "afterextra", "afterpenalties", "aet", "ap"].contains(t) || t.contains("ended") || t.contains("finished") { return .ended }
        if ["notstarted", "not_started", "scheduled", "ns", "upcoming"].contains(t) { return .scheduled }
        if t.contains("halftime") || t == "ht" || t.contains("half time") || t.contains("pause") { return .halftime }
        if t.contains("interrupt") || t.contains("suspend") { return .suspended }
        if t.contains("postponed") || t.contains("cancel") || t.contains("abandon") { return .ended }
        return .unknown
    }

    /// The match clock as a minute ("67'"): given as `minute`/`clock`/`time.minute`, or worked out
    /// from SofaScore's `time.currentPeriodStartTimestamp` and the period's first minute (soccer,
    /// whose clock counts up), which also lets it run between messages.
    static func clock(_ m: JSONValue, status: EventStatus?, description: String?, sport: String?,
                      at: Date) -> (String?, ClockStart?) {
        if let c = first(m, ["clock", "liveTime", "displayClock"])?.string, !c.isEmpty { return (c, nil) }
        if let n = int(first(m, ["minute", "currentMinute"]), range: 0...200) ?? int(m["time"]?["minute"], range: 0...200)
            ?? int(m["time"]?["played"], range: 0...200) {
            return ("\(n)'", nil)
        }
        guard status == .live, sport == nil || sport == "soccer", let time = m["time"],
              let start = int(time["currentPeriodStartTimestamp"], range: 0...Int(Int32.max)) else { return (nil, nil) }
        let offset: Int
        if let initial = int(time["initial"], range: 0...20_000) { offset = initial / 60 }
        else if let d = description?.lowercased(), d.contains("2nd") || d.contains("second") { offset = 45 }
        else { offset = 0 }
        let elapsed = Int(at.timeIntervalSince1970) - start
        guard elapsed >= 0, elapsed < 4 * 3600 else { return (nil, nil) }
        let clockStart = ClockStart(at: Date(timeIntervalSince1970: TimeInterval(start)), minute: offset)
        return (clockStart.label(at: at), clockStart)
    }

    // MARK: - Incidents

    /// Incidents kept per match, at most: the newest by the feed's own order. A longer list from the feed is
    /// cut (and said so once) so that no list from outside costs more than O(n log n) once.
    public static let incidentLimit = 500

    /// An incidents payload as the feed lists it: each readable entry, newest first (SofaScore's order; a
    /// list that runs from the earliest minute is turned round). Unreadable entries are left out and
    /// counted in `skipped`.
    public static func incidentList(_ data: JSONValue, skipped: inout Int) -> [Incident] {
        guard let items = list(data, ["incidents", "events", "items"]) else { skipped += 1; return [] }
        var out: [Incident] = []
        out.reserveCapacity(items.count)
        for item in items {
            if let i = incident(item) { out.append(i) } else { skipped += 1 }
        }
        return items.count > 1 && !isNewestFirst(items) ? out.reversed() : out
    }

    /// A class name in words: "penaltyNotAwarded" → "Penalty not awarded"; text with spaces stays as it is.
    static func words(camelCase text: String) -> String {
        guard !text.contains(" ") else { return text }
        var out = ""
        for c in text {
            if c.isUppercase, !out.isEmpty { out += " " + c.lowercased() } else { out.append(c) }
        }
        return out.prefix(1).uppercased() + out.dropFirst()
    }

    /// Whether a list runs from the latest minute to the earliest; one whose minutes do not say (a shoot-out's
    /// kicks have none) is taken to, as SofaScore lists them.
    static func isNewestFirst(_ items: [JSONValue]) -> Bool {
        var head: Int?, tail: Int?
        for item in items {
            guard let m = int(first(item, ["time", "minute"]), range: 0...300) else { continue }
            if head == nil { head = m }
            tail = m
        }
        guard let head, let tail, head != tail else { return true }
        return head > tail
    }

    /// One incident; nil for an entry that is not an object or has no type.
    public static func incident(_ v: JSONValue) -> Incident? {
        guard v.isObject, let type = first(v, ["incidentType", "type", "kind"])?.string, !type.isEmpty else { return nil }
        let cls = first(v, ["incidentClass", "class", "cardType"])?.string
        var i = Incident(kind: .other)
        i.id = id(first(v, ["id", "incidentId"]))
        i.minute = int(first(v, ["time", "minute"]), range: 0...300)
        // A period's end has addedTime 999 ("after all of it"): no added time of its own.
        i.addedTime = int(first(v, ["addedTime", "injuryTime", "extraTime"]), range: 0...60)
        if let home = first(v, ["isHome"])?.bool { i.team = home ? .home : .away }
        else if let side = first(v, ["team", "side"])?.string?.lowercased(), side == "home" || side == "away" { i.team = Side(rawValue: side) }
        i.player = name(first(v, ["player", "playerName", "scorer"]))
        i.reason = first(v, ["reason", "description"])?.string
        if let h = int(v["homeScore"], range: 0...10_000), let a = int(v["awayScore"], range: 0...10_000) { i.score = Score(home: h, away: a) }
        switch type.lowercased() {
        case "goal":
            i.kind = .goal
            i.assist = name(first(v, ["assist1", "assist", "assistName"]))
            switch cls?.lowercased() {
            case "owngoal"?: i.detail = "Own goal"
            case "penalty"?: i.detail = "Penalty"
            default: i.detail = "Goal"
            }
        case "card":
            i.kind = .card
            switch cls?.lowercased() {
            case "red"?: i.detail = "Red card"
            case "yellowred"?: i.detail = "Second yellow"
            default: i.detail = cls == nil ? "Card" : "Yellow card"
            }
            i.rescinded = v["rescinded"]?.bool ?? false
        case "substitution":
            i.kind = .substitution
            i.player = name(first(v, ["playerIn", "in"])) ?? i.player
            i.playerOut = name(first(v, ["playerOut", "out"]))
            i.detail = "Substitution"
        case "vardecision", "var":
            i.kind = .var
            i.reason = i.reason ?? cls.map(words(camelCase:)) ?? first(v, ["decision", "text"])?.string
            i.detail = "VAR"
        case "period":
            i.kind = .period
            i.detail = first(v, ["text", "period", "name"])?.string ?? "Period"
        case "ingamepenalty":
            // A penalty in play that did not score (a scored one is also a goal): "Goalkeeper save", "Off target".
            i.kind = .other
            let scored = cls?.lowercased() == "scored"
            i.detail = scored ? "Penalty scored" : "Penalty missed"
            i.reason = first(v, ["description", "reason"])?.string ?? i.reason
        case "penaltyshootout":
            i.kind = .other
            i.detail = "Shoot-out"
            i.reason = first(v, ["description", "reason", "incidentClass"])?.string ?? i.reason
        case "injurytime", "addedtime":
            i.kind = .injuryTime
            i.addedTime = int(first(v, ["length", "addedTime", "minutes"]), range: 0...60) ?? i.addedTime
            i.detail = "Injury time"
        default:
            i.kind = IncidentKind(label: type)
            i.detail = type
        }
        return i
    }

    // MARK: - Statistics

    /// The statistics of a stats payload: SofaScore's periods and groups (the whole match, "ALL",
    /// when given), a flat list of `{name, home, away}`, or an object of name → `{home, away}`.
    public static func stats(_ data: JSONValue) -> [TeamStat]? {
        if let periods = list(data, ["statistics", "stats"]), periods.contains(where: { $0["groups"] != nil }) {
            let period = periods.first { $0["period"]?.string?.uppercased() == "ALL" } ?? periods[0]
            var out: [TeamStat] = []
            for g in period["groups"]?.array ?? [] {
                let group = first(g, ["groupName", "name"])?.string
                for item in list(g, ["statisticsItems", "items"]) ?? [] {
                    if let s = stat(item, group: group) { out.append(s) }
                }
            }
            return out
        }
        if let items = list(data, ["statistics", "stats", "items"]) {
            return items.compactMap { stat($0, group: nil) }
        }
        if case .object(let o) = data {
            let out = o.members.compactMap { m -> TeamStat? in
                guard let h = m.value["home"]?.text, let a = m.value["away"]?.text else { return nil }
                return TeamStat(name: m.key, home: h, away: a)
            }
            return out.isEmpty ? nil : out
        }
        return nil
    }

    static func stat(_ v: JSONValue, group: String?) -> TeamStat? {
        guard let name = first(v, ["name", "key", "type"])?.string, let h = first(v, ["home", "homeValue"])?.text,
              let a = first(v, ["away", "awayValue"])?.text else { return nil }
        return TeamStat(name: name, home: h, away: a, group: group)
    }

    // MARK: - Lineups

    public static func lineups(_ data: JSONValue) -> Lineups? {
        func side(_ v: JSONValue?) -> Lineup? {
            guard let v, v.isObject else { return nil }
            var l = Lineup(formation: first(v, ["formation"])?.text)
            for p in list(v, ["players", "lineup"]) ?? [] {
                guard let n = name(first(p, ["player"])) ?? name(first(p, ["name", "playerName"])) else { continue }
                let player = LineupPlayer(name: n, number: id(first(p, ["shirtNumber", "jerseyNumber", "number"]))
                                            ?? id(first(p, ["player"])?["jerseyNumber"]),
                                          position: first(p, ["position"])?.string ?? p["player"]?["position"]?.string)
                if first(p, ["substitute", "isSubstitute", "bench"])?.bool == true { l.substitutes.append(player) }
                else { l.starters.append(player) }
            }
            for p in list(v, ["substitutes", "bench"]) ?? [] {
                if let n = name(first(p, ["player"])) ?? name(first(p, ["name"])) {
                    l.substitutes.append(LineupPlayer(name: n, number: id(first(p, ["shirtNumber", "number"])),
                                                      position: first(p, ["position"])?.string))
                }
            }
            return l
        }
        let l = Lineups(home: side(first(data, ["home", "homeTeam"])), away: side(first(data, ["away", "awayTeam"])),
                        confirmed: data["confirmed"]?.bool)
        return l.home == nil && l.away == nil ? nil : l
    }

    // MARK: - Odds

    /// The book of odds that name none: SofaScore's own odds shape (`{"eventId", "markets": [...]}`,
    /// no provider grouping) is the feed's own book.
    public static let ownBook = "sportsapipro"

    /// The markets of an odds payload, each with its book: a list of providers (`providers`,
    /// `bookmakers`, `books`) each with markets, or markets (wrapped in `markets`/`odds` or bare)
    /// that name their provider or, naming none, are the feed's own book (`ownBook`). A price is
    /// kept as sent: fractional ("11/10", "29/18") when given, as it is exact, else decimal ("2.10").
    public static func odds(_ data: JSONValue, matchID: String, skipped: inout Int) -> [(book: String, markets: [Market])] {
        // Books in the order the payload lists them.
        var byBook: [(book: String, markets: [Market])] = []
        func add(_ markets: [JSONValue], book: String?) {
            for m in markets {
                let b = book ?? name(first(m, ["provider", "bookmaker", "book", "sportsbook"])) ?? ownBook
                guard let market = market(m, matchID: matchID, book: b) else { skipped += 1; continue }
                if let i = byBook.firstIndex(where: { $0.book == b }) { byBook[i].markets.append(market) } else { byBook.append((b, [market])) }
            }
        }
        if let books = list(data, ["providers", "bookmakers", "books", "sportsbooks"]), books.contains(where: { $0["markets"] != nil }) {
            for b in books {
                guard let bookName = name(first(b, ["provider", "bookmaker"])) ?? name(b) ?? first(b, ["id"])?.text else { skipped += 1; continue }
                add(b["markets"]?.array ?? [], book: bookName)
            }
        } else if let markets = list(data, ["markets", "odds"]) {
            add(markets, book: name(first(data, ["provider", "bookmaker"])))
        }
        return byBook
    }

    static func market(_ m: JSONValue, matchID: String, book: String) -> Market? {
        guard var marketName = first(m, ["marketName", "name", "market"])?.string else { return nil }
        // SofaScore says which part of the match a market prices in `marketPeriod` ("Full-time", "1st half"): a
        // part's market is named with it (unless its name says it), so that it reads apart from the match's.
        if let period = first(m, ["marketPeriod", "period"])?.string, !isWholeMatch(period),
           !TeamName.holds(TeamName.fold(marketName), words: TeamName.fold(period)) {
            marketName += " (\(period))"
        }
        let line = first(m, ["choiceGroup", "line", "handicap"])?.text
        let marketID = [matchID, id(first(m, ["marketId", "id"])) ?? marketName, line ?? ""].joined(separator: ":")
        let suspendedMarket = first(m, ["suspended", "isSuspended"])?.bool ?? false
        var selections: [Selection] = []
        for c in list(m, ["choices", "selections", "outcomes"]) ?? [] {
            guard let n = first(c, ["name", "label"])?.text else { continue }
            let price = self.price(c)
            selections.append(Selection(id: "\(marketID):\(n)", name: n, line: line, price: price,
                                        suspended: suspendedMarket || first(c, ["suspended", "isSuspended"])?.bool == true || price == nil))
        }
        guard !selections.isEmpty else { return nil }
        return Market(id: marketID, name: line.map { "\(marketName) \($0)" } ?? marketName, book: book, selections: selections)
    }

    /// Whether a market's period is the whole match: "Full-time", "Full time", "FT", "Match" (inferred: SofaScore's
    /// periods are "Full-time", "1st half", "2nd half").
    static func isWholeMatch(_ period: String) -> Bool {
        ["full time", "fulltime", "ft", "match", "full game", "full match", "whole match", ""].contains(TeamName.fold(period))
    }

    static func price(_ c: JSONValue) -> Price? {
        if let f = first(c, ["fractionalValue", "fractional"])?.string, let p = Price(fractional: f) { return p }
        if let d = first(c, ["decimalValue", "decimal", "odds", "value"])?.text, let p = Price(decimal: d) { return p }
        return nil
    }

    // MARK: - v1

    /// A v1 message.
    public enum V1Message: Equatable, Sendable {
        case connected(version: String?, channels: [String])
        case scores(channel: String, games: [JSONValue], updateID: Int?)
        case matchUpdate(channel: String, game: JSONValue, updateID: Int?)
        case subscribed(channel: String?)
        case pong
        case error(String)
    }

    public static func v1Message(_ v: JSONValue) throws -> V1Message {
        guard v.isObject else { throw MalformedMessage("not an object") }
        guard let type = v["type"]?.string else { throw MalformedMessage("no type") }
        let channel = v["channel"]?.string
        let updateID = int(v["updateId"], range: 0...Int.max)
        switch type {
        case "connected":
            return .connected(version: v["version"]?.text, channels: (v["channels"]?.array ?? []).compactMap(\.string))
        case "scores":
            guard let games = v["games"]?.array else { throw MalformedMessage("scores without games") }
            return .scores(channel: channel ?? "", games: games, updateID: updateID)
        case "match-update":
            guard let game = v["game"], game.isObject else { throw MalformedMessage("match-update without a game") }
            return .matchUpdate(channel: channel ?? "", game: game, updateID: updateID)
        case "subscribed", "unsubscribed":
            return .subscribed(channel: channel)
        case "pong":
            return .pong
        case "error":
            return .error(v["message"]?.text ?? v["error"]?.text ?? "an error without a message")
        default:
            throw MalformedMessage("unknown type '\(type)'")
        }
    }

    /// One v1 game as a scoreboard: `homeCompetitor`/`awayCompetitor` with `name` and `score`
    /// (documented; -1 means not started), `statusGroup`/`statusText`, `gameTime` and the competitors'
    /// `redCards` (inferred, as 365Scores sends them; a side without the member has none).
    public static func v1Scoreboard(_ g: JSONValue, channelSport: String?) -> Scoreboard? {
        guard let id = Self.id(first(g, ["id", "gameId"])), !id.isEmpty, id.count <= 64 else { return nil }
        var b = Scoreboard(eventID: id)
        b.home = name(g["homeCompetitor"])
        b.away = name(g["awayCompetitor"])
        b.league = first(g, ["competitionDisplayName", "competitionName"])?.string ?? name(g["competition"])
        if let sid = int(g["sportId"], range: 1...100), let slug = v1Sport(id: sid) { b.sport = SportsAPIProSports.slug(slug) }
        else if let s = channelSport { b.sport = SportsAPIProSports.slug(s) }
        let h = score(g["homeCompetitor"]?["score"]), a = score(g["awayCompetitor"]?["score"])
        if let h, let a, h >= 0, a >= 0 { b.score = Score(home: h, away: a) }
        let text = first(g, ["statusText", "shortStatusText"])?.string
        switch int(g["statusGroup"], range: 0...100) {
        case 1?, 2?: b.status = .scheduled
        case 3?: b.status = .live
        case 4?: b.status = .ended
        default: b.status = text.map(eventStatus)
        }
        if b.status == .scheduled, let h, h < 0 { b.score = nil }
        // Inferred: 365Scores' competitors carry `redCards`, often only on the side that has one.
        b.redCards = redCards(home: g["homeCompetitor"]?["redCards"], away: g["awayCompetitor"]?["redCards"])
        if let t = text?.lowercased(), t == "ht" || t.contains("half time") || t.contains("halftime") { b.status = .halftime }
        // Inferred: `statusText` is the period ("2nd Half", "Extra time") or, in live football, the minute ("67'"),
        // which is the clock: a period that moved every minute would be a new period every minute.
        let minuteText = text.flatMap(minuteOfPlay)
        b.period = minuteText == nil ? text : nil
        b.startTime = startTime(first(g, ["startTime", "startTimestamp", "startDate", "start_time"]))
        if b.status == .live {
            if let sport = b.sport, Event.countdownSports.contains(sport) {
                // Minutes played are no clock of a sport that counts down: its display ("5:12") is.
                b.clock = first(g, ["gameTimeDisplay"])?.string.flatMap { $0.contains(":") && $0.count <= 6 ? $0 : nil }
            } else if let shown = first(g, ["gameTimeDisplay"])?.string.flatMap(minuteOfPlay) ?? minuteText {
                // As shown: "45+2'" says more than the 47 of `gameTime`.
                b.clock = shown
            } else if let minute = int(g["gameTime"], range: 0...300) {
                b.clock = "\(minute)'"
            }
        }
        return b
    }

    /// A minute of play as 365Scores shows it ("67'", "45+2'", with a straight or curly apostrophe), written with a
    /// straight one; nil for anything else (a period's name, a kick-off time such as "20:00").
    static func minuteOfPlay(_ text: String) -> String? {
        var t = Substring(text.trimmingCharacters(in: .whitespaces))
        guard let last = t.last, last == "'" || last == "\u{2019}" else { return nil }
        t = t.dropLast()
        let parts = t.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.allSatisfy({ (1...3).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
        return parts.joined(separator: "+") + "'"
    }

    /// v1's sport ids, as its `connected` message lists them.
    /// v1's sports by id, from 1: a list, not a dictionary (whose type the runtime sets up at every start,
    /// when the provider list is made, by scanning every protocol conformance in the binary).
    static let v1Sports = ["football", "basketball", "tennis", "hockey", "handball", "american-football", "baseball", "volleyball", "rugby"]

    static func v1Sport(id: Int) -> String? { (1...v1Sports.count).contains(id) ? v1Sports[id - 1] : nil }
}
