import Foundation
import OddsModel
import OddsTransport

/// Where alerts go besides the output: the terminal bell, a desktop notification, a command, a webhook.
public struct DeliveryOptions: Sendable {
    public var bell = false
    public var notify = false
    /// A command's argv (split once, never through a shell); the alert goes in its environment.
    public var exec: [String]?
    /// A URL each alert is POSTed to as JSON.
    public var webhook: String?
    /// Commands (and notifications) running at once, at most; more wait their turn.
    public var execLimit = 4
    /// How long a command may run before it is stopped.
    public var execTimeout: TimeInterval = 10
    /// How many times a webhook POST is tried, backing off in between.
    public var webhookAttempts = 4
    /// The first wait before a webhook is tried again (doubling).
    public var webhookBackoff: TimeInterval = 0.5
    /// Alerts waiting for delivery, at most; past it they are dropped and counted.
    public var capacity = 1_000

    public init() {}

    public var isEmpty: Bool { !bell && !notify && exec == nil && webhook == nil }

    /// A command line's words as a shell would split it, nothing expanded; nil with a quote left open.
    public static func words(_ line: String) -> [String]? { CommandRunner.split(line) }
}

/// Delivers alerts as a stage of its own: `deliver` never waits; commands and webhooks run beside each other and
/// beside the feed, a slow or failing one holding up no other. Each failure is one warning, and counted.
public actor AlertDelivery {
    public struct Counts: Sendable, Equatable {
        public var delivered = 0
        public var failed = 0
        public var dropped = 0
    }

    private let options: DeliveryOptions
    private let transport: Transport
    private let warn: @Sendable (String) -> Void
    private let ring: @Sendable () -> Void
    private let notifier: String?
    private var queued: [@Sendable () async -> Bool] = []
    private var running = 0
    private var inFlight = 0
    private var counts = Counts()
    private var idle: [CheckedContinuation<Void, Never>] = []

    /// `warn` says one sentence on stderr; `ring` rings the bell where the user will hear it.
    public init(options: DeliveryOptions, transport: Transport, warn: @escaping @Sendable (String) -> Void,
                ring: @escaping @Sendable () -> Void) {
        self.options = options
        self.transport = transport
        self.warn = warn
        self.ring = ring
        notifier = options.notify ? CommandRunner.find("notify-send") : nil
        if options.notify, notifier == nil {
            warn("--notify: notify-send is not installed here; alerts are not shown as desktop notifications.")
        }
    }

    public var totals: Counts { counts }

    /// Hands `alert` (and its JSON object, as printed with --ndjson) to every way of delivery asked for.
    public func deliver(_ alert: Alert, json: String) {
        if options.bell { ring() }
        if let notifier {
            let argv = [notifier, "--app-name=odds", "odds: " + (alert.rule.name ?? alert.rule.text), alert.line(.decimal)]
            enqueue(limited: true) { [options] in
                await CommandRunner.run(argv, environment: [:], timeout: options.execTimeout, warn: nil) == nil
            }
        }
        if let exec = options.exec {
            let environment = Self.environment(alert, json: json)
            let warn = self.warn
            enqueue(limited: true) { [options] in
                if let failure = await CommandRunner.run(exec, environment: environment, timeout: options.execTimeout, warn: warn) {
                    warn("--exec: \(failure)")
                    return false
                }
                return true
            }
        }
        if let url = options.webhook {
            let body = Array(json.utf8)
            let transport = self.transport, warn = self.warn
            enqueue(limited: false) { [options] in
                await Self.post(url, body, transport: transport, options: options, warn: warn)
            }
        }
    }

    /// Waits until everything handed over has been delivered (or has failed), at most `timeout` seconds.
    public func finish(timeout: TimeInterval) async {
        let deadline = Date().addingTimeInterval(timeout)
        while inFlight > 0, Date() < deadline {
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
    }

    private func enqueue(limited: Bool, _ job: @escaping @Sendable () async -> Bool) {
        guard inFlight < options.capacity else {
            counts.dropped += 1
            if counts.dropped == 1 { warn("Alerts are arriving faster than they can be delivered: some are dropped (counted at the end).") }
            return
        }
        inFlight += 1
        if limited {
            queued.append(job)
            pump()
        } else {
            Task { self.done(await job()) }
        }
    }

    private func pump() {
        while running < options.execLimit, !queued.isEmpty {
            let job = queued.removeFirst()
            running += 1
            Task {
                let ok = await job()
                self.finished(ok)
            }
        }
    }

    private func finished(_ ok: Bool) {
        running -= 1
        done(ok)
        pump()
    }

    private func done(_ ok: Bool) {
        inFlight -= 1
        if ok { counts.delivered += 1 } else { counts.failed += 1 }
    }

    /// The alert as a command's environment: `ODDS_ALERT_*`, and the whole JSON object.
    static func environment(_ a: Alert, json: String) -> [String: String] {
        var env = ["ODDS_ALERT_RULE": a.rule.name ?? a.rule.text, "ODDS_ALERT_KIND": a.kind, "ODDS_ALERT_MATCH": a.match,
                   "ODDS_ALERT_JSON": json]
        env["ODDS_ALERT_SELECTION"] = a.selection ?? a.incident.flatMap { $0.player } ?? ""
        env["ODDS_ALERT_BOOK"] = a.book ?? ""
        env["ODDS_ALERT_PRICE"] = a.price?.decimalText ?? ""
        return env
    }

    /// POSTs `body`, trying again with backoff on a failure (a refused connection, a 5xx, a 429); a 4xx other
    /// than 429 is not tried again.
    static func post(_ url: String, _ body: [UInt8], transport: Transport, options: DeliveryOptions,
                     warn: @Sendable (String) -> Void) async -> Bool {
        var wait = options.webhookBackoff
        var last = ""
        for attempt in 1...max(1, options.webhookAttempts) {
            do {
                let result = try await transport.post(url, headers: [("User-Agent", "odds-alert")], json: body)
                if (200..<300).contains(result.status) { return true }
                last = "HTTP \(result.status)"
                if result.status < 500, result.status != 429 { break }
            } catch {
                last = transport.redactor.redact(String(describing: error))
            }
            if attempt < options.webhookAttempts {
                try? await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000))
                wait *= 2
            }
        }
        warn("--webhook: an alert was not delivered (\(last)).")
        return false
    }
}
