import Foundation

/// What kind of thing happened in a match.
public enum IncidentKind: String, Sendable, Codable, CaseIterable {
    case goal, card, substitution, `var`, period, injuryTime, other

    /// Classifies a provider's label ("Goal", "Red Card", "VAR Decision", "Half Time", "Injury Time").
    public init(label: String) {
        let l = label.lowercased()
        if l.contains("goal") || l.contains("penalty scored") { self = .goal }
        else if l.contains("injury") || l.contains("added time") || l.contains("stoppage") { self = .injuryTime }
        else if l.contains("card") { self = .card }
        else if l.contains("sub") { self = .substitution }
        else if l.contains("var") { self = .var }
        else if l.contains("half") || l.contains("period") || l.contains("time") || l.contains("kick") { self = .period }
        else { self = .other }
    }
}

/// Something that happened in a match: a goal, a card, a substitution.
public struct Incident: Hashable, Sendable {
    public var kind: IncidentKind
    public var minute: Int?
    public var team: Side?
    /// The scorer, the booked player, the player coming on.
    public var player: String?
    /// The provider's own words ("Red Card", "Goal").
    public var detail: String?
    /// The provider's id of the incident, when it sends one: the same incident sent again is known by it.
    public var id: String?
    /// Minutes added to `minute` (45+2: minute 45, added 2); for injury time, the minutes announced.
    public var addedTime: Int?
    /// Who assisted a goal.
    public var assist: String?
    /// The player going off in a substitution.
    public var playerOut: String?
    /// Why: a card's reason ("Foul"), a VAR decision ("Goal disallowed").
    public var reason: String?
    /// The score the incident tells: after a goal, at a period's end, as the provider gives it.
    public var score: Score?
    /// A card taken back (SofaScore `rescinded: true`): shown as rescinded, never as a card.
    public var rescinded: Bool

    public init(kind: IncidentKind, minute: Int? = nil, team: Side? = nil, player: String? = nil, detail: String? = nil,
                id: String? = nil, addedTime: Int? = nil, assist: String? = nil, playerOut: String? = nil,
                reason: String? = nil, score: Score? = nil, rescinded: Bool = false) {
        self.kind = kind; self.minute = minute; self.team = team; self.player = player; self.detail = detail
        self.id = id; self.addedTime = addedTime; self.assist = assist; self.playerOut = playerOut; self.reason = reason
        self.score = score; self.rescinded = rescinded
    }

    /// Where the incident falls in the match: by minute, then by added time; an injury-time announcement
    /// at its minute (its `addedTime` is the length announced), a period marker after every incident of its
    /// minute's added time (HT after 45+2', FT after 90+3'); no minute (a shoot-out kick) at the end.
    public var timelineKey: (minute: Int, slot: Int) {
        let slot: Int
        switch kind {
        case .period: slot = Int.max
        case .injuryTime: slot = 0
        default: slot = addedTime ?? 0
        }
        return (minute ?? Int.max, slot)
    }

    /// `incidents` in match order (`timelineKey`), those at one moment in the order given.
    public static func inMatchOrder(_ incidents: [Incident]) -> [Incident] {
        incidents.enumerated().sorted { a, b in
            let ka = a.element.timelineKey, kb = b.element.timelineKey
            return ka != kb ? ka < kb : a.offset < b.offset
        }.map(\.element)
    }

    /// Whether this marks the match's end: full time, after extra time, after penalties.
    public var endsMatch: Bool {
        guard kind == .period, let d = detail else { return false }
        return Incident.endWords.contains(TeamName.fold(d))
    }

    static let endWords: Set<String> = ["ft", "full time", "fulltime", "aet", "after extra time", "ap", "pen", "penalties",
                                        "after penalties", "ended", "end", "match ended", "final", "finished", "end of match"]

    /// "45+2'", "67'", or nil without a minute.
    public var minuteLabel: String? {
        guard let minute else { return nil }
        if let added = addedTime, added > 0, kind != .injuryTime { return "\(minute)+\(added)'" }
        return "\(minute)'"
    }

    /// "67' Goal Saka": its minute, what it is, and its player, as a short line says it.
    public var headline: String {
        [minuteLabel, detail ?? kind.rawValue, player].compactMap { $0 }.joined(separator: " ")
    }

    /// What identifies this incident when it is sent again: the provider's id, else what it says.
    public var identity: String {
        // A card rescinded after it was sent is news: the same id, told again.
        if let id { return "id:" + id + (rescinded ? "|rescinded" : "") }
        return [rescinded ? "rescinded" : "", kind.rawValue, minute.map(String.init) ?? "", addedTime.map(String.init) ?? "", team?.rawValue ?? "",
                player ?? "", playerOut ?? "", detail ?? ""].joined(separator: "|")
    }
}

extension Incident {
    /// What moves a price, as a chart marks it: G for a goal, R for a red card (a second yellow included, never
    /// one rescinded), P for a penalty, V for a VAR decision; nil for anything else.
    public var markLetter: Character? {
        let d = (detail ?? "").lowercased()
        switch kind {
        case .goal: return "G"
        case .var: return "V"
        case .card: return !rescinded && (d.contains("red") || d.contains("second yellow") || d.contains("yellowred")) ? "R" : nil
        case .other: return d.contains("penalt") ? "P" : nil
        default: return nil
        }
    }
}
