import Foundation
import OddsFusion
import OddsModel

/// The names a match's history answers to (its books, markets and selections), so that a `--book`, `--market` or
/// `--selection` that names nothing kept is one sentence saying what is kept, not an empty answer.
public struct KeptNames: Sendable {
    private let selections: [StoredSelection]
    private let meanings: MarketMeanings
    private let title: String
    /// Names listed in a sentence before "and N more".
    static let listed = 12

    /// Reads `selections` (every selection of `sources`, as `Timeline.selections` holds them); `title` names the match.
    public init(_ selections: [StoredSelection], sources: [StoredSource], title: String) {
        self.selections = selections.sorted { $0.rowID < $1.rowID }
        meanings = MarketMeanings(selections, sources: sources)
        self.title = title
    }

    /// The sentence for the first name given that names nothing kept (the book, then the market, the market in that
    /// book, then the selection in that market), or nil when each names something or nothing is kept at all. A
    /// market or selection is matched as the timeline and chart match it: by id, name or meaning, any case.
    public func miss(book: String? = nil, market: String? = nil, selection: String? = nil) -> String? {
        guard !selections.isEmpty else { return nil }
        var kept = selections
        if let book {
            let key = self.book(book)
            kept = selections.filter { $0.book == key }
            if kept.isEmpty {
                return "'\(book)' is not a book of \(title) in the history; its books: \(Self.list(selections.map(\.book)))."
            }
        }
        var inMarket = kept
        if let market {
            let everyBook = meanings.narrow(selections, market: market)
            if everyBook.isEmpty {
                return "'\(market)' names no market of \(title) in the history; its markets: \(marketList(selections))."
            }
            let refs = Set(everyBook.map(\.ref))
            inMarket = kept.filter { refs.contains($0.ref) }
            if inMarket.isEmpty, let book {
                return "\(book) kept no '\(market)' of \(title); its markets there: \(marketList(kept))."
            }
        } else if selection != nil {
            // A chart's default market: the match result by meaning, where the match has one.
            inMarket = meanings.matchResult(kept)
            if inMarket.isEmpty { return nil }
        }
        if let selection {
            let wanted = selection.lowercased()
            if !inMarket.contains(where: { meanings.names($0, wanted) }) {
                let choices = Self.list(inMarket.map(\.selectionName) + inMarket.compactMap { meanings[$0]?.selection })
                return "'\(selection)' names no selection of \(market.map { "'\($0)'" } ?? "the match result") in \(title); "
                    + "its selections: \(choices)."
            }
        }
        return nil
    }

    /// The book as kept that `typed` names: its key in any case, or the name tables show it by ("Bally Bet" is
    /// `ballybet`, "BetMGM" `betmgm`), letters and digits alike; nil when it names none.
    public func book(_ typed: String) -> String? {
        let key = BookNames.key(typed)
        return selections.first { $0.book.lowercased() == typed.lowercased() }?.book
            ?? (key.isEmpty ? nil : selections.first { BookNames.key($0.book) == key }?.book)
    }

    /// Market names as sent, then the meanings they can be asked for by (result, total:2.5, btts).
    private func marketList(_ of: [StoredSelection]) -> String {
        let byMeaning = of.compactMap { meanings[$0]?.market }
        return Self.list(of.map(\.marketName)) + (byMeaning.isEmpty ? "" : "; by meaning: " + Self.list(byMeaning))
    }

    /// Distinct names (any case) in the order first kept, at most `listed` of them.
    static func list(_ names: [String]) -> String {
        var seen: Set<String> = []
        let distinct = names.filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
        let shown = distinct.prefix(listed).joined(separator: ", ")
        return distinct.count > listed ? shown + " and \(distinct.count - listed) more" : shown
    }
}
