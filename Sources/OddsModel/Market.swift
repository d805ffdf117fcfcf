import Foundation

/// A betting market of one event, from one book.
public struct Market: Hashable, Sendable {
    /// Stable within its event.
    public var id: String
    public var name: String
    /// The sportsbook, for providers that carry several.
    public var book: String?
    public var selections: [Selection]
    /// The provider whose market it is, in a fused match (nil: the event's own provider).
    public var provider: ProviderID?

    /// What tells one market of an event from another, whatever its prices: id, book and provider.
    public struct Key: Hashable, Sendable {
        public var id: String
        public var book: String?
        public var provider: ProviderID?
    }
    public var key: Key { Key(id: id, book: book, provider: provider) }

    /// The selections of the main line, for the 1 / X / 2 columns: those the provider marks main;
    /// else, when the market has alternate lines, those of its first line; else all of them.
    public var mainSelections: [Selection] {
        let rule = mainRule
        if case .all = rule { return selections }
        return selections.filter { rule.admits($0) }
    }

    /// Which selections `mainSelections` keeps, as a test (to go through them without making the list).
    enum MainRule {
        case marked, line(String?), all
        func admits(_ s: Selection) -> Bool {
            switch self {
            case .marked: return s.isMain == true
            case .line(let line): return s.line == line
            case .all: return true
            }
        }
    }

    var mainRule: MainRule {
        // One pass, reading fields in place (taking the first selection out copied all of it).
        guard !selections.isEmpty else { return .all }
        let firstLine = selections[0].line
        var varied = false
        for i in selections.indices {
            if selections[i].isMain == true { return .marked }
            if !varied && selections[i].line != firstLine { varied = true }
        }
        return varied ? .line(firstLine) : .all
    }

    /// A market of nothing, to swap a market out of an array with (a move, where a copy would
    /// retain each of its strings and its selections).
    public static let vacant = Market(id: "", name: "", selections: [])
}

// In an extension, so that it calls the synthesized memberwise initializer (see `Selection`).
extension Market {
    public init(id: String, name: String, book: String? = nil, selections: [Selection]) {
        self.init(id: id, name: name, book: book, selections: selections, provider: nil)
    }
}
