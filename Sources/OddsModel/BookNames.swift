/// Sportsbooks' proper names, as people write them ("DraftKings", "Bally Bet", "bet365"), by the key a feed
/// sends ("draftkings", "DraftKings", "bally-bet"): what tables, the dashboard and `--explain` show. JSON keeps
/// the provider's own key (`book`) and adds this name beside it (`bookName`).
public enum BookNames {
    /// The key a name is looked up by: its letters and digits, lower-cased.
    public static func key(_ book: String) -> String {
        String(book.lowercased().unicodeScalars.filter { ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") }.map(Character.init))
    }

    /// The book's proper name: the known spelling, else the feed's own text (a lower-case word with its first
    /// letter raised: "neobet" is "Neobet"; a name the feed already writes with capitals or spaces stays as sent).
    public static func proper(_ book: String) -> String {
        if let known = known[key(book)] { return known }
        guard !book.isEmpty, book == book.lowercased(), !book.contains(" ") else { return book }
        return book.prefix(1).uppercased() + book.dropFirst()
    }

    /// The proper name fitted to `width` (`BookLabel.fit`): whole when it fits, else the book's short name.
    public static func fit(_ book: String, width: Int, short: [String: String]) -> String {
        BookLabel.fit(proper(book), width: width, short: short)
    }

    static let known: [String: String] = [
        // North America (BoltOdds' books).
        "draftkings": "DraftKings", "fanduel": "FanDuel", "betmgm": "BetMGM", "caesars": "Caesars", "ballybet": "Bally Bet",
        "betrivers": "BetRivers", "espnbet": "ESPN BET", "pinnacle": "Pinnacle", "fanatics": "Fanatics",
        "hardrockbet": "Hard Rock Bet", "betonline": "BetOnline", "bovada": "Bovada", "pointsbet": "PointsBet",
        "williamhill": "William Hill", "betway": "Betway", "unibet": "Unibet", "betparx": "betPARX", "wynnbet": "WynnBET",
        "superbook": "SuperBook", "circa": "Circa Sports", "fliff": "Fliff", "prizepicks": "PrizePicks", "underdog": "Underdog",
        "betano": "Betano", "bet365": "bet365", "thescore": "theScore Bet", "sportsinteraction": "Sports Interaction",
        "betvictor": "BetVictor",
        // Europe (SofaScore's books).
        "betfair": "Betfair", "1xbet": "1xBet", "888sport": "888sport", "betsson": "Betsson", "paddypower": "Paddy Power",
        "skybet": "Sky Bet", "ladbrokes": "Ladbrokes", "coral": "Coral", "marathonbet": "Marathonbet", "betclic": "Betclic",
        "tipico": "Tipico", "interwetten": "Interwetten", "bwin": "bwin",
        // Single-book feeds, and SofaScore's own odds.
        "tickodds": "TickOdds", "sportsapipro": "SportsAPIPro", "sportsapi": "SportsAPIPro",
    ]
}
