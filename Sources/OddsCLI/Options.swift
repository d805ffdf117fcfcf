import ArgumentParser
import OddsModel
import OddsOutput
import OddsProviders
import OddsCommandSupport

extension ProviderID: ExpressibleByArgument {
    public init?(argument: String) {
        guard let id = ProviderRegistry.id(named: argument) else { return nil }
        self = id
    }
    public static var allValueStrings: [String] { ProviderRegistry.ids.map(\.rawValue) }
    public var defaultValueDescription: String { rawValue }
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// `--provider` for the provider-neutral commands.
public struct ProviderOption: ParsableArguments {
    @Option(name: .customLong("provider"), help: ArgumentHelp(
        "Provider: pulsescore, tickodds, boltodds, sportsapi or sportsapi-v1; for odds live, stream, dash, watch and record also all, or a comma list (one row per real match across them). Default: config, else pulsescore.",
        valueName: "provider"))
    var choice: ProviderChoice?

    /// The one provider asked for; a list is refused where a command takes one.
    var provider: ProviderID? {
        get throws {
            switch choice {
            case nil: return nil
            case .one(let id): return id
            case .several: throw OddsError.usage("--provider all (or a list) works with odds live, stream, dash, watch and record; name one provider.")
            }
        }
    }

    public init() {}
}

/// `--provider`: one provider, `all`, or a comma-separated list.
enum ProviderChoice: ExpressibleByArgument, Equatable {
    case one(ProviderID)
    /// `all` is true for `--provider all`: every provider with a key; a list names its own.
    case several([ProviderID], all: Bool)

    init?(argument: String) {
        let words = argument.lowercased().split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
        if words == ["all"] { self = .several(ProviderRegistry.ids, all: true); return }
        let ids = words.compactMap(ProviderRegistry.id(named:))
        guard !ids.isEmpty, ids.count == words.count else { return nil }
        var seen = Set<ProviderID>()
        let unique = ids.filter { seen.insert($0).inserted }
        self = unique.count == 1 ? .one(unique[0]) : .several(unique, all: false)
    }

    static var allValueStrings: [String] { ProviderID.allValueStrings + ["all"] }
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

