import Foundation
import NIOHTTP1
import OddsJSON
import OddsModel

// SportsAPIPro in the simulator: v2's channel payloads (this file), v2's connection
// (SportsAPIProV2Connection.swift) and v1 (SportsAPIProV1Sim.swift), written from
// /work/shared/providers/sportsapipro-v2.txt and sportsapipro-v1.txt only.

/// What both SportsAPIPro APIs share in the simulator: stable ids, start times and the sport names.
enum SportsAPIPro {
    /// A stable hash of some numbers (the world's SplitMix64 generator, one step per value): ids, picks
    /// and skews, never the world's own random source, so the world evolves the same with or without it.
    static func hash(_ values: Int...) -> UInt64 {
        values.reduce(UInt64(0x5A0_2A91)) { acc, v in
            var r = SeededRandom(seed: acc ^ UInt64(bitPattern: Int64(v)))
            return r.next()
        }
    }

    /// A stable hash of a name (Swift's `hashValue` changes from run to run).
    static func hash(_ text: String) -> UInt64 { text.utf8.reduce(UInt64(0xC0FFEE)) { hash(Int(truncatingIfNeeded: $0), Int($1)) } }

    static func pick(_ count: Int, _ values: Int...) -> Int {
        Int(values.reduce(UInt64(count)) { hash(Int(truncatingIfNeeded: $0), $1) } % UInt64(max(count, 1)))
    }

    /// World sport → the providers' slug (the world says "soccer"; both APIs say "football").
    static func sport(_ worldSport: String) -> String { worldSport == "soccer" ? "football" : worldSport }

    /// A team's numeric id, stable across runs.
    static func teamID(_ name: String) -> Int { 2_000 + Int(hash(name) % 90_000) }

    /// The match's kick-off as SofaScore lists it: the scheduled time, on the five minutes, where the world's
    /// kick-off (which BoltOdds' books give to the second) may be a few minutes later, as real kick-offs are.
    /// Inferred: the docs give no start times; SofaScore sends `startTimestamp` in Unix seconds.
    static func startTimestamp(_ m: SimMatch) -> Int {
        let kickOff = Int(SimClock.epoch.timeIntervalSince1970) + m.kickOffOffset
        return kickOff - ((kickOff % 300) + 300) % 300
    }

    static func milliseconds(_ date: Date = Date()) -> Int { Int((date.timeIntervalSince1970 * 1000).rounded(.down)) }

    static func slug(_ name: String) -> String {
        name.folding(options: .diacriticInsensitive, locale: nil).lowercased()
            .split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "-")
    }

    /// Inferred shape for both APIs (neither doc shows an error message): `{"type":"error","message":…}`, with the
    /// channel when the error is about one.
    static func error(_ message: String, channel: String? = nil) -> String {
        var fields: [(String, JSONOutput)] = [("type", .string("error")), ("message", .string(message))]
        if let channel { fields.append(("channel", .string(channel))) }
        return JSONOutput.object(fields).rendered
    }

    /// Whether a world match is a SportsAPIPro game: two sides (races have no away side).
    /// A game (not a race) that SportsAPIPro carries (v2 and v1 have the same coverage).
    static func isGame(_ m: SimMatch) -> Bool { m.away != nil && SimWorld.carries(m, .sportsapi) }
}

/// The opening facts of a match that was already under way when the world was made: its minute, half and
/// score then. The world has no incidents for those goals; the simulator derives them (see `story`).
struct SportsAPIProOpening {
    var minute: Int
    var secondHalf: Bool
    var home: Int
    var away: Int
}

/// SportsAPIPro's loop-confined state in the simulator.
struct SportsAPIProState {
    /// What v2's `welcome` says, and whether NATS-pushed updates flow (false: safety-net polls only).
    var natsConnected: Bool
    var openings: [Int: SportsAPIProOpening] = [:]
    /// Soccer: how many world incidents came before half time, once it came (0 for matches opened in the
    /// second half). The world's minutes do not tell a first-half stoppage from the second half's start.
    var halfTimeAt: [Int: Int] = [:]
    /// v1: set by the first v1 upgrade, so the other providers' load tests pay nothing for v1's diffing.
    var v1Active = false
    /// v1: the last `updateId` handed out. Inferred: one counter for the whole server, starting at the
    /// docs' example value, one step per message, so every message carries a larger id than the last.
    var v1UpdateID = 5_612_062_219
    /// v1: each live game as last rendered, to tell which games a tick changed.
    var v1Rendered: [Int: String] = [:]
    /// v1: the live games the last tick changed, in world order.
    var v1Changed: [Int] = []

    init(world: SimWorld, natsConnected: Bool) {
        self.natsConnected = natsConnected
        for m in world.live where m.sport == "soccer" {
            let second = m.period == "2nd Half"
            openings[m.serial] = SportsAPIProOpening(minute: m.minute, secondHalf: second, home: m.scoreHome, away: m.scoreAway)
            if second { halfTimeAt[m.serial] = 0 }
        }
    }

    /// Notes half times (before the connections hear of this tick's changes).
    mutating func record(_ changes: [SimChange], world: SimWorld) {
        for case .period(let s, let from, let to) in changes where from == "1st Half" && to == "Half Time" {
            halfTimeAt[s] = world.match(s)?.incidents.count ?? 0
        }
        for case .removed(let s) in changes {
            halfTimeAt[s] = nil
            openings[s] = nil
        }
    }

    mutating func nextUpdateID() -> Int {
        v1UpdateID += 1
        return v1UpdateID
    }
}

/// One player of a simulated squad.
struct SportsAPIProPlayer {
    var id: Int
    var name: String
    var position: String
    var shirt: Int

    var json: JSONOutput {
        .object([("id", .int(id)), ("name", .string(name)),
                 ("shortName", .string(SportsAPIProV2.shortName(name))), ("position", .string(position))])
    }
}

/// A team's squad: 11 starters in a formation (goalkeeper first) and 7 substitutes.
struct SportsAPIProSquad {
    var formation: String
    var starters: [SportsAPIProPlayer]
    var subs: [SportsAPIProPlayer]
}

/// One incident of a match, as v2's `:incidents` channel sends it.
struct SportsAPIProIncident {
    var id: Int
    var type: String
    var json: JSONOutput
}

/// A soccer match's incidents, oldest first, and the score at half time (once it came).
struct SportsAPIProStory {
    var incidents: [SportsAPIProIncident] = []
    var halfTime: (home: Int, away: Int)?
}

/// SportsAPIPro v2's payloads for the simulated world.
///
/// The docs give the envelopes (`welcome`, `subscribed`, `snapshot`, `update`, `pong`) and leave every `data`
/// payload as `{ ... }`. Inferred: the payloads follow SofaScore's public API, which v2's payloads resemble (the
/// docs' `incidentClass: "yellow"|"red"` is SofaScore's incident format): `{"events":[…]}` for live scores,
/// `{"event":{…}}` for a match, `{"incidents":[…]}`, `{"statistics":[…]}`, lineups `{"confirmed","home","away"}`,
/// and odds markets with `choices` carrying `fractionalValue`/`initialFractionalValue`/`change`.
enum SportsAPIProV2 {
    /// The WebSocket path (documented: `wss://v2.football.sportsapipro.com/ws`).
    static let path = "/ws"

    /// The documented `x-sport` values.
    static let sports = ["football", "basketball", "ice-hockey", "tennis", "rugby", "handball", "volleyball", "baseball",
                         "american-football", "cricket", "futsal", "mma", "motorsport", "darts", "snooker", "badminton",
                         "table-tennis", "beach-volley", "cycling", "esports", "bandy", "aussie-rules", "floorball",
                         "minifootball", "waterpolo"]
    static let defaultSport = "football"

    /// Exactly the docs' text.
    static let welcomeMessage = "SportsAPIData WebSocket v3.1 — All Channels Sub-Second"

    /// The channel names `welcome` lists. Inferred: the docs show `["live-scores", "match:{matchId}", "..."]`;
    /// the simulator spells out every documented channel.
    static let channelNames = ["live-scores", "live-scores:{sport}", "match:{matchId}", "match:{matchId}:incidents",
                               "match:{matchId}:stats", "match:{matchId}:odds", "match:{matchId}:lineups"]

    /// Match ids: numeric like the docs' 14109842. Inferred numbering: 14,100,000 + the world's serial.
    static func matchID(_ serial: Int) -> Int { 14_100_000 + serial }

    static func serial(ofMatchID id: Int) -> Int? { id > 14_100_000 ? id - 14_100_000 : nil }

    // MARK: - Channels

    /// What a channel carries.
    enum Part: String { case score = "", incidents, stats, odds, lineups }

    /// A parsed channel name.
    enum Channel: Equatable {
        /// nil: the connection's `x-sport`.
        case liveScores(String?)
        case match(serial: Int, Part)

        /// Nil for a name the docs do not list (or a sport they do not list, or a match id that is not a number).
        init?(_ name: String) {
            let parts = name.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            if parts[0] == "live-scores" {
                if parts.count == 1 { self = .liveScores(nil); return }
                guard parts.count == 2, SportsAPIProV2.sports.contains(parts[1]) else { return nil }
                self = .liveScores(parts[1])
                return
            }
            guard parts[0] == "match", parts.count == 2 || parts.count == 3, let id = Int(parts[1]),
                  let serial = SportsAPIProV2.serial(ofMatchID: id) else { return nil }
            guard let part = parts.count == 3 ? Part(rawValue: parts[2]) : .score, parts.count == 2 || part != .score else {
                return nil
            }
            self = .match(serial: serial, part)
        }
    }

    /// `subscribed`'s `mode` per channel. Documented only for `:incidents`; inferred for the others from the
    /// docs' Delivery column.
    static func mode(_ channel: Channel, options: Simulator.Options) -> String {
        switch channel {
        case .liveScores, .match(_, .score): return "realtime (NATS push)"
        case .match(_, .incidents):
            return "realtime (NATS-triggered fetch, \(Int(options.sportsAPIIncidentsPollInterval * 1000))ms safety-net poll)"
        case .match(_, .stats):
            return "realtime (NATS-triggered fetch, \(Int(options.sportsAPIStatsPollInterval * 1000))ms safety-net poll)"
        case .match(_, .odds): return "realtime (NATS-triggered fetch)"
        case .match(_, .lineups): return "polling (\(Int(options.sportsAPILineupsPollInterval * 1000))ms interval)"
        }
    }

    // MARK: - Envelopes

    static func welcome(sport: String, nats: Bool) -> String {
        JSONOutput.object([("type", .string("welcome")), ("message", .string(welcomeMessage)), ("sport", .string(sport)),
                           ("natsConnected", .bool(nats)), ("channels", .array(channelNames.map { .string($0) }))]).rendered
    }

    static func subscribed(_ channel: String, mode: String) -> String {
        JSONOutput.object([("type", .string("subscribed")), ("channel", .string(channel)), ("mode", .string(mode))]).rendered
    }

    /// Inferred: the docs do not say whether an unsubscribe is confirmed; the simulator confirms it.
    static func unsubscribed(_ channel: String) -> String {
        JSONOutput.object([("type", .string("unsubscribed")), ("channel", .string(channel))]).rendered
    }

    static func snapshot(_ channel: String, _ data: JSONOutput, at ms: Int = SportsAPIPro.milliseconds()) -> String {
        JSONOutput.object([("channel", .string(channel)), ("type", .string("snapshot")), ("data", data), ("timestamp", .int(ms))]).rendered
    }

    /// `source` is "nats" for pushed updates and "poll" for safety-net polls (inferred value; the docs show "nats").
    static func update(_ channel: String, _ data: JSONOutput, source: String, at ms: Int = SportsAPIPro.milliseconds()) -> String {
        JSONOutput.object([("channel", .string(channel)), ("type", .string("update")), ("data", data),
                           ("source", .string(source)), ("timestamp", .int(ms))]).rendered
    }

    /// The docs' pong; without a channel in the ping, none in the pong.
    static func pong(_ channel: String?, at ms: Int = SportsAPIPro.milliseconds()) -> String {
        var fields: [(String, JSONOutput)] = [("type", .string("pong"))]
        if let channel { fields.append(("channel", .string(channel))) }
        fields.append(("timestamp", .int(ms)))
        return JSONOutput.object(fields).rendered
    }

    static func error(_ message: String, channel: String? = nil) -> String { SportsAPIPro.error(message, channel: channel) }

    // MARK: - Events (live-scores and match:{id})

    /// Inferred, SofaScore's status codes: 0 not started, 6/7 halves, 31 half time, 13–16 quarters,
    /// 8–10 sets, 100 ended; `type` notstarted / inprogress / finished.
    static func status(_ m: SimMatch) -> (code: Int, description: String, type: String) {
        switch m.phase {
        case .notStarted: return (0, "Not started", "notstarted")
        case .ended: return (100, "Ended", "finished")
        case .halfTime: return (31, "Halftime", "inprogress")
        case .live: break
        }
        let ordinals = ["1st", "2nd", "3rd", "4th", "5th"]
        switch m.sport {
        case "soccer": return m.period == "2nd Half" ? (7, "2nd half", "inprogress") : (6, "1st half", "inprogress")
        case "basketball":
            let q = min(4, m.elapsed / 720 + 1)
            return (12 + q, "\(ordinals[q - 1]) quarter", "inprogress")
        default:
            let set = min(5, max(1, Int(m.period.split(separator: " ").last ?? "1") ?? 1))
            return (7 + set, "\(ordinals[set - 1]) set", "inprogress")
        }
    }

    static func team(_ name: String) -> JSONOutput {
        .object([("id", .int(SportsAPIPro.teamID(name))), ("name", .string(name)), ("shortName", .string(name)),
                 ("slug", .string(SportsAPIPro.slug(name)))])
    }

    /// SofaScore's event: teams, `homeScore`/`awayScore` {current, display, period1, period2}, `status`, and
    /// `time` {initial, max, extra, currentPeriodStartTimestamp} from which a client computes the clock (the
    /// period's start is set so that the clock reads the world's minute now).
    static func event(_ m: SimMatch, state: SportsAPIProState, now: Date = Date()) -> JSONOutput {
        let sport = SportsAPIPro.sport(m.sport)
        let away = SportsAPIPro.team(m.away ?? "")
        var homeScore: [(String, JSONOutput)] = []
        var awayScore: [(String, JSONOutput)] = []
        if m.phase != .notStarted {
            homeScore = [("current", .int(m.scoreHome)), ("display", .int(m.scoreHome))]
            awayScore = [("current", .int(m.scoreAway)), ("display", .int(m.scoreAway))]
            if m.sport == "soccer" {
                let ht = story(m, state: state).halfTime
                homeScore.append(("period1", .int(ht?.home ?? m.scoreHome)))
                awayScore.append(("period1", .int(ht?.away ?? m.scoreAway)))
                if m.period == "2nd Half" || m.phase == .ended, let ht {
                    homeScore.append(("period2", .int(m.scoreHome - ht.home)))
                    awayScore.append(("period2", .int(m.scoreAway - ht.away)))
                }
            }
        }
        let s = status(m)
        var fields: [(String, JSONOutput)] = [
            ("id", .int(matchID(m.serial))),
            ("tournament", .object([("name", .string(m.league)), ("slug", .string(SportsAPIPro.slug(m.league))),
                                    ("category", .object([("sport", .object([("name", .string(sportName(sport))),
                                                                              ("slug", .string(sport))]))]))])),
            ("homeTeam", team(SportsAPIPro.team(m.home))),
            ("awayTeam", team(away)),
            ("homeScore", .object(homeScore)),
            ("awayScore", .object(awayScore)),
            ("status", .object([("code", .int(s.code)), ("description", .string(s.description)), ("type", .string(s.type))])),
        ]
        if m.phase == .live || m.phase == .halfTime, let (initial, max, extra) = periodTime(m) {
            let nowSeconds = Int(now.timeIntervalSince1970)
            let played = m.phase == .halfTime ? 0 : m.elapsed - initial
            fields.append(("time", .object([("initial", .int(initial)), ("max", .int(max)), ("extra", .int(extra)),
                                            ("currentPeriodStartTimestamp", .int(nowSeconds - played))])))
        }
        fields.append(("startTimestamp", .int(SportsAPIPro.startTimestamp(m))))
        return .object(fields)
    }

    /// The current period's first second, last regular second and allowed extra seconds; nil for tennis.
    static func periodTime(_ m: SimMatch) -> (Int, Int, Int)? {
        switch m.sport {
        case "soccer": return m.period == "2nd Half" ? (2_700, 5_400, 540) : (0, 2_700, 540)
        case "basketball":
            let q = min(4, m.elapsed / 720 + 1)
            return ((q - 1) * 720, q * 720, 0)
        default: return nil
        }
    }

    static func sportName(_ slug: String) -> String {
        slug.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }

    /// `live-scores` data: the live events of one sport (ended ones until the world drops them).
    static func liveScores(_ matches: [SimMatch], state: SportsAPIProState) -> JSONOutput {
        .object([("events", .array(matches.map { event($0, state: state) }))])
    }

    // MARK: - Squads and lineups

    static let formations: [(name: String, lines: [(String, Int)])] = [
        ("4-3-3", [("D", 4), ("M", 3), ("F", 3)]), ("4-4-2", [("D", 4), ("M", 4), ("F", 2)]),
        ("4-2-3-1", [("D", 4), ("M", 5), ("F", 1)]), ("3-5-2", [("D", 3), ("M", 5), ("F", 2)]),
        ("3-4-3", [("D", 3), ("M", 4), ("F", 3)]),
    ]

    /// "Mo Salah" → "M. Salah", as SofaScore's shortName.
    static func shortName(_ name: String) -> String {
        let parts = name.split(separator: " ")
        guard parts.count > 1, let first = parts.first?.first else { return name }
        return "\(first). " + parts.dropFirst().joined(separator: " ")
    }

    /// A team's squad, the same in every run: names from the world's name lists, picked by the team's name.
    static func squad(_ team: String) -> SportsAPIProSquad {
        let seed = Int(truncatingIfNeeded: SportsAPIPro.hash(team))
        let formation = formations[SportsAPIPro.pick(formations.count, seed)]
        var positions = ["G"]
        for (position, count) in formation.lines { positions += Array(repeating: position, count: count) }
        positions += ["G", "D", "D", "M", "M", "F", "F"]
        var names: [String] = []
        var attempt = 0
        while names.count < positions.count {
            let first = Teams.firstNames[SportsAPIPro.pick(Teams.firstNames.count, seed, attempt, 1)]
            let last = Teams.lastNames[SportsAPIPro.pick(Teams.lastNames.count, seed, attempt, 2)]
            attempt += 1
            if !names.contains("\(first) \(last)") { names.append("\(first) \(last)") }
        }
        let players = positions.indices.map { i in
            SportsAPIProPlayer(id: 800_000 + Int(SportsAPIPro.hash(seed, i) % 900_000), name: names[i], position: positions[i],
                               shirt: i + 1)
        }
        return SportsAPIProSquad(formation: formation.name, starters: Array(players[0..<11]), subs: Array(players[11...]))
    }

    /// `:lineups` data for a soccer match (nil for other sports: no data, so no snapshot).
    static func lineups(_ m: SimMatch) -> JSONOutput? {
        guard m.sport == "soccer", let away = m.away.map(SportsAPIPro.team) else { return nil }
        func side(_ team: String) -> JSONOutput {
            let squad = squad(team)
            let players = squad.starters.map { ($0, false) } + squad.subs.map { ($0, true) }
            return .object([
                ("players", .array(players.map { p, substitute in
                    .object([("player", p.json), ("shirtNumber", .int(p.shirt)), ("jerseyNumber", .string(String(p.shirt))),
                             ("position", .string(p.position)), ("substitute", .bool(substitute))])
                })),
                ("formation", .string(squad.formation)),
            ])
        }
        return .object([("confirmed", .bool(m.phase != .notStarted)), ("home", side(SportsAPIPro.team(m.home))), ("away", side(away))])
    }

    // MARK: - Incidents

    static let cardReasons = ["Foul", "Unsportsmanlike conduct", "Time wasting", "Argument", "Handball"]
    static let varDecisions = ["goalNotAwarded", "penaltyNotAwarded", "penaltyAwarded"]
    static let penaltyMisses = [("Goalkeeper save", "goalkeeperSave"), ("Off target", "offTarget"), ("Hit woodwork", "woodwork")]

    /// A soccer match's incidents, oldest first: the goals of the opening score (the world made the match
    /// under way and has no incidents for them), the world's incidents, injury-time announcements and the
    /// HT/FT period markers. Players come from the squads, so scorers appear in the lineups.
    /// Inferred: SofaScore's incident fields (incidentType, incidentClass, time, addedTime, isHome, player,
    /// assist1, playerIn/playerOut, reason, homeScore/awayScore, text, length).
    static func story(_ m: SimMatch, state: SportsAPIProState) -> SportsAPIProStory {
        guard m.sport == "soccer", m.phase != .notStarted, let away = m.away.map(SportsAPIPro.team) else { return SportsAPIProStory() }
        let serial = m.serial
        let squads = ["home": squad(SportsAPIPro.team(m.home)), "away": squad(away)]
        // (half, minute, world incident or nil for an opening goal, side, ordinal)
        var raw: [(half: Int, minute: Int, incident: SimIncident?, side: String, key: Int)] = []
        if let o = state.openings[serial] {
            var goals: [(Int, String, Int)] = []
            for (side, count) in [("home", o.home), ("away", o.away)] {
                for k in 0..<count { goals.append((1 + SportsAPIPro.pick(max(1, o.minute - 1), serial, k, side == "home" ? 1 : 2), side, k)) }
            }
            for (minute, side, k) in goals.sorted(by: { ($0.0, $0.1) < ($1.0, $1.1) }) {
                raw.append((minute <= 45 ? 1 : 2, minute, nil, side, 500 + (side == "home" ? 0 : 50) + k))
            }
        }
        let halfTimeAt = state.halfTimeAt[serial]
        for (i, incident) in m.incidents.enumerated() {
            raw.append((halfTimeAt.map { i >= $0 } == true ? 2 : 1, incident.minute, incident, incident.team, i))
        }
        let pastFirst = ["Half Time", "2nd Half", "Ended"].contains(m.period)
        let injury1 = pastFirst || m.elapsed >= 2_700
        let injury2 = m.period == "Ended" || (m.period == "2nd Half" && m.elapsed >= 5_400)
        var out = SportsAPIProStory()
        var score = (home: 0, away: 0)
        var ordinals: [String: Int] = [:]
        let base = 100_000_000 + serial * 1_000
        func next(_ kind: String, _ side: String) -> Int {
            defer { ordinals[kind + side, default: 0] += 1 }
            return ordinals[kind + side, default: 0]
        }
        func marker(_ key: Int, _ type: String, _ fields: [(String, JSONOutput)]) {
            out.incidents.append(SportsAPIProIncident(id: base + 900 + key, type: type,
                                                      json: .object([("id", .int(base + 900 + key)), ("incidentType", .string(type))] + fields)))
        }
        func injury(_ key: Int, time: Int, length: Int) {
            marker(key, "injuryTime", [("time", .int(time)), ("addedTime", .int(0)), ("length", .int(length))])
        }
        func period(_ key: Int, _ text: String, time: Int) {
            // SofaScore marks a period's end with addedTime 999 (so it sorts after the period's last minute).
            marker(key, "period", [("text", .string(text)), ("homeScore", .int(score.home)), ("awayScore", .int(score.away)),
                                   ("isLive", .bool(false)), ("time", .int(time)), ("addedTime", .int(999))])
        }
        var injuryShown = [false, false]
        for half in [1, 2] {
            if half == 2 {
                guard pastFirst else { break }
                if !injuryShown[0] { injury(1, time: 45, length: 1); injuryShown[0] = true }
                period(2, "HT", time: 45)
                out.halfTime = score
            }
            let regular = half == 1 ? 45 : 90
            for r in raw where r.half == half {
                // The world ends the first half at 46:00 and the second at 93:00: that is the added time announced.
                if r.minute > regular, !injuryShown[half - 1], half == 1 ? injury1 : injury2 {
                    injury(half == 1 ? 1 : 3, time: regular, length: half == 1 ? 1 : 3)
                    injuryShown[half - 1] = true
                }
                let side = r.side
                let squad = squads[side] ?? squads["home"]!
                var fields: [(String, JSONOutput)] = []
                let id = base + r.key
                let label = r.incident?.label ?? "Goal"
                let type: String
                let players = Array(squad.starters.dropFirst())
                switch label {
                case "Goal":
                    type = "goal"
                    if side == "home" { score.home += 1 } else { score.away += 1 }
                    let n = next("goal", side)
                    let scorer = players[SportsAPIPro.pick(players.count, serial, n, side == "home" ? 3 : 4)]
                    fields = [("incidentClass", .string("regular")), ("player", scorer.json)]
                    // Inferred: seven goals in ten have an assist.
                    if SportsAPIPro.pick(10, serial, n, side == "home" ? 5 : 6) < 7 {
                        let others = players.filter { $0.id != scorer.id }
                        fields.append(("assist1", others[SportsAPIPro.pick(others.count, serial, n, 7)].json))
                    }
                    fields += [("homeScore", .int(score.home)), ("awayScore", .int(score.away))]
                case "Yellow Card", "Red Card":
                    type = "card"
                    let n = next("card", side)
                    // Inferred: one red card in four is taken back (`rescinded`, which every SofaScore card carries).
                    let rescinded = label == "Red Card" && SportsAPIPro.pick(4, serial, n, 12) == 0
                    fields = [("rescinded", .bool(rescinded)), ("incidentClass", .string(label == "Red Card" ? "red" : "yellow")),
                              ("player", players[SportsAPIPro.pick(players.count, serial, n, side == "home" ? 8 : 9)].json),
                              ("reason", .string(cardReasons[SportsAPIPro.pick(cardReasons.count, serial, n, 10)]))]
                case "Substitution":
                    type = "substitution"
                    let n = next("sub", side)
                    fields = [("incidentClass", .string("regular")),
                              ("playerIn", squad.subs[1 + n % (squad.subs.count - 1)].json),
                              ("playerOut", squad.starters[10 - n % 10].json)]
                default:
                    type = "varDecision"
                    // In turn per match, so that every kind of decision is seen.
                    let decision = varDecisions[(next("var", "") + serial) % varDecisions.count]
                    fields = [("player", players[SportsAPIPro.pick(players.count, serial, r.key, 13)].json),
                              ("confirmed", .bool(true)), ("incidentClass", .string(decision))]
                }
                let time = min(r.minute, regular)
                var json: [(String, JSONOutput)] = [("id", .int(id)), ("incidentType", .string(type)), ("time", .int(time))]
                if r.minute > regular { json.append(("addedTime", .int(r.minute - regular))) }
                json.append(("isHome", .bool(side == "home")))
                out.incidents.append(SportsAPIProIncident(id: id, type: type, json: .object(json + fields)))
                if type == "varDecision", case .string("penaltyAwarded")? = fields.last?.1 {
                    // The penalty awarded is taken and missed (a scored one would be a goal the world does not have),
                    // as SofaScore's inGamePenalty: no score of its own.
                    let (description, reason) = penaltyMisses[SportsAPIPro.pick(penaltyMisses.count, serial, r.key, 14)]
                    var taken = json
                    taken[0] = ("id", .int(base + 700 + r.key))
                    taken[1] = ("incidentType", .string("inGamePenalty"))
                    out.incidents.append(SportsAPIProIncident(id: base + 700 + r.key, type: "inGamePenalty", json: .object(taken + [
                        ("player", players[SportsAPIPro.pick(players.count, serial, r.key, 15)].json), ("description", .string(description)),
                        ("incidentClass", .string("missed")), ("reason", .string(reason))])))
                }
            }
            if half == 1, injury1, !injuryShown[0] { injury(1, time: 45, length: 1); injuryShown[0] = true }
            if half == 2, injury2, !injuryShown[1] { injury(3, time: 90, length: 3); injuryShown[1] = true }
        }
        if m.period == "Ended" { period(4, "FT", time: 90) }
        return out
    }

    /// `:incidents` data: newest first, as SofaScore lists them; nil when the match has none (no snapshot).
    static func incidents(_ m: SimMatch, state: SportsAPIProState) -> JSONOutput? {
        let story = story(m, state: state)
        guard !story.incidents.isEmpty else { return nil }
        return .object([("incidents", .array(story.incidents.reversed().map(\.json)))])
    }

    // MARK: - Statistics

    /// `:stats` data for a soccer match under way (nil otherwise). Derived from the match's minute, the
    /// teams' strengths and its incidents: counts only grow, possession drifts. Inferred: SofaScore's
    /// `{"statistics":[{"period":"ALL","groups":[{"groupName","statisticsItems":[{name, home, away,
    /// homeValue, awayValue, key}]}]}]}`.
    static func stats(_ m: SimMatch) -> JSONOutput? {
        guard m.sport == "soccer", m.phase != .notStarted else { return nil }
        let minute = min(m.minute, 95)
        let s = m.serial
        let edge = m.strengthHome - m.strengthAway
        let wobble = SportsAPIPro.pick(7, s, minute / 5) - 3
        let possession = min(70, max(30, 50 + Int((edge * 15).rounded()) + wobble))
        func grows(_ perMatch: Double) -> Int { Int(Double(minute) * perMatch / 90) }
        func side(_ home: Bool) -> (shots: Int, onTarget: Int, corners: Int, fouls: Int, passes: Int, accurate: Int, yellow: Int) {
            let strength = home ? m.strengthHome : m.strengthAway
            let goals = home ? m.scoreHome : m.scoreAway
            let k = home ? 1 : 2
            let onTarget = goals + grows(2 + strength * 2 + Double(SportsAPIPro.pick(3, s, k, 1)))
            let shots = onTarget + grows(4 + strength * 3 + Double(SportsAPIPro.pick(4, s, k, 2)))
            let share = Double(home ? possession : 100 - possession) / 50
            let passes = grows((380 + Double(SportsAPIPro.pick(80, s, k, 3))) * share)
            let team = home ? "home" : "away"
            let yellow = m.incidents.filter { $0.team == team && $0.label == "Yellow Card" }.count
            return (shots, onTarget, grows(3 + strength * 3 + Double(SportsAPIPro.pick(3, s, k, 4))),
                    grows(9 + Double(SportsAPIPro.pick(6, s, k, 5))), passes, passes * (78 + SportsAPIPro.pick(12, s, k, 6)) / 100, yellow)
        }
        let h = side(true), a = side(false)
        func item(_ name: String, _ key: String, _ home: Int, _ away: Int, percent: Bool = false) -> JSONOutput {
            .object([("name", .string(name)), ("home", .string(percent ? "\(home)%" : String(home))),
                     ("away", .string(percent ? "\(away)%" : String(away))),
                     ("compareCode", .int(home > away ? 1 : home < away ? 2 : 3)),
                     ("homeValue", .int(home)), ("awayValue", .int(away)), ("key", .string(key))])
        }
        func group(_ name: String, _ items: [JSONOutput]) -> JSONOutput {
            .object([("groupName", .string(name)), ("statisticsItems", .array(items))])
        }
        return .object([("statistics", .array([.object([("period", .string("ALL")), ("groups", .array([
            group("Match overview", [
                item("Ball possession", "ballPossession", possession, 100 - possession, percent: true),
                item("Total shots", "totalShotsOnGoal", h.shots, a.shots),
                item("Corner kicks", "cornerKicks", h.corners, a.corners),
                item("Fouls", "fouls", h.fouls, a.fouls),
                item("Passes", "passes", h.passes, a.passes),
                item("Yellow cards", "yellowCards", h.yellow, a.yellow),
            ]),
            group("Shots", [
                item("Total shots", "totalShotsOnGoal", h.shots, a.shots),
                item("Shots on target", "shotsOnGoal", h.onTarget, a.onTarget),
                item("Shots off target", "shotsOffGoal", h.shots - h.onTarget, a.shots - a.onTarget),
            ]),
            group("Passes", [
                item("Passes", "passes", h.passes, a.passes),
                item("Accurate passes", "accuratePasses", h.accurate, a.accurate),
            ]),
        ]))])]))])
    }

    // MARK: - Odds

    /// The books ("live odds from all providers"). Inferred: three well-known UK books, with SofaScore-style ids.
    static let books: [(id: Int, name: String)] = [(1, "bet365"), (2, "William Hill"), (3, "Unibet")]

    /// (decimal − 1) as a reduced fraction of hundredths: 210 → "11/10", 191 → "91/100", 250 → "3/2".
    static func fractional(_ hundredths: Int) -> String {
        var (a, b) = (max(1, hundredths - 100), 100)
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        a /= x; b /= x
        return "\(a)/\(b)"
    }

    /// A book's price: the world's with the book's own stable skew (within ±4 %), in hundredths (1.01…101).
    static func quote(_ hundredths: Int, serial: Int, book: Int, market: Int, choice: Int) -> Int {
        let skew = Double(SportsAPIPro.pick(81, serial, book, market, choice)) / 1000 - 0.04
        return min(10_100, max(101, Int((100 + Double(hundredths - 100) * (1 + skew)).rounded())))
    }

    /// SofaScore's market names and choice names for the world's markets.
    static func marketName(_ market: SimMarket, sport: String) -> (id: Int, name: String, choices: [String], group: String?) {
        switch market.industryKey {
        case "h2h_3_way": return (1, "Full time", ["1", "X", "2"], nil)
        case "totals":
            let line = market.selections.first?.handicap
            return sport == "soccer" ? (9, "Match goals", ["Over", "Under"], line) : (11, "Game total", ["Over", "Under"], line)
        case "btts": return (5, "Both teams to score", ["Yes", "No"], nil)
        // Inferred: SofaScore's point spread, its choice group the home side's line.
        case "spreads": return (12, "Point spread", ["1", "2"], market.selections.first?.handicap)
        default: return sport == "basketball" ? (3, "Home/Away", ["1", "2"], nil) : (1, "Full time", ["1", "2"], nil)
        }
    }

    /// `:odds` data: every book's markets, each choice with its fractional and decimal price now and at the
    /// start (the world's pricing of the match at 0-0, minute 0), and `change` (1 longer, -1 shorter, 0 same).
    /// Nil when the match has no markets. Inferred: `{"providers":[{"id","name","markets":[…]}]}` around
    /// SofaScore's markets, with `decimalValue`/`initialDecimalValue` beside the fractions.
    ///
    /// Every third match (by serial) sends SofaScore's own odds shape instead (inferred, as the public
    /// service sends it): `{"eventId", "markets": [...]}` with no provider grouping and no decimal
    /// prices, only `fractionalValue`/`initialFractionalValue`, `change`, `suspended` and `sourceId`.
    static func odds(_ m: SimMatch) -> JSONOutput? {
        guard !m.markets.isEmpty else { return nil }
        if m.serial % 3 == 0 { return sofaScoreOdds(m) }
        var opening = m
        opening.elapsed = 0
        opening.scoreHome = 0
        opening.scoreAway = 0
        opening.gamesHome = 0
        opening.gamesAway = 0
        opening.setNumber = 1
        opening.period = m.sport == "basketball" ? "1st Quarter" : m.sport == "tennis" ? "Set 1" : "1st Half"
        if m.phase != .notStarted { SimWorld.price(&opening) }
        return .object([("providers", .array(books.enumerated().map { b, book in
            .object([("id", .int(book.id)), ("name", .string(book.name)), ("markets", .array(m.markets.enumerated().map { mi, market in
                let names = marketName(market, sport: m.sport)
                let suspended = m.suspended || market.selections.contains(where: \.suspended)
                let start = mi < opening.markets.count ? opening.markets[mi].selections : market.selections
                var fields: [(String, JSONOutput)] = [
                    ("id", .int(300_000_000 + m.serial * 100 + b * 10 + mi)), ("marketId", .int(names.id)),
                    ("marketName", .string(names.name)), ("isLive", .bool(m.phase != .notStarted)),
                    ("suspended", .bool(suspended)), ("choiceGroup", .optionalString(names.group)),
                ]
                fields.append(("choices", .array(market.selections.enumerated().map { si, s in
                    let now = quote(s.price, serial: m.serial, book: b, market: mi, choice: si)
                    let initial = quote(si < start.count ? start[si].price : s.price, serial: m.serial, book: b, market: mi, choice: si)
                    return .object([
                        ("name", .string(si < names.choices.count ? names.choices[si] : s.name)),
                        ("fractionalValue", .string(fractional(now))), ("decimalValue", .string(priceText(now))),
                        ("initialFractionalValue", .string(fractional(initial))), ("initialDecimalValue", .string(priceText(initial))),
                        ("change", .int(now > initial ? 1 : now < initial ? -1 : 0)),
                    ])
                })))
                return .object(fields)
            }))])
        }))])
    }

    /// SofaScore's own `:odds` shape: one book (the feed's own), fractions only, each market with its
    /// `marketPeriod` ("Full-time") as SofaScore sends it.
    static func sofaScoreOdds(_ m: SimMatch) -> JSONOutput {
        .object([("eventId", .int(matchID(m.serial))), ("markets", .array(m.markets.enumerated().map { mi, market in
            let names = marketName(market, sport: m.sport)
            let suspended = m.suspended || market.selections.contains(where: \.suspended)
            return .object([
                ("marketId", .int(names.id)), ("marketName", .string(names.name)), ("choiceGroup", .optionalString(names.group)),
                ("marketPeriod", .string("Full-time")),
                ("isLive", .bool(m.phase != .notStarted)), ("suspended", .bool(suspended)),
                ("choices", .array(market.selections.enumerated().map { si, s in
                    let now = quote(s.price, serial: m.serial, book: 0, market: mi, choice: si)
                    return .object([
                        ("name", .string(si < names.choices.count ? names.choices[si] : s.name)),
                        ("fractionalValue", .string(fractional(now))), ("initialFractionalValue", .string(fractional(now))),
                        ("change", .int(0)), ("suspended", .bool(s.suspended)),
                        ("sourceId", .int(900_000_000 + m.serial * 100 + mi * 10 + si)),
                    ])
                })),
            ])
        }))])
    }

    // MARK: - One channel's data

    /// The data a match channel carries now; nil: none (no snapshot; polls skip it).
    static func data(_ part: Part, _ m: SimMatch, state: SportsAPIProState) -> JSONOutput? {
        switch part {
        case .score: return .object([("event", event(m, state: state))])
        case .incidents: return incidents(m, state: state)
        case .stats: return stats(m)
        case .odds: return odds(m)
        case .lineups: return lineups(m)
        }
    }
}

extension Simulator {
    /// Why a SportsAPIPro upgrade is refused (status, message), or nil when it is admitted; nil too for paths
    /// that are not SportsAPIPro's (`isPath` false). Inferred: a missing or unknown key is refused at the
    /// upgrade with 401 (the docs do not say how a bad key is refused).
    func sportsAPIRefusal(_ head: HTTPRequestHead) -> (isPath: Bool, refusal: (Int, String)?) {
        let (path, query) = splitURI(head.uri)
        let key: String?
        if path == SportsAPIProV2.path {
            key = query["x-api-key"] ?? head.headers.first(name: "x-api-key")
        } else if SportsAPIProV1.sport(ofPath: path) != nil {
            // v1 documents the query parameter only.
            key = query["x-api-key"]
        } else {
            return (false, nil)
        }
        guard let key, options.keys[key] != nil else { return (true, (401, "Invalid or missing API key")) }
        return (true, nil)
    }

    /// Whether to upgrade a request to a SportsAPIPro socket (false for other paths).
    func sportsAPIAcceptsUpgrade(_ head: HTTPRequestHead) -> Bool {
        let (isPath, refusal) = sportsAPIRefusal(head)
        if isPath, refusal == nil, splitURI(head.uri).0 != SportsAPIProV2.path, !sportsAPI.v1Active {
            // v1's diffing starts now, from the games as they are (the new client gets them whole on connect).
            sportsAPI.v1Active = true
            sportsAPIV1Diff([])
        }
        return isPath && refusal == nil
    }

    /// A SportsAPIPro WebSocket path reached without an upgrade, or with a refused one; nil for other paths.
    func sportsAPIRoute(_ head: HTTPRequestHead) -> (Int, String, [(String, String)])? {
        let (isPath, refusal) = sportsAPIRefusal(head)
        guard isPath else { return nil }
        if let (status, message) = refusal { return Self.error(status, message) }
        return Self.error(400, "Expected a WebSocket upgrade")
    }

    /// The tick hook: half times for the incident lists, and v1's changed games.
    func sportsAPIRecord(_ changes: [SimChange]) {
        sportsAPI.record(changes, world: world)
        if sportsAPI.v1Active { sportsAPIV1Diff(changes) }
    }

    // MARK: - Controls for tests

    /// The channels each open SportsAPIPro connection of `provider` (`.sportsapi` or `.sportsapiV1`) is
    /// subscribed to, in the order they were subscribed; connections oldest first.
    public func sportsAPIChannels(_ provider: SimProvider = .sportsapi) async -> [[String]] {
        await onLoop {
            var open: [(Int, [String])] = []
            for c in self.connections.values where c.isOpen {
                if let v2 = c as? SportsAPIProV2Connection, provider == .sportsapi { open.append((v2.number, v2.channels)) }
                if let v1 = c as? SportsAPIProV1Connection, provider == .sportsapiV1 { open.append((v1.number, v1.channels)) }
            }
            return open.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// Sets v2's NATS bridge health: what later `welcome`s say, and (false) whether only safety-net polls deliver.
    public func sportsAPISetNATSConnected(_ on: Bool) async { await onLoop { self.sportsAPI.natsConnected = on } }

    /// Runs v2's safety-net poll now on every connection: each subscribed `:incidents` and `:stats` channel
    /// gets its full data again as an `update` with `source` "poll" (so incidents already sent arrive again).
    public func sportsAPIPollNow() async {
        await onLoop {
            for case let c as SportsAPIProV2Connection in self.connections.values {
                c.poll([.incidents, .stats])
            }
        }
    }
}

extension SimProvider {
    /// SportsAPIPro v2 (channels over one WebSocket).
    public static let sportsapi = SimProvider(rawValue: "sportsapi")
    /// SportsAPIPro v1 (scores over a per-sport WebSocket).
    public static let sportsapiV1 = SimProvider(rawValue: "sportsapi-v1")
}

extension SimService {
    /// SportsAPIPro v2: one WebSocket of channels (the docs describe no REST).
    static let sportsAPIV2 = SimService(
        provider: .sportsapi, restPath: nil, webSocketPath: SportsAPIProV2.path,
        route: { sim, head, path, _, _ in path == SportsAPIProV2.path ? sim.sportsAPIRoute(head) : nil },
        acceptsUpgrade: { sim, head, path, _ in path == SportsAPIProV2.path ? sim.sportsAPIAcceptsUpgrade(head) : nil },
        connect: { sim, channel, head, _ in channel.pipeline.addHandler(SportsAPIProV2Connection(sim: sim, head: head)) },
        // The state both versions share: v2's incident lists and v1's changed games.
        tick: { sim, changes in sim.sportsAPIRecord(changes) })

    /// SportsAPIPro v1: a WebSocket per sport; `{sport}` is the client's to fill, as in the docs' host.
    static let sportsAPIV1 = SimService(
        provider: .sportsapiV1, restPath: nil, webSocketPath: "/v1/{sport}/ws",
        route: { sim, head, path, _, _ in SportsAPIProV1.sport(ofPath: path) != nil ? sim.sportsAPIRoute(head) : nil },
        acceptsUpgrade: { sim, head, path, _ in SportsAPIProV1.sport(ofPath: path) != nil ? sim.sportsAPIAcceptsUpgrade(head) : nil },
        connect: { sim, channel, head, _ in channel.pipeline.addHandler(SportsAPIProV1Connection(sim: sim, head: head)) })
}
