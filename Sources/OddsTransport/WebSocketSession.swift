import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOWebSocket
import OddsModel
import WebSocketKit

/// What a WebSocket connection delivers.
public enum WebSocketEvent: Sendable {
    case text(String)
    /// The connection ended; `code` is the close code when the server sent one.
    case closed(code: Int?)
}

/// One open WebSocket connection. Answers the server's pings itself (websocket-kit does).
public final class WebSocketSession: @unchecked Sendable {
    private let socket: WebSocket
    /// Text frames and the final close, in order.
    public let events: AsyncStream<WebSocketEvent>

    private init(socket: WebSocket, events: AsyncStream<WebSocketEvent>) {
        self.socket = socket
        self.events = events
    }

    /// Opens a connection, sending `headers` on the upgrade request.
    public static func connect(url: String, headers: [(String, String)], transport: Transport,
                               timeout: TimeInterval = 10) async throws -> WebSocketSession {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
              scheme == "ws" || scheme == "wss", parsed.host != nil else {
            throw TransportError.invalidURL(transport.redactor.redact(url))
        }
        var config = WebSocketClient.Configuration()
        config.maxFrameSize = transport.maxFrameSize
        config.maxAccumulatedFrameSize = transport.maxFrameSize
        var httpHeaders = HTTPHeaders()
        for (n, v) in headers { httpHeaders.add(name: n, value: v) }
        transport.logger.debug("WebSocket connect \(transport.redactor.redact(url))")

        let (stream, continuation) = AsyncStream<WebSocketEvent>.makeStream(bufferingPolicy: .unbounded)
        let box = NIOLockedValueBox<WebSocket?>(nil)
        let future = WebSocket.connect(to: url, headers: httpHeaders, configuration: config, on: transport.group) { ws in
            box.withLockedValue { $0 = ws }
            ws.onText { _, text in continuation.yield(.text(text)) }
            ws.onBinary { _, buffer in
                continuation.yield(.text(String(buffer: buffer)))
            }
            ws.onClose.whenComplete { _ in
                let code = ws.closeCode.map { Int(UInt16(webSocketErrorCode: $0)) }
                continuation.yield(.closed(code: code))
                continuation.finish()
            }
        }
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await future.get() }
                group.addTask {
                    try await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
                    throw TransportError.timedOut("WebSocket connect to \(transport.redactor.redact(url))")
                }
                try await group.next()
                group.cancelAll()
            }
        } catch let error as WebSocketClient.Error {
            continuation.finish()
            if case .invalidResponseStatus(let head) = error {
                throw TransportError.upgradeRejected(status: Int(head.status.code))
            }
            throw TransportError.connectionFailed(transport.redactor.redact(String(describing: error)))
        } catch let error as TransportError {
            continuation.finish()
            if let ws = box.withLockedValue({ $0 }) { ws.close(code: .goingAway, promise: nil) }
            throw error
        } catch {
            continuation.finish()
            throw TransportError.connectionFailed(transport.redactor.redact(String(describing: error)))
        }
        guard let ws = box.withLockedValue({ $0 }) else {
            throw TransportError.connectionFailed("WebSocket upgrade did not complete")
        }
        return WebSocketSession(socket: ws, events: stream)
    }

    public func send(_ text: String) {
        socket.send(text)
    }

    /// Closes with a normal close frame; the `events` stream then ends.
    public func close() async {
        try? await socket.close(code: .normalClosure).get()
    }

    /// Drops the connection without a close handshake (used after a heartbeat timeout).
    public func abort() {
        socket.close(code: .goingAway, promise: nil)
    }
}
