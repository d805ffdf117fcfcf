import OddsModel
import OddsTransport

extension ProviderID {
    /// TickOdds: its own prices (one book), scores and incidents.
    public static let tickodds = ProviderID("tickodds", displayName: "TickOdds", environmentName: "TICKODDS",
                                            singleBook: "tickodds")
}

extension TickOddsClient {
    /// TickOdds as the registry lists it.
    public static let descriptor = ProviderDescriptor(
        id: .tickodds, restURL: defaultRESTURL, webSocketURL: defaultWebSocketURL,
        options: [ProviderOption("key_header", defaultKeyHeader, documented: false),
                  ProviderOption("heartbeat_seconds", "15", documented: true)],
        capabilities: [.incidents, .restListings],
        make: { settings, transport, retry in TickOddsClient(settings: settings, transport: transport, retry: retry) })
}
