import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn` and reaped with `waitpid`.
///
/// Foundation's `Process` learns that a child ended when a socket the child inherited closes. A child that
/// leaves a daemon behind (`tmux new-session` starts the tmux server) passes that socket on, so `Process`
/// never sees the exit and `waitUntilExit` blocks a thread of the test pool for good. Here the child gets
/// only its three standard descriptors, and the exit is read from `waitpid` by polling, never by blocking a thread of the pool.
public final class Subprocess: @unchecked Sendable {
    public let pid: pid_t
    private let lock = NSLock()
    private var reaped: Int32?
    private let exitSeen = ExitTime()
    /// When the child was started.
    public let started = Date()

    public struct SpawnFailed: Error, CustomStringConvertible {
        let path: String, errno: Int32
        public var description: String { "cannot start \(path): \(String(cString: strerror(errno)))" }
    }

    /// Starts `path` with `arguments`; standard input is /dev/null, standard output and error go to the
    /// given files (or /dev/null). `environment` nil passes this process's environment on.
    public init(_ path: String, _ arguments: [String], environment: [String: String]? = nil,
         stdout: String? = nil, stderr: String? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // Every other descriptor stays here (glibc's closefrom action is not visible to Swift).
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap(Int32.init) where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }

        // The child starts with no blocked signals and default dispositions, whatever this process set.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let env = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let rc = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw SpawnFailed(path: path, errno: rc) }
        self.pid = pid
        // The moment of the exit, seen from a thread of its own (the test pool's threads may be busy for
        // seconds): waits without reaping, so `poll` still reads the status.
        Thread { [exitSeen, pid] in
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
            exitSeen.mark()
        }.start()
    }

    /// When the child ended, once it has.
    public var exitedAt: Date? { exitSeen.date }

    /// Seconds from the start to the exit, once the child has ended.
    public var runTime: TimeInterval? { exitedAt.map { $0.timeIntervalSince(started) } }

    /// Sends `signal` to the child, unless it has already been reaped.
    public func signal(_ signal: Int32) {
        lock.lock()
        defer { lock.unlock() }
        if reaped == nil { kill(pid, signal) }
    }

    /// The exit status once the child has ended, without waiting: its exit code, or 128 + the signal
    /// that ended it.
    public func poll() -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        if let reaped { return reaped }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        let signal = status & 0x7f
        reaped = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        exitSeen.mark()
        return reaped
    }

    /// Waits (polling, bounded by `timeout`) for the child to end. On timeout the child gets SIGTERM, then
    /// SIGKILL, is reaped, and `TimedOut` is thrown.
    @discardableResult
    public func exit(timeout: Double, what: String) async throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let status = poll() { return status }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        // Looked at late (a test pool whose threads were all blocked for a while): a child that ended before the
        // deadline, as its own thread saw it end, ended in time.
        if let status = poll(), let at = exitedAt, at <= deadline { return status }
        signal(SIGTERM)
        for _ in 0..<20 {
            if poll() != nil { throw TimedOut(what: "\(what) to exit (it was killed)") }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        signal(SIGKILL)
        while poll() == nil { try await Task.sleep(nanoseconds: 10_000_000) }
        throw TimedOut(what: "\(what) to exit (it was killed)")
    }

    deinit {
        // Never leave a child running or a zombie behind.
        if poll() == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }
}

/// The first moment an exit was seen, from whichever side saw it first.
private final class ExitTime: @unchecked Sendable {
    // @unchecked: `seen` is read and written only under `lock`.
    private let lock = NSLock()
    private var seen: Date?

    func mark() {
        lock.lock()
        if seen == nil { seen = Date() }
        lock.unlock()
    }

    var date: Date? {
        lock.lock()
        defer { lock.unlock() }
        return seen
    }
}
