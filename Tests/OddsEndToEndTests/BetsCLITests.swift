import Foundation
import OddsHistory
import OddsModel
import OddsStore
import OddsTestSupport
import Testing

/// `odds bets` as a user runs it, on a history holding a game that closed, went live and ended (issue 52).
@Suite("Bets from the binary")
struct BetsCLITests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func game(_ prices: [String: [String]], status: EventStatus, score: Score? = nil) -> Event {
        Event(provider: .boltodds, id: "g1", sport: "basketball", league: "NBA", home: "Lakers", away: "Celtics", status: status,
              startTime: t0.addingTimeInterval(100), score: score,
              markets: prices.keys.sorted().map { book in
                  Market(id: "ml", name: "Moneyline", book: book, selections: zip(["Lakers", "Celtics"], prices[book]!).map {
                      Selection(id: $0.0, name: $0.0, price: Price(decimal: $0.1))
                  })
              })
    }

    /// The game written as a stream writes it: closing 1.90 / 1.90 at draftkings and 1.95 / 1.95 at fanduel, 101-99.
    static func history(_ path: String) throws {
        let steps: [(Double, Event)] = [
            (0, game(["draftkings": ["2.20", "1.70"], "fanduel": ["2.25", "1.65"]], status: .scheduled)),
            (50, game(["draftkings": ["1.90", "1.90"], "fanduel": ["1.95", "1.95"]], status: .scheduled)),
            (100, game(["draftkings": ["1.90", "1.90"], "fanduel": ["1.95", "1.95"]], status: .live, score: Score(home: 0, away: 0))),
            (200, game(["draftkings": ["1.50", "2.60"], "fanduel": ["1.55", "2.50"]], status: .ended, score: Score(home: 101, away: 99))),
        ]
        let writer = HistoryWriter(backend: try History.open(.sqlite(path: path), writing: true), capacity: 1_000, retentionDays: nil) { _ in }
        var store = LiveStore()
        for (s, e) in steps {
            let m = FeedMessage(provider: .boltodds, receivedAt: t0.addingTimeInterval(s), update: .upsert(e))
            store.apply(m)
            writer.record(m, in: store)
        }
        _ = writer.finish()
    }

    @Test("add in any odds format, list with the close, CLV and result (JSON, TSV), remove; bad input is one sentence and its exit code")
    func ledger() async throws {
        let dir = try HistoryCLITests.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = dir + "/h.sqlite"
        try Self.history(db)
        let add = try await CLI.run(["bets", "add", "Lakers", "Lakers", "+120", "10", "--book", "draftkings", "--history", db, "--format", "table"])
        #expect(add.status == 0 && add.stdout.hasPrefix("Bet 1: Lakers at +120 (2.20), stake 10, draftkings; Lakers v Celtics"), "\(add.stdout)\(add.stderr)")
        let second = try await CLI.run(["bets", "add", "g1", "away", "5/4", "12.50", "--book", "FanDuel", "--history", db, "--json"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try HistoryCLITests.json(second.stdout).first?["selection"] as? String == "Celtics")

        let list = try await CLI.run(["bets", "list", "--history", db, "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        let bets = try HistoryCLITests.json(list.stdout)
        #expect(bets.count == 2)
        // 2.20 against a de-vigged close of 2.00: +10 %; won 101-99, 12 profit. 2.25 (5/4) on the away side: +12.5 %, lost.
        #expect((bets[0]["clv"] as? NSNumber)?.doubleValue == 0.1 && bets[0]["result"] as? String == "won", "\(bets[0])")
        #expect((bets[0]["fair"] as? NSNumber)?.doubleValue == 2 && (bets[0]["profit"] as? NSNumber)?.doubleValue == 12)
        #expect(((bets[0]["close"] as? [String: Any])?["decimal"] as? String) == "1.90")
        #expect((bets[1]["clv"] as? NSNumber)?.doubleValue == 0.125 && bets[1]["result"] as? String == "lost" && bets[1]["book"] as? String == "fanduel")
        let tsv = try await CLI.run(["bets", "list", "--settled", "--history", db])
        let rows = tsv.stdout.split(separator: "\n")
        #expect(rows.first?.hasPrefix("ID\tPLACED\tMATCH") == true && rows.count == 3 && rows[1].contains("+10.0%"), "\(tsv.stdout)")
        #expect(try await CLI.run(["bets", "list", "--open", "--history", db, "--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")

        let remove = try await CLI.run(["bets", "remove", "2", "--history", db])
        #expect(remove.status == 0 && remove.stdout.isEmpty && remove.stderr.contains("Bet 2 removed."), "\(remove.stderr)")
        #expect(try await CLI.run(["bets", "remove", "2", "--history", db]).status == 5)
        #expect(try HistoryCLITests.json(try await CLI.run(["bets", "list", "--history", db, "--json"]).stdout).count == 1)

        // Bad input: one sentence and its code, nothing written.
        let price = try await CLI.run(["bets", "add", "Lakers", "Lakers", "1.00", "10", "--history", db])
        #expect(price.status == 64 && price.stderr.contains("PRICE takes odds"), "\(price.stderr)")
        let stake = try await CLI.run(["bets", "add", "Lakers", "Lakers", "2.2", "0", "--history", db])
        #expect(stake.status == 64 && stake.stderr.contains("STAKE"), "\(stake.stderr)")
        let books = try await CLI.run(["bets", "add", "Lakers", "Lakers", "2.2", "10", "--history", db])
        #expect(books.status == 64 && books.stderr.contains("--book (draftkings, fanduel)"), "\(books.stderr)")
        let nomatch = try await CLI.run(["bets", "add", "Arsenal", "Arsenal", "2.2", "10", "--history", db])
        #expect(nomatch.status == 5 && nomatch.stderr.contains("no match 'Arsenal'"), "\(nomatch.stderr)")
        let noselection = try await CLI.run(["bets", "add", "Lakers", "draw", "3.2", "10", "--history", db])
        #expect(noselection.status == 5 && noselection.stderr.contains("'draw' is not a selection"), "\(noselection.stderr)")
        #expect(try HistoryCLITests.json(try await CLI.run(["bets", "list", "--history", db, "--json"]).stdout).count == 1)
    }
}
