import Foundation
import OddsBoltOdds
import OddsFusion
import OddsModel
import OddsOutput
import OddsPulseScore
import OddsSportsAPI
import OddsTickOdds
import OddsTestSupport
import OddsValue
import Testing

/// Books by their proper names and providers by short tags where people read them; keys where scripts do (issue 49).
@Suite("Book names and source tags", .unitLane)
struct BookNamesTests {
    @Test("A book's proper name however the feed spells its key; an unknown key as sent, a bare lower-case word raised")
    func properNames() {
        #expect(BookNames.proper("draftkings") == "DraftKings" && BookNames.proper("DraftKings") == "DraftKings")
        #expect(BookNames.proper("ballybet") == "Bally Bet" && BookNames.proper("bally-bet") == "Bally Bet")
        #expect(BookNames.proper("williamhill") == "William Hill" && BookNames.proper("bet365") == "bet365")
        #expect(BookNames.proper("espnbet") == "ESPN BET" && BookNames.proper("sportsapipro") == "SportsAPIPro")
        #expect(BookNames.proper("neobet") == "Neobet" && BookNames.proper("Some Book") == "Some Book" && BookNames.proper("") == "")
        // Fitted: whole when it fits, else the short name.
        #expect(BookNames.fit("draftkings", width: 12, short: ["draftkings": "DK"]) == "DraftKings")
        #expect(BookNames.fit("draftkings", width: 5, short: ["draftkings": "DK"]) == "DK")
        #expect([ProviderID.boltodds, .pulsescore, .tickodds, .sportsapi, .sportsapiV1].map(\.tag) == ["BO", "PS", "TO", "S2", "S1"])
    }

    /// A match three providers joined, BoltOdds with two books.
    static func fused() -> Event {
        func market(_ provider: ProviderID, _ book: String, _ prices: [String]) -> Market {
            var m = Market(id: "result", name: "Match result", book: book, selections: zip(["home", "draw", "away"], prices).map { id, p in
                Selection(id: id, name: id, price: Price(decimal: p))
            })
            m.provider = provider
            return m
        }
        var e = Event(provider: .fused, id: "m1", sport: "soccer", league: "Premier League Division One Of England",
                      home: "Manchester United Football Club", away: "Wolverhampton Wanderers Football Club", status: .live,
                      score: Score(home: 1, away: 0),
                      markets: [market(.boltodds, "draftkings", ["2.10", "3.40", "3.90"]), market(.boltodds, "ballybet", ["2.05", "3.45", "3.80"]),
                                market(.pulsescore, "bet365", ["2.00", "3.30", "4.00"]), market(.sportsapi, "williamhill", ["2.08", "3.50", "3.70"])])
        e.match = MatchInfo(id: "m1", confidence: 1, sources: [.boltodds, .pulsescore, .sportsapi].map {
            EventSource(provider: $0, id: "x", league: nil, home: "A", away: "B", startTime: nil, updatedAt: nil, confidence: 1, reason: "")
        })
        return e
    }

    @Test("A fused table for a person fits 80 columns: source tags with a legend; wider, the books' proper names beside the prices")
    func fusedTableForAPerson() {
        let events = [Self.fused()]
        let narrow = EventReporter.render(events, format: .table, options: RenderOptions(width: 80, human: true))
        let lines = narrow.split(separator: "\n")
        #expect(lines.allSatisfy { TextWidth.width(of: String($0)) <= 80 }, "\(narrow)")
        #expect(lines[1].hasSuffix("BO PS S2"), "\(lines[1])")
        #expect(narrow.contains("SRC: BO BoltOdds · PS PulseScore · S2 SportsAPIPro v2"))
        let wide = EventReporter.render(events, format: .table, options: RenderOptions(width: 160, human: true))
        #expect(wide.contains("2.10 DraftKings") && wide.contains("3.50 William Hill") && wide.contains("4.00 bet365"), "\(wide)")
        #expect(wide.split(separator: "\n").allSatisfy { TextWidth.width(of: String($0)) <= 160 })
    }

    @Test("The same table for a script (TSV): the providers' ids and the books' keys, no legend")
    func fusedTableForAScript() {
        let tsv = EventReporter.render([Self.fused()], format: .tsv, options: RenderOptions())
        #expect(tsv.contains("2.10 draftkings") && tsv.contains("\tboltodds,pulsescore,sportsapi") && !tsv.contains("SRC:"), "\(tsv)")
    }

    @Test("odds value and odds arb tables for a person fit 80 columns and name books properly; their TSV keeps the keys")
    func valueAndArbTables() {
        // A lagging book against the others: an arbitrage on the match result, and value at that book.
        var e = Self.fused()
        e.markets[1].selections[2].price = Price(decimal: "6.00")
        e.home = "Borussia Mönchengladbach Football Club"
        let values = [EventValue(event: e, markets: ValueAnalysis.analyze(e, settings: ValueSettings()) { _ in 0 })]
        let arbs = ValueReport.arbitrages(values, minProfit: .zero)
        let bets = ValueReport.valueBets(values, minEV: Fraction(-1))
        #expect(!arbs.isEmpty && !bets.isEmpty)
        let person = RenderOptions(width: 80, human: true)
        for table in [ValueReport.renderArbs(arbs, stake: Fraction(100), unit: Fraction(1, 100)!, format: .table, options: person),
                      ValueReport.renderValue(bets, settings: ValueSettings(), format: .table, options: person)] {
            #expect(table.split(separator: "\n").allSatisfy { TextWidth.width(of: String($0)) <= 80 }, "\(table)")
            #expect(table.contains("Bally") && !table.contains("ballybet"), "\(table)")
        }
        let tsv = ValueReport.renderArbs(arbs, stake: Fraction(100), unit: Fraction(1, 100)!, format: .tsv, options: RenderOptions())
        #expect(tsv.contains("ballybet (boltodds)") && tsv.contains("rounded)"), "\(tsv)")
    }

    @Test("JSON keeps the provider's key as book and adds the proper name beside it")
    func json() {
        let text = EventJSON.event(Self.fused()).rendered
        #expect(text.contains(#""book":"ballybet","bookName":"Bally Bet""#), "\(text.prefix(400))")
    }
}
