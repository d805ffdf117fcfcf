import OddsCommandSupport
import OddsModel
import OddsTransport

extension ProviderID {
    /// PulseScore: Bet365's prices and scores, one book.
    public static let pulsescore = ProviderID("pulsescore", displayName: "PulseScore", environmentName: "PULSESCORE",
                                              singleBook: "bet365", tag: "PS")
}

extension PulseScoreClient {
    /// PulseScore as the registry lists it.
    public static let descriptor = ProviderDescriptor(
        id: .pulsescore, restURL: defaultRESTURL, webSocketURL: defaultWebSocketURL,
        summary: "Bet365 odds; REST and WebSocket",
        notes: """
        Documented: REST https://api.pulsescore.net/api/v2/bet365 (live-events, leagues, events, events/{fi}, \
        per-sport prefixes) and WebSocket wss://api.pulsescore.net/api/v2/bet365/ws/live. Inferred (not in the \
        docs; configurable): live sports /live-events/sports (live_sports_path) and live event /live-events/{id} \
        (live_event_path), and the silence after which a connection is dead (no heartbeat is documented; \
        silence_seconds).
        """,
        options: [ProviderOption("live_sports_path", defaultLiveSportsPath, documented: false),
                  ProviderOption("live_event_path", defaultLiveEventPath, documented: false),
                  ProviderOption("ws_connections", String(defaultWebSocketConnections), documented: true),
                  ProviderOption("silence_seconds", "120", documented: false)],
        capabilities: [.restListings],
        commands: ProviderCommandGroup(PulseScoreCommand.self),
        make: { settings, transport, retry in PulseScoreClient(settings: settings, transport: transport, retry: retry) },
        fuzzTargets: fuzzTargets)

    /// The generic decoder, and the fast path with its event cache held to the generic decoder's answer.
    static func fuzzTargets(_ corpus: [[UInt8]]) -> [FuzzTarget] {
        let pulse = PulseScoreFeed(settings: ProviderSettings(key: nil, restURL: "", webSocketURL: ""), sport: "soccer")
        let valid = corpus.first { (try? pulse.decode($0, first: true)).map { !$0.isEmpty } ?? false }
            ?? Array(#"{"type":"data","timestamp":1,"events":[]}"#.utf8)
        var first = true
        let eventCache = PulseScoreEventCache()
        return [
            FuzzTarget(name: "pulsescore", decode: { bytes in
                defer { first = false }
                return (try? pulse.decode(bytes, first: first)) != nil
            }, stillWorks: { (try? pulse.decode(valid, first: false)) != nil }),
            FuzzTarget(name: "pulsescore fast path (event cache)", decode: { PulseScoreDecoders.fast($0, cache: eventCache) != nil },
                       stillWorks: { PulseScoreDecoders.agree(valid, cache: eventCache) },
                       disagrees: { !PulseScoreDecoders.agree($0, cache: eventCache) }),
        ]
    }
}
