import Foundation
import OddsModel

/// A line's prices over time, bounded: each change of what a chart shows (a price, or none while suspended or
/// unpriced), at most `capacity` points. When full, every other point is let go (the first kept) and from then on
/// only every other change is taken, so the path always reaches back to its open; the latest change is kept
/// beside it. What the dashboard's detail pane draws of a match it did not see from the start.
public struct PricePath: Sendable, Equatable {
    /// A price at a time; nil odds while suspended or without a price.
    public struct Point: Sendable, Equatable {
        public var at: Date
        public var odds: Rational?
        public init(at: Date, odds: Rational?) { self.at = at; self.odds = odds }
    }

    public static let capacity = 64

    /// A change as added: milliseconds, and the odds' parts (a zero denominator for none). Points are made of
    /// the few that are kept, not of every change.
    private struct Change: Equatable {
        var at: Int64
        var num: Int64
        var den: Int64

        func shows(sameAs other: Change) -> Bool {
            if den == 0 || other.den == 0 { return den == other.den }
            let l = num.multipliedFullWidth(by: other.den), r = other.num.multipliedFullWidth(by: den)
            return l.high == r.high && l.low == r.low
        }

        var point: Point { Point(at: Date(historyMillis: at), odds: den == 0 ? nil : Rational(num, den)) }
    }

    private var kept: [Change] = []
    private var latest: Change?
    /// Changes taken a kept point, and changes since the last kept one.
    private var stride = 1
    private var since = 0

    public init() {}

    /// The kept points, oldest first, ending with the latest change.
    public var points: [Point] {
        guard let latest, kept.last != latest else { return kept.map(\.point) }
        return (kept + [latest]).map(\.point)
    }

    /// The next change, in time order; one showing what the one before showed is none.
    public mutating func add(at: Date, odds: Rational?) {
        add(millis: at.historyMillis, num: odds?.numerator ?? 0, den: odds?.denominator ?? 0)
    }

    /// The same from milliseconds and the odds' parts (a denominator of zero or less: no price).
    mutating func add(millis: Int64, num: Int64, den: Int64) {
        let change = Change(at: millis, num: den > 0 ? num : 0, den: max(den, 0))
        if let latest, latest.shows(sameAs: change) { return }
        latest = change
        since += 1
        guard kept.isEmpty || since >= stride else { return }
        since = 0
        if kept.count == Self.capacity {
            kept = kept.enumerated().compactMap { $0.offset.isMultiple(of: 2) ? $0.element : nil }
            stride *= 2
        }
        kept.append(change)
    }
}
