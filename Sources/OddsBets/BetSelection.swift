import Foundation
import OddsHistory
import OddsModel
import OddsValue

/// A selection of a stored match that a bet can be placed on: as stored, with its meaning where the market is one
/// `odds value` reads (`result`, `total:2.5`…; `home`, `over`…) and its latest price.
public struct BetCandidate: Sendable {
    public var selection: StoredSelection
    public var market: String?
    public var outcome: String?
    public var last: Price?
}

public enum BetSelection {
    /// Every selection of `lines` (a match's lines), each read for its meaning.
    public static func candidates(_ lines: [SelectionLine], source: StoredSource) -> [BetCandidate] {
        // Priced as it last stood (a suspended line priced as before it, for its meaning only).
        let (event, at) = self.event(lines, provider: source.key.provider, id: source.key.eventID, sport: source.sport, league: source.league,
                                     home: source.home, away: source.away, startTime: source.startTime) {
            $0.last.price ?? $0.last.odds.flatMap { Price(decimalOdds: $0) }
        }
        var meaning: [Int: [Int: (String, String)]] = [:]
        let settings = ValueSettings(maxAgeInPlay: .infinity, maxAgePrematch: .infinity)
        for value in ValueAnalysis.analyze(event, settings: settings, age: { _ in 0 }) {
            for book in value.books {
                for (o, quote) in book.quotes.enumerated() {
                    guard let q = quote else { continue }
                    meaning[q.market, default: [:]][q.selection] = (value.id, value.outcomes[o].id)
                }
            }
        }
        return zip(lines, at).map { line, place in
            let m = meaning[place.market]?[place.selection]
            return BetCandidate(selection: line.selection, market: m?.0, outcome: m?.1, last: line.last.price)
        }
    }

    /// A match's lines as one event: one market per source, book and market, each selection priced by `price`
    /// (nil: no price); with each line's (market, selection) place in it.
    static func event(_ lines: [SelectionLine], provider: ProviderID, id: String, sport: String, league: String?, home: String,
                      away: String?, startTime: Date?, price: (SelectionLine) -> Price?) -> (Event, [(market: Int, selection: Int)]) {
        var markets: [Market] = []
        var index: [String: Int] = [:]
        var at: [(market: Int, selection: Int)] = []
        for line in lines {
            let s = line.selection
            let key = "\(s.source.provider.rawValue)\u{1}\(s.source.eventID)\u{1}\(s.book)\u{1}\(s.marketID)"
            if index[key] == nil {
                index[key] = markets.count
                var m = Market(id: s.marketID, name: s.marketName, book: s.book, selections: [])
                m.provider = s.source.provider
                markets.append(m)
            }
            let m = index[key]!
            at.append((m, markets[m].selections.count))
            markets[m].selections.append(Selection(id: s.selectionID, name: s.selectionName, line: s.line.isEmpty ? nil : s.line, price: price(line)))
        }
        let event = Event(provider: provider, id: id, sport: sport, league: league, home: home, away: away, status: .scheduled,
                          startTime: startTime, markets: markets)
        return (event, at)
    }

    /// Whether `word` names the candidate's selection: `home`, `draw`, `away`, `over`, `under`, `yes`, `no` by
    /// meaning, a team by its side, or the selection's own name (folded: case, accents, punctuation).
    public static func names(_ word: String, _ c: BetCandidate, home: String, away: String?) -> Bool {
        let w = TeamName.fold(word)
        guard !w.isEmpty else { return false }
        let keys: [String: String] = ["home": "home", "1": "home", "draw": "draw", "x": "draw", "tie": "draw", "away": "away", "2": "away",
                                      "over": "over", "under": "under", "yes": "yes", "no": "no"]
        if let key = keys[w] { return c.outcome == key || TeamName.fold(c.selection.selectionID) == w }
        if c.outcome == "home", TeamName.fold(home).contains(w) { return true }
        if c.outcome == "away", let away, TeamName.fold(away).contains(w) { return true }
        return TeamName.fold(c.selection.selectionName) == w
    }
}
