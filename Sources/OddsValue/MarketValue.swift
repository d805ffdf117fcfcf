import Foundation
import OddsFusion
import OddsModel

/// Where a price is offered: a book at a provider.
public struct PriceSource: Hashable, Sendable, Comparable {
    public var provider: ProviderID
    public var book: String
    public init(provider: ProviderID, book: String) { self.provider = provider; self.book = book }
    public static func < (a: PriceSource, b: PriceSource) -> Bool { (a.book, a.provider) < (b.book, b.provider) }
}

/// The settings of the arithmetic: the fair price's reference and de-vig method, and how old a price
/// may be and still count.
public struct ValueSettings: Hashable, Sendable {
    public var reference: FairReference
    public var method: DevigMethod
    /// Seconds a price may go without word that it stands and still count, in play and before it.
    public var maxAgeInPlay: TimeInterval
    public var maxAgePrematch: TimeInterval

    public init(reference: FairReference = .consensus, method: DevigMethod = .multiplicative,
                maxAgeInPlay: TimeInterval = 10, maxAgePrematch: TimeInterval = 60) {
        self.reference = reference; self.method = method; self.maxAgeInPlay = maxAgeInPlay; self.maxAgePrematch = maxAgePrematch
    }

    public func maxAge(inPlay: Bool) -> TimeInterval { inPlay ? maxAgeInPlay : maxAgePrematch }
}

/// One selection of a market as every book prices it.
public struct Outcome: Hashable, Sendable {
    /// The selection by meaning ("home", "draw", "over"…) or the provider's own id.
    public var id: String
    public var name: String
    public var line: String?
}

/// One book's price of one selection.
public struct Quote: Hashable, Sendable {
    public var price: Price?
    public var suspended: Bool
    /// Seconds since the client last had word that the price stands (nil: unknown).
    public var age: TimeInterval?
    /// Where it is in the event: `event.markets[market].selections[selection]`.
    public var market: Int
    public var selection: Int
    public var isAvailable: Bool { !suspended && price != nil }
}

/// One book's whole market: its prices, its margin and what each of its prices is worth.
public struct BookMarket: Hashable, Sendable {
    public var source: PriceSource
    /// Per outcome of the market; nil where the book has no such selection.
    public var quotes: [Quote?]
    /// Σ 1/price − 1 over the market's selections; nil unless every selection is priced and none suspended.
    public var margin: Fraction?
    /// The book's own vig-free probabilities (by the method asked), when its market is complete.
    public var vigFree: [Fraction]?
    /// Per outcome: price × fair probability − 1; nil without a price or a fair probability.
    public var ev: [Fraction?]
    /// True when the book's prices are within the age allowed (they share their source's age): only a fresh
    /// book counts for the consensus, value and arbitrage.
    public var fresh: Bool
}

/// One market on one line, across every book that has it: margins, fair prices, EVs and any arbitrage.
public struct MarketValue: Hashable, Sendable {
    /// The market by meaning: `result`, `total:2.5`, `spread:-4.5`, `btts`.
    public var id: String
    public var name: String
    public var outcomes: [Outcome]
    public var books: [BookMarket]
    /// Fair probability of each outcome (from the reference); nil when the reference gives none.
    public var fair: [Fraction]?
    public var arbitrage: Arbitrage?
    /// Whether the match is in play (which max age applies).
    public var inPlay: Bool

    /// The fair price (1 / fair probability) of outcome `i`.
    public func fairPrice(_ i: Int) -> Fraction? { fair?[i].reciprocal }
}

/// A market whose best prices across books sum to less than 1 in implied probability.
public struct Arbitrage: Hashable, Sendable {
    public struct Leg: Hashable, Sendable {
        public var outcome: Int
        public var source: PriceSource
        public var price: Price
        public var age: TimeInterval?
    }
    public var legs: [Leg]
    /// Σ 1/priceᵢ over the legs (< 1).
    public var sum: Fraction
    /// 1/Σ − 1: the return on the whole stake, before rounding.
    public var profit: Fraction
    /// The age of the oldest leg (nil when no leg's age is known).
    public var oldestAge: TimeInterval? { legs.compactMap(\.age).max() }

    /// Stakes for `total`, each S × (1/priceᵢ)/Σ rounded to the nearest `unit`.
    public func stakes(total: Fraction, unit: Fraction) -> StakePlan {
        let stakes = legs.map { leg -> Fraction in
            let share = (Fraction(leg.price.impliedProbability) / sum)!
            return unit.isPositive ? (total * share).roundedToMultiple(of: unit) : total * share
        }
        let returns = zip(stakes, legs).map { $0 * Fraction($1.price.decimalOdds) }
        let staked = stakes.reduce(Fraction.zero, +)
        let guaranteed = returns.min() ?? .zero
        let profit = staked.isPositive ? ((guaranteed - staked) / staked)! : .zero
        return StakePlan(stakes: stakes, returns: returns, staked: staked, guaranteed: guaranteed, profit: profit)
    }
}

/// An arbitrage's stakes after rounding, and what they return.
public struct StakePlan: Hashable, Sendable {
    public var stakes: [Fraction]
    /// Each leg's return if it wins (stake × price).
    public var returns: [Fraction]
    public var staked: Fraction
    /// The smallest leg return: what the bet pays whichever leg wins.
    public var guaranteed: Fraction
    /// (guaranteed − staked) / staked.
    public var profit: Fraction
}
