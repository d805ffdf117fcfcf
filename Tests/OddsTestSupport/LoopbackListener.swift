import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A listening TCP socket on 127.0.0.1 and a free port, for the tests' own small servers.
public enum LoopbackListener {
    /// The listening descriptor and its port; throws when none can be made here.
    public static func open(backlog: Int32 = 16) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        guard fd >= 0, bound == 0, listen(fd, backlog) == 0 else {
            if fd >= 0 { close(fd) }
            throw Fixture.FixtureMissing(name: "a loopback listener")
        }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return (fd, Int(UInt16(bigEndian: addr.sin_port)))
    }
}
