import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL server for the tests: a new cluster in a temporary folder, listening on 127.0.0.1 and a
/// free port (and a socket in its folder), password authentication over TCP, stopped and removed when this process
/// ends (a watcher stops it even after a crash). Debian keeps the server's programs under
/// `/usr/lib/postgresql/N/bin`; run as root, they run as the `postgres` user, as the server requires.
///
/// Where no server can be started the PostgreSQL tests say so in one line and pass over it, unless
/// `ODDS_TEST_POSTGRES=require` (set by CI), when that is a failure.
public final class PostgresTestServer: @unchecked Sendable {
    /// Chosen again when the first start finds it taken (other tests bind loopback ports meanwhile).
    public private(set) var port: Int
    public let user = "odds"
    /// The password of `user`, over TCP (the socket trusts).
    public let password: String
    private let folder: String
    private let bin: String
    private let asPostgres: Bool
    private let lock = NSLock()
    private var databases = 0
    /// The server's self-signed certificate (for 127.0.0.1 and localhost), when it offers TLS.
    public private(set) var certificate: String?

    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// Whether CI asked for these tests to run, never to be passed over.
    public static var required: Bool { ProcessInfo.processInfo.environment["ODDS_TEST_POSTGRES"] == "require" }

    private static let sharedLock = NSLock()
    nonisolated(unsafe) private static var sharedResult: Result<PostgresTestServer, Unavailable>?
    nonisolated(unsafe) private static var told = false

    /// The server the tests share, started the first time it is asked for. Nil (after one line on stderr) when
    /// none can be started here; throws instead when `ODDS_TEST_POSTGRES=require`.
    public static func shared() throws -> PostgresTestServer? {
        sharedLock.lock()
        defer { sharedLock.unlock() }
        if sharedResult == nil {
            do { sharedResult = .success(try PostgresTestServer()) } catch let e as Unavailable { sharedResult = .failure(e) } catch {
                sharedResult = .failure(Unavailable(description: "\(error)"))
            }
        }
        switch sharedResult! {
        case .success(let server): return server
        case .failure(let why):
            if required { throw why }
            if !told {
                told = true
                FileHandle.standardError.write(Data("PostgreSQL tests passed over: \(why.description) (set ODDS_TEST_POSTGRES=require to fail instead).\n".utf8))
            }
            return nil
        }
    }

    /// `shared()` without holding a thread of the concurrency pool while the server starts (or while another test
    /// starts it): for tests that run on that pool. Two of them waiting there would leave the pool no thread, and
    /// every other test's waits would pass their timeouts while nothing ran.
    public static func sharedOffPool() async throws -> PostgresTestServer? {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try shared() }) }.start()
        }
    }

    /// Starts a new server of its own (a test that stops and starts it uses one no other test shares); with `tls`
    /// (and openssl to make a certificate) it offers TLS beside plain connections.
    public init(tls: Bool = true) throws {
        guard let bin = Self.serverPrograms() else { throw Unavailable(description: "no PostgreSQL server programs (initdb, pg_ctl) are installed") }
        self.bin = bin
        asPostgres = getuid() == 0
        if asPostgres, getpwnam("postgres") == nil { throw Unavailable(description: "running as root and there is no postgres user to run the server as") }
        var template = Array("/tmp/odds-pg-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Unavailable(description: "cannot make a temporary folder") }
        folder = String(cString: made)
        password = UUID().uuidString
        port = try Self.freePort()
        chmod(folder, 0o700)
        if asPostgres, let pw = getpwnam("postgres") { chown(folder, pw.pointee.pw_uid, pw.pointee.pw_gid) }
        let pwfile = folder + "/pw"
        _ = FileManager.default.createFile(atPath: pwfile, contents: Data(password.utf8))
        if asPostgres, let pw = getpwnam("postgres") { chown(pwfile, pw.pointee.pw_uid, pw.pointee.pw_gid) }
        do {
            try server("initdb", ["-D", folder + "/data", "-U", user, "--pwfile=" + pwfile, "--auth-local=trust", "--auth-host=scram-sha-256",
                                  "-E", "UTF8", "--locale=C", "--no-sync"], timeout: 120)
            if tls { try makeCertificate() }
            // The port was free when chosen, before initdb's seconds: another test's listener may have it now.
            var attempt = 1
            while true {
                do {
                    try start()
                    break
                } catch let e as Unavailable where attempt < 3 && e.description.contains("could not bind") {
                    attempt += 1
                    port = try Self.freePort()
                }
            }
        } catch {
            remove()
            throw error
        }
        watch()
    }

    private func makeCertificate() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else { return }
        let key = folder + "/server.key", cert = folder + "/server.crt"
        try run("/usr/bin/openssl", ["req", "-new", "-x509", "-days", "2", "-nodes", "-subj", "/CN=localhost",
                                     "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key, "-out", cert],
                asServer: false, timeout: 60, stdout: nil)
        chmod(key, 0o600)
        chmod(cert, 0o644)
        if asPostgres, let pw = getpwnam("postgres") {
            chown(key, pw.pointee.pw_uid, pw.pointee.pw_gid)
            chown(cert, pw.pointee.pw_uid, pw.pointee.pw_gid)
        }
        certificate = cert
    }

    /// Starts (or starts again) the server on its port.
    public func start() throws {
        var options = "-c listen_addresses=127.0.0.1 -p \(port) -k \(folder) -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        if let certificate { options += " -c ssl=on -c ssl_cert_file=\(certificate) -c ssl_key_file=\(folder)/server.key" }
        do {
            try server("pg_ctl", ["-D", folder + "/data", "-l", folder + "/log", "-o", options, "-w", "-t", "60", "start"], timeout: 90)
        } catch let e as Unavailable {
            // pg_ctl only says it could not start the server; the server's log says why.
            let log = ((try? String(contentsOfFile: folder + "/log", encoding: .utf8)) ?? "").split(separator: "\n")
            let why = log.filter { $0.contains("FATAL") || $0.contains("ERROR") || $0.contains("could not bind") }.suffix(3)
            throw Unavailable(description: e.description + " Server log: " + (why.isEmpty ? log.suffix(3) : why).joined(separator: " "))
        }
    }

    /// Stops it: `fast` as an administrator would (sessions cut), else at once, as a crash would.
    public func stop(fast: Bool = true) {
        try? server("pg_ctl", ["-D", folder + "/data", "-m", fast ? "fast" : "immediate", "-w", "-t", "30", "stop"], timeout: 60)
    }

    /// Stops it and removes its folder.
    public func shutdown() {
        stop(fast: false)
        remove()
    }

    private func remove() { try? FileManager.default.removeItem(atPath: folder) }

    /// A new empty database; its URL (password included unless `withPassword` is false).
    public func createDatabase(withPassword: Bool = true) throws -> String {
        let name: String = lock.withLock {
            databases += 1
            return "t\(databases)_\(UUID().uuidString.prefix(8).lowercased())"
        }
        try psql("CREATE DATABASE \(name)")
        return url(database: name, withPassword: withPassword)
    }

    public func url(database: String, withPassword: Bool = true) -> String {
        "postgres://\(user)\(withPassword ? ":" + password : "")@127.0.0.1:\(port)/\(database)"
    }

    /// Runs `sql` as the administrator over the socket, in `database`; returns what psql printed (unaligned, tuples only).
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        let out = folder + "/psql-\(UUID().uuidString).out"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let psql = FileManager.default.isExecutableFile(atPath: bin + "/psql") ? bin + "/psql" : "/usr/bin/psql"
        try run(psql, ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", folder, "-p", String(port), "-U", user, "-d", database, "-c", sql],
                asServer: false, timeout: 60, stdout: out)
        return ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func server(_ program: String, _ arguments: [String], timeout: Double) throws {
        try run(bin + "/" + program, arguments, asServer: true, timeout: timeout, stdout: nil)
    }

    private func run(_ path: String, _ arguments: [String], asServer: Bool, timeout: Double, stdout: String?) throws {
        let log = folder + "/run-\(UUID().uuidString).log"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let (program, args) = asServer && asPostgres ? ("/usr/sbin/runuser", ["-u", "postgres", "--", path] + arguments) : (path, arguments)
        let child = try Subprocess(program, args, stdout: stdout, stderr: log)
        let deadline = Date().addingTimeInterval(timeout)
        while child.poll() == nil {
            if Date() > deadline {
                child.signal(SIGKILL)
                throw Unavailable(description: "\((path as NSString).lastPathComponent) took longer than \(Int(timeout)) s")
            }
            usleep(20_000)
        }
        let status = child.poll() ?? -1
        if status != 0 {
            let said = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").suffix(3).joined(separator: " ")
            throw Unavailable(description: "\((path as NSString).lastPathComponent) failed (\(status)): \(said)")
        }
    }

    /// A watcher that stops the server and removes its folder when this process is gone, however it ended.
    private func watch() {
        let stop = (asPostgres ? "/usr/sbin/runuser -u postgres -- " : "") + "\(bin)/pg_ctl -D \(folder)/data -m immediate stop"
        let script = "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; \(stop) >/dev/null 2>&1; rm -rf \(folder)"
        // Started in the background by a shell that ends at once: the watcher is nobody's child here, so nothing
        // of this process (which kills a child it still has) takes it down with it.
        guard let shell = try? Subprocess("/bin/sh", ["-c", "(\(script)) </dev/null >/dev/null 2>&1 &"]) else { return }
        let deadline = Date().addingTimeInterval(10)
        while shell.poll() == nil, Date() < deadline { usleep(5_000) }
    }

    private static func serverPrograms() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted(by: >)
        for v in versions where FileManager.default.isExecutableFile(atPath: "\(root)/\(v)/bin/initdb") { return "\(root)/\(v)/bin" }
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        where FileManager.default.isExecutableFile(atPath: "\(dir)/initdb") && FileManager.default.isExecutableFile(atPath: "\(dir)/pg_ctl") {
            return String(dir)
        }
        return nil
    }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Unavailable(description: "cannot open a socket") }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        guard bound else { throw Unavailable(description: "cannot find a free port") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}
