import OddsBoltOdds
import OddsModel
import OddsPulseScore
import OddsSportsAPI
import OddsTickOdds
import OddsTransport

/// Every provider, in one list: a sixth provider is its module and one line here.
public enum ProviderRegistry {
    public static let descriptors: [ProviderDescriptor] = [
        PulseScoreClient.descriptor,
        TickOddsClient.descriptor,
        BoltOddsClient.descriptor,
        SportsAPIProClient.descriptor,
        SportsAPIProV1Client.descriptor,
    ]

    /// The provider used when neither flag, environment nor config names one.
    public static let defaultProvider = PulseScoreClient.descriptor.id

    /// Every provider's id, in the registry's order.
    public static var ids: [ProviderID] { descriptors.map(\.id) }

    public static func descriptor(_ id: ProviderID) -> ProviderDescriptor {
        descriptors.first { $0.id == id }!
    }

    /// The provider a user or a recording names (`tickodds`, `sportsapi-v1`; any case).
    public static func id(named name: String) -> ProviderID? {
        let name = name.lowercased()
        return descriptors.first { $0.id.rawValue == name }?.id
    }

    /// The providers whose clients exist.
    public static var supported: [ProviderID] { descriptors.filter(\.supported).map(\.id) }

    /// Fails with a usage error for a provider whose client is not built yet.
    public static func requireSupported(_ id: ProviderID) throws {
        guard descriptor(id).supported else { throw unsupported(id) }
    }

    private static func unsupported(_ id: ProviderID) -> OddsError {
        let names = supported.map(\.rawValue)
        let list = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names.joined()
        return .usage("\(id.displayName) is not supported yet; use --provider \(list).")
    }

    /// Builds the client for `id`; a provider not built yet is a usage error.
    public static func make(_ id: ProviderID, settings: ProviderSettings, transport: Transport,
                            retry: BackoffPolicy = .rest) throws -> any OddsProvider {
        try requireSupported(id)
        return descriptor(id).make(settings, transport, retry)
    }
}
