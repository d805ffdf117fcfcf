import Foundation

/// ISO 8601 timestamps as providers send them (`2026-11-22T04:39:37Z`, `…37.042Z`, `…37+02:00`),
/// parsed by hand from bytes: no formatter, no ICU call per message.
public enum ISODate {
    /// The instant, or nil unless `text` is `YYYY-MM-DDTHH:MM:SS` with optional fraction and a `Z`
    /// or `±HH:MM` offset, every field in range.
    public static func parse(_ text: String) -> Date? {
        var t = text
        return t.withUTF8 { parse(bytes: $0) }
    }

    /// A start time in any form a provider sends it: ISO 8601 as `parse` reads it, or without an offset
    /// (taken as UTC), or with an offset written `+HHMM` or `+HH`; or Unix time as digits, in seconds or,
    /// from 10^11 up, milliseconds. Nil unless the instant falls in 2000–2100.
    public static func parse(lenient text: String) -> Date? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if !t.isEmpty, t.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) || (t.hasPrefix("-") && t.count > 1) {
            return Double(t).flatMap(unix)
        }
        if let d = parse(t) { return plausible(d) }
        guard t.utf8.count >= 19 else { return nil }
        let tail = t.dropFirst(19)
        var fixed: String
        if let sign = tail.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let offset = tail[tail.index(after: sign)...]
            let body = t[..<sign]
            switch offset.count {
            case 4 where offset.allSatisfy(\.isNumber): fixed = body + String(tail[sign]) + offset.prefix(2) + ":" + offset.suffix(2)
            case 2 where offset.allSatisfy(\.isNumber): fixed = body + String(tail[sign]) + offset + ":00"
            default: return nil
            }
        } else {
            fixed = t + "Z"
        }
        return parse(fixed).flatMap(plausible)
    }

    /// Unix time in seconds, or in milliseconds from 10^11 up; nil outside 2000–2100.
    public static func unix(_ value: Double) -> Date? {
        guard value.isFinite else { return nil }
        return plausible(Date(timeIntervalSince1970: value >= 1e11 ? value / 1000 : value))
    }

    static func plausible(_ d: Date) -> Date? { (946_684_800...4_102_444_800).contains(d.timeIntervalSince1970) ? d : nil }

    public static func parse(bytes b: UnsafeBufferPointer<UInt8>) -> Date? {
        guard b.count >= 20 else { return nil }
        func num(_ at: Int, _ n: Int) -> Int? { digits(b, at, n) }
        guard b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54 || b[10] == 0x74 || b[10] == 0x20, b[13] == 0x3A, b[16] == 0x3A,
              let year = num(0, 4), let month = num(5, 2), let day = num(8, 2),
              let hour = num(11, 2), let minute = num(14, 2), let second = num(17, 2),
              (1...12).contains(month), hour < 24, minute < 60, second < 61 else { return nil }
        guard (1...daysIn(month: month, year: year)).contains(day) else { return nil }
        var i = 19
        var fraction = 0.0
        if i < b.count, b[i] == 0x2E {
            i += 1
            var scale = 0.1
            let start = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                fraction += Double(b[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
            guard i > start, i - start <= 9 else { return nil }
        }
        guard i < b.count else { return nil }
        var offset = 0
        switch b[i] {
        case 0x5A, 0x7A: i += 1
        case 0x2B, 0x2D:
            guard i + 6 == b.count, b[i + 3] == 0x3A, let h = num(i + 1, 2), let m = num(i + 4, 2), h < 24, m < 60 else { return nil }
            offset = (h * 3600 + m * 60) * (b[i] == 0x2D ? -1 : 1)
            i += 6
        default: return nil
        }
        guard i == b.count else { return nil }
        let seconds = daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// The time of day of `d` in UTC, "HH:MM:SS" (its milliseconds cut, as the stream lines show it).
    public static func timeOfDay(_ d: Date, milliseconds: Bool = false) -> String {
        String(text(d, milliseconds: true).dropFirst(11).prefix(milliseconds ? 12 : 8))
    }

    /// `date` in UTC as `ISO8601DateFormatter` writes it (`YYYY-MM-DDTHH:MM:SSZ`, the instant taken to
    /// the nearest millisecond first), or with milliseconds as `Date.ISO8601FormatStyle` does
    /// (`…SS.sssZ`, cut, not rounded), without making either (the first loads ICU, a large part of a
    /// command's start). Years outside 1900–9999 (Foundation's calendar is Julian before 1582) go to Foundation.
    public static func text(_ date: Date, milliseconds: Bool = false) -> String {
        let t = date.timeIntervalSince1970
        guard t.isFinite, t >= -2_208_988_800, t < 253_402_300_800 else {
            if milliseconds {
                var f = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
                f.timeZone = TimeZone(identifier: "UTC")!
                return f.format(date)
            }
            return ISO8601DateFormatter().string(from: date)
        }
        var out = [UInt8]()
        out.reserveCapacity(24)
        write(date, milliseconds: milliseconds, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text(date, milliseconds:)` to `out` as UTF-8 (a writer of many rows formats no String a time).
    public static func write(_ date: Date, milliseconds: Bool = false, into out: inout [UInt8]) {
        let t = date.timeIntervalSince1970
        guard t.isFinite, t >= -2_208_988_800, t < 253_402_300_800 else {
            out.append(contentsOf: text(date, milliseconds: milliseconds).utf8)
            return
        }
        var whole = t.rounded(.down)
        var ms = Int(((t - whole) * 1000).rounded(.down))
        if ms > 999 { ms = 999 }
        if !milliseconds { whole = ((t * 1000).rounded() / 1000).rounded(.down) }
        let seconds = Int(whole)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = seconds - days * 86_400
        let (y, m, d) = civil(fromDays: days)
        func put(_ v: Int, _ width: Int) {
            let at = out.count
            out.append(contentsOf: repeatElement(0x30, count: width))
            var v = v
            for i in stride(from: at + width - 1, through: at, by: -1) { out[i] = UInt8(0x30 + v % 10); v /= 10 }
        }
        put(y, 4); out.append(0x2D); put(m, 2); out.append(0x2D); put(d, 2); out.append(0x54)
        put(inDay / 3600, 2); out.append(0x3A); put(inDay / 60 % 60, 2); out.append(0x3A); put(inDay % 60, 2)
        if milliseconds { out.append(0x2E); put(ms, 3) }
        out.append(0x5A)
    }

    /// The number written by the `count` ASCII digits of `b` from `at`; nil unless each is a digit.
    public static func digits<C: RandomAccessCollection>(_ b: C, _ at: Int, _ count: Int) -> Int? where C.Element == UInt8, C.Index == Int {
        var v = 0
        for i in at..<(at + count) {
            let d = Int(b[i]) - 48
            guard d >= 0 && d <= 9 else { return nil }
            v = v * 10 + d
        }
        return v
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    public static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
    public static func civil(fromDays z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp + (mp < 10 ? 3 : -9)
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// The days of `month` (1–12) in `year`.
    public static func daysIn(month: Int, year: Int) -> Int {
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }
}
