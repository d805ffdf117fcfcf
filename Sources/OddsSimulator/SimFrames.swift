import NIOCore
import NIOWebSocket

/// Writing WebSocket frames to a simulated client: shared by every provider's connection handler.
enum SimFrames {
    /// One text frame (not final when `fin` is false).
    static func text(_ bytes: some Collection<UInt8>, fin: Bool = true, on context: ChannelHandlerContext) {
        let frame = WebSocketFrame(fin: fin, opcode: .text, data: context.channel.allocator.buffer(bytes: bytes))
        context.writeAndFlush(NIOAny(frame), promise: nil)
    }

    /// The first half of `text` in a frame that is not final, and never the rest: the client is left
    /// in the middle of a message (tests of quitting mid-snapshot).
    static func firstHalf(_ text: String, on context: ChannelHandlerContext) {
        let bytes = Array(text.utf8)
        SimFrames.text(bytes[0..<(bytes.count / 2)], fin: false, on: context)
    }

    /// A close frame with `code`. As RFC 6455 asks, the TCP connection is closed once the client
    /// echoes the close (or after 2 s), not at once.
    static func close(code: Int, reason: String, on context: ChannelHandlerContext) {
        var data = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        data.write(webSocketErrorCode: WebSocketErrorCode(codeNumber: code))
        data.writeString(reason)
        context.writeAndFlush(NIOAny(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)), promise: nil)
        let channel = context.channel
        channel.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
    }
}
