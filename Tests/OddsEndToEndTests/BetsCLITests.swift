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

        // The report: 22.50 staked, 12 won and 12.50 lost; CLV +10 % and +12.5 %, both beat the close; too few to judge.
        let report = try HistoryCLITests.json(try await CLI.run(["bets", "report", "--history", db, "--json"]).stdout)
        let all = try #require(report.first)
        #expect(report.count == 1 && all["group"] as? String == "all" && all["bets"] as? Int == 2 && all["settled"] as? Int == 2, "\(all)")
        #expect((all["staked"] as? NSNumber)?.doubleValue == 22.5 && (all["profit"] as? NSNumber)?.doubleValue == -0.5)
        #expect((all["roi"] as? NSNumber)?.doubleValue == -0.0222 && (all["clv"] as? NSNumber)?.doubleValue == 0.1125 && all["beatClose"] as? Int == 2)
        #expect((all["note"] as? String)?.contains("too few to judge") == true && (all["clvInterval"] as? [NSNumber])?.count == 2)
        let byBook = try await CLI.run(["bets", "report", "--by", "book", "--history", db])
        #expect(byBook.stdout.split(separator: "\n").map { $0.split(separator: "\t").first.map(String.init) } == ["GROUP", "draftkings", "fanduel"], "\(byBook.stdout)")
        let table = try await CLI.run(["bets", "report", "--history", db, "--format", "table"])
        #expect(table.stdout.contains("profit  ") && table.stdout.contains("-0.50 after 2 settled") && table.stdout.contains("mean +11.3% over 2"), "\(table.stdout)")
        #expect(try await CLI.run(["bets", "report", "--by", "team", "--history", db]).status == 64)

        let grade = try await CLI.run(["bets", "grade", "--history", db])
        #expect(grade.status == 0 && grade.stdout == "Settled: 1 won, 1 lost, 0 push, 0 void.\n", "\(grade.stdout)\(grade.stderr)")

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

    @Test("import: the good rows kept, each bad one refused with its line number (exit 11); export and import again round trip")
    func importExport() async throws {
        let dir = try HistoryCLITests.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = dir + "/h.sqlite", other = dir + "/other.sqlite"
        try Self.history(db)
        try Self.history(other)
        let csv = dir + "/mine.csv"
        try """
            Placed,Match,Selection,Price,Stake,Book,Note,Ignored
            2026-11-20T18:00:00Z,Lakers,Lakers,2.20,10,draftkings,"a, quoted ""note""
            on two lines",x
            2026-11-20T18:00:00Z,Lakers,Lakers,abc,10,draftkings,,
            2026-11-20T18:00:00Z,Arsenal,Arsenal,2.0,10,,,
            2026-11-20T18:00:00Z,Lakers,Celtics,+110,5,fanduel,,
            2026-11-20T18:00:00Z,Lakers,Lakers,2.2,10,,,
            not-a-time,Lakers,Lakers,2.2,10,draftkings,,

            """.write(toFile: csv, atomically: true, encoding: .utf8)
        let imported = try await CLI.run(["bets", "import", csv, "--history", db])
        #expect(imported.status == 11, "\(imported.stderr)")
        for (line, why) in [(4, "PRICE takes odds"), (5, "no match 'Arsenal'"), (7, "--book (draftkings, fanduel)"), (8, "not an RFC 3339 time")] {
            #expect(imported.stderr.contains("mine.csv, line \(line): ") && imported.stderr.contains(why), "line \(line): \(imported.stderr)")
        }
        #expect(imported.stderr.contains("Imported 2 bets from \(csv); 4 rows refused."), "\(imported.stderr)")
        let bets = try HistoryCLITests.json(try await CLI.run(["bets", "list", "--history", db, "--json"]).stdout)
        #expect(bets.map { $0["selection"] as? String } == ["Lakers", "Celtics"] && bets.first?["note"] as? String == "a, quoted \"note\"\non two lines")
        #expect(bets.first?["placed"] as? String == "2026-11-20T18:00:00.000Z")

        // What export writes, import reads back into another history: the same bets.
        let export = try await CLI.run(["bets", "export", "--history", db])
        #expect(export.status == 0 && export.stdout.hasPrefix("id,placed,provider,event,match,market,line,selection,book,price,stake,note\n"), "\(export.stdout)")
        let file = dir + "/export.csv"
        try export.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let again = try await CLI.run(["bets", "import", file, "--history", other])
        #expect(again.status == 0 && again.stderr.contains("Imported 2 bets"), "\(again.stderr)")
        let copied = try HistoryCLITests.json(try await CLI.run(["bets", "list", "--history", other, "--json"]).stdout)
        for key in ["placed", "selection", "book", "stake", "note", "clv", "result"] {
            #expect(copied.map { "\($0[key] ?? "nil")" } == bets.map { "\($0[key] ?? "nil")" }, "\(key)")
        }
        // A file that is not a bet CSV: one sentence, nothing added.
        try "team,odds\nLakers,2.2\n".write(toFile: file, atomically: true, encoding: .utf8)
        let bad = try await CLI.run(["bets", "import", file, "--history", other])
        #expect(bad.status == 64 && bad.stderr.contains("no selection, price, stake, match (or event) column"), "\(bad.stderr)")
    }

    /// A TickOdds recording of one basketball game: priced before tip-off (opening 2.20 / 1.70), the line moving to
    /// 1.90 / 1.90 by the close, tip-off, baskets and a price swing in play, and the end at 101-99.
    static func recording(_ path: String) throws {
        func event(_ status: String, _ score: String, _ home: String, _ away: String, clock: String = "12:00", period: String = "1st Quarter") -> String {
            """
            {"fixtureId":"5001","sportName":"Basketball","league":"NBA","home":"Los Angeles Lakers","away":"Boston Celtics","score":"\(score)",\
            "clock":"\(clock)","period":"\(period)","status":"\(status)","marketGroups":[{"name":"Money Line","key":"money_line","industryKey":"h2h",\
            "period":"full_game","type":"simple","selections":[{"id":"5001:money_line:full_game:home","name":"Los Angeles Lakers","odds":\(home),\
            "side":"home","team":"home","isMain":true},{"id":"5001:money_line:full_game:away","name":"Boston Celtics","odds":\(away),"side":"away",\
            "team":"away","isMain":true}]}]}
            """
        }
        let t0 = 1_800_000_000_000
        var lines = ["{\"t\":\(t0),\"feed\":\"tickodds/live\",\"frame\":{\"type\":\"snapshot\",\"count\":1,\"events\":[\(event("not_started", "0-0", "2.20", "1.70"))]}}"]
        let steps: [(Int, String, String)] = [
            (30_000, "odds", event("not_started", "0-0", "2.05", "1.80")),
            (60_000, "odds", event("not_started", "0-0", "1.90", "1.90")),
            (90_000, "status", event("in_progress", "0-0", "1.90", "1.90")),
            (120_000, "score", event("in_progress", "10-2", "1.40", "2.90", clock: "09:10")),
            (150_000, "odds", event("in_progress", "55-60", "2.40", "1.55", clock: "00:00", period: "Halftime")),
            (200_000, "status", event("ended", "101-99", "1.01", "51.00", clock: "00:00", period: "4th Quarter")),
        ]
        for (ms, change, e) in steps {
            lines.append("{\"t\":\(t0 + ms),\"feed\":\"tickodds/live\",\"frame\":{\"type\":\"update\",\"fixtureId\":\"5001\",\"change\":\"\(change)\",\"event\":\(e)}}")
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test("Graded against a replay: a game priced before tip-off, live, scored and ended, collected into each backend",
          arguments: ["sqlite", "postgres"])
    func replay(backend: String) async throws {
        let dir = try HistoryCLITests.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let history: String
        if backend == "postgres" {
            guard let server = try await PostgresTestServer.sharedOffPool() else { return }
            history = try server.createDatabase()
        } else {
            history = dir + "/h.sqlite"
        }
        let rec = dir + "/game.ndjson"
        try Self.recording(rec)
        let collect = try await CLI.run(["history", "collect", "--replay", rec, "--speed", "max", "--history", history])
        #expect(collect.status == 0, "\(collect.stderr)")
        // Taken at 2.20 (the opening price), and on the away side at 1.75.
        let home = try await CLI.run(["bets", "add", "Lakers", "Lakers", "2.20", "10", "--at", "2027-01-15T08:00:05Z", "--history", history])
        #expect(home.status == 0, "\(home.stderr)")
        let away = try await CLI.run(["bets", "add", "--history", history, "--", "5001", "away", "-133", "20"])
        #expect(away.status == 0, "\(away.stderr)")
        let bets = try HistoryCLITests.json(try await CLI.run(["bets", "list", "--history", history, "--json"]).stdout)
        #expect(bets.count == 2, "\(bets)")
        // The close is the last price before tip-off, 1.90 / 1.90 (fair 2.00): 2.20 is +10 %, won 101-99.
        let lakers = try #require(bets.first { $0["selection"] as? String == "Los Angeles Lakers" })
        #expect((lakers["clv"] as? NSNumber)?.doubleValue == 0.1 && lakers["result"] as? String == "won", "\(lakers)")
        #expect((lakers["fair"] as? NSNumber)?.doubleValue == 2 && ((lakers["close"] as? [String: Any])?["decimal"] as? String) == "1.90")
        #expect((lakers["finalScore"] as? [String: Any])?["home"] as? Int == 101)
        // −133 is 1.7519 (exactly 1 + 100/133): CLV −12.4 %, lost 20.
        let celtics = try #require(bets.first { $0["selection"] as? String == "Boston Celtics" })
        #expect((celtics["clv"] as? NSNumber)?.doubleValue == -0.1241 && celtics["result"] as? String == "lost", "\(celtics)")
        #expect((celtics["profit"] as? NSNumber)?.doubleValue == -20)
    }
}
