// odds-bench: a rerunnable benchmark of the dashboard's cost, not a timed test.
//
//   swift run -c release odds-bench [--events 500] [--rate 200] [--seconds 20] [--width 200] [--height 60]
//
// Feeds `events` live events and `rate` price updates per second of feed through the live store, the
// dashboard model and layout, and the real ncursesw driver (writing to a file, as to a terminal of that
// size), at 30 frames a second of feed time. Reports CPU time per second of feed and the bytes written to
// the terminal for one single price change on screen.
//
// With --fused N (2 to 5), the same matches come from N providers under their own names (affixes added), one
// row per real match (the dashboard of `odds dash --provider all`), the updates spread over the providers.
//
// With --recording FILE, a recording's frames go through the provider's own decoder first (DashRecordingBench.swift).
//
//   swift run -c release odds-bench ingest FILE [--repeat N] [--json]   (decode + apply throughput; Ingest.swift)
//   swift run -c release odds-bench value [--games 2000] [--books 8]     (margins, fair, EV, arbitrage; ValueBench.swift)
//   swift run -c release odds-bench fuzz FILE... [--count 1000000]     (the long fuzz run; FuzzBench.swift)
//   swift run -c release odds-bench alert FILE [--rules 100]           (what alert rules cost a message; AlertBench.swift)
import CAllocator
import Foundation
import OddsDashboard
import OddsFusion
import OddsModel
import OddsProviders
import OddsStore
import OddsTerminal

if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "ingest" {
    // The allocator as `odds live --replay` sets it (an arena per thread: a large frame is read in
    // two halves at once), before any other thread allocates.
    odds_tune_allocator(true)
    exit(IngestBench.run(Array(CommandLine.arguments.dropFirst(2))))
}
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "match" {
    exit(MatchBench.run(Array(CommandLine.arguments.dropFirst(2))))
}
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "value" {
    exit(ValueBench.run(Array(CommandLine.arguments.dropFirst(2))))
}
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "alert" {
    exit(AlertBench.run(Array(CommandLine.arguments.dropFirst(2))))
}
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "fuzz" {
    exit(FuzzBench.run(Array(CommandLine.arguments.dropFirst(2))))
}

if let i = CommandLine.arguments.firstIndex(of: "--recording"), i + 1 < CommandLine.arguments.count {
    exit(DashRecordingBench.run(path: CommandLine.arguments[i + 1], seconds: option("seconds", 60),
                                width: option("width", 200), height: option("height", 60)))
}

func option(_ name: String, _ fallback: Int) -> Int {
    let args = CommandLine.arguments
    guard let i = args.firstIndex(of: "--" + name), i + 1 < args.count, let v = Int(args[i + 1]) else { return fallback }
    return v
}

let eventCount = option("events", 500)
let rate = option("rate", 200)
let seconds = option("seconds", 20)
let width = option("width", 200)
let height = option("height", 60)
let fusedCount = min(5, max(0, option("fused", 0)))
/// The providers feeding the dashboard: one, or `--fused N` of them.
let providers = fusedCount > 1 ? Array(ProviderRegistry.ids.prefix(fusedCount)) : [ProviderRegistry.ids[1]]

// Seeded: the same run each time, and no system call per number in the measured loop.
var random = SeededRandom(seed: 20261125)
let t0 = Date(timeIntervalSince1970: 1_800_000_000)
let leagues = ["Premier League", "La Liga", "Bundesliga", "Serie A", "Ligue 1", "Eredivisie", "Süper Lig", "J1 League"]

func price(_ hundredths: Int) -> Price { Price(decimal: "\(hundredths / 100).\(String(format: "%02d", hundredths % 100))")! }

/// Each provider's events: the same matches, named its own way (the second provider adds club affixes). Teams are
/// made-up words of one length (the matcher reads a number in a name as no part of it: "Hannover 96" is Hannover).
func events(of provider: ProviderID, _ n: Int) -> [Event] { (0..<eventCount).map { i in
    let affix = n % 2 == 1 ? " FC" : ""
    let home = MatchBench.word(200 + 2 * i), away = MatchBench.word(201 + 2 * i)
    return Event(provider: provider, id: String(100_000 + n * 1_000_000 + i), sport: "soccer", league: leagues[i % leagues.count],
          home: home + affix, away: away + affix, status: .live, startTime: t0.addingTimeInterval(Double(i * 60 + n * 120)),
          score: Score(home: i % 3, away: i % 2),
          clock: String(format: "%02d:%02d", i % 90, i % 60), period: "2nd Half",
          markets: [Market(id: "ft", name: "Fulltime Result", selections: [
              Selection(id: "home", name: home, price: price(150 + i % 300)),
              Selection(id: "draw", name: "Draw", price: price(300 + i % 100)),
              Selection(id: "away", name: away, price: price(250 + i % 400 + n)),
          ])])
} }
let sources: [[Event]] = providers.enumerated().map { n, p in events(of: p, n) }

let outPath = FileManager.default.temporaryDirectory.appendingPathComponent("odds-bench-\(getpid()).out").path
guard let out = fopen(outPath, "w+"), let input = fopen("/dev/null", "r") else { fatalError("cannot open \(outPath)") }
defer { unlink(outPath) }
setenv("LINES", String(height), 1)
setenv("COLUMNS", String(width), 1)
let terminal = try CursesTerminal.open(term: "xterm-256color", output: out, input: input)

var model = DashboardModel(provider: providers[0], sport: "soccer", demo: false, oddsFormat: .decimal, now: t0, fusing: providers)
_ = update(&model, .resize(width: width, height: height))
for (p, list) in zip(providers, sources) {
    _ = update(&model, .feed(FeedMessage(provider: p, receivedAt: t0, update: .connection(.live))))
    _ = update(&model, .feed(FeedMessage(provider: p, receivedAt: t0, update: .snapshot(list))))
}
if fusedCount > 1, model.rows.count != eventCount {
    fatalError("fused into \(model.rows.count) rows, not \(eventCount): the benchmark's matches must join")
}
terminal.draw(DashboardLayout.layout(model))

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

func bytesWritten() -> Int { fflush(out); return ftell(out) }

// 1. Steady load: `rate` updates a second, a frame every 1/30 s of feed time, ticks every 0.25 s.
let frames = seconds * 30
var now = t0
var sent = 0
var meter = FrameMeter()
let cpuStart = cpuSeconds()
let bytesStart = bytesWritten()
for frame in 0..<frames {
    now = t0.addingTimeInterval(Double(frame + 1) / 30)
    let due = (frame + 1) * rate / 30
    while sent < due {
        let n = Int.random(in: 0..<providers.count, using: &random)
        let e = sources[n][Int.random(in: 0..<eventCount, using: &random)]
        let which = Int.random(in: 0..<3, using: &random)
        var s = e.markets[0].selections[which]
        s.price = price(120 + Int.random(in: 0..<800, using: &random))
        _ = update(&model, .feed(FeedMessage(provider: providers[n], receivedAt: now, update:
            .price(PriceUpdate(eventID: e.id, marketID: "ft", marketName: "Fulltime Result", selection: s)))))
        sent += 1
    }
    if frame % 8 == 0 { _ = update(&model, .tick(now)) }
    meter.frame(&model, on: terminal)
}
let cpu = cpuSeconds() - cpuStart
let steadyBytes = bytesWritten() - bytesStart

// 2. One price change on a visible row, on an otherwise quiet screen (markers of earlier moves expired).
now = now.addingTimeInterval(60)
_ = update(&model, .tick(now))
terminal.draw(DashboardLayout.layout(model))
let visible = model.rows.prefix(10)
var single: [Int] = []
for (n, key) in visible.enumerated() {
    // A fused row's price change comes from one of its sources.
    let sourceKey = model.shown.events[key]?.event.match?.sources.first.map { EventKey(provider: $0.provider, id: $0.id) } ?? key
    guard let e = model.store.events[sourceKey]?.event, var s = e.mainMarket?.selections.first else { continue }
    s.price = price(1000 + n * 10)
    now = now.addingTimeInterval(10)  // past the previous marker
    // A live feed sends heartbeats: without them the whole table would turn stale and repaint.
    for p in providers { _ = update(&model, .feed(FeedMessage(provider: p, receivedAt: now.addingTimeInterval(-0.5), update: .heartbeat))) }
    _ = update(&model, .tick(now))
    terminal.draw(DashboardLayout.layout(model))
    let before = bytesWritten()
    let oldScreen = DashboardLayout.layout(model)
    _ = update(&model, .feed(FeedMessage(provider: e.provider, receivedAt: now, update:
        .price(PriceUpdate(eventID: e.id, marketID: "ft", marketName: "Fulltime Result", selection: s)))))
    let newScreen = DashboardLayout.layout(model)
    if ProcessInfo.processInfo.environment["ODDS_BENCH_DEBUG"] != nil {
        for y in 0..<newScreen.height where oldScreen.rows[y] != newScreen.rows[y] {
            print("row \(y): \(newScreen.line(y).prefix(120))")
        }
    }
    terminal.draw(newScreen)
    single.append(bytesWritten() - before)
}
terminal.close()

let cpuPerSecond = cpu / Double(seconds)
print("odds-bench: \(eventCount) events" + (fusedCount > 1 ? " from each of \(providers.count) providers, fused" : "")
      + ", \(rate) updates/s, \(seconds) s of feed, \(width)×\(height) screen, \(meter.framesDrawn) of \(frames) frames drawn")
print(String(format: "CPU per second of feed: %.1f ms (%.2f%% of one core)", cpuPerSecond * 1000, cpuPerSecond * 100))
print(String(format: "  of which layout %.1f ms, drawing %.1f ms, store and model the rest", meter.layoutCPU / Double(seconds) * 1000,
             meter.drawCPU / Double(seconds) * 1000))
print(String(format: "terminal output under load: %.1f KB per second of feed", Double(steadyBytes) / Double(seconds) / 1024))
if !single.isEmpty {
    let mean = Double(single.reduce(0, +)) / Double(single.count)
    print(String(format: "bytes per single price change: mean %.0f, max %d (over %d changes)", mean, single.max()!, single.count))
}
