/// Names for the simulated world. Some carry accents and non-Latin letters on purpose:
/// tables must line them up.
enum Teams {
    struct LeagueDef { let sport: String; let name: String; let teams: [String] }

    static let leagues: [LeagueDef] = [
        LeagueDef(sport: "soccer", name: "Premier League", teams: [
            "Liverpool", "Man City", "Arsenal", "Chelsea", "Tottenham", "Newcastle", "Aston Villa", "Brighton",
            "West Ham", "Crystal Palace", "Everton", "Fulham"]),
        LeagueDef(sport: "soccer", name: "La Liga", teams: [
            "Real Madrid", "Barcelona", "Atlético Madrid", "Sevilla", "Real Sociedad", "Villarreal", "Athletic Club",
            "Real Betis", "Valencia", "Osasuna"]),
        LeagueDef(sport: "soccer", name: "Bundesliga", teams: [
            "Bayern München", "Borussia Dortmund", "RB Leipzig", "Bayer Leverkusen", "Eintracht Frankfurt",
            "VfB Stuttgart", "1. FC Köln", "Werder Bremen"]),
        LeagueDef(sport: "soccer", name: "Süper Lig", teams: [
            "Galatasaray", "Fenerbahçe", "Beşiktaş", "Trabzonspor", "Başakşehir", "Göztepe"]),
        LeagueDef(sport: "soccer", name: "J1 League", teams: [
            "鹿島アントラーズ", "浦和レッズ", "川崎フロンターレ", "横浜F・マリノス", "ガンバ大阪", "セレッソ大阪"]),
        LeagueDef(sport: "basketball", name: "NBA", teams: [
            "Boston Celtics", "Denver Nuggets", "LA Lakers", "Golden State Warriors", "Miami Heat", "Milwaukee Bucks",
            "Phoenix Suns", "Dallas Mavericks"]),
        LeagueDef(sport: "basketball", name: "EuroLeague", teams: [
            "Real Madrid Baloncesto", "Olympiacos", "Panathinaikos", "Fenerbahçe Beko", "Žalgiris Kaunas",
            "Crvena zvezda"]),
        LeagueDef(sport: "tennis", name: "ATP Finals", teams: [
            "J. Sinner", "C. Alcaraz", "N. Djokovic", "A. Zverev", "D. Medvedev", "T. Fritz", "C. Ruud", "A. de Miñaur"]),
        LeagueDef(sport: "tennis", name: "WTA Finals", teams: [
            "A. Sabalenka", "I. Świątek", "C. Gauff", "E. Rybakina", "J. Pegula", "Q. Zheng"]),
        // Not at every provider (`SimWorld.coverage`), and the matching traps: "Inter" is Internazionale, not
        // Inter Miami; "Milan" and "AC Milan" are one club.
        LeagueDef(sport: "soccer", name: "Serie A", teams: [
            "Inter", "Napoli", "AC Milan", "Juventus", "Roma", "Lazio", "Atalanta", "Fiorentina"]),
        LeagueDef(sport: "soccer", name: "MLS", teams: [
            "Inter Miami", "LAFC", "LA Galaxy", "Seattle Sounders", "Atlanta United", "Columbus Crew", "NY Red Bulls", "Orlando City",
            "St. Louis City"]),
        // Clubs whose names real feeds write five ways (numbers, form words, abbreviations, local forms:
        // `SimNaming`), at every provider but TickOdds.
        LeagueDef(sport: "soccer", name: "2. Bundesliga", teams: [
            "Heidenheim", "Union Berlin", "Mainz", "Schalke", "Hoffenheim", "Hannover", "Darmstadt", "Kaiserslautern"]),
        LeagueDef(sport: "soccer", name: "Segunda División", teams: [
            "Alaves", "Espanyol", "Celta Vigo", "Valladolid", "Getafe", "Leganes", "Las Palmas", "Mallorca"]),
        LeagueDef(sport: "soccer", name: "Ligue 1", teams: [
            "Lille", "Rennes", "St Etienne", "Marseille", "Lyon", "Nice", "Lens", "Brest"]),
        LeagueDef(sport: "soccer", name: "Eredivisie", teams: ["AZ", "Ajax", "PSV", "Feyenoord", "Twente", "Utrecht"]),
        LeagueDef(sport: "soccer", name: "Championship", teams: [
            "Ipswich", "Leeds", "Sheffield Utd", "West Brom", "Sheffield Wed", "Norwich"]),
        LeagueDef(sport: "soccer", name: "Serie B", teams: ["Como", "Verona", "Lecce", "Cagliari", "Parma", "Genoa"]),
    ]

    static let firstNames = ["Mo", "Erling", "Bukayo", "Cole", "Son", "Alexander", "Ollie", "João", "Jarrod", "Eberechi",
                             "Dwight", "Raúl", "Vinícius", "Robert", "Antoine", "Kylian", "Harry", "Florian", "Victor", "Kerem"]
    static let lastNames = ["Salah", "Haaland", "Saka", "Palmer", "Heung-min", "Isak", "Watkins", "Pedro", "Bowen", "Eze",
                            "McNeil", "Jiménez", "Júnior", "Lewandowski", "Griezmann", "Mbappé", "Kane", "Wirtz", "Osimhen", "Aktürkoğlu"]

    static let racecourses = ["Cheltenham", "Ascot", "Newmarket", "Leopardstown", "Longchamp"]
    static let greyhoundTracks = ["Romford", "Towcester", "Shelbourne Park"]
    static let horses = ["Galopin Des Champs", "Constitution Hill", "State Man", "El Fabiolo", "Jonbon", "Fact To File",
                         "Lossiemouth", "Ballyburn", "Inothewayurthinkin", "Il Etait Temps", "Marine Nationale", "Sir Gino"]
    static let greyhounds = ["Swift Mercury", "Ballymac Fairy", "Clona Duke", "Romeo Magico", "Gaytime Nemo", "Bockos Doomie"]
}
