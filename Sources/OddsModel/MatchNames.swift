/// A team name as the matcher compares it: its core words, with what does not tell one club from
/// another taken out.
public struct TeamWords: Sendable, Hashable {
    /// Folded, abbreviations written out, numbers, club-form words and articles dropped, mapped through the
    /// aliases: "1. FC Union Berlin" → ["union", "berlin"], "Atlanta Utd" → ["atlanta", "united"].
    public let words: [String]
    /// The initials of every word but numbers, club-form words included ("Los Angeles FC" → "lafc").
    public let initials: String
    /// The initials of the core words alone ("Paris Saint-Germain FC" → "psg").
    public let coreInitials: String
    /// Words that name another team of the same club: "women", "u21", "ii", "b", "reserves".
    public let markers: [String]
}

/// How two team names compare.
public enum NameMatch: Int, Sendable, Comparable {
    /// Nothing in common.
    case none = 0
    /// One name's words are a part of the other's ("Valladolid" / "Real Valladolid"), or its only word is a stem
    /// of the other's ("Rennes" / "Rennais"): the same club only when the opponent and the kick-off agree.
    case partial
    /// The same words, some cut short ("Crystal Pal" / "Crystal Palace"), or one name the other's initials ("PSG").
    case abbreviated
    /// The same words.
    case equal

    public static func < (a: NameMatch, b: NameMatch) -> Bool { a.rawValue < b.rawValue }

    /// What the level adds to a join's confidence.
    public var weight: Double {
        switch self {
        case .none: 0
        case .partial: 0.8
        case .abbreviated: 0.85
        case .equal: 1
        }
    }

    /// In words, for `--explain`.
    public var label: String {
        switch self {
        case .none: "different"
        case .partial: "a part of the other"
        case .abbreviated: "abbreviated"
        case .equal: "equal"
        }
    }
}

/// Team names compared by words. Case, diacritics and punctuation are folded; common abbreviations are
/// written out (Utd, St, NY, LA, Man); numbers ("1.", "05", "1907"), club-form words (FC, CD, RCD, Deportivo,
/// Stade, LOSC, …) and articles are dropped; the shipped aliases and the user's map what no rule can
/// ("Spurs", "Gladbach"). Words then compare as sets: equal, abbreviated (each word begins the other's by three
/// letters or more, or one name is the other's initials), or partial (one name's words a part of the other's).
/// A name that marks another team of a club (women, U21, II, reserves) never matches one without the mark.
public struct MatchNames: Sendable {
    /// Canonical spellings by reduced name: the user's aliases over the shipped ones.
    private let aliases: [String: String]

    /// `user` maps a name to the name it stands for (`"Man Utd" = "Manchester United"`), either side as
    /// any provider spells it; it wins over the shipped table.
    public init(user: [String: String] = [:]) {
        var table: [String: String] = [:]
        for (canonical, variants) in MatchNames.shipped {
            let c = MatchNames.reduced(canonical)
            table[c] = c
            for v in variants { table[MatchNames.reduced(v)] = c }
        }
        for (name, meaning) in user {
            let target = MatchNames.reduced(meaning)
            // A user alias to a shipped name's variant means the shipped canonical name.
            table[MatchNames.reduced(name)] = table[target] ?? target
        }
        aliases = table
    }

    /// The shipped aliases alone, built once: what reads a book's own name for a team of its event.
    public static let standard = MatchNames()

    /// Words that name a club's form, not the club.
    static let formWords: Set<String> = [
        "fc", "cf", "sc", "afc", "ac", "as", "ss", "ssc", "ssd", "asd", "us", "usd", "acf", "cd", "ud", "sd", "rcd", "rc", "ca",
        "fk", "sk", "bk", "if", "ik", "ff", "sv", "fsv", "vfb", "vfl", "tsg", "tsv", "bsc", "spvgg", "ksc", "kv", "kaa", "krc", "rsc",
        "ogc", "aj", "sco", "losc", "stade", "olympique", "deportivo", "club", "calcio", "cp", "ec", "se", "cr", "nk", "hnk",
        "gnk", "pfc", "ofk", "cfr", "sl", "fbc", "cfc", "sfc", "bc", "hc", "hk", "kk", "bb", "fsc", "the", "and",
    ]

    /// Articles and linking words inside club names ("Celta de Vigo", "Deportivo La Coruña").
    static let articles: Set<String> = ["de", "del", "di", "da", "do", "dos", "des", "du", "la", "le", "les", "el", "y", "of"]

    /// Words that name another team of the same club.
    static let markerWords: Set<String> = ["women", "womens", "ladies", "feminin", "feminino", "femenino", "frauen", "w", "ii",
                                           "iii", "b", "reserves", "reserve", "res", "youth", "academy", "jong", "amateurs", "xi"]

    /// Abbreviations written out, and the English names of a few cities that clubs use in their own language.
    static let expansions: [String: [String]] = [
        "utd": ["united"], "st": ["saint"], "ste": ["sainte"], "ny": ["new", "york"], "nj": ["new", "jersey"],
        "man": ["manchester"], "nottm": ["nottingham"], "sp": ["sporting"], "ath": ["athletic"], "atl": ["atletico"],
        "dep": ["deportivo"], "int": ["inter"], "intl": ["international"], "wed": ["wednesday"], "mgladbach": ["monchengladbach"],
        "munchen": ["munich"], "koln": ["cologne"], "milano": ["milan"], "lisboa": ["lisbon"], "sevilla": ["seville"],
        "praha": ["prague"], "wien": ["vienna"], "moskva": ["moscow"], "bucuresti": ["bucharest"], "kobenhavn": ["copenhagen"],
        "athina": ["athens"], "ft": ["fort"], "mt": ["mount"], "weds": ["wednesday"], "rvs": ["rovers"],
    ]

    /// The name folded, abbreviations written out, numbers, form words and articles dropped ("1. FC Köln" →
    /// "cologne"); a name made only of those keeps its words.
    public static func reduced(_ name: String) -> String {
        reducedWords(TeamName.fold(name).split(separator: " ").map(String.init)).joined(separator: " ")
    }

    /// `reduced` on a folded name's words.
    static func reducedWords(_ raw: [String]) -> [String] {
        var out: [String] = []
        out.reserveCapacity(raw.count + 1)
        for (i, w) in raw.enumerated() {
            if w == "la", i == 0, raw.count > 1 { out += ["los", "angeles"]; continue }
            if let e = expansions[w] { out += e; continue }
            if w.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) || formWords.contains(w) || articles.contains(w) { continue }
            out.append(w)
        }
        return out.isEmpty ? raw : out
    }

    /// The words of a team name, as the matcher compares them.
    public func words(_ name: String) -> TeamWords {
        let raw = TeamName.fold(name).split(separator: " ").map(String.init)
        var markers: [String] = []
        var kept: [String] = []
        var initials = ""
        for (i, w) in raw.enumerated() {
            // "B" marks a second team only as the last word ("Barcelona B"), not as an initial ("B. Dortmund").
            let isMarker = MatchNames.markerWords.contains(w) && (w != "b" || (i == raw.count - 1 && i > 0))
                || (w.count >= 3 && w.first == "u" && Int(w.dropFirst()).map { (14...23).contains($0) } == true)
                // A second or third team's number at the end: "Atlanta United 2" (not "Mainz 05", "Hannover 96").
                || (i == raw.count - 1 && i >= 2 && (w == "2" || w == "3"))
            if isMarker { markers.append(w); continue }
            kept.append(w)
            guard let f = w.first, !f.isNumber, !MatchNames.articles.contains(w) else { continue }
            // A short form word is initials itself: "Los Angeles FC" is "LAFC".
            if MatchNames.formWords.contains(w), w.count <= 3 { initials += w } else { initials.append(f) }
        }
        if kept.isEmpty { kept = raw }
        // Letters written apart are one word: "D.C. United" is "DC United".
        var merged: [String] = []
        var lettersRun = false
        for w in kept {
            let letter = w.count == 1 && w.first!.isLetter
            if letter, lettersRun { merged[merged.count - 1] += w } else { merged.append(w) }
            lettersRun = letter
        }
        var core = MatchNames.reducedWords(merged)
        if let alias = aliases[core.joined(separator: " ")] { core = alias.split(separator: " ").map(String.init) }
        let coreInitials = String(core.compactMap(\.first))
        return TeamWords(words: core, initials: initials, coreInitials: coreInitials, markers: markers.sorted())
    }

    /// How two team names compare.
    public static func compare(_ a: TeamWords, _ b: TeamWords) -> NameMatch {
        guard a.markers == b.markers, !a.words.isEmpty, !b.words.isEmpty else { return .none }
        if a.words == b.words { return .equal }
        let (short, long) = a.words.count <= b.words.count ? (a, b) : (b, a)
        // One name the other's initials: "PSG", "QPR", "LAFC" (two letters are too few to tell).
        if short.words.count == 1, short.words[0].count >= 3, short.words[0] == long.initials || short.words[0] == long.coreInitials {
            return .abbreviated
        }
        // Each word of the shorter name finds its own word in the longer: the same, one beginning the other
        // (three letters at least), or, for a name of one word, a shared stem ("rennes" / "rennais").
        // Which words of the longer name are taken: bits for a name of 64 words or fewer (no allocation per pair).
        var usedBits: UInt64 = 0
        var usedList = long.words.count > 64 ? [Bool](repeating: false, count: long.words.count) : []
        func isUsed(_ j: Int) -> Bool { usedList.isEmpty ? usedBits & (1 << UInt64(j)) != 0 : usedList[j] }
        var same = 0
        for w in short.words {
            var found = -1
            for (j, v) in long.words.enumerated() where !isUsed(j) && v == w { found = j; break }
            if found >= 0 { same += 1 } else {
                for (j, v) in long.words.enumerated() where !isUsed(j) && wordsAgree(w, v, stem: short.words.count == 1) { found = j; break }
            }
            // An initial beside other words: "B. Dortmund".
            if found < 0, w.count == 1, short.words.count >= 2 {
                for (j, v) in long.words.enumerated() where !isUsed(j) && v.first == w.first && v.count > 1 { found = j; break }
            }
            guard found >= 0 else { return .none }
            if usedList.isEmpty { usedBits |= 1 << UInt64(found) } else { usedList[found] = true }
        }
        guard short.words.count == long.words.count else { return .partial }
        if same == short.words.count { return .equal }
        // Words cut short need a whole one beside them: "Crystal Pal", not one guess alone.
        return short.words.count >= 2 && same >= 1 ? .abbreviated : .partial
    }

    /// Whether two different words can be one: one begins the other (three letters at least), or, for a
    /// one-word name, they share a stem of four letters that is most of the shorter ("rennes" / "rennais").
    static func wordsAgree(_ a: String, _ b: String, stem: Bool) -> Bool {
        let short = min(a.utf8.count, b.utf8.count)
        var k = 0
        var x = a.utf8.makeIterator(), y = b.utf8.makeIterator()
        while let p = x.next(), let q = y.next(), p == q { k += 1 }
        if k == short { return short >= 3 }
        return stem && k >= 4 && Double(k) >= 0.6 * Double(short)
    }

    /// How two names compare, by their canonical spellings (words one space apart): a convenience for tests
    /// and tools; the matcher compares `TeamWords`.
    public func similarity(_ a: String, _ b: String) -> NameMatch { MatchNames.compare(words(a), words(b)) }

    /// Common variants of club names that no rule can find: canonical name, then the others.
    static let shipped: [(String, [String])] = [
        ("manchester city", ["manchester c"]),
        ("manchester united", ["man u", "manchester u"]),
        ("tottenham hotspur", ["spurs"]),
        ("wolverhampton wanderers", ["wolves"]),
        ("brighton hove albion", ["brighton and hove", "brighton albion"]),
        ("nottingham forest", ["nott m forest", "notts forest"]),
        ("queens park rangers", ["qpr"]),
        ("bayern munich", ["bayern"]),
        ("borussia dortmund", ["bvb"]),
        ("borussia monchengladbach", ["gladbach", "b monchengladbach", "m gladbach", "monchengladbach"]),
        ("rb leipzig", ["rasenballsport leipzig"]),
        ("eintracht frankfurt", ["e frankfurt"]),
        ("cologne", ["1 fc koln", "fc koln", "koln", "fc cologne"]),
        ("internazionale", ["inter", "inter milan", "internazionale milano", "fc internazionale milano"]),
        ("juventus", ["juve"]),
        ("paris saint germain", ["paris sg"]),
        ("atletico madrid", ["atl madrid", "atletico de madrid"]),
        ("athletic bilbao", ["athletic club", "ath bilbao"]),
        ("sporting cp", ["sporting lisbon", "sporting clube de portugal"]),
        ("psv eindhoven", ["psv"]),
        ("los angeles lakers", ["lakers"]),
        ("los angeles clippers", ["clippers"]),
        ("golden state warriors", ["gs warriors", "warriors"]),
        ("new york knicks", ["knicks"]),
    ]
}
