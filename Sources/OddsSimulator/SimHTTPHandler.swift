import Foundation
import NIOCore
import NIOHTTP1
import OddsJSON

/// Serves the REST endpoints of every simulated provider (and nothing else: no URL reaches a fault switch).
// @unchecked Sendable: the simulator runs on one event loop, and every use of a handler is on it.
final class SimHTTPHandler: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    unowned let sim: Simulator
    var head: HTTPRequestHead?
    /// The request body so far (BoltOdds' POSTs), at most `maxBody` bytes.
    var body: [UInt8] = []
    var bodyTooLarge = false
    static let maxBody = 1 << 20

    init(sim: Simulator) { self.sim = sim }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h):
            head = h
            body = []
            bodyTooLarge = false
        case .body(var chunk):
            if body.count + chunk.readableBytes > Self.maxBody { bodyTooLarge = true; body = [] }
            if !bodyTooLarge { body += chunk.readBytes(length: chunk.readableBytes) ?? [] }
        case .end:
            guard let head else { return }
            let (status, text, extra) = bodyTooLarge ? Simulator.error(413, "Request body too large") : sim.route(head, body: body)
            respond(context: context, head: head, status: status, body: text, headers: extra)
            self.head = nil
            body = []
        }
    }

    func respond(context: ChannelHandlerContext, head: HTTPRequestHead, status: Int, body: String, headers extra: [(String, String)]) {
        var buffer = context.channel.allocator.buffer(capacity: body.utf8.count)
        buffer.writeString(body)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.add(name: "Content-Length", value: String(buffer.readableBytes))
        for (n, v) in extra { headers.add(name: n, value: v) }
        let keepAlive = head.isKeepAlive
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        let response = HTTPResponseHead(version: head.version, status: HTTPResponseStatus(statusCode: status), headers: headers)
        context.write(wrapOutboundOut(.head(response)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            if !keepAlive { bound.value.close(promise: nil) }
        }
    }
}

extension Simulator {
    static let pulseScoreBase = "/api/v2/bet365"
    static let pulseScoreSports = ["soccer", "tennis", "basketball", "ice-hockey", "volleyball", "handball", "table-tennis",
                                   "e-sports", "american-football", "baseball", "rugby-league", "rugby-union"]
    static let pulseScorePrematchSports = ["soccer", "tennis", "basketball", "ice-hockey", "american-football", "horse-racing",
                                           "volleyball", "handball", "table-tennis", "e-sports", "baseball", "greyhounds"]

    static func error(_ status: Int, _ message: String) -> (Int, String, [(String, String)]) {
        (status, JSONOutput.object([("error", .string(message)), ("status", .int(status))]).rendered, [])
    }

    /// Live matches per sport, in order of first appearance.
    static func sportCounts(_ live: [SimMatch]) -> [(String, Int)] {
        var counts: [(String, Int)] = []
        for m in live {
            if let i = counts.firstIndex(where: { $0.0 == m.sport }) { counts[i].1 += 1 } else { counts.append((m.sport, 1)) }
        }
        return counts
    }

    /// Answers one REST request (on the loop).
    func route(_ head: HTTPRequestHead, body: [UInt8] = []) -> (Int, String, [(String, String)]) {
        let (path, query) = splitURI(head.uri)
        requestCount += 1
        for service in Simulator.services {
            if let answer = service.route(self, head, path, query, body) { return answer }
        }
        return head.method == .GET ? Self.error(404, "Not found") : Self.error(405, "Method not allowed")
    }

    /// Key check, forced failures and (for PulseScore) the 3 req/s limit, then the handler.
    func guarded(key: String?, rateLimited limited: Bool, _ body: () -> (Int, String, [(String, String)])) -> (Int, String, [(String, String)]) {
        guard let key, options.keys[key] != nil else { return Self.error(401, "Invalid or missing API key") }
        if !failREST.isEmpty {
            let failure = failREST[0]
            failREST[0].remaining -= 1
            if failREST[0].remaining <= 0 { failREST.removeFirst() }
            var answer = Self.error(failure.status, failure.status == 429 ? "Rate limit exceeded" : "Simulated failure")
            if let after = failure.retryAfter { answer.2 = [("Retry-After", after)] }
            return answer
        }
        if limited && options.enforceRateLimit {
            let now = Date()
            var log = restLog[key, default: []].filter { now.timeIntervalSince($0) < 1 }
            if log.count >= 3 {
                rateLimited += 1
                restLog[key] = log
                return Self.error(429, "Rate limit exceeded")
            }
            log.append(now)
            restLog[key] = log
        }
        return body()
    }
}
