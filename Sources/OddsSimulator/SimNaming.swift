import Foundation

/// How each provider names the world's teams: a generator over each club's name in parts, not a table of
/// spellings, so that matching across providers meets what real feeds send and no spelling is matched only
/// because the client shares the simulator's list. Inferred from the public services behind the providers:
/// PulseScore (Bet365) and TickOdds use the world's own short names ("Man City", "Heidenheim"); BoltOdds' US
/// books write names out in English, without accents, sometimes with "FC" ("Atlanta United FC", "Deportivo
/// Alaves"); SportsAPIPro v2 (SofaScore) keeps the club's form words and accents ("1. FC Heidenheim",
/// "Deportivo Alavés"); v1 (365Scores) the name alone, sometimes abbreviated or in its local form ("Alavés",
/// "Atlanta Utd", "Rennes"). Which form each provider uses varies from club to club, as it does in real feeds.
enum SimNaming {
    /// A club's name in parts: "1. FC|Heidenheim|1846" is prefix "1. FC", core "Heidenheim", suffix "1846";
    /// "~Rennes" after them is the name's local form, which shares no whole word with the core.
    struct Club {
        var prefix: String
        var core: String
        var suffix: String
        var local: String?

        init(_ notation: String) {
            let halves = notation.split(separator: "~", maxSplits: 1).map(String.init)
            let pieces = halves[0].split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            prefix = pieces.count == 3 ? pieces[0] : ""
            core = pieces.count == 3 ? pieces[1] : halves[0]
            suffix = pieces.count == 3 ? pieces[2] : ""
            local = halves.count > 1 ? halves[1] : nil
        }
    }

    /// Each style's names of the clubs whose names feeds cut differently, by the world's name, made once: a
    /// frame names its teams many times. A team not here (a player, a club named alike everywhere) is named as
    /// the world names it.
    static let table: [Style: [String: String]] = {
        var out: [Style: [String: String]] = [:]
        for style in [Style.usBooks, .sofaScore, .scores365] {
            for (world, notation) in notations { out[style, default: [:]][world] = make(world, Club(notation), style) }
        }
        return out
    }()

    static let notations: [(String, String)] = [
        ("Man City", "|Manchester City|FC"), ("Liverpool", "|Liverpool|FC"), ("Arsenal", "|Arsenal|FC"), ("Chelsea", "|Chelsea|FC"),
        ("Tottenham", "|Tottenham Hotspur|FC"), ("Newcastle", "|Newcastle United|FC"), ("Brighton", "|Brighton & Hove Albion|FC"),
        ("West Ham", "|West Ham United|FC"), ("Everton", "|Everton|FC"), ("Fulham", "|Fulham|FC"), ("Aston Villa", "|Aston Villa|FC"),
        ("Crystal Palace", "|Crystal Palace|FC"),
        ("Real Madrid", "|Real Madrid|CF"), ("Barcelona", "FC|Barcelona|"), ("Atlético Madrid", "Club|Atlético Madrid|"),
        ("Sevilla", "|Sevilla|FC"), ("Real Sociedad", "|Real Sociedad|"), ("Villarreal", "|Villarreal|CF"),
        ("Athletic Club", "|Athletic Club|~Athletic Bilbao"), ("Real Betis", "|Real Betis|Balompié"), ("Valencia", "|Valencia|CF"),
        ("Osasuna", "CA|Osasuna|"),
        ("Bayern München", "FC|Bayern München|~Bayern Munich"), ("Borussia Dortmund", "|Borussia Dortmund|"),
        ("RB Leipzig", "|RB Leipzig|"), ("Bayer Leverkusen", "|Bayer Leverkusen|04"), ("Eintracht Frankfurt", "|Eintracht Frankfurt|"),
        ("VfB Stuttgart", "VfB|Stuttgart|"), ("1. FC Köln", "1. FC|Köln|~Cologne"), ("Werder Bremen", "SV|Werder Bremen|"),
        ("Inter", "FC|Internazionale|Milano~Inter"), ("Napoli", "SSC|Napoli|"), ("AC Milan", "AC|Milan|"), ("Juventus", "|Juventus|FC"),
        ("Roma", "AS|Roma|"), ("Lazio", "SS|Lazio|"), ("Atalanta", "|Atalanta|BC"), ("Fiorentina", "ACF|Fiorentina|"),
        ("Inter Miami", "|Inter Miami|CF"), ("LAFC", "|Los Angeles FC|~LAFC"), ("LA Galaxy", "|Los Angeles Galaxy|"),
        ("Seattle Sounders", "|Seattle Sounders|FC"), ("Atlanta United", "|Atlanta United|FC"), ("Columbus Crew", "|Columbus Crew|"),
        ("NY Red Bulls", "|New York Red Bulls|"), ("Orlando City", "|Orlando City|SC"), ("St. Louis City", "|Saint Louis City|SC"),
        ("Heidenheim", "1. FC|Heidenheim|1846"), ("Union Berlin", "1. FC|Union Berlin|"), ("Mainz", "1. FSV|Mainz|05"),
        ("Schalke", "FC|Schalke|04"), ("Hoffenheim", "TSG|Hoffenheim|1899"), ("Hannover", "|Hannover|96"), ("Darmstadt", "SV|Darmstadt|98"),
        ("Kaiserslautern", "1. FC|Kaiserslautern|"),
        ("Alaves", "Deportivo|Alavés|"), ("Espanyol", "RCD|Espanyol|"), ("Celta Vigo", "RC|Celta|de Vigo"), ("Valladolid", "Real|Valladolid|"),
        ("Getafe", "|Getafe|CF"), ("Leganes", "CD|Leganés|"), ("Las Palmas", "UD|Las Palmas|"), ("Mallorca", "RCD|Mallorca|"),
        ("Lille", "LOSC|Lille|"), ("Rennes", "Stade|Rennais|FC~Rennes"), ("St Etienne", "AS|Saint-Étienne|"), ("Marseille", "Olympique de|Marseille|"),
        ("Lyon", "Olympique|Lyonnais|~Lyon"), ("Nice", "OGC|Nice|"), ("Lens", "RC|Lens|"), ("Brest", "Stade|Brestois|29~Brest"),
        ("AZ", "|AZ|Alkmaar"), ("Ajax", "AFC|Ajax|Amsterdam"), ("PSV", "|PSV|Eindhoven"), ("Feyenoord", "|Feyenoord|Rotterdam"),
        ("Twente", "FC|Twente|Enschede"), ("Utrecht", "FC|Utrecht|"),
        ("Ipswich", "|Ipswich|Town"), ("Leeds", "|Leeds United|"), ("Sheffield Utd", "|Sheffield United|"), ("Sheffield Wed", "|Sheffield Wednesday|"),
        ("West Brom", "|West Bromwich Albion|"), ("Norwich", "|Norwich|City"),
        ("Como", "|Como|1907"), ("Verona", "Hellas|Verona|"), ("Lecce", "US|Lecce|"), ("Cagliari", "|Cagliari|Calcio"),
        ("Parma", "|Parma|Calcio 1913"), ("Genoa", "|Genoa|CFC"),
    ]

    /// The ways a provider writes a name.
    enum Style {
        /// BoltOdds' US books.
        case usBooks
        /// SportsAPIPro v2 (SofaScore).
        case sofaScore
        /// SportsAPIPro v1 (365Scores).
        case scores365
    }

    /// `world`'s name as `style` writes it. Which form is stable per club and style, and differs between clubs.
    static func name(_ world: String, _ style: Style) -> String { table[style]?[world] ?? world }

    static func make(_ world: String, _ club: Club, _ style: Style) -> String {
        let pick = Int(stableHash("\(style)/\(world)") % 4)
        let number = { (w: Substring) in w.allSatisfy { $0.isNumber || $0 == "." } }
        func join(_ parts: String...) -> String { parts.filter { !$0.isEmpty }.joined(separator: " ") }
        let prefixNoNumbers = club.prefix.split(separator: " ").filter { !number($0) }.joined(separator: " ")
        let suffixWords = club.suffix.split(separator: " ")
        let suffixIsForm = suffixWords.allSatisfy { number($0) || ["FC", "CF", "SC", "BC", "CFC", "Calcio"].contains(String($0)) }
        switch style {
        case .usBooks:
            // English, written out, no accents: the core with what is not a number around it, or with "FC".
            let forms = [join(prefixNoNumbers, club.core, suffixIsForm ? "" : club.suffix),
                         join(club.core, suffixIsForm ? "FC" : club.suffix),
                         club.local.flatMap { $0.count > 4 ? $0 : nil } ?? join(prefixNoNumbers, club.core),
                         join(club.core, suffixIsForm ? "" : club.suffix)]
            return plain(forms[pick].replacingOccurrences(of: "Saint Louis", with: "St. Louis"))
        case .sofaScore:
            // The club's own name: form words and accents kept, a founding year or squad number sometimes.
            let forms = [join(club.prefix, club.core), join(club.prefix, club.core, club.suffix), join(club.core, club.suffix),
                         join(club.prefix, club.core)]
            return forms[pick].replacingOccurrences(of: "Los Angeles Galaxy", with: "LA Galaxy")
        case .scores365:
            // The name alone: abbreviated, or in its local form.
            let forms = [club.core, abbreviated(club.core), club.local ?? club.core, join(club.core, suffixIsForm ? "" : club.suffix)]
            return forms[pick]
        }
    }

    /// Common words cut short as feeds cut them: "Man", "Utd", "St", "LA", "NY".
    static func abbreviated(_ name: String) -> String {
        var out = name
        for (long, short) in [("Manchester", "Man"), ("United", "Utd"), ("Saint-", "St "), ("Saint ", "St "), ("Los Angeles", "LA"),
                              ("New York", "NY"), ("Wednesday", "Wed"), ("Athletic", "Ath")] {
            out = out.replacingOccurrences(of: long, with: short)
        }
        return out
    }

    /// Without accents, as US books write names ("Alavés" → "Alaves").
    static func plain(_ name: String) -> String { name.folding(options: .diacriticInsensitive, locale: nil) }

    /// FNV-1a: the same number for the same text in every run.
    static func stableHash(_ text: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }
}

extension BoltOdds {
    /// A team as BoltOdds' books name it.
    static func team(_ name: String) -> String { SimNaming.name(name, .usBooks) }
}

extension SportsAPIPro {
    /// A team as SportsAPIPro v2 names it.
    static func team(_ name: String) -> String { SimNaming.name(name, .sofaScore) }

    /// A team as SportsAPIPro v1 names it.
    static func v1Team(_ name: String) -> String { SimNaming.name(name, .scores365) }
}
