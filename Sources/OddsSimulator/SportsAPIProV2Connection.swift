import Foundation
import NIOCore
import NIOHTTP1
import NIOWebSocket
import OddsJSON

/// One simulated SportsAPIPro v2 client connection (/work/shared/providers/sportsapipro-v2.txt): `welcome` on
/// connect, then channel subscriptions with a `snapshot` each, `update`s pushed from world changes ("nats") and
/// from the safety-net polls ("poll"), and `pong`s.
// @unchecked Sendable: confined to the simulator's one event loop.
final class SportsAPIProV2Connection: ChannelInboundHandler, SimSocket, SimFrameWriting, @unchecked Sendable {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    unowned let sim: Simulator
    let provider = SimProvider.sportsapi
    let key: String
    /// The sport `live-scores` is scoped to (`x-sport`, default football).
    let sport: String
    /// An `x-sport` value the docs do not list, answered with an error after `welcome`.
    let unknownSport: String?
    /// The order the connection was opened in, for the test hooks.
    let number: Int
    var context: ChannelHandlerContext?
    var isOpen = false
    var closeAfterFirst: Int?
    var closeSent = false
    var timers: [RepeatedTask] = []
    /// Subscribed channel names, in the order subscribed.
    var channels: [String] = []
    /// `:stats` data last sent per channel: a triggered fetch that finds nothing new sends nothing.
    var lastStats: [String: String] = [:]

    init(sim: Simulator, head: HTTPRequestHead) {
        self.sim = sim
        let query = splitURI(head.uri).1
        key = query["x-api-key"] ?? head.headers.first(name: "x-api-key") ?? ""
        let requested = head.headers.first(name: "x-sport")?.trimmingCharacters(in: .whitespaces).lowercased()
        if let requested, !requested.isEmpty, !SportsAPIProV2.sports.contains(requested) {
            // Inferred: the docs do not say how an unsupported x-sport is treated. The simulator keeps the
            // connection, scopes live-scores to the default, and says so in an error after `welcome`.
            sport = SportsAPIProV2.defaultSport
            unknownSport = requested
        } else {
            sport = requested.flatMap { $0.isEmpty ? nil : $0 } ?? SportsAPIProV2.defaultSport
            unknownSport = nil
        }
        number = sim.connectionCount
    }

    func start() {
        closeAfterFirst = sim.takeCloseCode()
        send(SportsAPIProV2.welcome(sport: sport, nats: sim.sportsAPI.natsConnected))
        if let unknownSport {
            send(SportsAPIProV2.error("Unsupported sport '\(unknownSport)'; live-scores is scoped to \(sport)"))
        }
        let options = sim.options
        // The safety-net polls run whatever NATS does; without NATS, live scores, match scores and odds are
        // polled on the incidents' cadence too (inferred: the docs give those channels no poll).
        every(options.sportsAPIIncidentsPollInterval) { $0.poll($0.sim.sportsAPI.natsConnected ? [.incidents] : [.incidents, .score, .odds]) }
        every(options.sportsAPIStatsPollInterval) { $0.poll([.stats]) }
        every(options.sportsAPILineupsPollInterval) { $0.poll([.lineups]) }
    }

    func every(_ seconds: TimeInterval, _ body: @escaping @Sendable (SportsAPIProV2Connection) -> Void) {
        guard seconds > 0, let context else { return }
        let ms = TimeAmount.milliseconds(Int64(seconds * 1000))
        timers.append(context.eventLoop.scheduleRepeatedTask(initialDelay: ms, delay: ms) { [weak self] _ in
            guard let self, self.isOpen, !self.sim.silent else { return }
            body(self)
        })
    }

    // MARK: - Client messages

    func received(_ text: String) {
        guard let value = try? JSONParser.parse(text), value.isObject else {
            send(SportsAPIProV2.error("Invalid JSON"))
            return
        }
        let channel = value["channel"]?.string
        switch value["action"]?.string {
        case "subscribe":
            guard let channel else { send(SportsAPIProV2.error("Missing channel")); return }
            subscribe(channel)
        case "unsubscribe":
            guard let channel else { send(SportsAPIProV2.error("Missing channel")); return }
            channels.removeAll { $0 == channel }
            lastStats[channel] = nil
            send(SportsAPIProV2.unsubscribed(channel))
        case "ping":
            if !sim.silent { send(SportsAPIProV2.pong(channel)) }
        case let action:
            send(SportsAPIProV2.error("Unknown action: \(action ?? "none")", channel: channel))
        }
    }

    func subscribe(_ name: String) {
        guard let channel = SportsAPIProV2.Channel(name) else {
            send(SportsAPIProV2.error("Unknown channel: \(name)", channel: name))
            return
        }
        if case .match(let serial, _) = channel, match(serial) == nil {
            // Inferred text: the docs do not say what an unknown match id gets.
            send(SportsAPIProV2.error("Match not found: \(name.split(separator: ":")[1])", channel: name))
            return
        }
        if case .match(_, .odds) = channel, let refusal = sim.sportsAPIOddsRefusal {
            if !refusal.isEmpty { send(SportsAPIProV2.error(refusal, channel: name)) }
            return
        }
        if !channels.contains(name) { channels.append(name) }
        send(SportsAPIProV2.subscribed(name, mode: SportsAPIProV2.mode(channel, options: sim.options)))
        if let data = data(channel) {
            if case .match(_, .stats) = channel { lastStats[name] = data.rendered }
            send(SportsAPIProV2.snapshot(name, data))
        }
    }

    // MARK: - Data

    /// A SportsAPIPro match: a live or pre-match world match with two sides.
    func match(_ serial: Int) -> SimMatch? {
        sim.world.anyMatch(serial).flatMap { SportsAPIPro.isGame($0) ? $0 : nil }
    }

    func liveEvents(_ sport: String?, only serials: Set<Int>? = nil) -> [SimMatch] {
        let wanted = sport ?? self.sport
        return sim.world.live.filter {
            SportsAPIPro.isGame($0) && SportsAPIPro.sport($0.sport) == wanted && (serials?.contains($0.serial) ?? true)
        }
    }

    func data(_ channel: SportsAPIProV2.Channel) -> JSONOutput? {
        switch channel {
        case .liveScores(let sport): return SportsAPIProV2.liveScores(liveEvents(sport), state: sim.sportsAPI)
        case .match(let serial, let part):
            guard let m = match(serial) else { return nil }
            return SportsAPIProV2.data(part, m, state: sim.sportsAPI)
        }
    }

    func part(_ channel: SportsAPIProV2.Channel) -> SportsAPIProV2.Part {
        if case .match(_, let part) = channel { return part }
        return .score
    }

    /// A safety-net poll of the channels carrying `parts` (live scores count as `.score`): their full data again.
    func poll(_ parts: Set<SportsAPIProV2.Part>) {
        guard isOpen, !sim.silent else { return }
        for name in channels {
            guard let channel = SportsAPIProV2.Channel(name), parts.contains(part(channel)), let data = data(channel) else { continue }
            if case .match(_, .stats) = channel { lastStats[name] = data.rendered }
            send(SportsAPIProV2.update(name, data, source: "poll"))
        }
    }

    /// NATS pushes: live scores and match scores on score, status and start changes; incidents re-fetched on
    /// those and on incidents; stats re-fetched on any change of the match (sent when they differ); odds on
    /// price and suspension changes. Lineups are polled only, as documented.
    func worldChanged(_ changes: [SimChange]) {
        guard isOpen, !sim.silent, sim.sportsAPI.natsConnected, !channels.isEmpty else { return }
        var scored = Set<Int>(), incident = Set<Int>(), priced = Set<Int>(), touched = Set<Int>()
        for c in changes {
            touched.insert(c.serial)
            switch c {
            case .started, .score, .period, .ended: scored.insert(c.serial); incident.insert(c.serial)
            case .incident: incident.insert(c.serial)
            case .odds, .suspended: priced.insert(c.serial)
            case .removed: break
            }
        }
        for name in channels {
            guard let channel = SportsAPIProV2.Channel(name) else { continue }
            switch channel {
            case .liveScores(let sport):
                let events = liveEvents(sport, only: scored)
                if !events.isEmpty { send(SportsAPIProV2.update(name, SportsAPIProV2.liveScores(events, state: sim.sportsAPI), source: "nats")) }
            case .match(let serial, let part):
                let due: Bool
                switch part {
                case .score: due = scored.contains(serial)
                case .incidents: due = incident.contains(serial)
                case .stats: due = touched.contains(serial)
                case .odds: due = priced.contains(serial)
                case .lineups: due = false
                }
                guard due, let data = data(channel) else { continue }
                if part == .stats {
                    let text = data.rendered
                    if lastStats[name] == text { continue }
                    lastStats[name] = text
                }
                // Fetched on the change, so it arrives after the change's own push (full time's incident after
                // the finished status): the data as of the change, so a match gone by then still has its last word.
                let delay = sim.options.sportsAPIFetchDelay
                if (part == .incidents || part == .stats), delay > 0, let context {
                    context.eventLoop.scheduleTask(in: .milliseconds(Int64(delay * 1000))) { [weak self] in
                        guard let self, self.isOpen, !self.sim.silent else { return }
                        self.send(SportsAPIProV2.update(name, data, source: "nats"))
                    }
                } else {
                    send(SportsAPIProV2.update(name, data, source: "nats"))
                }
            }
        }
    }

    static let malformed = ["{\"channel\":\"live-scores\",\"type\":\"update\",\"data\":", "not json at all",
                            "{\"type\":\"snapshot\",\"channel\":7,\"data\":\"oops\"}", "[1,2,3]",
                            "{\"type\":\"update\",\"channel\":\"live-scores\",\"data\":{\"events\":\"oops\"}}"]

    func sendMalformed(_ count: Int) {
        guard isOpen, let context else { return }
        for i in 0..<count { SimFrames.text(Self.malformed[i % Self.malformed.count].utf8, on: context) }
    }
}
