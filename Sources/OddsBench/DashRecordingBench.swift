// `odds-bench --recording FILE [--seconds 60] [--width 200] [--height 60]`: the dashboard end to end.
//
// A recording's frames go through the provider's own decoder (ReplayDecoder, as `odds dash --replay`),
// the store and the dashboard model, then layout and the real ncursesw driver (writing to a file as to a
// terminal of that size), at the recording's own pace in feed time: 30 frames a second, a tick every
// 0.25 s, a frame drawn only when something on screen changed (as `odds dash` draws). What the first
// second of the recording holds (the initial state) is loaded before the clock starts. Reports CPU per
// second of feed, decoding included, and the time from a key press to its frame drawn.
//
// Make recordings with Benchmarks/dash_recording.py (2,000 or 20,000 events, 1,000 updates a second).
import Foundation
import Logging
import OddsDashboard
import OddsModel
import OddsProviders
import OddsStore
import OddsTerminal
import OddsTransport

enum DashRecordingBench {
    static func run(path: String, seconds: Int, width: Int, height: Int) -> Int32 {
        func fail(_ text: String, _ code: Int32) -> Int32 {
            FileHandle.standardError.write(Data("odds-bench: \(text)\n".utf8))
            return code
        }
        guard let probe = try? RecordingReader(path: path) else { return fail("cannot read \(path)", 66) }
        var providerName: String?
        while providerName == nil, let f = probe.next() { if !f.feed.hasSuffix("/rest") { providerName = f.providerName } }
        guard let name = providerName, let provider = ProviderRegistry.id(named: name) else {
            return fail("\(path) holds no feed frames of a provider this build knows", 65)
        }
        var logger = Logger(label: "bench")
        logger.logLevel = .critical
        let transport = Transport(logger: logger, redactor: Redactor())
        let settings = ProviderSettings(key: nil, restURL: "", webSocketURL: "")
        guard let client = try? ProviderRegistry.make(provider, settings: settings, transport: transport),
              let reader = try? RecordingReader(path: path) else { return fail("cannot replay \(path)", 70) }
        let stats = FeedStats()
        let decoder = ReplayDecoder(client.feedConnections(sport: nil), reader: reader, stats: stats)

        let outPath = FileManager.default.temporaryDirectory.appendingPathComponent("odds-bench-\(getpid()).out").path
        guard let out = fopen(outPath, "w+"), let input = fopen("/dev/null", "r") else { return fail("cannot open \(outPath)", 73) }
        defer { unlink(outPath) }
        setenv("LINES", String(height), 1)
        setenv("COLUMNS", String(width), 1)
        guard let terminal = try? CursesTerminal.open(term: "xterm-256color", output: out, input: input) else {
            return fail("cannot open the terminal", 70)
        }

        guard var pending = decoder.next() else { return fail("\(path) holds no frames \(provider.rawValue) decodes", 65) }
        let startMs = pending.t
        var model = DashboardModel(provider: provider, sport: "all", demo: false, oddsFormat: .decimal,
                                   now: Date(timeIntervalSince1970: Double(startMs) / 1000))
        _ = update(&model, .resize(width: width, height: height))
        var applied = 0
        /// Every frame recorded up to `ms`, decoded and applied.
        func feed(until ms: Int64) -> Bool {
            while pending.t <= ms {
                for m in pending.messages { _ = update(&model, .feed(m)); applied += 1 }
                guard let next = decoder.next() else { return false }
                pending = next
            }
            return true
        }
        // The initial state: what the first second holds.
        var more = feed(until: startMs + 1000)
        let loaded = model.shown.events.count
        _ = update(&model, .tick(Date(timeIntervalSince1970: Double(startMs + 1000) / 1000)))
        terminal.draw(DashboardLayout.layout(model))
        model.drawn()
        let appliedBefore = applied

        let frames = seconds * 30
        var framesRun = 0
        var meter = FrameMeter()
        let cpuStart = cpuSeconds()
        let wallStart = DispatchTime.now().uptimeNanoseconds
        for frame in 0..<frames where more {
            let ms = startMs + 1000 + Int64(frame + 1) * 1000 / 30
            more = feed(until: ms)
            if frame % 8 == 7 { _ = update(&model, .tick(Date(timeIntervalSince1970: Double(ms) / 1000))) }
            framesRun += 1
            meter.frame(&model, on: terminal)
        }
        let cpu = cpuSeconds() - cpuStart
        let wall = Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e9
        let feedSeconds = Double(framesRun) / 30

        // Key presses on the loaded table: each one's update, layout and draw, timed on the wall clock.
        var keyTimes: [(String, Double)] = []
        for (label, keys) in [("↓", [Key.down]), ("PgDn", [.pageDown]), ("G (last row)", [.character("G")]),
                              ("s (sort)", [.character("s")]), ("/ h Enter (filter)", [.character("/"), .character("h"), .enter]),
                              ("Esc (clear filter)", [.escape]), ("Enter (detail)", [.enter]), ("Esc (back)", [.escape])] {
            let k0 = DispatchTime.now().uptimeNanoseconds
            for key in keys { _ = update(&model, .key(key)) }
            terminal.draw(DashboardLayout.layout(model))
            model.drawn()
            keyTimes.append((label, Double(DispatchTime.now().uptimeNanoseconds - k0) / 1e6))
        }
        terminal.close()

        let updates = applied - appliedBefore
        print("odds-bench --recording: \(provider.displayName), \(loaded) events loaded, \(updates) messages decoded and applied "
              + "over \(String(format: "%.1f", feedSeconds)) s of feed (\(Int(Double(updates) / max(feedSeconds, 0.001))) a second), "
              + "\(width)×\(height) screen")
        print(String(format: "CPU per second of feed, decoding included: %.1f ms (%.2f%% of one core); wall %.2f s",
                     cpu / feedSeconds * 1000, cpu / feedSeconds * 100, wall))
        print(String(format: "  of which layout %.1f ms, drawing %.1f ms; %d of %d frames drawn (nothing on screen changed in the others)",
                     meter.layoutCPU / feedSeconds * 1000, meter.drawCPU / feedSeconds * 1000, meter.framesDrawn, framesRun))
        print("key press to frame drawn: " + keyTimes.map { String(format: "%@ %.1f ms", $0.0, $0.1) }.joined(separator: ", "))
        print(String(format: "slowest key: %.1f ms", keyTimes.map(\.1).max() ?? 0))
        if stats.malformed > 0 { print("malformed frames skipped: \(stats.malformed)") }
        return 0
    }
}
