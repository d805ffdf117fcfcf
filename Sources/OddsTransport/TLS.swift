import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// Certificate authorities trusted for HTTPS and WSS beside the system's: a private gateway, a
/// corporate proxy, or the tests' own CA.
public struct TrustRoots: Sendable {
    let certificates: [NIOSSLCertificate]

    /// Only the system's authorities.
    public static let system = TrustRoots(certificates: [])

    private init(certificates: [NIOSSLCertificate]) { self.certificates = certificates }

    /// Why a CA file cannot be used.
    public struct LoadError: Error, CustomStringConvertible {
        public let path: String
        /// What is wrong, e.g. "cannot be read".
        public let reason: String
        public var description: String { "The CA file \(path) \(reason)." }
    }

    /// Reads every certificate of a PEM file.
    public init(pemFile path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadError(path: path, reason: "cannot be read")
        }
        let certificates = (try? NIOSSLCertificate.fromPEMBytes(Array(data))) ?? []
        guard !certificates.isEmpty else { throw LoadError(path: path, reason: "holds no PEM certificate") }
        self.certificates = certificates
    }

    /// The client configuration both the HTTP client and the WebSocket use: full verification,
    /// the system's authorities plus these.
    var clientConfiguration: TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if !certificates.isEmpty { tls.additionalTrustRoots = [.certificates(certificates)] }
        return tls
    }
}

/// Keeps the first error a connection's pipeline saw (a TLS handshake failure), which the upgrade
/// itself only reports as a closed channel.
final class FirstErrorRecorder: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = NIOAny
    private let box = NIOLockedValueBox<Error?>(nil)

    var error: Error? { box.withLockedValue { $0 } }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        box.withLockedValue { if $0 == nil { $0 = error } }
        context.fireErrorCaught(error)
    }
}

/// One short phrase for why a connection failed, instead of a dump of NIO's error values.
func describeConnectionFailure(_ error: Error, host: String) -> String {
    if let connection = error as? NIOConnectionError {
        if let first = connection.connectionErrors.first { return describeConnectionFailure(first.error, host: host) }
        if connection.dnsAError != nil || connection.dnsAAAAError != nil { return "cannot resolve the host \(host)" }
        return "cannot connect to \(host)"
    }
    if let io = error as? IOError {
        switch io.errnoCode {
        case ECONNREFUSED: return "connection refused by \(host)"
        case ECONNRESET: return "connection reset by \(host)"
        case ENETUNREACH, EHOSTUNREACH: return "\(host) is unreachable"
        case ETIMEDOUT: return "timed out connecting to \(host)"
        default: return String(cString: strerror(io.errnoCode)).lowercased()
        }
    }
    if error is SocketAddressError {
        return "cannot resolve the host \(host)"
    }
    if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname {
        return "the TLS certificate of \(host) is not issued for that name"
    }
    if error is NIOSSLError || error is BoringSSLError {
        let text = String(describing: error)
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return "the TLS certificate of \(host) is not trusted (a private CA can be trusted with ca_file or ODDS_CA_FILE)"
        }
        return "the TLS handshake with \(host) failed"
    }
    return String(describing: error)
}
