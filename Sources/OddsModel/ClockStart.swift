import Foundation

/// A running match clock: minute `minute` began at `at` (the second half: 45 at its kick-off). Feeds
/// that send when a period started rather than the minute (SportsAPIPro) let the clock run between
/// their messages.
public struct ClockStart: Hashable, Sendable {
    public var at: Date
    public var minute: Int
    public init(at: Date, minute: Int) { self.at = at; self.minute = minute }

    /// "67'" at `now`; past the period's regular end (45, 90, 105, 120) as "45+2'".
    public func label(at now: Date) -> String {
        let played = minute + max(0, Int(now.timeIntervalSince(at) / 60)) + 1
        let end: Int? = [45, 90, 105, 120].first { $0 > minute }
        if let end, played > end { return "\(end)+\(played - end)'" }
        return "\(played)'"
    }
}
