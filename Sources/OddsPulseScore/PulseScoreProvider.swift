import OddsModel
import OddsTransport

extension ProviderID {
    /// PulseScore: Bet365's prices and scores, one book.
    public static let pulsescore = ProviderID("pulsescore", displayName: "PulseScore", environmentName: "PULSESCORE",
                                              singleBook: "bet365")
}

extension PulseScoreClient {
    /// PulseScore as the registry lists it.
    public static let descriptor = ProviderDescriptor(
        id: .pulsescore, restURL: defaultRESTURL, webSocketURL: defaultWebSocketURL,
        options: [ProviderOption("live_sports_path", defaultLiveSportsPath, documented: false),
                  ProviderOption("live_event_path", defaultLiveEventPath, documented: false),
                  ProviderOption("ws_connections", String(defaultWebSocketConnections), documented: true)],
        capabilities: [.restListings],
        make: { settings, transport, retry in PulseScoreClient(settings: settings, transport: transport, retry: retry) })
}
