import Foundation
import NIOCore
import OddsJSON

/// BoltOdds' loop-confined state in the simulator: admission counters and the play history of live games.
struct BoltOddsState {
    /// Set by the first BoltOdds request or connection: plays are recorded from then on, so the other
    /// providers' load tests (the firehose) pay nothing for BoltOdds.
    var active = false
    /// Accepted WebSocket upgrades per key (all three sockets), for the 12-per-minute limit.
    var connects: [String: [NIODeadline]] = [:]
    /// GET token buckets per key: 3 tokens, one back every 5 s.
    var buckets: [String: (tokens: Double, at: NIODeadline)] = [:]
    /// Play history per match serial.
    var logs: [Int: BoltOddsGameLog] = [:]
}

/// One play of a live game, as every play-by-play stream and the box scores tell it.
struct BoltOddsPlay {
    var id: Int
    /// The world tick the play was recorded in (what is new this tick).
    var tick: Int
    /// Machine type: stream 3's "Goal"/"GoalKick", stream 4's "attempt_missed", stream 1's "game_won".
    var type: String
    var subType = ""
    /// Stream 4's human name ("Attempt missed").
    var name: String
    /// Stream 2's description ("Boston Celtics makes 3-pt shot").
    var description: String
    /// "home" or "away"; nil for plays of neither side (period ends).
    var team: String?
    var player: String?
    var points = 0
    var isEndOfPeriod = false
    var elapsed: Int
    var period: Int
    var clock: String
    /// Seconds left in the period (basketball), for stream 4.
    var secondsLeft = 0
    /// Tennis: games (home, away) before and after the play.
    var before = (0, 0)
    var after = (0, 0)
    var scoreHome: Int
    var scoreAway: Int
    var details: [(String, String)] = []
    /// Scoring plays, cards and period changes: these push a live-scores update.
    var major = false
}

/// The history of one game, bounded.
struct BoltOddsGameLog {
    var plays: [BoltOddsPlay] = []
    var nextID = 1
    /// Tennis: games in the current set, as last seen.
    var games = (0, 0)
    /// Score (home, away) at the start of each period, period 1 first.
    var periodStarts: [(Int, Int)] = []
    /// Tennis: games of each finished set.
    var setGames: [(Int, Int)] = []

    mutating func append(_ play: BoltOddsPlay) {
        plays.append(play)
        if plays.count > 20 { plays.removeFirst(plays.count - 20) }
        nextID += 1
    }
}

extension Simulator {
    /// The play history of a live game, seeded on first use (synthetic plays consistent with the score).
    func boltOddsLog(_ m: SimMatch) -> BoltOddsGameLog {
        if let log = boltOdds.logs[m.serial] { return log }
        // Seeded plays belong to no tick, so they are never sent as this tick's news.
        let log = BoltOddsPlays.seed(m, tick: -1)
        boltOdds.logs[m.serial] = log
        return log
    }

    /// Records this tick's plays (called by `tickOnLoop` before the connections hear of the changes).
    func boltOddsRecord(_ changes: [SimChange]) {
        guard boltOdds.active else { return }
        var bySerial: [Int: [SimChange]] = [:]
        for c in changes { bySerial[c.serial, default: []].append(c) }
        for m in world.live(for: .boltodds) where m.away != nil {
            guard var log = boltOdds.logs[m.serial] else { _ = boltOddsLog(m); continue }
            let mine = bySerial[m.serial] ?? []
            let endedNow = mine.contains { if case .ended = $0 { return true } else { return false } }
            if m.phase == .ended && !endedNow { continue }
            BoltOddsPlays.record(m, mine, tick: world.tickCount, into: &log)
            boltOdds.logs[m.serial] = log
        }
        for case .removed(let s) in changes { boltOdds.logs[s] = nil }
    }
}

/// Turns world changes into plays, and plays into BoltOdds' play-by-play, live-scores and scores JSON.
enum BoltOddsPlays {
    static func periodNumber(_ m: SimMatch) -> Int {
        switch m.sport {
        case "soccer": return m.period == "2nd Half" || m.period == "Ended" ? 2 : 1
        case "basketball": return min(4, m.elapsed / 720 + 1)
        default: return m.setNumber
        }
    }

    static func gameTime(_ seconds: Int) -> String {
        BoltOdds.two(seconds / 3600) + ":" + BoltOdds.two(seconds / 60 % 60) + ":" + BoltOdds.two(seconds % 60)
    }

    static func teamName(_ m: SimMatch, _ side: String?) -> String {
        switch side {
        case "home": return BoltOdds.team(m.home)
        case "away": return BoltOdds.team(m.away ?? "")
        default: return ""
        }
    }

    static func basePlay(_ m: SimMatch, _ log: BoltOddsGameLog, tick: Int, type: String, name: String,
                         description: String, team: String?) -> BoltOddsPlay {
        let left = max(0, 720 - m.elapsed % 720)
        return BoltOddsPlay(id: log.nextID, tick: tick, type: type, name: name, description: description, team: team,
                            elapsed: m.elapsed, period: periodNumber(m), clock: m.clock ?? "", secondsLeft: left,
                            before: log.games, after: log.games, scoreHome: m.scoreHome, scoreAway: m.scoreAway)
    }

    /// A first history for a game seen for the first time: the score split evenly over the periods played,
    /// and a few synthetic plays (inferred, so that streams 2 and 3 have "recent plays" to send at once).
    static func seed(_ m: SimMatch, tick: Int) -> BoltOddsGameLog {
        var log = BoltOddsGameLog()
        let k = periodNumber(m)
        log.periodStarts = (0..<k).map { i in (m.scoreHome * i / k, m.scoreAway * i / k) }
        guard m.elapsed >= 60 || m.sport == "tennis" else { return log }
        switch m.sport {
        case "basketball":
            var (h, a) = (m.scoreHome, m.scoreAway)
            var plays: [BoltOddsPlay] = []
            for j in 0..<10 {
                let side = BoltOdds.hash(m.serial, j, 1) % 2 == 0 ? "home" : "away"
                let points = [2, 2, 3, 1][Int(BoltOdds.hash(m.serial, j, 2) % 4)]
                var p = basePlay(m, log, tick: tick, type: "attempt_missed", name: "Attempt missed",
                                 description: "\(teamName(m, side)) misses \(points)-pt shot", team: side)
                p.elapsed = max(0, m.elapsed - j * 20)
                p.secondsLeft = max(0, 720 - p.elapsed % 720)
                p.clock = BoltOdds.two(p.secondsLeft / 60) + ":" + BoltOdds.two(p.secondsLeft % 60)
                p.points = points
                p.scoreHome = h
                p.scoreAway = a
                let mine = side == "home" ? h : a
                if mine >= points {
                    p.type = "attempt_made"
                    p.name = "Attempt made"
                    p.description = "\(teamName(m, side)) makes " + (points == 1 ? "free throw" : "\(points)-pt shot")
                    p.major = true
                    if side == "home" { h -= points } else { a -= points }
                }
                plays.append(p)
            }
            for var p in plays.reversed() { p.id = log.nextID; log.append(p) }
        case "soccer":
            for j in (0..<5).reversed() {
                var p = filler(m, log, tick: tick, salt: j)
                p.elapsed = max(0, m.elapsed - j * 20)
                log.append(p)
            }
        default:
            log.games = (m.gamesHome, m.gamesAway)
            // Earlier sets: the winner took them 6–x (inferred).
            for i in 0..<(m.scoreHome + m.scoreAway) {
                let other = 2 + Int(BoltOdds.hash(m.serial, i) % 3)
                log.setGames.append(i < m.scoreHome ? (6, other) : (other, 6))
            }
            if m.gamesHome + m.gamesAway > 0 {
                let side = m.gamesHome >= m.gamesAway ? "home" : "away"
                var p = basePlay(m, log, tick: tick, type: "game_won", name: "Game won",
                                 description: "\(teamName(m, side)) wins the game", team: side)
                p.before = side == "home" ? (m.gamesHome - 1, m.gamesAway) : (m.gamesHome, m.gamesAway - 1)
                log.append(p)
            }
        }
        return log
    }

    /// A routine soccer event (inferred types in the style of stream 3's "GoalKick" and "DangerStateChanged").
    static func filler(_ m: SimMatch, _ log: BoltOddsGameLog, tick: Int, salt: Int) -> BoltOddsPlay {
        let h = BoltOdds.hash(m.serial, tick, salt, 3)
        let side = h % 2 == 0 ? "home" : "away"
        let types = ["GoalKick", "ThrowIn", "FreeKick", "Corner", "DangerStateChanged", "DangerStateChanged", "ShotOffTarget"]
        var p = basePlay(m, log, tick: tick, type: types[Int(h / 2 % UInt64(types.count))], name: "", description: "", team: side)
        if p.type == "DangerStateChanged" {
            let state = ["Safe", "Attack", "DangerousAttack"][Int(h / 64 % 3)]
            p.subType = state
            p.details = [("state", state)]
        }
        p.name = p.type
        p.description = "\(p.type) \(teamName(m, side))"
        return p
    }

    /// Appends the plays of one tick.
    static func record(_ m: SimMatch, _ changes: [SimChange], tick: Int, into log: inout BoltOddsGameLog) {
        func add(_ type: String, _ name: String, _ description: String, team: String?, major: Bool,
                 _ edit: (inout BoltOddsPlay) -> Void = { _ in }) {
            var p = basePlay(m, log, tick: tick, type: type, name: name, description: description, team: team)
            p.major = major
            edit(&p)
            log.append(p)
        }
        switch m.sport {
        case "soccer":
            var happened = false
            for c in changes {
                switch c {
                case .incident(_, let inc):
                    // Inferred type names, in stream 3's CamelCase style.
                    let type = ["Goal": "Goal", "Yellow Card": "YellowCard", "Red Card": "RedCard",
                                "Substitution": "Substitution", "VAR Decision": "VarCheck"][inc.label] ?? inc.label
                    add(type, inc.label, "\(inc.label) \(teamName(m, inc.team))", team: inc.team, major: inc.label != "Substitution") {
                        $0.player = inc.player
                        if let player = inc.player { $0.details = [("player", player)] }
                    }
                    happened = true
                case .period(_, _, let to):
                    let type = to == "2nd Half" ? "PeriodStart" : "PeriodEnd"
                    add(type, to, to, team: nil, major: true) { $0.subType = to; $0.isEndOfPeriod = type == "PeriodEnd" }
                    if to == "2nd Half" { log.periodStarts.append((m.scoreHome, m.scoreAway)) }
                    happened = true
                default: break
                }
            }
            if !happened && m.phase == .live { log.append(filler(m, log, tick: tick, salt: 0)) }
        case "basketball":
            var scored = false
            for c in changes {
                switch c {
                case .score(_, let from, let to):
                    let f = from.split(separator: "-").compactMap { Int($0) }, t = to.split(separator: "-").compactMap { Int($0) }
                    guard f.count == 2, t.count == 2 else { continue }
                    for (side, delta) in [("home", t[0] - f[0]), ("away", t[1] - f[1])] where delta > 0 {
                        add("attempt_made", "Attempt made",
                            "\(teamName(m, side)) makes " + (delta == 1 ? "free throw" : "\(delta)-pt shot"), team: side, major: true) {
                            $0.points = delta
                        }
                        scored = true
                    }
                case .period(_, let from, let to):
                    add("end_period", "End of period", to == "Ended" ? "End of Game." : "End of \(from).", team: nil, major: true) {
                        $0.isEndOfPeriod = true
                        $0.clock = "00:00"
                        $0.secondsLeft = 0
                        $0.period = max(1, $0.period - (to == "Ended" ? 0 : 1))
                    }
                    if to != "Ended" { log.periodStarts.append((m.scoreHome, m.scoreAway)) }
                default: break
                }
            }
            if !scored && m.phase == .live {
                let h = BoltOdds.hash(m.serial, tick, 5)
                let side = h % 2 == 0 ? "home" : "away"
                let points = h / 2 % 3 == 0 ? 3 : 2
                add("attempt_missed", "Attempt missed", "\(teamName(m, side)) misses \(points)-pt shot", team: side, major: false) {
                    $0.points = points
                }
            }
        default:
            var setWon = false
            for c in changes {
                switch c {
                case .score(_, let from, _):
                    let f = from.split(separator: "-").compactMap { Int($0) }
                    let side = f.count == 2 && m.scoreHome > f[0] ? "home" : "away"
                    let final = side == "home" ? (log.games.0 + 1, log.games.1) : (log.games.0, log.games.1 + 1)
                    add("set_won", "Set won", "\(teamName(m, side)) wins set \(log.setGames.count + 1)", team: side, major: true) {
                        $0.before = log.games
                        $0.after = final
                        $0.period = log.setGames.count + 1
                    }
                    log.setGames.append(final)
                    log.games = (0, 0)
                    setWon = true
                case .period(_, _, let to) where to == "Ended":
                    add("match_ended", "Match ended", "Match ended", team: nil, major: true) { $0.isEndOfPeriod = true }
                default: break
                }
            }
            let now = (m.gamesHome, m.gamesAway)
            if !setWon, now != log.games, now.0 + now.1 > log.games.0 + log.games.1 {
                let side = now.0 > log.games.0 ? "home" : "away"
                add("game_won", "Game won", "\(teamName(m, side)) wins the game", team: side, major: true) {
                    $0.before = log.games
                    $0.after = now
                }
            }
            log.games = now
        }
    }

    // MARK: - Play-by-play messages

    /// The stream a game is fed on. Inferred: soccer on stream 3 and NBA on stream 2 (as the docs' examples),
    /// other basketball on stream 4; the world has no American football, so tennis takes stream 1's shape.
    static func stream(_ m: SimMatch) -> Int {
        switch m.sport {
        case "soccer": return 3
        case "basketball": return m.league == "NBA" ? 2 : 4
        default: return 1
        }
    }

    static func head(_ m: SimMatch, stream: Int, action: String) -> [(String, JSONOutput)] {
        var fields: [(String, JSONOutput)] = [
            ("stream", .int(stream)), ("action", .string(action)),
            ("event", .string(stream == 1 ? BoltOdds.shortLabel(m) : BoltOdds.label(m) ?? "")),
            ("universal_id", .string(BoltOdds.universalID(m.serial))),
        ]
        if stream == 4 { fields += [("home", .string(BoltOdds.team(m.home))), ("away", .string(BoltOdds.team(m.away ?? "")))] }
        fields.append(("league", .string(BoltOdds.sport(ofLeague: m.league))))
        return fields
    }

    static func score(_ m: SimMatch) -> JSONOutput { .object([("home", .int(m.scoreHome)), ("away", .int(m.scoreAway))]) }

    static func actionID(_ serial: Int, _ id: Int) -> String {
        var bytes: [UInt8] = []
        for part in [BoltOdds.hash(serial, id, 7), BoltOdds.hash(serial, id, 8)] {
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: part >> UInt64(shift))) }
        }
        return Data(bytes).base64EncodedString()
    }

    /// What a play-by-play socket sends when a game is subscribed: each stream's documented opening.
    static func opening(_ m: SimMatch, _ log: BoltOddsGameLog) -> [String] {
        switch stream(m) {
        case 1:
            var out = [currentState(m), stats1(m, log)]
            if let last = log.plays.last { out.append(play1(m, last, state: "last_play")) }
            return out
        case 2: return [newPlays2(m, Array(log.plays.suffix(10))), stats2(m)]
        case 3: return [newPlays3(m, Array(log.plays.suffix(5))), stats3(m)]
        default:
            // Inferred: "the most current play in the game", and nothing older.
            return log.plays.last.map { [play4(m, $0)] } ?? []
        }
    }

    /// What a play-by-play socket sends for this tick's new plays of a game.
    static func updates(_ m: SimMatch, _ log: BoltOddsGameLog, tick: Int) -> [String] {
        let fresh = log.plays.filter { $0.tick == tick }
        guard !fresh.isEmpty else { return [] }
        switch stream(m) {
        case 1:
            var out = fresh.map { play1(m, $0, state: "new_play") }
            if fresh.contains(where: \.major) { out.append(stats1(m, log)) }
            return out
        case 2: return [newPlays2(m, fresh), stats2(m)]
        case 3: return [newPlays3(m, fresh), stats3(m)]
        default: return fresh.map { play4(m, $0) }
        }
    }

    static func currentState(_ m: SimMatch) -> String {
        JSONOutput.object(head(m, stream: 1, action: "current_state") + [
            ("game_info", .object([
                ("period", .int(periodNumber(m))),
                // Inferred: tennis has no clock.
                ("clock", .null),
                ("game_start", .string(BoltOdds.gameStart(m))),
                ("score", .object([("home_team", .string(BoltOdds.team(m.home))), ("home_score", .int(m.scoreHome)),
                                   ("away_team", .string(BoltOdds.team(m.away ?? ""))), ("away_score", .int(m.scoreAway))])),
            ])),
            // No field_state: the docs give it "if applicable", and a tennis court has no field position.
        ]).rendered
    }

    static func stats1(_ m: SimMatch, _ log: BoltOddsGameLog) -> String {
        let gamesHome = log.setGames.reduce(log.games.0) { $0 + $1.0 }, gamesAway = log.setGames.reduce(log.games.1) { $0 + $1.1 }
        let played = gamesHome + gamesAway
        // Inferred stat names, in the docs' "<side>_team_stats_<stat>" pattern.
        let info: [(String, JSONOutput)] = [
            ("id", .null),
            ("away_team_stats_aces", .int(played / 4 + Int(BoltOdds.hash(m.serial, 1) % 2))),
            ("away_team_stats_double_faults", .int(played / 7)),
            ("away_team_stats_games_won", .int(gamesAway)),
            ("away_team_stats_sets_won", .int(m.scoreAway)),
            ("home_team_stats_aces", .int(played / 4 + Int(BoltOdds.hash(m.serial, 2) % 2))),
            ("home_team_stats_double_faults", .int(played / 8)),
            ("home_team_stats_games_won", .int(gamesHome)),
            ("home_team_stats_sets_won", .int(m.scoreHome)),
        ]
        return JSONOutput.object(head(m, stream: 1, action: "stats") + [
            ("state", .string("")), ("play_info", .object(info)), ("play_start", .string("")), ("play_end", .string("")),
            ("action_id", .string(actionID(m.serial, -(log.nextID)))),
        ]).rendered
    }

    static func play1(_ m: SimMatch, _ p: BoltOddsPlay, state: String) -> String {
        func games(_ g: (Int, Int)) -> JSONOutput {
            .object([("set", .int(p.period)), ("home_games", .int(g.0)), ("away_games", .int(g.1))])
        }
        return JSONOutput.object(head(m, stream: 1, action: p.type) + [
            ("state", .string(state)),
            ("play_info", .object([
                ("winner", .object([("full_name", p.team.map { .string(teamName(m, $0)) } ?? .null)])),
                ("set_number", .int(p.period)),
                ("game_number", .int(p.after.0 + p.after.1)),
                ("play_number", .int(p.id)),
            ])),
            ("play_start", games(p.before)),
            ("play_end", games(p.after)),
            ("action_id", .string(actionID(m.serial, p.id))),
        ]).rendered
    }

    static func newPlays2(_ m: SimMatch, _ plays: [BoltOddsPlay]) -> String {
        // Newest first, as stream 3's example lists its plays.
        JSONOutput.object(head(m, stream: 2, action: "new_play") + [
            ("state", .string("new_play")),
            ("play_info", .array(plays.reversed().map { p in
                .object([("clock", .string(p.clock)), ("description", .string(p.description)),
                         ("isEndOfPeriod", .bool(p.isEndOfPeriod))])
            })),
            ("play_start", .string("")), ("play_end", .string("")), ("score", score(m)),
        ]).rendered
    }

    static func basketballStats(_ points: Int, _ m: SimMatch, salt: Int) -> [(String, Int)] {
        let minutes = max(1, m.elapsed / 60)
        let threesMade = points * 3 / 10 / 3, freeMade = points * 17 / 100
        let twosMade = max(0, (points - threesMade * 3 - freeMade) / 2)
        let rebounds = minutes * 9 / 10 + Int(BoltOdds.hash(m.serial, salt) % 3)
        let offensive = rebounds * 27 / 100
        return [("threePointsAtt", threesMade * 27 / 10 + 1), ("rebounds", rebounds), ("offensiveRebounds", offensive),
                ("defensiveRebounds", rebounds - offensive), ("twoPointsAtt", twosMade * 19 / 10 + 1),
                ("personalFouls", minutes * 42 / 100), ("freeThrowsAtt", freeMade * 5 / 4), ("freeThrowsMade", freeMade),
                ("points", points)]
    }

    static func stats2(_ m: SimMatch) -> String {
        let home = basketballStats(m.scoreHome, m, salt: 1), away = basketballStats(m.scoreAway, m, salt: 2)
        let game = zip(home, away).map { ($0.0, JSONOutput.int($0.1 + $1.1)) }
        return JSONOutput.object(head(m, stream: 2, action: "stats") + [
            ("state", .string("")),
            ("play_info", .object([
                ("game", .object(game)),
                ("team", .object([("away", .object(away.map { ($0.0, .int($0.1)) })),
                                  ("home", .object(home.map { ($0.0, .int($0.1)) }))])),
            ])),
            ("play_start", .string("")), ("play_end", .string("")), ("action_id", .string("")),
        ]).rendered
    }

    static func newPlays3(_ m: SimMatch, _ plays: [BoltOddsPlay]) -> String {
        JSONOutput.object(head(m, stream: 3, action: "new_play") + [
            ("state", .string("new_play")),
            ("play_info", .array(plays.reversed().map { p in
                .object([("id", .string(String(p.id))), ("type", .string(p.type)), ("subType", .string(p.subType)),
                         ("actionDetails", .object(p.details.map { ($0.0, .string($0.1)) })),
                         ("gameTime", .string(gameTime(p.elapsed))), ("team", .string(teamName(m, p.team)))])
            })),
            ("play_start", .string("")), ("play_end", .string("")), ("score", score(m)),
        ]).rendered
    }

    static func stats3(_ m: SimMatch) -> String {
        let minutes = max(1, m.minute)
        let possessionHome = max(25, min(75, 50 + Int(((m.strengthHome - m.strengthAway) * 20).rounded())))
        let attacksHome = minutes * possessionHome / 70, attacksAway = minutes * (100 - possessionHome) / 70
        let shotsHome = m.scoreHome * 2 + minutes / 12, shotsAway = m.scoreAway * 2 + minutes / 14
        let onHome = min(shotsHome, m.scoreHome + minutes / 30), onAway = min(shotsAway, m.scoreAway + minutes / 35)
        func count(_ label: String, _ side: String) -> Int { m.incidents.filter { $0.label == label && $0.team == side }.count }
        func row(_ name: String, _ home: Int, _ away: Int) -> JSONOutput {
            .object([("name", .string(name)), ("home", .string(String(home))), ("away", .string(String(away)))])
        }
        return JSONOutput.object(head(m, stream: 3, action: "stats") + [
            ("state", .string("")),
            ("play_info", .object([("game", .array([
                row("POSSESSIONS", possessionHome, 100 - possessionHome),
                row("ATTACKS", attacksHome, attacksAway),
                row("DANGEROUS_ATTACK", attacksHome * 6 / 10, attacksAway * 6 / 10),
                .object([("name", .string("SHOTS")),
                         ("home", .string("\(onHome)/\(shotsHome)")), ("homePercentage", .int(shotsHome == 0 ? 0 : onHome * 100 / shotsHome)),
                         ("away", .string("\(onAway)/\(shotsAway)")), ("awayPercentage", .int(shotsAway == 0 ? 0 : onAway * 100 / shotsAway))]),
                // Inferred rows beyond the docs' four.
                row("YELLOW_CARDS", count("Yellow Card", "home"), count("Yellow Card", "away")),
                row("RED_CARDS", count("Red Card", "home"), count("Red Card", "away")),
            ]))])),
            ("play_start", .string("")), ("play_end", .string("")), ("action_id", .string("")),
        ]).rendered
    }

    static func play4(_ m: SimMatch, _ p: BoltOddsPlay) -> String {
        let h = BoltOdds.hash(m.serial, p.id, 9)
        return JSONOutput.object(head(m, stream: 4, action: "new_play") + [
            ("state", .string("new_play")),
            ("play_info", .array([.object([
                ("type", .string(p.type)),
                ("team", p.team.map { .string($0) } ?? .null),
                ("points", .int(p.points)),
                // Inferred: seconds left in the period, and `time` the period.
                ("seconds", .int(p.secondsLeft)),
                ("name", .string(p.name)),
                ("X", .int(Int(h % 100))),
                ("Y", .int(Int(h / 100 % 100))),
                ("time", .int(p.period)),
            ])])),
            ("score", .object([("home", .int(p.scoreHome)), ("away", .int(p.scoreAway))])),
        ]).rendered
    }

    // MARK: - Live scores

    /// Inferred: every third game names the away side "A", since `designation` exists to say which is which.
    static func swapped(_ serial: Int) -> Bool { serial % 3 == 0 }

    static func ab(_ serial: Int, _ home: Int, _ away: Int) -> JSONOutput {
        swapped(serial) ? .object([("A", .int(away)), ("B", .int(home))]) : .object([("A", .int(home)), ("B", .int(away))])
    }

    static func perPeriod(_ m: SimMatch, _ log: BoltOddsGameLog) -> [(Int, Int)] {
        if m.sport == "tennis" { return log.setGames + (m.phase == .ended ? [] : [log.games]) }
        var out: [(Int, Int)] = []
        let starts = log.periodStarts.isEmpty ? [(0, 0)] : log.periodStarts
        for (i, start) in starts.enumerated() {
            let end = i + 1 < starts.count ? starts[i + 1] : (m.scoreHome, m.scoreAway)
            out.append((end.0 - start.0, end.1 - start.1))
        }
        return out
    }

    /// `match_update` for a game. The docs show baseball's state only; the fields for soccer, basketball and
    /// tennis are inferred in the same style (A/B-keyed values, `matchPeriod` as [kind, phase], `totalXForTeamA`).
    static func matchUpdate(_ m: SimMatch, _ log: BoltOddsGameLog) -> String {
        let s = m.serial
        let completed = m.phase == .ended
        var state: [(String, JSONOutput)] = [("preMatch", .bool(false)), ("matchCompleted", .bool(completed))]
        let (a, b) = swapped(s) ? (m.scoreAway, m.scoreHome) : (m.scoreHome, m.scoreAway)
        let periods = perPeriod(m, log)
        let periodScores = JSONOutput.object(periods.enumerated().map { (String($0.offset + 1), ab(s, $0.element.0, $0.element.1)) })
        switch m.sport {
        case "soccer":
            func count(_ label: String, _ side: String) -> Int { m.incidents.filter { $0.label == label && $0.team == side }.count }
            let phase = completed ? "MATCH_COMPLETED" : m.phase == .halfTime ? "AT_HALF_TIME"
                : m.period == "2nd Half" ? "IN_SECOND_HALF" : "IN_FIRST_HALF"
            state += [
                ("goals", ab(s, m.scoreHome, m.scoreAway)),
                ("yellowCards", ab(s, count("Yellow Card", "home"), count("Yellow Card", "away"))),
                ("redCards", ab(s, count("Red Card", "home"), count("Red Card", "away"))),
                ("halfScores", periodScores),
                ("matchPeriod", .array([.string("SoccerMatchPeriod"), .string(phase)])),
                ("clockSeconds", .int(m.elapsed)),
                ("clockStatus", .string(m.phase == .live ? "RUNNING" : "STOPPED")),
                ("totalGoalsForTeamA", .int(a)), ("totalGoalsForTeamB", .int(b)),
                ("clockRunning", .bool(m.phase == .live)),
            ]
        case "basketball":
            let quarter = periodNumber(m)
            let phase = completed ? "MATCH_COMPLETED" : "IN_" + ["FIRST", "SECOND", "THIRD", "FOURTH"][quarter - 1] + "_QUARTER"
            state += [
                ("points", ab(s, m.scoreHome, m.scoreAway)),
                ("quarter", .int(quarter)),
                ("quarterScores", periodScores),
                ("matchPeriod", .array([.string("BasketballMatchPeriod"), .string(phase)])),
                ("clockSeconds", .int(completed ? 0 : max(0, 720 - m.elapsed % 720))),
                ("clockStatus", .string(completed ? "SET_PERIOD_END" : "RUNNING")),
                ("totalPointsForTeamA", .int(a)), ("totalPointsForTeamB", .int(b)),
                ("clockRunning", .bool(!completed)),
            ]
        default:
            let serving = (log.games.0 + log.games.1 + log.setGames.count) % 2 == 0 ? "home" : "away"
            state += [
                ("sets", ab(s, m.scoreHome, m.scoreAway)),
                ("games", ab(s, m.gamesHome, m.gamesAway)),
                ("setNumber", .int(m.setNumber)),
                ("setScores", periodScores),
                ("serving", .string((serving == "home") != swapped(s) ? "A" : "B")),
                ("matchPeriod", .array([.string("TennisMatchPeriod"), .string(completed ? "MATCH_COMPLETED" : "IN_SET_\(m.setNumber)")])),
                ("totalSetsForTeamA", .int(a)), ("totalSetsForTeamB", .int(b)),
                ("clockRunning", .bool(false)),
            ]
        }
        return JSONOutput.object([
            ("action", .string("match_update")),
            ("game", .string(BoltOdds.label(m) ?? "")),
            ("universal_id", .string(BoltOdds.universalID(s))),
            ("home", .string(BoltOdds.team(m.home))),
            ("away", .string(BoltOdds.team(m.away ?? ""))),
            ("designation", swapped(s) ? .object([("A", .string("away")), ("B", .string("home"))])
                : .object([("A", .string("home")), ("B", .string("away"))])),
            ("state", .object(state)),
        ]).rendered
    }

    // MARK: - Scores endpoints

    static func matchID(_ serial: Int) -> Int { 69_079_000 + serial }

    static func periodKey(_ m: SimMatch, _ i: Int) -> String {
        switch m.sport {
        case "soccer": return "H\(i + 1)"
        case "basketball": return "Q\(i + 1)"
        default: return "S\(i + 1)"
        }
    }

    static func playerName(_ serial: Int, _ side: Int, _ i: Int) -> String {
        let h = BoltOdds.hash(serial, side, i, 11)
        return "\(Teams.firstNames[Int(h % UInt64(Teams.firstNames.count))]) \(Teams.lastNames[Int(h / 64 % UInt64(Teams.lastNames.count))])"
    }

    /// `/api/boxscores` entry: the docs' `game` block and a `players` list (stats as strings, as the docs).
    static func boxScore(_ m: SimMatch, _ log: BoltOddsGameLog) -> JSONOutput {
        let clock: String
        switch m.phase {
        case .halfTime: clock = "Halftime"
        case .ended: clock = "Final"
        default: clock = m.clock ?? m.period
        }
        let timeouts = m.sport == "basketball" ? 7 : 0
        let game: JSONOutput = .object([
            ("scorePerPeriod", .object(perPeriod(m, log).enumerated().map {
                (periodKey(m, $0.offset), .object([("home", .int($0.element.0)), ("away", .int($0.element.1))]))
            })),
            ("location", .string("")),
            ("clock", .string(clock)),
            ("timeoutsTotal", .int(timeouts)),
            ("timeoutsRemaining", .object([("home", .int(max(0, timeouts - m.elapsed / 900))), ("away", .int(max(0, timeouts - m.elapsed / 1000)))])),
            ("isRedZone", .bool(false)),
            ("possession", .string(log.plays.last?.team ?? "home")),
            ("home", .int(m.scoreHome)),
            ("away", .int(m.scoreAway)),
        ])
        var players: [JSONOutput] = []
        for (sideIndex, side) in ["home", "away"].enumerated() {
            let score = side == "home" ? m.scoreHome : m.scoreAway
            switch m.sport {
            case "tennis":
                players.append(player(teamName(m, side), number: "", position: "Player", stats: [
                    ("aces", String(Int(BoltOdds.hash(m.serial, sideIndex) % 6))), ("doubleFaults", String(Int(BoltOdds.hash(m.serial, sideIndex, 1) % 4))),
                    ("setsWon", String(score)),
                ]))
            case "basketball":
                for (i, share) in [40, 35, 25].enumerated() {
                    players.append(player(playerName(m.serial, sideIndex, i), number: String(3 + i * 7 + sideIndex), position: ["Guard", "Forward", "Center"][i],
                                          stats: [("points", String(score * share / 100)), ("rebounds", String(m.minute * (i + 1) / 12)),
                                                  ("assists", String(m.minute * (3 - i) / 16)), ("minutes", String(m.minute * 3 / 4))]))
                }
            default:
                // The goal scorers and booked players of the world's incidents, plus a goalkeeper.
                var names: [String] = [playerName(m.serial, sideIndex, 0)]
                for inc in m.incidents where inc.team == side { if let p = inc.player, !names.contains(p) { names.append(p) } }
                for (i, name) in names.enumerated() {
                    func count(_ label: String) -> String { String(m.incidents.filter { $0.team == side && $0.player == name && $0.label == label }.count) }
                    players.append(player(name, number: String(i == 0 ? 1 : 7 + i), position: i == 0 ? "Goalkeeper" : "Forward",
                                          stats: [("goals", count("Goal")), ("yellowCards", count("Yellow Card")), ("redCards", count("Red Card")),
                                                  ("minutes", String(m.minute))]))
                }
            }
        }
        return .object([("game", game), ("players", .array(players))])
    }

    static func player(_ name: String, number: String, position: String, stats: [(String, String)]) -> JSONOutput {
        .object([
            ("player", .object([("player_name", .string(name)), ("player_number", .string(number)), ("player_position", .string(position))])),
            ("stats", .object(stats.map { ($0.0, .string($0.1)) })),
        ])
    }

    static func unixNow() -> Int { Int(Date().timeIntervalSince1970) }

    /// `/api/match_stats` entry. The tennis ids are the docs'; soccer and basketball ids are inferred.
    static func matchStats(_ m: SimMatch, _ log: BoltOddsGameLog) -> JSONOutput {
        var rows: [(id: String, name: String, home: Int, away: Int)]
        switch m.sport {
        case "soccer":
            func count(_ label: String, _ side: String) -> Int { m.incidents.filter { $0.label == label && $0.team == side }.count }
            rows = [("40", "Yellow cards", count("Yellow Card", "home"), count("Yellow Card", "away")),
                    ("50", "Red cards", count("Red Card", "home"), count("Red Card", "away")),
                    ("124", "Corner kicks", m.minute / 11, m.minute / 13),
                    ("125", "Shots on target", m.scoreHome + m.minute / 30, m.scoreAway + m.minute / 35)]
        case "basketball":
            rows = [("60", "Points", m.scoreHome, m.scoreAway), ("61", "Rebounds", m.minute * 9 / 10, m.minute * 8 / 10),
                    ("62", "Fouls", m.minute * 42 / 100, m.minute * 40 / 100)]
        default:
            let gamesHome = log.setGames.reduce(log.games.0) { $0 + $1.0 }, gamesAway = log.setGames.reduce(log.games.1) { $0 + $1.1 }
            rows = [("130", "Aces", (gamesHome + gamesAway) / 4, (gamesHome + gamesAway) / 5),
                    ("132", "Double Faults", (gamesHome + gamesAway) / 8, (gamesHome + gamesAway) / 7),
                    ("136", "Points won", gamesHome * 4 + gamesAway, gamesAway * 4 + gamesHome),
                    ("gameswon", "Games won", gamesHome, gamesAway)]
        }
        let doc: JSONOutput = .object([
            ("event", .string("match_detailsextended")),
            ("_dob", .int(unixNow())),
            ("_maxage", .int(10)),
            ("data", .object([
                ("_doc", .string("details")),
                ("_matchid", .int(matchID(m.serial))),
                ("teams", .object([("home", .string(BoltOdds.team(m.home))), ("away", .string(BoltOdds.team(m.away ?? "")))])),
                ("index", .array(rows.map { Int($0.id).map(JSONOutput.int) ?? .string($0.id) })),
                ("values", .object(rows.map { ($0.id, .object([("name", .string($0.name)),
                                                               ("value", .object([("home", .int($0.home)), ("away", .int($0.away))]))])) })),
            ])),
        ])
        return .object([("doc", .array([doc])), ("types", .object(rows.map { ($0.id, .string($0.name)) }))])
    }

    /// `/api/match_info` entry: the docs' `match_timelinedelta` document, with the fields that matter.
    static func matchInfo(_ m: SimMatch, _ log: BoltOddsGameLog) -> JSONOutput {
        let now = unixNow()
        let started = now - m.elapsed
        let date = BoltOdds.eastern(m).date.split(separator: "-").map(String.init)
        let periods = perPeriod(m, log)
        let winner: JSONOutput = m.scoreHome == m.scoreAway ? .null : .string(m.scoreHome > m.scoreAway ? "home" : "away")
        func team(_ name: String, _ side: Int) -> JSONOutput {
            .object([("_doc", .string("team")), ("_id", .int(10_478_000 + m.serial * 2 + side)), ("virtual", .bool(false)),
                     ("name", .string(name)), ("mediumname", .string(name)), ("abbr", .string(String(name.prefix(3)).uppercased())),
                     ("iscountry", .bool(false))])
        }
        var match: [(String, JSONOutput)] = [
            ("_doc", .string("match")),
            ("_doctype", .string(m.sport)),
            ("_id", .int(matchID(m.serial))),
            ("_dt", .object([("_doc", .string("time")), ("time", .string(String(BoltOdds.gameStart(m).dropFirst(11).prefix(5)))),
                             ("date", .string(date.count == 3 ? "\(date[2])/\(date[1])/\(date[0].suffix(2))" : ""))])),
            ("result", .object([("home", .int(m.scoreHome)), ("away", .int(m.scoreAway)), ("winner", winner)])),
            ("periods", .object(periods.enumerated().map { ("p\($0.offset + 1)", .object([("home", .int($0.element.0)), ("away", .int($0.element.1))])) })),
            ("updated_uts", .int(now)),
            ("ended_uts", m.phase == .ended ? .int(now) : .bool(false)),
            ("p", .string(String(periodNumber(m)))),
            ("timeinfo", .object([("injurytime", .null), ("ended", m.phase == .ended ? .string(String(now)) : .null),
                                  ("started", .string(String(started))), ("played", .string(String(m.elapsed))),
                                  ("remaining", .string(String(max(0, (m.sport == "soccer" ? 5400 : m.sport == "basketball" ? 2880 : 0) - m.elapsed)))),
                                  ("running", .bool(m.phase == .live))])),
            ("teams", .object([("home", team(BoltOdds.team(m.home), 0)), ("away", team(BoltOdds.team(m.away ?? ""), 1))])),
            ("status", .object([("_doc", .string("status")), ("_id", .int(periodNumber(m) + (m.phase == .ended ? 100 : 6))),
                                ("name", .string(m.period)), ("shortName", .string(String(m.period.prefix(2)).uppercased()))])),
            ("removed", .bool(false)),
        ]
        if m.sport == "tennis" {
            match.append(("gamescore", .object([("home", .int(m.gamesHome)), ("away", .int(m.gamesAway)),
                                                ("service", .string((log.games.0 + log.games.1) % 2 == 0 ? "1" : "2"))])))
        }
        // Inferred: the world's incidents as timeline events (the docs' example has none).
        let events: [JSONOutput] = m.incidents.map { inc in
            .object([("_doc", .string("event")), ("type", .string(inc.label.lowercased().replacingOccurrences(of: " ", with: "_"))),
                     ("time", .int(inc.minute)), ("team", .string(inc.team))])
        }
        let doc: JSONOutput = .object([
            ("event", .string("match_timelinedelta")), ("_synced", .bool(true)), ("_dob", .int(now)), ("_maxage", .int(3)),
            ("data", .object([("match", .object(match)), ("events", .array(events))])),
        ])
        return .object([("doc", .array([doc]))])
    }
}
