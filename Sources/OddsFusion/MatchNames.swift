import OddsModel

/// Team names as the matcher compares them: folded (case, diacritics, punctuation), `&` and "and"
/// dropped, club affixes (FC, CF, AC, …) dropped, then mapped through the aliases to one canonical
/// spelling. Names are equal only when their canonical spellings are equal, or when they have the same
/// number of words and each word of one begins the same word of the other ("Man City", "Manchester
/// City"): never because one name's words are a part of the other's ("Inter" is not "Inter Miami CF",
/// "Milan" is not "Inter Milan").
public struct MatchNames: Sendable {
    /// Canonical spellings by folded name: the user's aliases over the shipped ones.
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

    /// Words that name a club's form, not the club: dropped before comparing.
    static let affixes: Set<String> = ["fc", "cf", "sc", "afc", "ac", "as", "ssc", "cd", "ud", "sd", "fk", "sk", "bk",
                                       "if", "sv", "vfb", "vfl", "tsg", "and", "the", "club", "calcio"]

    /// Folded, with affixes and "and" dropped ("FC Bayern München" → "bayern munchen").
    static func reduced(_ name: String) -> String {
        let folded = TeamName.fold(name)
        var out: [UInt8] = []
        out.reserveCapacity(folded.utf8.count)
        var dropped = false
        var bytes = folded.utf8[...]
        while !bytes.isEmpty {
            let end = bytes.firstIndex(of: 0x20) ?? bytes.endIndex
            let word = bytes[..<end]
            // Affixes are short: only short words are looked up (a small string, not an allocation).
            if word.count <= 6, affixes.contains(String(Substring(word))) {
                dropped = true
            } else {
                if !out.isEmpty { out.append(0x20) }
                out.append(contentsOf: word)
            }
            bytes = end == bytes.endIndex ? bytes[end...] : bytes[bytes.index(after: end)...]
        }
        // A name made only of affixes ("AC") is kept as it is.
        if out.isEmpty || !dropped { return out.isEmpty ? folded : String(decoding: out, as: UTF8.self) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The canonical spelling of a team name.
    public func canonical(_ name: String) -> String {
        let r = MatchNames.reduced(name)
        return aliases[r] ?? r
    }

    /// How two canonical names compare: 1 equal, 0.85 the same words abbreviated, 0 different.
    public static func similarity(_ a: String, _ b: String) -> Double {
        if a == b { return a.isEmpty ? 0 : 1 }
        return similarity(bytes: Array(a.utf8), Array(b.utf8))
    }

    /// `similarity` on the names' UTF-8 bytes (words one space apart, as canonical names are), without
    /// splitting: it runs for every candidate pair. Each word must begin the other's (by 3 letters at
    /// least when they differ), the word counts must agree, and an abbreviated pair needs two words or
    /// more with one of them whole.
    static func similarity(bytes a: [UInt8], _ b: [UInt8]) -> Double {
        guard !a.isEmpty, !b.isEmpty else { return 0 }
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                var i = 0, j = 0, words = 0
                var whole = false, abbreviated = false
                while true {
                    var ea = i, eb = j
                    while ea < a.count, a[ea] != 0x20 { ea += 1 }
                    while eb < b.count, b[eb] != 0x20 { eb += 1 }
                    let la = ea - i, lb = eb - j, short = min(la, lb)
                    var k = 0
                    while k < short, a[i + k] == b[j + k] { k += 1 }
                    guard k == short else { return 0 }
                    if la == lb { whole = true } else if short >= 3 { abbreviated = true } else { return 0 }
                    words += 1
                    let endA = ea >= a.count, endB = eb >= b.count
                    if endA || endB {
                        guard endA && endB else { return 0 }
                        break
                    }
                    i = ea + 1; j = eb + 1
                }
                if !abbreviated { return 1 }
                return words >= 2 && whole ? 0.85 : 0
            }
        }
    }

    /// Common variants of club names across bookmakers and data feeds: canonical name, then the others.
    static let shipped: [(String, [String])] = [
        ("manchester city", ["man city", "manchester c"]),
        ("manchester united", ["man utd", "man united", "manchester utd", "man u"]),
        ("tottenham hotspur", ["tottenham", "spurs"]),
        ("wolverhampton wanderers", ["wolves", "wolverhampton"]),
        ("brighton hove albion", ["brighton", "brighton and hove", "brighton albion"]),
        ("newcastle united", ["newcastle", "newcastle utd"]),
        ("west ham united", ["west ham", "west ham utd"]),
        ("nottingham forest", ["nottm forest", "nott m forest", "notts forest"]),
        ("sheffield united", ["sheff utd", "sheffield utd"]),
        ("sheffield wednesday", ["sheff wed", "sheffield wed"]),
        ("leeds united", ["leeds", "leeds utd"]),
        ("leicester city", ["leicester"]),
        ("afc bournemouth", ["bournemouth"]),
        ("queens park rangers", ["qpr"]),
        ("bayern munich", ["bayern munchen", "bayern", "fc bayern munchen"]),
        ("borussia dortmund", ["dortmund", "bvb"]),
        ("borussia monchengladbach", ["monchengladbach", "gladbach", "b monchengladbach", "m gladbach"]),
        ("bayer leverkusen", ["leverkusen", "bayer 04 leverkusen"]),
        ("rb leipzig", ["leipzig", "rasenballsport leipzig"]),
        ("eintracht frankfurt", ["e frankfurt", "frankfurt"]),
        ("fc koln", ["1 fc koln", "koln", "cologne", "fc cologne"]),
        ("internazionale", ["inter", "inter milan", "internazionale milano", "fc internazionale milano"]),
        ("milan", ["ac milan"]),
        ("juventus", ["juve"]),
        ("napoli", ["ssc napoli"]),
        ("roma", ["as roma"]),
        ("lazio", ["ss lazio"]),
        ("paris saint germain", ["psg", "paris sg", "paris st germain"]),
        ("olympique marseille", ["marseille"]),
        ("olympique lyonnais", ["lyon"]),
        ("atletico madrid", ["atletico de madrid", "atl madrid"]),
        ("athletic bilbao", ["athletic club", "ath bilbao"]),
        ("real sociedad", ["r sociedad"]),
        ("celta vigo", ["celta", "rc celta"]),
        ("sporting cp", ["sporting lisbon"]),
        ("psv eindhoven", ["psv"]),
        ("inter miami", ["inter miami cf"]),
        ("los angeles fc", ["lafc"]),
        ("los angeles lakers", ["la lakers", "lakers"]),
        ("los angeles clippers", ["la clippers", "clippers"]),
        ("golden state warriors", ["golden state", "gs warriors", "warriors"]),
        ("new york knicks", ["ny knicks", "knicks"]),
    ]
}
