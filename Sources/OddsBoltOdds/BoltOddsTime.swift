import Foundation
import OddsModel

/// BoltOdds' `info.when` ("2025-07-23, 01:09 PM"): a local wall-clock time without a zone. The docs'
/// own example (a game at "01:09 PM" with odds stamped 19:45 UTC the same day, play under way) puts
/// it in US Eastern time. Inferred, and configurable (`when_timezone`); the README lists it.
public enum BoltOddsTime {
    /// The zone `when` is read in unless configured otherwise.
    public static let defaultZone = "America/New_York"

    /// The instant of a `when` text read as US Eastern time (EST, or EDT from the second Sunday of
    /// March to the first Sunday of November, at 02:00 local); nil for any other form. Worked out by
    /// hand on the bytes: every game of every book carries one, and the initial state has thousands.
    public static func eastern(_ text: String) -> Date? {
        guard let local = wallClock(text) else { return nil }
        let dst = isEasternDaylightTime(year: local.year, month: local.month, day: local.day, hour: local.hour)
        return Date(timeIntervalSince1970: TimeInterval(local.seconds + (dst ? 4 : 5) * 3600))
    }

    /// A start read as US Eastern (`eastern`), read again as the same wall-clock time in `zone`.
    public static func rebase(_ eastern: Date, to zone: TimeZone) -> Date {
        let t = Int(eastern.timeIntervalSince1970)
        // The Eastern wall clock of that instant: EDT (UTC-4) when that reading is in daylight time, else EST.
        var local = t - 4 * 3600
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let (y, m, d) = ISODate.civil(fromDays: days)
        if !isEasternDaylightTime(year: y, month: m, day: d, hour: (local - days * 86_400) / 3600) { local = t - 5 * 3600 }
        let guess = Date(timeIntervalSince1970: TimeInterval(local))
        let offset = zone.secondsFromGMT(for: guess.addingTimeInterval(TimeInterval(-zone.secondsFromGMT(for: guess))))
        return guess.addingTimeInterval(TimeInterval(-offset))
    }

    /// The fields of "YYYY-MM-DD, hh:mm AM|PM" and its seconds since 1970 as if it were UTC.
    static func wallClock(_ text: String) -> (year: Int, month: Int, day: Int, hour: Int, seconds: Int)? {
        let b = Array(text.utf8)
        // "2025-07-23, 01:09 PM": 20 bytes; a missing leading zero of the hour is accepted too.
        guard b.count == 20 || b.count == 19 else { return nil }
        func digits(_ from: Int, _ count: Int) -> Int? { ISODate.digits(b, from, count) }
        let short = b.count == 19
        let h = short ? 12 : 12 + 1
        guard b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: ","), b[11] == UInt8(ascii: " "),
              let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
              let hour12 = short ? digits(12, 1) : digits(12, 2), b[h + 1] == UInt8(ascii: ":"),
              let minute = digits(h + 2, 2), b[h + 4] == UInt8(ascii: " "), b[h + 6] == UInt8(ascii: "M") || b[h + 6] == UInt8(ascii: "m"),
              (1970...2200).contains(year), (1...12).contains(month), (1...31).contains(day), (1...12).contains(hour12), minute < 60
        else { return nil }
        let meridiem = b[h + 5] | 0x20
        guard meridiem == UInt8(ascii: "a") || meridiem == UInt8(ascii: "p") else { return nil }
        guard day <= ISODate.daysIn(month: month, year: year) else { return nil }
        let hour = hour12 % 12 + (meridiem == UInt8(ascii: "p") ? 12 : 0)
        let seconds = (ISODate.daysFromCivil(year, month, day) * 24 + hour) * 3600 + minute * 60
        return (year, month, day, hour, seconds)
    }

    static func isEasternDaylightTime(year: Int, month: Int, day: Int, hour: Int) -> Bool {
        switch month {
        case 4...10: return true
        case 3:
            let start = nthSunday(2, month: 3, year: year)
            return day > start || (day == start && hour >= 2)
        case 11:
            let end = nthSunday(1, month: 11, year: year)
            return day < end || (day == end && hour < 2)
        default: return false
        }
    }

    /// The day of the month of the `n`th Sunday.
    static func nthSunday(_ n: Int, month: Int, year: Int) -> Int {
        // 1970-01-01 was a Thursday (weekday 4, Sunday 0).
        let weekdayOfFirst = ((ISODate.daysFromCivil(year, month, 1) % 7) + 7 + 4) % 7
        return 1 + (7 - weekdayOfFirst) % 7 + 7 * (n - 1)
    }
}
