import OddsCommandSupport
import OddsModel
import OddsTransport

extension ProviderID {
    /// SportsAPIPro v2: channels of scores, incidents, statistics, lineups and several books' odds.
    public static let sportsapi = ProviderID("sportsapi", displayName: "SportsAPIPro v2", environmentName: "SPORTSAPI", tag: "S2")
    /// SportsAPIPro v1: scores over a per-sport WebSocket.
    public static let sportsapiV1 = ProviderID("sportsapi-v1", displayName: "SportsAPIPro v1", environmentName: "SPORTSAPI_V1", tag: "S1")
}

extension SportsAPIProClient {
    /// SportsAPIPro v2 as the registry lists it.
    public static let descriptor = ProviderDescriptor(
        id: .sportsapi, restURL: defaultRESTURL, webSocketURL: defaultWebSocketURL, restURLDocumented: false,
        summary: """
        SportsAPIPro v2: live scores, and per match incidents, statistics, lineups and odds from several books, \
        over one WebSocket of channels
        """,
        notes: """
        Documented: wss://v2.football.sportsapipro.com/ws (key as ?x-api-key=, or the x-api-key header with \
        key_in = "header"; x-sport header from --sport), its channels, and a ping every 30 s (ping_seconds; no \
        pong or data for two intervals: reconnect). Everything comes over the WebSocket: no REST is used. A \
        one-shot live table subscribes to the odds channel of each match it lists (at most 250) for its 1 / X / 2. \
        Inferred: the shapes of every channel's data (read as SofaScore-style events, incidents, statistics, \
        lineups and odds), the unsubscribe reply and the error message.
        """,
        options: [ProviderOption("key_in", "query", documented: true), ProviderOption("ping_seconds", "30", documented: true)],
        capabilities: [.books, .incidents, .stats, .lineups, .matchFocus, .changesOnly],
        commands: ProviderCommandGroup(SportsAPICommand.self),
        // The European books SofaScore lists, for price cells too narrow for the name (the US ones are BoltOdds'),
        bookShortNames: ["betfair": "BF", "1xbet": "1XB", "888sport": "888", "betsson": "BSSN", "paddypower": "PP",
                         "skybet": "SKY", "ladbrokes": "LAD", "coral": "COR", "marathonbet": "MAR", "betclic": "BCL",
                         "tipico": "TIP", "interwetten": "IW", "bwin": "BWIN",
                         // Odds in SofaScore's own shape name no book: the feed's own, named for the provider.
                         "sportsapi": "SAPI"],
        make: { settings, transport, _ in SportsAPIProClient(settings: settings, transport: transport) },
        fuzzTargets: { corpus in
            FuzzTarget.adapters(feedConnections(settings: ProviderSettings(key: nil, restURL: "", webSocketURL: ""), sport: nil),
                                corpus: corpus, fallback: #"{"type":"pong"}"#, check: .reads)
        })
}

extension SportsAPIProV1Client {
    /// SportsAPIPro v1 as the registry lists it.
    public static let descriptor = ProviderDescriptor(
        id: .sportsapiV1, restURL: defaultRESTURL, webSocketURL: defaultWebSocketURL, restURLDocumented: false,
        summary: "SportsAPIPro v1: live scores of nine sports",
        notes: """
        Documented: wss://v1.{sport}.sportsapipro.com/ws ({sport} is filled from --sport, default football), \
        channels and messages. Inferred: the game fields beyond team names and scores (365Scores-style \
        statusGroup, statusText, gameTime, competitors' redCards) and the ping message {"type":"ping"}.
        """,
        options: [ProviderOption("ping_seconds", "30", documented: false)],
        capabilities: [],
        sports: SportsAPIProV1Client.documentedSports,
        commands: ProviderCommandGroup(SportsAPIV1Command.self),
        make: { settings, transport, _ in SportsAPIProV1Client(settings: settings, transport: transport) },
        fuzzTargets: { corpus in
            FuzzTarget.adapters(feedConnections(settings: ProviderSettings(key: nil, restURL: "", webSocketURL: ""), sport: nil),
                                corpus: corpus, fallback: #"{"type":"pong"}"#, check: .reads)
        })

    /// The sports of v1's `connected` message, in its order.
    static let documentedSports = SportsAPIProWire.v1Sports
}

extension SportsAPIProClient {
    /// The match's own channels (its scoreboard and incidents), not a sport's.
    public func matchStream(eventID: String, sport: String?, stats: FeedStats) throws -> FeedStream {
        FeedRunner.run(try feed(sport: nil, channels: [.match(eventID), .incidents(eventID)]), transport: transport, stats: stats)
    }

    /// A SportsAPIPro match id need not be live to be followed (a match about to start).
    public func upcomingEvent(id: String, sport: String?) -> Event? {
        guard !id.isEmpty, id.allSatisfy(\.isNumber) else { return nil }
        return Event(provider: .sportsapi, id: id, sport: sport ?? "unknown", home: "", away: nil)
    }

    /// One feed whose match channels follow the dashboard's detail pane and rows.
    public func focusedStream(sport: String?, stats: FeedStats) throws -> (stream: FeedStream, focus: any MatchFocus)? {
        guard let connections = try focusedConnections(sport: sport) else { return nil }
        return (FeedRunner.run(connections.adapters, transport: transport, stats: stats), connections.focus)
    }

    /// The same connection for a feed that runs beside others (`odds dash --provider all`).
    public func focusedConnections(sport: String?) throws -> (adapters: [any FeedAdapter], focus: any MatchFocus)? {
        let adapter = try feed(sport: sport)
        return ([adapter], MatchChannelFocus(feed: adapter))
    }
}

extension MatchChannelFocus: MatchFocus {}
