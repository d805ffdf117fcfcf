import Foundation
import OddsModel

/// Where and how to reach one provider: resolved from defaults, config, environment and flags.
public struct ProviderSettings: Sendable, Hashable {
    public var key: String?
    /// REST base URL, e.g. `https://api.pulsescore.net/api/v2/bet365`.
    public var restURL: String
    /// WebSocket URL, e.g. `wss://api.pulsescore.net/api/v2/bet365/ws/live`.
    public var webSocketURL: String
    /// Provider-specific settings (paths the docs omit, heartbeat interval), by config key.
    public var options: [String: String]

    public init(key: String?, restURL: String, webSocketURL: String, options: [String: String] = [:]) {
        self.key = key; self.restURL = restURL; self.webSocketURL = webSocketURL; self.options = options
    }

    /// The key, or the one-sentence missing-key error.
    public func requireKey(_ provider: ProviderID) throws -> String {
        guard let key, !key.isEmpty else { throw OddsError.missingKey(provider) }
        return key
    }
}

/// What every provider with live events offers. Providers add their own operations on their
/// concrete types; the `odds` top-level commands use only this.
public protocol OddsProvider: Sendable {
    var id: ProviderID { get }
    /// Live events, optionally of one sport (slug).
    func liveEvents(sport: String?) async throws -> [Event]
    /// The live matches of `sport` without what only a view of their prices needs: what finding one match
    /// by name or id asks (`odds watch`'s look-up). By default, `liveEvents`.
    func liveList(sport: String?) async throws -> [Event]
    /// Sports with live events now.
    func liveSports() async throws -> [SportCount]
    /// One live event by the provider's id.
    func liveEvent(id: String) async throws -> Event
    /// The live push feed's connections for one sport (nil: all the provider allows), one adapter
    /// each. Replays decode recordings through them too.
    func feedConnections(sport: String?) -> [any FeedAdapter]
    /// The live push feed of one sport (nil: all the provider allows).
    func stream(sport: String?, stats: FeedStats) -> FeedStream
    /// Seconds without a message after which this feed's data is stale (its connection is then replaced).
    var stalenessBound: TimeInterval { get }
    /// A connection a recording names that `feedConnections(sport:)` did not make; nil when none.
    func feedConnection(named feed: String, sport: String?) -> (any FeedAdapter)?
    /// Resolves what the user asked for (sport, books) with the provider before any connection,
    /// failing with a usage error for an unknown value. Most providers need nothing.
    func prepare(sport: String?, books: [String]) async throws
    /// The live feed that follows one match (`odds watch`); by default the sport's stream.
    func matchStream(eventID: String, sport: String?, stats: FeedStats) throws -> FeedStream
    /// A match `odds watch` may follow by its id before it is live; nil when only live matches can be.
    func upcomingEvent(id: String, sport: String?) -> Event?
    /// A live feed whose per-match channels follow what the dashboard shows (the detail pane, the
    /// rows on screen); nil when the provider sends everything on its stream.
    func focusedStream(sport: String?, stats: FeedStats) throws -> (stream: FeedStream, focus: any MatchFocus)?
    /// The feed's connections with the handle that points their per-match channels at the matches shown, for a
    /// feed that runs beside others (the fused dashboard); nil for a provider without such channels.
    func focusedConnections(sport: String?) throws -> (adapters: [any FeedAdapter], focus: any MatchFocus)?
    /// Hands `observer` the sports and books the provider lists as it learns them (shell completion).
    func observeNames(_ observer: @escaping @Sendable (_ sports: [String], _ books: [String]) -> Void)
}

extension OddsProvider {
    public func liveList(sport: String?) async throws -> [Event] { try await liveEvents(sport: sport) }
    public func prepare(sport: String?, books: [String]) async throws {}
    public func matchStream(eventID: String, sport: String?, stats: FeedStats) throws -> FeedStream { stream(sport: sport, stats: stats) }
    public func upcomingEvent(id: String, sport: String?) -> Event? { nil }
    public func focusedStream(sport: String?, stats: FeedStats) throws -> (stream: FeedStream, focus: any MatchFocus)? { nil }
    public func focusedConnections(sport: String?) throws -> (adapters: [any FeedAdapter], focus: any MatchFocus)? { nil }
    public func observeNames(_ observer: @escaping @Sendable (_ sports: [String], _ books: [String]) -> Void) {}

    /// A connection a recording names that `feedConnections(sport:)` did not make (a replay of
    /// another sport selection), of a sport `sport` asks for; nil when the provider has none.
    public func feedConnection(named feed: String, sport: String?) -> (any FeedAdapter)? { nil }
}

/// Joins a base URL and a path with exactly one slash. A query or fragment on the base stays at
/// the end (`https://h/api?x=1` + `/events` → `https://h/api/events?x=1`).
public func joinURL(_ base: String, _ path: String) -> String {
    var b = base
    var tail = ""
    if let cut = b.firstIndex(where: { $0 == "?" || $0 == "#" }) {
        tail = String(b[cut...])
        b = String(b[..<cut])
    }
    while b.hasSuffix("/") { b.removeLast() }
    var joined = path.hasPrefix("/") ? b + path : b + "/" + path
    guard !tail.isEmpty else { return joined }
    // The path's own query (if any) and the base's are joined with '&'.
    if tail.hasPrefix("?"), joined.contains("?") { tail = "&" + tail.dropFirst() }
    joined += tail
    return joined
}

/// Percent-encodes a query value.
public func queryEscape(_ value: String) -> String {
    let allowed = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    var out = ""
    for byte in value.utf8 {
        if allowed.utf8.contains(byte) { out.append(Character(Unicode.Scalar(byte))) }
        else { out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2) }
    }
    return out
}

/// Appends `name=value` pairs to a URL that may already have a query.
public func appendQuery(_ url: String, _ items: [(String, String)]) -> String {
    guard !items.isEmpty else { return url }
    let q = items.map { "\(queryEscape($0.0))=\(queryEscape($0.1))" }.joined(separator: "&")
    return url + (url.contains("?") ? "&" : "?") + q
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
