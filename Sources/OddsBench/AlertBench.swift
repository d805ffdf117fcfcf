// odds-bench alert FILE [--rules 100] [--passes 10] [--print-rules]: what alert rules cost on a recording's real
// messages (`--print-rules`: only print the rules made, one a line).
//
// The recording is decoded once (as `odds alert --replay` decodes it); then, per message, the time from the
// message in hand to its alerts' lines written (the store's apply, the engine, the JSON of each alert) is
// measured with `--rules` rules made from the recording's own teams and markets, and without any rule (the
// store alone). Reports p50, p99 and max per message, the CPU the rules add at 1,000 price changes a second,
// and the resident memory after each pass over the recording (its times shifted on, so that move and steam
// windows keep filling), to show it stays flat.
import Foundation
import Logging
import OddsAlerts
import OddsModel
import OddsProviders
import OddsStore
import OddsTransport

enum AlertBench {
    static func run(_ args: [String]) -> Int32 {
        guard let path = args.first(where: { !$0.hasPrefix("--") && Int($0) == nil }) else {
            FileHandle.standardError.write(Data("usage: odds-bench alert FILE [--rules 100] [--passes 10]\n".utf8))
            return 64
        }
        func option(_ name: String, _ fallback: Int) -> Int {
            guard let i = args.firstIndex(of: "--" + name), i + 1 < args.count, let v = Int(args[i + 1]) else { return fallback }
            return v
        }
        let ruleCount = option("rules", 100), passes = max(1, option("passes", 10))
        guard let scan = try? RecordingReader(path: path), let first = sequence(state: scan, next: { $0.next() }).first(where: { !$0.feed.hasSuffix("/rest") }),
              let provider = ProviderRegistry.id(named: first.providerName) else {
            FileHandle.standardError.write(Data("odds-bench: \(path) holds no feed frames\n".utf8))
            return 65
        }
        var logger = Logger(label: "bench")
        logger.logLevel = .critical
        let transport = Transport(logger: logger, redactor: Redactor())
        let settings = ProviderSettings(key: nil, restURL: "", webSocketURL: "")
        guard let client = try? ProviderRegistry.make(provider, settings: settings, transport: transport),
              let reader = try? RecordingReader(path: path) else { return 70 }
        var messages: [FeedMessage] = []
        let decoder = ReplayDecoder(client.feedConnections(sport: nil), reader: reader, stats: FeedStats(),
                                    more: { client.feedConnection(named: $0, sport: nil) })
        try? decoder.forEach { messages.append($0) }
        guard !messages.isEmpty else { return 65 }

        // Price changes in the recording: selections whose price the message moved, as the store records moves.
        var store = LiveStore()
        var changes = 0
        for m in messages {
            store.apply(m)
            for key in AlertEngine.events(m) {
                changes += store.events[key]?.moves.values.filter { $0.changedAt == m.receivedAt }.count ?? 0
            }
        }
        let rules = makeRules(store, count: ruleCount)
        // The rules, one a line, for a config's [[alerts]] (Benchmarks/alert_command.py runs the command with them).
        if args.contains("--print-rules") {
            for rule in rules { print(rule.text) }
            return 0
        }
        let span = (messages.last!.receivedAt.timeIntervalSince(messages.first!.receivedAt)).rounded(.up) + 60

        func pass(_ rules: [AlertRule], shift: TimeInterval, engine: inout AlertEngine, store: inout LiveStore,
                  samples: inout [UInt64], fired: inout Int) {
            var out: [UInt8] = []
            out.reserveCapacity(1 << 16)
            for var m in messages {
                m.receivedAt = m.receivedAt.addingTimeInterval(shift)
                let start = DispatchTime.now().uptimeNanoseconds
                store.apply(m)
                if !rules.isEmpty {
                    for alert in engine.observe(m, in: store) {
                        alert.json().write(to: &out)
                        out.append(10)
                        fired += 1
                    }
                }
                samples.append(DispatchTime.now().uptimeNanoseconds - start)
                if out.count > 1 << 16 { out.removeAll(keepingCapacity: true) }
            }
        }

        var results: [(name: String, samples: [UInt64], fired: Int, rss: [Double])] = []
        for set in [[], rules] {
            var engine = AlertEngine(rules: set)
            var store = LiveStore()
            var all: [UInt64] = [], fired = 0, rss: [Double] = []
            for p in 0..<passes {
                var samples: [UInt64] = []
                pass(set, shift: Double(p) * span, engine: &engine, store: &store, samples: &samples, fired: &fired)
                // The first pass warms caches and fills the windows; the others are measured.
                if p > 0 || passes == 1 { all += samples }
                rss.append(residentMB())
            }
            results.append((set.isEmpty ? "store only" : "\(set.count) rules", all, fired, rss))
        }
        let seconds = Double(changes) / 1000
        print("alert \(path): \(provider.displayName), \(messages.count) messages, \(changes) price changes (\(String(format: "%.0f", seconds)) s at 1,000 a second); \(passes) passes")
        var cost: [Double] = []
        for r in results {
            let sorted = r.samples.sorted()
            func at(_ q: Double) -> Double { Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]) / 1e3 }
            let total = Double(r.samples.reduce(0, +)) / 1e9 / Double(max(1, passes - 1))
            cost.append(total)
            print(String(format: "  %@: p50 %.1f µs, p99 %.1f µs, max %.1f µs a message; %.3f s a pass (%.2f %% of a core at 1,000 changes/s); %d alerts; RSS %@ MB",
                         r.name, at(0.5), at(0.99), Double(sorted.last ?? 0) / 1e3, total, total / seconds * 100, r.fired,
                         r.rss.map { String(format: "%.1f", $0) }.joined(separator: " ")))
        }
        if cost.count == 2 { print(String(format: "  the rules add %.2f %% of a core at 1,000 price changes a second", (cost[1] - cost[0]) / seconds * 100)) }
        return 0
    }

    /// `count` rules from what the recording holds: levels on its teams, moves, steam, incidents, value, arbitrage.
    static func makeRules(_ store: LiveStore, count: Int) -> [AlertRule] {
        let events = store.events.values.map(\.event).sorted { $0.id < $1.id }
        var texts: [String] = []
        var i = 0
        while texts.count < count {
            let e = events.isEmpty ? nil : events[i % events.count]
            let team = (e?.home ?? "Arsenal").replacingOccurrences(of: "\"", with: "")
            // What a user follows: levels and moves on teams, a few rules over everything, the incidents, value.
            switch i % 20 {
            case 0...8: texts.append("price \"\(team)\" >= \(2 + i % 5).\(i % 10)0")
            case 9...13: texts.append("move \"\(team)\" \(5 + i % 5)% in 5m")
            case 14: texts.append("move any \(10 + i % 10)% in 60s")
            case 15: texts.append("steam \(3 + i % 2) books 5% in 60s")
            case 16, 17: texts.append(["goal", "red-card \"\(team)\"", "kickoff", "final", "penalty"][(i / 20) % 5])
            case 18: texts.append("value >= \(3 + i % 5)%")
            default: texts.append("arb >= \(1 + i % 3)%")
            }
            i += 1
        }
        return texts.compactMap { try? AlertRule.parse($0) }
    }

    static func residentMB() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kb = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kb / 1024
    }
}
