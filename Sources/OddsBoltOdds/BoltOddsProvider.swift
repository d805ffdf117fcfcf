import OddsModel
import OddsTransport

extension ProviderID {
    /// BoltOdds: many sportsbooks' prices, play-by-play and live scores.
    public static let boltodds = ProviderID("boltodds", displayName: "BoltOdds", environmentName: "BOLTODDS")
}

extension BoltOddsClient {
    /// BoltOdds as the registry lists it.
    public static let descriptor = ProviderDescriptor(
        id: .boltodds, restURL: defaultRESTURL, webSocketURL: defaultWebSocketURL,
        options: [ProviderOption("pbp_url", defaultPlayByPlayURL, documented: false),
                  ProviderOption("scores_url", defaultLiveScoresURL, documented: false),
                  ProviderOption("when_timezone", BoltOddsTime.defaultZone, documented: false)],
        capabilities: [.books, .incidents, .restListings],
        make: { settings, transport, retry in BoltOddsClient(settings: settings, transport: transport, retry: retry) },
        fuzzTargets: fuzzTargets)

    /// The three connections' decoders, and the odds stream's fast path held to the generic decoder's answer.
    static func fuzzTargets(_ corpus: [[UInt8]]) -> [FuzzTarget] {
        let adapters = feedConnections(settings: ProviderSettings(key: nil, restURL: "", webSocketURL: ""), filters: BoltOddsFilters())
        return FuzzTarget.adapters(adapters, corpus: corpus, fallback: #"{"action":"ping"}"#) + [
            FuzzTarget(name: "boltodds odds fast path", decode: { BoltOddsDecoders.fastAnswers($0) },
                       stillWorks: { corpus.contains { BoltOddsDecoders.fastAnswers($0) } },
                       disagrees: { !BoltOddsDecoders.agree($0) }),
        ]
    }
}

extension BoltOddsClient {
    /// What `/get_info` lists (sports, books), as it arrives.
    public func observeNames(_ observer: @escaping @Sendable (_ sports: [String], _ books: [String]) -> Void) {
        observeInfo(observer)
    }
}
