import Foundation
import OddsAlerts
import OddsModel
import OddsStore

/// `a`: a rule being written for one match, with the rules suggested for its prices (Tab cycles them).
public struct RuleDraft: Hashable, Sendable {
    /// The text as edited so far.
    public internal(set) var text: String
    /// Rules for the match's main prices: a level at each price as it stands and a move of each.
    public internal(set) var suggestions: [String]
    var index = 0
    /// The row the rule is for, and the events (sources) it is checked on.
    public let row: EventKey
    let scope: Set<EventKey>
    /// The match, as the ticker names it.
    let title: String
    /// Why the last Enter did not add the rule (the parser's sentence).
    public internal(set) var error: String?
}

extension DashboardModel {
    /// Makes `rules` live from now on: checked against every change, what the view holds already taken as seen
    /// (the next change is news).
    public mutating func watch(_ rules: [AlertRule]) {
        var engine = alerts ?? AlertEngine(rules: [])
        if alerts == nil {
            engine.valueSettings = valueSettings
            engine.ages = priceAges
            engine.prime(store, at: now)
        }
        for rule in rules { engine.add(rule) }
        alerts = engine
    }

    /// Checks a feed message, already applied, against the rules: each alert goes to the ticker and marks its row
    /// (a fused view's row once, however many sources tell one incident).
    mutating func checkAlerts(_ m: FeedMessage) {
        guard var engine = alerts else { return }
        // Taken out while it works, so that the engine's state is not copied.
        alerts = nil
        let fusion = fused?.fusion
        let fired = engine.observe(m, in: store, fusedMatch: fusion.map { f in { f.matchID(of: $0) } })
        alerts = engine
        for alert in fired {
            var row = EventKey(provider: alert.provider, id: alert.eventID)
            if fused != nil, let id = alert.fusedMatch {
                guard alertDeduper.admit(alert, match: id) else { continue }
                row = EventKey(provider: .fused, id: id)
            }
            announce(alert, row: row)
        }
    }

    /// The stale rules at `now`: a feed silent for longer than a rule allows.
    mutating func tickAlerts(_ now: Date) {
        alerted = alerted.filter { now.timeIntervalSince($0.value) <= alertMarkSeconds }
        guard var engine = alerts else { return }
        alerts = nil
        let fired = engine.tick(now: now, providers: providers, since: startedAt)
        alerts = engine
        for alert in fired { announce(alert, row: EventKey(provider: alert.provider, id: "")) }
    }

    private mutating func announce(_ alert: Alert, row: EventKey) {
        alertsFired += 1
        if !row.id.isEmpty { alerted[row] = alert.at }
        tell(TickerItem(at: alert.at, key: row, news: .alert(alert.line(oddsFormat, time: false))))
        needsDraw = true
    }

    /// Whether row `key` shows its alert mark at `now`.
    public func isAlerted(_ key: EventKey) -> Bool {
        alerted[key].map { now.timeIntervalSince($0) <= alertMarkSeconds } ?? false
    }

    /// `a` on the selected row (or the detail pane's match): a draft rule for it, the first suggestion filled in.
    mutating func startRule() {
        guard let key = focused ?? selected, let e = shown.events[key]?.event else { return }
        let scope = Set(e.match?.sources.map { EventKey(provider: $0.provider, id: $0.id) } ?? [key])
        let suggestions = Self.ruleSuggestions(e)
        ruleDraft = RuleDraft(text: suggestions.first ?? "goal", suggestions: suggestions, row: key, scope: scope, title: e.title)
    }

    /// A level at each main price as it stands, to edit, and a move of each: `price "Arsenal" >= 2.50`,
    /// `price draw >= 3.40`, `move "Arsenal" 5% in 5m`; then the match's goals.
    static func ruleSuggestions(_ e: Event) -> [String] {
        var levels: [String] = [], moves: [String] = []
        for cell in e.mainColumns.cells {
            guard let cell else { continue }
            let s = cell.selection
            let name: String
            switch s.id {
            case "home": name = RuleDraft.quoted(e.home)
            case "away": name = RuleDraft.quoted(e.away ?? s.name)
            case "draw": name = "draw"
            default: name = RuleDraft.quoted(s.name)
            }
            let line = s.line.map { " " + $0 } ?? ""
            if let price = s.price, !s.suspended { levels.append("price \(name)\(line) >= \(price.decimalText)") }
            moves.append("move \(name)\(line) 5% in 5m")
        }
        return levels + moves + ["goal", "red-card"]
    }

    mutating func editRule(_ key: Key) {
        guard var draft = ruleDraft else { return }
        switch key {
        case .escape:
            ruleDraft = nil
            return
        case .enter:
            do {
                var rule = try AlertRule.parse(draft.text)
                rule.scope = draft.scope
                watch([rule])
                tell(TickerItem(at: now, key: draft.row, news: .note("alert rule added for this session: \(rule.text)  \(draft.title)")))
                ruleDraft = nil
            } catch let error as AlertRuleError {
                draft.error = error.message
                ruleDraft = draft
            } catch {
                draft.error = "\(error)"
                ruleDraft = draft
            }
            return
        case .character("\t"):
            guard !draft.suggestions.isEmpty else { break }
            draft.index = (draft.index + 1) % draft.suggestions.count
            draft.text = draft.suggestions[draft.index]
        default:
            _ = LineEditor.apply(key, to: &draft.text)
        }
        draft.error = nil
        ruleDraft = draft
    }
}

extension RuleDraft {
    /// A name as a rule quotes it (a quote inside it cannot be written: it is dropped).
    static func quoted(_ name: String) -> String { "\"" + name.filter { $0 != "\"" } + "\"" }
}
