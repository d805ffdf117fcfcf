import Foundation

/// The market tables show and its 1 / X / 2 columns: which market, which line, which cell each price is in.
extension Event {
    /// "Liverpool v Man City", or just the home name for a race.
    public var title: String { away.map { "\(home) v \($0)" } ?? home }

    /// The market that tables show: the match result / winner market, else the first market.
    public var mainMarket: Market? { mainMarketIndex.map { markets[$0] } }

    /// Where `mainMarket` is in `markets`.
    public var mainMarketIndex: Int? {
        markets.firstIndex(where: { Event.isMainMarketName($0.name) }) ?? (markets.isEmpty ? nil : 0)
    }

    /// The books this event has prices from, in order of first appearance.
    public var books: [String] {
        var seen = Set<String>()
        return markets.compactMap(\.book).filter { seen.insert($0).inserted }
    }

    /// For each selection of market `marketID`, the longest available price across books and the
    /// book that has it; suspended and missing prices are left out. Ties go to the book listed first.
    public func bestPrices(marketID: String) -> [SelectionRef: BestPrice] {
        var best: [SelectionRef: BestPrice] = [:]
        for market in markets where market.id == marketID {
            for s in market.selections where s.isAvailable {
                let price = s.price!
                if let current = best[s.ref], current.price.decimalOdds >= price.decimalOdds { continue }
                best[s.ref] = BestPrice(price: price, book: market.book, provider: market.provider)
            }
        }
        return best
    }

    /// The 1 / X / 2 of tables: the main market's main selections. With several books, each
    /// selection at its best available price across books, with that book; a selection no book
    /// offers now is suspended.
    public var mainLine: [LineCell] {
        guard let mainIndex = mainMarketIndex else { return [] }
        guard hasSeveralBooks else {
            let main = markets[mainIndex]
            return main.mainSelections.map { LineCell(selection: $0, book: main.book) }
        }
        let mainID = markets[mainIndex].id
        return markets.withUnsafeBufferPointer { ms in
            // The main id's markets, found once: each pass below compared every market's id with it
            // (a BoltOdds game has 22 markets at each of 8 books, 3 of its 8 main).
            withUnsafeTemporaryAllocation(of: Int.self, capacity: ms.count) { found -> [LineCell] in
                var count = 0
                // Room for the main markets' selections only: the count of every market's list was a read of
                // memory no other step of the row touches (most of a BoltOdds game's lists are not main).
                var room = 0
                for m in ms.indices where ms[m].id == mainID {
                    found[count] = m; count += 1
                    room += ms[m].selections.count
                }
                return Event.mainLine(ms, mains: UnsafeBufferPointer(rebasing: found[..<count]), room: room)
            }
        }
    }

    /// `mainLine` over the main id's markets `mains` (indices into `ms`, in order), whose selections number `room`.
    private static func mainLine(_ ms: UnsafeBufferPointer<Market>, mains: UnsafeBufferPointer<Int>, room: Int) -> [LineCell] {
        // Slot i, for main selection i in order of first appearance: where it first is (market,
        // selection) and where its best price is (-1: none), as indices read in place, in memory of
        // the call's own (on the stack for an event of usual size): a list, a closure's captured
        // state and a copy of each selection per event were a large cost of a table of many rows.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: max(1, 4 * room)) { slots -> [LineCell] in
            var n = 0
            // Found by a scan while there are a handful; by a dictionary past 8 (a provider's list is
            // never searched quadratically).
            var index: [SelectionRef: Int]?
            for m in mains {
                let rule = ms[m].mainRule
                ms[m].selections.withUnsafeBufferPointer { ss in
                    for k in ss.indices where rule.admits(ss[k]) && Event.slot(of: ss[k], in: slots, count: n, ms, index, hint: k) == nil {
                        slots[4 * n] = m; slots[4 * n + 1] = k; slots[4 * n + 2] = -1; slots[4 * n + 3] = -1
                        n += 1
                        if index != nil { index![ss[k].ref] = n - 1 }
                        else if n > 8 {
                            index = Dictionary((0..<n).map { (ms[slots[4 * $0]].selections[slots[4 * $0 + 1]].ref, $0) },
                                               uniquingKeysWith: { a, _ in a })
                        }
                    }
                }
            }
            // Each one's longest available price across books (as `bestPrices`: ties go to the book listed first).
            for m in mains {
                ms[m].selections.withUnsafeBufferPointer { ss in
                    for k in ss.indices where ss[k].isAvailable {
                        guard let i = Event.slot(of: ss[k], in: slots, count: n, ms, index, hint: k) else { continue }
                        let bm = slots[4 * i + 2], bs = slots[4 * i + 3]
                        if bm >= 0, ms[bm].selections.withUnsafeBufferPointer({ $0[bs].price!.decimalOdds >= ss[k].price!.decimalOdds }) {
                            continue
                        }
                        slots[4 * i + 2] = m; slots[4 * i + 3] = k
                    }
                }
            }
            var cells: [LineCell] = []
            cells.reserveCapacity(n)
            for i in 0..<n {
                cells.append(Event.lineCell(ms, mains: mains, first: (slots[4 * i], slots[4 * i + 1]),
                                            best: slots[4 * i + 2] >= 0 ? (slots[4 * i + 2], slots[4 * i + 3]) : nil))
            }
            return cells
        }
    }

    /// Which of the first `count` slots holds `selection` (same id and line): by `index` when there is
    /// one, else by comparing in place, slot `hint` first (books mostly list a market's selections in
    /// the same order, so the selection at place k of its market is mostly slot k).
    private static func slot(of selection: Selection, in slots: UnsafeMutableBufferPointer<Int>, count: Int,
                             _ ms: UnsafeBufferPointer<Market>, _ index: [SelectionRef: Int]?, hint: Int) -> Int? {
        if let index { return index[selection.ref] }
        if hint < count, ms[slots[4 * hint]].selections.withUnsafeBufferPointer({ $0[slots[4 * hint + 1]].isSame(as: selection) }) {
            return hint
        }
        for i in 0..<count where i != hint {
            let same = ms[slots[4 * i]].selections.withUnsafeBufferPointer { $0[slots[4 * i + 1]].isSame(as: selection) }
            if same { return i }
        }
        return nil
    }

    /// A main selection's cell: as first listed, at the best price (`best`) with that book, the
    /// selection as that book offers it (its first market of the main id); suspended with no book.
    private static func lineCell(_ ms: UnsafeBufferPointer<Market>, mains: UnsafeBufferPointer<Int>, first: (m: Int, s: Int),
                                 best: (m: Int, s: Int)?) -> LineCell {
        var s = ms[first.m].selections[first.s]
        guard let b = best else { s.suspended = true; return LineCell(selection: s, book: nil) }
        let book = ms[b.m].book
        s.price = ms[b.m].selections[b.s].price
        s.suspended = false
        if let m = mains.first(where: { ms[$0].book == book }),
           let k = ms[m].selections.withUnsafeBufferPointer({ ss in ss.indices.first { ss[$0].isSame(as: s) } }) {
            s = ms[m].selections[k]
        }
        return LineCell(selection: s, book: book)
    }

    /// True when the markets name more than one book (`books.count > 1`, without making the list).
    public var hasSeveralBooks: Bool {
        var first: String?
        for m in markets.indices {
            guard let book = markets[m].book else { continue }
            if let first { if book != first { return true } } else { first = book }
        }
        return false
    }

    /// The main line as the 1 / X / 2 columns of tables. In a match, each selection stands in the
    /// column of its own outcome (home, draw, away: `outcome(of:)`), never by its place in the list: a
    /// selection missing from the feed leaves its cell empty, and one whose outcome cannot be told
    /// is not shown. A race, or a main market of more than three selections, is an outright: its
    /// favourite stands in 1, by name. A main market with no match outcome at all (a total) shows
    /// its selections by name (`outright`: each cell names its selection).
    public var mainColumns: MainColumns {
        let line = mainLine
        if away == nil || line.count > 3 {
            let favourite = line.filter(\.selection.isAvailable).min { $0.selection.price!.decimalOdds < $1.selection.price!.decimalOdds }
            return MainColumns(cells: [favourite, nil, nil], outright: true)
        }
        let teams = away.map { (TeamName.fold(home), TeamName.fold($0)) }
        // A selection named exactly as a team is that team's when the teams fold apart and neither
        // folds to a mark ("1", "Draw"...): what `outcome(of:)` answers, without folding its name.
        let plain = teams.map { !$0.0.isEmpty && $0.0 != $0.1 && Event.mark($0.0) == nil && Event.mark($0.1) == nil } ?? false
        let outcomes = line.map { cell -> MatchOutcome? in
            if plain {
                if cell.selection.name == home { return .home }
                if cell.selection.name == away { return .away }
            }
            return outcome(of: cell.selection, teams: teams)
        }
        // A main market none of whose selections is a match outcome (a total, when a feed has no
        // result market) shows each selection by name, as outrights do.
        if !outcomes.contains(where: { $0 != nil }) {
            switch line.count {
            case 0: return MainColumns(cells: [nil, nil, nil], outright: false)
            case 1: return MainColumns(cells: [line[0], nil, nil], outright: true)
            case 2: return MainColumns(cells: [line[0], nil, line[1]], outright: true)
            default: return MainColumns(cells: line, outright: true)
            }
        }
        var cells: [LineCell?] = [nil, nil, nil]
        var unknown: [(cell: LineCell, known: Bool)] = []
        for (cell, outcome) in zip(line, outcomes) {
            guard let outcome, cells[outcome.rawValue] == nil else { unknown.append((cell, outcome != nil)); continue }
            cells[outcome.rawValue] = cell
        }
        // Three selections of which two are known: the third is the one outcome left.
        if line.count == 3, unknown.count == 1, !unknown[0].known, let free = cells.firstIndex(where: { $0 == nil }) {
            cells[free] = unknown[0].cell
        }
        return MainColumns(cells: cells, outright: false)
    }

    /// Which outcome of a match a selection of its main market stands for: by
    /// the usual marks ("1", "X", "2", "Draw", "Tie"), a team's name as this event gives it (equal, or
    /// one containing the other's words, for exactly one team), or the provider's side as its id.
    public func outcome(of selection: Selection) -> MatchOutcome? {
        outcome(of: selection, teams: away.map { (TeamName.fold(home), TeamName.fold($0)) })
    }

    /// The outcome a folded name stands for as a mark ("1", "x", "draw"...), if it is one.
    static func mark(_ folded: String) -> MatchOutcome? {
        switch folded {
        case "1", "home": return .home
        case "x", "draw", "tie": return .draw
        case "2", "away": return .away
        default: return nil
        }
    }

    /// `outcome(of:)` with the teams' folded names worked out once for all the selections.
    func outcome(of selection: Selection, teams: (home: String, away: String)?) -> MatchOutcome? {
        let name = TeamName.fold(selection.name)
        if let mark = Event.mark(name) { return mark }
        if let (h, a) = teams {
            if !name.isEmpty, h != a {
                if name == h { return .home }
                if name == a { return .away }
                let isHome = TeamName.sameWords(name, h), isAway = TeamName.sameWords(name, a)
                if isHome != isAway { return isHome ? .home : .away }
                // A book's own short name for a team ("Sheffield Utd" in "Sheffield United FC v …"): the
                // side whose name it is closer to, when only one is close at all.
                let names = MatchNames.standard, words = names.words(name)
                let toHome = MatchNames.compare(words, names.words(h)), toAway = MatchNames.compare(words, names.words(a))
                if toHome != toAway, max(toHome, toAway) >= .partial { return toHome > toAway ? .home : .away }
            }
        }
        // The provider's side as the selection's id (TickOdds); a number there says nothing.
        switch TeamName.fold(selection.id) {
        case "home": return .home
        case "draw": return .draw
        case "away": return .away
        default: return nil
        }
    }

    /// Whether a market of this name is a match-result or winner market.
    public static func isMainMarketName(_ name: String) -> Bool {
        // Every name below is 3 to 16 bytes long: a longer one is not looked at again (lowercased).
        guard (3...16).contains(name.utf8.count) else { return false }
        return mainMarketNames.contains(name.lowercased())
    }

    static let mainMarketNames: Set<String> = ["fulltime result", "full time result", "match result", "1x2", "match winner",
                                               "to win match", "money line", "moneyline", "game lines", "winner", "win",
                                               "full time", "home/away"]
}
