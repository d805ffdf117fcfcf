import Foundation
import OddsFusion
import OddsModel
import OddsValue

/// `odds-bench value [--games 2000] [--books 8] [--changes 20000]`: the cost of keeping margins, fair prices,
/// EVs and arbitrage current as prices change. Each game has a three-way result and a total from every book;
/// each change moves one price and recomputes only its market (that book's entries by meaning, then the market
/// across books). Reports CPU time per change and the share of one core at 1,000 changes a second.
enum ValueBench {
    static func run(_ args: [String]) -> Int32 {
        func option(_ name: String, _ fallback: Int) -> Int {
            guard let i = args.firstIndex(of: "--" + name), i + 1 < args.count, let v = Int(args[i + 1]) else { return fallback }
            return v
        }
        let games = option("games", 2000), bookCount = option("books", 8), changes = option("changes", 20000)
        var rng = SeededRandom(seed: 21)
        func price(_ p: Double) -> Price { Price(decimal: String(format: "%.2f", max(1.01, 1 / p)))! }
        let books = (0..<bookCount).map { "book\($0)" }
        var events: [Event] = (0..<games).map { g in
            var markets: [Market] = []
            for book in books {
                let skew = Double.random(in: 0.95...1.0, using: &rng)
                markets.append(Market(id: "1x2", name: "Fulltime Result", book: book, selections: [
                    Selection(id: "1", name: "Home \(g)", price: price(0.45 / skew)), Selection(id: "x", name: "Draw", price: price(0.28 / skew)),
                    Selection(id: "2", name: "Away \(g)", price: price(0.33 / skew))]))
                markets.append(Market(id: "ou", name: "Total Goals", book: book, selections: [
                    Selection(id: "o", name: "Over", line: "2.5", price: price(0.52 / skew)),
                    Selection(id: "u", name: "Under", line: "2.5", price: price(0.52 / skew))]))
            }
            return Event(provider: ProviderID("boltodds", displayName: "BoltOdds", environmentName: "BOLTODDS"), id: "g\(g)",
                         sport: "soccer", home: "Home \(g)", away: "Away \(g)", status: .live, markets: markets)
        }
        let settings = ValueSettings()
        // Each game's entries per source market, worked out once.
        var entries: [[[ValueAnalysis.Entry]]] = events.map { e in
            let main = FusedMatch.mainMarket(of: e)
            return e.markets.indices.map { ValueAnalysis.entries(of: e.markets[$0], at: $0, in: e, main: main, age: 1) }
        }
        // The changes, drawn before the clock starts.
        let plan = (0..<changes).map { _ in (Int.random(in: 0..<games, using: &rng), Int.random(in: 0..<(2 * bookCount), using: &rng),
                                           Int.random(in: 0..<2, using: &rng), Double.random(in: 0.2...0.7, using: &rng)) }
        var arbitrages = 0, analysed = 0
        let start = cpuSeconds()
        for (g, m, s, p) in plan {
            events[g].markets[m].selections[s].price = price(p)
            let event = events[g]
            let main = FusedMatch.mainMarket(of: event)
            entries[g][m] = ValueAnalysis.entries(of: event.markets[m], at: m, in: event, main: main, age: 1)
            for id in Set(entries[g][m].map(\.market.id)) {
                let group = entries[g].flatMap { $0.filter { $0.market.id == id } }
                if let value = ValueAnalysis.market(group, sport: event.sport, inPlay: true, settings: settings) {
                    analysed += 1
                    if value.arbitrage != nil { arbitrages += 1 }
                }
            }
        }
        let cpu = cpuSeconds() - start
        let perChange = cpu / Double(changes)
        print("value: \(games) games x \(bookCount) books, \(changes) price changes, \(analysed) markets recomputed, \(arbitrages) with an arbitrage")
        print(String(format: "value: %.1f µs CPU per change; at 1,000 changes a second: %.2f%% of one core", perChange * 1e6, perChange * 1000 * 100))
        return 0
    }
}
