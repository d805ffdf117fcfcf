import Foundation
import Testing

/// Runs the built `odds` binary as a user would.
public struct CLI {
    public struct Result {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        /// When the process exited (not when the test saw it).
        public var exitedAt: Date
        /// Seconds the process ran, from its start to its exit.
        public var seconds: TimeInterval
        public var all: String { stdout + stderr }
    }

    /// The `odds` executable next to this test bundle.
    public static var binary: URL {
        Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent("odds")
    }

    /// A clean environment: no keys, an empty config directory, frozen demo world.
    public static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("odds-cli-test-config").path
        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": config,
                   "XDG_CONFIG_HOME": config, "ODDS_DEMO_TICK": "0", "LANG": "C.UTF-8"]
        for (k, v) in extra { env[k] = v }
        return env
    }

    /// Runs the binary with `args`; kills it after `timeout` seconds. `whileRunning` may act on the live process.
    @discardableResult
    public static func run(_ args: [String], env: [String: String] = environment(), timeout: Double = 60, executable: URL = binary,
                    whileRunning: ((Subprocess, () -> String) async throws -> Void)? = nil) async throws -> Result {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw Fixture.FixtureMissing(name: "\(executable.path) (build the package first: swift build)")
        }
        // Each command runs its own simulator and event loops: a few at once keep two cores busy, dozens at once
        // leave every test's waits (and the in-process servers of the other suites) without CPU. A command run while
        // the test's task already holds a slot (a command beside a running one) takes none, so none waits on itself.
        if !CLISlots.held {
            await CLISlots.shared.acquire()
            do {
                let result = try await CLISlots.$held.withValue(true) {
                    try await run(args, env: env, timeout: timeout, executable: executable, whileRunning: whileRunning)
                }
                await CLISlots.shared.release()
                return result
            } catch {
                await CLISlots.shared.release()
                throw error
            }
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("odds-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out"), err = dir.appendingPathComponent("err")
        let started = Date()
        let process = try Subprocess(executable.path, args, environment: env, stdout: out.path, stderr: err.path)
        if let whileRunning {
            do {
                try await whileRunning(process) { (try? String(contentsOf: out, encoding: .utf8)) ?? "" }
            } catch {
                // What the command said is what explains a wait that failed (it may have exited long before).
                let status = process.poll().map { "exited \($0)" } ?? "still running"
                process.signal(SIGKILL)
                _ = try? await process.exit(timeout: 5, what: "odds")
                let said = (try? String(contentsOf: err, encoding: .utf8)) ?? ""
                throw Failed(what: "\(error) (odds \(args.joined(separator: " ")): \(status); its stderr: \(said.suffix(2000)))")
            }
        }
        let remaining = max(1, timeout - Date().timeIntervalSince(started))
        let status: Int32
        do {
            status = try await process.exit(timeout: remaining, what: "odds \(args.joined(separator: " "))")
        } catch {
            // A command that would not exit: what it last said explains where it was.
            let said = (try? String(contentsOf: err, encoding: .utf8)) ?? ""
            let wrote = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
            // When it ended, as its own thread saw it: long before the timeout means this test was not run in time.
            let ran = process.runTime.map { String(format: "%.1f s", $0) } ?? "?"
            throw Failed(what: "\(error); it ran \(ran) of \(String(format: "%.1f", timeout)) s; its stderr: \(said.suffix(2000)); the end of its stdout: \(wrote.suffix(600))")
        }
        let exitedAt = process.exitedAt ?? Date()
        return Result(status: status, stdout: try String(contentsOf: out, encoding: .utf8),
                      stderr: try String(contentsOf: err, encoding: .utf8), exitedAt: exitedAt,
                      seconds: exitedAt.timeIntervalSince(process.started))
    }

    /// A wait on a running command that failed, with what the command wrote to stderr.
    public struct Failed: Error, CustomStringConvertible {
        public var what: String
        public var description: String { what }
    }

    /// Replaces timestamps, which change from run to run.
    public static func mask(_ text: String) -> String {
        text.replacing(try! Regex(#"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z"#), with: "<time>")
    }

    /// Compares with `Fixtures/golden/<name>`; `ODDS_UPDATE_GOLDENS=1` rewrites the file instead.
    public static func expectGolden(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let masked = mask(text)
        if ProcessInfo.processInfo.environment["ODDS_UPDATE_GOLDENS"] == "1" {
            let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Fixtures/golden/\(name)")
            try masked.write(to: path, atomically: true, encoding: .utf8)
            return
        }
        let golden = try Fixture.text("golden/\(name)")
        #expect(masked == golden, "output differs from Fixtures/golden/\(name); rerun with ODDS_UPDATE_GOLDENS=1 if intended",
                sourceLocation: sourceLocation)
    }
}

/// How many `odds` commands the tests run at once: twice the cores, at least four.
actor CLISlots {
    static let shared = CLISlots(ProcessInfo.processInfo.activeProcessorCount * 2)
    /// Whether the current task runs a command already.
    @TaskLocal static var held = false

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) { free = max(4, count) }

    func acquire() async {
        if free > 0 { free -= 1; return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }
}
