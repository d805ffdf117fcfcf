import Foundation
import OddsJSON
import OddsModel

/// BoltOdds' wire formats (odds stream, play-by-play, live scores, REST), kept internal to this
/// module: everything BoltOdds sends becomes model values here.
enum BoltOddsWire {
    typealias Malformed = MalformedMessage

    /// One message of the odds stream.
    enum OddsMessage: Equatable {
        case connected
        case updates([FeedUpdate])
        case ping
        case subscriptionUpdated
        /// An `error` action's text.
        case error(String)
    }

    /// The frame's messages: one object, or a JSON array of them. An element that cannot be read is
    /// left out with its reason; a frame that is not JSON, or a single unreadable object, throws.
    static func messages<T>(_ bytes: [UInt8], _ read: (JSONValue) throws -> T) throws -> (messages: [T], skipped: [String]) {
        let value = try JSONParser.message(bytes: bytes)
        guard case .array(let items) = value else { return ([try read(value)], []) }
        var messages: [T] = []
        var skipped: [String] = []
        for item in items {
            do { messages.append(try read(item)) } catch { skipped.append(String(describing: error)) }
        }
        return (messages, skipped)
    }

    // MARK: - Odds stream

    /// One object of the odds stream. Bad outcomes inside a good message are left out and listed in
    /// `skipped`.
    static func oddsMessage(_ v: JSONValue, skipped: inout [String]) throws -> OddsMessage {
        guard v.isObject else { throw Malformed("expected an object") }
        guard let action = v["action"]?.string else { throw Malformed("message without action") }
        switch action {
        case "socket_connected": return .connected
        case "ping": return .ping
        case "subscription_updated": return .subscriptionUpdated
        case "error": return .error(v["message"]?.text ?? v["error"]?.text ?? "unspecified error")
        case "initial_state", "game_update", "game_added":
            let (event, book) = try game(v["data"], skipped: &skipped)
            return .updates([.bookUpsert(event, book: book)])
        case "line_update":
            let (event, book) = try game(v["data"], skipped: &skipped)
            return .updates(event.markets.flatMap { market in
                market.selections.map {
                    .price(PriceUpdate(eventID: event.id, marketID: market.id, marketName: market.name, book: book, selection: $0))
                }
            })
        case "game_removed":
            let data = try object(v["data"], "data")
            guard let book = data["sportsbook"]?.string, !book.isEmpty else { throw Malformed("game_removed without sportsbook") }
            guard let label = data["game"]?.string, !label.isEmpty else { throw Malformed("game_removed without game") }
            return .updates([.clear(.bookInEvent(book: book, eventID: label))])
        case "sport_clear":
            let data = try object(v["data"], "data")
            guard let book = data["sportsbook"]?.string, !book.isEmpty else { throw Malformed("sport_clear without sportsbook") }
            guard let league = data["sport"]?.string, !league.isEmpty else { throw Malformed("sport_clear without sport") }
            return .updates([.clear(.bookInLeague(book: book, league: league))])
        case "book_clear":
            let data = try object(v["data"], "data")
            guard let book = data["sportsbook"]?.string, !book.isEmpty else { throw Malformed("book_clear without sportsbook") }
            return .updates([.clear(.book(book))])
        default:
            throw Malformed("unknown action \(action)")
        }
    }

    static func object(_ v: JSONValue?, _ name: String) throws -> JSONValue {
        guard let v, v.isObject else { throw Malformed("\(name) is not an object") }
        return v
    }

    /// The event and book of an odds message's `data`, with its outcomes as markets (one per
    /// `outcome_name`, in order of first appearance).
    static func game(_ data: JSONValue?, skipped: inout [String]) throws -> (Event, String) {
        let data = try object(data, "data")
        guard let book = data["sportsbook"]?.string, !book.isEmpty else { throw Malformed("game without sportsbook") }
        guard let label = data["game"]?.string, !label.isEmpty else { throw Malformed("game without its label") }
        guard let home = data["home_team"]?.string, !home.isEmpty, let away = data["away_team"]?.string, !away.isEmpty else {
            throw Malformed("game \(label) without teams")
        }
        let league = data["sport"]?.string
        var markets: [Market] = []
        // Indexes, so that a game of many outcomes costs O(n), not a search of its market per outcome.
        var marketIndex: [String: Int] = [:]
        var refs = Set<SelectionRefInMarket>()
        if let outcomes = data["outcomes"] {
            guard case .object(let members) = outcomes else { throw Malformed("outcomes is not an object") }
            for (key, outcome) in members.members {
                do {
                    let (marketName, selection) = try self.outcome(key: key, outcome)
                    guard refs.insert(SelectionRefInMarket(market: marketName, ref: selection.ref)).inserted else {
                        throw Malformed("duplicate outcome \(key)")
                    }
                    if let i = marketIndex[marketName] {
                        markets[i].selections.append(selection)
                    } else {
                        marketIndex[marketName] = markets.count
                        markets.append(Market(id: marketName, name: marketName, book: book, selections: [selection]))
                    }
                } catch {
                    skipped.append("\(label), \(book): \(error)")
                }
            }
        }
        // The status is the feed's to decide (BoltOddsOddsFeed.dated): from the start time and the scores feeds.
        let event = Event(provider: .boltodds, id: label, sport: league.map(BoltOddsLeagues.sport) ?? "unknown", league: league,
                          home: home, away: away, status: .live, startTime: data["info"]?["when"]?.string.flatMap(BoltOddsTime.eastern),
                          markets: markets)
        return (event, book)
    }

    struct SelectionRefInMarket: Hashable { var market: String; var ref: SelectionRef }

    /// One outcome: its market (`outcome_name`) and its selection (`outcome_target` and
    /// `outcome_over_under`, the line apart so that alternate lines stay apart).
    static func outcome(key: String, _ o: JSONValue) throws -> (String, Selection) {
        guard o.isObject else { throw Malformed("outcome \(key) is not an object") }
        let market = o["outcome_name"]?.string.flatMap { $0.isEmpty ? nil : $0 } ?? key
        let target = o["outcome_target"]?.text.flatMap { $0.isEmpty ? nil : $0 }
        let overUnder = o["outcome_over_under"]?.text.flatMap { $0.isEmpty ? nil : totalSide($0) }
        let name = [target, overUnder].compactMap { $0 }.joined(separator: " ")
        let line = o["outcome_line"]?.text.flatMap { $0.isEmpty ? nil : $0 }
        if let line, Rational(decimalText: line) == nil { throw Malformed("outcome \(key): line \(line) is not a number") }
        let price = try americanPrice(o["odds"], key: key)
        return (market, Selection(id: name.isEmpty ? key : name, name: name.isEmpty ? key : name, line: line, price: price,
                                  suspended: price == nil, link: o["link"]?.string.flatMap { $0.isEmpty ? nil : $0 }))
    }

    /// A total's side as the selection names it: "O" and "U" (the docs' letters) and "Over" and "Under", any
    /// case, are "Over" and "Under", so that every output reads the selection as a total's side; other text
    /// is kept as sent.
    static func totalSide(_ text: String) -> String {
        // On the bytes, ASCII letters folded to lower case: every outcome of a total passes here.
        let bytes = text.utf8
        func equalsFolded(_ word: StaticString) -> Bool {
            guard bytes.count == word.utf8CodeUnitCount else { return false }
            var i = 0
            for b in bytes {
                guard b | 0x20 == word.utf8Start[i] else { return false }
                i += 1
            }
            return true
        }
        if equalsFolded("o") || equalsFolded("over") { return "Over" }
        if equalsFolded("u") || equalsFolded("under") { return "Under" }
        return text
    }

    /// American odds as sent ("-110", "+150"); `""`, null or an absent field is no price (suspended or
    /// withdrawn). Anything else that is not a whole American number of sane size is an error.
    static func americanPrice(_ v: JSONValue?, key: String) throws -> Price? {
        guard let v, !v.isNull else { return nil }
        guard let text = v.text else { throw Malformed("outcome \(key): odds are not text") }
        let read = text.utf8.withContiguousStorageIfAvailable(americanPrice(bytes:))
            ?? Array(text.utf8).withUnsafeBufferPointer(americanPrice(bytes:))
        guard case .some(let price) = read else {
            throw Malformed("outcome \(key): odds \(text.trimmingCharacters(in: .whitespaces)) are not American odds")
        }
        return price
    }

    /// The rule for odds text, on its UTF-8 bytes (the initial state holds hundreds of thousands):
    /// between spaces or tabs, an optional sign and 1 to 7 ASCII digits. `.some(nil)` when blank (no
    /// price: suspended or withdrawn), nil when it is not American odds.
    static func americanPrice(bytes: UnsafeBufferPointer<UInt8>) -> Price?? {
        var lo = 0, hi = bytes.count
        while lo < hi, bytes[lo] == 0x20 || bytes[lo] == 0x09 { lo += 1 }
        while hi > lo, bytes[hi - 1] == 0x20 || bytes[hi - 1] == 0x09 { hi -= 1 }
        if lo == hi { return .some(nil) }
        var d = lo
        if bytes[d] == UInt8(ascii: "+") || bytes[d] == UInt8(ascii: "-") { d += 1 }
        guard hi - d >= 1, hi - d <= 7 else { return nil }
        for i in d..<hi where !(0x30...0x39).contains(bytes[i]) { return nil }
        guard let price = Price(americanBytes: UnsafeBufferPointer(rebasing: bytes[lo..<hi])) else { return nil }
        return .some(price)
    }

    // MARK: - Live scores

    /// A `match_update` as a scoreboard (the label is the game's, as in the odds stream).
    static func scoresMessage(_ v: JSONValue) throws -> ScoresMessage {
        guard v.isObject else { throw Malformed("expected an object") }
        guard let action = v["action"]?.string else { throw Malformed("message without action") }
        if let control = control(action, v) { return control }
        switch action {
        case "match_update":
            guard let label = v["game"]?.string, !label.isEmpty else { throw Malformed("match_update without game") }
            let state = v["state"] ?? .null
            // `designation` says which letter is the home side; the usual A = home when it is absent.
            var letters = (home: "A", away: "B")
            if let d = v["designation"], d.isObject {
                if d["A"]?.string == "away" || d["B"]?.string == "home" { letters = ("B", "A") }
            }
            var score: Score?
            for name in ["runs", "goals", "points", "score"] {
                if let s = state[name], let h = s[letters.home]?.int, let a = s[letters.away]?.int, h >= 0, a >= 0, h < 100_000, a < 100_000 {
                    score = Score(home: h, away: a)
                    break
                }
            }
            var status: EventStatus = .live
            if state["matchCompleted"]?.bool == true { status = .ended } else if state["preMatch"]?.bool == true { status = .scheduled }
            let period = state["matchPeriod"]?.array?.last?.string.map(periodLabel)
                ?? state["inning"]?.int.map { "Inning \($0)" }
            let board = Scoreboard(eventID: label, home: v["home"]?.string, away: v["away"]?.string, score: score,
                                   clock: state["clock"]?.string, period: period, status: status)
            return .scoreboard(board, universalID: v["universal_id"]?.string)
        default:
            throw Malformed("unknown action \(action)")
        }
    }

    /// The messages every BoltOdds socket shares: connected, ping, subscription acknowledged, error.
    static func control(_ action: String, _ v: JSONValue) -> ScoresMessage? {
        switch action {
        case "socket_connected": return .connected
        case "ping": return .ping
        case "subscription_updated": return .subscriptionUpdated
        case "error": return .error(v["message"]?.text ?? "unspecified error")
        default: return nil
        }
    }

    enum ScoresMessage: Equatable {
        case connected, ping, subscriptionUpdated
        case error(String)
        case scoreboard(Scoreboard, universalID: String?)
        case plays(Scoreboard?, [Play], universalID: String?)
    }

    /// A play-by-play event worth the timeline, with what identifies it across repeats.
    struct Play: Equatable {
        var id: String
        var incident: Incident
    }

    /// "AT_TOP_5TH_INNING" → "Top 5th inning".
    static func periodLabel(_ raw: String) -> String {
        var words = raw.split(separator: "_").map { $0.lowercased() }
        if words.first == "at" { words.removeFirst() }
        guard var text = words.first.map({ _ in words.joined(separator: " ") }), !text.isEmpty else { return raw }
        text = text.prefix(1).uppercased() + text.dropFirst()
        return text
    }

    // MARK: - Play-by-play

    /// One play-by-play message: score, clock and period where it gives them, and its plays.
    static func playMessage(_ v: JSONValue) throws -> ScoresMessage {
        guard v.isObject else { throw Malformed("expected an object") }
        guard let action = v["action"]?.string else { throw Malformed("message without action") }
        if let control = control(action, v) { return control }
        guard let label = v["event"]?.string ?? v["game"]?.string, !label.isEmpty else { throw Malformed("play without event") }
        let league = v["league"]?.string
        let sport = league.map(BoltOddsLeagues.sport)
        let universalID = v["universal_id"]?.string
        // Stats snapshots carry nothing the model keeps.
        if action == "stats" { return .plays(nil, [], universalID: universalID) }
        let named = teams(fromLabel: label)
        var board = Scoreboard(eventID: label, home: v["home"]?.string ?? named?.home, away: v["away"]?.string ?? named?.away,
                               league: league, sport: sport == "unknown" ? nil : sport)
        if let s = v["score"], s.isObject, let h = s["home"]?.int, let a = s["away"]?.int, (0..<100_000).contains(h), (0..<100_000).contains(a) {
            board.score = Score(home: h, away: a)
        }
        var plays: [Play] = []
        if action == "current_state" {
            let info = v["game_info"] ?? .null
            if let s = info["score"], let h = s["home_score"]?.int, let a = s["away_score"]?.int, (0..<100_000).contains(h), (0..<100_000).contains(a) {
                board.score = Score(home: h, away: a)
                board.home = board.home ?? s["home_team"]?.string
                board.away = board.away ?? s["away_team"]?.string
            }
            if let p = info["period"]?.int, (0..<100).contains(p) { board.period = periodName(p, sport: sport) }
            if let c = info["clock"]?.int, (0..<100_000).contains(c) { board.clock = String(format: "%02d:%02d", c / 60, c % 60) }
            return .plays(board, [], universalID: universalID)
        }
        let items: [JSONValue] = v["play_info"]?.array ?? (v["play_info"].map { [$0] } ?? [])
        let stream = v["stream"]?.int ?? 0
        for item in items where item.isObject {
            switch stream {
            case 2:
                // Basketball-like: {clock, description, isEndOfPeriod}.
                guard let description = item["description"]?.string, !description.isEmpty else { continue }
                let clock = item["clock"]?.text
                if let clock { board.clock = clock }
                let kind: IncidentKind = item["isEndOfPeriod"]?.bool == true ? .period : playKind(description)
                guard kind != .other else { continue }
                plays.append(Play(id: "\(clock ?? ""):\(description)", incident: Incident(kind: kind, detail: description)))
            case 3:
                // Soccer-like: {id, type, subType, gameTime "01:06:23", team}.
                guard let type = item["type"]?.string, !type.isEmpty, let kind = soccerKind(type) else { continue }
                let minute = item["gameTime"]?.string.flatMap(minuteOf)
                let team = item["team"]?.string
                let side: Side? = team == nil ? nil : (team == board.home ? .home : (team == board.away ? .away : nil))
                plays.append(Play(id: item["id"]?.text ?? "\(type):\(item["gameTime"]?.text ?? "")",
                                  incident: Incident(kind: kind, minute: minute, team: side, player: nil,
                                                     detail: [spaced(type), item["subType"]?.string.map(spaced)].compactMap { $0 }
                                                        .filter { !$0.isEmpty }.joined(separator: " — "))))
            case 4:
                // {type, team: home|away, points, seconds, name, time}.
                let name = item["name"]?.string ?? item["type"]?.string.map(spaced) ?? ""
                let points = item["points"]?.int ?? 0
                let type = item["type"]?.string ?? ""
                let kind = playKind(name)
                guard !name.isEmpty, kind != .other || (points > 0 && !type.contains("missed")) else { continue }
                let side = item["team"]?.string.flatMap(Side.init(rawValue:))
                plays.append(Play(id: "\(type):\(item["seconds"]?.text ?? ""):\(item["time"]?.text ?? "")",
                                  incident: Incident(kind: kind == .other ? .goal : kind, team: side,
                                                     detail: points > 0 ? "\(name) (\(points))" : name)))
            default:
                // Stream 1 (American football): the play is the action itself (below).
                break
            }
        }
        if stream == 1 || (stream == 0 && plays.isEmpty) {
            let kind = playKind(spaced(action))
            if kind != .other, let id = v["action_id"]?.text, !id.isEmpty {
                plays.append(Play(id: id, incident: Incident(kind: kind, detail: spaced(action))))
            }
        }
        return .plays(board, plays, universalID: universalID)
    }

    /// A play's kind: scoring plays of any sport are goals; periods, cards and the like as labelled.
    static func playKind(_ text: String) -> IncidentKind {
        let t = text.lowercased()
        for word in ["touchdown", "field goal", "safety", "home run", "homerun", "three pointer", "makes", "scores", "try"]
        where t.contains(word) { return .goal }
        if t.contains("end of") || t.contains("start of") || t.contains("quarter") || t.contains("inning") { return .period }
        if t.contains("missed") || t.contains("kick") { return .other }
        return IncidentKind(label: text)
    }

    /// Stream 3 (soccer) play types the timeline keeps; nil for the rest (goal kicks, danger states).
    static func soccerKind(_ type: String) -> IncidentKind? {
        let t = type.lowercased().replacingOccurrences(of: "_", with: "")
        if ["goal", "penaltygoal", "owngoal", "penaltyscored"].contains(t) { return .goal }
        if t.contains("card") { return .card }
        if t.contains("substitution") { return .substitution }
        if t.hasPrefix("var") { return .var }
        if ["periodstart", "periodend", "halftime", "fulltime", "kickoff", "matchstart", "matchend", "injurytime"].contains(t) {
            return .period
        }
        return nil
    }

    /// The teams a game label names: "Home vs Away, 2025-12-26, 10".
    static func teams(fromLabel label: String) -> (home: String, away: String)? {
        guard let vs = label.range(of: " vs ") else { return nil }
        let home = String(label[..<vs.lowerBound])
        let rest = label[vs.upperBound...]
        let away = String(rest.split(separator: ",", maxSplits: 1).first ?? rest)
        guard !home.isEmpty, !away.isEmpty else { return nil }
        return (home, away.trimmingCharacters(in: .whitespaces))
    }

    static func spaced(_ s: String) -> String {
        var out = ""
        for c in s {
            if c == "_" { out.append(" "); continue }
            if c.isUppercase, let last = out.last, last.isLowercase { out.append(" ") }
            out.append(c)
        }
        return out.prefix(1).uppercased() + out.dropFirst().lowercased()
    }

    /// "01:06:23" (h:m:s) or "66:23" (m:s) → the minute of play.
    static func minuteOf(_ time: String) -> Int? {
        let parts = time.split(separator: ":").compactMap { Int($0) }
        guard !parts.isEmpty, parts.allSatisfy({ (0..<1000).contains($0) }) else { return nil }
        return parts.count == 3 ? parts[0] * 60 + parts[1] : parts[0]
    }

    static func periodName(_ p: Int, sport: String?) -> String {
        switch sport {
        case "american-football", "basketball": return "Q\(p)"
        case "ice-hockey": return "P\(p)"
        default: return "Period \(p)"
        }
    }

    // MARK: - REST

    /// `get_info`: the competitions ("sports") and sportsbooks, spelled as subscriptions need them.
    static func info(_ v: JSONValue) throws -> (sports: [String], books: [String]) {
        guard let sports = v["sports"]?.array, let books = v["sportsbooks"]?.array else { throw Malformed("expected sports and sportsbooks") }
        return (sports.compactMap(\.string), books.compactMap(\.string))
    }

    /// `get_games`: every supported game by label.
    static func games(_ v: JSONValue) throws -> [BoltOddsGame] {
        guard case .object(let members) = v else { throw Malformed("expected an object of games") }
        return members.members.compactMap { key, g in
            guard g.isObject else { return nil }
            return BoltOddsGame(label: g["game"]?.string ?? key, teams: g["orig_teams"]?.string, when: g["when"]?.string,
                                universalID: g["universal_id"]?.string, league: g["sport"]?.string)
        }
    }

    /// `get_markets`: market names by book and competition.
    static func markets(_ v: JSONValue) throws -> [BoltOddsMarkets] {
        guard case .object(let books) = v else { throw Malformed("expected an object of sportsbooks") }
        var out: [BoltOddsMarkets] = []
        for (book, leagues) in books.members {
            guard case .object(let byLeague) = leagues else { continue }
            for (league, names) in byLeague.members {
                out.append(BoltOddsMarkets(book: book, league: league, markets: names.array?.compactMap(\.string) ?? []))
            }
        }
        return out
    }
}

/// A game as `get_games` lists it.
public struct BoltOddsGame: Hashable, Sendable {
    /// The label subscriptions use: "Home vs Away, YYYY-MM-DD, HH".
    public var label: String
    public var teams: String?
    public var when: String?
    public var universalID: String?
    /// BoltOdds' "sport": a competition such as "NBA".
    public var league: String?
}

/// The markets one book offers in one competition.
public struct BoltOddsMarkets: Hashable, Sendable {
    public var book: String
    public var league: String
    public var markets: [String]
}

/// BoltOdds names competitions ("NBA", "EPL", "Wimbledon (M)"), not sports: which sport each is.
/// Inferred (the docs give no categories): a table of known names, then words in the name.
public enum BoltOddsLeagues {
    static let known: [String: String] = [
        "nba": "basketball", "wnba": "basketball", "ncaab": "basketball", "euroleague": "basketball",
        "nfl": "american-football", "ncaaf": "american-football", "cfl": "american-football",
        "mlb": "baseball", "kbo": "baseball", "npb": "baseball",
        "nhl": "ice-hockey", "khl": "ice-hockey", "shl": "ice-hockey",
        "ufc": "mma", "boxing": "boxing",
        "epl": "soccer", "premier league": "soccer", "la liga": "soccer", "serie a": "soccer", "bundesliga": "soccer",
        "ligue 1": "soccer", "mls": "soccer", "efl championship": "soccer", "champions league": "soccer",
        "europa league": "soccer", "eredivisie": "soccer", "liga portugal": "soccer", "süper lig": "soccer", "super lig": "soccer",
        "atp": "tennis", "wta": "tennis", "itf": "tennis",
    ]

    /// The sport slug of a competition name ("unknown" when nothing says).
    public static func sport(_ league: String) -> String {
        let name = league.lowercased()
        if let s = known[name] { return s }
        let words: [(String, String)] = [
            ("(m)", "tennis"), ("(w)", "tennis"), ("atp", "tennis"), ("wta", "tennis"), ("open", "tennis"),
            ("liga", "soccer"), ("league", "soccer"), ("cup", "soccer"), ("serie", "soccer"),
            ("hockey", "ice-hockey"), ("basket", "basketball"), ("baseball", "baseball"), ("cricket", "cricket"),
            ("esports", "e-sports"), ("lol", "e-sports"), ("cs2", "e-sports"), ("dota", "e-sports"),
        ]
        for (word, sport) in words where name.contains(word) { return sport }
        return "unknown"
    }
}
