import OddsBoltOdds
import OddsModel
import OddsPulseScore
import OddsSportsAPI
import OddsTickOdds
import OddsTransport

/// Every provider, registered by id in one place: defaults, documented-or-inferred status,
/// and how to build its client.
public enum ProviderRegistry {
    /// Defaults for one provider.
    public struct Entry: Sendable {
        public var id: ProviderID
        public var restURL: String
        public var webSocketURL: String
        /// False for providers whose client is not built yet.
        public var supported: Bool
        /// Default values of provider-specific options, with whether the provider documents them.
        public var options: [(key: String, value: String, documented: Bool)]
    }

    public static let entries: [Entry] = [
        Entry(id: .pulsescore, restURL: PulseScoreClient.defaultRESTURL, webSocketURL: PulseScoreClient.defaultWebSocketURL,
              supported: true, options: [
                  ("live_sports_path", PulseScoreClient.defaultLiveSportsPath, false),
                  ("live_event_path", PulseScoreClient.defaultLiveEventPath, false),
                  ("ws_connections", String(PulseScoreClient.defaultWebSocketConnections), true),
              ]),
        Entry(id: .tickodds, restURL: TickOddsClient.defaultRESTURL, webSocketURL: TickOddsClient.defaultWebSocketURL,
              supported: true, options: [
                  ("key_header", TickOddsClient.defaultKeyHeader, false),
                  ("heartbeat_seconds", "15", true),
              ]),
        Entry(id: .boltodds, restURL: BoltOddsClient.defaultRESTURL, webSocketURL: BoltOddsClient.defaultWebSocketURL,
              supported: true, options: [
                  ("pbp_url", BoltOddsClient.defaultPlayByPlayURL, false),
                  ("scores_url", BoltOddsClient.defaultLiveScoresURL, false),
                  ("when_timezone", BoltOddsTime.defaultZone, false),
              ]),
        Entry(id: .sportsapi, restURL: SportsAPIProClient.defaultRESTURL, webSocketURL: SportsAPIProClient.defaultWebSocketURL,
              supported: true, options: [
                  ("key_in", "query", true),
                  ("ping_seconds", "30", true),
              ]),
        Entry(id: .sportsapiV1, restURL: SportsAPIProV1Client.defaultRESTURL, webSocketURL: SportsAPIProV1Client.defaultWebSocketURL,
              supported: true, options: [
                  ("ping_seconds", "30", false),
              ]),
    ]

    public static func entry(_ id: ProviderID) -> Entry {
        entries.first { $0.id == id }!
    }

    /// The providers whose clients exist.
    public static var supported: [ProviderID] { entries.filter(\.supported).map(\.id) }

    /// Fails with a usage error for a provider whose client is not built yet.
    public static func requireSupported(_ id: ProviderID) throws {
        guard entry(id).supported else { throw unsupported(id) }
    }

    private static func unsupported(_ id: ProviderID) -> OddsError {
        let names = supported.map(\.rawValue)
        let list = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names.joined()
        return .usage("\(id.displayName) is not supported yet; use --provider \(list).")
    }

    /// Builds the client for `id`; a provider not built yet is a usage error.
    public static func make(_ id: ProviderID, settings: ProviderSettings, transport: Transport,
                            retry: BackoffPolicy = .rest) throws -> any OddsProvider {
        switch id {
        case .pulsescore: return PulseScoreClient(settings: settings, transport: transport, retry: retry)
        case .tickodds: return TickOddsClient(settings: settings, transport: transport, retry: retry)
        case .boltodds: return BoltOddsClient(settings: settings, transport: transport, retry: retry)
        case .sportsapi: return SportsAPIProClient(settings: settings, transport: transport)
        case .sportsapiV1: return SportsAPIProV1Client(settings: settings, transport: transport)
        }
    }
}
