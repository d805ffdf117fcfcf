import Foundation

/// Where a match stands.
public enum EventStatus: String, Sendable, Codable, CaseIterable {
    case scheduled, live, halftime, suspended, ended, unknown

    /// Under way: live, at half-time, or suspended in play.
    public var isInPlay: Bool { self == .live || self == .halftime || self == .suspended }
}
