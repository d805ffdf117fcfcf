import Foundation
@testable import OddsBoltOdds
import OddsFuzz
import OddsJSON
import OddsModel
import OddsStore
import OddsTickOdds
import OddsTransport
@testable import OddsPulseScore
@testable import OddsSimulator
import OddsProviders
import OddsTestSupport
import Testing

/// A short fuzz run of every decoder in the default tests; `odds-bench fuzz` runs a million inputs
/// per decoder (ODDS_FUZZ_COUNT sets this run's size).
@Suite("Fuzzing the decoders", .unitLane)
struct FuzzTests {
    /// Frames from the providers' documented examples and from the simulator's world.
    static func corpus() throws -> [[UInt8]] {
        var frames: [[UInt8]] = []
        for name in ["pulsescore-ws-data.json", "tickodds-heartbeat.json", "boltodds-initial-state.json", "boltodds-live-score.json",
                     "boltodds-pbp-current-state.json", "boltodds-pbp-stream3.json", "sportsapi-welcome.json", "sportsapi-incidents.json",
                     "sportsapi-v1-connected.json", "sportsapi-v1-scores.json"] {
            frames.append(Array(try Fixture.text("docs/\(name)").utf8))
        }
        let event = try Fixture.text("docs/tickodds-event.json")
        frames.append(Array("{\"type\":\"match_start\",\"event\":\(event)}".utf8))
        frames.append(Array("{\"type\":\"update\",\"change\":\"odds\",\"event\":\(event)}".utf8))
        var world = SimWorld(seed: 7)
        frames.append(Array(TickOddsFormat.snapshot(world.live, padding: 0).utf8))
        frames.append(Array(PulseScoreFormat.broadcast(world.live.filter { $0.sport == "soccer" }, timestamp: 1, padding: 0).utf8))
        for _ in 0..<40 {
            for change in world.tick() {
                for m in TickOddsFormat.messages(for: change, world: world) { frames.append(Array(m.utf8)) }
            }
        }
        // BoltOdds from the simulator: every book's initial state (one object, and batched), plays and scores.
        var options = Simulator.Options()
        options.tickInterval = 0
        let sim = Simulator(options: options)
        sim.boltOdds.active = true
        for _ in 0..<30 { sim.boltOddsRecord(sim.world.tick()) }
        for m in sim.world.live where m.away != nil && m.phase != .ended {
            guard let ref = BoltOdds.ref(m) else { continue }
            let states = BoltOdds.books.indices.map { BoltOdds.message("initial_state", BoltOdds.data(ref, book: $0, outcomes: BoltOdds.outcomes(m, book: $0))) }
            frames.append(Array(states[0].rendered.utf8))
            frames.append(Array(JSONOutput.array(states).rendered.utf8))
            let log = sim.boltOddsLog(m)
            for text in BoltOddsPlays.opening(m, log) { frames.append(Array(text.utf8)) }
            frames.append(Array(BoltOddsPlays.matchUpdate(m, log).utf8))
        }
        return frames
    }

    @Test("Every registered provider brings its decoders to the fuzzer, each with a valid frame it still reads")
    func everyProvider() throws {
        let targets = Fuzzer.targets(corpus: try FuzzTests.corpus())
        for id in ProviderRegistry.ids {
            let own = targets.filter { $0.name == id.rawValue || $0.name.hasPrefix(id.rawValue + " ") }
            #expect(!own.isEmpty, "\(id) has no fuzz target")
            #expect(own.allSatisfy { $0.stillWorks() }, "\(id): \(own.map(\.name))")
        }
        #expect(Set(targets.map(\.name)).count == targets.count)
    }

    @Test("Hostile variants of real frames never crash or hang a decoder, and each still decodes valid frames afterwards")
    func fuzz() async throws {
        let count = ProcessInfo.processInfo.environment["ODDS_FUZZ_COUNT"].flatMap(Int.init) ?? 2_000
        let corpus = try FuzzTests.corpus()
        #expect(corpus.count > 50)
        // On a thread of its own: half a minute of fuzzing must not hold one of the two threads that
        // every other test (and their timings) run on.
        let reports = await withCheckedContinuation { (done: CheckedContinuation<[Fuzzer.Report], Never>) in
            Thread { done.resume(returning: Fuzzer.runAll(corpus: corpus, count: count, seed: 20261123)) }.start()
        }
        for r in reports {
            #expect(r.inputs == count)
            #expect(r.stillWorks, "\(r)")
            // Bad input is rejected, not silently accepted wholesale; and some mutants are still valid.
            #expect(r.rejected > count / 10, "\(r)")
            // No input may take long: a hang or a quadratic blow-up would show here (debug build, loaded machine).
            #expect(r.slowest < 2, "\(r)")
            #expect(r.disagreements == 0, "\(r); first: \(String(decoding: r.firstDisagreement ?? [], as: UTF8.self).prefix(300))")
        }
    }

    @Test("TickOdds' fast path answers every live message of the corpus but match_end, with exactly the generic decoder's updates")
    func fastPathAgrees() throws {
        var answered = 0
        for frame in try FuzzTests.corpus() {
            guard let generic = try? TickOddsDecoders.generic(frame) else { continue }
            if TickOddsDecoders.fallsBack(frame) { continue }
            let fast = try #require(TickOddsDecoders.fast(frame), "no fast answer for \(String(decoding: frame, as: UTF8.self).prefix(200))")
            #expect(fast == generic)
            answered += 1
        }
        #expect(answered > 50)
        // With the market cache, in feed order: the same updates, and unchanged groups come from the cache.
        let cache = TickOddsMarketCache()
        for frame in try FuzzTests.corpus() where !TickOddsDecoders.fallsBack(frame) {
            guard let generic = try? TickOddsDecoders.generic(frame) else { continue }
            #expect(TickOddsDecoders.fast(frame, cache: cache) == generic)
        }
        #expect(cache.hits > 20, "\(cache.hits) cache hits")
    }

    @Test("PulseScore's fast path, over consecutive broadcasts, reads exactly the generic decoder's events and reuses unchanged ones")
    func pulseScoreFastPath() throws {
        var world = SimWorld(seed: 11)
        let cache = PulseScoreEventCache()
        var answered = 0
        for i in 0..<30 {
            if i > 0 { _ = world.tick() }
            let frame = Array(PulseScoreFormat.broadcast(world.live.filter { $0.sport == "soccer" }, timestamp: Int64(i), padding: 0).utf8)
            let fast = try #require(PulseScoreDecoders.fast(frame, cache: cache))
            #expect(fast == (try PulseScoreWire.broadcast(frame)))
            answered += 1
        }
        #expect(answered == 30)
        #expect(cache.hits > 30, "\(cache.hits) cache hits")
        #expect(cache.layoutHits > 10, "\(cache.layoutHits) events read against their layout")
        // A message that is not JSON is left to the generic decoder, which rejects it.
        #expect(TickOddsDecoders.fast(Array("{\"type\":\"update\",".utf8)) == nil)
    }
}

@Suite("PulseScore fast path memory", .unitLane)
struct PulseScoreLayoutTests {
    static func broadcast(home: String = #""3.55""#, draw: String = #"{"decimal":"1.63"}"#, flags: String = "", name: String = "Brighton") -> [UInt8] {
        let event = #"{"fi":"1","sport":"Soccer","league":"Premier League","home":"\#(name)","away":"Arsenal","live":1,"mg":[{"name":"Fulltime Result","ma":[{"name":"\#(name)","pa":[{"decimal":\#(home)}]\#(flags)},{"name":"Draw","pa":[\#(draw)]}]},{"name":"Over/Under 2.5 Goals","ma":[{"name":"Over 2.5","pa":[{"decimal":"1.90"},{"decimal":"9.99"}]},{"name":"Under 2.5","pa":[]}]}]}"#
        return Array(#"{"type":"data","timestamp":1,"events":[\#(event),\#(event.replacingOccurrences(of: "\"fi\":\"1\"", with: "\"fi\":\"2\""))]}"#.utf8)
    }

    @Test("Broadcasts whose events differ in prices, flags, names or shape read exactly as the generic decoder reads them; price changes against the layout")
    func agrees() throws {
        typealias T = PulseScoreLayoutTests
        // (broadcast, read against the layouts: only prices changed since the broadcast before)
        let frames: [([UInt8], Bool)] = [
            (T.broadcast(), false),
            (T.broadcast(home: #""3.60""#), true),
            (T.broadcast(home: "3.6"), true),                       // a number, shorter
            (T.broadcast(home: "null"), true),                      // no price: suspended
            (T.broadcast(home: #"{"a":[1]}"#), true),               // a container where a price was
            (T.broadcast(home: #""3.65""#, draw: #"{"decimal":"1.70"}"#), true),
            (T.broadcast(home: #""3.65""#, draw: #"{"decimal":"1.70"}"#, flags: #","su":true"#), false),  // a flag: read whole
            (T.broadcast(home: #""3.70""#, draw: #"{"decimal":"1.70"}"#, flags: #","su":true"#), true),   // still suspended by it
            (T.broadcast(home: #""3.70""#, draw: #"{"decimal":"1.70","su":1}"#, flags: #","su":true"#), false),
            (T.broadcast(home: #""3.70""#, draw: #"{"decimal":"1.75","su":1}"#, flags: #","su":true"#), true),
            (T.broadcast(name: "Brighton & Hove"), false),          // a name
            (T.broadcast(draw: #"{"decimal":"1.63"},{"decimal":"2"}"#), false),  // a second price object
            (T.broadcast(draw: #"{"decimal":"1.63"},{"decimal":"3"}"#), false),  // its value is only checked
        ]
        let cache = PulseScoreEventCache()
        for (i, (frame, laidOut)) in frames.enumerated() {
            let layouts = cache.layoutHits
            let generic = try PulseScoreWire.broadcast(frame)
            let fast = try #require(PulseScoreDecoders.fast(frame, cache: cache), "broadcast \(i): no fast answer")
            #expect(fast == generic, "broadcast \(i)")
            #expect(cache.layoutHits == layouts + (laidOut ? 2 : 0), "broadcast \(i): \(cache.layoutHits - layouts) read against the layout")
        }
        // A price that is not JSON: the broadcast is left to the generic decoder (which rejects it).
        let broken = Array(String(decoding: T.broadcast(home: "3.6"), as: UTF8.self).replacingOccurrences(of: "3.6", with: "3..6").utf8)
        #expect(PulseScoreDecoders.fast(broken, cache: cache) == nil)
        #expect(PulseScoreDecoders.fast(T.broadcast(home: "3.5"), cache: cache) == (try PulseScoreWire.broadcast(T.broadcast(home: "3.5"))))
    }
}

@Suite("BoltOdds fast path", .unitLane)
struct BoltOddsFastPathTests {
    @Test("The byte scanner answers every data frame of the corpus (the docs' and the simulator's), exactly as the generic decoder")
    func agreesOnCorpus() throws {
        var answered = 0
        for frame in try FuzzTests.corpus() {
            #expect(BoltOddsDecoders.agree(frame), "\(String(decoding: frame, as: UTF8.self).prefix(200))")
            let text = String(decoding: frame, as: UTF8.self)
            if text.contains("\"initial_state\"") {
                #expect(BoltOddsDecoders.fastAnswers(frame), "no fast answer for \(text.prefix(200))")
                answered += 1
            }
        }
        #expect(answered > 10)
    }

    /// One book's initial_state for the game, with `outcomes` as written.
    static func book(_ name: String, _ outcomes: String) -> String {
        #"{"action":"initial_state","data":{"sport":"NBA","sportsbook":"\#(name)","game":"Lakers vs Celtics, 2026-11-24, 01","home_team":"Lakers","away_team":"Celtics","outcomes":{\#(outcomes)}}}"#
    }

    @Test("Books that repeat the bytes of the book before are read from what was read then, and only where the bytes are the same")
    func repeatedBooks() throws {
        let ml = #""Lakers Moneyline":{"odds":"-120","link":"https://a.example/1","outcome_name":"Moneyline","outcome_line":null,"outcome_over_under":null,"outcome_target":"Lakers"}"#
        let total = #""Over 1.5 Total":{"odds":"+100","link":"https://a.example/2","outcome_name":"Total","outcome_line":1.5,"outcome_over_under":"Over","outcome_target":null}"#
        let frames: [(String, Bool)] = [
            // The same outcomes: every book after the first is read from the first one's.
            ("[" + [ml + "," + total, ml + "," + total, ml + "," + total].enumerated().map { Self.book("b\($0.offset)", $0.element) }
                .joined(separator: ",") + "]", true),
            // A number line that the one before is a prefix of (1.5, then 1.55), after the tail.
            ("[" + Self.book("a", total) + "," + Self.book("b", total.replacingOccurrences(of: "1.5,", with: "1.55,")) + "]", true),
            // The same tail after an odds member moved to the end; a changed target; spaces.
            ("[" + Self.book("a", ml) + "," + Self.book("b", ml.replacingOccurrences(of: #""odds":"-120","#, with: "")
                .replacingOccurrences(of: "}", with: #","odds":"-125"}"#)) + "," + Self.book("c", ml.replacingOccurrences(of: #""Lakers"}"#, with: #" "Lakers " }"#)) + "]", true),
            // The same tail under another key, with no target or side: the selection is named by its own key.
            ("[" + Self.book("a", #""Draw":{"odds":"+250","link":"https://a.example/3","outcome_name":"Moneyline","outcome_target":null}"#)
                + "," + Self.book("b", #""Tie":{"odds":"+240","link":"https://a.example/4","outcome_name":"Moneyline","outcome_target":null}"#)
                + "]", true),
            // A key that the tail already set, in front of the same tail: a duplicate, left to the generic decoder.
            ("[" + Self.book("a", ml) + "," + Self.book("b", ml.replacingOccurrences(of: #""link""#, with: #""outcome_target":"X","link""#)) + "]", false),
        ]
        for (text, answers) in frames {
            let frame = Array(text.utf8)
            #expect(BoltOddsDecoders.fastAnswers(frame) == answers, "\(text)")
            #expect(BoltOddsDecoders.agree(frame), "\(text)")
        }
        // What the second book of the prefix case holds: its own line.
        let store = try BoltOddsFastPathTests.storeOf(frames[1].0)
        let lines = store.flatMap(\.markets).filter { $0.book == "b" }.flatMap(\.selections).compactMap(\.line)
        #expect(lines == ["1.55"])
        let targets = try BoltOddsFastPathTests.storeOf(frames[2].0).flatMap(\.markets).filter { $0.book == "c" }.flatMap(\.selections).map(\.id)
        #expect(targets == ["Lakers "])
        let draws = try BoltOddsFastPathTests.storeOf(frames[3].0).flatMap(\.markets).flatMap(\.selections).map(\.id)
        #expect(draws == ["Draw", "Tie"])
    }

    @Test("A game's info is read for its `when` whatever its members' order, spelling or types, exactly as the generic decoder reads it")
    func infoShapes() throws {
        let outcomes = #""Lakers Moneyline":{"odds":"-120","link":"https://a.example/1","outcome_name":"Moneyline","outcome_line":null,"outcome_over_under":null,"outcome_target":"Lakers"}"#
        func book(_ name: String, info: String) -> String {
            #"{"action":"initial_state","data":{"sport":"NBA","sportsbook":"\#(name)","game":"Lakers vs Celtics, 2026-11-24, 01","home_team":"Lakers","away_team":"Celtics","info":\#(info),"outcomes":{\#(outcomes)}}}"#
        }
        let when = #""when":"2026-11-24, 01:09 PM""#
        let infos = [
            #"{"id":1,"game":"Lakers vs Celtics, 2026-11-24, 01",\#(when),"link":"https://a.example/e/1"}"#,
            #"{\#(when),"link":"https://a.example/e/1","id":1}"#,                          // moved
            #"{"wh\u0065n":"2026-11-24, 03:09 PM","id":1}"#,                                // an escaped key
            #"{"when":"2026-11-24, 01:09 PM","when":"2026-11-25, 01:09 PM"}"#,               // twice: the last wins
            #"{"when":"2026-11-24, 01:09 PM","when":7}"#,                                    // then not a string: none
            #"{"when":null,"id":"x"}"#, #"{"when":1.5e3}"#, #"{"when":{"a":[1,{"b":2}]}}"#,
            #"{"id":{"nested":["when"]},"link":null,"other":[1,2],\#(when)}"#,             // skipped values of every kind
            #"{"when":"2026-11-24, 01:09 P\u004d","game":"x"}"#,                             // an escape in the value
            #"{"when":"2026-11-24 no time"}"#, #"{}"#, #"[]"#, #""text""#, "null",
        ]
        for info in infos {
            // Enough books that long strings are shared through the memo (it starts after 32 of them).
            let frame = Array(("[" + (0..<40).map { book("b\($0)", info: info) }.joined(separator: ",") + "]").utf8)
            let answers = BoltOddsDecoders.fastAnswers(frame), agrees = BoltOddsDecoders.agree(frame)
            #expect(answers, "\(info)")
            #expect(agrees, "\(info)")
        }
        // The start read is the game's `when` (US Eastern), for every book.
        let frame = "[" + (0..<40).map { book("b\($0)", info: infos[1]) }.joined(separator: ",") + "]"
        let starts = Set(try BoltOddsFastPathTests.storeOf(frame).map(\.startTime))
        #expect(starts == [ISO8601DateFormatter().date(from: "2026-11-24T18:09:00Z")])
    }

    @Test("A link that repeats the last one's head is read by its tail, exactly as the generic decoder reads and splits it")
    func linksByTail() throws {
        func outcome(_ i: Int, _ link: String) -> String {
            #""Lakers \#(i) Moneyline":{"odds":"-12\#(i)","link":"\#(link)","outcome_name":"M\#(i)","outcome_line":null,"outcome_over_under":null,"outcome_target":"Lakers"}"#
        }
        let head = "https://sportsbook.example.com/event/1022036000?outcomes="
        // After a link with this head, the next one's tail: plain digits, then every kind of byte a
        // tail may not hold or end at, and lengths either side of 15.
        let tails = ["3815533798", "3", "123456789012345", "1234567890123456", "", "38/15", "38=15", #"38\u003015"#, "38é15",
                     "38\\/15", "a b", "x?y", "3815533798/", "="]
        for tail in tails {
            let outcomes = [outcome(0, head + "3815533797"), outcome(1, head + tail), outcome(2, head + "3815533799")]
            let frame = Array(("[" + ["b0", "b1", "b2"].map { Self.book($0, outcomes.joined(separator: ",")) }.joined(separator: ",") + "]").utf8)
            let answers = BoltOddsDecoders.fastAnswers(frame), agrees = BoltOddsDecoders.agree(frame)
            #expect(answers, "tail \(tail)")
            #expect(agrees, "tail \(tail)")
        }
        // The same head, then another head that starts like it, then a link of the head alone.
        let mixed = [outcome(0, head + "1"), outcome(1, head + "2"), outcome(2, "https://sportsbook.example.com/event/10220360001?o=3"),
                     outcome(3, head), outcome(4, head + "5")].joined(separator: ",")
        let frame = Array(("[" + Self.book("a", mixed) + "," + Self.book("b", mixed) + "]").utf8)
        #expect(BoltOddsDecoders.fastAnswers(frame) && BoltOddsDecoders.agree(frame))
        // A link near the end of the frame (fewer than 16 bytes after its tail's start), read byte by byte.
        let last = Array(("[" + Self.book("a", outcome(0, head + "1") + "," + #""L":{"link":"\#(head)42"}"#) + "]").utf8)
        #expect(BoltOddsDecoders.fastAnswers(last) && BoltOddsDecoders.agree(last))
        let links = try BoltOddsFastPathTests.storeOf(String(decoding: last, as: UTF8.self)).flatMap(\.markets).flatMap(\.selections).map(\.link)
        #expect(links == [head + "1", head + "42"])
    }

    @Test("Markets that grow or shrink from one book to the next read exactly as the generic decoder reads them")
    func marketSizes() throws {
        func total(_ book: Int, _ lines: [String]) -> String {
            lines.flatMap { line in ["Over", "Under"].map { side in
                #""\#(side) \#(line) Total":{"odds":"+1\#(book)0","link":"https://a.example/\#(book)/\#(side)\#(line)","outcome_name":"Total","outcome_line":"\#(line)","outcome_over_under":"\#(side)","outcome_target":null}"#
            } }.joined(separator: ",")
        }
        let ml = #""Lakers Moneyline":{"odds":"-120","link":"https://a.example/1","outcome_name":"Moneyline","outcome_line":null,"outcome_over_under":null,"outcome_target":"Lakers"}"#
        // Books in turn with 2, 6, 2, 0, 4 and 8 selections in the market begun at the same position.
        let sizes = [["1.5"], ["1.5", "2.5", "3.5"], ["1.5"], [], ["1.5", "2.5"], ["1.5", "2.5", "3.5", "4.5"]]
        let frame = "[" + sizes.enumerated().map { b, lines in
            Self.book("b\(b)", ([ml] + (lines.isEmpty ? [] : [total(b, lines)])).joined(separator: ","))
        }.joined(separator: ",") + "]"
        #expect(BoltOddsDecoders.fastAnswers(Array(frame.utf8)))
        #expect(BoltOddsDecoders.agree(Array(frame.utf8)))
        let markets = try BoltOddsFastPathTests.storeOf(frame).flatMap(\.markets).filter { $0.id == "Total" }
        #expect(markets.map(\.selections.count) == [2, 6, 2, 4, 8])
    }

    /// A frame of `games` games × `books` books (outcomes as a full subscription sends them), each
    /// message with `extra` members before its data.
    static func state(games: Int, books: Int, extra: (Int) -> String = { _ in "" }, separator: String = ",") -> [UInt8] {
        var messages: [String] = []
        for g in 0..<games {
            for b in 0..<books {
                let outcomes = #""Home \#(g) Moneyline":{"odds":"+1\#(b)\#(g % 10)","link":"https://b\#(b).example/e/\#(g)?o=1","outcome_name":"Moneyline","outcome_line":null,"outcome_over_under":null,"outcome_target":"Home \#(g)"},"Over 2.5 Total":{"odds":"-1\#(g % 90 + 10)","link":"https://b\#(b).example/e/\#(g)?o=2","outcome_name":"Total","outcome_line":"2.5","outcome_over_under":"Over","outcome_target":null}"#
                messages.append(#"{\#(extra(g))"action":"initial_state","data":{"sport":"NBA","sportsbook":"b\#(b)","game":"Home \#(g) vs Away \#(g), 2026-11-24, 01","home_team":"Home \#(g)","away_team":"Away \#(g)","outcomes":{\#(outcomes)}}}"#)
            }
        }
        return Array(("[" + messages.joined(separator: separator) + "]").utf8)
    }

    @Test("A large frame read in two halves at once gives exactly what reading it whole gives, whether or not the guessed cut is between two messages")
    func halves() throws {
        // Between two messages, with spaces around the comma: the second half's answer is used.
        for separator in [",", " ,\n ", ", "] {
            let frame = Self.state(games: 300, books: 3, separator: separator)
            let read = BoltOddsDecoders.split(frame)
            #expect(read.agrees && read.halves, "separator \(Array(separator.utf8))")
            #expect(BoltOddsDecoders.fastAnswers(frame))
        }
        // Every message holds an array of objects (`}, {` inside it): cut there, the first half
        // finds no message starting at the cut and reads on to the end.
        let nested = Self.state(games: 300, books: 3, extra: { _ in #""tags":[{"a":1},{"b":2},{"c":3}],"# })
        let inside = Array(#"{"b":2}"#.utf8)
        let cut = nested.indices.first { $0 > nested.count / 2 && nested[$0...].starts(with: inside) }!
        let n = BoltOddsDecoders.split(nested, at: cut)
        #expect(n.agrees && !n.halves)
        #expect(BoltOddsDecoders.split(nested).agrees)
        // A message past the middle that the fast path does not read (another action): no fast
        // answer at all, as when read whole, and nothing of the first half is kept.
        var text = String(decoding: Self.state(games: 300, books: 3), as: UTF8.self)
        let late = text.range(of: #""sportsbook":"b1","game":"Home 250 "#)!
        text.replaceSubrange(text.range(of: #""action":"initial_state""#, options: .backwards, range: text.startIndex..<late.lowerBound)!,
                             with: #""action":"ping""#)
        let ping = Array(text.utf8)
        #expect(BoltOddsDecoders.split(ping).agrees)
        #expect(!BoltOddsDecoders.fastAnswers(ping))
        // Broken JSON after the cut, and trailing bytes after the array: no answer, as when read whole.
        let whole = Self.state(games: 300, books: 3)
        let broken = Array(whole[..<(whole.count - 40)]) + Array(whole[(whole.count - 30)...])
        #expect(BoltOddsDecoders.split(broken).agrees)
        #expect(!BoltOddsDecoders.fastAnswers(broken))
        let trailing = whole + Array(" x".utf8)
        #expect(BoltOddsDecoders.split(trailing).agrees)
        #expect(!BoltOddsDecoders.fastAnswers(trailing))
    }

    @Test("Read for a store, a game's books' views in a row are one update, and a store folds it as it folds the views, read whole or in halves")
    func mergedBookViews() throws {
        let frame = Self.state(games: 300, books: 3)
        let read = try #require(BoltOddsFast.frame(frame, splitAt: .max, merging: true))
        #expect(read.updates.count == 300)
        #expect(read.updates.allSatisfy { if case .bookViews(let e, let books) = $0 { books == ["b0", "b1", "b2"] && e.markets.count == 6 } else { false } })
        #expect(try #require(BoltOddsFast.frame(frame, splitAt: .max)).updates.count == 900, "not merged unless asked")
        let halves = try #require(BoltOddsFast.frame(frame, splitAt: 0, merging: true))
        #expect(!halves.later.isEmpty && halves.updates.count + halves.later.count >= 300 && halves.updates.count + halves.later.count <= 301)
        #expect(BoltOddsDecoders.mergedAgree(frame))
        // A view the store would fold otherwise (another home team), a price update between two books'
        // views, and the simulator's initial state (pings, an error and an unreadable message among the views).
        var text = String(decoding: frame, as: UTF8.self)
        text = text.replacingOccurrences(of: #""sportsbook":"b2","game":"Home 7 vs Away 7, 2026-11-24, 01","home_team":"Home 7""#,
                                         with: #""sportsbook":"b2","game":"Home 7 vs Away 7, 2026-11-24, 01","home_team":"Home Seven""#)
        text = text.replacingOccurrences(of: #"{"action":"initial_state","data":{"sport":"NBA","sportsbook":"b2","game":"Home 9 "#,
                                         with: #"{"action":"line_update","data":{"sport":"NBA","sportsbook":"b2","game":"Home 9 "#)
        let odd = Array(text.utf8)
        let oddRead = try #require(BoltOddsFast.frame(odd, splitAt: .max, merging: true))
        #expect(oddRead.updates.count == 303, "game 7 in two runs and game 9's views around its price updates")
        #expect(BoltOddsDecoders.mergedAgree(odd))
        #expect(BoltOddsDecoders.mergedAgree(Array(StreamingTests.boltInitialState().utf8)))
    }

    @Test("Cut at any brace, the halves agree with the whole frame, and only a cut between messages is used")
    func halvesAtEveryCut() throws {
        // Nested objects and arrays of objects, outcomes and messages: every `{` is tried as a cut.
        let frame = Self.state(games: 3, books: 2, extra: { g in g == 1 ? #""i":[{},{"k":[{"x":1}, {"y":2}]}],"# : "" })
        let starts = Set(Self.messageStarts(frame))
        var used = 0
        for cut in frame.indices where frame[cut] == UInt8(ascii: "{") {
            let read = BoltOddsDecoders.split(frame, at: cut)
            #expect(read.agrees, "cut at \(cut)")
            #expect(read.halves == (starts.contains(cut) && cut > 1), "cut at \(cut)")
            if read.halves { used += 1 }
        }
        #expect(used == starts.count - 1)
    }

    /// Where each message of a frame `state` made starts.
    static func messageStarts(_ frame: [UInt8]) -> [Int] {
        var starts: [Int] = []
        var depth = 0, inString = false, escaped = false
        for (i, b) in frame.enumerated() {
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch b {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if depth == 1, b == UInt8(ascii: "{") { starts.append(i) }
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        return starts
    }

    @Test("Odds read again are the prices read the first time: texts that share a slot, a run of slots full, a table three quarters full")
    func pricesRemembered() throws {
        // Texts whose keys start at the same slot of the table, found by search.
        func key(_ text: String) -> UInt64 { text.utf8.reversed().reduce(0) { $0 << 8 | UInt64($1) } }
        var bySlot: [Int: [String]] = [:]
        for n in 100...60_000 {
            let text = "+\(n)"
            bySlot[PriceTable.home(key(text)), default: []].append(text)
        }
        let crowded = try #require(bySlot.values.first { $0.count > PriceTable.run + 1 }).prefix(PriceTable.run + 2)
        let table = PriceTable()
        for text in crowded {
            table.remember(key(text), Price(american: text))
        }
        // The first `run` are found again, each its own; those past the run were not taken.
        for (i, text) in crowded.enumerated() {
            let found = table.price(key(text))
            if i < PriceTable.run { #expect(found == .some(Price(american: text)), "\(text)") } else { #expect(found == nil, "\(text)") }
        }
        #expect(table.count == PriceTable.run)
        // No more than three quarters of the table is taken.
        for n in 0..<PriceTable.capacity { table.remember(key("-\(n + 100)"), Price(american: "-\(n + 100)")) }
        #expect(table.count == PriceTable.capacity * 3 / 4)
        #expect(table.price(key("-100")) == .some(Price(american: "-100")))
        // A frame whose odds crowd the slots and outnumber the table, in games of ten outcomes at two books
        // (the second reads them from the table): exactly what the generic decoder reads.
        let texts = Array(crowded) + (0..<4_000).map { $0 % 3 == 0 ? "-\(110 + $0)" : "+\(101 + $0 * 7)" } + ["", "+100", "-110"]
        let games = stride(from: 0, to: texts.count, by: 10).map { first in
            let outcomes = texts[first..<min(first + 10, texts.count)].enumerated().map { i, odds in
                #""O\#(i)":{"odds":"\#(odds)","outcome_name":"Moneyline","outcome_target":"T\#(i)"}"#
            }.joined(separator: ",")
            return ["a", "b"].map { book in
                Self.book(book, outcomes).replacingOccurrences(of: "Lakers vs Celtics", with: "G\(first) vs H\(first)")
            }.joined(separator: ",")
        }
        let frame = Array(("[" + games.joined(separator: ",") + "]").utf8)
        let answers = BoltOddsDecoders.fastAnswers(frame), agrees = BoltOddsDecoders.agree(frame)
        #expect(answers)
        #expect(agrees)
        // Tables are lent and given back, and no more are kept than the pool's limit (a pool of the
        // test's own: the decoders' is shared with every test running at once).
        let pool = PriceTable.Pool(limit: 2)
        var loans = (0..<3).map { _ in PriceTable.Loan(from: pool) }
        let lent = loans.map { ObjectIdentifier($0.table) }
        #expect(Set(lent).count == 3 && pool.spareCount == 0)
        loans.removeAll()
        #expect(pool.spareCount == 2)
        let again = PriceTable.Loan(from: pool)
        #expect(lent.contains(ObjectIdentifier(again.table)) && pool.spareCount == 1)
    }

    static func storeOf(_ text: String) throws -> [Event] {
        let adapter = BoltOddsClient.feedConnections(settings: ProviderSettings(key: "k", restURL: "", webSocketURL: ""),
                                                     filters: BoltOddsFilters())[0]
        var store = LiveStore()
        for u in try adapter.decode(Array(text.utf8), first: false) {
            store.apply(FeedMessage(provider: .boltodds, receivedAt: Date(), update: u))
        }
        return store.currentEvents()
    }
}
