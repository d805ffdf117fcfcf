import Foundation
import OddsModel

/// The TIME column: a short clock for every provider and sport ("67'", "45+2'", "HT", "Q3 5:12",
/// "S2", "T7 ▲", "P2 14:03", "FT", a kick-off "19:45"), never a provider's sentence cut short.
public enum ShortClock {
    /// What the TIME column shows for `e` at `now`; kick-offs in `zone` (the user's). Within `width`
    /// columns, a kick-off on another day shows its date alone ("11-25").
    public static func label(_ e: Event, at now: Date = Date(), zone: TimeZone = .current, width: Int? = nil) -> String {
        switch e.status {
        case .halftime: return "HT"
        case .ended: return "FT"
        case .suspended: return "SUSP"
        case .scheduled:
            guard let start = e.startTime else { return "pre" }
            let text = kickOff(start, now: now, zone: zone)
            if let width, text.count > width { return String(text.prefix(5)) }
            return text
        case .live, .unknown: break
        }
        let period = e.period.flatMap { self.period($0) }
        if period == "HT" || period == "FT" { return period! }
        let clock = e.clockLabel(at: now).map(\.trimmingSpaces).flatMap { $0.isEmpty ? nil : $0 }
        if let clock {
            if let (minutes, seconds) = minutesAndSeconds(clock) {
                if Event.countdownSports.contains(e.sport) || period.map(isCountdownPeriod) == true {
                    // Time left in the period: "Q3 5:12".
                    return [period, "\(minutes):\(seconds < 10 ? "0" : "")\(seconds)"].compactMap { $0 }.joined(separator: " ")
                }
                return minuteLabel(played: minutes + 1, period: period)
            }
            if isMinute(clock) { return clock }
            if let p = self.period(clock) { return p }
        }
        if let period { return period }
        if e.status == .live { return "live" }
        return ""
    }

    /// "19:45" today, "11-25 19:45" on another day, in `zone`.
    public static func kickOff(_ start: Date, now: Date, zone: TimeZone) -> String {
        // Local wall-clock fields by arithmetic (the zone's offset at each instant, then the civil date):
        // a table of many scheduled games made a calendar, two sets of components and two formatted
        // strings per row. Years outside 1900–9999 (Foundation's calendar is Julian before 1582) go
        // to the calendar.
        if let s = localFields(start, zone: zone), let n = localFields(now, zone: zone) {
            let time = twoDigits(s.hour) + ":" + twoDigits(s.minute)
            if s.year == n.year && s.month == n.month && s.day == n.day { return time }
            return twoDigits(s.month) + "-" + twoDigits(s.day) + " " + time
        }
        return calendarKickOff(start, now: now, zone: zone)
    }

    /// `kickOff` through Foundation's Gregorian calendar (the reference the arithmetic is tested against).
    static func calendarKickOff(_ start: Date, now: Date, zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let s = calendar.dateComponents([.month, .day, .hour, .minute], from: start)
        let n = calendar.dateComponents([.year, .month, .day], from: now)
        let time = String(format: "%02d:%02d", s.hour ?? 0, s.minute ?? 0)
        if s.month == n.month && s.day == n.day && calendar.component(.year, from: start) == n.year { return time }
        return String(format: "%02d-%02d ", s.month ?? 0, s.day ?? 0) + time
    }

    private static func localFields(_ date: Date, zone: TimeZone) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int)? {
        let t = date.timeIntervalSince1970
        guard t.isFinite, t >= -2_208_988_800, t < 253_402_300_800 else { return nil }
        let local = Int(t.rounded(.down)) + zone.secondsFromGMT(for: date)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let inDay = local - days * 86_400
        let (y, m, d) = ISODate.civil(fromDays: days)
        guard (1900...9999).contains(y) else { return nil }
        return (y, m, d, inDay / 3600, inDay / 60 % 60)
    }

    private static func twoDigits(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }

    /// A period as a short mark: "Q3", "2H", "P2", "S2", "T7 ▲", "B7 ▼", "OT", "ET", "PEN", "HT",
    /// "FT"; a text already that short as it is; nil for anything else (a sentence is not cut).
    public static func period(_ text: String) -> String? {
        // Feeds repeat a handful of period names; the dashboard asks for each row on screen every frame.
        if let known = periods.value(text) { return known }
        let mark = reading(text)
        periods.store(text, mark)
        return mark
    }

    private static let periods = PeriodMemo()

    /// Period names already read (at most 1,024, then forgotten at once).
    private final class PeriodMemo: @unchecked Sendable {  // `marks` is behind `lock`
        private let lock = NSLock()
        private var marks: [String: String?] = [:]
        func value(_ text: String) -> String?? { lock.withLock { marks[text] } }
        func store(_ text: String, _ mark: String?) {
            lock.withLock {
                if marks.count >= 1_024 { marks.removeAll(keepingCapacity: true) }
                marks[text] = .some(mark)
            }
        }
    }

    private static func reading(_ text: String) -> String? {
        let t = TeamName.fold(text)
        guard !t.isEmpty else { return nil }
        if t.contains("half time") || t.contains("halftime") || t == "ht" || t.contains("half break") || t == "break" { return "HT" }
        if ["ended", "finished", "full time", "fulltime", "ft", "final", "after extra time", "aet", "after penalties", "ap"].contains(t)
            || t.hasPrefix("ended") || t.hasPrefix("finished") { return "FT" }
        if t.contains("penalt") || t.contains("shootout") { return "PEN" }
        let words = t.split(separator: " ").filter { !["in", "at", "the", "of"].contains($0) }.map(String.init)
        // Marks already short: "q3", "p2", "s1", "1h", "2h", "ot", "et", "t7", "b7".
        if words.count == 1, let w = words.first, w.count <= 3 {
            if ["ot", "et"].contains(w) { return w.uppercased() }
            if let f = w.first, "qpsmgt".contains(f), let n = Int(w.dropFirst()), n > 0 { return f == "t" ? "T\(n) ▲" : "\(f.uppercased())\(n)" }
            if w.first == "b", let n = Int(w.dropFirst()), n > 0 { return "B\(n) ▼" }
            if w.hasSuffix("h"), let n = Int(w.dropLast()), n > 0 { return "\(n)H" }
        }
        guard let n = words.lazy.compactMap(ordinal).first else {
            if words.contains("overtime") { return "OT" }
            if words.contains("extra") { return "ET" }
            return nil
        }
        if words.contains(where: { $0.hasPrefix("inning") }) {
            if words.contains("top") { return "T\(n) ▲" }
            if words.contains("bottom") || words.contains("bot") { return "B\(n) ▼" }
            return "I\(n)"
        }
        if words.contains("overtime") { return "OT\(n)" }
        if words.contains("extra") { return "ET" }
        let kinds: [(String, String)] = [("half", "H"), ("quarter", "Q"), ("period", "P"), ("set", "S"), ("map", "M"),
                                         ("game", "G"), ("round", "R"), ("frame", "F")]
        for (word, mark) in kinds where words.contains(where: { $0.hasPrefix(word) }) {
            return mark == "H" ? "\(n)H" : "\(mark)\(n)"
        }
        return nil
    }

    /// 1 from "1", "1st", "first"; nil otherwise.
    static func ordinal(_ word: String) -> Int? {
        let words = ["first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9,
                     "tenth": 10]
        if let n = words[word] { return n }
        let digits = word.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 2, let n = Int(digits), n > 0 else { return nil }
        let rest = word.dropFirst(digits.count)
        return ["", "st", "nd", "rd", "th"].contains(String(rest)) ? n : nil
    }

    /// Periods whose clock counts down (quarters, hockey periods).
    static func isCountdownPeriod(_ mark: String) -> Bool { mark.hasPrefix("Q") || (mark.hasPrefix("P") && mark.count <= 3) }

    /// "67:23" or "05:12" as (67, 23); nil for any other form.
    static func minutesAndSeconds(_ clock: String) -> (Int, Int)? {
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...3).contains(parts[0].count), parts[1].count == 2,
              let m = Int(parts[0]), let s = Int(parts[1]), m >= 0, (0..<60).contains(s) else { return nil }
        return (m, s)
    }

    /// "67'", "45+2'" (and the same without the mark).
    static func isMinute(_ clock: String) -> Bool {
        var c = Substring(clock)
        if c.hasSuffix("'") { c = c.dropLast() }
        let parts = c.split(separator: "+", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count) && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    /// The running minute as shown: "68'", or past the end of a half "45+2'" / "90+3'".
    static func minuteLabel(played: Int, period: String?) -> String {
        if period == "1H", played > 45 { return "45+\(played - 45)'" }
        if played > 90, period == "2H" || period == nil { return "90+\(played - 90)'" }
        return "\(played)'"
    }
}
