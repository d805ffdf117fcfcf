import NIOCore
import NIOWebSocket

/// What the client makes of the bytes a WebSocket server sends.
enum WebSocketInput: Equatable {
    /// A whole data message smaller than `WebSocketReader.streamFrom`, in a buffer of its own.
    case message(ByteBuffer)
    /// The next bytes of a larger data message as they arrived (a slice of the read buffer); `final`
    /// on its last part.
    case part(ByteBuffer, final: Bool)
    case ping(ByteBuffer)
    case pong
    case close(ByteBuffer)
}

/// Why a server's bytes cannot be read as WebSocket frames (the connection is then closed).
enum WebSocketReadError: Error, Equatable {
    /// A frame or message larger than the bound.
    case tooLarge
    /// Bytes RFC 6455 does not allow (a control frame fragmented or over 125 bytes, a continuation
    /// with no message to continue, a reserved opcode, a 64-bit length with its top bit set).
    case violation(String)
}

/// RFC 6455 frames read from the bytes as they arrive, fragments put together into messages. A
/// message under `streamFrom` bytes is handed on whole; a larger one is handed on in parts as its
/// bytes arrive, so that a frame of tens of MB (BoltOdds' initial state) need never be held whole
/// (NIO's own decoder holds a frame until its last byte). Pure: the socket's handler feeds it.
struct WebSocketReader {
    /// Messages of this size or more are handed on in parts.
    static let defaultStreamFrom = 1 << 20

    /// Largest frame, and largest message with its fragments together.
    let maxMessageSize: Int
    let streamFrom: Int

    init(maxMessageSize: Int, streamFrom: Int = WebSocketReader.defaultStreamFrom) {
        self.maxMessageSize = maxMessageSize
        self.streamFrom = streamFrom
    }

    private struct Frame {
        var opcode: UInt8
        var fin: Bool
        var remaining: Int
        var mask: WebSocketMaskingKey?
        var maskOffset = 0
        var isControl: Bool { opcode & 0x8 != 0 }
    }

    private enum Message {
        case none
        /// Put together in a buffer of its own.
        case whole(ByteBuffer)
        /// Handed on in parts; `size` bytes so far.
        case parts(size: Int)
    }

    /// The header read so far (at most 14 bytes).
    private var head: [UInt8] = []
    private var frame: Frame?
    private var message = Message.none
    private var control = ByteBuffer()

    /// Reads what `buffer` holds (all of it), appending what it completes to `out`.
    mutating func read(_ buffer: inout ByteBuffer, allocator: ByteBufferAllocator, into out: inout [WebSocketInput]) throws {
        while true {
            if frame == nil {
                guard let f = try readHead(&buffer) else { return }
                try begin(f, allocator: allocator, into: &out)
                frame = f
                if f.remaining == 0 { end(f, empty: true, into: &out); continue }
            }
            guard buffer.readableBytes > 0, var f = frame else { return }
            let n = min(f.remaining, buffer.readableBytes)
            var chunk = buffer.readSlice(length: n)!
            if let mask = f.mask {
                // A server must not mask; read a masked frame anyway, unmasked in a copy of its own.
                chunk = allocator.buffer(buffer: chunk)
                chunk.webSocketUnmask(mask, indexOffset: f.maskOffset)
                f.maskOffset += n
            }
            f.remaining -= n
            frame = f
            if f.isControl {
                control.writeBuffer(&chunk)
            } else {
                switch message {
                case .whole(var whole):
                    message = .none
                    whole.writeBuffer(&chunk)
                    message = .whole(whole)
                case .parts(let size):
                    message = .parts(size: size + n)
                    out.append(.part(chunk, final: f.remaining == 0 && f.fin))
                case .none:
                    break
                }
            }
            if f.remaining == 0 { end(f, empty: false, into: &out) }
        }
    }

    /// The next frame's header, once all of it has arrived.
    private mutating func readHead(_ buffer: inout ByteBuffer) throws -> Frame? {
        while true {
            var needed = 2
            if head.count >= 2 {
                let len7 = head[1] & 0x7F
                needed += len7 == 126 ? 2 : len7 == 127 ? 8 : 0
                if head[1] & 0x80 != 0 { needed += 4 }
            }
            if head.count == needed { break }
            guard let byte = buffer.readInteger(as: UInt8.self) else { return nil }
            head.append(byte)
        }
        defer { head.removeAll(keepingCapacity: true) }
        let opcode = head[0] & 0x0F, fin = head[0] & 0x80 != 0
        var length = UInt64(head[1] & 0x7F)
        var i = 2
        if length == 126 {
            length = UInt64(head[2]) << 8 | UInt64(head[3])
            i = 4
        } else if length == 127 {
            length = head[2..<10].reduce(0) { $0 << 8 | UInt64($1) }
            i = 10
            guard length >> 63 == 0 else { throw WebSocketReadError.violation("a frame length with its top bit set") }
        }
        let mask = head[1] & 0x80 != 0 ? WebSocketMaskingKey(head[i..<(i + 4)]) : nil
        guard length <= UInt64(maxMessageSize) else { throw WebSocketReadError.tooLarge }
        return Frame(opcode: opcode, fin: fin, remaining: Int(length), mask: mask)
    }

    /// Checks a frame against the message it belongs to, and decides how its message is handed on.
    private mutating func begin(_ f: Frame, allocator: ByteBufferAllocator, into out: inout [WebSocketInput]) throws {
        switch f.opcode {
        case 0x8, 0x9, 0xA:
            guard f.fin, f.remaining <= 125 else { throw WebSocketReadError.violation("a control frame fragmented or over 125 bytes") }
            control = allocator.buffer(capacity: f.remaining)
        case 0x1, 0x2:
            guard case .none = message else { throw WebSocketReadError.violation("a new message inside a fragmented one") }
            message = f.remaining >= streamFrom ? .parts(size: 0) : .whole(allocator.buffer(capacity: f.remaining))
        case 0x0:
            switch message {
            case .none:
                throw WebSocketReadError.violation("a continuation frame with no message to continue")
            case .parts(let size):
                guard size + f.remaining <= maxMessageSize else { throw WebSocketReadError.tooLarge }
            case .whole(let whole):
                guard whole.readableBytes + f.remaining <= maxMessageSize else { throw WebSocketReadError.tooLarge }
                if whole.readableBytes + f.remaining >= streamFrom {
                    // Grown past the bound: what came so far is the first part.
                    if whole.readableBytes > 0 { out.append(.part(whole, final: false)) }
                    message = .parts(size: whole.readableBytes)
                }
            }
        default:
            throw WebSocketReadError.violation("the reserved opcode \(f.opcode)")
        }
    }

    /// A frame's last byte has arrived; `empty` when it had none.
    private mutating func end(_ f: Frame, empty: Bool, into out: inout [WebSocketInput]) {
        frame = nil
        switch f.opcode {
        case 0x8: out.append(.close(control))
        case 0x9: out.append(.ping(control))
        case 0xA: out.append(.pong)
        default:
            guard f.fin else { return }
            switch message {
            case .whole(let whole): out.append(.message(whole))
            // A last frame with bytes said so with its part; an empty one says it now.
            case .parts: if empty { out.append(.part(ByteBuffer(), final: true)) }
            case .none: break
            }
            message = .none
        }
    }
}
