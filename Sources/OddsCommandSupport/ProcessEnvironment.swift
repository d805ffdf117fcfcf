import Foundation

/// The process's environment, read from the C library's `environ`.
///
/// `ProcessInfo.processInfo.environment` gives the same dictionary, but its first use sets up
/// Foundation's process information, whose generic types the Swift runtime looks up by scanning
/// every protocol conformance in the binary: time added to the start of every command.
public enum ProcessEnvironment {
    /// Each `NAME=value` entry; where a name appears twice the first one counts, as for `getenv`.
    public static func current() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer))
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: bytes[..<equals], as: UTF8.self)
                if result[name] == nil { result[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self) }
            }
            entry += 1
        }
        return result
    }
}
