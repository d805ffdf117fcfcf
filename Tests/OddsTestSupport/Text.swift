import Foundation

/// A value another thread will set once, and a bounded wait for it.
public final class Eventually<T: Sendable>: @unchecked Sendable {  // every field is touched under `condition`
    private let condition = NSCondition()
    private var value: T?

    public init() {}

    public func set(_ v: T) { condition.lock(); value = v; condition.broadcast(); condition.unlock() }

    /// The value, waiting up to `seconds` for it; nil on timeout.
    public func wait(seconds: Double) -> T? {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock(); defer { condition.unlock() }
        while value == nil { if !condition.wait(until: deadline) { break } }
        return value
    }
}

/// A count several threads add to.
public final class Counter: @unchecked Sendable {  // `n` is touched under `lock`
    private let lock = NSLock()
    private var n = 0

    public init() {}

    public func add() { lock.withLock { n += 1 } }
    public var value: Int { lock.withLock { n } }
}

/// Text built to drive a terminal, for the terminal-safety tests.
public enum HostileText {
    /// Escape sequences, C1, DEL, bidi controls and a tab and newline around a team name.
    public static let sample = "\u{1B}]0;x\u{07}\u{1B}[2JArsenal\u{9B}31m\u{7F}\u{202E}lanesrA\u{2066}\tFC\n"

    /// The control characters of `s` outside `allowed`.
    public static func controls(_ s: String, allowing allowed: Set<UInt32> = []) -> [UInt32] {
        s.unicodeScalars.map(\.value).filter {
            !allowed.contains($0) && ($0 < 0x20 || (0x7F...0x9F).contains($0) || (0x202A...0x202E).contains($0) || (0x2066...0x2069).contains($0))
        }
    }
}
