// `odds-bench ingest FILE [--repeat N] [--json] [--baseline PATH] [--profile] [--memory]`: decode + apply throughput of a
// recording (`--memory`: the heap its store keeps instead).
//
// Reads every live-feed frame of an `odds record` file into memory, then times, best of N runs on one
// core: the provider's own decoder alone, decoder + store fold, and the whole of what `odds live
// --replay` runs (the recording read from disk, ReplayDecoder, the store), the same code.
// Runs Benchmarks/json_baseline.py on the same file in the same run for Python's json.loads (and orjson
// when installed) and prints the ratios.
import CAllocator
import Foundation
import Logging
import OddsJSON
import OddsModel
import OddsProviders
import OddsTickOdds
import OddsStore
import OddsTransport

enum IngestBench {
    struct Figure { var seconds: Double; var mbPerSecond: Double; var messagesPerSecond: Double }

    static func run(_ args: [String]) -> Int32 {
        guard let path = args.first(where: { !$0.hasPrefix("--") && !isOptionValue($0, in: args) }) else {
            FileHandle.standardError.write(Data("usage: odds-bench ingest FILE [--repeat N] [--json] [--baseline PATH] [--profile] [--memory]\n".utf8))
            return 64
        }
        let repeats = max(1, value("--repeat", in: args).flatMap(Int.init) ?? 5)
        let json = args.contains("--json")
        let baseline = value("--baseline", in: args) ?? "Benchmarks/json_baseline.py"

        guard let reader = try? RecordingReader(path: path) else {
            FileHandle.standardError.write(Data("odds-bench: cannot read \(path)\n".utf8))
            return 66
        }
        // Every feed frame of the first provider seen, with its connection's name.
        var frames: [[UInt8]] = []
        var feeds: [String] = []
        var provider: ProviderID?
        while let f = reader.next() {
            guard !f.feed.hasSuffix("/rest") else { continue }
            let named = ProviderRegistry.id(named: f.providerName)
            if provider == nil { provider = named }
            if named != nil, named == provider { frames.append(f.bytes); feeds.append(f.feed) }
        }
        guard let provider, !frames.isEmpty else {
            FileHandle.standardError.write(Data("odds-bench: \(path) holds no feed frames\n".utf8))
            return 65
        }
        let bytes = frames.reduce(0) { $0 + $1.count }
        var logger = Logger(label: "bench")
        logger.logLevel = .critical
        let transport = Transport(logger: logger, redactor: Redactor())
        defer { let t = transport; Task { await t.shutdown() } }
        let settings = ProviderSettings(key: nil, restURL: "", webSocketURL: "")
        guard let client = try? ProviderRegistry.make(provider, settings: settings, transport: transport) else { return 70 }
        let at = Date(timeIntervalSince1970: 1_800_000_000)

        var malformed = 0
        var updates = 0
        /// Every frame decoded (and folded into a store, with `apply`) by fresh adapters, timed.
        func fold(_ apply: Bool) -> (store: LiveStore, bad: Int, count: Int, seconds: Double) {
            var adapters: [String: any FeedAdapter] = [:]
            for a in client.feedConnections(sport: nil) { adapters[a.feedName] = a }
            // Each frame's connection and whether it is that connection's first, found before the
            // clock starts: the benchmark's bookkeeping, not the client's work.
            var seen = Set<String>()
            let routes = feeds.map { (adapter: adapters[$0], first: seen.insert($0).inserted) }
            var store = LiveStore()
            var bad = 0, count = 0
            let start = DispatchTime.now().uptimeNanoseconds
            for (i, frame) in frames.enumerated() {
                guard let adapter = routes[i].adapter else { bad += 1; continue }
                guard let decoded = try? adapter.decode(frame, first: routes[i].first) else { bad += 1; continue }
                count += decoded.count
                if apply { for u in decoded { store.apply(FeedMessage(provider: provider, receivedAt: at, update: u)) } }
            }
            return (store, bad, count, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        func timed(_ apply: Bool) -> Double {
            var best = Double.infinity
            for _ in 0..<repeats {
                let run = fold(apply)
                best = min(best, run.seconds)
                malformed = run.bad
                updates = run.count
            }
            return best
        }
        func figure(_ s: Double) -> Figure {
            Figure(seconds: s, mbPerSecond: Double(bytes) / 1e6 / s, messagesPerSecond: Double(frames.count) / s)
        }
        /// Best time of `body` over every frame.
        func timedEach(_ body: ([UInt8]) -> Void) -> Double {
            var best = Double.infinity
            for _ in 0..<repeats {
                let start = DispatchTime.now().uptimeNanoseconds
                for frame in frames { body(frame) }
                best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            return best
        }
        // The floor: reading every byte as JSON (validated, nothing built).
        // `--profile`: only decode + apply, for `perf record`.
        if args.contains("--profile") {
            let f = figure(timed(true))
            print(String(format: "decode + apply %.1f MB/s", f.mbPerSecond))
            return 0
        }
        // `--memory`: the heap the store keeps for the recording's state (glibc's count of bytes in
        // use, before and after), per event, market and selection.
        if args.contains("--memory") {
            let before = odds_heap_in_use()
            let store = fold(true).store
            let held = Int(odds_heap_in_use()) - Int(before)
            let events = store.currentEvents()
            let markets = events.reduce(0) { $0 + $1.markets.count }
            let selections = events.reduce(0) { $0 + $1.markets.reduce(0) { $0 + $1.selections.count } }
            print(String(format: "store: %.1f MB for %d events, %d markets, %d selections: %.0f bytes a selection",
                         Double(held) / 1e6, events.count, markets, selections, Double(held) / Double(max(1, selections))))
            print("strides: Event \(MemoryLayout<Event>.stride), Market \(MemoryLayout<Market>.stride), Selection \(MemoryLayout<Selection>.stride), Price \(MemoryLayout<Price>.stride)")
            withExtendedLifetime(store) {}
            return 0
        }
        let scan = figure(timedEach { frame in frame.withUnsafeBufferPointer { b in _ = IngestBench.scan(b) } })
        // TickOdds keeps its generic decoder (the value tree) as the fast path's reference: before and after.
        let generic = provider == .tickodds ? figure(timedEach { _ = try? TickOddsDecoders.generic($0) }) : nil
        let decodeOnly = figure(timed(false))
        let decodeApply = figure(timed(true))
        // What `odds live --replay FILE` runs: the recording read from disk line by line, each frame
        // decoded (ReplayDecoder) and folded into a store; the same code, timed here whole. The command's
        // scout finds the long lines while its command line is parsed: here it is given that time, untimed.
        let replay = figure({ () -> Double in
            var best = Double.infinity
            for _ in 0..<repeats {
                let scout = RecordingScout(path: path)
                let settled = Date().addingTimeInterval(5)
                while let scout, !scout.isDone, Date() < settled { usleep(500) }
                guard let reader = try? RecordingReader(path: path, scout: scout) else { return .infinity }
                let decoder = ReplayDecoder(client.feedConnections(sport: nil), reader: reader, stats: FeedStats(),
                                            more: { client.feedConnection(named: $0, sport: nil) })
                var store = LiveStore()
                let start = DispatchTime.now().uptimeNanoseconds
                try? decoder.forEach(mergingBookViews: true) { store.apply($0) }
                best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                withExtendedLifetime(store) {}
            }
            return best
        }())
        let python = runBaseline(baseline, path: path, repeats: repeats)

        if json {
            var parts = ["\"file\":\(quote(path))", "\"provider\":\(quote(provider.rawValue))", "\"frames\":\(frames.count)",
                         "\"bytes\":\(bytes)", "\"updates\":\(updates)", "\"malformed\":\(malformed)",
                         "\"scan\":\(render(scan))", "\"decode\":\(render(decodeOnly))", "\"decode_apply\":\(render(decodeApply))",
                         "\"replay\":\(render(replay))"]
            if let generic { parts.append("\"generic_decode\":\(render(generic))") }
            for (name, f) in python { parts.append("\(quote(name)):\(render(f))") }
            print("{" + parts.joined(separator: ",") + "}")
        } else {
            print("ingest \(path): \(provider.displayName), \(frames.count) frames, \(String(format: "%.1f", Double(bytes) / 1e6)) MB, \(updates) updates, \(malformed) malformed; best of \(repeats)")
            func line(_ name: String, _ f: Figure) {
                let padded = name.padding(toLength: 22, withPad: " ", startingAt: 0)
                print(padded + String(format: " %9.1f MB/s %11.0f msg/s %8.3f s", f.mbPerSecond, f.messagesPerSecond, f.seconds))
            }
            line("json scan (floor)", scan)
            if let generic { line("odds generic decode", generic) }
            line("odds decode", decodeOnly)
            line("odds decode + apply", decodeApply)
            line("odds live --replay", replay)
            for (name, f) in python {
                line(name, f)
                print(String(format: "    decode + apply is %.2f× %@; live --replay (file read included) %.2f×", decodeApply.mbPerSecond / f.mbPerSecond,
                             name as NSString, replay.mbPerSecond / f.mbPerSecond))
            }
            if python.isEmpty { print("  (no Python baseline: \(baseline) did not run)") }
        }
        return 0
    }

    /// Reads one frame as JSON without building anything; false when it is not JSON.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { JSONScanner.isJSON(bytes) }

    static func isOptionValue(_ arg: String, in args: [String]) -> Bool {
        guard let i = args.firstIndex(of: arg), i > 0 else { return false }
        return ["--repeat", "--baseline"].contains(args[i - 1])
    }

    static func value(_ name: String, in args: [String]) -> String? {
        guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
        return args[i + 1]
    }

    static func quote(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    static func render(_ f: Figure) -> String {
        String(format: "{\"seconds\":%.6f,\"mb_per_s\":%.2f,\"msgs_per_s\":%.1f}", f.seconds, f.mbPerSecond, f.messagesPerSecond)
    }

    /// Python's figures on the same file, from json_baseline.py --json.
    static func runBaseline(_ script: String, path: String, repeats: Int) -> [(String, Figure)] {
        guard FileManager.default.fileExists(atPath: script) else { return [] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, path, "--repeat", String(repeats), "--json"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return [] }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let parsers = object["parsers"] as? [String: [String: Double]] else { return [] }
        return parsers.keys.sorted().compactMap { name in
            guard let p = parsers[name], let s = p["seconds"], let mb = p["mb_per_s"], let m = p["msgs_per_s"] else { return nil }
            return (name, Figure(seconds: s, mbPerSecond: mb, messagesPerSecond: m))
        }
    }
}
