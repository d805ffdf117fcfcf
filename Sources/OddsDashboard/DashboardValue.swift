import Foundation
import OddsFusion
import OddsModel
import OddsStore
import OddsValue

/// Value mode (`v`): what a row's prices mean. Worked out only for the rows drawn, and kept until the row
/// changes or a second passes (prices age, so freshness moves on without a message).
final class ValueMemo: @unchecked Sendable {
    private struct Entry {
        var updated: Date
        var computed: Date
        var markets: [MarketValue]
    }
    private let lock = NSLock()
    private var entries: [EventKey: Entry] = [:]

    func markets(_ key: EventKey, updated: Date, now: Date, compute: () -> [MarketValue]) -> [MarketValue] {
        lock.lock()
        if let e = entries[key], e.updated == updated, abs(now.timeIntervalSince(e.computed)) < 1 {
            lock.unlock()
            return e.markets
        }
        lock.unlock()
        let markets = compute()
        lock.lock()
        // Rows that scrolled away are not kept forever.
        if entries.count > 4096 { entries.removeAll(keepingCapacity: true) }
        entries[key] = Entry(updated: updated, computed: now, markets: markets)
        lock.unlock()
        return markets
    }
}

/// A table row in value mode: the shown market's margin, which price cells pass the EV threshold, and the row's
/// best open arbitrage.
struct RowValue {
    /// Margin of the prices the row shows (Σ 1/price − 1): a book's own margin when the row has one book,
    /// the margin of the best prices across books otherwise; nil unless every result is priced.
    var margin: Fraction?
    /// Per price cell (1, X, 2), its EV when its book is fresh and the market has a fair price.
    var ev: [Fraction?] = [nil, nil, nil]
    /// The most profitable arbitrage among the row's markets (fresh legs only).
    var arbitrage: Arbitrage?
}

extension DashboardModel {
    /// Margins, fair prices, EVs and arbitrage of the row's markets, in exact arithmetic (value mode).
    public func marketValues(_ key: EventKey) -> [MarketValue] {
        guard let state = shown.events[key] else { return [] }
        let sources = store, now = self.now, ages = priceAges, settings = valueSettings
        return valueMemo.markets(key, updated: state.lastUpdate, now: now) {
            ValueAnalysis.analyze(state.event, settings: settings) { ages.age(of: $0, in: state.event, sources: sources, now: now) }
        }
    }

    func rowValue(_ key: EventKey) -> RowValue {
        guard let state = shown.events[key] else { return RowValue() }
        let values = marketValues(key)
        var row = RowValue()
        row.arbitrage = values.compactMap(\.arbitrage).max { $0.profit < $1.profit }
        let columns = state.event.mainColumns
        guard !columns.outright, let result = values.first(where: { $0.id == FusedMatch.resultMarketID }) else { return row }
        let ids = ["home", "draw", "away"]
        // A cell without a book (one book's row) is the main market's book.
        let mainID = state.event.mainMarket?.id
        let mainBook = state.event.markets.first { $0.id == mainID }?.book
        var implied: [Fraction] = []
        for (i, cell) in columns.cells.enumerated() {
            guard let cell, let o = result.outcomes.firstIndex(where: { $0.id == ids[i] }) else { continue }
            guard !cell.selection.suspended, let price = cell.selection.price else { continue }
            implied.append(Fraction(price.impliedProbability))
            let book = cell.book ?? mainBook
            if let fair = result.fair?[o], result.books.contains(where: { $0.fresh && (book == nil || $0.source.book == book) }) {
                row.ev[i] = Fraction(price.decimalOdds) * fair - .one
            }
        }
        if implied.count == result.outcomes.count { row.margin = implied.reduce(.zero, +) - .one }
        return row
    }
}
