/// How each provider names the world's teams. Inferred from the public services behind them, so
/// that matching across providers meets what it will meet: PulseScore (Bet365) and TickOdds use the
/// world's own short names ("Man City", "Bayern München"); BoltOdds' US books spell them out
/// ("Manchester City", "Bayern Munich", no accents on "Atletico"); SportsAPIPro gives full names with
/// club affixes ("Manchester City FC", "FC Bayern München").
enum SimNaming {
    /// BoltOdds' books.
    static let usBooks: [String: String] = [
        "Man City": "Manchester City", "Tottenham": "Tottenham Hotspur", "Newcastle": "Newcastle United",
        "West Ham": "West Ham United", "Brighton": "Brighton and Hove Albion", "Bayern München": "Bayern Munich",
        "Atlético Madrid": "Atletico Madrid", "Athletic Club": "Athletic Bilbao", "LA Lakers": "Los Angeles Lakers",
        "1. FC Köln": "FC Cologne", "Inter": "Inter Milan", "Roma": "AS Roma", "Inter Miami": "Inter Miami CF",
        "LAFC": "Los Angeles FC",
    ]

    /// SportsAPIPro (v2 and v1).
    static let withAffixes: [String: String] = [
        "Man City": "Manchester City FC", "Liverpool": "Liverpool FC", "Arsenal": "Arsenal FC", "Chelsea": "Chelsea FC",
        "Tottenham": "Tottenham Hotspur FC", "Newcastle": "Newcastle United FC", "Brighton": "Brighton & Hove Albion FC",
        "West Ham": "West Ham United FC", "Everton": "Everton FC", "Fulham": "Fulham FC", "Barcelona": "FC Barcelona",
        "Real Madrid": "Real Madrid CF", "Sevilla": "Sevilla FC", "Valencia": "Valencia CF", "Villarreal": "Villarreal CF",
        "Bayern München": "FC Bayern München", "LA Lakers": "Los Angeles Lakers", "Inter": "FC Internazionale Milano",
        "AC Milan": "Milan", "Juventus": "Juventus FC", "Napoli": "SSC Napoli", "Inter Miami": "Inter Miami CF",
        "LA Galaxy": "LA Galaxy", "LAFC": "Los Angeles FC",
    ]
}

extension BoltOdds {
    /// A team as BoltOdds' books name it.
    static func team(_ name: String) -> String { SimNaming.usBooks[name] ?? name }
}

extension SportsAPIPro {
    /// A team as SportsAPIPro names it.
    static func team(_ name: String) -> String { SimNaming.withAffixes[name] ?? name }
}
