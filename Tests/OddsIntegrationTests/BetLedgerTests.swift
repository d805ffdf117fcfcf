import Foundation
import OddsBets
@testable import OddsHistory
import OddsModel
import OddsStore
import OddsValue
import Testing

/// The bet ledger over every backend (issue 52): bets kept beside the history, graded against the close it kept
/// and settled from the final score it kept.
@Suite("Bet ledger, over every backend", .heavyLane)
struct BetLedgerTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    /// A basketball game priced by two books (home, away), `status` and `score` as given.
    static func game(_ prices: [String: [String]], status: EventStatus, score: Score? = nil, id: String = "g1") -> Event {
        Event(provider: .boltodds, id: id, sport: "basketball", league: "NBA", home: "Lakers", away: "Celtics", status: status,
              startTime: t0.addingTimeInterval(100), score: score,
              markets: prices.keys.sorted().map { book in
                  Market(id: "ml", name: "Moneyline", book: book, selections: zip(["Lakers", "Celtics"], prices[book]!).map {
                      Selection(id: $0.0, name: $0.0, price: Price(decimal: $0.1))
                  })
              })
    }

    static func at(_ seconds: Double, _ e: Event) -> FeedMessage {
        FeedMessage(provider: .boltodds, receivedAt: t0.addingTimeInterval(seconds), update: .upsert(e))
    }

    /// It opens, moves, closes at 1.90 / 1.90 and 1.95 / 1.95 (fair 2.00 each way), goes live, moves in play, and
    /// ends 101-99. A second game is only ever seen before kick-off.
    static let messages: [FeedMessage] = [
        at(0, game(["a": ["2.20", "1.70"], "b": ["2.25", "1.65"]], status: .scheduled)),
        at(50, game(["a": ["1.90", "1.90"], "b": ["1.95", "1.95"]], status: .scheduled)),
        at(100, game(["a": ["1.90", "1.90"], "b": ["1.95", "1.95"]], status: .live, score: Score(home: 0, away: 0))),
        at(110, game(["a": ["1.50", "2.60"], "b": ["1.55", "2.50"]], status: .live, score: Score(home: 10, away: 2))),
        at(200, game(["a": ["1.50", "2.60"], "b": ["1.55", "2.50"]], status: .ended, score: Score(home: 101, away: 99))),
        at(10, game(["a": ["1.80", "2.00"]], status: .scheduled, id: "g2")),
        at(20, game(["a": ["1.90", "1.90"]], status: .scheduled, id: "g3")),
        at(300, postponed()),
    ]

    /// The third game: ended by its feed as postponed, never played (as SofaScore tells it).
    static func postponed() -> Event {
        var e = game(["a": ["1.90", "1.90"]], status: .ended, id: "g3")
        e.period = "Postponed"
        return e
    }

    static func bet(_ h: any HistoryBackend, event: String = "g1", selection: String, book: String, price: String, stake: String) throws -> StoredBet {
        let source = try #require(try h.matches(MatchQuery(provider: .boltodds, id: event)).first)
        let typed = try #require(Price(typed: price))
        return StoredBet(placedAt: t0, source: source.key, matchKey: source.matchKey, sport: source.sport, league: source.league,
                         home: source.home, away: source.away, startTime: source.startTime, marketID: "ml", marketName: "Moneyline",
                         line: "", selectionID: selection, selectionName: selection, book: book, priceText: typed.text,
                         odds: typed.decimalOdds, stake: stake, note: "it's a 'note'; DROP TABLE bet; --")
    }

    @Test("Bets kept, listed and removed; graded: the close before kick-off de-vigged, CLV exact, settled from the final score",
          arguments: HistoryHarness.Kind.allCases)
    func ledger(kind: HistoryHarness.Kind) throws {
        guard let harness = try HistoryHarness.make(kind) else { return }
        defer { harness.remove() }
        _ = try harness.write(Self.messages)
        let h = try History.openLedger(harness.location)
        defer { h.close() }
        let home = try h.addBet(try Self.bet(h, selection: "Lakers", book: "a", price: "2.20", stake: "10"))
        let away = try h.addBet(try Self.bet(h, selection: "Celtics", book: "b", price: "+150", stake: "12.50"))
        let early = try h.addBet(try Self.bet(h, event: "g2", selection: "Lakers", book: "a", price: "6/4", stake: "5"))
        let bets = try h.bets()
        #expect(bets.map(\.id) == [home, away, early])
        #expect(bets[1].priceText == "+150" && bets[1].odds == Rational(5, 2) && bets[1].stake == "12.50")
        #expect(bets[0].note == "it's a 'note'; DROP TABLE bet; --" && bets[0].home == "Lakers" && bets[0].source.eventID == "g1")

        let grader = BetGrader()
        let won = try grader.grade(bets[0], history: h)
        let c = try #require(won.close, "\(won.noClose ?? "")")
        #expect(c.fairPrice == Fraction(2) && c.closeAtBook?.decimalText == "1.90" && c.books.sorted() == ["a", "b"])
        #expect(won.clv == Fraction(decimalText: "0.1") && won.result == .won && won.profit == Fraction(12))
        #expect(won.finalScore == Score(home: 101, away: 99))
        let lost = try grader.grade(bets[1], history: h)
        #expect(lost.clv == Fraction(decimalText: "0.25") && lost.result == .lost && lost.profit == -Fraction(decimalText: "12.5")!)
        #expect(lost.close?.closeAtBook?.decimalText == "1.95")
        // Against one book's close: b's 1.95 / 1.95 is 2.00 fair as well.
        #expect(try BetGrader(reference: .book("b")).grade(bets[0], history: h).clv == Fraction(decimalText: "0.1"))
        // Never seen going live: no close, no CLV, not settled; said in words.
        let open = try grader.grade(bets[2], history: h)
        #expect(open.close == nil && open.clv == nil && open.result == .unsettled && open.profit == nil && open.noClose != nil)

        #expect(try h.removeBet(id: away) && !(try h.removeBet(id: away)) && !(try h.removeBet(id: 9_999)))
        #expect(try h.bets().map(\.id) == [home, early])
        // Ended by its feed as postponed: void, the stake back.
        let postponed = try h.addBet(try Self.bet(h, event: "g3", selection: "Lakers", book: "a", price: "1.90", stake: "10"))
        let void = try grader.grade(try #require(try h.bets().first { $0.id == postponed }), history: h)
        #expect(void.result == .void && void.profit == .zero, "\(void.result) \(void.unsettledWhy ?? "")")
    }

    @Test("A grade kept outlasts the history's retention: after the match is pruned, the bet keeps its close, CLV and result",
          arguments: HistoryHarness.Kind.allCases)
    func kept(kind: HistoryHarness.Kind) throws {
        guard let harness = try HistoryHarness.make(kind) else { return }
        defer { harness.remove() }
        _ = try harness.write(Self.messages)
        let h = try History.openLedger(harness.location)
        defer { h.close() }
        let graded = try h.addBet(try Self.bet(h, selection: "Lakers", book: "a", price: "2.20", stake: "10"))
        let never = try h.addBet(try Self.bet(h, selection: "Celtics", book: "b", price: "2.50", stake: "10"))
        let g = try BetGrader().grade(try h.bets()[0], history: h)
        let grade = StoredGrade(at: Self.t0, result: g.result.rawValue, finalHome: g.finalScore?.home, finalAway: g.finalScore?.away,
                                closeText: g.closeAtBook?.text, closeFair: g.fairPrice?.rounded(places: 6), clv: g.clv?.rounded(places: 6))
        #expect(try h.gradeBet(id: graded, grade) && !(try h.gradeBet(id: 9_999, grade)))
        #expect(try h.bets()[0].grade == grade && grade.clv == "0.100000" && grade.closeText == "1.90")
        // Everything the history kept of the match is pruned away.
        _ = try h.prune(before: Self.t0.addingTimeInterval(86_400 * 400))
        #expect(try h.matches(MatchQuery()).isEmpty)
        let after = try h.bets()
        let kept = try BetGrader().grade(after[0], history: h)
        #expect(kept.clv == Fraction(decimalText: "0.1") && kept.result == .won && kept.profit == Fraction(12) && kept.fairPrice == Fraction(2))
        #expect(kept.closeAtBook?.decimalText == "1.90" && kept.finalScore == Score(home: 101, away: 99))
        let lost = try BetGrader().grade(after[1], history: h)
        #expect(after[1].id == never && lost.clv == nil && lost.result == .unsettled && lost.unsettledWhy == "its match is no longer in the history")
    }

    @Test("A word that fits both teams is refused, naming them; the full name or a side picks one")
    func ambiguousWord() throws {
        guard let harness = try HistoryHarness.make(.sqlite) else { return }
        defer { harness.remove() }
        var derby = Self.game(["a": ["2.10", "1.80"]], status: .scheduled, id: "d1")
        derby.home = "Manchester United"; derby.away = "Manchester City"
        derby.markets[0].selections[0].name = "Manchester United"; derby.markets[0].selections[0].id = "Manchester United"
        derby.markets[0].selections[1].name = "Manchester City"; derby.markets[0].selections[1].id = "Manchester City"
        _ = try harness.write([Self.at(0, derby)])
        let h = try History.openLedger(harness.location)
        defer { h.close() }
        func place(_ selection: String) throws -> StoredBet {
            try BetPlacement.resolve(BetEntry(match: "d1", selection: selection, price: "2.10", stake: "10", placedAt: Self.t0), in: h)
        }
        #expect(throws: BetEntryError.self) { try place("Manchester") }
        do { _ = try place("Manchester") } catch let e as BetEntryError {
            #expect(e.kind == .ambiguous && e.message.contains("Manchester City, Manchester United"), "\(e.message)")
        }
        #expect(try place("Manchester United").selectionName == "Manchester United")
        #expect(try place("away").selectionName == "Manchester City")
    }

    @Test("A bet placed after its match ended is refused, saying when it ended; placed before, it is kept", arguments: HistoryHarness.Kind.allCases)
    func afterTheEnd(_ kind: HistoryHarness.Kind) throws {
        guard let harness = try HistoryHarness.make(kind) else { return }
        defer { harness.remove() }
        // The same game from a second provider that never says it ended (its feed drops finished games), both
        // sources of one fused match.
        var other = Self.game(["bet365": ["1.50", "2.60"]], status: .live, score: Score(home: 10, away: 2), id: "p1")
        other.provider = .pulsescore
        let messages = Self.messages + [FeedMessage(provider: .pulsescore, receivedAt: Self.t0.addingTimeInterval(110), update: .upsert(other))]
        let writer = HistoryWriter(backend: try History.open(harness.location, writing: true), capacity: 1000, retentionDays: nil) { _ in }
        var store = LiveStore()
        for m in messages {
            store.apply(m)
            let fused = m.update.eventID == "g1" || m.update.eventID == "p1"
            writer.record(m, in: store, member: fused ? (matchKey: "m1", reason: "test") : nil)
        }
        _ = writer.finish()
        let h = try History.openLedger(harness.location)
        defer { h.close() }
        func place(_ at: Double, provider: String? = nil) throws -> StoredBet {
            try BetPlacement.resolve(BetEntry(match: "g1", selection: "Lakers", price: "1.50", stake: "10", book: provider == nil ? "a" : nil, provider: provider,
                                              placedAt: Self.t0.addingTimeInterval(at)), in: h)
        }
        do {
            #expect(try place(150).source.eventID == "g1")
            #expect(try place(150, provider: "pulsescore").source.eventID == "p1")
        } catch let e as BetEntryError { Issue.record("\(e.message)") }
        for provider in [nil, "pulsescore"] {
            do {
                _ = try place(201, provider: provider)
                Issue.record("a bet after the end was kept (\(provider ?? "any provider"))")
            } catch let e as BetEntryError {
                #expect(e.kind == .input && e.message.contains("ended at") && e.message.contains("(101-99)") && e.message.contains("--at"), "\(e.message)")
            }
        }
    }

    @Test("The ledger is written beside the history's running writer (SQLite: its lock held)")
    func besideTheWriter() throws {
        guard let harness = try HistoryHarness.make(.sqlite) else { return }
        defer { harness.remove() }
        _ = try harness.write(Self.messages)
        let writer = try History.open(harness.location, writing: true)
        defer { writer.close() }
        let h = try History.openLedger(harness.location)
        defer { h.close() }
        let id = try h.addBet(try Self.bet(h, selection: "Lakers", book: "a", price: "2.20", stake: "10"))
        #expect(try h.bets().map(\.id) == [id])
    }
}
