import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

/// Where a REST request or a WebSocket upgrade goes, read from its URL.
struct HTTPTarget: Sendable {
    var tls: Bool
    var host: String
    var port: Int
    /// Path and query, percent-encoded as given ("/v1/live?sport=soccer").
    var uri: String
    /// The Host header: the host, with the port when the URL names one.
    var hostHeader: String
    /// Scheme, host and port: connections are kept and reused per origin.
    var origin: String { "\(tls ? "https" : "http")://\(host):\(port)" }

    /// Nil unless the URL has one of the two schemes (`plain`, or `secure` for TLS), a host and a valid port.
    init?(_ url: String, plain: String = "http", secure: String = "https") {
        guard let parsed = URLComponents(string: url), let scheme = parsed.scheme?.lowercased(),
              scheme == plain || scheme == secure, let host = parsed.host, !host.isEmpty else { return nil }
        tls = scheme == secure
        self.host = host
        port = parsed.port ?? (tls ? 443 : 80)
        guard (1...65535).contains(port) else { return nil }
        uri = parsed.percentEncodedPath.isEmpty ? "/" : parsed.percentEncodedPath
        if let query = parsed.percentEncodedQuery { uri += "?" + query }
        let named = host.contains(":") ? "[\(host)]" : host
        hostHeader = parsed.port.map { "\(named):\($0)" } ?? named
    }

    /// The host as an address when it is one (an IPv4 or IPv6 literal), to be connected to as it is: NIO's
    /// resolver would look it up on its blocking pool first.
    var address: SocketAddress? { try? SocketAddress(ipAddress: host, port: port) }

    /// The name sent as TLS SNI: the host, unless it is an address (which must not be sent).
    var serverName: String? {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1 ? nil : host
    }

    /// A bootstrap for a connection to this target, with `transport`'s options and `timeout` to connect.
    func bootstrap(_ transport: Transport, timeout: TimeAmount) -> ClientBootstrap {
        ClientBootstrap(group: transport.group)
            .connectTimeout(timeout)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
    }
}

/// One response, whole, as read from a connection.
struct HTTPResponseRead: Sendable {
    var head: HTTPResponseHead
    var body: ByteBuffer
}

/// Why an exchange on a connection failed below the HTTP status.
enum HTTPExchangeError: Error, Equatable {
    /// The connection closed before the response ended; `headRead` when its status had come.
    case closed(headRead: Bool)
    /// The (decompressed) body grew past the bound (the transport's `maxBodySize`).
    case bodyTooLarge
}

/// Reads one response at a time on a kept-alive HTTP/1.1 connection and hands it whole to the request's
/// promise. Used on the channel's event loop only.
final class ResponseCollector: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private struct Pending {
        var promise: EventLoopPromise<HTTPResponseRead>
        var limit: Int
        var head: HTTPResponseHead?
        var body: ByteBuffer?
    }
    private var pending: Pending?
    private var context: ChannelHandlerContext?

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }
    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        fail(HTTPExchangeError.closed(headRead: pending?.head != nil))
    }

    /// Sends a request; `promise` gets its response. One request at a time: the caller waits for the last.
    /// A connection found closed is `closed(headRead: false)` whatever closed it (a kept one is then tried
    /// again on a new connection; a new one is reported with its pipeline's first error).
    func send(_ head: HTTPRequestHead, body: ByteBuffer?, limit: Int, promise: EventLoopPromise<HTTPResponseRead>) {
        guard let context, context.channel.isActive, pending == nil else {
            promise.fail(HTTPExchangeError.closed(headRead: false))
            return
        }
        pending = Pending(promise: promise, limit: limit)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if let body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard var current = pending else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            current.head = head
            pending = current
        case .body(var part):
            let had = current.body?.readableBytes ?? 0
            guard had + part.readableBytes <= current.limit else {
                fail(HTTPExchangeError.bodyTooLarge)
                context.close(promise: nil)
                return
            }
            pending = nil  // the buffer is written in place, not copied
            if current.body == nil { current.body = part } else { current.body!.writeBuffer(&part) }
            pending = current
        case .end:
            pending = nil
            guard let head = current.head else {
                current.promise.fail(HTTPExchangeError.closed(headRead: false))
                return
            }
            current.promise.succeed(HTTPResponseRead(head: head, body: current.body ?? ByteBuffer()))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(HTTPExchangeError.closed(headRead: pending?.head != nil))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A TLS peer that closes without close_notify after the response is not a failure of the
        // response; an end of input before the response ends is reported by channelInactive.
        if let tls = error as? NIOSSLError, tls == .uncleanShutdown { return }
        fail(error)
        context.close(promise: nil)
    }

    private func fail(_ error: Error) {
        guard let current = pending else { return }
        pending = nil
        current.promise.fail(error)
    }
}

/// One kept-alive HTTP/1.1 connection: TLS when the origin is https, responses decompressed (the request
/// says it accepts gzip and deflate) up to the body bound. Both steps are futures on the connection's event
/// loop, chained there: a request never waits for a thread of the task pool between connecting and sending.
struct HTTPConnection: Sendable {
    let channel: Channel
    /// The first error its pipeline saw: a TLS handshake that fails before the request is written closes the
    /// connection, and the request then only finds it closed.
    let errors: FirstErrorRecorder

    /// Connects to `target`'s origin within `timeout`.
    static func connect(to target: HTTPTarget, transport: Transport, bodyLimit: Int,
                        timeout: TimeAmount) -> EventLoopFuture<HTTPConnection> {
        let errors = FirstErrorRecorder()
        let sslContext: NIOSSLContext?
        do { sslContext = target.tls ? try transport.clientSSLContext() : nil } catch {
            return transport.group.next().makeFailedFuture(error)
        }
        let serverName = target.serverName
        let bootstrap = target.bootstrap(transport, timeout: timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let ops = channel.pipeline.syncOperations
                    if let sslContext {
                        try ops.addHandlers(NIOSSLClientHandler(context: sslContext, serverHostname: serverName), errors)
                    }
                    try ops.addHTTPClientHandlers()
                    try ops.addHandler(NIOHTTPResponseDecompressor(limit: .size(bodyLimit)))
                    try ops.addHandler(ResponseCollector())
                }
            }
        let connecting = target.address.map { bootstrap.connect(to: $0) } ?? bootstrap.connect(host: target.host, port: target.port)
        return connecting.map { HTTPConnection(channel: $0, errors: errors) }
    }

    /// Sends a request on the connection; the future gets its response whole.
    func send(_ head: HTTPRequestHead, body: [UInt8]?, limit: Int) -> EventLoopFuture<HTTPResponseRead> {
        let channel = self.channel
        let promise = channel.eventLoop.makePromise(of: HTTPResponseRead.self)
        let bytes = body.map { ByteBuffer(bytes: $0) }
        channel.eventLoop.execute {
            do {
                try channel.pipeline.syncOperations.handler(type: ResponseCollector.self)
                    .send(head, body: bytes, limit: limit, promise: promise)
            } catch {
                promise.fail(HTTPExchangeError.closed(headRead: false))
            }
        }
        let errors = self.errors
        // A fresh connection closed before anything was read: its pipeline's error says why (a TLS handshake).
        return promise.futureResult.flatMapErrorThrowing { error in
            if case HTTPExchangeError.closed(headRead: false) = error, let cause = errors.error { throw cause }
            throw error
        }
    }
}
