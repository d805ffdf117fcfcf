import Foundation
import NIOCore
import NIOHTTP1
import NIOWebSocket
import OddsJSON

/// One simulated WebSocket client connection of a provider whose client sends little (PulseScore, TickOdds):
/// the life cycle, pings and faults here; what the provider sends, in its subclass beside its wire format
/// (`PulseScoreConnection`, `TickOddsConnection`).
// @unchecked Sendable: the simulator runs on one event loop, and every use of a connection is on it.
class SimConnection: ChannelInboundHandler, SimSocket, SimFrameWriting, @unchecked Sendable {
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

    init(sim: Simulator, provider: SimProvider, key: String, sport: String?) {
        self.sim = sim
        self.provider = provider
        self.key = key
        self.sport = sport
    }

    /// The provider's greeting, once the upgrade is done (its subclass's).
    func start() {}

    /// Whether the connection carries this match.
    func wants(_ m: SimMatch) -> Bool { false }

    /// What the provider sends when the world moves.
    func worldChanged(_ changes: [SimChange]) {}

    /// A text message from the client.
    func received(_ text: String) {}

    func ping() {
        guard isOpen, !sim.silent, let context else { return }
        if unansweredPings >= 2 { close(code: 1001, reason: "Ping timeout"); return }
        unansweredPings += 1
        let frame = WebSocketFrame(fin: true, opcode: .ping, data: context.channel.allocator.buffer(string: "sim"))
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }

    func pongReceived() { unansweredPings = 0 }

    static let malformed = ["{\"type\":\"data\",\"events\":", "not json at all", "{\"type\":\"data\",\"events\":\"oops\"}",
                            "[1,2,3]", "{\"type\":\"update\",\"change\":\"score\"}"]

    /// The `i`th malformed message of `sendMalformed`.
    func malformed(_ i: Int) -> String { SimConnection.malformed[i % SimConnection.malformed.count] }

    func sendMalformed(_ count: Int) {
        guard isOpen, let context else { return }
        for i in 0..<count { SimFrames.text(malformed(i).utf8, on: context) }
    }
}
