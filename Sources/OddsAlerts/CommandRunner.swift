import Foundation

/// Runs a user's command for an alert: its argv as given (split once, never through a shell), the alert in its
/// environment, its output on stderr (stdout is the alerts'), stopped after a timeout.
enum CommandRunner {
    /// The path of `program` on PATH (or `program` itself when it names a path); nil when there is none.
    static func find(_ program: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) ? program : nil }
        for dir in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where !dir.isEmpty {
            let candidate = "\(dir)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `argv` with `environment` added to this process's; nil when it exited 0, else what went wrong.
    static func run(_ argv: [String], environment: [String: String], timeout: TimeInterval,
                    warn: (@Sendable (String) -> Void)?) async -> String? {
        guard let first = argv.first, let executable = find(first) else {
            return "\(argv.first ?? "") was not found, or is not executable"
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(argv.dropFirst())
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardOutput = FileHandle.standardError
        process.standardError = FileHandle.standardError
        process.standardInput = FileHandle.nullDevice
        let status: Int32? = await withCheckedContinuation { (done: CheckedContinuation<Int32?, Never>) in
            let once = Once()
            process.terminationHandler = { p in if once.first() { done.resume(returning: p.terminationStatus) } }
            do {
                try process.run()
            } catch {
                if once.first() { done.resume(returning: nil) }
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                guard process.isRunning else { return }
                process.terminate()
                DispatchQueue.global().asyncAfter(deadline: .now() + 1) {
                    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                }
            }
        }
        guard let status else { return "\(first) could not be started" }
        if process.terminationReason == .uncaughtSignal { return "\(first) was stopped after \(Int(timeout)) s, or killed (signal \(status))" }
        return status == 0 ? nil : "\(first) exited \(status)"
    }

    /// A command line split into words as a shell would split it, without expanding anything: spaces separate
    /// words, quotes ('…' or "…") hold spaces, a backslash escapes the next character.
    static func split(_ line: String) -> [String]? {
        var words: [String] = []
        var word = "", inWord = false
        var quote: Character?
        var escaped = false
        for c in line {
            if escaped { word.append(c); escaped = false; inWord = true; continue }
            if c == "\\" && quote != "'" { escaped = true; continue }
            if let q = quote {
                if c == q { quote = nil } else { word.append(c) }
                continue
            }
            if c == "'" || c == "\"" { quote = c; inWord = true; continue }
            if c.isWhitespace {
                if inWord { words.append(word); word = ""; inWord = false }
                continue
            }
            word.append(c)
            inWord = true
        }
        if quote != nil || escaped { return nil }
        if inWord { words.append(word) }
        return words
    }
}

/// True the first time only, from any thread.
final class Once: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false
    func first() -> Bool {
        lock.lock(); defer { lock.unlock() }
        if done { return false }
        done = true
        return true
    }
}
