import Foundation

/// One selection of a market: a runner, a team, "Draw", "Over 2.5".
public struct Selection: Hashable, Sendable {
    /// Stable within its market.
    public var id: String
    public var name: String
    /// Handicap or total, as the provider wrote it ("2.5", "-1.5").
    public var line: String?
    // The words first and the bytes last: 120 bytes a selection, not 128 (a BoltOdds state holds
    // one for every outcome at every book, all memory touched for the first time).
    /// The book's deep link to this bet, kept in two parts (`DeepLink`).
    public var deepLink: DeepLink?
    /// The last price; kept while suspended so that the JSON still carries it.
    public var price: Price?
    public var suspended: Bool
    /// The provider's word on whether this is its main line (TickOdds `isMain`); nil when it says nothing.
    public var isMain: Bool?
}

// The initializers are in an extension, so that the one every other calls is the synthesized
// memberwise one: declared in the struct's body, an initializer of a struct with optional fields
// left a copy and a release of the whole selection (each string retained, then released) in every
// caller that made one, and a BoltOdds state makes one for every outcome.
extension Selection {
    /// The book's deep link to this bet (BoltOdds `link`), as sent; nil when the provider gives none.
    public var link: String? {
        get { deepLink?.text }
        set { deepLink = newValue.map(DeepLink.init) }
    }

    public init(id: String, name: String, line: String? = nil, price: Price?, suspended: Bool = false, isMain: Bool? = nil,
                link: String? = nil) {
        self.init(id: id, name: name, line: line, price: price, suspended: suspended, isMain: isMain, deepLink: link.map(DeepLink.init))
    }

    /// A selection with its deep link already split (a decoder shares the head between a game's outcomes).
    public init(id: String, name: String, line: String? = nil, price: Price?, suspended: Bool = false, isMain: Bool? = nil,
                deepLink: DeepLink?) {
        self.init(id: id, name: name, line: line, deepLink: deepLink, price: price, suspended: suspended, isMain: isMain)
    }

    /// True when the price can be shown as a live number.
    public var isAvailable: Bool { !suspended && price != nil }

    /// Identity within its market: alternate lines of one side (Over 2.5, Over 3.5) are different selections.
    public var ref: SelectionRef { SelectionRef(id: id, line: line) }

    /// Whether `other` is this selection of its market (the same `ref`), compared in place: making two refs
    /// retains and releases both selections' strings, which hot loops over a store cannot afford.
    @inlinable
    public func isSame(as other: Selection) -> Bool { id == other.id && line == other.line }

    /// Whether this selection is the one `ref` names, compared in place.
    @inlinable
    public func isSame(as ref: SelectionRef) -> Bool { id == ref.id && line == ref.line }
}

/// A selection's identity inside its market: its id and its line.
public struct SelectionRef: Hashable, Sendable {
    public var id: String
    public var line: String?
    public init(id: String, line: String?) { self.id = id; self.line = line }
}
