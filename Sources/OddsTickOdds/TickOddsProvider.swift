import OddsCommandSupport
import OddsModel
import OddsTransport

extension ProviderID {
    /// TickOdds: its own prices (one book), scores and incidents.
    public static let tickodds = ProviderID("tickodds", displayName: "TickOdds", environmentName: "TICKODDS",
                                            singleBook: "tickodds", tag: "TO")
}

extension TickOddsClient {
    /// TickOdds as the registry lists it.
    public static let descriptor = ProviderDescriptor(
        id: .tickodds, restURL: defaultRESTURL, webSocketURL: defaultWebSocketURL, restURLDocumented: false,
        summary: "scores, clock, incidents and odds; REST and WebSocket",
        notes: """
        Documented: WebSocket wss://api.tickodds.com/ws/live and REST /api/v1/live/events, /events/{id}, \
        /sports, /status. Inferred (not in the docs; configurable): the REST host https://api.tickodds.com, \
        its key header X-API-Key (key_header; key_in = "query" sends ?apiKey= instead), the league field, and \
        how it refuses a key without the Live plan (HTTP 403 at the upgrade: exit 4) or over 50 connections \
        (HTTP 429 at the upgrade: retried with backoff). TickOdds documents no close codes: every close reconnects.
        """,
        options: [ProviderOption("key_header", defaultKeyHeader, documented: false),
                  ProviderOption("key_in", "header", documented: false),
                  ProviderOption("heartbeat_seconds", "15", documented: true)],
        capabilities: [.incidents, .restListings],
        commands: ProviderCommandGroup(TickOddsCommand.self),
        bookShortNames: ["tickodds": "TickO"],
        make: { settings, transport, retry in TickOddsClient(settings: settings, transport: transport, retry: retry) },
        fuzzTargets: fuzzTargets)

    /// The generic decoder (all sports and one), and the fast path alone and with its market cache,
    /// each held to the generic decoder's answer.
    static func fuzzTargets(_ corpus: [[UInt8]]) -> [FuzzTarget] {
        let settings = ProviderSettings(key: nil, restURL: "", webSocketURL: "")
        let tick = TickOddsFeed(settings: settings, sport: nil)
        let tickSoccer = TickOddsFeed(settings: settings, sport: "soccer")
        let valid = corpus.first { (try? tick.decode($0, first: false)).map { !$0.isEmpty } ?? false }
            ?? Array(#"{"type":"heartbeat","timestamp":"2026-11-22T04:39:37Z"}"#.utf8)
        let marketCache = TickOddsMarketCache()
        return [
            FuzzTarget(name: "tickodds", decode: { (try? tick.decode($0, first: false)) != nil },
                       stillWorks: { (try? tick.decode(valid, first: false)) != nil }),
            FuzzTarget(name: "tickodds (soccer filter)", decode: { (try? tickSoccer.decode($0, first: false)) != nil },
                       stillWorks: { (try? tickSoccer.decode(valid, first: false)) != nil }),
            FuzzTarget(name: "tickodds fast path", decode: { TickOddsDecoders.fast($0) != nil },
                       stillWorks: { TickOddsDecoders.fast(valid) != nil || TickOddsDecoders.fallsBack(valid) },
                       disagrees: { !TickOddsDecoders.agree($0) }),
            FuzzTarget(name: "tickodds fast path (market cache)", decode: { TickOddsDecoders.fast($0, cache: marketCache) != nil },
                       stillWorks: { TickOddsDecoders.agree(valid, cache: marketCache) },
                       disagrees: { !TickOddsDecoders.agree($0, cache: marketCache) }),
        ]
    }
}
