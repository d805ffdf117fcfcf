import Foundation
import NIOCore
import NIOHTTP1
import NIOWebSocket
import OddsJSON

/// One simulated WebSocket client connection, PulseScore or TickOdds by its path.
// @unchecked Sendable: the simulator runs on one event loop, and every use of a connection is on it.
final class SimConnection: ChannelInboundHandler, SimSocket, SimFrameWriting, @unchecked Sendable {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    unowned let sim: Simulator
    let provider: SimProvider
    let key: String
    let sport: String?
    var context: ChannelHandlerContext?
    var isOpen = false
    var subscriptions: Set<String>?
    var snapshotSent = false
    var closeAfterFirst: Int?
    /// Pings sent and not yet answered; two in a row disconnect the client.
    var unansweredPings = 0
    var timers: [RepeatedTask] = []
    var closeSent = false

    init(sim: Simulator, head: HTTPRequestHead) {
        self.sim = sim
        let (path, query) = splitURI(head.uri)
        if path == "/ws/live" {
            provider = .tickodds
            key = query["apiKey"] ?? ""
            sport = nil
        } else {
            provider = .pulsescore
            key = query["key"] ?? ""
            sport = query["sport"]
        }
    }

    func start() {
        guard let plan = sim.options.keys[key] else { close(code: 4001, reason: "Authentication failed"); return }
        switch provider {
        case .pulsescore:
            if sim.options.expiredKeys.contains(key) { close(code: 4010, reason: "API key expired"); return }
            if plan == .basic { close(code: 4003, reason: "Plan limit reached"); return }
            guard let sport, Simulator.pulseScoreSports.contains(sport) else { close(code: 4004, reason: "Invalid sport"); return }
            if sim.openConnections(provider: .pulsescore, key: key) > plan.connectionLimit {
                close(code: 4029, reason: "Connection limit reached"); return
            }
            closeAfterFirst = sim.takeCloseCode()
            broadcast()
        case .tickodds:
            // Plan and connection limit were checked at the upgrade: TickOdds documents no close codes.
            closeAfterFirst = sim.takeCloseCode()
            // "Sent once on connect — current state of all live events"; a subscribe filters what follows.
            sendSnapshot()
            let hb = Int64(sim.options.heartbeatInterval * 1000)
            if let t = context?.eventLoop.scheduleRepeatedTask(initialDelay: .milliseconds(hb), delay: .milliseconds(hb), { [weak self] _ in
                guard let self, !self.sim.silent else { return }
                self.send(TickOddsFormat.heartbeat(Date()))
            }) { timers.append(t) }
            // Only TickOdds documents server pings.
            let ping = Int64(sim.options.pingInterval * 1000)
            if let t = context?.eventLoop.scheduleRepeatedTask(initialDelay: .milliseconds(ping), delay: .milliseconds(ping), { [weak self] _ in
                self?.ping()
            }) { timers.append(t) }
        default:
            break // This handler serves PulseScore's and TickOdds' sockets only.
        }
    }

    func ping() {
        guard isOpen, !sim.silent, let context else { return }
        if unansweredPings >= 2 { close(code: 1001, reason: "Ping timeout"); return }
        unansweredPings += 1
        let frame = WebSocketFrame(fin: true, opcode: .ping, data: context.channel.allocator.buffer(string: "sim"))
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }

    func pongReceived() { unansweredPings = 0 }

    func wants(_ m: SimMatch) -> Bool {
        switch provider {
        case .pulsescore: return m.sport == sport
        case .tickodds:
            guard let subs = subscriptions else { return true }
            return subs.contains("all") || subs.contains(PulseScoreFormat.sportName(m.sport))
        default: return false
        }
    }

    func worldChanged(_ changes: [SimChange]) {
        guard isOpen, !sim.silent else { return }
        switch provider {
        case .pulsescore:
            broadcast()
        case .tickodds:
            guard snapshotSent else { return }
            for change in changes {
                let m = sim.world.match(change.serial)
                if let m, !wants(m) || !SimWorld.carries(m, .tickodds) { continue }
                for message in TickOddsFormat.messages(for: change, world: sim.world) { send(message) }
            }
        default: break
        }
    }

    static let malformed = ["{\"type\":\"data\",\"events\":", "not json at all", "{\"type\":\"data\",\"events\":\"oops\"}",
                            "[1,2,3]", "{\"type\":\"update\",\"change\":\"score\"}"]

    func sendMalformed(_ count: Int) {
        guard isOpen, let context else { return }
        for i in 0..<count {
            var text = SimConnection.malformed[i % SimConnection.malformed.count]
            if provider == .tickodds, i % SimConnection.malformed.count == 2 { text = "{\"type\":\"snapshot\",\"events\":7}" }
            SimFrames.text(text.utf8, on: context)
        }
    }
}
