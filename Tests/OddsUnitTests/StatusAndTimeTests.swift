import Foundation
import Logging
import OddsJSON
import OddsModel
@testable import OddsOutput
import OddsStore
@testable import OddsSportsAPI
@testable import OddsBoltOdds
@testable import OddsCLI
@testable import OddsTransport
import OddsTickOdds
import OddsSimulator
import OddsSimulatorFaults
import OddsTestSupport
import Testing

/// Status and time that are true (issue 18).
@Suite("Honest status and time", .unitLane)
struct StatusAndTimeTests {
    static func event(_ sport: String, status: EventStatus = .live, clock: String? = nil, period: String? = nil) -> Event {
        Event(provider: .tickodds, id: "1", sport: sport, home: "A", away: "B", status: status, clock: clock, period: period)
    }

    @Test("The TIME column is a short clock for every sport, never a cut sentence", arguments: [
        ("soccer", "67:23", "2nd Half", "68'"), ("soccer", "45:30", "1st Half", "45+1'"), ("soccer", "92:10", "2nd Half", "90+3'"),
        ("soccer", "45+2'", nil, "45+2'"), ("soccer", nil, "In second half", "2H"), ("soccer", nil, "Half Time", "HT"),
        ("basketball", "05:12", "3rd Quarter", "Q3 5:12"), ("basketball", nil, "In third quarter", "Q3"),
        ("basketball", "02:00", "Overtime", "OT 2:00"), ("ice-hockey", "14:03", "2nd Period", "P2 14:03"),
        ("tennis", nil, "In set 2", "S2"), ("tennis", nil, "Set 1", "S1"), ("baseball", nil, "Top 7th inning", "T7 ▲"),
        ("baseball", nil, "Bottom 9th inning", "B9 ▼"), ("esports", nil, "Map 2", "M2"), ("soccer", nil, "Penalties", "PEN"),
        ("soccer", nil, "A very long description of what is going on", "live"), ("soccer", "In second half", nil, "2H"),
    ] as [(String, String?, String?, String)])
    func shortClock(sport: String, clock: String?, period: String?, expected: String) {
        #expect(ShortClock.label(Self.event(sport, clock: clock, period: period)) == expected)
    }

    @Test("Scheduled games show their kick-off (with the date when not today); ended, half time and suspended their mark")
    func kickOffAndMarks() {
        let utc = TimeZone(identifier: "UTC")!
        let now = Date(timeIntervalSince1970: 1_795_521_600)  // 2026-11-24 12:00 UTC
        var e = Self.event("soccer", status: .scheduled)
        e.startTime = now.addingTimeInterval(7.75 * 3600)
        #expect(ShortClock.label(e, at: now, zone: utc) == "19:45")
        e.startTime = now.addingTimeInterval(24 * 3600)
        #expect(ShortClock.label(e, at: now, zone: utc) == "11-25 12:00")
        #expect(ShortClock.label(e, at: now, zone: utc, width: 7) == "11-25")
        e.startTime = nil
        #expect(ShortClock.label(e, at: now, zone: utc) == "pre")
        #expect(ShortClock.label(Self.event("soccer", status: .ended, clock: "90:00")) == "FT")
        #expect(ShortClock.label(Self.event("soccer", status: .halftime, clock: "45:00")) == "HT")
        #expect(ShortClock.label(Self.event("soccer", status: .suspended)) == "SUSP")
    }

    @Test("Kick-off times by arithmetic read as Foundation's Gregorian calendar reads them, in zones with odd offsets and daylight time")
    func kickOffArithmetic() throws {
        var random = SeededRandom(seed: 11)
        let zones = try ["UTC", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham", "America/St_Johns",
                         "Europe/London", "Pacific/Kiritimati"].map { try #require(TimeZone(identifier: $0)) }
        for zone in zones {
            for _ in 0..<400 {
                let now = Date(timeIntervalSince1970: Double(random.next() % 2_000_000_000) + random.unit())
                // Around now, across midnights and daylight changes, and far off.
                let offsets = [Double(random.next() % 200_000) - 100_000, Double(random.next() % 40_000_000) - 20_000_000]
                for offset in offsets {
                    let start = now.addingTimeInterval(offset)
                    #expect(ShortClock.kickOff(start, now: now, zone: zone) == ShortClock.calendarKickOff(start, now: now, zone: zone),
                            "\(zone.identifier) \(start) \(now)")
                }
            }
        }
        // Outside 1900–9999 the calendar answers.
        let old = Date(timeIntervalSince1970: -3e9), utc = zones[0]
        #expect(ShortClock.kickOff(old, now: Date(timeIntervalSince1970: 0), zone: utc)
                == ShortClock.calendarKickOff(old, now: Date(timeIntervalSince1970: 0), zone: utc))
    }

    @Test("BoltOdds' when is US Eastern wall-clock time, with daylight time from March to November")
    func boltOddsWhen() throws {
        // The docs' example: 01:09 PM on 2025-07-23 is 17:09 UTC (EDT).
        #expect(BoltOddsTime.eastern("2025-07-23, 01:09 PM") == Date(timeIntervalSince1970: 1_753_290_540))
        // Winter: EST, UTC-5. 12:05 AM is just after midnight; 12:30 PM is half past noon.
        #expect(BoltOddsTime.eastern("2026-01-10, 12:05 AM") == Date(timeIntervalSince1970: 1_768_021_500))
        #expect(BoltOddsTime.eastern("2026-01-10, 12:30 PM") == Date(timeIntervalSince1970: 1_768_066_200))
        // The change days: 2026-03-08 02:00 and 2026-11-01 02:00 local.
        #expect(BoltOddsTime.eastern("2026-03-08, 01:30 AM") == Date(timeIntervalSince1970: 1_772_951_400))
        #expect(BoltOddsTime.eastern("2026-03-08, 03:30 AM") == Date(timeIntervalSince1970: 1_772_955_000))
        #expect(BoltOddsTime.eastern("2026-11-01, 03:00 AM") == Date(timeIntervalSince1970: 1_793_520_000))
        #expect(BoltOddsTime.eastern("2026-2-28, 01:00 PM") == nil && BoltOddsTime.eastern("2026-02-30, 01:00 PM") == nil)
        #expect(BoltOddsTime.eastern("2026-02-28, 13:00 PM") == nil && BoltOddsTime.eastern("tomorrow") == nil)
        #expect(BoltOddsTime.eastern("2026-02-28, 5:15 PM") == BoltOddsTime.eastern("2026-02-28, 05:15 PM"))
        // Against Foundation's zone database, across a year.
        let ny = TimeZone(identifier: "America/New_York")!
        for day in stride(from: 0, to: 365, by: 3) {
            let t = Date(timeIntervalSince1970: 1_767_225_600 + Double(day) * 86_400 + 15 * 3600 + 17 * 60)
            var c = Calendar(identifier: .gregorian)
            c.timeZone = ny
            let d = c.dateComponents([.year, .month, .day, .hour, .minute], from: t)
            let h = d.hour! % 12 == 0 ? 12 : d.hour! % 12
            let when = String(format: "%04d-%02d-%02d, %02d:%02d %@", d.year!, d.month!, d.day!, h, d.minute!, d.hour! >= 12 ? "PM" : "AM")
            #expect(BoltOddsTime.eastern(when) == t, "\(when)")
            // Read again in another zone: the same wall clock there.
            let tokyo = TimeZone(identifier: "Asia/Tokyo")!
            #expect(BoltOddsTime.rebase(t, to: tokyo) == t.addingTimeInterval(Double(ny.secondsFromGMT(for: t) - tokyo.secondsFromGMT(for: t))))
        }
    }

    static let frame = #"{"action":"initial_state","data":{"sport":"EPL","sportsbook":"fanduel","game":"Arsenal vs Chelsea, 2026-11-24, 03","home_team":"Arsenal","away_team":"Chelsea","info":{"id":7,"when":"WHEN","link":"x"},"outcomes":{"Arsenal Moneyline":{"odds":"+120","outcome_name":"Moneyline","outcome_target":"Arsenal"}}}}"#

    @Test("BoltOdds: a game is scheduled until its start, live after it, unknown without one; both decoders read when alike")
    func boltOddsStatus() throws {
        let feed = BoltOddsOddsFeed(settings: ProviderSettings(key: "k", restURL: "http://127.0.0.1:1/api", webSocketURL: "ws://127.0.0.1:1/api"),
                                    filters: BoltOddsFilters(), index: BoltOddsGameIndex())
        let start = try #require(BoltOddsTime.eastern("2026-11-24, 03:00 PM"))
        func status(_ when: String, at now: Date) throws -> Event? {
            feed.now = { now }
            let bytes = Array(Self.frame.replacingOccurrences(of: "WHEN", with: when).utf8)
            #expect(BoltOddsDecoders.agree(bytes))
            guard case .bookUpsert(let e, _)? = try feed.decode(bytes, first: false).first else { return nil }
            return e
        }
        let before = try #require(try status("2026-11-24, 03:00 PM", at: start.addingTimeInterval(-3 * 3600)))
        #expect(before.status == .scheduled && before.startTime == start)
        #expect(EventReporter.timeLabel(before, at: start.addingTimeInterval(-3 * 3600)) != "live")
        #expect(try status("2026-11-24, 03:00 PM", at: start.addingTimeInterval(60))?.status == .live)
        #expect(try status("sometime", at: start)?.status == .unknown)
        // A generic-decoder shape the fast path does not take (info as a list) reads no start either.
        let odd = Self.frame.replacingOccurrences(of: #"{"id":7,"when":"WHEN","link":"x"}"#, with: #"[1]"#)
        guard case .bookUpsert(let e, _)? = try feed.decode(odd, first: false).first else { Issue.record("no game"); return }
        #expect(e.startTime == nil && e.status == .unknown)
        // In the store: the start passing makes it live; the scores feed's word (ended) stands.
        var store = LiveStore()
        store.apply(FeedMessage(provider: .boltodds, receivedAt: start, update: .bookUpsert(before, book: "fanduel")))
        var later = before
        later.status = .live
        store.apply(FeedMessage(provider: .boltodds, receivedAt: start, update: .bookUpsert(later, book: "draftkings")))
        #expect(store.events.values.first?.event.status == .live)
        store.apply(FeedMessage(provider: .boltodds, receivedAt: start, update: .scoreboard(Scoreboard(eventID: before.id, status: .ended))))
        store.apply(FeedMessage(provider: .boltodds, receivedAt: start, update: .bookUpsert(later, book: "fanduel")))
        #expect(store.events.values.first?.event.status == .ended)
    }

    @Test("Long ids (BoltOdds' labels) show as a short stable id that commands accept; short ids stay as they are")
    func shortIDs() {
        let label = "New York Mets vs Los Angeles Angels, 2025-07-23, 01"
        let id = Event.shortID(for: label)
        #expect(Event.isShortID(id) && id == Event.shortID(for: label) && id != Event.shortID(for: label + " "))
        // Stable across versions (scripts keep them): FNV-1a's top 28 bits, 7 hex digits, zero-padded.
        #expect(id == "g2d58aa2" && Event.shortID(for: "Home Team 0 vs Away Team 0, 2026-11-23, 01") == "gfe129f6")
        #expect(Event.shortID(for: "a b") == "ge63f991" && Event.stableHex("") == "cbf29ce" && Event.stableHex("m6500") == "00b1ae5")
        #expect(Event.shortID(for: "191691401") == "191691401" && Event.shortID(for: "4467358") == "4467358")
        #expect(!Event.isShortID("191691401") && !Event.isShortID("gxyz1234"))
        let e = Event(provider: .boltodds, id: label, sport: "baseball", home: "New York Mets", away: "Los Angeles Angels", status: .live)
        let table = EventReporter.table([e], options: RenderOptions())
        #expect(table.rows.first?.first == id)
        let json = EventJSON.event(e).rendered
        #expect(json.contains(#""id":"New York Mets vs Los Angeles Angels, 2025-07-23, 01""#) && json.contains(#""shortId":"\#(id)""#))
    }
}
