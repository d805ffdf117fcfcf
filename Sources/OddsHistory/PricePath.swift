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

    private var kept: [Point] = []
    private var latest: Point?
    /// Changes taken a kept point, and changes since the last kept one.
    private var stride = 1
    private var since = 0

    public init() {}

    /// The kept points, oldest first, ending with the latest change.
    public var points: [Point] {
        guard let latest, kept.last != latest else { return kept }
        return kept + [latest]
    }

    /// The next change, in time order; one showing what the one before showed is none.
    public mutating func add(at: Date, odds: Rational?) {
        if let latest, latest.odds == odds { return }
        let point = Point(at: at, odds: odds)
        latest = point
        since += 1
        guard kept.isEmpty || since >= stride else { return }
        since = 0
        if kept.count == Self.capacity {
            kept = kept.enumerated().compactMap { $0.offset.isMultiple(of: 2) ? $0.element : nil }
            stride *= 2
        }
        kept.append(point)
    }
}
