import Foundation
import OddsModel

/// A provider's REST access: rate limited on the client side, retrying 429 and 5xx with
/// exponential backoff, mapping statuses to `OddsError`.
public struct RESTClient: Sendable {
    public let provider: ProviderID
    public let transport: Transport
    public let limiter: RateLimiter?
    public var retry: BackoffPolicy
    /// The longest `Retry-After` waited for; a longer one fails at once and says how long to wait.
    public var maxRetryAfter: TimeInterval = 30
    /// The provider's limit in words, for the line shown while waiting for it ("12 requests a minute").
    public var limiterNote: String?

    public init(provider: ProviderID, transport: Transport, limiter: RateLimiter?, retry: BackoffPolicy = .rest) {
        self.provider = provider; self.transport = transport; self.limiter = limiter; self.retry = retry
    }

    /// GETs `url` and returns the body of a 2xx answer.
    public func get(_ url: String, headers: [(String, String)], what: String) async throws -> [UInt8] {
        try await request(url, headers: headers, post: nil, what: what)
    }

    /// POSTs a JSON body to `url` (not rate limited on the client: no provider documents a limit for
    /// its POSTs) and returns the body of a 2xx answer.
    public func post(_ url: String, headers: [(String, String)], json body: [UInt8], what: String) async throws -> [UInt8] {
        try await request(url, headers: headers, post: body, what: what)
    }

    private func request(_ url: String, headers: [(String, String)], post body: [UInt8]?, what: String) async throws -> [UInt8] {
        var attempt = 0
        while true {
            if let limiter, body == nil {
                let wait = await limiter.reserve()
                // Long waits (BoltOdds: 12 requests a minute) are said, so that a pause is not taken for a hang.
                if wait >= 1 {
                    transport.logger.warning("waiting \(Int(wait.rounded(.up))) s: \(provider.displayName) allows \(limiterNote ?? "only so many requests")")
                }
                if wait > 0 { try await transport.clock.sleep(wait) }
            }
            let result: HTTPResult
            do {
                if let body { result = try await transport.post(url, headers: headers, json: body) }
                else { result = try await transport.get(url, headers: headers) }
            } catch let error as TransportError {
                throw OddsError.network("Cannot reach \(provider.displayName) at \(transport.redactor.redact(url)): \(error).")
            }
            switch result.status {
            case 200..<300:
                if let tap = transport.frameTap { result.body.withUnsafeBufferPointer { tap.frame(feed: "\(provider.rawValue)/rest", bytes: $0, at: Date()) } }
                return result.body
            case 401:
                throw OddsError.authentication(provider, "HTTP 401, invalid or missing API key")
            case 403:
                throw OddsError.accessDenied(provider, "HTTP 403 for \(what)")
            case 404:
                throw OddsError.notFound("\(provider.displayName) has no \(what) (HTTP 404).")
            case 429, 500..<600:
                attempt += 1
                let after = result.header("Retry-After").flatMap { retryAfterSeconds($0, now: Date()) }
                if result.status == 429, let after, after > maxRetryAfter {
                    throw OddsError.rateLimited(provider, retryAfter: Int(after.rounded(.up)))
                }
                guard retry.allows(attempt: attempt) else {
                    if result.status == 429 { throw OddsError.rateLimited(provider) }
                    throw OddsError.provider(provider, "server error HTTP \(result.status) for \(what)")
                }
                // The server's wait is a floor: retrying earlier would only be refused again.
                let delay = max(retry.delay(attempt: attempt), min(after ?? 0, maxRetryAfter))
                transport.logger.info("\(provider.displayName) answered HTTP \(result.status); retry \(attempt) in \(delay)s")
                try await transport.clock.sleep(delay)
            default:
                throw OddsError.provider(provider, "unexpected HTTP \(result.status) for \(what)")
            }
        }
    }
}

/// A `Retry-After` value in seconds from now: delta-seconds ("120") or an HTTP-date
/// ("Wed, 21 Oct 2026 07:28:00 GMT"). Nil when unreadable.
func retryAfterSeconds(_ value: String, now: Date) -> TimeInterval? {
    let text = value.trimmingCharacters(in: .whitespaces)
    // A number must be a sane count of seconds: `inf`, `1e400` (also inf), NaN and negatives are unreadable.
    if let seconds = Double(text) { return seconds.isFinite && seconds >= 0 && seconds < 1e9 ? seconds : nil }
    let format = DateFormatter()
    format.locale = Locale(identifier: "en_US_POSIX")
    format.timeZone = TimeZone(identifier: "GMT")
    format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    return format.date(from: text).map { max(0, $0.timeIntervalSince(now)) }
}
