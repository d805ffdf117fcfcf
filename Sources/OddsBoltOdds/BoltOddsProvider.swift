import OddsCommandSupport
import Foundation
import OddsModel
import OddsTransport

extension ProviderID {
    /// BoltOdds: many sportsbooks' prices, play-by-play and live scores.
    public static let boltodds = ProviderID("boltodds", displayName: "BoltOdds", environmentName: "BOLTODDS", tag: "BO")
}

extension BoltOddsClient {
    /// BoltOdds as the registry lists it.
    public static let descriptor = ProviderDescriptor(
        id: .boltodds, restURL: defaultRESTURL, webSocketURL: defaultWebSocketURL,
        summary: """
        many sportsbooks side by side: an odds stream, play-by-play and live scores over three WebSockets, \
        REST listings; tables show the best price across books with its book
        """,
        notes: """
        Documented: REST https://spro.agency/api (key as ?key=; GET limited to 12 a minute with a burst of 3, \
        which the client keeps to and says on stderr when it waits) and the odds stream wss://spro.agency/api \
        (at most 12 connections a minute, kept by the client). Inferred: play-by-play \
        wss://spro.agency/api/playbyplay (pbp_url) and live scores wss://spro.agency/api/livescores (scores_url), \
        the sport of each competition (a built-in table: NBA is basketball, EPL soccer, ...), the end of the \
        initial state (1 s without a new game), a bad key refused at the upgrade (HTTP 401: exit 3), the \
        silence after which a connection is dead (silence_seconds), and the zone of a game's info.when (US \
        Eastern, as the docs' example implies; when_timezone): a game is scheduled until that start, then live \
        until the scores feeds say it ended.
        """,
        options: [ProviderOption("pbp_url", defaultPlayByPlayURL, documented: false),
                  ProviderOption("scores_url", defaultLiveScoresURL, documented: false),
                  ProviderOption("when_timezone", BoltOddsTime.defaultZone, documented: false),
                  ProviderOption("silence_seconds", "90", documented: false)],
        capabilities: [.books, .incidents, .restListings, .changesOnly],
        commands: ProviderCommandGroup(BoltOddsCommand.self),
        bookShortNames: bookShortNames,
        make: { settings, transport, retry in BoltOddsClient(settings: settings, transport: transport, retry: retry) },
        fuzzTargets: fuzzTargets)

    /// The US books' usual abbreviations, for columns too narrow for the name.
    static let bookShortNames = [
        "draftkings": "DK", "fanduel": "FD", "betmgm": "MGM", "caesars": "CZR", "ballybet": "Bally", "betrivers": "BR",
        "espnbet": "ESPN", "pinnacle": "PIN", "fanatics": "FAN", "hardrockbet": "HRB", "betonline": "BOL", "bovada": "BOV",
        "pointsbet": "PB", "williamhill": "WH", "betway": "BWAY", "unibet": "UNI", "betparx": "PARX", "wynnbet": "WYNN",
        "superbook": "SB", "circa": "CIRCA", "fliff": "FLIFF", "prizepicks": "PP", "underdog": "UD", "betano": "BTNO",
        "bet365": "365", "thescore": "SCORE", "sportsinteraction": "SI", "betvictor": "BV",
    ]

    /// The three connections' decoders, and the odds stream's fast path held to the generic decoder's answer.
    static func fuzzTargets(_ corpus: [[UInt8]]) -> [FuzzTarget] {
        let adapters = feedConnections(settings: ProviderSettings(key: nil, restURL: "", webSocketURL: ""), filters: BoltOddsFilters())
        return FuzzTarget.adapters(adapters, corpus: corpus, fallback: #"{"action":"ping"}"#) + [
            FuzzTarget(name: "boltodds odds fast path", decode: { BoltOddsDecoders.fastAnswers($0) },
                       stillWorks: { corpus.contains { BoltOddsDecoders.fastAnswers($0) } },
                       disagrees: { !BoltOddsDecoders.agree($0) }),
            // A large frame read element by element as it arrives, held to the frame read whole.
            FuzzTarget(name: "boltodds odds elements", decode: { BoltOddsDecoders.elements($0, cuts: [$0.count / 3], now: Date()) != nil },
                       stillWorks: { corpus.contains { $0.first == UInt8(ascii: "[") && BoltOddsDecoders.elements($0, cuts: [7], now: Date())?.updates.isEmpty == false } },
                       disagrees: { !BoltOddsDecoders.elementsAgree($0) }),
            // A game's books' views merged for a store, held to the views folded one by one.
            FuzzTarget(name: "boltodds odds merged views", decode: { BoltOddsDecoders.fastAnswers($0) },
                       stillWorks: { corpus.contains { BoltOddsDecoders.fastAnswers($0) } },
                       disagrees: { !BoltOddsDecoders.mergedAgree($0) }),
        ]
    }
}

extension BoltOddsClient {
    /// What `/get_info` lists (sports, books), as it arrives.
    public func observeNames(_ observer: @escaping @Sendable (_ sports: [String], _ books: [String]) -> Void) {
        observeInfo(observer)
    }
}
