/// Every failure the tool reports to a user, each with one sentence and a documented exit code.
public enum OddsError: Error, Hashable, Sendable {
    /// Bad arguments or an unsupported choice.
    case usage(String)
    /// No API key configured for a provider.
    case missingKey(ProviderID)
    /// A config file that cannot be read.
    case config(String)
    /// The provider rejected the key (HTTP 401, close 4001/4010).
    case authentication(ProviderID, String)
    /// The plan does not allow this (HTTP 403, close 4003/4005/4029).
    case accessDenied(ProviderID, String)
    case notFound(String)
    /// HTTP 429 after the client's own backoff gave up, or with a `Retry-After` (seconds) too long to wait for.
    case rateLimited(ProviderID, retryAfter: Int? = nil)
    /// The provider could not be reached, or the connection failed.
    case network(String)
    /// The provider answered with something the client cannot use.
    case provider(ProviderID, String)
    /// Writing output failed (a full disk, a closed file): exit 1.
    case output(String)
    /// The history database cannot be opened, read or written (unreachable, not writable, another writer,
    /// a schema newer than this program): exit 9.
    case history(String)
    /// A command that waits for something (`odds alert --timeout`) saw nothing before its time was up: exit 10.
    case quiet(String)
    /// Some of the input was refused and the rest kept (`odds bets import`): exit 11.
    case partial(String)

    /// The process exit code; the README and man page list these.
    public var exitCode: Int32 {
        switch self {
        case .usage: return 64
        case .missingKey, .config: return 2
        case .authentication: return 3
        case .accessDenied: return 4
        case .notFound: return 5
        case .rateLimited: return 6
        case .network: return 7
        case .provider: return 8
        case .output: return 1
        case .history: return 9
        case .quiet: return 10
        case .partial: return 11
        }
    }

    /// One sentence for the user. Never contains an API key: callers redact what they pass in. A
    /// provider's own words in it are cut to `ProviderText.excerptLimit`.
    public var message: String {
        switch self {
        case .usage(let m), .config(let m), .notFound(let m), .network(let m), .output(let m), .history(let m), .quiet(let m),
             .partial(let m): return m
        case .missingKey(let p):
            return "No API key for \(p.displayName): set ODDS_\(p.environmentName)_KEY or `key` under [\(p.configName)] in the config file (or use --demo)."
        case .authentication(let p, let m): return "\(p.displayName) rejected the API key: \(ProviderText.excerpt(m))."
        case .accessDenied(let p, let m): return "\(p.displayName) denied access (plan limit): \(ProviderText.excerpt(m))."
        case .rateLimited(let p, nil):
            return "\(p.displayName) rate limit exceeded (HTTP 429) and retries did not help; try again later."
        case .rateLimited(let p, let seconds?):
            return "\(p.displayName) rate limit exceeded (HTTP 429); it asks to wait \(seconds) s before the next request."
        case .provider(let p, let m): return "\(p.displayName): \(ProviderText.excerpt(m))."
        }
    }
}
