import Foundation
import NIOConcurrencyHelpers
import NIOCore
import OddsTestSupport
@testable import OddsTransport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The REST client over a real loopback socket, against a server that answers from a script: what a feed's
/// server may do that the simulator never does (compressed and chunked bodies, connections closed between
/// requests, redirects, silence).
@Suite("REST client over loopback", .timeLimit(.minutes(2)))
struct HTTPClientTests {
    /// What the server does with one request.
    enum Reply: Sendable {
        /// Writes these bytes (a whole response); closes the connection afterwards when `close`.
        case send(String, close: Bool = false)
        case sendBytes([UInt8], close: Bool = false)
        /// Closes the connection without answering.
        case hangUp
        /// Never answers (the connection stays open until the server stops).
        case silence
    }

    /// A request as the server read it: on which connection (from 1) and its head, lower-cased.
    struct Seen: Sendable {
        var connection: Int
        var head: String
    }

    /// An HTTP/1.1 server on 127.0.0.1 (POSIX sockets on a thread of its own) answering the n-th request
    /// (from 0) with `script(n, connection)`. Stopped by `stop()`; every wait is bounded.
    final class ScriptedServer: @unchecked Sendable {
        let port: Int
        private let listener: Int32
        private let script: @Sendable (Int, Int) -> Reply
        private let state = NIOLockedValueBox((seen: [Seen](), stopped: false, open: [Int32]()))
        private let done = DispatchSemaphore(value: 0)

        var seen: [Seen] { state.withLockedValue { $0.seen } }

        init(script: @escaping @Sendable (_ request: Int, _ connection: Int) -> Reply) throws {
            (listener, port) = try LoopbackListener.open()
            self.script = script
            Thread.detachNewThread { [self] in serve(); done.signal() }
        }

        func stop() {
            state.withLockedValue { $0.stopped = true }
            _ = done.wait(timeout: .now() + 5)
            for fd in state.withLockedValue({ $0.open }) { close(fd) }
            close(listener)
        }

        private var stopped: Bool { state.withLockedValue { $0.stopped } }

        /// Connections one at a time, requests in order on each: enough for a client that sends one at a time.
        private func serve() {
            var connection = 0, request = 0
            while !stopped {
                var pending = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
                guard poll(&pending, 1, 50) > 0 else { continue }
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { continue }
                connection += 1
                state.withLockedValue { $0.open.append(fd) }
                var buffer: [UInt8] = []
                reading: while !stopped {
                    var readable = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    guard poll(&readable, 1, 50) > 0 else { continue }
                    var chunk = [UInt8](repeating: 0, count: 4096)
                    let n = read(fd, &chunk, chunk.count)
                    if n <= 0 { break }
                    buffer += chunk[0..<n]
                    // Each whole head in the buffer is a request (GETs only: no body).
                    while let end = Self.headEnd(buffer) {
                        let head = String(decoding: buffer[..<end], as: UTF8.self).lowercased()
                        buffer.removeFirst(end + 4)
                        state.withLockedValue { $0.seen.append(Seen(connection: connection, head: head)) }
                        let reply = script(request, connection)
                        request += 1
                        switch reply {
                        case .send(let text, let close): if write(fd, Array(text.utf8)) && !close { continue } else { break reading }
                        case .sendBytes(let bytes, let close): if write(fd, bytes) && !close { continue } else { break reading }
                        case .hangUp: break reading
                        case .silence:
                            while !stopped { usleep(20_000) }
                            break reading
                        }
                    }
                }
                state.withLockedValue { $0.open.removeAll { $0 == fd } }
                close(fd)
            }
        }

        private func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
            bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count
        }

        private static func headEnd(_ bytes: [UInt8]) -> Int? {
            guard bytes.count >= 4 else { return nil }
            for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
                return i
            }
            return nil
        }
    }

    static let json = #"{"events":[{"id":"g1","home":"Arsenal","away":"Chelsea","price":"2.10"}]}"#
    /// `json`, gzip-compressed (Python's gzip.compress, mtime 0).
    static let gzipped = [UInt8](Data(base64Encoded:
        "H4sIAAAAAAACA6tWSi1LzSspVrKKrlbKTFGyUko3VNJRysjPTQWyHYuKU/MSc4ACieWJlUAB54zUnOLURKBAQVFmMkiJkZ6hgVJtbC0Au9n5IUkAAAA=")!)

    static func ok(_ body: String, extra: String = "") -> String {
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\(extra)\r\n\(body)"
    }

    static func withServer<T>(_ script: @escaping @Sendable (Int, Int) -> Reply,
                              _ body: (ScriptedServer, Transport) async throws -> T) async throws -> T {
        let server = try ScriptedServer(script: script)
        defer { server.stop() }
        return try await withTransport { transport in try await body(server, transport) }
    }

    @Test("Requests to one origin share a kept connection; a gzip body sent in chunks arrives whole and decompressed")
    func keptConnectionAndGzip() async throws {
        try await Self.withServer({ request, _ in
            if request == 0 {
                // The compressed body in two chunks.
                let half = Self.gzipped.count / 2
                let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n"
                var bytes = Array(head.utf8)
                for part in [Self.gzipped[..<half], Self.gzipped[half...]] {
                    bytes += Array((String(part.count, radix: 16) + "\r\n").utf8) + part + Array("\r\n".utf8)
                }
                return .sendBytes(bytes + Array("0\r\n\r\n".utf8))
            }
            return .send(Self.ok(#"{"n":\#(request)}"#))
        }) { server, transport in
            let base = "http://127.0.0.1:\(server.port)"
            let first = try await transport.get(base + "/api/live?sport=soccer", headers: [("X-Api-Key", testKey)])
            #expect(first.status == 200)
            #expect(String(decoding: first.body, as: UTF8.self) == Self.json)
            for n in 1...2 {
                let next = try await transport.get(base + "/api/event/\(n)", headers: [])
                #expect(String(decoding: next.body, as: UTF8.self) == #"{"n":\#(n)}"#)
            }
            let seen = server.seen
            #expect(seen.map(\.connection) == [1, 1, 1], "every request on the first connection")
            #expect(seen.first?.head.hasPrefix("get /api/live?sport=soccer http/1.1\r\n") == true)
            #expect(seen.first?.head.contains("\r\nhost: 127.0.0.1:\(server.port)\r\n") == true)
            #expect(seen.first?.head.contains("\r\naccept-encoding: deflate, gzip") == true)
            #expect(seen.first?.head.contains("\r\nx-api-key: \(testKey.lowercased())") == true)
        }
    }

    @Test("A kept connection the server closed meanwhile: the next GET goes again on a new connection, once")
    func staleConnectionRetried() async throws {
        try await Self.withServer({ request, _ in
            switch request {
            case 0: return .send(Self.ok(#"{"n":0}"#))
            case 1: return .hangUp  // the second request finds the kept connection closed, unanswered
            default: return .send(Self.ok(#"{"n":\#(request)}"#))
            }
        }) { server, transport in
            let base = "http://127.0.0.1:\(server.port)"
            _ = try await transport.get(base + "/a", headers: [])
            let second = try await transport.get(base + "/b", headers: [])
            #expect(String(decoding: second.body, as: UTF8.self) == #"{"n":2}"#)
            #expect(server.seen.map(\.connection) == [1, 1, 2])
            #expect(server.seen.map { $0.head.split(separator: " ")[1] } == ["/a", "/b", "/b"])
        }
    }

    @Test("A server that closes a fresh connection unanswered is one error sentence, not a retry loop")
    func freshConnectionClosed() async throws {
        try await Self.withServer({ _, _ in .hangUp }) { server, transport in
            do {
                _ = try await transport.get("http://127.0.0.1:\(server.port)/x", headers: [])
                Issue.record("a closed connection gave a response")
            } catch let error as TransportError {
                #expect(error.description.contains("closed the connection before the response ended"), "\(error)")
            }
            #expect(server.seen.count == 1)
        }
    }

    @Test("A redirect within the origin is followed; one to another host is returned as it is, the headers not sent there")
    func redirects() async throws {
        try await Self.withServer({ request, _ in
            switch request {
            case 0: return .send("HTTP/1.1 302 Found\r\nLocation: /moved?x=1\r\nContent-Length: 0\r\n\r\n")
            case 1: return .send(Self.ok(#"{"moved":true}"#))
            default: return .send("HTTP/1.1 301 Moved\r\nLocation: http://localhost:1/elsewhere\r\nContent-Length: 0\r\n\r\n")
            }
        }) { server, transport in
            let base = "http://127.0.0.1:\(server.port)"
            let moved = try await transport.get(base + "/old", headers: [("X-Api-Key", testKey)])
            #expect(moved.status == 200 && String(decoding: moved.body, as: UTF8.self) == #"{"moved":true}"#)
            #expect(server.seen.count == 2 && server.seen[1].head.hasPrefix("get /moved?x=1 "))
            let away = try await transport.get(base + "/away", headers: [("X-Api-Key", testKey)])
            #expect(away.status == 301 && away.header("location") == "http://localhost:1/elsewhere")
            #expect(server.seen.count == 3)
        }
    }

    @Test("A compressed body that would grow past the bound, and one that is not gzip, are each one error sentence")
    func compressedBodies() async throws {
        // 5,000 bytes in 41 (Python's gzip.compress, mtime 0), then a gzip header followed by garbage.
        let bomb = [UInt8](Data(base64Encoded: "H4sIAAAAAAACA+3BMQEAAADCoErrn84UfkABAAAAAG8DBD38qIgTAAA=")!)
        let broken: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3] + Array("not deflate at all".utf8)
        try await Self.withServer({ request, _ in
            let body = request == 0 ? bomb : broken
            let head = "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: \(body.count)\r\n\r\n"
            return .sendBytes(Array(head.utf8) + body)
        }) { server, transport in
            transport.maxBodySize = 1000
            for (path, expected) in [("/bomb", "is larger than"), ("/broken", "is not valid gzip or deflate")] {
                do {
                    _ = try await transport.get("http://127.0.0.1:\(server.port)" + path, headers: [])
                    Issue.record("\(path) was accepted")
                } catch let error as TransportError {
                    #expect(error.description.contains(expected), "\(path): \(error)")
                }
            }
        }
    }

    @Test("A body over the bound and a server that never answers are each one error, within the bound and the deadline")
    func boundAndDeadline() async throws {
        try await Self.withServer({ request, _ in
            request == 0 ? .send(Self.ok(String(repeating: "x", count: 5000))) : .silence
        }) { server, transport in
            transport.maxBodySize = 1000
            let base = "http://127.0.0.1:\(server.port)"
            do {
                _ = try await transport.get(base + "/big", headers: [])
                Issue.record("a body over the bound was accepted")
            } catch let error as TransportError {
                #expect(error.description.contains("is larger than"), "\(error)")
            }
            transport.requestTimeout = .milliseconds(400)
            let start = Date()
            do {
                _ = try await transport.get(base + "/silent?apiKey=\(testKey)", headers: [])
                Issue.record("a silent server gave a response")
            } catch let error as TransportError {
                guard case .timedOut = error else { Issue.record("not a timeout: \(error)"); return }
            }
            // Well before the server's silence ends (when the test stops it), however loaded the machine.
            #expect(Date().timeIntervalSince(start) < 15)
        }
    }
}
