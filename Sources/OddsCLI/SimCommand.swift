import ArgumentParser
import OddsCommandSupport
import Foundation
import OddsModel
import OddsProviders
import OddsSimulator

extension SimScenario: ExpressibleByArgument, ArgumentByName {}

/// `odds sim`: the protocol simulator as a standalone server.
struct Sim: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "Run the built-in simulator of every provider.",
        discussion: """
        Serves PulseScore, TickOdds, BoltOdds, SportsAPIPro v2 and SportsAPIPro v1 (REST and WebSockets) on \
        127.0.0.1 until interrupted, and prints the environment that points odds at it. It serves the simulated \
        world only: no URL injects faults (the tests do that in process).
        """)

    @Option(name: .long, help: "Port to listen on (0 picks a free one).")
    var port = 0
    @Option(name: .long, help: "Seed of the simulated world.")
    var seed: UInt64 = 42
    @Option(name: .long, help: "Seconds between world ticks (0: the world stands still). Default: 1, or the scenario's.")
    var tick: Double?
    @Option(name: .long, help: "Load pattern: normal (the demo's pace) or firehose (200 ticks a second, for memory and speed measurements).")
    var scenario: SimScenario = .normal
    @Option(name: .long, help: "TickOdds heartbeat interval in seconds.")
    var heartbeat: Double = 15
    @Option(name: .long, help: "Seconds between server pings.")
    var ping: Double = 15
    @Option(name: .long, help: "API key the simulator accepts (MAX plan).")
    var key = "demo-key"
    @Option(name: .long, help: "An extra key on the BASIC plan (REST only; the WebSocket closes 4003).")
    var basicKey: String?
    @Flag(name: .long, help: "Do not enforce the 3 requests/second limit.")
    var noRateLimit = false
    @Option(name: .long, help: ArgumentHelp("Serve HTTPS and WSS with this PEM certificate chain (with --tls-key).", valueName: "pem-file"))
    var tlsCert: String?
    @Option(name: .long, help: ArgumentHelp("The PEM private key of --tls-cert.", valueName: "pem-file"))
    var tlsKey: String?

    func validate() throws {
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together.") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535.") }
        guard (tick ?? 0) >= 0, (tick ?? 0).isFinite, heartbeat > 0, ping > 0 else { throw ValidationError("--tick must be ≥ 0; --heartbeat and --ping > 0.") }
    }

    func run() async throws {
        var options = Simulator.Options(scenario: scenario)
        options.port = port
        options.seed = seed
        if let tick { options.tickInterval = tick }
        options.heartbeatInterval = heartbeat
        options.pingInterval = ping
        options.keys = [key: .max]
        if let basicKey { options.keys[basicKey] = .basic }
        options.enforceRateLimit = !noRateLimit
        if let tlsCert, let tlsKey { options.tls = .init(certificateChainFile: tlsCert, privateKeyFile: tlsKey) }
        let sim = Simulator(options: options)
        do { try sim.start() } catch {
            await sim.stop()
            throw OddsError.network("Cannot start the simulator on 127.0.0.1\(port == 0 ? "" : ":\(port)"): \(error).")
        }
        let io = IOContext()
        io.out(Sim.exports(sim))
        _ = try await untilInterrupted {
            while !Task.isCancelled { try await Task.sleep(nanoseconds: 3_600_000_000_000) }
        }
        await sim.stop()
    }

    /// The shell lines that point odds at `sim`: each simulated provider's URLs and settings, in the
    /// registry's order (a value with shell-special characters, like v1's `{sport}`, in single quotes).
    static func exports(_ sim: Simulator) -> String {
        func quoted(_ v: String) -> String {
            v.allSatisfy { $0.isLetter || $0.isNumber || ":/._-".contains($0) } ? v : "'\(v)'"
        }
        var lines = ["# odds simulator (demo data) listening on \(sim.baseURL)"]
        for descriptor in ProviderRegistry.descriptors {
            guard let endpoints = sim.endpoints(forProvider: descriptor.id.rawValue) else { continue }
            let prefix = "export ODDS_\(descriptor.id.environmentName)_"
            if let rest = endpoints.restURL { lines.append(prefix + "URL=" + quoted(rest)) }
            lines.append(prefix + "WS_URL=" + quoted(endpoints.webSocketURL))
            for (key, value) in endpoints.options { lines.append(prefix + key.uppercased() + "=" + quoted(value)) }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
