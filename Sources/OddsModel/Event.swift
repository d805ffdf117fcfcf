import Foundation

/// A data provider's identity and the names a person and the environment know it by. Each provider
/// module declares its own (`extension ProviderID { public static let tickodds = … }`) and the
/// registry lists them: nothing below the provider modules knows which providers exist.
public struct ProviderID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Every event, market, message and store key carries a provider: the id is a number (compared and
    /// hashed as one, copied without reference counting), and its names are kept once, in `Catalog`.
    private let index: UInt32

    private struct Names: Sendable { var rawValue: String, displayName: String, environmentName: String, singleBook: String?, tag: String }

    /// The providers declared in this process, each once (the first declaration of an id is its names).
    private final class Catalog: @unchecked Sendable {  // `names` and `byRawValue` are behind `lock`
        static let shared = Catalog()
        private let lock = NSLock()
        private var names: [Names] = []
        private var byRawValue: [String: UInt32] = [:]

        func intern(_ n: Names) -> UInt32 {
            lock.lock(); defer { lock.unlock() }
            if let i = byRawValue[n.rawValue] { return i }
            names.append(n)
            byRawValue[n.rawValue] = UInt32(names.count - 1)
            return UInt32(names.count - 1)
        }

        func names(_ i: UInt32) -> Names { lock.lock(); defer { lock.unlock() }; return names[Int(i)] }
    }

    /// `tag`: two characters for narrow columns (the fused table's SRC); by default the name's first two letters.
    public init(_ rawValue: String, displayName: String, environmentName: String, singleBook: String? = nil, tag: String? = nil) {
        index = Catalog.shared.intern(Names(rawValue: rawValue, displayName: displayName, environmentName: environmentName,
                                            singleBook: singleBook, tag: tag ?? String(displayName.prefix(2)).uppercased()))
    }

    /// The id users type (`--provider sportsapi-v1`) and recordings name (`"feed":"sportsapi-v1/live"`).
    public var rawValue: String { Catalog.shared.names(index).rawValue }
    /// The name people read ("SportsAPIPro v1").
    public var displayName: String { Catalog.shared.names(index).displayName }
    /// The PROVIDER part of `ODDS_<PROVIDER>_KEY` and friends.
    public var environmentName: String { Catalog.shared.names(index).environmentName }
    /// The book of a single-book feed: every price it sends is this book's. Nil for feeds that
    /// carry several sportsbooks, whose prices name their own.
    public var singleBook: String? { Catalog.shared.names(index).singleBook }

    /// Two characters for narrow columns ("BO", "S2"): the fused table's SRC, value tables' BOOK.
    public var tag: String { Catalog.shared.names(index).tag }

    /// The table name in the config file (`[pulsescore]`, `[sportsapi_v1]`).
    public var configName: String { String(rawValue.map { $0 == "-" ? "_" : $0 }) }

    public var description: String { rawValue }

    public static func == (a: ProviderID, b: ProviderID) -> Bool { a.index == b.index }
    public static func < (a: ProviderID, b: ProviderID) -> Bool { a.rawValue < b.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(index) }
}

/// What a fused match is made of: its stable id, each source's own event as it named it, how sure the
/// join is, and where the sources disagree.
public struct MatchInfo: Hashable, Sendable {
    public var id: String
    /// The least confidence of any join (1 for a match of one source).
    public var confidence: Double
    public var sources: [EventSource]
    /// In words: "score: tickodds 1-0, sportsapi 2-0".
    public var conflicts: [String]
    public init(id: String, confidence: Double, sources: [EventSource], conflicts: [String] = []) {
        self.id = id; self.confidence = confidence; self.sources = sources; self.conflicts = conflicts
    }
}

/// One provider's event in a fused match, as that provider sent it.
public struct EventSource: Hashable, Sendable {
    public var provider: ProviderID
    public var id: String
    public var league: String?
    public var home: String
    public var away: String?
    public var startTime: Date?
    public var updatedAt: Date?
    /// How sure its join is, and why ("names equal; start 4 min apart").
    public var confidence: Double
    public var reason: String
    public init(provider: ProviderID, id: String, league: String?, home: String, away: String?, startTime: Date?,
                updatedAt: Date?, confidence: Double, reason: String) {
        self.provider = provider; self.id = id; self.league = league; self.home = home; self.away = away
        self.startTime = startTime; self.updatedAt = updatedAt; self.confidence = confidence; self.reason = reason
    }
    /// `event` as its provider sent it, with its join's confidence and reason.
    public init(_ event: Event, confidence: Double, reason: String) {
        self.init(provider: event.provider, id: event.id, league: event.league, home: event.home, away: event.away,
                  startTime: event.startTime, updatedAt: event.updatedAt, confidence: confidence, reason: reason)
    }
}

/// Where a match stands.
public enum EventStatus: String, Sendable, Codable, CaseIterable {
    case scheduled, live, halftime, suspended, ended, unknown
}

/// A score in goals, points or sets.
public struct Score: Hashable, Sendable {
    public var home: Int
    public var away: Int
    public init(home: Int, away: Int) { self.home = home; self.away = away }

    /// Reads "2-1", "2 - 1" or "2:1".
    public init?(text: String) {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII (every score on the wire): the same split and trim on bytes, without Foundation.
            let parts = text.utf8.split(whereSeparator: { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ":") })
            guard parts.count == 2, let h = Score.int(parts[0]), let a = Score.int(parts[1]) else { return nil }
            self.init(home: h, away: a)
            return
        }
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == ":" })
        guard parts.count == 2,
              let h = Int(parts[0].trimmingCharacters(in: .whitespaces)),
              let a = Int(parts[1].trimmingCharacters(in: .whitespaces)) else { return nil }
        self.init(home: h, away: a)
    }

    /// An integer between ASCII spaces and tabs (the ASCII members of `.whitespaces`).
    private static func int(_ part: Substring.UTF8View) -> Int? {
        var part = part[...]
        while let b = part.first, b == 0x20 || b == 0x09 { part.removeFirst() }
        while let b = part.last, b == 0x20 || b == 0x09 { part.removeLast() }
        return Int(Substring(part))
    }

    public var text: String { "\(home)-\(away)" }
}

extension Event {
    /// The score as shown: "2-1", or the provider's own text when it is not N-N.
    public var scoreLabel: String? { score?.text ?? scoreText }
}

/// Which side of a fixture something belongs to.
public enum Side: String, Sendable, Codable { case home, away }

/// One selection of a market: a runner, a team, "Draw", "Over 2.5".
public struct Selection: Hashable, Sendable {
    /// Stable within its market.
    public var id: String
    public var name: String
    /// Handicap or total, as the provider wrote it ("2.5", "-1.5").
    public var line: String?
    // The words first and the bytes last: 120 bytes a selection, not 128 (a BoltOdds state holds
    // one for every outcome at every book, all memory touched for the first time).
    /// The book's deep link to this bet, kept in two parts (`DeepLink`).
    public var deepLink: DeepLink?
    /// The last price; kept while suspended so that the JSON still carries it.
    public var price: Price?
    public var suspended: Bool
    /// The provider's word on whether this is its main line (TickOdds `isMain`); nil when it says nothing.
    public var isMain: Bool?
}

// The initializers are in an extension, so that the one every other calls is the synthesized
// memberwise one: declared in the struct's body, an initializer of a struct with optional fields
// left a copy and a release of the whole selection (each string retained, then released) in every
// caller that made one, and a BoltOdds state makes one for every outcome.
extension Selection {
    /// The book's deep link to this bet (BoltOdds `link`), as sent; nil when the provider gives none.
    public var link: String? {
        get { deepLink?.text }
        set { deepLink = newValue.map(DeepLink.init) }
    }

    public init(id: String, name: String, line: String? = nil, price: Price?, suspended: Bool = false, isMain: Bool? = nil,
                link: String? = nil) {
        self.init(id: id, name: name, line: line, price: price, suspended: suspended, isMain: isMain, deepLink: link.map(DeepLink.init))
    }

    /// A selection with its deep link already split (a decoder shares the head between a game's outcomes).
    public init(id: String, name: String, line: String? = nil, price: Price?, suspended: Bool = false, isMain: Bool? = nil,
                deepLink: DeepLink?) {
        self.init(id: id, name: name, line: line, deepLink: deepLink, price: price, suspended: suspended, isMain: isMain)
    }

    /// True when the price can be shown as a live number.
    public var isAvailable: Bool { !suspended && price != nil }

    /// Identity within its market: alternate lines of one side (Over 2.5, Over 3.5) are different selections.
    public var ref: SelectionRef { SelectionRef(id: id, line: line) }

    /// Whether `other` is this selection of its market (the same `ref`), compared in place: making two refs
    /// retains and releases both selections' strings, which hot loops over a store cannot afford.
    @inlinable
    public func isSame(as other: Selection) -> Bool { id == other.id && line == other.line }

    /// Whether this selection is the one `ref` names, compared in place.
    @inlinable
    public func isSame(as ref: SelectionRef) -> Bool { id == ref.id && line == ref.line }
}

/// A deep link kept as a head that many selections share (a game's page at one book) and a tail short
/// enough to be stored inline (the outcome's number): kept whole, the links of a full BoltOdds state
/// were a large part of the store's memory, one allocation each. The split is a function of the text alone (after
/// the last `=` or `/`, when 1 to 15 bytes follow), so equal links have equal parts. The tail is
/// kept as its bytes, packed in two words: made a `String`, it was a large part of reading a BoltOdds outcome.
public struct DeepLink: Hashable, Sendable {
    public let head: String
    /// The tail's bytes, in the memory of the two words in order, and its length in their last
    /// byte; both zero: no tail.
    private let tailLow: UInt64
    private let tailHigh: UInt64

    /// The link's text, split.
    public init(_ text: String) {
        var text = text
        self = text.withUTF8 { DeepLink(bytes: $0) }
    }

    /// The link's UTF-8 bytes, split; `head` makes the head's `String` (a decoder shares one between
    /// the outcomes of a game at one book).
    public init(bytes: UnsafeBufferPointer<UInt8>,
                head: (UnsafeBufferPointer<UInt8>) -> String = { String(decoding: $0, as: UTF8.self) }) {
        guard let cut = DeepLink.cut(bytes) else {
            self.init(head: String(decoding: bytes, as: UTF8.self), tailLow: 0, tailHigh: 0)
            return
        }
        self.init(splitHead: head(UnsafeBufferPointer(rebasing: bytes[..<cut])), tail: UnsafeBufferPointer(rebasing: bytes[cut...]))
    }

    /// A link whose split is known, for a decoder that found the last link's head again and read
    /// only the tail: `head` must end with `=` or `/`, and `tail` be 1 to 15 bytes with neither (as
    /// `init(bytes:)` splits `head + tail`); unchecked.
    package init(splitHead head: String, tail: UnsafeBufferPointer<UInt8>) {
        assert((1...15).contains(tail.count) && !tail.contains { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "/") })
        // The bytes copied into the two words' memory, the count in their last byte.
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(tail))
            raw[15] = UInt8(tail.count)
        }
        self.init(head: head, tailLow: words.0, tailHigh: words.1)
    }

    private init(head: String, tailLow: UInt64, tailHigh: UInt64) {
        self.head = head; self.tailLow = tailLow; self.tailHigh = tailHigh
    }

    /// The part after the head: up to 15 bytes, the outcome's own; nil when the link was not split.
    public var tail: String? {
        withUnsafeBytes(of: (tailLow, tailHigh)) { raw in
            let count = Int(raw[15])
            return count == 0 ? nil : String(decoding: raw.prefix(count), as: UTF8.self)
        }
    }

    public var text: String { tail.map { head + $0 } ?? head }

    /// Where the tail starts: after the last `=` or `/`, when 1 to 15 bytes follow; nil: no split.
    static func cut(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        // Only the last 16 bytes can hold the separator of a tail of 15 or fewer.
        let end = bytes.count, floor = max(0, end - 16)
        var i = end
        while i > floor {
            let b = base[i - 1]
            if b == UInt8(ascii: "=") || b == UInt8(ascii: "/") { break }
            i -= 1
        }
        let tail = end - i
        return i > 0 && tail >= 1 && tail <= 15 ? i : nil
    }
}

/// A selection's identity inside its market: its id and its line.
public struct SelectionRef: Hashable, Sendable {
    public var id: String
    public var line: String?
    public init(id: String, line: String?) { self.id = id; self.line = line }
}

/// The best available price of a selection across books, and the book that offers it.
public struct BestPrice: Hashable, Sendable {
    public var price: Price
    public var book: String?
    /// The provider of the market it is from, where the market names one (a fused match's markets do).
    public var provider: ProviderID?
    public init(price: Price, book: String?, provider: ProviderID? = nil) { self.price = price; self.book = book; self.provider = provider }
}

/// The outcome of a match that a main-market selection stands for: its column in 1 / X / 2.
public enum MatchOutcome: Int, Sendable, CaseIterable { case home = 0, draw = 1, away = 2 }

/// The 1 / X / 2 cells of a table row, and whether they name their selections (an outright's
/// favourite, or a market whose selections are no match outcome).
public struct MainColumns: Hashable, Sendable {
    public var cells: [LineCell?]
    public var outright: Bool
}

/// Team names compared as people read them: case, diacritics, punctuation and spacing folded.
public enum TeamName {
    /// Lower case, without diacritics, punctuation as spaces, spaces collapsed.
    public static func fold(_ name: String) -> String {
        var name = name
        // ASCII (most names, and every mark): on the string's own bytes, into a buffer on the stack,
        // without Foundation (a table folds two names a row).
        let ascii: String? = name.withUTF8 { bytes in
            guard !bytes.isEmpty else { return "" }
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { out in
                var n = 0
                var space = false
                for b in bytes {
                    let lower = b >= 0x41 && b <= 0x5A ? b + 32 : b
                    if (lower >= 0x61 && lower <= 0x7A) || (lower >= 0x30 && lower <= 0x39) {
                        if space && n > 0 { out[n] = 0x20; n += 1 }
                        out[n] = lower; n += 1
                        space = false
                    } else {
                        space = true
                    }
                }
                return String(decoding: UnsafeBufferPointer(rebasing: out[..<n]), as: UTF8.self)
            }
        }
        if let ascii { return ascii }
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var out = ""
        var space = false
        for ch in folded.unicodeScalars {
            if ch.properties.isAlphabetic || ch.properties.numericType != nil {
                if space && !out.isEmpty { out.append(" ") }
                out.unicodeScalars.append(ch)
                space = false
            } else {
                space = true
            }
        }
        return out
    }

    /// Whether every word of the shorter of two folded names (3 letters or more each) is a word of the longer.
    public static func sameWords(_ a: String, _ b: String) -> Bool {
        let wa = a.split(separator: " ").filter { $0.count >= 3 }, wb = b.split(separator: " ").filter { $0.count >= 3 }
        guard !wa.isEmpty, !wb.isEmpty else { return false }
        let (short, long) = wa.count <= wb.count ? (wa, Set(wb)) : (wb, Set(wa))
        return short.allSatisfy(long.contains)
    }
}

/// A selection as a table shows it, with the book whose price it is.
public struct LineCell: Hashable, Sendable {
    public var selection: Selection
    public var book: String?
}

/// A betting market of one event, from one book.
public struct Market: Hashable, Sendable {
    /// Stable within its event.
    public var id: String
    public var name: String
    /// The sportsbook, for providers that carry several.
    public var book: String?
    public var selections: [Selection]
    /// The provider whose market it is, in a fused match (nil: the event's own provider).
    public var provider: ProviderID?

    /// The selections of the main line, for the 1 / X / 2 columns: those the provider marks main;
    /// else, when the market has alternate lines, those of its first line; else all of them.
    public var mainSelections: [Selection] {
        let rule = mainRule
        if case .all = rule { return selections }
        return selections.filter { rule.admits($0) }
    }

    /// Which selections `mainSelections` keeps, as a test (to go through them without making the list).
    enum MainRule {
        case marked, line(String?), all
        func admits(_ s: Selection) -> Bool {
            switch self {
            case .marked: return s.isMain == true
            case .line(let line): return s.line == line
            case .all: return true
            }
        }
    }

    var mainRule: MainRule {
        // One pass, reading fields in place (taking the first selection out copied all of it).
        guard !selections.isEmpty else { return .all }
        let firstLine = selections[0].line
        var varied = false
        for i in selections.indices {
            if selections[i].isMain == true { return .marked }
            if !varied && selections[i].line != firstLine { varied = true }
        }
        return varied ? .line(firstLine) : .all
    }

    /// A market of nothing, to swap a market out of an array with (a move, where a copy would
    /// retain each of its strings and its selections).
    public static let vacant = Market(id: "", name: "", selections: [])
}

// In an extension, so that it calls the synthesized memberwise initializer (see `Selection`).
extension Market {
    public init(id: String, name: String, book: String? = nil, selections: [Selection]) {
        self.init(id: id, name: name, book: book, selections: selections, provider: nil)
    }
}

/// What kind of thing happened in a match.
public enum IncidentKind: String, Sendable, Codable, CaseIterable {
    case goal, card, substitution, `var`, period, injuryTime, other

    /// Classifies a provider's label ("Goal", "Red Card", "VAR Decision", "Half Time", "Injury Time").
    public init(label: String) {
        let l = label.lowercased()
        if l.contains("goal") || l.contains("penalty scored") { self = .goal }
        else if l.contains("injury") || l.contains("added time") || l.contains("stoppage") { self = .injuryTime }
        else if l.contains("card") { self = .card }
        else if l.contains("sub") { self = .substitution }
        else if l.contains("var") { self = .var }
        else if l.contains("half") || l.contains("period") || l.contains("time") || l.contains("kick") { self = .period }
        else { self = .other }
    }
}

/// Something that happened in a match: a goal, a card, a substitution.
public struct Incident: Hashable, Sendable {
    public var kind: IncidentKind
    public var minute: Int?
    public var team: Side?
    /// The scorer, the booked player, the player coming on.
    public var player: String?
    /// The provider's own words ("Red Card", "Goal").
    public var detail: String?
    /// The provider's id of the incident, when it sends one: the same incident sent again is known by it.
    public var id: String?
    /// Minutes added to `minute` (45+2: minute 45, added 2); for injury time, the minutes announced.
    public var addedTime: Int?
    /// Who assisted a goal.
    public var assist: String?
    /// The player going off in a substitution.
    public var playerOut: String?
    /// Why: a card's reason ("Foul"), a VAR decision ("Goal disallowed").
    public var reason: String?
    /// The score the incident tells: after a goal, at a period's end, as the provider gives it.
    public var score: Score?
    /// A card taken back (SofaScore `rescinded: true`): shown as rescinded, never as a card.
    public var rescinded: Bool

    public init(kind: IncidentKind, minute: Int? = nil, team: Side? = nil, player: String? = nil, detail: String? = nil,
                id: String? = nil, addedTime: Int? = nil, assist: String? = nil, playerOut: String? = nil,
                reason: String? = nil, score: Score? = nil, rescinded: Bool = false) {
        self.kind = kind; self.minute = minute; self.team = team; self.player = player; self.detail = detail
        self.id = id; self.addedTime = addedTime; self.assist = assist; self.playerOut = playerOut; self.reason = reason
        self.score = score; self.rescinded = rescinded
    }

    /// Where the incident falls in the match: by minute, then by added time; an injury-time announcement
    /// at its minute (its `addedTime` is the length announced), a period marker after every incident of its
    /// minute's added time (HT after 45+2', FT after 90+3'); no minute (a shoot-out kick) at the end.
    public var timelineKey: (minute: Int, slot: Int) {
        let slot: Int
        switch kind {
        case .period: slot = Int.max
        case .injuryTime: slot = 0
        default: slot = addedTime ?? 0
        }
        return (minute ?? Int.max, slot)
    }

    /// `incidents` in match order (`timelineKey`), those at one moment in the order given.
    public static func inMatchOrder(_ incidents: [Incident]) -> [Incident] {
        incidents.enumerated().sorted { a, b in
            let ka = a.element.timelineKey, kb = b.element.timelineKey
            return ka != kb ? ka < kb : a.offset < b.offset
        }.map(\.element)
    }

    /// Whether this marks the match's end: full time, after extra time, after penalties.
    public var endsMatch: Bool {
        guard kind == .period, let d = detail else { return false }
        return Incident.endWords.contains(TeamName.fold(d))
    }

    static let endWords: Set<String> = ["ft", "full time", "fulltime", "aet", "after extra time", "ap", "pen", "penalties",
                                        "after penalties", "ended", "end", "match ended", "final", "finished", "end of match"]

    /// "45+2'", "67'", or nil without a minute.
    public var minuteLabel: String? {
        guard let minute else { return nil }
        if let added = addedTime, added > 0, kind != .injuryTime { return "\(minute)+\(added)'" }
        return "\(minute)'"
    }

    /// What identifies this incident when it is sent again: the provider's id, else what it says.
    public var identity: String {
        // A card rescinded after it was sent is news: the same id, told again.
        if let id { return "id:" + id + (rescinded ? "|rescinded" : "") }
        return [rescinded ? "rescinded" : "", kind.rawValue, minute.map(String.init) ?? "", addedTime.map(String.init) ?? "", team?.rawValue ?? "",
                player ?? "", playerOut ?? "", detail ?? ""].joined(separator: "|")
    }
}

/// One line of a match's statistics: the provider's name and each team's value, as sent ("55%", "12").
public struct TeamStat: Hashable, Sendable {
    public var name: String
    public var home: String
    public var away: String
    /// The provider's group ("Match overview", "Shots"), when it groups them.
    public var group: String?
    public init(name: String, home: String, away: String, group: String? = nil) {
        self.name = name; self.home = home; self.away = away; self.group = group
    }
}

/// A player in a lineup.
public struct LineupPlayer: Hashable, Sendable {
    public var name: String
    public var number: String?
    /// The provider's position code ("G", "D", "M", "F").
    public var position: String?
    public init(name: String, number: String? = nil, position: String? = nil) {
        self.name = name; self.number = number; self.position = position
    }
}

/// One team's lineup.
public struct Lineup: Hashable, Sendable {
    public var formation: String?
    public var starters: [LineupPlayer]
    public var substitutes: [LineupPlayer]
    public init(formation: String? = nil, starters: [LineupPlayer] = [], substitutes: [LineupPlayer] = []) {
        self.formation = formation; self.starters = starters; self.substitutes = substitutes
    }
}

/// Both teams' lineups; a side not announced yet is nil.
public struct Lineups: Hashable, Sendable {
    public var home: Lineup?
    public var away: Lineup?
    /// Whether the provider marks them confirmed (not predicted).
    public var confirmed: Bool?
    public init(home: Lineup? = nil, away: Lineup? = nil, confirmed: Bool? = nil) {
        self.home = home; self.away = away; self.confirmed = confirmed
    }
}

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

/// One sporting event (fixture, match or race) as every provider is normalized to.
///
/// A value whose fields are kept behind one pointer (`CopyOnWrite`): moving or copying an event
/// through a feed's message, its updates and the store's state is a word, not 264 bytes and a retain
/// of every string. A field changed in place (`event.markets[i].selections[j].price = p`) copies the
/// fields first only when another event shares them.
public struct Event: Hashable, Sendable, Identifiable {
    @usableFromInline
    struct Fields: Hashable, Sendable {
        @usableFromInline var provider: ProviderID
        @usableFromInline var id: String
        @usableFromInline var sport: String
        @usableFromInline var league: String?
        @usableFromInline var home: String
        @usableFromInline var away: String?
        @usableFromInline var status: EventStatus
        @usableFromInline var startTime: Date?
        @usableFromInline var score: Score?
        @usableFromInline var scoreText: String?
        @usableFromInline var clock: String?
        @usableFromInline var clockStart: ClockStart?
        @usableFromInline var period: String?
        @usableFromInline var markets: [Market]
        @usableFromInline var incidents: [Incident]
        @usableFromInline var stats: [TeamStat]
        @usableFromInline var lineups: Lineups?
        @usableFromInline var updatedAt: Date?
        @usableFromInline var match: MatchInfo?
    }

    @usableFromInline var fields: CopyOnWrite<Fields>

    init(fields: Fields) { self.fields = CopyOnWrite(fields) }

    @inlinable public var provider: ProviderID {
        _read { yield fields.value.provider }
        _modify { yield &fields.value.provider }
    }
    /// The provider's fixture id.
    @inlinable public var id: String {
        _read { yield fields.value.id }
        _modify { yield &fields.value.id }
    }
    /// A lower-case slug: "soccer", "ice-hockey".
    @inlinable public var sport: String {
        _read { yield fields.value.sport }
        _modify { yield &fields.value.sport }
    }
    @inlinable public var league: String? {
        _read { yield fields.value.league }
        _modify { yield &fields.value.league }
    }
    @inlinable public var home: String {
        _read { yield fields.value.home }
        _modify { yield &fields.value.home }
    }
    /// Nil for races and other events that have no away side.
    @inlinable public var away: String? {
        _read { yield fields.value.away }
        _modify { yield &fields.value.away }
    }
    @inlinable public var status: EventStatus {
        _read { yield fields.value.status }
        _modify { yield &fields.value.status }
    }
    @inlinable public var startTime: Date? {
        _read { yield fields.value.startTime }
        _modify { yield &fields.value.startTime }
    }
    @inlinable public var score: Score? {
        _read { yield fields.value.score }
        _modify { yield &fields.value.score }
    }
    /// The provider's score text when it is not "N-N" (tennis sets "6-4 3-2", cricket "245/6", a
    /// race): kept and shown as sent, never dropped. Nil when `score` holds it.
    @inlinable public var scoreText: String? {
        _read { yield fields.value.scoreText }
        _modify { yield &fields.value.scoreText }
    }
    @inlinable public var clock: String? {
        _read { yield fields.value.clock }
        _modify { yield &fields.value.clock }
    }
    /// When the clock runs on its own between messages (see `clockLabel(at:)`).
    @inlinable public var clockStart: ClockStart? {
        _read { yield fields.value.clockStart }
        _modify { yield &fields.value.clockStart }
    }
    @inlinable public var period: String? {
        _read { yield fields.value.period }
        _modify { yield &fields.value.period }
    }
    @inlinable public var markets: [Market] {
        _read { yield fields.value.markets }
        _modify { yield &fields.value.markets }
    }
    @inlinable public var incidents: [Incident] {
        _read { yield fields.value.incidents }
        _modify { yield &fields.value.incidents }
    }
    /// Match statistics, when a provider sends them (SportsAPIPro's stats channel).
    @inlinable public var stats: [TeamStat] {
        _read { yield fields.value.stats }
        _modify { yield &fields.value.stats }
    }
    /// Lineups, when a provider sends them.
    @inlinable public var lineups: Lineups? {
        _read { yield fields.value.lineups }
        _modify { yield &fields.value.lineups }
    }
    /// When this event last changed, as seen by the client.
    @inlinable public var updatedAt: Date? {
        _read { yield fields.value.updatedAt }
        _modify { yield &fields.value.updatedAt }
    }
    /// Set on a fused match (several providers' events of one real match): its id, sources and joins.
    @inlinable public var match: MatchInfo? {
        _read { yield fields.value.match }
        _modify { yield &fields.value.match }
    }

    /// The clock at `now`: running from `clockStart` while the match is live, else as sent.
    public func clockLabel(at now: Date) -> String? {
        if status == .live, let start = clockStart { return start.label(at: now) }
        return clock
    }

    /// The id tables show: the provider's own when it is short (12 characters at most, no spaces),
    /// else a short stable id made from it ("g" and 7 hex digits), so that a BoltOdds game label
    /// ("New York Mets vs Los Angeles Angels, 2025-07-23, 01") is not a column of its own. Commands
    /// that take an event accept either; JSON keeps the provider's id.
    public var shortID: String { Event.shortID(for: id) }

    public static func shortID(for id: String) -> String {
        guard id.utf8.count > 12 || id.utf8.contains(0x20) else { return id }
        return "g" + stableHex(id)
    }

    /// 7 hex digits of FNV-1a over `text`: stable across runs and machines (Swift's Hasher is seeded per process).
    public static func stableHex(_ text: String) -> String {
        var h: UInt64 = 14_695_981_039_346_656_037
        // Over the contiguous bytes: the `utf8` view's iterator was most of the cost of a large table's ids.
        var text = text
        text.withUTF8 { bytes in
            for b in bytes { h = (h ^ UInt64(b)) &* 1_099_511_628_211 }
        }
        // The top 28 bits as 7 lowercase hex digits, zero-padded: a small string, made from its bytes.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 7) { digits in
            for i in 0..<7 {
                let d = UInt8(truncatingIfNeeded: h >> (60 - 4 * i)) & 0xF
                digits[i] = d < 10 ? 0x30 + d : 0x57 + d
            }
            return String(decoding: digits, as: UTF8.self)
        }
    }

    /// Whether `text` has the form of a short id made by `shortID(for:)`.
    public static func isShortID(_ text: String) -> Bool {
        text.utf8.count == 8 && text.hasPrefix("g") && text.utf8.dropFirst().allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// "Liverpool v Man City", or just the home name for a race.
    public var title: String { away.map { "\(home) v \($0)" } ?? home }

    /// The market that tables show: the match result / winner market, else the first market.
    public var mainMarket: Market? { mainMarketIndex.map { markets[$0] } }

    /// Where `mainMarket` is in `markets`.
    public var mainMarketIndex: Int? {
        markets.firstIndex(where: { Event.isMainMarketName($0.name) }) ?? (markets.isEmpty ? nil : 0)
    }

    /// The books this event has prices from, in order of first appearance.
    public var books: [String] {
        var seen = Set<String>()
        return markets.compactMap(\.book).filter { seen.insert($0).inserted }
    }

    /// For each selection of market `marketID`, the longest available price across books and the
    /// book that has it; suspended and missing prices are left out. Ties go to the book listed first.
    public func bestPrices(marketID: String) -> [SelectionRef: BestPrice] {
        var best: [SelectionRef: BestPrice] = [:]
        for market in markets where market.id == marketID {
            for s in market.selections where s.isAvailable {
                let price = s.price!
                if let current = best[s.ref], current.price.decimalOdds >= price.decimalOdds { continue }
                best[s.ref] = BestPrice(price: price, book: market.book, provider: market.provider)
            }
        }
        return best
    }

    /// The 1 / X / 2 of tables: the main market's main selections. With several books, each
    /// selection at its best available price across books, with that book; a selection no book
    /// offers now is suspended.
    public var mainLine: [LineCell] {
        guard let mainIndex = mainMarketIndex else { return [] }
        guard hasSeveralBooks else {
            let main = markets[mainIndex]
            return main.mainSelections.map { LineCell(selection: $0, book: main.book) }
        }
        let mainID = markets[mainIndex].id
        return markets.withUnsafeBufferPointer { ms in
            // The main id's markets, found once: each pass below compared every market's id with it
            // (a BoltOdds game has 22 markets at each of 8 books, 3 of its 8 main).
            withUnsafeTemporaryAllocation(of: Int.self, capacity: ms.count) { found -> [LineCell] in
                var count = 0
                // Room for the main markets' selections only: the count of every market's list was a read of
                // memory no other step of the row touches (most of a BoltOdds game's lists are not main).
                var room = 0
                for m in ms.indices where ms[m].id == mainID {
                    found[count] = m; count += 1
                    room += ms[m].selections.count
                }
                return Event.mainLine(ms, mains: UnsafeBufferPointer(rebasing: found[..<count]), room: room)
            }
        }
    }

    /// `mainLine` over the main id's markets `mains` (indices into `ms`, in order), whose selections number `room`.
    private static func mainLine(_ ms: UnsafeBufferPointer<Market>, mains: UnsafeBufferPointer<Int>, room: Int) -> [LineCell] {
        // Slot i, for main selection i in order of first appearance: where it first is (market,
        // selection) and where its best price is (-1: none), as indices read in place, in memory of
        // the call's own (on the stack for an event of usual size): a list, a closure's captured
        // state and a copy of each selection per event were a large cost of a table of many rows.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: max(1, 4 * room)) { slots -> [LineCell] in
            var n = 0
            // Found by a scan while there are a handful; by a dictionary past 8 (a provider's list is
            // never searched quadratically).
            var index: [SelectionRef: Int]?
            for m in mains {
                let rule = ms[m].mainRule
                ms[m].selections.withUnsafeBufferPointer { ss in
                    for k in ss.indices where rule.admits(ss[k]) && Event.slot(of: ss[k], in: slots, count: n, ms, index, hint: k) == nil {
                        slots[4 * n] = m; slots[4 * n + 1] = k; slots[4 * n + 2] = -1; slots[4 * n + 3] = -1
                        n += 1
                        if index != nil { index![ss[k].ref] = n - 1 }
                        else if n > 8 {
                            index = Dictionary((0..<n).map { (ms[slots[4 * $0]].selections[slots[4 * $0 + 1]].ref, $0) },
                                               uniquingKeysWith: { a, _ in a })
                        }
                    }
                }
            }
            // Each one's longest available price across books (as `bestPrices`: ties go to the book listed first).
            for m in mains {
                ms[m].selections.withUnsafeBufferPointer { ss in
                    for k in ss.indices where ss[k].isAvailable {
                        guard let i = Event.slot(of: ss[k], in: slots, count: n, ms, index, hint: k) else { continue }
                        let bm = slots[4 * i + 2], bs = slots[4 * i + 3]
                        if bm >= 0, ms[bm].selections.withUnsafeBufferPointer({ $0[bs].price!.decimalOdds >= ss[k].price!.decimalOdds }) {
                            continue
                        }
                        slots[4 * i + 2] = m; slots[4 * i + 3] = k
                    }
                }
            }
            var cells: [LineCell] = []
            cells.reserveCapacity(n)
            for i in 0..<n {
                cells.append(Event.lineCell(ms, mains: mains, first: (slots[4 * i], slots[4 * i + 1]),
                                            best: slots[4 * i + 2] >= 0 ? (slots[4 * i + 2], slots[4 * i + 3]) : nil))
            }
            return cells
        }
    }

    /// Which of the first `count` slots holds `selection` (same id and line): by `index` when there is
    /// one, else by comparing in place, slot `hint` first (books mostly list a market's selections in
    /// the same order, so the selection at place k of its market is mostly slot k).
    private static func slot(of selection: Selection, in slots: UnsafeMutableBufferPointer<Int>, count: Int,
                             _ ms: UnsafeBufferPointer<Market>, _ index: [SelectionRef: Int]?, hint: Int) -> Int? {
        if let index { return index[selection.ref] }
        if hint < count, ms[slots[4 * hint]].selections.withUnsafeBufferPointer({ $0[slots[4 * hint + 1]].isSame(as: selection) }) {
            return hint
        }
        for i in 0..<count where i != hint {
            let same = ms[slots[4 * i]].selections.withUnsafeBufferPointer { $0[slots[4 * i + 1]].isSame(as: selection) }
            if same { return i }
        }
        return nil
    }

    /// A main selection's cell: as first listed, at the best price (`best`) with that book, the
    /// selection as that book offers it (its first market of the main id); suspended with no book.
    private static func lineCell(_ ms: UnsafeBufferPointer<Market>, mains: UnsafeBufferPointer<Int>, first: (m: Int, s: Int),
                                 best: (m: Int, s: Int)?) -> LineCell {
        var s = ms[first.m].selections[first.s]
        guard let b = best else { s.suspended = true; return LineCell(selection: s, book: nil) }
        let book = ms[b.m].book
        s.price = ms[b.m].selections[b.s].price
        s.suspended = false
        if let m = mains.first(where: { ms[$0].book == book }),
           let k = ms[m].selections.withUnsafeBufferPointer({ ss in ss.indices.first { ss[$0].isSame(as: s) } }) {
            s = ms[m].selections[k]
        }
        return LineCell(selection: s, book: book)
    }

    /// True when the markets name more than one book (`books.count > 1`, without making the list).
    public var hasSeveralBooks: Bool {
        var first: String?
        for m in markets.indices {
            guard let book = markets[m].book else { continue }
            if let first { if book != first { return true } } else { first = book }
        }
        return false
    }

    /// The main line as the 1 / X / 2 columns of tables. In a match, each selection stands in the
    /// column of its own outcome (home, draw, away: `outcome(of:)`), never by its place in the list: a
    /// selection missing from the feed leaves its cell empty, and one whose outcome cannot be told
    /// is not shown. A race, or a main market of more than three selections, is an outright: its
    /// favourite stands in 1, by name. A main market with no match outcome at all (a total) shows
    /// its selections by name (`outright`: each cell names its selection).
    public var mainColumns: MainColumns {
        let line = mainLine
        if away == nil || line.count > 3 {
            let favourite = line.filter(\.selection.isAvailable).min { $0.selection.price!.decimalOdds < $1.selection.price!.decimalOdds }
            return MainColumns(cells: [favourite, nil, nil], outright: true)
        }
        let teams = away.map { (TeamName.fold(home), TeamName.fold($0)) }
        // A selection named exactly as a team is that team's when the teams fold apart and neither
        // folds to a mark ("1", "Draw"...): what `outcome(of:)` answers, without folding its name.
        let plain = teams.map { !$0.0.isEmpty && $0.0 != $0.1 && Event.mark($0.0) == nil && Event.mark($0.1) == nil } ?? false
        let outcomes = line.map { cell -> MatchOutcome? in
            if plain {
                if cell.selection.name == home { return .home }
                if cell.selection.name == away { return .away }
            }
            return outcome(of: cell.selection, teams: teams)
        }
        // A main market none of whose selections is a match outcome (a total, when a feed has no
        // result market) shows each selection by name, as outrights do.
        if !outcomes.contains(where: { $0 != nil }) {
            switch line.count {
            case 0: return MainColumns(cells: [nil, nil, nil], outright: false)
            case 1: return MainColumns(cells: [line[0], nil, nil], outright: true)
            case 2: return MainColumns(cells: [line[0], nil, line[1]], outright: true)
            default: return MainColumns(cells: line, outright: true)
            }
        }
        var cells: [LineCell?] = [nil, nil, nil]
        var unknown: [(cell: LineCell, known: Bool)] = []
        for (cell, outcome) in zip(line, outcomes) {
            guard let outcome, cells[outcome.rawValue] == nil else { unknown.append((cell, outcome != nil)); continue }
            cells[outcome.rawValue] = cell
        }
        // Three selections of which two are known: the third is the one outcome left.
        if line.count == 3, unknown.count == 1, !unknown[0].known, let free = cells.firstIndex(where: { $0 == nil }) {
            cells[free] = unknown[0].cell
        }
        return MainColumns(cells: cells, outright: false)
    }

    /// Which outcome of a match a selection of its main market stands for: by
    /// the usual marks ("1", "X", "2", "Draw", "Tie"), a team's name as this event gives it (equal, or
    /// one containing the other's words, for exactly one team), or the provider's side as its id.
    public func outcome(of selection: Selection) -> MatchOutcome? {
        outcome(of: selection, teams: away.map { (TeamName.fold(home), TeamName.fold($0)) })
    }

    /// The outcome a folded name stands for as a mark ("1", "x", "draw"...), if it is one.
    static func mark(_ folded: String) -> MatchOutcome? {
        switch folded {
        case "1", "home": return .home
        case "x", "draw", "tie": return .draw
        case "2", "away": return .away
        default: return nil
        }
    }

    /// `outcome(of:)` with the teams' folded names worked out once for all the selections.
    func outcome(of selection: Selection, teams: (home: String, away: String)?) -> MatchOutcome? {
        let name = TeamName.fold(selection.name)
        if let mark = Event.mark(name) { return mark }
        if let (h, a) = teams {
            if !name.isEmpty, h != a {
                if name == h { return .home }
                if name == a { return .away }
                let isHome = TeamName.sameWords(name, h), isAway = TeamName.sameWords(name, a)
                if isHome != isAway { return isHome ? .home : .away }
                // A book's own short name for a team ("Sheffield Utd" in "Sheffield United FC v …"): the
                // side whose name it is closer to, when only one is close at all.
                let names = MatchNames.standard, words = names.words(name)
                let toHome = MatchNames.compare(words, names.words(h)), toAway = MatchNames.compare(words, names.words(a))
                if toHome != toAway, max(toHome, toAway) >= .partial { return toHome > toAway ? .home : .away }
            }
        }
        // The provider's side as the selection's id (TickOdds); a number there says nothing.
        switch TeamName.fold(selection.id) {
        case "home": return .home
        case "draw": return .draw
        case "away": return .away
        default: return nil
        }
    }

    /// Whether a market of this name is a match-result or winner market.
    public static func isMainMarketName(_ name: String) -> Bool {
        // Every name below is 3 to 16 bytes long: a longer one is not looked at again (lowercased).
        guard (3...16).contains(name.utf8.count) else { return false }
        return mainMarketNames.contains(name.lowercased())
    }

    static let mainMarketNames: Set<String> = ["fulltime result", "full time result", "match result", "1x2", "match winner",
                                               "to win match", "money line", "moneyline", "game lines", "winner", "win",
                                               "full time", "home/away"]

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

/// Printed and dumped as its fields (a test's failure, a debugger), not as its storage.
extension Event: CustomReflectable {
    public var customMirror: Mirror { Mirror(self, children: Mirror(reflecting: fields.value).children, displayStyle: .struct) }
}

extension Event {
    public init(provider: ProviderID, id: String, sport: String, league: String? = nil, home: String, away: String?,
                status: EventStatus = .unknown, startTime: Date? = nil, score: Score? = nil, scoreText: String? = nil,
                clock: String? = nil, period: String? = nil, markets: [Market] = [], incidents: [Incident] = [],
                updatedAt: Date? = nil) {
        self.init(fields: Fields(provider: provider, id: id, sport: sport, league: league, home: home, away: away, status: status,
                                 startTime: startTime, score: score, scoreText: score == nil ? scoreText : nil, clock: clock,
                                 clockStart: nil, period: period, markets: markets, incidents: incidents, stats: [],
                                 lineups: nil, updatedAt: updatedAt, match: nil))
    }
}

/// Turns a provider's sport name into the slug used everywhere ("Ice Hockey" → "ice-hockey").
public func sportSlug(_ name: String) -> String {
    guard name.utf8.allSatisfy({ $0 < 0x80 }) else {
        return name.lowercased().split(whereSeparator: { $0 == " " || $0 == "_" }).joined(separator: "-")
    }
    // ASCII (every sport name on the wire): the same on bytes, one allocation at most.
    var slug: [UInt8] = []
    slug.reserveCapacity(name.utf8.count)
    var pendingDash = false
    for b in name.utf8 {
        if b == UInt8(ascii: " ") || b == UInt8(ascii: "_") { pendingDash = !slug.isEmpty; continue }
        if pendingDash { slug.append(UInt8(ascii: "-")); pendingDash = false }
        slug.append(b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b + 32 : b)
    }
    return String(decoding: slug, as: UTF8.self)
}

/// A sport that has live events now, with how many.
public struct SportCount: Hashable, Sendable {
    public var sport: String
    public var name: String
    public var count: Int?
    public init(sport: String, name: String, count: Int?) { self.sport = sport; self.name = name; self.count = count }
}

/// A competition with its fixtures, as pre-match listings give it.
public struct League: Hashable, Sendable {
    public var name: String
    public var sport: String
    public var live: Bool
    /// Fixtures, usually without markets.
    public var events: [Event]
    public init(name: String, sport: String, live: Bool, events: [Event]) {
        self.name = name; self.sport = sport; self.live = live; self.events = events
    }
}
