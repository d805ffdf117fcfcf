import Foundation
import OddsFusion
import OddsModel

/// Stored selections read by meaning, as a fused match reads its sources' markets: the match result (`result`:
/// home, draw, away), totals per line (`total:2.5`: over, under), spreads per line and both teams to score
/// (`btts`: yes, no). PulseScore's "Fulltime Result", TickOdds' `full_time_result` and a BoltOdds book's
/// "Moneyline" are one market, so that a match kept from several sources is charted and filtered across all of
/// them. A selection of any other market has no meaning here and is matched by its own ids and names.
public struct MarketMeanings: Sendable {
    /// What a selection means: its market by meaning, that market's name, and the selection by meaning.
    public struct Meaning: Hashable, Sendable {
        /// "result", "total:2.5", "spread:-1.5", "btts".
        public var market: String
        /// "Match result", "Total 2.5", "Spread -1.5", "Both teams to score".
        public var marketName: String
        /// "home", "draw", "away", "over", "under", "yes", "no".
        public var selection: String
    }

    /// By selection.
    public private(set) var bySelection: [SelectionRef: Meaning] = [:]

    /// Reads `selections` with their sources' teams (a source not in `sources` has no meanings).
    public init(_ selections: some Sequence<StoredSelection>, sources: [StoredSource]) {
        let teams = Dictionary(sources.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        // Each source's markets as it sent them: by book and market id, selections in the order they were kept.
        var markets: [SourceKey: [String: [StoredSelection]]] = [:]
        var order: [SourceKey: [String]] = [:]
        var seen: Set<SelectionRef> = []
        for s in selections.sorted(by: { $0.rowID < $1.rowID }) where teams[s.source] != nil && seen.insert(s.ref).inserted {
            let k = s.book + "\u{1F}" + s.marketID
            if markets[s.source]?[k] == nil { order[s.source, default: []].append(k) }
            markets[s.source, default: [:]][k, default: []].append(s)
        }
        for (key, byMarket) in markets {
            guard let source = teams[key], source.away != nil else { continue }
            let kept = order[key]!.map { byMarket[$0]! }
            let built = kept.map { list in
                Market(id: list[0].marketID, name: list[0].marketName, book: list[0].book,
                       selections: list.map { Selection(id: $0.selectionID, name: $0.selectionName, line: $0.line.isEmpty ? nil : $0.line, price: nil) })
            }
            let event = Event(provider: key.provider, id: key.eventID, sport: source.sport, league: source.league,
                              home: source.home, away: source.away, markets: built)
            let main = FusedMatch.mainMarket(of: event)
            for (list, market) in zip(kept, built) {
                for (m, origins) in FusedMatch.normalizedWithOrigins(market, main: main, event: event) where FusedMatch.isByMeaning(m.id) {
                    for (j, i) in origins.enumerated() {
                        bySelection[list[i].ref] = Meaning(market: m.id, marketName: m.name, selection: m.selections[j].id)
                    }
                }
            }
        }
    }

    public subscript(_ s: StoredSelection) -> Meaning? { bySelection[s.ref] }

    /// Whether `wanted` (lower-cased) names `s`: its name or id in any case, or its meaning ("home", "over").
    public func names(_ s: StoredSelection, _ wanted: String) -> Bool {
        s.selectionName.lowercased() == wanted || s.selectionID.lowercased() == wanted || self[s]?.selection == wanted
    }

    /// The selections of `selections` in the match result by meaning (a chart's market when none is named).
    public func matchResult(_ selections: [StoredSelection]) -> [StoredSelection] {
        selections.filter { self[$0]?.market == FusedMatch.resultMarketID }
    }

    /// The selections of `market` (any case): those whose market id or name it is, those whose market by meaning it
    /// is ("result", "Match result", "total:2.5", "Total 2.5"), and those of the same meaning as any of them in
    /// every other source and book.
    public func narrow(_ selections: [StoredSelection], market: String) -> [StoredSelection] {
        let m = market.lowercased()
        func named(_ s: StoredSelection) -> Bool { s.marketID.lowercased() == m || s.marketName.lowercased() == m }
        var meanings: Set<String> = []
        for s in selections {
            guard let meaning = self[s] else { continue }
            if named(s) || meaning.market.lowercased() == m || meaning.marketName.lowercased() == m { meanings.insert(meaning.market) }
        }
        return selections.filter { s in named(s) || self[s].map { meanings.contains($0.market) } == true }
    }
}

extension StoredSelection {
    /// What tells it from another selection, read from a history or not.
    public var ref: SelectionRef { SelectionRef(source: source, book: book, marketID: marketID, line: line, selectionID: selectionID) }
}

extension TimelineFilter {
    /// `selections` of `sources` as this filter's market narrows them (by id, name or meaning; every one without a market).
    func narrow(_ selections: [StoredSelection], sources: [StoredSource]) -> [StoredSelection] {
        guard let market else { return selections }
        return MarketMeanings(selections, sources: sources).narrow(selections, market: market)
    }
}
