import Foundation
import OddsModel
import OddsStore
import OddsOutput
import OddsTransport
@testable import OddsTickOdds
import OddsTestSupport
import Testing

/// The byte-level fast paths of the model's text readers agree with the Character-level originals.
@Suite("Fast paths agree with their references", .unitLane)
struct FastPathTests {
    /// Random ASCII strings made of the characters that matter to these readers.
    static func samples(_ alphabet: String, count: Int = 3000, seed: UInt64 = 7) -> [String] {
        var random = SeededRandom(seed: seed)
        let chars = Array(alphabet)
        return (0..<count).map { _ in
            String((0..<Int(random.next() % 9)).map { _ in chars[Int(random.next() % UInt64(chars.count))] })
        }
    }

    @Test("A large table's TSV, made in two halves at once, is byte for byte the TSV of the whole table, labels and hostile text included")
    func tsvInHalves() {
        // Past `splitRows` events: several sports (a SPORT column), several books, cells with tabs, newlines and escapes.
        let events = (0..<1_501).map { i -> Event in
            let books = ["draftkings", "fanduel", "betmgm"].prefix(1 + i % 3)
            let markets = books.enumerated().map { b, book in
                Market(id: "ml", name: "Moneyline", book: book, selections: [
                    Selection(id: "home", name: "Home \(i)", price: Price(american: i % 7 == 0 ? "+\(100 + i)" : "-\(110 + b)")),
                    Selection(id: "away", name: "Away \(i)", price: Price(american: "+\(120 + i % 50 + b)"), suspended: i % 11 == 0),
                ])
            }
            let hostile = i % 97 == 0 ? "\t\u{1B}]0;x\u{07}\n" : ""
            return Event(provider: .boltodds, id: "g\(i)", sport: i % 5 == 0 ? "tennis" : "basketball", league: "L\(i % 9)\(hostile)",
                         home: "Home \(i)", away: "Away \(i)", status: .live, clock: "Q\(1 + i % 4)", markets: markets)
        }
        for options in [RenderOptions(), RenderOptions(oddsFormat: .american, demo: true, replay: true), RenderOptions(replay: true)] {
            let whole = EventReporter.table(events, options: options).labelled(options).renderTSV()
            #expect(EventReporter.render(events, format: .tsv, options: options) == whole)
            #expect(whole.split(separator: "\n").count == 1 + events.count)
        }
    }

    @Test("Rational.rounded writes what joining its whole and padded fraction parts as strings writes: signs, carries, zeros, large values")
    func roundedDigits() throws {
        // The reference: the whole part and the fraction's digits made strings and joined, as it was written before.
        func reference(_ r: Rational, _ places: Int) -> String {
            var scale: Int64 = 1
            for _ in 0..<places { scale *= 10 }
            let scaled = r.numerator.magnitude.multipliedFullWidth(by: UInt64(scale))
            let d = UInt64(r.denominator)
            let (q, rem) = d.dividingFullWidth((scaled.high, scaled.low))
            let quotient = q + (rem >= d - rem ? 1 : 0)
            var text = String(quotient / UInt64(scale))
            if places > 0 {
                let digits = String(quotient % UInt64(scale))
                text += "." + String(repeating: "0", count: places - digits.count) + digits
            }
            return r.numerator < 0 && quotient != 0 ? "-" + text : text
        }
        var generator = SystemRandomNumberGenerator()
        var values = [(Int64(0), Int64(1)), (1, 1), (-1, 3), (995, 1000), (-995, 1000), (199, 200), (1, 200), (-1, 200),
                      (Int64.max, 1), (Int64.max, 7), (-Int64.max, 3), (123_456_789, 10_000), (5, 1000), (-4, 1000), (9_999_999, 1)]
        for _ in 0..<2_000 {
            values.append((Int64.random(in: -2_000_000...2_000_000, using: &generator), Int64.random(in: 1...100_000, using: &generator)))
        }
        for (n, d) in values {
            let r = try #require(Rational(n, d))
            for places in [0, 1, 2, 4, 6, 9] where !(places > 0 && r.numerator.magnitude > UInt64(Int64.max) / 1_000_000_000) {
                #expect(r.rounded(places: places) == reference(r, places), "\(n)/\(d) to \(places) places")
            }
        }
        #expect(try #require(Rational(-1, 1000)).rounded(places: 2) == "0.00")
        #expect(try #require(Rational(381, 100)).rounded(places: 2) == "3.81")
        #expect(try #require(Rational(2, 1)).rounded(places: 0) == "2")
    }

    @Test("sportSlug on ASCII equals lowercasing, splitting on space and underscore, joining with '-'")
    func slug() {
        for s in FastPathTests.samples("aZ _-9Ice Hockey") + ["Soccer", "Ice Hockey", "ice_hockey", "  A  B ", "", "__", "Ünïcode Sport"] {
            let reference = s.lowercased().split(whereSeparator: { $0 == " " || $0 == "_" }).joined(separator: "-")
            #expect(sportSlug(s) == reference, "\(s)")
        }
    }

    @Test("Score(text:) on ASCII reads as the Foundation-trimmed split does")
    func score() {
        for s in FastPathTests.samples("0129 -:\t+x") + ["2-1", " 2 - 1 ", "2:1", "-2-1", "245/6", "1-2-3", "99999999999999999999-1", "2\u{A0}-1"] {
            let parts = s.split(whereSeparator: { $0 == "-" || $0 == ":" })
            var reference: Score?
            if parts.count == 2, let h = Int(parts[0].trimmingCharacters(in: .whitespaces)),
               let a = Int(parts[1].trimmingCharacters(in: .whitespaces)) { reference = Score(home: h, away: a) }
            #expect(Score(text: s) == reference, "\(s)")
        }
    }

    @Test("A selection id splits on ':' as String.split does, ASCII or not")
    func selectionRef() {
        for s in FastPathTests.samples("ab:1", count: 4000) + ["1:full_time_result:full_game:home", "::a::b:c:d:", "é:b:c:d", "a:b:c"] {
            let parts = s.split(separator: ":").map(String.init)
            let reference = parts.count >= 4 ? ("\(parts[1]):\(parts[2])", parts[3]) : ("mk", nil as String?)
            let ref = TickOddsWire.selectionRef(s, marketKey: "mk")
            #expect(ref.marketID == reference.0 && ref.side == reference.1, "\(s)")
        }
    }
}

@Suite("TickOdds suspensions", .unitLane)
struct TickOddsSuspensionTests {
    static func update(suspended: Bool, odds: String) -> String {
        let event = #"{"fixtureId":"7","sportName":"Soccer","home":"A","away":"B","status":"in_progress","marketGroups":[{"name":"Fulltime Result","key":"full_time_result","period":"full_game","selections":[{"name":"A","odds":\#(odds),"side":"home"},{"name":"B","odds":3.10,"side":"away"}]}]}"#
        return #"{"type":"update","fixtureId":"7","change":"odds","event":\#(event),"selection":{"id":"7:full_time_result:full_game:home","name":"A","odds":\#(odds),"handicap":null,"suspended":\#(suspended)},"marketName":"Fulltime Result"}"#
    }

    @Test("A selection suspended by its odds update stays suspended in the refreshed event and later ones, until an update reopens it")
    func staysSuspended() throws {
        let feed = TickOddsFeed(settings: ProviderSettings(key: nil, restURL: "", webSocketURL: ""), sport: nil)
        var store = LiveStore()
        func apply(_ text: String) throws {
            for u in try feed.decode(text, first: false) { store.apply(FeedMessage(provider: .tickodds, receivedAt: Date(), update: u)) }
        }
        func home() -> Selection? { store.events[EventKey(provider: .tickodds, id: "7")]?.event.markets.first?.selections.first }
        try apply(TickOddsSuspensionTests.update(suspended: true, odds: "2.10"))
        #expect(home()?.suspended == true)
        // Another change of the match: its refreshed event does not mention the suspension.
        let score = #"{"type":"update","fixtureId":"7","change":"score","from":"0-0","to":"1-0","event":{"fixtureId":"7","sportName":"Soccer","home":"A","away":"B","score":"1-0","status":"in_progress","marketGroups":[{"name":"Fulltime Result","key":"full_time_result","period":"full_game","selections":[{"name":"A","odds":2.10,"side":"home"},{"name":"B","odds":3.10,"side":"away"}]}]}}"#
        try apply(score)
        #expect(home()?.suspended == true)
        #expect(store.events.values.first?.event.markets.first?.selections.last?.suspended == false)
        try apply(TickOddsSuspensionTests.update(suspended: false, odds: "2.20"))
        #expect(home()?.suspended == false)
        #expect(home()?.price?.text == "2.20")
    }
}

@Suite("Scores that are not N-N", .unitLane)
struct ScoreTextTests {
    @Test("A tennis or cricket score keeps its text and its event; the update is not dropped; tables show the text")
    func kept() throws {
        let feed = TickOddsFeed(settings: ProviderSettings(key: nil, restURL: "", webSocketURL: ""), sport: nil)
        let event = #"{"fixtureId":"5","sportName":"Tennis","home":"Alcaraz","away":"Sinner","score":"6-4 3-2","status":"in_progress","marketGroups":[]}"#
        let update = #"{"type":"update","fixtureId":"5","change":"score","from":"6-4 2-2","to":"6-4 3-2","event":\#(event)}"#
        for decode in [{ try TickOddsDecoders.generic(Array(update.utf8)) }, { try feed.decode(update, first: false) }] {
            let updates = try decode()
            guard case .upsert(let e)? = updates.last else { Issue.record("no upsert: \(updates)"); continue }
            #expect(e.score == nil && e.scoreText == "6-4 3-2" && e.scoreLabel == "6-4 3-2")
        }
        #expect(TickOddsDecoders.fast(Array(update.utf8)) == (try TickOddsDecoders.generic(Array(update.utf8))))
        let cricket = try TickOddsDecoders.generic(Array(#"{"type":"match_start","event":{"fixtureId":"6","sportName":"Cricket","home":"India","away":"Australia","score":"245/6"}}"#.utf8))
        guard case .upsert(let c)? = cricket.first else { Issue.record("no event"); return }
        #expect(c.scoreText == "245/6")
        let table = EventReporter.render([c], format: .table, options: RenderOptions(width: 120))
        #expect(table.contains("245/6"))
        let n = Event(provider: .tickodds, id: "1", sport: "soccer", home: "A", away: "B", score: Score(home: 2, away: 1), scoreText: "2-1")
        #expect(n.scoreText == nil && n.scoreLabel == "2-1")
    }
}

@Suite("TickOdds fast path memory", .unitLane)
struct TickOddsTemplateTests {
    /// An update of fixture 9 as the simulator writes it, with each part replaceable.
    static func update(head: String = #""fixtureId":"9","sportName":"Soccer","league":"Süper Lig","home":"Göztepe","away":"B","score":"1-0","clock":"10:00","period":"1st Half","status":"in_progress""#,
                       home: String = "2.10", over: String = "1.5", groupTail: String = #","industryKey":"h2h_3_way","period":"full_game""#,
                       flatPrice: String = "2.10", legacy: String = #"{"Fulltime Result":{"Göztepe":2.10,"B":3.40},"Goals":{"Over":1.5}}"#,
                       selection: String = #"{"id":"9:full_time_result:full_game:home","name":"Göztepe","odds":2.10,"handicap":null,"suspended":false}"#) -> [UInt8] {
        let groups = #"[{"name":"Fulltime Result","key":"full_time_result"\#(groupTail),"selections":[{"id":"9:full_time_result:full_game:home","name":"Göztepe","odds":\#(home),"side":"home","isMain":true},{"id":"9:full_time_result:full_game:away","name":"B","odds":3.40,"side":"away","isMain":true}]},{"name":"Goals","key":"total_goals","period":"full_game","selections":[{"name":"Over","odds":\#(over),"side":"over","handicap":2.5},{"name":"Under","odds":2.50,"side":"under","handicap":2.5}]}]"#
        let flat = #"[{"id":"9:full_time_result:full_game:home","marketKey":"full_time_result","side":"home","price":\#(flatPrice)},{"id":"9:full_time_result:full_game:away","marketKey":"full_time_result","side":"away","price":3.40}]"#
        let event = "{\(head),\"marketGroups\":\(groups),\"odds\":\(flat),\"legacyOdds\":\(legacy)}"
        return Array(#"{"type":"update","fixtureId":"9","change":"odds","event":\#(event),"selection":\#(selection),"marketName":"Fulltime Result"}"#.utf8)
    }

    @Test("Frames that repeat, change, move, duplicate or respace members of a remembered fixture read exactly as the generic decoder reads them")
    func agreesAcrossChanges() throws {
        typealias T = TickOddsTemplateTests
        let head = #""fixtureId":"9","sportName":"Soccer","league":"Süper Lig","home":"Göztepe","away":"B","score":"1-0","clock":"10:00","period":"1st Half","status":"in_progress""#
        let frames: [[UInt8]] = [
            T.update(),
            T.update(),                                                                   // all from memory
            T.update(head: head.replacingOccurrences(of: "10:00", with: "10:01")),        // the clock alone: the event patched
            T.update(head: head.replacingOccurrences(of: "1-0", with: "2-0")),            // the score: built again
            T.update(head: head.replacingOccurrences(of: "in_progress", with: "suspended")), // every line suspended
            T.update(),                                                                   // and open again
            T.update(home: "2.15"),                                                       // one selection of a group
            T.update(over: "1.55"),                                                       // a number the last one is a prefix of
            T.update(over: "1.5 "),                                                       // the same number, spaced
            T.update(groupTail: #","period":"full_game","industryKey":"h2h_3_way""#),     // members moved
            T.update(groupTail: #","period":"full_game","period":"first_half""#),         // a duplicate key: the last wins
            T.update(head: #""fixtureId":"9","home":"Göztepe","sportName":"Soccer","away":"B","score":"1-0","clock":"10:00","status":"in_progress""#), // moved, one gone
            T.update(head: head + #","home":"Other""#),                                   // a duplicate of a remembered member
            T.update(head: head + #","fixtureId":"10""#),                                 // another fixture's id, late
            T.update(head: head.replacingOccurrences(of: "\"away\":\"B\"", with: "\"away\": \"B\"")),
            T.update(head: head.replacingOccurrences(of: "\"league\":\"Süper Lig\"", with: "\"league\":{\"name\":\"x\"}")),
            T.update(flatPrice: "2.20"),
            T.update(legacy: #"{"Fulltime Result":{"Göztepe":2.20,"B":3.40},"Goals":{"Over":1.5}}"#),
            T.update(legacy: #"{"Goals":{"Over":1.5},"Fulltime Result":{"Göztepe":2.20,"B":3.40}}"#),
            T.update(legacy: "[]"),
            T.update(selection: #"{"id":"9:total_goals:full_game:over","name":"Over","odds":1.6,"handicap":2.5,"suspended":true}"#),
            T.update(selection: #"{"id":"9:total_goals:full_game:over","name":"Over","odds":1.6,"handicap":2.5,"suspended":true}"#),
            T.update(),
        ]
        let cache = TickOddsMarketCache()
        for (i, frame) in frames.enumerated() {
            let generic = try TickOddsDecoders.generic(frame)
            let fast = try #require(TickOddsDecoders.fast(frame, cache: cache), "frame \(i): no fast answer")
            #expect(fast == generic, "frame \(i)")
        }
        #expect(cache.hits > 20, "\(cache.hits) cache hits")
    }

    @Test("A connection's market cache, and a detached reader's, forget the fixtures a match_end removes and those a snapshot leaves out")
    func cacheForgets() throws {
        func start(_ id: Int) -> [UInt8] {
            Array(#"{"type":"match_start","event":{"fixtureId":"\#(id)","sportName":"Soccer","home":"H","away":"A","status":"in_progress","marketGroups":[{"name":"Goals","key":"total_goals","period":"full_game","selections":[{"name":"Over","odds":1.5,"side":"over","handicap":2.5}]}]}}"#.utf8)
        }
        let end = Array(#"{"type":"match_end","fixtureId":"2"}"#.utf8)
        let snapshot = Array(#"{"type":"snapshot","count":1,"events":[{"fixtureId":"3","sportName":"Soccer","home":"H","away":"A","status":"in_progress"}]}"#.utf8)
        let feed = TickOddsFeed(settings: ProviderSettings(key: nil, restURL: "", webSocketURL: ""), sport: nil)
        for id in 1...3 { _ = try feed.receive(start(id), first: false) }
        #expect(feed.marketCache.count == 3)
        _ = try feed.receive(end, first: false)
        #expect(feed.marketCache.count == 2)
        _ = try feed.receive(snapshot, first: false)
        #expect(feed.marketCache.count == 1)
        // A detached reader keeps its own cache the same way (`read` is what it runs).
        let cache = TickOddsMarketCache()
        for frame in [start(1), start(2), start(3)] { _ = try frame.withUnsafeBufferPointer { try TickOddsFeed.read($0, cache: cache) } }
        #expect(cache.count == 3)
        _ = try end.withUnsafeBufferPointer { try TickOddsFeed.read($0, cache: cache) }
        #expect(cache.count == 2)
        _ = try snapshot.withUnsafeBufferPointer { try TickOddsFeed.read($0, cache: cache) }
        #expect(cache.count == 1)
        #expect(feed.detachedDecoder() != nil)
    }

    @Test("Events that differ from the last only inside member values are read against its layout, exactly as the generic decoder reads them")
    func layout() throws {
        typealias T = TickOddsTemplateTests
        let head = #""fixtureId":"9","sportName":"Soccer","league":"Süper Lig","home":"Göztepe","away":"B","score":"1-0","clock":"10:00","period":"1st Half","status":"in_progress""#
        let values: [[UInt8]] = [
            T.update(head: head.replacingOccurrences(of: "10:00", with: "10:01")),          // the clock
            T.update(head: head.replacingOccurrences(of: "1-0", with: "1-1")),              // the score: every field again
            T.update(head: head.replacingOccurrences(of: "in_progress", with: "suspended")), // every line suspended
            T.update(head: head.replacingOccurrences(of: "in_progress", with: "suspended"), home: "2.30"), // and a price while suspended
            T.update(home: "2.15"),
            T.update(home: "2.155"),                                                          // a number the last is a prefix of
            T.update(home: "2.1"),
            T.update(home: "null"),                                                           // no price: suspended
            T.update(home: #""2.40""#),                                                       // a price as a string
            T.update(home: #"{"x":[1,2]}"#),                                                  // a container where a number was
            T.update(over: "1.75", flatPrice: "2.25"),                                        // two groups' and the flat list's values
            T.update(home: "2.1000", over: "2"),                                              // one grows, a later one shrinks as much
            T.update(head: head.replacingOccurrences(of: "Göztepe", with: "Göztepe SK")),     // a team's name
            T.update(head: head.replacingOccurrences(of: "\"Soccer\"", with: "\"Ice Hockey\"")),
            T.update(head: head.replacingOccurrences(of: "\"1st Half\"", with: "null")),
            T.update(groupTail: #","industryKey":"h2h","period":"first_half""#),              // a group's period: its market id
            T.update(groupTail: #","industryKey":{"a":1},"period":"full_game""#),            // a skipped member's value
            T.update(legacy: #"{"Fulltime Result":{"Göztepe":9.10,"B":3.40},"Goals":{"Over":1.5}}"#),
            T.update(selection: #"{"id":"9:total_goals:full_game:over","name":"Over","odds":1.6,"handicap":2.5,"suspended":true}"#),
        ]
        let cache = TickOddsMarketCache()
        _ = try #require(TickOddsDecoders.fast(T.update(), cache: cache))
        for (i, value) in values.enumerated() {
            // Each change from the event before, then back.
            for frame in [value, T.update()] {
                let hits = cache.layoutHits
                let generic = try TickOddsDecoders.generic(frame)
                let fast = try #require(TickOddsDecoders.fast(frame, cache: cache), "change \(i): no fast answer")
                #expect(fast == generic, "change \(i)")
                #expect(cache.layoutHits == hits + 1, "change \(i): not read against the layout")
            }
        }
        // A chain of frames, each compared with the one before (not the base): changes of the same length
        // before a change of length, and after it, are remembered exactly.
        let clock = { (c: String) in head.replacingOccurrences(of: "10:00", with: c) }
        let chain: [[UInt8]] = [
            T.update(head: clock("10:01"), home: "2.155", over: "1.6"),
            T.update(head: clock("10:02"), home: "2.15", over: "1.7", flatPrice: "2.5"),
            T.update(head: clock("10:03"), home: "2.1555", over: "1.8", flatPrice: "2.45"),
            T.update(head: clock("10:03"), home: "2.2555", over: "1.75", flatPrice: "2.45"),
            T.update(head: clock("10:04"), home: "2.2", over: "1.75", flatPrice: "2.4"),
            T.update(),
        ]
        for (i, frame) in chain.enumerated() {
            let hits = cache.layoutHits
            let fast = try #require(TickOddsDecoders.fast(frame, cache: cache), "chain \(i): no fast answer")
            #expect(fast == (try TickOddsDecoders.generic(frame)), "chain \(i)")
            #expect(cache.layoutHits == hits + 1, "chain \(i): not read against the layout")
        }
        // A value that is not JSON: the message is left to the generic decoder, and the next is read as usual.
        let broken = Array(String(decoding: T.update(home: "2.15"), as: UTF8.self).replacingOccurrences(of: "2.15", with: "2.1.5").utf8)
        #expect(TickOddsDecoders.fast(broken, cache: cache) == nil)
        #expect(TickOddsDecoders.fast(T.update(home: "2.15"), cache: cache) == (try TickOddsDecoders.generic(T.update(home: "2.15"))))
    }
}

