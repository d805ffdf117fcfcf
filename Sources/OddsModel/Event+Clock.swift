import Foundation

/// An event's clock: its label now, and the minute of play it says.
extension Event {
    /// The clock at `now`: running from `clockStart` while the match is live, else as sent.
    public func clockLabel(at now: Date) -> String? {
        if status == .live, let start = clockStart { return start.label(at: now) }
        return clock
    }

    /// The minute of play, read from a clock such as "67:23" or "45+2'". Nil for sports whose clock
    /// counts down the time left in a period, where it is no minute of play.
    public var minute: Int? {
        Event.countdownSports.contains(sport) ? nil : clock.flatMap(Event.minute(fromClock:))
    }

    /// Sports whose clock shows the time left in the period.
    public static let countdownSports: Set<String> = ["basketball", "american-football", "ice-hockey"]

    public static func minute(fromClock clock: String) -> Int? {
        let digits = clock.prefix(while: { $0.isNumber })
        return Int(digits)
    }
}
