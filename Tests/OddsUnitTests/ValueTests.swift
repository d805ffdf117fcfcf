import Foundation
import OddsFusion
import OddsJSON
import OddsBoltOdds
import OddsModel
import OddsOutput
import OddsStore
import OddsTestSupport
@testable import OddsValue
import Testing

/// What the prices mean (issue 21): margins, fair prices, EV and arbitrage on worked examples with known answers.
@Suite("Margins, fair prices, value and arbitrage", .unitLane)
struct ValueTests {
    static func f(_ text: String) -> Fraction { Fraction(decimalText: text)! }
    static func implied(_ prices: [String]) -> [Fraction] { prices.map { Fraction(Price(decimal: $0)!.impliedProbability) } }

    /// A two-team match with one result market per book.
    static func event(sport: String = "basketball", status: EventStatus = .live, _ books: [(String, [String?])],
                      names: [String] = ["Home FC", "Away FC"], suspended: Set<String> = []) -> Event {
        let markets = books.map { book, prices in
            Market(id: "ml", name: "Match Winner", book: book, selections: zip(names, prices).compactMap { name, p in
                p.map { Selection(id: name, name: name, price: Price(decimal: $0), suspended: suspended.contains("\(book):\(name)")) }
            })
        }
        return Event(provider: .boltodds, id: "g1", sport: sport, home: "Home FC", away: "Away FC", status: status, markets: markets)
    }

    @Test("1.91 / 1.91 is a 4.71 % margin and fair 2.00 each")
    func twoWayMargin() {
        let values = ValueAnalysis.analyze(Self.event([("book1", ["1.91", "1.91"])]), settings: ValueSettings()) { _ in 0 }
        let m = try! #require(values.first)
        #expect(m.books[0].margin!.rounded(places: 4) == "0.0471")
        // Exactly 2/1.91 − 1 = 9/191.
        #expect(m.books[0].margin == Fraction(9, 191))
        #expect(m.fairPrice(0) == Fraction(2))
        #expect(m.fairPrice(1) == Fraction(2))
        // EV = 1.91 × 0.5 − 1 = −0.045.
        #expect(m.books[0].ev[0] == Self.f("-0.045"))
        #expect(m.arbitrage == nil)
    }

    @Test("A three-way market: margin, each method's fair probabilities summing to 1")
    func threeWay() throws {
        let q = Self.implied(["2.60", "2.40", "4.30"])
        let margin = q.reduce(Fraction.zero, +) - .one
        #expect(margin.rounded(places: 6) == "0.033840")
        for method in DevigMethod.allCases {
            let p = try #require(method.fair(q), "\(method)")
            #expect(p.reduce(Fraction.zero, +) == .one, "\(method)")
            #expect(p[1] > p[0] && p[0] > p[2], "\(method)")
        }
        // Multiplicative, exactly: (1/2.6) / Σ.
        let mult = DevigMethod.multiplicative.fair(q)!
        #expect(mult[0] == (q[0] / q.reduce(Fraction.zero, +))!)
        // Additive: each loses margin / 3.
        let add = DevigMethod.additive.fair(q)!
        #expect(add[2] == q[2] - (margin / Fraction(3))!)
    }

    @Test("Shin's method gives the published example (shin 0.x, Python: [2.6, 2.4, 4.3])")
    func shinPublished() throws {
        let p = try #require(DevigMethod.shin.fair(Self.implied(["2.6", "2.4", "4.3"])))
        // shin.calculate_implied_probabilities([2.6, 2.4, 4.3]) = [0.37299406033208965, 0.4047794109200184, 0.2222265287474275]
        #expect(p.map { $0.rounded(places: 9) } == ["0.372994060", "0.404779411", "0.222226529"])
    }

    @Test("The power method: Σ qᵏ = 1, long shots lose more")
    func power() throws {
        let q = Self.implied(["1.50", "4.00", "7.00"])
        let p = try #require(DevigMethod.power.fair(q))
        let mult = DevigMethod.multiplicative.fair(q)!
        #expect(p[2] < mult[2] && p[0] > mult[0])
        // The same k raises each q: log p / log q is one number.
        let ks = zip(p, q).map { log($0.doubleValue) / log($1.doubleValue) }
        #expect(ks.allSatisfy { abs($0 - ks[0]) < 1e-9 })
    }

    @Test("Additive gives none when a long shot would fall to zero")
    func additiveNone() {
        #expect(DevigMethod.additive.fair(Self.implied(["1.05", "12.0", "80.0"])) == nil)
    }

    @Test("American and fractional prices convert exactly before any comparison")
    func formats() throws {
        // -110 / -110 is 21/11 each: the same market as 1.9090…, margin 1/21.
        let american = [Price(american: "-110")!, Price(american: "-110")!]
        let q = american.map { Fraction($0.impliedProbability) }
        #expect(q.reduce(Fraction.zero, +) - .one == Fraction(1, 21))
        // 10/11 fractional is 21/11 decimal: the same price.
        #expect(Price(fractional: "10/11")!.decimalOdds == american[0].decimalOdds)
        // +150 beats -110 and 6/4 equals +150: never compared as text.
        #expect(Price(american: "+150")!.decimalOdds > Price(american: "-110")!.decimalOdds)
        #expect(Price(fractional: "6/4")!.decimalOdds == Price(american: "+150")!.decimalOdds)
    }

    @Test("Consensus is the median of the books' vig-free probabilities, the mean of the middle two when even")
    func consensus() throws {
        let books: [(String, [String?])] = [("a", ["1.80", "2.10"]), ("b", ["1.90", "1.90"]), ("c", ["2.00", "1.85"]),
                                            ("d", ["1.95", "1.95"])]
        let m = try #require(ValueAnalysis.analyze(Self.event(books), settings: ValueSettings()) { _ in 0 }.first)
        let vigFree = books.map { DevigMethod.multiplicative.fair(Self.implied($0.1.map { $0! }))! }
        let home = vigFree.map { $0[0] }.sorted(), away = vigFree.map { $0[1] }.sorted()
        let mh = ((home[1] + home[2]) / Fraction(2))!, ma = ((away[1] + away[2]) / Fraction(2))!
        #expect(m.fair! == [(mh / (mh + ma))!, (ma / (mh + ma))!])
        #expect(m.fair!.reduce(Fraction.zero, +) == .one)
        // A named book: its own vig-free prices.
        let byBook = try #require(ValueAnalysis.analyze(Self.event(books), settings: ValueSettings(reference: .book("C"))) { _ in 0 }.first)
        #expect(byBook.fair! == vigFree[2])
    }

    @Test("A suspended or missing selection: no margin, no fair price from that book, no EV for it")
    func suspendedAndMissing() throws {
        let e = Self.event([("a", ["1.91", "1.91"]), ("b", ["2.05", nil]), ("c", ["1.95", "1.90"])], suspended: ["c:Away FC"])
        let m = try #require(ValueAnalysis.analyze(e, settings: ValueSettings()) { _ in 0 }.first)
        #expect(m.books.map { $0.margin != nil } == [true, false, false])
        #expect(m.fair! == [Fraction(1, 2), Fraction(1, 2)])  // book a alone
        #expect(m.books[2].ev[1] == nil)
        #expect(m.books[1].ev[0] == Self.f("0.025"))
        // No arbitrage: 2.05 and 1.91 sum to more than 1.
        #expect(m.arbitrage == nil)
    }

    @Test("An arbitrage: best prices across books summing under 1, stakes rounded, the guaranteed return")
    func arbitrage() throws {
        let e = Self.event([("a", ["2.10", "1.80"]), ("b", ["1.85", "2.05"])])
        let m = try #require(ValueAnalysis.analyze(e, settings: ValueSettings()) { _ in 3 }.first)
        let arb = try #require(m.arbitrage)
        #expect(arb.legs.map(\.source.book) == ["a", "b"])
        // 1/2.10 + 1/2.05 = 10/21 + 20/41 = 830/861.
        #expect(arb.sum == Fraction(830, 861))
        #expect(arb.profit == Fraction(31, 830))
        #expect(arb.oldestAge == 3)
        let plan = arb.stakes(total: Fraction(100), unit: Self.f("0.01"))
        // 100 × (10/21)/(830/861) = 49.397… and 50.602…
        #expect(plan.stakes.map { $0.rounded(places: 2) } == ["49.40", "50.60"])
        #expect(plan.staked == Fraction(100))
        #expect(plan.guaranteed == Self.f("103.73"))  // min(49.40 × 2.10 = 103.74, 50.60 × 2.05 = 103.73)
        #expect(plan.profit == Self.f("0.0373"))
        // Whole units: 49 and 51.
        #expect(arb.stakes(total: Fraction(100), unit: Fraction(1)).stakes == [Fraction(49), Fraction(51)])
    }

    @Test("JSON notes mark each selection's best price across books: ties each, never a suspended or stale one")
    func bestMarks() throws {
        // Home: a 2.10 and c 2.10 tie (b's 2.20 is suspended); away: b 1.95 (c's 2.40 is stale).
        let e = Self.event([("a", ["2.10", "1.80"]), ("b", ["2.20", "1.95"]), ("c", ["2.10", "2.40"])], suspended: ["b:Home FC"])
        let age: (Market) -> TimeInterval? = { $0.book == "c" ? 30 : 1 }
        let values = ValueAnalysis.analyze(e, settings: ValueSettings(), age: age)
        let notes = ValueReport.notes(values, settings: ValueSettings())
        func best(_ market: Int, _ selection: Int) -> Bool? {
            guard let field = notes.markets[market]?.selections[selection]?.price.first(where: { $0.0 == "best" }),
                  case .bool(let b) = field.1 else { return nil }
            return b
        }
        #expect([best(0, 0), best(1, 0), best(2, 0)] == [true, false, false])
        #expect([best(0, 1), best(1, 1), best(2, 1)] == [false, true, false])
        // All fresh: c's 2.10 ties a's for home, and c's 2.40 is the away price to take.
        let fresh = ValueReport.notes(ValueAnalysis.analyze(e, settings: ValueSettings()) { _ in 1 }, settings: ValueSettings())
        func bestFresh(_ market: Int, _ selection: Int) -> Bool? {
            guard case .bool(let b)? = fresh.markets[market]?.selections[selection]?.price.first(where: { $0.0 == "best" })?.1 else { return nil }
            return b
        }
        #expect([bestFresh(0, 0), bestFresh(1, 0), bestFresh(2, 0)] == [true, false, true])
        #expect([bestFresh(0, 1), bestFresh(1, 1), bestFresh(2, 1)] == [false, false, true])
    }

    @Test("Prices older than --max-age never make an arbitrage; pre-match allows longer")
    func freshness() throws {
        let e = Self.event([("a", ["2.10", "1.80"]), ("b", ["1.85", "2.05"])])
        let age: (Market) -> TimeInterval? = { $0.book == "b" ? 30 : 1 }
        #expect(ValueAnalysis.analyze(e, settings: ValueSettings(), age: age).first?.arbitrage == nil)
        #expect(ValueAnalysis.analyze(e, settings: ValueSettings(maxAgeInPlay: 45), age: age).first?.arbitrage != nil)
        let prematch = Self.event(status: .scheduled, [("a", ["2.10", "1.80"]), ("b", ["1.85", "2.05"])])
        #expect(ValueAnalysis.analyze(prematch, settings: ValueSettings(), age: age).first?.arbitrage != nil)
        // A stale book is left out of the consensus too.
        let m = ValueAnalysis.analyze(e, settings: ValueSettings(), age: age).first!
        #expect(m.books[1].fresh == false)
        #expect(m.fair! == DevigMethod.multiplicative.fair(Self.implied(["2.10", "1.80"]))!)
    }

    @Test("Lines that differ are never compared: totals and spreads one line at a time")
    func lines() throws {
        func total(_ book: String, _ line: String, _ over: String, _ under: String) -> Market {
            Market(id: "tot", name: "Total Points", book: book, selections: [
                Selection(id: "o\(line)", name: "Over", line: line, price: Price(decimal: over)),
                Selection(id: "u\(line)", name: "Under", line: line, price: Price(decimal: under))])
        }
        // Over 210.5 at 2.20 and Under 211.5 at 2.20 would "sum" under 1: different lines, no arbitrage.
        let e = Event(provider: .boltodds, id: "g", sport: "basketball", home: "Home FC", away: "Away FC", status: .live,
                      markets: [total("a", "210.5", "2.20", "1.70"), total("b", "211.5", "1.70", "2.20")])
        let values = ValueAnalysis.analyze(e, settings: ValueSettings()) { _ in 0 }
        #expect(values.map(\.id) == ["total:210.5", "total:211.5"])
        #expect(values.allSatisfy { $0.arbitrage == nil })
        #expect(values.allSatisfy { $0.books.count == 1 })
    }

    @Test("A soccer result without the draw is not a market to read; with it, three-way")
    func soccerDraw() {
        let two = Self.event(sport: "soccer", [("a", ["3.00", "3.00"])])
        #expect(ValueAnalysis.analyze(two, settings: ValueSettings()) { _ in 0 }.isEmpty)
        let three = Self.event(sport: "soccer", [("a", ["2.50", "3.20", "3.00"])], names: ["Home FC", "Draw", "Away FC"])
        let m = ValueAnalysis.analyze(three, settings: ValueSettings()) { _ in 0 }.first
        #expect(m?.outcomes.map(\.id) == ["home", "draw", "away"])
        #expect(m?.books[0].margin != nil)
    }

    @Test("Any arbitrage's legs, staked in proportion, return at least the stake before rounding")
    func arbitrageProperty() {
        var rng = SeededRandom(seed: 21)
        var found = 0
        for _ in 0..<2_000 {
            let n = Int.random(in: 2...3, using: &rng)
            let books = (0..<4).map { b -> (String, [String?]) in
                ("b\(b)", (0..<n).map { _ in String(format: "%.2f", Double.random(in: 1.2...(n == 2 ? 2.6 : 4.5), using: &rng)) })
            }
            let names = n == 2 ? ["Home FC", "Away FC"] : ["Home FC", "Draw", "Away FC"]
            guard let m = ValueAnalysis.analyze(Self.event(books, names: names), settings: ValueSettings(), age: { _ in 0 }).first,
                  let arb = m.arbitrage else { continue }
            found += 1
            let plan = arb.stakes(total: Fraction(100), unit: .zero)
            #expect(plan.staked == Fraction(100))
            #expect(plan.returns.allSatisfy { $0 >= Fraction(100) })
            #expect(plan.returns.allSatisfy { $0 == plan.returns[0] })
            #expect(plan.profit == arb.profit)
        }
        #expect(found > 20)
    }

    @Test("Exact past 128 bits: sums that overflow machine integers stay exact")
    func bigNumbers() {
        let primes: [Int128] = [1_000_000_007, 998_244_353, 1_000_000_009, 999_999_937, 1_000_000_021]
        var sum = Fraction.zero
        for p in primes { sum = sum + Fraction(1, p)! }
        var back = sum
        for p in primes { back = back - Fraction(1, p)! }
        #expect(back == .zero)
        #expect(sum > Fraction(4, 1_000_000_021)! && sum < Fraction(6, 998_244_353)!)
        #expect(Fraction(1, 3)!.rounded(places: 6) == "0.333333")
        #expect(Fraction(-1, 8)!.rounded(places: 2) == "-0.13")
    }

    @Test("The market reader re-reads only what changed, and forgets what the events no longer hold")
    func marketReader() {
        var reader = MarketReader()
        let key = EventKey(provider: .boltodds, id: "g1")
        var e = Self.event([("a", ["1.91", "1.91"]), ("b", ["2.05", "1.80"])])
        let all = reader.markets(of: e, key: key, touched: nil, settings: ValueSettings()) { _ in 0 }
        #expect(all.count == 1 && all[0].books.count == 2 && reader.count == 2)
        // The same answer as a whole analysis, after a price moved.
        e.markets[1].selections[0].price = Price(decimal: "2.10")
        let again = reader.markets(of: e, key: key, touched: ["ml"], settings: ValueSettings()) { _ in 0 }
        #expect(again == ValueAnalysis.analyze(e, settings: ValueSettings()) { _ in 0 })
        // Book b's market gone, then the event ended: pruned to what the event holds.
        e.markets.removeLast()
        reader.prune { _ in e }
        #expect(reader.count == 1)
        e.status = .ended
        reader.prune { _ in e }
        #expect(reader.count == 0)
    }

    @Test("The market reader keeps the readings of the events used last only; one let go of is read afresh, to the same answer")
    func marketReaderCapacity() {
        var reader = MarketReader(capacity: 2)
        var events = (0..<3).map { i in Self.event([("a", ["1.9\(i)", "1.91"]), ("b", ["2.05", "1.8\(i)"])]) }
        let keys = (0..<3).map { EventKey(provider: .boltodds, id: "g\($0)") }
        for i in 0..<3 { _ = reader.markets(of: events[i], key: keys[i], touched: nil, settings: ValueSettings()) { _ in 0 } }
        // Two events' readings of two markets each: the first event's were let go of.
        #expect(reader.count == 4)
        #expect(reader.events[keys[0]] == nil && reader.events[keys[2]] != nil)
        events[0].markets[0].selections[1].price = Price(decimal: "2.20")
        let again = reader.markets(of: events[0], key: keys[0], touched: ["ml"], settings: ValueSettings()) { _ in 0 }
        #expect(again == ValueAnalysis.analyze(events[0], settings: ValueSettings()) { _ in 0 })
        #expect(reader.count == 4 && reader.events[keys[1]] == nil)
    }


    @Test("A stream's notes and markets kept where unchanged are the ones worked out afresh, after every change of a whole event")
    func streamNotesKept() {
        var store = LiveStore(), kept = StreamValueNotes()
        let written = WrittenMarkets()
        var e = Self.event([("a", ["1.91", "1.91"]), ("b", ["2.05", "1.80"]), ("c", ["1.95", "1.95"])])
        let totals: [(book: String, line: String)] = [("a", "2.5"), ("b", "2.5"), ("b", "3.5")]
        e.markets += totals.map { book, line in
            Market(id: "total", name: "Total Points", book: book, selections: [
                Selection(id: "over", name: "Over \(line)", line: line, price: Price(decimal: "1.90")),
                Selection(id: "under", name: "Under \(line)", line: line, price: Price(decimal: "1.90"))])
        }
        var rng = SystemRandomNumberGenerator(), priced = 0
        for step in 0..<200 {
            let m = Int.random(in: 0..<e.markets.count, using: &rng), s = Int.random(in: 0..<2, using: &rng)
            switch step % 5 {
            case 0, 1, 2: e.markets[m].selections[s].price = Price(decimal: "\(Int.random(in: 1...3, using: &rng)).\(Int.random(in: 10...99, using: &rng))")
            case 3: e.markets[m].selections[s].suspended.toggle()
            default: if step % 2 == 0 { e.status = e.status == .live ? .scheduled : .live }   // every market unchanged
            }
            let message = FeedMessage(provider: .boltodds, receivedAt: Date(timeIntervalSince1970: Double(step)), update: .upsert(e))
            store.apply(message)
            var fresh = StreamValueNotes()
            let a = kept.notes(for: message, in: store), b = fresh.notes(for: message, in: store)
            let line = { (notes: [String: PriceNotes]) in EventJSON.update(message, notes: { notes[$0.id] }).rendered }
            #expect(line(a.events) == line(b.events), "step \(step)")
            // Markets copied as written before, where they and their notes are unchanged: the same line.
            #expect(EventJSON.update(message, notes: { a.events[$0.id] }, written: written).rendered == line(b.events), "step \(step)")
            if line(a.events).contains("\"fair\":{") { priced += 1 }
        }
        #expect(priced > 20, "fair prices in \(priced) of 200 lines")
        #expect(written.copied > 200 && written.built > 100, "\(written.copied) copied, \(written.built) built")
    }

    @Test("A market whose prices alone moved is read as before, repriced: totals split by line, suspensions; a new line is read afresh")
    func marketReaderRepriced() {
        var reader = MarketReader()
        let key = EventKey(provider: .boltodds, id: "g1")
        var e = Self.event([("a", ["1.91", "1.91"]), ("b", ["2.05", "1.80"])])
        // Two lines in one market, interleaved: each line's selections come from places that are not its own order.
        for book in ["a", "b"] {
            e.markets.append(Market(id: "tot", name: "Total Points", book: book, selections: [
                Selection(id: "o25", name: "Over 2.5", line: "2.5", price: Price(decimal: "1.90")),
                Selection(id: "o35", name: "Over 3.5", line: "3.5", price: Price(decimal: "2.60")),
                Selection(id: "u25", name: "Under 2.5", line: "2.5", price: Price(decimal: "1.90")),
                Selection(id: "u35", name: "Under 3.5", line: "3.5", price: Price(decimal: "1.45"))]))
        }
        var rng = SystemRandomNumberGenerator(), renamed = 0
        for step in 0..<300 {
            let m = Int.random(in: 0..<e.markets.count, using: &rng)
            let s = Int.random(in: 0..<e.markets[m].selections.count, using: &rng)
            switch step % 7 {
            case 0...3: e.markets[m].selections[s].price = Price(decimal: "\(Int.random(in: 1...3, using: &rng)).\(Int.random(in: 10...99, using: &rng))")
            case 4, 5: e.markets[m].selections[s].suspended.toggle()
            default:
                // A line moves: what the market means changes, and it is read afresh.
                guard e.markets[m].id == "tot" else { continue }
                let line = ["2.5", "3.5", "4.5"].randomElement(using: &rng)!
                let side = e.markets[m].selections[s].id.hasPrefix("o") ? "Over" : "Under"
                e.markets[m].selections[s].line = line
                e.markets[m].selections[s].name = "\(side) \(line)"
                renamed += 1
            }
            let read = reader.markets(of: e, key: key, touched: [e.markets[m].id], settings: ValueSettings()) { _ in 0 }
            let fresh = ValueAnalysis.analyze(e, settings: ValueSettings()) { _ in 0 }
            #expect(read == fresh.filter { v in read.contains { $0.id == v.id } }, "step \(step)")
            #expect(reader.markets(of: e, key: key, touched: nil, settings: ValueSettings()) { _ in 0 } == fresh, "step \(step)")
        }
        #expect(renamed > 10)
        // Directly: prices moved, repriced; a name changed, not.
        let read = MarketReader.Read(market: e.markets[2], main: [], entries: ValueAnalysis.entries(of: e.markets[2], at: 2, in: e, main: nil, age: nil))
        var moved = e.markets[2]
        moved.selections[3].price = Price(decimal: "9.50")
        moved.selections[0].suspended.toggle()
        let repriced = MarketReader.repriced(read, as: moved)
        #expect(repriced?.map(\.market) == ValueAnalysis.entries(of: moved, at: 2, in: e, main: nil, age: nil).map(\.market))
        moved.selections[1].name = "Over 5.5"
        #expect(MarketReader.repriced(read, as: moved) == nil)
    }

    @Test("Markets written are kept for the events written last, and only while their events hold them")
    func writtenMarketsBounded() {
        let written = WrittenMarkets(capacity: 1)
        var e = Self.event([("a", ["1.91", "1.91"]), ("b", ["2.05", "1.80"])])
        _ = written.markets(of: e, notes: nil)
        #expect(written.count == 2 && written.built == 2)
        _ = written.markets(of: e, notes: nil)
        #expect(written.copied == 2)
        // Another event written: the first is let go of, and written again in full.
        var other = e
        other.id = "g2"
        _ = written.markets(of: other, notes: nil)
        #expect(written.count == 2)
        _ = written.markets(of: e, notes: nil)
        #expect(written.built == 6 && written.copied == 2)
        // A market the event no longer holds goes; a note that changed writes the market anew.
        e.markets.removeLast()
        written.prune { $0.id == "g1" ? e : nil }
        #expect(written.count == 1)
        var notes = PriceNotes()
        notes.markets[0] = PriceNotes.Market()
        notes.markets[0]!.fields = [("margin", .number("0.047"))]
        let text = written.markets(of: e, notes: notes)
        #expect(written.built == 7 && text.map { JSONOutput.array([$0]).rendered } == ["[" + EventJSON.market(e.markets[0], notes: notes.markets[0]).rendered + "]"])
    }

    @Test("The market reader's kept answers equal a whole analysis after every change: prices, books, ages, status, order")
    func marketReaderKeptAnswers() {
        var reader = MarketReader()
        let key = EventKey(provider: .boltodds, id: "g1")
        var e = Self.event([("a", ["1.91", "1.91"]), ("b", ["2.05", "1.80"]), ("c", ["1.95", "1.95"])])
        var rng = SystemRandomNumberGenerator()
        var ages: [String: TimeInterval] = [:]
        for step in 0..<300 {
            switch step % 6 {
            case 0, 1, 2:
                // A price moves at one book.
                let m = Int.random(in: 0..<e.markets.count, using: &rng), s = Int.random(in: 0..<2, using: &rng)
                e.markets[m].selections[s].price = Price(decimal: "\(Int.random(in: 1...3, using: &rng)).\(Int.random(in: 10...99, using: &rng))")
            case 3:
                // A book's prices age, or come fresh.
                ages[e.markets[Int.random(in: 0..<e.markets.count, using: &rng)].book ?? ""] = Double(Int.random(in: 0...20, using: &rng))
            case 4:
                // A book goes, or comes back; the books change places.
                if e.markets.count > 2 { e.markets.removeFirst() } else {
                    e.markets.append(Self.event([("d\(step)", ["2.00", "1.85"])]).markets[0])
                }
                e.markets.reverse()
            default:
                e.status = e.status == .live ? .scheduled : .live
            }
            let age: (Market) -> TimeInterval? = { ages[$0.book ?? ""] ?? 0 }
            let touched: Set<String>? = step % 2 == 0 ? nil : ["ml"]
            let read = reader.markets(of: e, key: key, touched: touched, settings: ValueSettings(), age: age)
            #expect(read == ValueAnalysis.analyze(e, settings: ValueSettings(), age: age), "step \(step)")
        }
    }
}
