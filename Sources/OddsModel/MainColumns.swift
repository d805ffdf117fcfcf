import Foundation

/// The best available price of a selection across books, and the book that offers it.
public struct BestPrice: Hashable, Sendable {
    public var price: Price
    public var book: String?
    /// The provider of the market it is from, where the market names one (a fused match's markets do).
    public var provider: ProviderID?
    public init(price: Price, book: String?, provider: ProviderID? = nil) { self.price = price; self.book = book; self.provider = provider }
}

/// The outcome of a match that a main-market selection stands for: its column in 1 / X / 2.
public enum MatchOutcome: Int, Sendable, CaseIterable { case home = 0, draw = 1, away = 2 }

/// The 1 / X / 2 cells of a table row, and whether they name their selections (an outright's
/// favourite, or a market whose selections are no match outcome).
public struct MainColumns: Hashable, Sendable {
    public var cells: [LineCell?]
    public var outright: Bool

    /// Each cell's price as it stands: nil where it is suspended or has none.
    public var openPrices: [Price?] { cells.map { c in c.flatMap { $0.selection.suspended ? nil : $0.selection.price } } }
}

/// A selection as a table shows it, with the book whose price it is.
public struct LineCell: Hashable, Sendable {
    public var selection: Selection
    public var book: String?
}
