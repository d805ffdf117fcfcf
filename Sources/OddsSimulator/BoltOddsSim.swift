import Foundation
import NIOConcurrencyHelpers
import NIOCore
import OddsJSON

/// BoltOdds' view of the simulated world: every live match with two sides is one BoltOdds game, priced by
/// eight sportsbooks in American odds, following /work/shared/providers/boltodds.txt.
///
/// The prices come from the world's markets (so every provider agrees on who is the favourite), each book
/// with its own small deterministic skew; lines the world does not have (spreads, alternate totals) are
/// derived from the world's probabilities.
enum BoltOdds {
    /// The sportsbooks, spelled as BoltOdds spells them (lower case, no spaces).
    static let books = ["draftkings", "fanduel", "betmgm", "caesars", "ballybet", "betrivers", "espnbet", "pinnacle"]

    /// World league → BoltOdds "sport". BoltOdds' sports are competitions ("NBA", "MLB", "Wimbledon (M)").
    /// Inferred: the docs list no soccer or tennis names; these follow the docs' style.
    static let sportNames: [(league: String, sport: String)] = [
        ("Premier League", "EPL"), ("La Liga", "La Liga"), ("Bundesliga", "Bundesliga"), ("Süper Lig", "Super Lig"),
        ("J1 League", "J1 League"), ("NBA", "NBA"), ("EuroLeague", "Euroleague"), ("ATP Finals", "ATP"),
        ("WTA Finals", "WTA"), ("Serie A", "Serie A"), ("MLS", "MLS"), ("2. Bundesliga", "Bundesliga 2"),
        ("Segunda División", "La Liga 2"), ("Ligue 1", "Ligue 1"), ("Eredivisie", "Eredivisie"), ("Championship", "EFL Championship"),
        ("Serie B", "Serie B"),
    ]

    /// Every BoltOdds sport the simulator knows, as `/api/get_info` lists them.
    static var sports: [String] { sportNames.map(\.sport) }

    static func sport(ofLeague league: String) -> String { sportNames.first { $0.league == league }?.sport ?? league }

    /// The world's sport ("soccer", "basketball", "tennis") of a BoltOdds sport name.
    static func worldSport(of sport: String) -> String? {
        guard let league = sportNames.first(where: { $0.sport == sport })?.league else { return nil }
        return Teams.leagues.first { $0.name == league }?.sport
    }

    // MARK: - Names and ids

    /// A game's start: the simulator's epoch and the match's kick-off offset, so that a game's
    /// `info.when` is true against the real clock (under way: in the past; a fixture: to come).
    static func start(_ m: SimMatch) -> Date { SimClock.epoch.addingTimeInterval(TimeInterval(m.kickOffOffset)) }

    /// The start as US Eastern wall-clock time (the docs' example: a 01:09 PM game under way at 19:45
    /// UTC): date, hour on the 12-hour clock, minute, PM. Inferred, as the README lists.
    static func eastern(_ m: SimMatch) -> (date: String, hour12: Int, minute: Int, pm: Bool) {
        if let known = easternCache.withLockedValue({ $0[m.kickOffOffset] }) { return known }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/New_York") ?? TimeZone(secondsFromGMT: -5 * 3600)!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: start(m))
        let hour = c.hour ?? 0
        let e = (String(format: "%04d-%02d-%02d", c.year ?? 2026, c.month ?? 1, c.day ?? 1), hour % 12 == 0 ? 12 : hour % 12,
                 c.minute ?? 0, hour >= 12)
        easternCache.withLockedValue { if $0.count > 10_000 { $0.removeAll() }; $0[m.kickOffOffset] = e }
        return e
    }

    /// Kick-offs as Eastern wall clocks, by offset (a label is made for every message of a game).
    private static let easternCache = NIOLockedValueBox<[Int: (date: String, hour12: Int, minute: Int, pm: Bool)]>([:])

    /// "Liverpool vs Arsenal, 2026-11-23, 04"; nil for races (no away side: not a BoltOdds game). The
    /// docs' labels carry the game's date and hour (of its start, US Eastern).
    static func label(_ m: SimMatch) -> String? {
        guard let away = m.away.map(BoltOdds.team) else { return nil }
        let e = eastern(m)
        return "\(BoltOdds.team(m.home)) vs \(away), \(e.date), \(two(e.hour12))"
    }

    /// Stream 1's `event` has no hour ("Buffalo Bills vs Cincinnati Bengals, 2025-12-07"), as in the docs.
    static func shortLabel(_ m: SimMatch) -> String { "\(BoltOdds.team(m.home)) vs \(BoltOdds.team(m.away ?? "")), \(eastern(m).date)" }

    /// "2026-11-23, 04:51 PM", as `info.when` and `get_games` write it.
    static func when(_ m: SimMatch) -> String {
        let e = eastern(m)
        return "\(e.date), \(two(e.hour12)):\(two(e.minute)) \(e.pm ? "PM" : "AM")"
    }

    /// ISO start time in UTC ("2026-11-23T21:51:00Z"), as stream 1's `game_start`.
    static func gameStart(_ m: SimMatch) -> String { ISO8601DateFormatter().string(from: start(m)) }

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// SplitMix64: deterministic hashing for ids and per-book skews (never the world's random source).
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    static func hash(_ values: Int...) -> UInt64 {
        values.reduce(UInt64(0xB017_0DD5)) { mix($0 ^ UInt64(bitPattern: Int64($1))) }
    }

    /// 12 hex digits, deterministic from the serial ("af418396d57c").
    static func universalID(_ serial: Int) -> String {
        let hex = String(mix(UInt64(serial) &+ 0xB017) & 0xFFFF_FFFF_FFFF, radix: 16)
        return String(repeating: "0", count: 12 - hex.count) + hex
    }

    /// A book's numeric event id (`info.id`).
    static func eventID(_ serial: Int, book: Int) -> Int { 1_022_036_000 + serial * 16 + book }

    /// The game's page on the book's site (fake addresses, in each book's style).
    static func eventLink(_ serial: Int, book: Int) -> String {
        let id = eventID(serial, book: book)
        switch books[book] {
        case "draftkings": return "https://sportsbook.draftkings.com/event/\(id)"
        case "fanduel": return "https://sportsbook.fanduel.com/event/\(id)"
        case "betmgm": return "https://sports.betmgm.com/en/sports/events/\(id)"
        case "caesars": return "https://sportsbook.caesars.com/us/bet/event/\(id)"
        case "ballybet": return "https://play.ballybet.ca/sports#event/\(id)"
        case "betrivers": return "https://betrivers.com/sportsbook/event/\(id)"
        case "espnbet": return "https://espnbet.com/sport/event/\(id)"
        default: return "https://www.pinnacle.com/en/event/\(id)"
        }
    }

    /// A deep link to one outcome (the bet slip with that pick).
    static func outcomeLink(_ serial: Int, book: Int, index: Int) -> String {
        let pick = 3_815_533_000 + serial * 1_000 + book * 64 + index
        if books[book] == "ballybet" { return eventLink(serial, book: book) + "?coupon=pickType|\(pick)|wagerAmounts|replace" }
        return eventLink(serial, book: book) + "?outcomes=\(pick)"
    }

    /// UTC with microseconds and an explicit offset, as the docs' timestamps ("2025-07-23T19:45:03.048958+00:00").
    static func timestamp(_ date: Date = Date()) -> String {
        let t = date.timeIntervalSince1970
        var seconds = time_t(t.rounded(.down))
        let micros = min(999_999, Int(((t - t.rounded(.down)) * 1_000_000).rounded(.down)))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let micro = String(micros)
        return "\(parts.tm_year + 1900)-\(two(Int(parts.tm_mon) + 1))-\(two(Int(parts.tm_mday)))T"
            + "\(two(Int(parts.tm_hour))):\(two(Int(parts.tm_min))):\(two(Int(parts.tm_sec)))."
            + String(repeating: "0", count: 6 - micro.count) + micro + "+00:00"
    }

    // MARK: - Markets and prices

    /// The markets (outcome names) a book offers for a world sport. Inferred: Pinnacle offers no
    /// "Both Teams To Score", so `get_markets` differs between books; every third book (FanDuel, Bally Bet,
    /// Pinnacle) offers a first half's total on the match's own 1.5 line, as books list part-of-match markets
    /// beside the match's.
    static func markets(worldSport: String, book: Int) -> [String] {
        switch worldSport {
        case "soccer":
            let firstHalf = book % 3 == 1 ? ["1st Half Total Goals"] : []
            return books[book] == "pinnacle" ? ["Moneyline", "Spread", "Total Goals"] + firstHalf
                : ["Moneyline", "Spread", "Total Goals", "Both Teams To Score"] + firstHalf
        case "basketball": return ["Moneyline", "Spread", "Total Points"]
        default: return ["Moneyline", "Spread"]
        }
    }

    /// American odds text from decimal odds: 1.91 → "-110", 2.5 → "+150".
    static func american(_ decimal: Double) -> String {
        let x = max(decimal, 1.0001) - 1
        if x >= 1 { return "+\(Int((x * 20).rounded()) * 5)" }
        return "-\(min(10_000, max(100, Int((100 / x / 5).rounded()) * 5)))"
    }

    /// Fair probability of a world price (hundredths of decimal odds, with the world's 6 % margin).
    static func probability(_ hundredths: Int) -> Double { min(0.99, 100 / Double(max(hundredths, 101)) / 1.06) }

    static func clamp(_ p: Double) -> Double { min(0.97, max(0.03, p)) }

    /// A price as this book quotes it: the world's decimal price with the book's own skew (within ±4 %,
    /// Pinnacle within ±1.3 %), then in American odds.
    static func quote(_ hundredths: Int, serial: Int, book: Int, index: Int) -> String {
        var skew = Double(Int(hash(serial, book, index) % 81) - 40) / 1000
        if books[book] == "pinnacle" { skew /= 3 }
        return american(1 + (Double(hundredths) / 100 - 1) * (1 + skew))
    }

    /// The book slow to move its match-result price this minute of play, if any (`Simulator.Options.bookLagChance`):
    /// its favourite priced so that, with every other selection's best price across books, the market sums to
    /// about 98.5 % (an arbitrage of about 1.5 %). Deterministic in the match's serial and minute.
    static func lagging(_ m: SimMatch) -> (book: Int, selection: Int, price: String)? {
        guard m.bookLagChance > 0, m.phase != .ended, m.elapsed > 0, !m.suspended, let moneyline = m.markets.first else { return nil }
        let minute = m.elapsed / 60
        let draw = Double(hash(m.serial, minute, 0x1A6) % 1_000_000) / 1_000_000
        guard draw < m.bookLagChance else { return nil }
        let book = Int(hash(m.serial, minute, 0xB00C) % UInt64(books.count))
        let selections = moneyline.selections
        guard selections.count >= 2, selections.allSatisfy({ !$0.suspended }),
              let favourite = selections.indices.min(by: { selections[$0].price < selections[$1].price }) else { return nil }
        // The best price of every other selection, as the books quote it (American text, read back exactly).
        var others = 0.0
        for i in selections.indices where i != favourite {
            let best = books.indices.map { b in decimal(american: quote(selections[i].price, serial: m.serial, book: b, index: i)) }.max() ?? 1
            others += 1 / best
        }
        let implied = 1 - others - 0.015
        guard implied > 0.05 else { return nil }
        return (book, favourite, american(1 / implied))
    }

    /// Decimal odds of American odds text ("+150" → 2.5, "-110" → 1.909…).
    static func decimal(american text: String) -> Double {
        let v = Double(text) ?? 100
        return v >= 0 ? 1 + v / 100 : 1 + 100 / -v
    }

    /// Every outcome one book offers for a match now, in a fixed order (keys never change during a match).
    static func outcomes(_ m: SimMatch, book: Int) -> [BoltOutcome] {
        guard let away = m.away.map(BoltOdds.team) else { return [] }
        var out: [BoltOutcome] = []
        // A suspended line is "" for some games and null for others (the docs allow both).
        let suspendedCell: BoltCell = (m.serial + book) % 2 == 0 ? .empty : .null
        /// `quoted`: the book's own text instead of the world's price (a lagging book's).
        func add(_ key: String, _ name: String, line: String?, overUnder: String?, target: String?, price: Int, suspended: Bool,
                 quoted: String? = nil) {
            let index = out.count
            let cell: BoltCell = suspended || m.suspended ? suspendedCell
                : .price(quoted ?? quote(price, serial: m.serial, book: book, index: index))
            out.append(BoltOutcome(key: key, name: name, line: line, overUnder: overUnder, target: target, odds: cell,
                                   link: outcomeLink(m.serial, book: book, index: index)))
        }
        func derived(_ p: Double) -> Int { SimWorld.toPrice(clamp(p)) }
        let offered = markets(worldSport: m.sport, book: book)
        guard let moneyline = m.markets.first else { return [] }
        let lag = lagging(m)
        for (i, s) in moneyline.selections.enumerated() {
            let lagged = lag.flatMap { $0.book == book && $0.selection == i ? $0.price : nil }
            add("\(s.name) Moneyline", "Moneyline", line: nil, overUnder: nil, target: s.name, price: s.price, suspended: s.suspended,
                quoted: lagged)
        }
        let pHome = probability(moneyline.selections[0].price)
        let pAway = probability(moneyline.selections[moneyline.selections.count - 1].price)
        let homeStronger = m.strengthHome >= m.strengthAway
        switch m.sport {
        case "soccer":
            // Inferred: a ±0.5 handicap (home -0.5 is "home wins"), priced from the result market.
            let pHomeWins = clamp(pHome)
            add("\(BoltOdds.team(m.home)) -0.5 Spread", "Spread", line: "-0.5", overUnder: nil, target: BoltOdds.team(m.home), price: derived(pHomeWins), suspended: false)
            add("\(away) +0.5 Spread", "Spread", line: "+0.5", overUnder: nil, target: away, price: derived(1 - pHomeWins), suspended: false)
            if offered.contains("1st Half Total Goals") {
                // Before the match's total, as a feed listing its keys by name would. Over 1.5 in the first half: two
                // goals by half time, the rest of the half's goals a Poisson count (a match's 2.6 goals over 90
                // minutes); suspended once settled and after the half.
                let need = max(0, 2 - m.scoreHome - m.scoreAway)
                let mu = 2.6 * Double(max(0, 45 * 60 - m.elapsed)) / 5400
                var fewer = 0.0, term = exp(-mu)
                for i in 0..<need { fewer += term; term *= mu / Double(i + 1) }
                let settled = need == 0 || m.period != "1st Half"
                add("Over 1.5 1st Half Total Goals", "1st Half Total Goals", line: "1.5", overUnder: "O", target: nil,
                    price: derived(1 - fewer), suspended: settled)
                add("Under 1.5 1st Half Total Goals", "1st Half Total Goals", line: "1.5", overUnder: "U", target: nil,
                    price: derived(fewer), suspended: settled)
            }
            if m.markets.count > 1 {
                let goals = m.scoreHome + m.scoreAway
                let main = m.markets[1].selections
                let pOver = probability(main[0].price)
                // Alternate lines around the world's 2.5 (inferred shape of the curve); a line is suspended
                // once the goals already settle it, as the world does for 2.5.
                let lines: [(String, Double, Bool)] = [("1.5", 1 - (1 - pOver) * 0.5, goals >= 2),
                                                       ("2.5", pOver, goals >= 3),
                                                       ("3.5", pOver * 0.5, goals >= 4)]
                for (line, p, settled) in lines {
                    let over = line == "2.5" ? main[0].price : derived(p)
                    let under = line == "2.5" ? main[1].price : derived(1 - p)
                    add("Over \(line) Total Goals", "Total Goals", line: line, overUnder: "O", target: nil, price: over,
                        suspended: settled || (line == "2.5" && main[0].suspended))
                    add("Under \(line) Total Goals", "Total Goals", line: line, overUnder: "U", target: nil, price: under,
                        suspended: settled || (line == "2.5" && main[1].suspended))
                }
            }
            if offered.contains("Both Teams To Score"), m.markets.count > 2 {
                for s in m.markets[2].selections {
                    add("\(s.name) Both Teams To Score", "Both Teams To Score", line: nil, overUnder: nil, target: s.name,
                        price: s.price, suspended: s.suspended)
                }
            }
        case "basketball":
            // Inferred: the spread line is fixed for the match from the teams' strengths; its price moves
            // with the moneyline.
            let spread = Double(Int((abs(m.strengthHome - m.strengthAway) * 12).rounded())) + 1.5
            let homeLine = homeStronger ? -spread : spread
            let pCover = clamp(0.5 + (pHome - 0.5) * 0.6 + (homeStronger ? -0.1 : 0.1))
            add("\(BoltOdds.team(m.home)) \(signed(homeLine)) Spread", "Spread", line: signed(homeLine), overUnder: nil, target: BoltOdds.team(m.home),
                price: derived(pCover), suspended: false)
            add("\(away) \(signed(-homeLine)) Spread", "Spread", line: signed(-homeLine), overUnder: nil, target: away,
                price: derived(1 - pCover), suspended: false)
            if m.markets.count > 1 {
                let main = m.markets[1].selections
                let pOver = probability(main[0].price)
                // The world's line and two alternates 5 points either side.
                let lines: [(Double, Double)] = [(m.totalLine - 5, 1 - (1 - pOver) * 0.6), (m.totalLine, pOver), (m.totalLine + 5, pOver * 0.6)]
                for (line, p) in lines {
                    let text = String(format: "%.1f", line)
                    let isMain = line == m.totalLine
                    add("Over \(text) Total Points", "Total Points", line: text, overUnder: "O", target: nil,
                        price: isMain ? main[0].price : derived(p), suspended: isMain && main[0].suspended)
                    add("Under \(text) Total Points", "Total Points", line: text, overUnder: "U", target: nil,
                        price: isMain ? main[1].price : derived(1 - p), suspended: isMain && main[1].suspended)
                }
            }
        default:
            // Tennis: a ±1.5 sets spread (inferred), suspended once a set is decided.
            let pFavourite2to0 = pow(homeStronger ? pHome : pAway, 1.7)
            let decided = m.scoreHome + m.scoreAway > 0
            let homeLine = homeStronger ? "-1.5" : "+1.5", awayLine = homeStronger ? "+1.5" : "-1.5"
            let pHomeCovers = homeStronger ? pFavourite2to0 : 1 - pFavourite2to0
            add("\(BoltOdds.team(m.home)) \(homeLine) Spread", "Spread", line: homeLine, overUnder: nil, target: BoltOdds.team(m.home),
                price: derived(pHomeCovers), suspended: decided)
            add("\(away) \(awayLine) Spread", "Spread", line: awayLine, overUnder: nil, target: away,
                price: derived(1 - pHomeCovers), suspended: decided)
        }
        return out
    }

    static func signed(_ x: Double) -> String { (x >= 0 ? "+" : "") + String(format: "%.1f", x) }

    // MARK: - Odds stream messages

    /// The game fields shared by every odds message: enough to write a `game_removed` after the match is gone.
    static func ref(_ m: SimMatch) -> BoltGameRef? {
        guard let label = label(m), let away = m.away.map(BoltOdds.team) else { return nil }
        return BoltGameRef(serial: m.serial, label: label, sport: sport(ofLeague: m.league), home: BoltOdds.team(m.home), away: away,
                           when: when(m))
    }

    static func data(_ g: BoltGameRef, book: Int, outcomes: [BoltOutcome]) -> JSONOutput {
        .object([
            ("sport", .string(g.sport)),
            ("sportsbook", .string(books[book])),
            ("game", .string(g.label)),
            ("home_team", .string(g.home)),
            ("away_team", .string(g.away)),
            ("info", .object([
                ("id", .int(eventID(g.serial, book: book))),
                ("game", .string(g.label)),
                ("when", .string(g.when)),
                ("link", .string(eventLink(g.serial, book: book))),
            ])),
            ("outcomes", .object(outcomes.map { ($0.key, $0.json) })),
        ])
    }

    static func message(_ action: String, _ data: JSONOutput) -> JSONOutput {
        .object([("timestamp", .string(timestamp())), ("action", .string(action)), ("data", data)])
    }

    /// `sport_clear` / `book_clear`: the fields that do not apply are `{}`, exactly as the docs show.
    static func clear(sport: String?, book: String) -> JSONOutput {
        let empty = JSONOutput.object([])
        return message(sport == nil ? "book_clear" : "sport_clear", .object([
            ("sport", sport.map { .string($0) } ?? empty), ("sportsbook", .string(book)), ("game", empty),
            ("home_team", empty), ("away_team", empty), ("info", empty), ("outcomes", empty),
        ]))
    }

    static let pingText = #"{"action":"ping"}"#
    static let connectedText = #"{"action":"socket_connected"}"#
    /// Exactly the docs' text.
    static let resubscribeLimitText = #"{"action": "error", "message": "Re-subscription rate limit hit. Please wait 5 seconds before re-subscribing."}"#
    static let subscriptionUpdatedText = #"{"action": "subscription_updated", "message": "You have successfully updated your subscription filters."}"#

    static func errorText(_ message: String) -> String {
        JSONOutput.object([("action", .string("error")), ("message", .string(message))]).rendered
    }
}

/// An odds value: a price, or a suspended line ("" or null, which the docs treat alike).
enum BoltCell: Equatable {
    case price(String)
    case empty
    case null

    var json: JSONOutput {
        switch self {
        case .price(let s): return .string(s)
        case .empty: return .string("")
        case .null: return .null
        }
    }
}

/// One line a book offers ("New York Mets Moneyline", "Over 2.5 Total Goals").
struct BoltOutcome: Equatable {
    var key: String
    /// The market ("Moneyline", "Total Goals"): what the `markets` filter and `get_markets` name.
    var name: String
    var line: String?
    var overUnder: String?
    var target: String?
    var odds: BoltCell
    var link: String

    var json: JSONOutput {
        .object([
            ("odds", odds.json),
            ("link", .string(link)),
            ("outcome_name", .string(name)),
            ("outcome_line", .optionalString(line)),
            ("outcome_over_under", .optionalString(overUnder)),
            // Inferred: game totals have no target (the docs only show team and player targets).
            ("outcome_target", .optionalString(target)),
        ])
    }
}

/// What an odds message says about a game, kept so that a game can be removed after the world forgot it.
struct BoltGameRef: Equatable {
    var serial: Int
    var label: String
    var sport: String
    var home: String
    var away: String
    var when: String
}

/// A connection's subscription filters. Absent or empty: everything. Values match exactly, so a value
/// spelled differently from `get_info`/`get_games`/`get_markets` matches nothing ("ignored").
/// Inferred: an empty list counts as absent; a non-array value counts as absent.
struct BoltOddsFilters {
    var sports: Set<String>?
    var sportsbooks: Set<String>?
    var games: Set<String>?
    var markets: Set<String>?

    init(_ filters: JSONValue?) {
        func set(_ name: String) -> Set<String>? {
            guard let items = filters?[name]?.array, !items.isEmpty else { return nil }
            return Set(items.compactMap(\.string))
        }
        sports = set("sports")
        sportsbooks = set("sportsbooks")
        games = set("games")
        markets = set("markets")
    }

    func wants(_ g: BoltGameRef) -> Bool {
        (sports?.contains(g.sport) ?? true) && (games?.contains(g.label) ?? true)
    }

    func wants(book: String) -> Bool { sportsbooks?.contains(book) ?? true }
    func wants(market: String) -> Bool { markets?.contains(market) ?? true }
}
