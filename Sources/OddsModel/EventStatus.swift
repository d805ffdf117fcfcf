import Foundation

/// Where a match stands.
public enum EventStatus: String, Sendable, Codable, CaseIterable {
    case scheduled, live, halftime, suspended, ended, unknown
}
