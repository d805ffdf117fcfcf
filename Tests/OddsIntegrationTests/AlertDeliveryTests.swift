import Foundation
import NIOConcurrencyHelpers
@testable import OddsAlerts
import OddsModel
import OddsTestSupport
import OddsTransport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Delivery for real: a loopback HTTP server for the webhook, a script for --exec.
@Suite("Alert delivery", .timeLimit(.minutes(3)))
struct AlertDeliveryTests {
    /// An HTTP/1.1 server on 127.0.0.1 that reads each POST's body and answers the n-th (from 0) with `status(n)`,
    /// closing the connection after each answer.
    final class HookServer: @unchecked Sendable {
        let port: Int
        private let listener: Int32
        private let status: @Sendable (Int) -> Int
        private let state = NIOLockedValueBox((requests: [(head: String, body: String)](), stopped: false))
        private let done = DispatchSemaphore(value: 0)

        var requests: [(head: String, body: String)] { state.withLockedValue { $0.requests } }

        init(status: @escaping @Sendable (Int) -> Int) throws {
            (listener, port) = try LoopbackListener.open()
            self.status = status
            Thread.detachNewThread { [self] in serve(); done.signal() }
        }

        var url: String { "http://127.0.0.1:\(port)/hook" }

        func stop() {
            state.withLockedValue { $0.stopped = true }
            _ = done.wait(timeout: .now() + 5)
            close(listener)
        }

        private func serve() {
            var n = 0
            while !state.withLockedValue({ $0.stopped }) {
                var pending = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
                guard poll(&pending, 1, 50) > 0 else { continue }
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { continue }
                var buffer: [UInt8] = []
                let deadline = Date().addingTimeInterval(5)
                // The head, then as many body bytes as Content-Length says.
                while Date() < deadline {
                    var readable = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    guard poll(&readable, 1, 50) > 0 else { continue }
                    var chunk = [UInt8](repeating: 0, count: 65_536)
                    let got = read(fd, &chunk, chunk.count)
                    if got <= 0 { break }
                    buffer += chunk[0..<got]
                    let text = String(decoding: buffer, as: UTF8.self)
                    guard let end = text.range(of: "\r\n\r\n") else { continue }
                    let head = String(text[..<end.lowerBound]).lowercased()
                    let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                        .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                    let body = Array(text[end.upperBound...].utf8)
                    guard body.count >= length else { continue }
                    state.withLockedValue { $0.requests.append((head, String(decoding: body.prefix(length), as: UTF8.self))) }
                    let answer = Array("HTTP/1.1 \(status(n)) X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
                    n += 1
                    _ = answer.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                    break
                }
                close(fd)
            }
        }
    }

    /// An alert on a match whose names are written to do harm if anything ran them through a shell.
    static func hostile(_ marker: String) throws -> Alert {
        var a = Alert(rule: try AlertRule.parse("move any 5% in 30s"), at: Date(timeIntervalSince1970: 1_800_000_000), provider: .boltodds,
                      eventID: "g'1", home: "$(touch \(marker)-a)", away: "`touch \(marker)-b`; \"quoted\" 'single'", league: nil)
        a.marketID = "1x2"; a.marketName = "Match Result"; a.selection = "Home $(id)"; a.book = "draft\"kings"
        a.price = Price(decimal: "2.11"); a.from = Price(decimal: "2.00")
        return a
    }

    static func delivery(_ options: DeliveryOptions, _ transport: Transport, warnings: NIOLockedValueBox<[String]>) -> AlertDelivery {
        AlertDelivery(options: options, transport: transport, warn: { w in warnings.withLockedValue { $0.append(w) } }, ring: {})
    }

    @Test("A webhook gets the JSON object as application/json, tried again after a 503; a 400 is one warning and not tried again")
    func webhook() async throws {
        try await withTransport { transport in
            let server = try HookServer { $0 == 0 ? 503 : 204 }
            defer { server.stop() }
            let warnings = NIOLockedValueBox<[String]>([])
            var options = DeliveryOptions()
            options.webhook = server.url
            options.webhookBackoff = 0.05
            let d = Self.delivery(options, transport, warnings: warnings)
            let alert = try Self.hostile("/tmp/never")
            let json = alert.json().rendered
            await d.deliver(alert, json: json)
            await d.finish(timeout: 60)
            #expect(await d.totals == AlertDelivery.Counts(delivered: 1, failed: 0, dropped: 0))
            #expect(server.requests.count == 2 && server.requests.allSatisfy { $0.body == json })
            #expect(server.requests.first?.head.contains("content-type: application/json") == true)
            #expect(warnings.withLockedValue { $0 }.isEmpty)

            let refusing = try HookServer { _ in 400 }
            defer { refusing.stop() }
            options.webhook = refusing.url
            let d2 = Self.delivery(options, transport, warnings: warnings)
            await d2.deliver(alert, json: json)
            await d2.finish(timeout: 60)
            #expect(await d2.totals.failed == 1 && refusing.requests.count == 1)
            #expect(warnings.withLockedValue { $0 } == ["--webhook: an alert was not delivered (HTTP 400)."])
        }
    }

    @Test("--exec runs the command with the alert in its environment, exactly; provider text with $(...), backquotes and quotes never runs")
    func exec() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("odds-exec-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = dir + "/on alert.sh"
        try """
            #!/bin/sh
            printf '%s\\n' "$ODDS_ALERT_RULE" "$ODDS_ALERT_KIND" "$ODDS_ALERT_MATCH" "$ODDS_ALERT_SELECTION" "$ODDS_ALERT_BOOK" "$ODDS_ALERT_PRICE" > "$1"
            printf '%s' "$ODDS_ALERT_JSON" > "$1.json"
            """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        try await withTransport { transport in
            let warnings = NIOLockedValueBox<[String]>([])
            var options = DeliveryOptions()
            let exec: [String] = try #require(DeliveryOptions.words("'\(script)' \(dir)/env.txt"))
            options.exec = exec
            let d = Self.delivery(options, transport, warnings: warnings)
            let alert = try Self.hostile(dir + "/pwned")
            let json = alert.json().rendered
            await d.deliver(alert, json: json)
            await d.finish(timeout: 60)
            #expect(await d.totals.delivered == 1, "\(warnings.withLockedValue { $0 })")
            let env = try String(contentsOfFile: dir + "/env.txt", encoding: .utf8)
            #expect(env == ["move any 5% in 30s", "move", alert.match, "Home $(id)", "draft\"kings", "2.11"].joined(separator: "\n") + "\n")
            #expect(try String(contentsOfFile: dir + "/env.txt.json", encoding: .utf8) == json)
            #expect(!FileManager.default.fileExists(atPath: dir + "/pwned-a") && !FileManager.default.fileExists(atPath: dir + "/pwned-b"))
        }
    }

    @Test("A command that fails, is missing or overruns its timeout is one warning each and counted; the others go on")
    func execFailures() async throws {
        try await withTransport { transport in
            let warnings = NIOLockedValueBox<[String]>([])
            let alert = try Self.hostile("/tmp/never")
            var options = DeliveryOptions()
            options.execTimeout = 0.5
            for argv in [["sh", "-c", "exit 3"], ["/nonexistent/odds-hook"], ["sleep", "30"], ["true"]] {
                options.exec = argv
                let d = Self.delivery(options, transport, warnings: warnings)
                let started = Date()
                await d.deliver(alert, json: "{}")
                await d.finish(timeout: 60)
                // The 30 s sleep was stopped, not waited for (bounds are wide: the suite runs on two busy cores).
                #expect(Date().timeIntervalSince(started) < 25)
                #expect(await d.totals.failed == (argv == ["true"] ? 0 : 1))
            }
            let said = warnings.withLockedValue { $0 }
            #expect(said.count == 3, "\(said)")
            #expect(said[0].contains("sh exited 3") && said[1].contains("was not found") && said[2].contains("stopped after"), "\(said)")
        }
    }

    @Test("A command line is split once as a shell would, nothing expanded")
    func words() {
        #expect(DeliveryOptions.words(#"./on-alert.sh --to 'a b' "c d" e\ f $(x) `y`"#) == ["./on-alert.sh", "--to", "a b", "c d", "e f", "$(x)", "`y`"])
        #expect(DeliveryOptions.words("unclosed 'quote") == nil)
        #expect(DeliveryOptions.words("   ") == [])
    }
}
