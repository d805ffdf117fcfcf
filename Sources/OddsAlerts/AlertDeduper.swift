import Foundation
import OddsModel

/// With several providers, one real match's incident or status change is told by each: the first alert of it
/// goes out, the others are dropped. What counts as the same: the same rule and fused match, and for an incident
/// the same team and the same score (or, where a provider sends no score, a minute within two of it) within a
/// quarter of an hour; for kick-off and full time, the match alone.
public struct AlertDeduper: Sendable {
    private struct Told {
        var rule: String
        var kind: String
        var team: Side?
        var minute: Int?
        var score: Score?
        var at: Date
    }

    private var told: [String: [Told]] = [:]
    static let window: TimeInterval = 15 * 60
    static let statusWindow: TimeInterval = 4 * 3600

    public init() {}

    /// Whether `alert`, about fused match `match`, is news; it is remembered when it is.
    public mutating func admit(_ alert: Alert, match: String?) -> Bool {
        guard let match, alert.incident != nil || alert.status != nil else { return true }
        let now = alert.at
        var list = told[match, default: []].filter { now.timeIntervalSince($0.at) < Self.statusWindow }
        let i = alert.incident
        let same = list.contains { t in
            guard t.rule == alert.rule.text, t.kind == alert.kind else { return false }
            guard let i else { return true }
            guard t.team == nil || i.team == nil || t.team == i.team, now.timeIntervalSince(t.at) < Self.window else { return false }
            if let a = t.score, let b = i.score { return a == b }
            if let a = t.minute, let b = i.minute { return abs(a - b) <= 2 }
            return true
        }
        if !same {
            list.append(Told(rule: alert.rule.text, kind: alert.kind, team: i?.team, minute: i?.minute, score: i?.score, at: now))
            if list.count > 64 { list.removeFirst(list.count - 64) }
        }
        told[match] = list
        if told.count > 10_000 { told = told.filter { !$0.value.isEmpty && now.timeIntervalSince($0.value.last!.at) < Self.statusWindow } }
        return !same
    }
}
