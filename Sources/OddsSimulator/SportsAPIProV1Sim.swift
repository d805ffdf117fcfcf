import Foundation
import NIOCore
import NIOHTTP1
import NIOWebSocket
import OddsJSON
import OddsModel

/// SportsAPIPro v1's wire format (/work/shared/providers/sportsapipro-v1.txt): `connected`, `scores`,
/// `match-update` and `pong`.
///
/// The docs show games only as `{ ... }` with `homeCompetitor`/`awayCompetitor` `name` and `score`. Inferred:
/// the rest of a game follows 365Scores' public games API (id, sportId, competitionId, competitionDisplayName,
/// startTime, statusGroup 2 scheduled / 3 live / 4 ended, statusText, shortStatusText, gameTime,
/// gameTimeDisplay, and competitors {id, name, score} with score -1 before the start).
enum SportsAPIProV1 {
    /// The docs' sports, in the docs' order.
    static let sports: [(id: Int, name: String, slug: String)] = [
        (1, "Football", "football"), (2, "Basketball", "basketball"), (3, "Tennis", "tennis"), (4, "Hockey", "hockey"),
        (5, "Handball", "handball"), (6, "American Football", "american-football"), (7, "Baseball", "baseball"),
        (8, "Volleyball", "volleyball"), (9, "Rugby", "rugby"),
    ]

    /// The docs' channel list.
    static let channelNames = ["all", "live"] + sports.map(\.slug)

    /// Exactly the docs' `connected` message (in compact JSON).
    static let connectedText = JSONOutput.object([
        ("type", .string("connected")), ("version", .string("1.0")),
        ("sports", .array(sports.map { .object([("id", .int($0.id)), ("name", .string($0.name)), ("slug", .string($0.slug))]) })),
        ("channels", .array(channelNames.map { .string($0) })),
    ]).rendered

    /// The sport of a loopback v1 path `/v1/{sport}/ws`, or nil. Inferred for loopback: the real address puts
    /// the sport in the host name (`wss://v1.{sport}.sportsapipro.com/ws`), which loopback cannot.
    static func sport(ofPath path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].isEmpty, parts[1] == "v1", parts[3] == "ws",
              sports.contains(where: { $0.slug == parts[2] }) else { return nil }
        return String(parts[2])
    }

    /// Game ids: numeric like the docs' 4467358. Inferred numbering: 4,400,000 + the world's serial.
    static func gameID(_ serial: Int) -> Int { 4_400_000 + serial }

    static func serial(ofGameID id: Int) -> Int? { id > 4_400_000 ? id - 4_400_000 : nil }

    static func sportID(_ m: SimMatch) -> Int {
        let slug = SportsAPIPro.sport(m.sport)
        return sports.first { $0.slug == slug }?.id ?? 0
    }

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// 365Scores' startTime ("2026-11-23T14:15:00+00:00"): the scheduled time, as v2 gives it.
    static func startTime(_ m: SimMatch) -> String {
        ISODate.text(Date(timeIntervalSince1970: TimeInterval(SportsAPIPro.startTimestamp(m)))).dropLast() + "+00:00"
    }

    /// (statusGroup, statusText, shortStatusText, gameTime, gameTimeDisplay). Live soccer reads as the
    /// minute ("67'", "45+1'"), as the brief for the simulator asks; other sports read as their period.
    static func status(_ m: SimMatch) -> (Int, String, String, Int, String) {
        switch m.phase {
        case .notStarted: return (2, "Scheduled", "", -1, "")
        case .ended: return (4, "Ended", "FT", -1, "")
        case .halfTime: return (3, "Halftime", "HT", 45, "45'")
        case .live: break
        }
        switch m.sport {
        case "soccer":
            let minute = m.elapsed / 60 + 1
            let regular = m.period == "2nd Half" ? 90 : 45
            let text = minute > regular ? "\(regular)+\(minute - regular)'" : "\(minute)'"
            return (3, text, text, minute, text)
        case "basketball":
            let q = min(4, m.elapsed / 720 + 1)
            return (3, m.period, "Q\(q)", m.elapsed / 60, m.clock ?? "")
        default:
            return (3, m.period, "S\(m.setNumber)", -1, "")
        }
    }

    /// A competitor. Inferred: the public service behind this feed sends scores as whole-number floats
    /// (`2.0`, `-1.0`); the simulator sends that for games of odd serial and plain integers for the
    /// rest, so that clients meet both forms.
    /// Inferred too: a competitor with a red card carries `redCards` (365Scores sends it only then).
    static func competitor(_ name: String, score: Int, asFloat: Bool = false, redCards: Int = 0) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("id", .int(SportsAPIPro.teamID(name))), ("name", .string(name)),
                                              ("score", asFloat ? .number("\(score).0") : .int(score))]
        if redCards > 0 { members.append(("redCards", asFloat ? .number("\(redCards).0") : .int(redCards))) }
        return .object(members)
    }

    /// One game, 365Scores-style. Scores: goals, points, or sets for tennis; -1 before the start.
    static func game(_ m: SimMatch) -> JSONOutput {
        let (group, text, short, time, display) = status(m)
        let started = m.phase != .notStarted
        return .object([
            ("id", .int(gameID(m.serial))),
            ("sportId", .int(sportID(m))),
            ("competitionId", .int(100 + Int(SportsAPIPro.hash(m.league) % 9_000))),
            ("competitionDisplayName", .string(m.league)),
            ("startTime", .string(startTime(m))),
            ("statusGroup", .int(group)),
            ("statusText", .string(text)),
            ("shortStatusText", .string(short)),
            ("gameTime", .int(time)),
            ("gameTimeDisplay", .string(display)),
            ("homeCompetitor", competitor(SportsAPIPro.v1Team(m.home), score: started ? m.scoreHome : -1, asFloat: m.serial % 2 == 1,
                                          redCards: redCards(m, "home"))),
            ("awayCompetitor", competitor(SportsAPIPro.v1Team(m.away ?? ""), score: started ? m.scoreAway : -1, asFloat: m.serial % 2 == 1,
                                          redCards: redCards(m, "away"))),
        ])
    }

    static func redCards(_ m: SimMatch, _ side: String) -> Int {
        m.incidents.filter { $0.label == "Red Card" && $0.team == side }.count
    }

    static func isLive(_ m: SimMatch) -> Bool { m.phase == .live || m.phase == .halfTime }

    /// Whether `channel` ("all", "live", a sport slug) carries `m`. `live` also carries the update that says
    /// a game ended (inferred: otherwise a `live` client never learns that it did).
    static func carries(_ channel: String, _ m: SimMatch, update: Bool) -> Bool {
        switch channel {
        case "all": return true
        case "live": return isLive(m) || (update && m.phase == .ended)
        default: return SportsAPIPro.sport(m.sport) == channel
        }
    }

    static func scores(_ channel: String, _ games: [SimMatch], updateID: Int, at ms: Int = SportsAPIPro.milliseconds()) -> String {
        JSONOutput.object([("type", .string("scores")), ("channel", .string(channel)), ("games", .array(games.map(game))),
                           ("updateId", .int(updateID)), ("ts", .int(ms))]).rendered
    }

    static func matchUpdate(_ channel: String, _ m: SimMatch, updateID: Int, at ms: Int = SportsAPIPro.milliseconds()) -> String {
        JSONOutput.object([("type", .string("match-update")), ("channel", .string(channel)), ("game", game(m)),
                           ("updateId", .int(updateID)), ("ts", .int(ms))]).rendered
    }

    static func pong(at ms: Int = SportsAPIPro.milliseconds()) -> String {
        JSONOutput.object([("type", .string("pong")), ("ts", .int(ms))]).rendered
    }

    /// The same inferred error as v2's (`SportsAPIPro.error`).
    static func error(_ message: String, channel: String? = nil) -> String { SportsAPIPro.error(message, channel: channel) }
}

/// One simulated SportsAPIPro v1 client connection: `connected`, the default `all` subscription, `scores` and
/// `match-update` messages with increasing `updateId`s, and `pong`s.
// @unchecked Sendable: confined to the simulator's one event loop.
final class SportsAPIProV1Connection: ChannelInboundHandler, SimSocket, SimFrameWriting, @unchecked Sendable {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    unowned let sim: Simulator
    let provider = SimProvider.sportsapiV1
    let key: String
    /// The sport of the address (`v1.{sport}`): the docs give it no other effect.
    let sport: String
    let number: Int
    var context: ChannelHandlerContext?
    var isOpen = false
    var closeAfterFirst: Int?
    var closeSent = false
    var timers: [RepeatedTask] = []
    /// Subscribed channels in the order subscribed; `all` from the start ("default on connect").
    var channels = ["all"]

    init(sim: Simulator, head: HTTPRequestHead) {
        self.sim = sim
        let (path, query) = splitURI(head.uri)
        key = query["x-api-key"] ?? ""
        sport = SportsAPIProV1.sport(ofPath: path) ?? "football"
        number = sim.connectionCount
    }

    func start() {
        closeAfterFirst = sim.takeCloseCode()
        send(SportsAPIProV1.connectedText)
        sendCurrent("all")
    }

    /// What a channel carries now, sent on subscribing. Inferred: the docs do not say what a new subscription
    /// gets first; the simulator sends the channel's games as one `scores` (or the game as a `match-update`),
    /// as a first poll that has nothing to compare with would.
    func sendCurrent(_ channel: String) {
        if let serial = Self.matchSerial(channel) {
            guard let m = sim.sportsAPIV1Games().first(where: { $0.serial == serial }) else { return }
            send(SportsAPIProV1.matchUpdate(channel, m, updateID: sim.sportsAPI.nextUpdateID()))
            return
        }
        let games = sim.sportsAPIV1Games().filter { SportsAPIProV1.carries(channel, $0, update: false) }
        guard !games.isEmpty else { return }
        send(SportsAPIProV1.scores(channel, games, updateID: sim.sportsAPI.nextUpdateID()))
    }

    static func matchSerial(_ channel: String) -> Int? {
        guard channel.hasPrefix("match:"), let id = Int(channel.dropFirst("match:".count)) else { return nil }
        return SportsAPIProV1.serial(ofGameID: id)
    }

    func received(_ text: String) {
        guard let value = try? JSONParser.parse(text), value.isObject else {
            send(SportsAPIProV1.error("Invalid JSON"))
            return
        }
        let channel = value["channel"]?.string
        switch value["type"]?.string {
        case "ping":
            if !sim.silent { send(SportsAPIProV1.pong()) }
        case "subscribe":
            guard let channel else { send(SportsAPIProV1.error("Missing channel")); return }
            let known = SportsAPIProV1.channelNames.contains(channel)
                || Self.matchSerial(channel).map { s in sim.sportsAPIV1Games().contains { $0.serial == s } } == true
            guard known else {
                // Inferred text: the docs do not say what an unknown channel or game id gets.
                send(SportsAPIProV1.error("Unknown channel: \(channel)", channel: channel))
                return
            }
            if !channels.contains(channel) { channels.append(channel) }
            sendCurrent(channel)
        case "unsubscribe":
            // Inferred: no confirmation (the docs list none among the server messages).
            guard let channel else { send(SportsAPIProV1.error("Missing channel")); return }
            channels.removeAll { $0 == channel }
        case let type:
            send(SportsAPIProV1.error("Unknown message type: \(type ?? "none")", channel: channel))
        }
    }

    /// The games this tick changed, on every channel that carries them, each message with a new `updateId`.
    func worldChanged(_ changes: [SimChange]) {
        guard isOpen, !sim.silent else { return }
        let changed = sim.sportsAPI.v1Changed.compactMap { sim.world.match($0) }
        guard !changed.isEmpty else { return }
        for channel in channels {
            if let serial = Self.matchSerial(channel) {
                if let m = changed.first(where: { $0.serial == serial }) {
                    send(SportsAPIProV1.matchUpdate(channel, m, updateID: sim.sportsAPI.nextUpdateID()))
                }
                continue
            }
            let games = changed.filter { SportsAPIProV1.carries(channel, $0, update: true) }
            if !games.isEmpty { send(SportsAPIProV1.scores(channel, games, updateID: sim.sportsAPI.nextUpdateID())) }
        }
    }

    static let malformed = ["{\"type\":\"scores\",\"channel\":\"all\",\"games\":", "not json at all",
                            "{\"type\":\"scores\",\"channel\":\"all\",\"games\":\"oops\",\"updateId\":1}", "[1,2,3]",
                            "{\"type\":\"match-update\",\"game\":{\"homeCompetitor\":7}}"]

    func sendMalformed(_ count: Int) {
        guard isOpen, let context else { return }
        for i in 0..<count { SimFrames.text(Self.malformed[i % Self.malformed.count].utf8, on: context) }
    }
}

extension Simulator {
    /// SportsAPIPro v1's URL for one sport (`{sport}` filled in).
    public func sportsAPIV1URL(sport: String) -> String {
        webSocketURL(.sportsapiV1).replacingOccurrences(of: "{sport}", with: sport)
    }

    /// v1's games: the live ones (ended ones until the world drops them) and the pre-match fixtures.
    func sportsAPIV1Games() -> [SimMatch] {
        (world.live + world.prematch.flatMap(\.fixtures)).filter(SportsAPIPro.isGame)
    }

    /// Which live games this tick changed, as v1 renders them (its adaptive poll sends changed games).
    func sportsAPIV1Diff(_ changes: [SimChange]) {
        var changed: [Int] = []
        for m in world.live where SportsAPIPro.isGame(m) {
            let text = SportsAPIProV1.game(m).rendered
            if sportsAPI.v1Rendered[m.serial] != text {
                sportsAPI.v1Rendered[m.serial] = text
                changed.append(m.serial)
            }
        }
        for case .removed(let s) in changes { sportsAPI.v1Rendered[s] = nil }
        sportsAPI.v1Changed = changed
    }

    /// Sends one v1 `scores` message on every v1 connection with `updateId` as given (a repeated or smaller id,
    /// for tests of a client's ordering) and the channel's current games. The server's counter is not moved.
    public func sportsAPIV1SendScores(updateID: Int, channel: String = "all") async {
        await onLoop {
            let games = self.sportsAPIV1Games().filter { SportsAPIProV1.carries(channel, $0, update: false) }
            for case let c as SportsAPIProV1Connection in self.connections.values {
                c.send(SportsAPIProV1.scores(channel, games, updateID: updateID))
            }
        }
    }

    /// The last `updateId` v1 handed out.
    public var sportsAPIV1UpdateID: Int { get async { await onLoop { self.sportsAPI.v1UpdateID } } }
}
