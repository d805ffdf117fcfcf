import ArgumentParser
import Foundation
import OddsHistory
import OddsFusion
import OddsJSON
import OddsModel
import OddsCommandSupport
import OddsOutput
import OddsProviders
import OddsStore
import OddsTransport

/// `odds watch MATCH`: one match's incidents as they happen.
struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Follow one match's incidents and score live.",
        discussion: """
            MATCH is the provider's match id or a team name, matched (any case, part of a name) against the live matches \
            of --sport; more than one match is refused with the candidates (exit 64). On a terminal, one line per \
            incident as it happens under a score line kept current; piped, NDJSON (incident and scoreboard updates). \
            Ends when the match ends (once its full-time incident is in, waiting at most 5 s for it), or on Ctrl-C. Providers with incidents: sportsapi (default), tickodds, boltodds. \
            Example: odds watch Arsenal --bell
            """)

    @Argument(help: ArgumentHelp("A match id, or a team name among the live matches.", valueName: "match"))
    var match: String

    @Option(name: .customLong("provider"), help: ArgumentHelp(
        "Provider: sportsapi (default), tickodds or boltodds; or all, or a comma list: the match as every one of them sends it.",
        valueName: "provider"))
    var choice: ProviderChoice?

    var provider: ProviderID? { if case .one(let id) = choice { return id } else { return nil } }

    @OptionGroup var sportOption: SportOption

    @Flag(name: .long, help: "Ring the terminal bell on goals and red cards.")
    var bell = false

    @OptionGroup var history: HistoryOptions

    @OptionGroup var common: CommonOptions

    /// The provider watched when none is named: the one with a channel per match.
    static let defaultProvider = ProviderID.sportsapi

    /// The providers that send incidents, the default first.
    static var providers: [ProviderID] {
        let all = ProviderRegistry.descriptors.filter { $0.capabilities.contains(.incidents) }.map(\.id)
        return all.filter { $0 == defaultProvider } + all.filter { $0 != defaultProvider }
    }

    func validate() throws {
        if case .several(let ids, false) = choice, let other = ids.first(where: { !Watch.providers.contains($0) }) {
            throw ValidationError("\(other.displayName) sends no incidents; leave it out of the list.")
        }
        if let provider, !Watch.providers.contains(provider) {
            let names = Watch.providers.map(\.rawValue)
            throw ValidationError("\(provider.displayName) sends no incidents; watch works with \(names.dropLast().joined(separator: ", ")) or \(names.last!).")
        }
        if match.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("Name a match: its id or a team.") }
    }

    func run() async throws {
        if case .several(let ids, let all) = choice {
            // Every provider that sends incidents (of those asked for), joined into one match.
            let watched = ids.filter(Watch.providers.contains)
            try await withRuntime(common, sport: sportOption.value) { rt in
                try await withHistory(history, rt) { writer in
                    // The lists alone, as for one provider: the match is found by its names.
                    let fused = try await rt.fusedLive(watched, all: all, prices: false)
                    let event = try Watch.resolve(match, among: fused.events, sport: rt.settings.sport)
                    let sources = Set((event.match?.sources ?? []).map { EventKey(provider: $0.provider, id: $0.id) })
                    let stats = FeedStats()
                    let feed = try await rt.fusedStream(watched.filter { p in sources.contains { $0.provider == p } }, all: false, stats: stats).stream
                    try await Watch.follow(event, sourceEvents: fused.sources.filter { sources.contains(EventKey(provider: $0.provider, id: $0.id)) },
                                           matchID: event.id, feed: feed, bell: bell, history: writer, rt)
                }
            }
            return
        }
        let id = provider ?? Watch.defaultProvider
        try await withRuntime(common, provider: id, sport: sportOption.value) { rt in
            try await withHistory(history, rt) { writer in
                let client = try await rt.preparedProvider(id)
                let event = try await Watch.resolve(match, provider: client, sport: rt.settings.sport)
                let stats = FeedStats()
                let feed = try client.matchStream(eventID: event.id, sport: rt.settings.sport, stats: stats)
                try await Watch.follow(event, sourceEvents: [event], feed: feed, bell: bell, history: writer, rt)
            }
        }
    }

    /// The match that `typed` names among `live`: its id, or the one match whose team names contain it;
    /// nil when none does (several is a usage error listing them).
    static func find(_ typed: String, among live: [Event]) throws -> Event? {
        if let byID = live.first(where: { $0.id == typed || $0.shortID == typed }) { return byID }
        let found = candidates(typed, in: live)
        if found.count > 1 {
            let list = found.prefix(10).map { "\($0.shortID) \(TerminalText.safe($0.title))" }.joined(separator: "; ")
            throw OddsError.usage("'\(typed)' matches \(found.count) live matches: \(list). Name one by its id.")
        }
        return found.first
    }

    /// The fused match that `typed` names among `live`.
    static func resolve(_ typed: String, among live: [Event], sport: String?) throws -> Event {
        if let event = try find(typed, among: live) { return event }
        throw OddsError.notFound("No live match\(sport.map { " (\($0))" } ?? "") of these providers is '\(typed)'.")
    }

    /// The live match of `provider` that `typed` names.
    static func resolve(_ typed: String, provider: any OddsProvider, sport: String?) async throws -> Event {
        // The list alone: a look-up needs names and ids, not every match's prices.
        if let event = try find(typed, among: try await provider.liveList(sport: sport)) { return event }
        // Some providers follow a match by its id before it is live (one about to start).
        if let upcoming = provider.upcomingEvent(id: typed, sport: sport) { return upcoming }
        throw OddsError.notFound("No live match of \(provider.id.displayName)\(sport.map { " (\($0))" } ?? "") is '\(typed)'.")
    }

    /// Live matches with a team whose name contains `typed` (any case, accents ignored); an exact
    /// team name wins over a part of one.
    static func candidates(_ typed: String, in events: [Event]) -> [Event] {
        func fold(_ s: String) -> String { s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }
        let t = fold(typed.trimmingCharacters(in: .whitespaces))
        let exact = events.filter { e in [e.home, e.away ?? ""].contains { fold($0) == t } || fold(e.title) == t }
        if !exact.isEmpty { return exact }
        return events.filter { e in [e.home, e.away ?? ""].contains { fold($0).contains(t) } }
    }

    /// Seconds `follow` waits, after the match's status says it ended, for the incident that ends it.
    static let finalWordWait: TimeInterval = 5

    /// Whether the incidents told so far end with the match's end (full time, after extra time or penalties):
    /// a marker that ends the match, with nothing told after it in match order.
    static func hasFinalWord(_ incidents: [Incident]) -> Bool {
        guard let last = Incident.inMatchOrder(incidents).last(where: { $0.kind == .period }) else { return false }
        return last.endsMatch
    }

    /// Prints the match's incidents as they come, until it ends, the feed stops, or a signal. A fused
    /// match (`matchID`) is followed through every source in `sourceEvents`: the score line shows the
    /// freshest scoreboard, an incident several providers tell is printed once (`IncidentLog`), and each
    /// NDJSON line carries the fused match's id.
    static func follow(_ start: Event, sourceEvents: [Event], matchID: String? = nil, feed: FeedStream, bell: Bool,
                       history: HistoryWriter? = nil, _ rt: Runtime) async throws {
        let io = rt.io
        let human = io.stdoutIsTTY && rt.common.requestedFormat == nil
        let labels = rt.renderOptions.jsonLabels
        let keys = sourceEvents.map { EventKey(provider: $0.provider, id: $0.id) }
        if human, rt.demo { io.out("DEMO: simulated match, not real.\n") }
        _ = try await untilInterrupted {
            var store = LiveStore()
            var log = IncidentLog()
            let member = matchID.map { (matchKey: $0, reason: "joined for odds watch") }
            for e in sourceEvents {
                let first = FeedMessage(provider: e.provider, receivedAt: Date(), update: .upsert(e))
                store.apply(first)
                history?.record(first, in: store, member: member)
                for incident in e.incidents { log.tell(incident, by: e.provider) }
            }
            /// The match now: one source's event as it is, or the fused view of several.
            func current() -> Event? {
                let events = keys.compactMap { store.events[$0]?.event }
                guard let id = matchID else { return events.first }
                return FusedMatch.view(id: id, events: events)
            }
            func out(_ message: FeedMessage) { io.out(EventJSON.update(message, match: matchID, labels: labels).rendered + "\n") }
            var shownScore = ""
            func showScore(_ e: Event) {
                guard human else { return }
                let line = TerminalText.safe(WatchReporter.scoreLine(e))
                if line != shownScore { io.out("\r\u{1B}[2K" + line); shownScore = line }
            }
            if let e = current(), !e.home.isEmpty { showScore(e) }
            var finishing = false
            func finish() {
                guard !finishing else { return }
                finishing = true
                let grace = Watch.finalWordWait
                Task { try? await Task.sleep(nanoseconds: UInt64(grace * 1e9)); feed.finish() }
            }
            // The match as last seen: what an incident told after the match left the feed is printed against.
            var last = current()
            for try await message in feed {
                if let id = message.update.eventID, !keys.contains(EventKey(provider: message.provider, id: id)) { continue }
                store.apply(message)
                history?.record(message, in: store, member: member)
                // Gone from every source: over, or withdrawn; an ended match's last word may still be on its way.
                if case .remove = message.update, !keys.contains(where: { store.events[$0] != nil }) {
                    guard last?.status == .ended, !Watch.hasFinalWord(log.incidents) else { return }
                    finish()
                }
                guard let event = current() ?? last else { continue }
                last = event
                switch message.update {
                case .incident(_, let incident):
                    guard log.tell(incident, by: message.provider) else { continue }
                    if human {
                        io.out("\r\u{1B}[2K" + TerminalText.safe(WatchReporter.line(incident, event: event)) + "\n")
                        if bell, WatchReporter.rings(incident) { io.out("\u{07}") }
                        shownScore = ""
                        showScore(event)
                    } else {
                        out(message)
                    }
                case .heartbeat:
                    // A pong: the clock runs on between messages.
                    showScore(event)
                case .scoreboard, .score, .status, .upsert, .bookUpsert, .bookViews, .snapshot:
                    if human { showScore(event) }
                    else if case .scoreboard = message.update { out(message) }
                    else if case .score = message.update { out(message) }
                case .connection(let state):
                    // The first connecting says nothing; a later state goes above the score line, on stderr.
                    if case .stopped = state { break }
                    if human, state != .live, state != .connecting {
                        io.out("\r\u{1B}[2K")
                        io.err("\(message.provider.displayName): \(state.label)")
                        shownScore = ""
                        showScore(event)
                    }
                default:
                    break
                }
                if io.stdoutClosed { return }
                if event.status == .ended {
                    // The incidents that end the match follow its status (a fetch after the change): done once
                    // the match's last word is in, or after a bounded wait for it.
                    if Watch.hasFinalWord(log.incidents) { return }
                    finish()
                }
            }
        }
        if human && io.stdoutIsTTY { io.out("\n") }
    }
}
