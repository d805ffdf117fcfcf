import Foundation
import OddsModel

/// What a `postgres://` or `postgresql://` URL asks for, read as libpq reads it:
/// `postgres://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=MODE`. The user defaults to `PGUSER`, then the login name;
/// the password to `PGPASSWORD`; the database to the user's name. `host=/dir` in the query names a Unix-socket
/// folder. Credentials are kept for connecting only, never for messages.
struct PostgresURL: Equatable {
    enum TLSMode: String, Equatable, CaseIterable {
        /// No TLS.
        case disable
        /// TLS when the server offers it, unverified (libpq's default).
        case prefer
        /// TLS or nothing, unverified.
        case require
        /// TLS, the server's certificate checked against the trusted roots (`sslrootcert`, else the system's).
        case verifyCA = "verify-ca"
        /// As `verify-ca`, and the certificate must name the host.
        case verifyFull = "verify-full"
    }

    var host = "127.0.0.1"
    var port = 5432
    /// The folder of the server's Unix socket, when `host=` names one.
    var socketFolder: String?
    var user: String
    var password: String?
    var database: String
    var tls = TLSMode.prefer
    var rootCertificate: String?
    var connectTimeout: TimeInterval = 10

    /// The socket file itself, as the server names it in `socketFolder`.
    var socketPath: String? { socketFolder.map { "\($0)/.s.PGSQL.\(port)" } }

    /// Reads `url`; throws `OddsError.history` with one sentence (and never the password) when it cannot.
    init(_ url: String, environment: [String: String]) throws {
        let shown = HistoryLocation.postgres(url: url).description
        func bad(_ why: String) -> OddsError { OddsError.history("The history URL \(shown) \(why).") }
        guard let parts = URLComponents(string: url) else { throw bad("is not a URL") }
        let login = environment["PGUSER"] ?? environment["USER"] ?? environment["LOGNAME"] ?? "postgres"
        user = parts.percentEncodedUser.flatMap { $0.removingPercentEncoding }.flatMap { $0.isEmpty ? nil : $0 } ?? login
        password = parts.percentEncodedPassword.flatMap { $0.removingPercentEncoding } ?? environment["PGPASSWORD"]
        if let h = parts.host, !h.isEmpty {
            host = h.hasPrefix("[") && h.hasSuffix("]") ? String(h.dropFirst().dropLast()) : h
        } else if let env = environment["PGHOST"], !env.isEmpty {
            if env.hasPrefix("/") { socketFolder = env } else { host = env }
        }
        if let p = parts.port {
            guard (1...65_535).contains(p) else { throw bad("has a port out of range") }
            port = p
        }
        let path = parts.percentEncodedPath.removingPercentEncoding ?? ""
        let name = path.hasPrefix("/") ? String(path.dropFirst()) : path
        database = name.isEmpty ? (environment["PGDATABASE"] ?? user) : name
        for item in parts.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "sslmode":
                guard let mode = TLSMode(rawValue: value) else {
                    throw bad("has sslmode=\(value); use one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                tls = mode
            case "sslrootcert":
                rootCertificate = value
            case "host":
                if value.hasPrefix("/") { socketFolder = value } else if !value.isEmpty { host = value }
            case "port":
                guard let p = Int(value), (1...65_535).contains(p) else { throw bad("has port=\(value), not a port") }
                port = p
            case "user":
                user = value
            case "password":
                password = value
            case "dbname":
                database = value
            case "connect_timeout":
                guard let s = Int(value), s > 0 else { throw bad("has connect_timeout=\(value), not a number of seconds") }
                connectTimeout = TimeInterval(s)
            case "sslcert", "sslkey":
                throw bad("asks for a client certificate (\(item.name)), which odds does not support")
            case "application_name", "options", "target_session_attrs":
                // Accepted, as libpq would, and not needed here.
                continue
            default:
                throw bad("has a parameter odds does not know (\(item.name))")
            }
        }
    }
}
