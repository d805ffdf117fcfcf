import NIOCore
import NIOHTTP1

/// A REST answer: status, body, extra headers.
typealias SimAnswer = (Int, String, [(String, String)])

/// One provider's side of the simulator, as the server core sees it: where it is served, its REST
/// answers, its WebSocket upgrades and connections, and what it keeps of each world tick. The core
/// (`Simulator`, `SimHTTPHandler`) asks each service in turn and never which provider it is; a
/// provider's service lives beside its wire formatting (`TickOddsSim.swift`, `BoltOddsREST.swift`, …).
/// Every closure runs on the simulator's loop.
struct SimService: Sendable {
    /// The provider served, by the registry's id.
    let provider: SimProvider
    /// REST base path under the simulator's base URL; nil when the provider has no REST here.
    let restPath: String?
    /// WebSocket path under the simulator's WebSocket base URL.
    let webSocketPath: String
    /// Client settings by config key, from the simulator (BoltOdds' `pbp_url`).
    var options: @Sendable (Simulator) -> [(key: String, value: String)] = { _ in [] }
    /// The answer to a REST request that is this provider's; nil for one that is not.
    let route: @Sendable (Simulator, HTTPRequestHead, _ path: String, _ query: [String: String], _ body: [UInt8]) -> SimAnswer?
    /// For a WebSocket upgrade: nil when the path is not this provider's, else whether it is accepted.
    let acceptsUpgrade: @Sendable (Simulator, HTTPRequestHead, _ path: String, _ query: [String: String]) -> Bool?
    /// Adds the connection handler of an accepted upgrade.
    let connect: @Sendable (Simulator, Channel, HTTPRequestHead, _ path: String) -> EventLoopFuture<Void>
    /// Keeps what the provider needs of a world tick, before the connections hear of it.
    var tick: @Sendable (Simulator, [SimChange]) -> Void = { _, _ in }
}

extension Simulator {
    /// Every simulated provider, in the registry's order.
    static let services: [SimService] = [.pulseScore, .tickOdds, .boltOdds, .sportsAPIV2, .sportsAPIV1]

    func service(_ provider: SimProvider) -> SimService? { Simulator.services.first { $0.provider == provider } }
}
