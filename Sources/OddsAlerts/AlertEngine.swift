import Foundation
import OddsModel
import OddsStore
import OddsValue

/// Checks every change of the live stream against the rules and says which fired. A rule fires on the change
/// that makes it true, never on a suspended price, and not on what the first sight of a match already shows
/// (unless `initial`); having fired for a selection, it re-arms there only once it has been false again (a
/// level) or its window has passed (a move): one event, one alert. Memory is bounded by what the store holds:
/// state is kept per match and let go when the store lets the match go.
public struct AlertEngine: Sendable {
    public private(set) var rules: [AlertRule]
    /// Fire on what the first sight of a match already shows.
    public var initial: Bool
    /// How fair prices are made for value and arbitrage rules, and how old a price may be to count.
    public var valueSettings = ValueSettings()
    /// How old each book's prices are (nil: as of their arrival, every book fresh).
    public var ages: PriceAges?

    /// A level rule's state for one selection (and book, or the best across books).
    private enum Level { case armed, fired }
    private struct LevelKey: Hashable {
        var rule: Int
        var market: String
        var selection: SelectionRef
        var book: String?
    }

    private struct MoveKey: Hashable {
        var rule: Int
        var market: String
        var selection: SelectionRef
        var book: String
    }

    /// One selection of one market at one book.
    private struct PriceKey: Hashable {
        var market: String
        var selection: SelectionRef
        var book: String
    }

    /// A selection's recent prices at one book, oldest first, kept for the longest move or steam window: one trail
    /// for every move and steam rule, each reading the part within its own window.
    private struct Trail {
        var points: [(at: Date, price: Price)] = []

        /// The prices the selection stood at within `window` before `at`: those set within it, and the one it stood
        /// at when the window began (set before it).
        func within(_ window: TimeInterval, at: Date) -> ArraySlice<(at: Date, price: Price)> {
            // Oldest first: what was set before the window is a prefix, and its last one still stood in it.
            points[max(0, points.prefix { at.timeIntervalSince($0.at) > window }.count - 1)...]
        }

        /// Keeps what stood within `window` before `at`, and adds `price` where it differs from the last one (the
        /// oldest let go past `AlertEngine.trailLimit`).
        mutating func record(_ price: Price, at: Date, keep window: TimeInterval) {
            let old = points.prefix { at.timeIntervalSince($0.at) > window }.count
            if old > 1 { points.removeFirst(old - 1) }
            guard points.last?.price.decimalOdds != price.decimalOdds else { return }
            if points.count >= AlertEngine.trailLimit { points.removeFirst(points.count - AlertEngine.trailLimit + 1) }
            points.append((at, price))
        }
    }

    /// One selection of one market, across its books: where a steam rule fires.
    private struct SteamKey: Hashable {
        var rule: Int
        var market: String
        var selection: SelectionRef
    }

    /// A value price (a book's outcome) or an arbitrage (a market, `book` nil) that is open now.
    private struct OpenKey: Hashable {
        var rule: Int
        var market: String
        var line: String?
        var outcome: String
        var book: String?
    }

    private struct Match {
        var open: Set<OpenKey> = []
        var seenOpen = false
        var levels: [LevelKey: Level] = [:]
        var trails: [PriceKey: Trail] = [:]
        /// When each move rule last fired for a selection at a book.
        var moved: [MoveKey: Date] = [:]
        var steam: [SteamKey: Date] = [:]
        var incidents: Set<String> = []
        var status: EventStatus?
        /// With several providers: the real match the event belongs to, and when a message last told of the event.
        var fused: String?
        var heard: Date?
        /// The teams and league, to name a match whose events have all gone.
        var home = "", away: String?, league: String?
    }

    /// A fused match's source that left its feed while in play, kept until the match is live again or told of.
    private var lost: [EventKey: Match] = [:]
    /// Stale rules (by index) that fired for a fused match that lost its last live source, since.
    private var staleMatches: Set<StaleMatch> = []
    private struct StaleMatch: Hashable {
        var rule: Int
        var match: String
    }

    private var matches: [EventKey: Match] = [:]
    private var observed = 0
    /// When each provider's feed last said anything, and the stale rules (by index) that fired for it since.
    private var lastHeard: [ProviderID: Date] = [:]
    private var staleFired: [ProviderID: Set<Int>] = [:]
    /// Points a move trail keeps at most (the oldest go first).
    static let trailLimit = 256

    /// Per rule: the team it names (folded), when it names one rather than a selection's key.
    private var teamNames: [String?] = []
    /// The longest move or steam window: trails not touched for longer are let go.
    private var longestWindow: TimeInterval = 0
    /// Whether a value or arbitrage rule asks for margins and fair prices.
    private var needsValues = false
    /// Whether a stale rule asks for lost sources to be remembered.
    private var watchesStale = false

    public init(rules: [AlertRule], initial: Bool = false) {
        self.rules = rules
        self.initial = initial
        derive()
    }

    /// Adds a rule from now on (the dashboard's `a`). Like every rule, it fires on a change that makes it true,
    /// not on what it first sees.
    public mutating func add(_ rule: AlertRule) {
        rules.append(rule)
        derive()
    }

    /// Takes each match `store` holds as seen, as it stands (its first sight, firing nothing): for an engine that
    /// starts on a view already showing matches, whose next change is news.
    public mutating func prime(_ store: LiveStore, at: Date) {
        var ignored: [Alert] = []
        for (key, state) in store.events where matches[key] == nil {
            var match = Match()
            check(state.event, &match, at: at, quiet: true, store: store, touched: nil, into: &ignored)
            matches[key] = match
        }
    }

    /// What the rules ask of each change, worked out once for all of them.
    private mutating func derive() {
        teamNames = rules.map { rule in
            let pattern: SelectionPattern
            switch rule.kind {
            case .price(let l): pattern = l.selection
            case .move(let m): pattern = m.selection
            case .steam(let s): pattern = s.selection
            default: return nil
            }
            guard case .named(let name, _) = pattern, !SelectionPattern.keys.contains(name.lowercased()) else { return nil }
            return TeamName.fold(name)
        }
        longestWindow = rules.map { rule -> TimeInterval in
            switch rule.kind {
            case .move(let m): return m.window
            case .steam(let s): return s.window
            default: return 0
            }
        }.max() ?? 0
        needsValues = rules.contains { rule in
            switch rule.kind {
            case .value, .arbitrage: return true
            default: return false
            }
        }
        watchesStale = rules.contains { if case .stale = $0.kind { true } else { false } }
    }

    /// Matches followed.
    public var count: Int { matches.count }

    /// The alerts `message` sets off, read from `store` after the message was applied to it. With several
    /// providers, `fusedMatch` names the real match each event belongs to: each alert carries it (`Alert.fusedMatch`),
    /// and `stale` fires for a match that lost its last live source.
    public mutating func observe(_ message: FeedMessage, in store: LiveStore, fusedMatch: ((EventKey) -> String?)? = nil) -> [Alert] {
        var alerts: [Alert] = []
        // Anything from a feed, a heartbeat too, is word that it is alive: its stale rules re-arm.
        lastHeard[message.provider] = max(lastHeard[message.provider] ?? message.receivedAt, message.receivedAt)
        staleFired[message.provider] = nil
        for key in Self.events(message) {
            guard let event = store.events[key]?.event else {
                leave(key, at: message.receivedAt)
                continue
            }
            // Taken out while it changes, so that its trails are changed in place, not copied.
            let held = matches.removeValue(forKey: key)
            let first = held == nil
            var match = held ?? Match()
            if let fusedMatch {
                match.fused = fusedMatch(key) ?? match.fused
                if let id = match.fused, !staleMatches.isEmpty { staleMatches = staleMatches.filter { $0.match != id } }
            }
            match.heard = message.receivedAt
            lost[key] = nil
            match.home = event.home; match.away = event.away; match.league = event.league
            let quiet = first && !initial
            // Only the markets the message can have changed are read (every book of each, for the best price).
            let touched = first ? nil : Self.markets(message)
            var scoped = event
            if let touched { scoped.markets = event.markets.filter { touched.contains($0.id) } }
            check(scoped, &match, at: message.receivedAt, quiet: quiet, store: store, touched: touched, into: &alerts)
            matches[key] = match
        }
        if case .remove(let id) = message.update { leave(EventKey(provider: message.provider, id: id), at: message.receivedAt) }
        // Matches the store has let go (ended, removed) are let go here too, now and then.
        observed += 1
        if observed % 4096 == 0 {
            for key in matches.keys where store.events[key] == nil { leave(key, at: message.receivedAt) }
            // A source lost long ago whose match said nothing since is let go (its alert, if any, has fired).
            lost = lost.filter { message.receivedAt.timeIntervalSince($0.value.heard ?? message.receivedAt) < Self.lostLimit }
            // Trails whose last price is older than any window can fire no move: let go.
            let now = message.receivedAt, longest = longestWindow
            for key in matches.keys {
                matches[key]!.trails = matches[key]!.trails.filter { now.timeIntervalSince($0.value.points.last?.at ?? now) <= longest }
                matches[key]!.moved = matches[key]!.moved.filter { now.timeIntervalSince($0.value) < longest }
            }
        }
        return alerts
    }

    /// Seconds a lost source is remembered without word of its match.
    static let lostLimit: TimeInterval = 3_600

    /// An event gone from its feed: a fused match's source in play is remembered as lost (`stale`).
    private mutating func leave(_ key: EventKey, at: Date) {
        guard let match = matches.removeValue(forKey: key) else { return }
        if match.fused != nil, match.status?.isInPlay == true, watchesStale {
            lost[key] = match
        }
    }

    /// The stale rules' alerts at `now`: each feed of `providers` silent for longer than a rule's limit, once until
    /// it speaks again (a feed not heard from yet counts from `since`, when the command started); and, with several
    /// providers, each match in play that lost its last live source (each gone from its feed, or its feed silent,
    /// one at least gone), once until one is told of again.
    public mutating func tick(now: Date, providers: [ProviderID], since: Date) -> [Alert] {
        var alerts: [Alert] = []
        for (i, rule) in rules.enumerated() {
            guard case .stale(let after) = rule.kind else { continue }
            for provider in providers {
                let heard = lastHeard[provider] ?? since
                let silent = now.timeIntervalSince(heard)
                guard silent > after, staleFired[provider]?.contains(i) != true else { continue }
                staleFired[provider, default: []].insert(i)
                var a = Alert(rule: rule, at: now, provider: provider, eventID: "", home: "\(provider.displayName) feed", away: nil, league: nil)
                a.silentFor = silent
                alerts.append(a)
            }
            alerts += lostMatches(i, rule, after: after, now: now)
        }
        return alerts
    }

    /// Fused matches in play whose sources have all left their feeds or gone silent past `after`, one at least gone
    /// (a feed that merely went silent is its own alert, not one for each of its matches).
    private mutating func lostMatches(_ i: Int, _ rule: AlertRule, after: TimeInterval, now: Date) -> [Alert] {
        guard !lost.isEmpty || matches.values.contains(where: { $0.fused != nil }) else { return [] }
        struct Group { var live = false, inPlay = false, gone = false, heard = Date.distantPast, member: (EventKey, Match)? }
        var groups: [String: Group] = [:]
        for (key, match) in matches {
            guard let id = match.fused else { continue }
            var g = groups[id] ?? Group()
            let heard = max(match.heard ?? .distantPast, lastHeard[key.provider] ?? .distantPast)
            if now.timeIntervalSince(heard) <= after { g.live = true }
            if match.status?.isInPlay == true { g.inPlay = true; g.member = g.member ?? (key, match) }
            g.heard = max(g.heard, match.heard ?? .distantPast)
            groups[id] = g
        }
        for (key, match) in lost {
            guard let id = match.fused else { continue }
            var g = groups[id] ?? Group()
            g.inPlay = true
            g.gone = true
            g.member = g.member ?? (key, match)
            g.heard = max(g.heard, match.heard ?? .distantPast)
            groups[id] = g
        }
        var alerts: [Alert] = []
        for (id, g) in groups.sorted(by: { $0.key < $1.key }) where g.inPlay && g.gone && !g.live {
            guard let (key, match) = g.member, staleMatches.insert(StaleMatch(rule: i, match: id)).inserted else { continue }
            var a = Alert(rule: rule, at: now, provider: key.provider, eventID: key.id, home: match.home, away: match.away, league: match.league)
            a.fusedMatch = id
            a.silentFor = now.timeIntervalSince(g.heard)
            a.sourcesLost = true
            alerts.append(a)
        }
        return alerts
    }

    /// The markets a message can have changed (by id); nil for all of them.
    static func markets(_ message: FeedMessage) -> Set<String>? {
        switch message.update {
        case .price(let p): return [p.marketID]
        case .bookUpsert(let e, _), .bookViews(let e, _): return Set(e.markets.map(\.id))
        case .scoreboard, .score, .incident, .status: return []
        default: return nil
        }
    }

    /// The matches a message can have changed.
    public static func events(_ message: FeedMessage) -> [EventKey] {
        func key(_ id: String) -> [EventKey] { [EventKey(provider: message.provider, id: id)] }
        switch message.update {
        case .snapshot(let events): return events.map { EventKey(provider: message.provider, id: $0.id) }
        case .upsert(let e), .bookUpsert(let e, _), .bookViews(let e, _): return key(e.id)
        case .price(let p): return key(p.eventID)
        case .scoreboard(let b): return key(b.eventID)
        case .score(let id, _, _), .incident(let id, _), .status(let id, _, _): return key(id)
        case .stats, .lineups, .remove, .clear, .heartbeat, .connection: return []
        }
    }

    private func check(_ event: Event, _ match: inout Match, at: Date, quiet: Bool, store: LiveStore, touched: Set<String>?,
                       into alerts: inout [Alert]) {
        // Margins, fair prices, value and arbitrage are worked out once a message, only when a rule asks; a book
        // whose prices are older than the settings allow counts for none of them.
        let ages = self.ages
        let values: [MarketValue] = needsValues
            ? ValueAnalysis.analyze(event, settings: valueSettings) { market in ages.map { $0.age(of: market, in: event, sources: store, now: at) } ?? 0 }
            : []
        var open = Set<OpenKey>()
        let start = alerts.count
        let teams = [TeamName.fold(event.home), TeamName.fold(event.away ?? "")]
        let key = EventKey(provider: event.provider, id: event.id)
        // The prices move and steam rules looked at: recorded in their trails once every move rule has read the
        // trails as they were (a move is from an earlier price), before the steam rules read them.
        var recorded: [PriceKey: Price] = [:]
        var steamGroups: [(Int, AlertRule, AlertRule.Steam, [SteamKey: [(market: Market, selection: Selection, price: Price)]])] = []
        for (i, rule) in rules.enumerated() {
            // A rule naming a team is about that team's matches only: others cost one comparison.
            if let team = teamNames[i], !teams.contains(team) { continue }
            if let scope = rule.scope, !scope.contains(key) { continue }
            switch rule.kind {
            case .price(let level): checkLevel(i, rule, level, event, &match, at: at, into: &alerts)
            case .move(let move): checkMove(i, rule, move, event, &match, at: at, recorded: &recorded, into: &alerts)
            case .steam(let steam): steamGroups.append((i, rule, steam, steamGroup(i, steam, event, recorded: &recorded)))
            case .incident(let kind, let team): checkIncident(rule, kind, team, event, &match, at: at, quiet: quiet, into: &alerts)
            case .value(let edge, let strict):
                checkValue(i, rule, Fraction(edge), strict, values, event, &match, open: &open, at: at, into: &alerts)
            case .arbitrage(let margin, let strict):
                checkArbitrage(i, rule, Fraction(margin), strict, values, event, &match, open: &open, at: at, into: &alerts)
            case .stale: break  // by the clock: `tick`
            }
        }
        let keep = longestWindow
        for (k, price) in recorded { match.trails[k, default: Trail()].record(price, at: at, keep: keep) }
        for (i, rule, steam, groups) in steamGroups { checkSteam(i, rule, steam, groups, event, &match, at: at, into: &alerts) }
        // The age of each price a price rule used (value and arbitrage rules have theirs from the analysis).
        for j in start..<alerts.count where alerts[j].ages.isEmpty && alerts[j].marketID != nil {
            let books = alerts[j].books.isEmpty ? [alerts[j].book] : alerts[j].books.map { Optional($0.book) }
            alerts[j].ages = books.map { book in
                let market = event.markets.first { $0.id == alerts[j].marketID && $0.book == book }
                return PriceAge(book: book ?? event.provider.singleBook ?? event.provider.rawValue,
                                seconds: market.flatMap { m in ages.map { $0.age(of: m, in: event, sources: store, now: at) } ?? nil })
            }
        }
        // With several providers, each alert names the real match its event belongs to.
        if let fused = match.fused { for j in start..<alerts.count { alerts[j].fusedMatch = fused } }
        // What is open now; what was open and is not has closed (and may fire again when it opens again). Markets
        // the message did not touch keep what they had.
        match.open = touched.map { t in match.open.filter { !t.contains($0.market) }.union(open) } ?? open
        match.seenOpen = true
        // What is seen now is seen: incidents and status are remembered once every rule has looked.
        for incident in event.incidents { match.incidents.insert(incident.identity) }
        match.status = event.status
    }

    private func alert(_ rule: AlertRule, _ event: Event, at: Date) -> Alert {
        Alert(rule: rule, at: at, provider: event.provider, eventID: event.id, home: event.home, away: event.away, league: event.league)
    }

    /// A level rule over each matching selection: at its book, or the best available price across books.
    private func checkLevel(_ i: Int, _ rule: AlertRule, _ level: AlertRule.PriceLevel, _ event: Event, _ match: inout Match,
                            at: Date, into alerts: inout [Alert]) {
        // The best price of each selection per market, among the books asked for; suspended prices do not count.
        var best: [LevelKey: (market: Market, selection: Selection, price: Price)] = [:]
        for market in event.markets {
            if let book = level.book, !Self.sameBook(market.book, book, event) { continue }
            for s in market.selections where level.selection.matches(selectionID: s.id, selectionName: s.name, line: s.line, event: event) {
                guard !s.suspended, let price = s.price else { continue }
                let key = LevelKey(rule: i, market: market.id, selection: s.ref, book: level.book)
                if let held = best[key], !(held.price.decimalOdds < price.decimalOdds) { continue }
                best[key] = (market, s, price)
            }
        }
        for (key, found) in best {
            let holds = level.comparison.holds(found.price.decimalOdds, level.level)
            let state = match.levels[key]
            if !holds {
                match.levels[key] = .armed
                continue
            }
            guard state != .fired else { continue }
            match.levels[key] = .fired
            // The first sight of a price (a match, or a market new to it) is not a change: not news, unless asked for.
            if state == nil && !initial { continue }
            var a = alert(rule, event, at: at)
            a.marketID = found.market.id; a.marketName = found.market.name; a.line = found.selection.line
            a.selection = found.selection.name; a.book = found.market.book; a.price = found.price
            alerts.append(a)
        }
    }

    /// A move rule over each matching selection at each book: the price now against the farthest from it
    /// within the window.
    private func checkMove(_ i: Int, _ rule: AlertRule, _ move: AlertRule.PriceMove, _ event: Event, _ match: inout Match,
                           at: Date, recorded: inout [PriceKey: Price], into alerts: inout [Alert]) {
        for market in event.markets {
            if let book = move.book, !Self.sameBook(market.book, book, event) { continue }
            for s in market.selections where move.selection.matches(selectionID: s.id, selectionName: s.name, line: s.line, event: event) {
                guard !s.suspended, let price = s.price else { continue }
                let key = PriceKey(market: market.id, selection: s.ref, book: market.book ?? "")
                recorded[key] = price
                guard let trail = match.trails[key], let last = trail.points.last, last.price.decimalOdds != price.decimalOdds,
                      let from = Self.farthest(trail.within(move.window, at: at), from: price),
                      Self.moved(from.price.decimalOdds, price.decimalOdds, by: move.change) else { continue }
                // Once a window, for this rule.
                let fired = MoveKey(rule: i, market: market.id, selection: s.ref, book: key.book)
                if let last = match.moved[fired], at.timeIntervalSince(last) < move.window { continue }
                match.moved[fired] = at
                var a = alert(rule, event, at: at)
                a.marketID = market.id; a.marketName = market.name; a.line = s.line; a.selection = s.name; a.book = market.book
                a.price = price; a.from = from.price; a.fromAt = from.at
                alerts.append(a)
            }
        }
    }

    /// A steam rule's matching selections, by market and selection, with each book's price now (to be recorded).
    private func steamGroup(_ i: Int, _ steam: AlertRule.Steam, _ event: Event, recorded: inout [PriceKey: Price])
        -> [SteamKey: [(market: Market, selection: Selection, price: Price)]] {
        var groups: [SteamKey: [(market: Market, selection: Selection, price: Price)]] = [:]
        for market in event.markets {
            for s in market.selections where steam.selection.matches(selectionID: s.id, selectionName: s.name, line: s.line, event: event) {
                guard !s.suspended, let price = s.price else { continue }
                recorded[PriceKey(market: market.id, selection: s.ref, book: market.book ?? "")] = price
                groups[SteamKey(rule: i, market: market.id, selection: s.ref), default: []].append((market, s, price))
            }
        }
        return groups
    }

    /// A steam rule over each matching selection: its books' prices within the window, each book's now against the
    /// farthest the other way; enough books moved the same way fires, once a window.
    private func checkSteam(_ i: Int, _ rule: AlertRule, _ steam: AlertRule.Steam,
                            _ groups: [SteamKey: [(market: Market, selection: Selection, price: Price)]], _ event: Event,
                            _ match: inout Match, at: Date, into alerts: inout [Alert]) {
        for (key, books) in groups where books.count >= steam.books {
            if let fired = match.steam[key], at.timeIntervalSince(fired) < steam.window { continue }
            var down: [BookMove] = [], up: [BookMove] = []
            for b in books {
                guard let trail = match.trails[PriceKey(market: key.market, selection: key.selection, book: b.market.book ?? "")] else { continue }
                // The price now (since when it stood, where that is within the window) and those before it.
                let window = trail.within(steam.window, at: at)
                let now: (at: Date, price: Price)
                let earlier: ArraySlice<(at: Date, price: Price)>
                if let last = window.last, last.price.decimalOdds == b.price.decimalOdds {
                    now = last; earlier = window.dropLast()
                } else {
                    now = (at, b.price); earlier = window
                }
                let p = now.price.decimalOdds
                if let high = earlier.max(by: { $0.price.decimalOdds < $1.price.decimalOdds }), p < high.price.decimalOdds,
                   Self.moved(high.price.decimalOdds, p, by: steam.change) {
                    down.append(BookMove(book: b.market.book ?? "", from: high.price, fromAt: high.at, to: now.price, at: now.at))
                } else if let low = earlier.min(by: { $0.price.decimalOdds < $1.price.decimalOdds }), low.price.decimalOdds < p,
                          Self.moved(low.price.decimalOdds, p, by: steam.change) {
                    up.append(BookMove(book: b.market.book ?? "", from: low.price, fromAt: low.at, to: now.price, at: now.at))
                }
            }
            for moved in [down, up] where moved.count >= steam.books {
                match.steam[key] = at
                let ordered = moved.sorted { ($0.at, $0.book) < ($1.at, $1.book) }
                let s = books[0].selection, m = books[0].market
                var a = alert(rule, event, at: at)
                a.marketID = m.id; a.marketName = m.name; a.line = s.line; a.selection = s.name
                a.books = ordered
                a.book = ordered.first?.book
                a.price = ordered.first?.to; a.from = ordered.first?.from; a.fromAt = ordered.first?.fromAt
                alerts.append(a)
                break
            }
        }
    }

    /// A value rule: each fresh, available price whose EV against the fair price reaches the edge, firing as it opens.
    private func checkValue(_ i: Int, _ rule: AlertRule, _ edge: Fraction, _ strict: Bool, _ values: [MarketValue], _ event: Event,
                            _ match: inout Match, open: inout Set<OpenKey>, at: Date, into alerts: inout [Alert]) {
        for m in values {
            for book in m.books where book.fresh {
                for (o, outcome) in m.outcomes.enumerated() {
                    guard let ev = book.ev[o], strict ? edge < ev : !(ev < edge), let quote = book.quotes[o] ?? nil, quote.isAvailable,
                          let price = quote.price else { continue }
                    let key = OpenKey(rule: i, market: m.id, line: outcome.line, outcome: outcome.id, book: book.source.book)
                    open.insert(key)
                    guard !match.open.contains(key), match.seenOpen || initial else { continue }
                    var a = alert(rule, event, at: at)
                    a.marketID = m.id; a.marketName = m.name; a.line = outcome.line; a.selection = outcome.name; a.book = book.source.book
                    a.price = price
                    a.fair = m.fairPrice(o).map { $0.rounded(places: 2) }
                    a.ev = ValueReport.percent(ev)
                    // The price, and every fresh book's the fair price was made from.
                    a.ages = [PriceAge(book: book.source.book, seconds: quote.age)]
                        + m.books.filter { $0.fresh && $0.source != book.source }.map { PriceAge(book: $0.source.book, seconds: $0.quotes.lazy.compactMap { $0?.age }.first) }
                    alerts.append(a)
                }
            }
        }
    }

    /// An arbitrage rule: a market whose best prices across books return at least the margin, firing as it opens.
    private func checkArbitrage(_ i: Int, _ rule: AlertRule, _ margin: Fraction, _ strict: Bool, _ values: [MarketValue], _ event: Event,
                                _ match: inout Match, open: inout Set<OpenKey>, at: Date, into alerts: inout [Alert]) {
        for m in values {
            guard let arb = m.arbitrage, strict ? margin < arb.profit : !(arb.profit < margin) else { continue }
            let key = OpenKey(rule: i, market: m.id, line: m.outcomes.first?.line, outcome: "", book: nil)
            open.insert(key)
            guard !match.open.contains(key), match.seenOpen || initial else { continue }
            var a = alert(rule, event, at: at)
            a.marketID = m.id; a.marketName = m.name; a.line = m.outcomes.first?.line
            a.legs = arb.legs.map { ArbitrageLeg(selection: m.outcomes[$0.outcome].name, book: $0.source.book, price: $0.price) }
            a.ages = arb.legs.map { PriceAge(book: $0.source.book, seconds: $0.age) }
            a.profit = ValueReport.percent(arb.profit)
            alerts.append(a)
        }
    }

    /// The point of `points` farthest from `price` (by ratio).
    static func farthest<Points: Collection>(_ points: Points, from price: Price) -> (at: Date, price: Price)? where Points.Element == (at: Date, price: Price) {
        guard let low = points.min(by: { $0.price.decimalOdds < $1.price.decimalOdds }),
              let high = points.max(by: { $0.price.decimalOdds < $1.price.decimalOdds }) else { return nil }
        // The larger of high/now and now/low, compared exactly: high·low against now².
        let p = price.decimalOdds
        guard let up = high.price.decimalOdds.multiplied(by: low.price.decimalOdds), let square = p.multiplied(by: p) else { return high }
        return square < up ? high : low
    }

    /// |to / from − 1| ≥ change, exactly.
    static func moved(_ from: Rational, _ to: Rational, by change: Rational) -> Bool {
        guard let ratio = to.multiplied(by: from.reciprocal ?? from), let one = Rational(1, 1) else { return false }
        let delta = one < ratio ? ratio.subtracting(one) : one.subtracting(ratio)
        guard let delta else { return false }
        return !(delta < change)
    }

    /// Incidents new since the match was last seen, and status changes (kick-off, full time).
    private func checkIncident(_ rule: AlertRule, _ kind: AlertRule.IncidentKind, _ team: String?, _ event: Event, _ match: inout Match,
                               at: Date, quiet: Bool, into alerts: inout [Alert]) {
        if quiet { return }
        if let team, !Self.names(team, event) { return }
        switch kind {
        case .kickoff, .final:
            let now = event.status
            let was = match.status
            let fires = kind == .kickoff ? now.isInPlay && !(was?.isInPlay ?? false) && was != .ended : now == .ended && was != .ended
            guard fires else { return }
            var a = alert(rule, event, at: at)
            a.status = now
            alerts.append(a)
        case .goal, .redCard, .penalty, .var:
            let letter: Character = kind == .goal ? "G" : kind == .redCard ? "R" : kind == .penalty ? "P" : "V"
            for incident in event.incidents where !match.incidents.contains(incident.identity) && incident.markLetter == letter {
                if let team, let side = incident.team, !Self.names(team, side == .home ? event.home : event.away ?? "") { continue }
                var a = alert(rule, event, at: at)
                a.incident = incident
                alerts.append(a)
            }
        }
    }

    /// Whether `name` names one of the match's teams (folded: the whole name, or a part of it).
    static func names(_ name: String, _ event: Event) -> Bool {
        names(name, event.home) || names(name, event.away ?? "")
    }

    static func names(_ name: String, _ team: String) -> Bool {
        let n = TeamName.fold(name), t = TeamName.fold(team)
        return !n.isEmpty && !t.isEmpty && (t == n || t.contains(n))
    }

    /// A market's book against one a rule names: its key or its name, any case; a single-book feed's own.
    static func sameBook(_ book: String?, _ wanted: String, _ event: Event) -> Bool {
        let b = book ?? event.provider.singleBook ?? ""
        return b.lowercased() == wanted.lowercased() || TeamName.fold(b) == TeamName.fold(wanted)
    }
}
