import Foundation
import OddsModel
import OddsStore

/// A bet the dashboard asks the run loop to record: the match (one of its sources' event ids), the selection as
/// shown, the price and book it was shown at, and the stake typed.
public struct BetRequest: Hashable, Sendable {
    public var match: String
    public var title: String
    public var selection: String
    public var price: Price
    public var book: String?
    public var stake: String

    public init(match: String, title: String, selection: String, price: Price, book: String?, stake: String) {
        self.match = match; self.title = title; self.selection = selection; self.price = price; self.book = book; self.stake = stake
    }
}

/// `b`: the stake being typed for one of a match's main prices (Tab cycles the prices).
public struct BetDraft: Hashable, Sendable {
    public let row: EventKey
    let match: String
    let title: String
    /// The main prices as shown: each selection, its price and the book offering it.
    let cells: [LineCell]
    public internal(set) var index = 0
    public internal(set) var stake = ""
    /// Why the last Enter did not record the bet.
    public internal(set) var error: String?

    public var cell: LineCell { cells[index] }
}

extension DashboardModel {
    /// `b` on the selected row (or the detail pane's match): a bet at its first main price shown, asking the stake.
    mutating func startBet() {
        guard let key = focused ?? selected, let e = shown.events[key]?.event else { return }
        let cells = e.mainColumns.cells.compactMap { $0 }.filter { $0.selection.isAvailable }
        guard !cells.isEmpty else {
            tell(TickerItem(at: now, key: key, news: .note("no price to bet on in \(e.title) now")))
            return
        }
        // A fused row's bet is placed on one of its sources (the history finds the match's others).
        let match = e.match?.sources.first?.id ?? e.id
        betDraft = BetDraft(row: key, match: match, title: e.title, cells: cells)
    }

    mutating func editBet(_ key: Key) -> [DashboardEffect] {
        guard var draft = betDraft else { return [] }
        switch key {
        case .escape:
            betDraft = nil
            return []
        case .enter:
            let stake = draft.stake.trimmingCharacters(in: .whitespaces)
            guard let value = Rational(decimalText: stake), Rational(0, 1)! < value else {
                draft.error = "type a stake such as 10 or 12.50"
                betDraft = draft
                return []
            }
            betDraft = nil
            let c = draft.cell
            return [.recordBet(BetRequest(match: draft.match, title: draft.title, selection: c.selection.name, price: c.selection.price!,
                                          book: c.book, stake: stake))]
        case .character("\t"):
            draft.index = (draft.index + 1) % draft.cells.count
        default:
            _ = LineEditor.apply(key, to: &draft.stake) { $0.isASCII && ($0.isNumber || $0 == ".") }
        }
        draft.error = nil
        betDraft = draft
        return []
    }
}
