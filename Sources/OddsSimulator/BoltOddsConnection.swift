import Foundation
import NIOCore
import NIOHTTP1
import NIOWebSocket
import OddsJSON

/// What the simulator asks of any open WebSocket, whichever provider it speaks.
package protocol SimSocket: AnyObject {
    var provider: SimProvider { get }
    var key: String { get }
    var isOpen: Bool { get }
    func worldChanged(_ changes: [SimChange])
    func send(_ text: String)
    func sendFirstHalf(_ text: String)
    func sendMalformed(_ count: Int)
    func close(code: Int, reason: String)
    func drop()
}

extension SimSocket {
    package func close(code: Int) { close(code: code, reason: "") }
}

/// A connection class of the simulator: its channel handler life cycle (added, removed, inactive, read)
/// and its frame writing are shared, from what it provides here.
protocol SimFrameWriting: ChannelInboundHandler, SimSocket, Sendable where InboundIn == WebSocketFrame {
    var sim: Simulator { get }
    var context: ChannelHandlerContext? { get set }
    var isOpen: Bool { get set }
    var timers: [RepeatedTask] { get set }
    /// A close code to send right after the next frame (`closeNextConnection`).
    var closeAfterFirst: Int? { get set }
    var closeSent: Bool { get set }
    /// The provider's greeting, once the upgrade is done.
    func start()
    /// A text message from the client.
    func received(_ text: String)
    /// A pong from the client (to a ping of ours).
    func pongReceived()
}

extension SimFrameWriting {
    /// The handler is in place: registered, and started on the next loop turn (the upgrade is still
    /// in progress while handlers are added).
    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        isOpen = true
        sim.register(self)
        context.eventLoop.execute { self.start() }
    }

    func handlerRemoved(context: ChannelHandlerContext) { finish() }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) { frameArrived(unwrapInboundIn(data), context: context) }

    func pongReceived() {}

    /// A frame from the client: text is recorded and handed on, pings answered, closes echoed
    /// (or, after our own close, the connection closed).
    func frameArrived(_ frame: WebSocketFrame, context: ChannelHandlerContext) {
        switch frame.opcode {
        case .text:
            var data = frame.unmaskedData
            let text = data.readString(length: data.readableBytes) ?? ""
            sim.recordInbound(text)
            received(text)
        case .ping:
            context.writeAndFlush(NIOAny(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .pong:
            pongReceived()
        case .connectionClose:
            if closeSent {
                // The client echoed our close: the handshake is done.
                context.close(promise: nil)
                return
            }
            var data = frame.unmaskedData
            let code = data.readWebSocketErrorCode() ?? .normalClosure
            close(code: Int(UInt16(webSocketErrorCode: code)), reason: "")
        default:
            break
        }
    }

    /// Stops the connection's timers and unregisters it.
    func finish() {
        guard isOpen else { return }
        isOpen = false
        for t in timers { t.cancel() }
        sim.unregister(self)
    }

    /// One text frame; a slow client's frames are skipped when the simulator bounds its buffer.
    func send(_ text: String) {
        guard isOpen, let context else { return }
        if sim.options.slowClientBuffer != nil, !context.channel.isWritable { sim.skippedSlow += 1; return }
        SimFrames.text(text.utf8, on: context)
        if let code = closeAfterFirst {
            closeAfterFirst = nil
            close(code: code, reason: "Simulated close")
        }
    }

    /// The first half of `text` in a frame that is not final, and never the rest.
    func sendFirstHalf(_ text: String) {
        guard isOpen, let context else { return }
        SimFrames.firstHalf(text, on: context)
    }

    /// A clean close with `code`; the TCP connection closes once the client echoes it (or after 2 s).
    func close(code: Int, reason: String) {
        guard isOpen, let context else { return }
        finish()
        closeSent = true
        SimFrames.close(code: code, reason: reason, on: context)
    }

    /// Closes the TCP connection with no close frame.
    func drop() {
        guard let context else { return }
        finish()
        context.close(promise: nil)
    }
}

/// BoltOdds' three WebSockets, by path.
enum BoltOddsFeed {
    case odds, playByPlay, liveScores

    init?(path: String) {
        switch path {
        case "/api": self = .odds
        case "/api/playbyplay": self = .playByPlay
        case "/api/livescores": self = .liveScores
        default: return nil
        }
    }
}

/// One simulated BoltOdds client connection: the odds stream, play-by-play or live scores.
// @unchecked Sendable: confined to the simulator's one event loop.
final class BoltOddsConnection: ChannelInboundHandler, SimSocket, SimFrameWriting, @unchecked Sendable {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    unowned let sim: Simulator
    let provider = SimProvider.boltodds
    let key: String
    let feed: BoltOddsFeed
    var context: ChannelHandlerContext?
    var isOpen = false
    var closeAfterFirst: Int?
    var closeSent = false
    var timers: [RepeatedTask] = []

    // Odds stream.
    /// The filters of the last applied subscribe; nil before the first.
    var filters: BoltOddsFilters?
    var lastSubscribe: NIODeadline?
    /// What this client was last sent of each game and book ("serial/book"): outcomes, and the game.
    var sent: [String: [BoltOutcome]] = [:]
    var games: [Int: BoltGameRef] = [:]

    // Play-by-play and live scores.
    /// Subscribed game labels; empty: every live game (no `games` filter); nil before the first subscribe.
    var followed: Set<String>?
    /// Games that have had their opening messages.
    var opened: Set<Int> = []

    init(sim: Simulator, head: HTTPRequestHead, feed: BoltOddsFeed) {
        self.sim = sim
        self.feed = feed
        key = splitURI(head.uri).1["key"] ?? ""
    }

    func start() {
        closeAfterFirst = sim.takeCloseCode()
        send(BoltOdds.connectedText)
        // Inferred: the docs list `ping` for the odds stream only, without a period.
        let every = sim.options.boltOddsPingInterval
        if feed == .odds, every > 0, let context {
            let ms = Int64(every * 1000)
            timers.append(context.eventLoop.scheduleRepeatedTask(initialDelay: .milliseconds(ms), delay: .milliseconds(ms)) { [weak self] _ in
                guard let self, !self.sim.silent else { return }
                self.send(BoltOdds.pingText)
            })
        }
    }

    /// A subscribe (the only message a client sends); anything else gets an error (inferred text).
    func received(_ text: String) {
        guard let value = try? JSONParser.parse(text), value["action"]?.string == "subscribe" else {
            send(BoltOdds.errorText("Invalid message. Expected {\"action\": \"subscribe\", \"filters\": {...}}."))
            return
        }
        switch feed {
        case .odds: subscribeOdds(BoltOddsFilters(value["filters"]))
        case .playByPlay, .liveScores: subscribeGames(value["filters"]?["games"]?.array?.compactMap(\.string) ?? [])
        }
    }

    // MARK: - Odds stream

    func subscribeOdds(_ new: BoltOddsFilters) {
        let now = NIODeadline.now()
        let spacing = TimeAmount.milliseconds(Int64(sim.options.boltOddsResubscribeInterval * 1000))
        if let last = lastSubscribe, now - last < spacing {
            send(BoltOdds.resubscribeLimitText)
            return
        }
        let first = filters == nil
        lastSubscribe = now
        filters = new
        sent = [:]
        if !first { send(BoltOdds.subscriptionUpdatedText) }
        // The state of every game and book the filters take, batched in arrays.
        var messages: [JSONOutput] = []
        for m in sim.boltOddsLive() {
            guard let ref = BoltOdds.ref(m), new.wants(ref) else { continue }
            games[m.serial] = ref
            for (b, book) in BoltOdds.books.enumerated() where new.wants(book: book) {
                let outcomes = BoltOdds.outcomes(m, book: b).filter { new.wants(market: $0.name) }
                guard !outcomes.isEmpty else { continue }
                sent["\(m.serial)/\(book)"] = outcomes
                messages.append(BoltOdds.message("initial_state", BoltOdds.data(ref, book: b, outcomes: outcomes)))
            }
        }
        sendBatched(messages, single: false)
    }

    /// Up to 50 messages per array frame; or one object per frame when `single`.
    func sendBatched(_ messages: [JSONOutput], single: Bool) {
        if single {
            for m in messages { send(m.rendered) }
            return
        }
        var i = 0
        while i < messages.count {
            send(JSONOutput.array(Array(messages[i..<min(i + 50, messages.count)])).rendered)
            i += 50
        }
    }

    /// `sport_clear` (with a sport) or `book_clear`, when this client's filters take them.
    func clear(sport: String?, book: String) {
        guard feed == .odds, let filters, filters.wants(book: book) else { return }
        if let sport, !(filters.sports?.contains(sport) ?? true) { return }
        send(BoltOdds.clear(sport: sport, book: book).rendered)
        // Those games are gone for the client: the next change re-sends them whole.
        for (serial, ref) in games where sport == nil || ref.sport == sport { sent["\(serial)/\(book)"] = nil }
    }

    func oddsChanged(_ changes: [SimChange]) {
        guard let filters else { return }
        var messages: [JSONOutput] = []
        let touched = Set(changes.map(\.serial))
        for c in changes {
            switch c {
            case .ended(let s), .removed(let s):
                guard let ref = games[s] else { continue }
                for (b, book) in BoltOdds.books.enumerated() where sent.removeValue(forKey: "\(s)/\(book)") != nil {
                    messages.append(BoltOdds.message("game_removed", BoltOdds.data(ref, book: b, outcomes: [])))
                }
                games[s] = nil
            default: break
            }
        }
        for m in sim.boltOddsLive() where touched.contains(m.serial) {
            guard let ref = BoltOdds.ref(m), filters.wants(ref) else { continue }
            let isNew = games[m.serial] == nil
            games[m.serial] = ref
            for (b, book) in BoltOdds.books.enumerated() where filters.wants(book: book) {
                let outcomes = BoltOdds.outcomes(m, book: b).filter { filters.wants(market: $0.name) }
                guard !outcomes.isEmpty else { continue }
                let id = "\(m.serial)/\(book)"
                guard let before = sent[id] else {
                    // A new game, or one cleared since: the whole game.
                    sent[id] = outcomes
                    messages.append(BoltOdds.message(isNew ? "game_added" : "game_update", BoltOdds.data(ref, book: b, outcomes: outcomes)))
                    continue
                }
                let changed = outcomes.filter { o in before.first { $0.key == o.key } != o }
                guard !changed.isEmpty else { continue }
                sent[id] = outcomes
                // Inferred: a few lines move one by one, most of a game at once as a whole update.
                if changed.count * 2 <= outcomes.count {
                    for o in changed { messages.append(BoltOdds.message("line_update", BoltOdds.data(ref, book: b, outcomes: [o]))) }
                } else {
                    messages.append(BoltOdds.message("game_update", BoltOdds.data(ref, book: b, outcomes: outcomes)))
                }
            }
        }
        // Both framings in one stream (inferred mix): every third tick one object per frame.
        sendBatched(messages, single: sim.world.tickCount % 3 == 0)
    }

    // MARK: - Play-by-play and live scores

    func subscribeGames(_ labels: [String]) {
        followed = Set(labels)
        let live = sim.boltOddsLive()
        for label in labels where !live.contains(where: { BoltOdds.label($0) == label }) {
            // Inferred text, in either of two wordings: the docs say only live games give updates.
            send(BoltOdds.errorText(label.utf8.count % 2 == 0 ? "Code 1: game is not live: \(label)" : "No live data available for game \(label)"))
        }
        for m in live where follows(m) && !opened.contains(m.serial) { open(m) }
    }

    func follows(_ m: SimMatch) -> Bool {
        guard let followed, let label = BoltOdds.label(m) else { return false }
        return followed.isEmpty || followed.contains(label)
    }

    /// A game's opening messages: the documented first messages of its stream, or its live score.
    func open(_ m: SimMatch) {
        opened.insert(m.serial)
        let log = sim.boltOddsLog(m)
        switch feed {
        case .playByPlay: for text in BoltOddsPlays.opening(m, log) { send(text) }
        case .liveScores: send(BoltOddsPlays.matchUpdate(m, log))
        case .odds: break
        }
    }

    func gamesChanged(_ changes: [SimChange]) {
        guard followed != nil else { return }
        var touched: [Int: Bool] = [:]
        for c in changes { touched[c.serial] = true }
        for m in sim.boltOddsLive(ended: true) where follows(m) {
            let serial = m.serial
            if !opened.contains(serial) {
                if m.phase != .ended { open(m) }
                continue
            }
            let log = sim.boltOddsLog(m)
            switch feed {
            case .playByPlay:
                for text in BoltOddsPlays.updates(m, log, tick: sim.world.tickCount) { send(text) }
            case .liveScores:
                // On each score, card or period change, and on each tennis game.
                let fresh = log.plays.contains { $0.tick == sim.world.tickCount && $0.major }
                if touched[serial] == true || fresh { send(BoltOddsPlays.matchUpdate(m, log)) }
            case .odds: break
            }
        }
    }

    func worldChanged(_ changes: [SimChange]) {
        guard isOpen, !sim.silent else { return }
        switch feed {
        case .odds: oddsChanged(changes)
        case .playByPlay, .liveScores: gamesChanged(changes)
        }
    }

    static let malformed = ["[{\"action\":\"line_update\",\"data\":", "not json at all", "{\"action\":\"initial_state\",\"data\":7}",
                            "[1,2,3]", "{\"action\":\"game_update\",\"data\":{\"outcomes\":\"oops\"}}"]

    func sendMalformed(_ count: Int) {
        guard isOpen, let context else { return }
        for i in 0..<count { SimFrames.text(Self.malformed[i % Self.malformed.count].utf8, on: context) }
    }
}
