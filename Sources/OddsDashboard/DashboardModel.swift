import Foundation
import OddsAlerts
import OddsFusion
import OddsModel
import OddsStore
import OddsValue

/// A key, as the dashboard understands it.
public enum Key: Hashable, Sendable {
    case up, down, pageUp, pageDown, home, end, enter, escape, backspace
    /// Ctrl-U: clear the line being typed.
    case clearLine
    /// Ctrl-W: delete the word before the cursor.
    case deleteWord
    case character(Character)
}

/// Everything that can change the dashboard.
public enum DashboardMessage: Sendable {
    case key(Key)
    case feed(FeedMessage)
    /// The feed ended; `reason` is nil when it ended without error.
    case feedEnded(reason: String?)
    case tick(Date)
    case resize(width: Int, height: Int)
    /// What the history kept of a row from before the dashboard started.
    case history(row: EventKey, seed: TrailSeed)
    /// A line for the ticker from the run loop (a bet recorded, or why it was not).
    case notice(String)
}

/// What the run loop must do after an update.
public enum DashboardEffect: Hashable, Sendable {
    case saveFavourites([String])
    /// `b`: record a bet in the ledger (the run loop finds it in the history and answers with a `.notice`).
    case recordBet(BetRequest)
    case quit
}

/// Table orders that `s` cycles through.
public enum DashboardSort: String, CaseIterable, Sendable {
    case kickoff = "kick-off"
    case league
    case priceMove = "price move"
    case incident = "latest incident"

    var next: DashboardSort {
        let all = DashboardSort.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

/// What fills the screen.
public enum DashboardMode: Hashable, Sendable {
    case table
    case detail(EventKey)
}

/// A line of the ticker: an incident or a fired alert, with its match.
public struct TickerItem: Hashable, Sendable {
    public var at: Date
    public var key: EventKey
    public var news: News

    public enum News: Hashable, Sendable {
        case incident(Incident)
        /// An alert rule fired: its line (rule, match, what happened).
        case alert(String)
        /// A rule was added (`a`).
        case note(String)
    }

    public init(at: Date, key: EventKey, incident: Incident) { self.init(at: at, key: key, news: .incident(incident)) }
    public init(at: Date, key: EventKey, news: News) { self.at = at; self.key = key; self.news = news }

    /// The incident, when the line is one.
    public var incident: Incident? {
        if case .incident(let i) = news { return i }
        return nil
    }
}

/// The dashboard's whole state: a pure value, changed only by `update`.
public struct DashboardModel: Sendable {
    public var provider: ProviderID
    public var sport: String
    public var demo: Bool
    /// The feed is a recording being replayed, not live.
    public var replay = false
    public var oddsFormat: OddsFormat
    /// Seconds without a message after which data is stale.
    public var stalenessBound: TimeInterval
    /// How long a moved price keeps its marker.
    public var moveMarkerSeconds: TimeInterval = 5
    /// How long a moved price flashes.
    public var flashSeconds: TimeInterval = 1

    /// The sources' events as they sent them.
    public internal(set) var store = LiveStore()
    /// With several providers: one row per real match, fused across them (`FusedStore`). A dashboard
    /// started on one provider turns fused when another provider's messages arrive (a recording of several).
    public internal(set) var fused: FusedStore?
    /// The providers whose state the header shows (one, or every provider of a fused view).
    public internal(set) var providers: [ProviderID]
    /// Per provider, seconds without a message after which its data is stale (`stalenessBound` for the others).
    public var stalenessBounds: [ProviderID: TimeInterval] = [:]
    /// The rows' store as it was when `p` paused the view.
    public internal(set) var frozen: LiveStore?
    public internal(set) var now: Date
    public internal(set) var width = 80
    public internal(set) var height = 24
    public internal(set) var mode = DashboardMode.table
    public internal(set) var selected: EventKey?
    public internal(set) var scroll = 0
    public internal(set) var detailScroll = 0
    public internal(set) var filter = ""
    public internal(set) var editingFilter = false
    public internal(set) var sort = DashboardSort.kickoff
    public internal(set) var favourites: Set<String>
    public internal(set) var showHelp = false
    public internal(set) var ticker: [TickerItem] = []
    /// Each price's path since the dashboard started, and each row's incidents with the prices around them.
    public internal(set) var trails = PriceTrails()
    /// The MOVE column's window (`--move-window`): the change over that many seconds; nil: since the open.
    public var moveWindow: TimeInterval?
    public internal(set) var feedEnded: String?
    /// Feed messages per tenth of a second, for messages per second.
    var recent = MessageRate()
    /// How team names are matched when the view fuses.
    let names: MatchNames
    /// `v`: value mode: a MARGIN column, prices whose EV passes `minEV` marked, rows with an open arbitrage
    /// flagged, and the detail pane's margins, fair prices and EVs.
    public internal(set) var valueMode = false
    /// The fair-price reference, de-vig method and freshness bounds of value mode.
    public var valueSettings = ValueSettings()
    /// The EV (a fraction: 0.02 is 2 %) a price must pass to be marked in value mode.
    public var minEV = Fraction.zero
    /// Books' short names for narrow columns (from the providers' descriptors).
    public var bookShortNames: [String: String] = [:]
    /// How old each price is (which providers send only changes).
    public var priceAges = PriceAges(changesOnly: [])
    let valueMemo = ValueMemo()
    /// Fused rows' markets read back to their sources' trail keys.
    let trailKeys = TrailKeyMemo()
    /// The rows' order, kept as events change (`rows`).
    var rowIndex = RowIndex()
    /// Something on screen changed since the run loop last drew (`drawn()`): a row on screen, the order
    /// above or on it, the ticker, the header's state, a key, a tick or a resize. Changes to rows off screen
    /// draw nothing.
    public internal(set) var needsDraw = true
    /// Alert rules checked against every change (the config's `[[alerts]]`, and what `a` adds); nil: none.
    public internal(set) var alerts: AlertEngine?
    /// Rows an alert fired for, and when: the row is marked for `alertMarkSeconds`.
    public internal(set) var alerted: [EventKey: Date] = [:]
    public var alertMarkSeconds: TimeInterval = 60
    /// Alerts that fired (the ticker keeps the newest).
    public internal(set) var alertsFired = 0
    /// `a`: the rule being written for a match.
    public internal(set) var ruleDraft: RuleDraft?
    /// `b`: the bet being written for a match's price.
    public internal(set) var betDraft: BetDraft?
    /// A fused match's incident told by several sources is one alert.
    var alertDeduper = AlertDeduper()
    /// When the dashboard started: a feed never heard from is silent since then (stale rules).
    let startedAt: Date

    /// A dashboard of `provider`; with `fusing` (several providers: `dash --provider all`), of fused matches,
    /// the header showing each of `fusing`'s connections, and team names matched with `names`.
    public init(provider: ProviderID, sport: String, demo: Bool, oddsFormat: OddsFormat, favourites: [String] = [],
                stalenessBound: TimeInterval = 30, now: Date, fusing: [ProviderID] = [], names: MatchNames = MatchNames()) {
        self.provider = fusing.count > 1 ? .fused : provider
        self.providers = fusing.count > 1 ? fusing : [provider]
        if fusing.count > 1 { fused = FusedStore(names: names) }
        self.names = names
        self.sport = sport
        self.demo = demo
        self.oddsFormat = oddsFormat
        self.favourites = Set(favourites)
        self.stalenessBound = stalenessBound
        self.now = now
        self.startedAt = now
    }

    public var paused: Bool { frozen != nil }

    /// `feedEnded` when the feed ended without an error.
    public static let feedEndedNormally = "feed ended"

    /// The store the view shows: the live one (of fused matches, when fused), or the frozen one while paused.
    public var shown: LiveStore { frozen ?? live }

    /// The rows' live store: the fused matches, or the one provider's events.
    var live: LiveStore { fused?.store ?? store }

    /// Whether the view shows fused matches of several providers.
    public var isFused: Bool { fused != nil }

    /// The staleness bound of `provider`'s data.
    public func stalenessBound(of provider: ProviderID) -> TimeInterval { stalenessBounds[provider] ?? stalenessBound }

    /// Whether a row's data is stale: its provider silent past its bound; a fused row when every source is.
    public func rowIsStale(_ key: EventKey) -> Bool {
        guard isFused else { return feedIsStale || shown.isStale(key, now: now, bound: stalenessBound) }
        let sources = shown.events[key]?.event.match?.sources ?? []
        return sources.allSatisfy { s in
            store.isStale(EventKey(provider: s.provider, id: s.id), now: now, bound: stalenessBound(of: s.provider))
        }
    }

    /// Messages per second over the last five seconds.
    public var messagesPerSecond: Double { recent.perSecond(at: now) }

    /// The feed's state; when fused, the best provider's (the view lives while one does).
    public var connection: ConnectionState {
        guard isFused else { return store.feeds[provider]?.connection ?? .connecting }
        return providerStates.map(\.state).min { $0.severity < $1.severity } ?? .connecting
    }

    /// Each connection's state, by name (one entry, `"live"`, for a provider with one connection).
    public var connections: [(name: String, state: ConnectionState, since: Date)] {
        guard let feed = store.feeds[provider] else { return [] }
        return feed.connections.keys.sorted().map { ($0, feed.connections[$0]!, feed.connectionSince[$0] ?? now) }
    }

    /// Each provider of the view with its feed's state (the worst of its connections), for the header.
    public var providerStates: [(provider: ProviderID, state: ConnectionState, since: Date, stale: Bool)] {
        providers.map { id in
            guard let feed = store.feeds[id] else { return (id, .connecting, now, false) }
            let since = feed.worstConnection.flatMap { feed.connectionSince[$0] } ?? now
            let stale = feed.lastMessageAt.map { now.timeIntervalSince($0) > stalenessBound(of: id) } ?? false
            return (id, feed.connection, since, stale)
        }
    }

    public var lastMessageAt: Date? {
        isFused ? providers.compactMap { store.feeds[$0]?.lastMessageAt }.max() : store.feeds[provider]?.lastMessageAt
    }

    /// True when the feed has been silent longer than the staleness bound (when fused: every provider).
    public var feedIsStale: Bool {
        guard isFused else {
            guard let last = lastMessageAt else { return false }
            return now.timeIntervalSince(last) > stalenessBound
        }
        let states = providerStates
        return !states.isEmpty && states.allSatisfy(\.stale)
    }

    /// What the rows' order is made for.
    var rowBasis: RowIndex.Basis { RowIndex.Basis(sort: sort, needle: filter.lowercased(), favourites: favourites) }

    /// The rows' order: the kept index, or (for a model changed other than by `update`) one made now.
    var order: RowIndex {
        if let basis = rowIndex.basis, basis == rowBasis { return rowIndex }
        var index = RowIndex()
        index.rebuild(shown, basis: rowBasis, now: now)
        return index
    }

    /// The rows of the table, in order: favourites first, then by the chosen sort; filtered.
    public var rows: [EventKey] { order.keys }

    /// How many rows the table has.
    public var rowCount: Int { order.count }

    /// The order made whole again when what it is made for changed (sort, filter, favourites, the paused
    /// view) or, under the price-move sort, a second after it was last made (moves age).
    mutating func syncRows(force: Bool = false) {
        let basis = rowBasis
        if force || rowIndex.basis != basis || (sort == .priceMove && now.timeIntervalSince(rowIndex.builtAt) >= 1) {
            rowIndex.rebuild(shown, basis: basis, now: now)
            keepSelectionInView()
        }
    }

    /// The run loop drew the screen.
    public mutating func drawn() { needsDraw = false }

    /// The sort's primary value, smaller first (league order compares league names next).
    static func sortValue(_ s: EventState, by sort: DashboardSort, now: Date) -> Double {
        switch sort {
        case .kickoff:
            // Earliest kick-off first; without start times, the longest-running match first.
            if let start = s.event.startTime { return start.timeIntervalSince1970 - 1e12 }
            return -Double(s.event.minute ?? -1)
        case .league:
            return 0
        case .priceMove:
            return -biggestMove(s, now: now)
        case .incident:
            return -(s.lastIncidentAt ?? .distantPast).timeIntervalSince1970
        }
    }

    /// The largest change of implied probability among the main market's moves of the last minute.
    static func biggestMove(_ s: EventState, now: Date) -> Double {
        guard let market = s.event.mainMarket else { return 0 }
        var best = 0.0
        for sel in market.mainSelections {
            guard let move = s.moves[SelectionKey(market: market, selection: sel)],
                  now.timeIntervalSince(move.changedAt) <= 60, let before = move.previous, let after = sel.price else { continue }
            let p1 = Double(before.impliedProbability.numerator) / Double(before.impliedProbability.denominator)
            let p2 = Double(after.impliedProbability.numerator) / Double(after.impliedProbability.denominator)
            best = max(best, abs(p2 - p1))
        }
        return best
    }

    /// The rows on screen, top to bottom (none while the detail pane is open).
    public var visibleRows: [EventKey] {
        guard case .table = mode else { return [] }
        let order = self.order
        return (scroll..<min(order.count, scroll + visibleRowCount)).map(order.key(at:))
    }

    /// The match the detail pane shows, if it is open: the run loop subscribes to its channels
    /// while it is (SportsAPIPro's match channels) and unsubscribes when it closes.
    public var focused: EventKey? {
        if case .detail(let k) = mode { return k }
        return nil
    }

    /// The id `provider` gives a row: the row's own (a provider's event), or its source of that provider (a fused row).
    public func sourceID(of key: EventKey, provider: ProviderID) -> String? {
        if key.provider == provider { return key.id }
        return shown.events[key]?.event.match?.sources.first { $0.provider == provider }?.id
    }

    /// Table rows that fit on screen.
    public var visibleRowCount: Int { max(1, DashboardLayout.tableRows(height: height)) }
}

/// The one place the dashboard changes: keys, feed updates, ticks and resizes.
public func update(_ model: inout DashboardModel, _ message: DashboardMessage) -> [DashboardEffect] {
    switch message {
    case .feed(let m):
        model.trails.record(m.update, provider: m.provider, at: m.receivedAt, held: model.store)
        model.store.apply(m)
        model.recent.count(at: m.receivedAt)
        // A second provider's messages (a recording of several): from now on, one row per real match.
        if model.fused == nil, m.provider != model.provider {
            model.providers = model.store.feeds.keys.sorted()
            model.provider = .fused
            var fused = FusedStore(names: model.names)
            fused.rebuild(from: model.store, at: m.receivedAt)
            model.fused = fused
            model.ticker.removeAll()
            if case .detail = model.mode { model.mode = .table }
            model.selected = nil
            model.syncRows(force: true)
            model.clampSelection()
            model.needsDraw = true
        } else if model.fused != nil, !model.providers.contains(m.provider) {
            model.providers.append(m.provider)
        }
        let told = model.ticker.first
        var touched: [EventKey] = []
        if model.fused != nil {
            let news = model.fused!.apply(m, sources: model.store)
            for (row, incident) in news { model.tell(TickerItem(at: m.receivedAt, key: row, incident: incident)) }
            touched = model.fused!.touchedRows
        } else {
            if case .incident(let id, let incident) = m.update {
                model.tell(TickerItem(at: m.receivedAt, key: EventKey(provider: m.provider, id: id), incident: incident))
            }
            if let id = m.update.eventID { touched = [EventKey(provider: m.provider, id: id)] }
        }
        if model.alerts != nil { model.checkAlerts(m) }
        model.now = max(model.now, m.receivedAt)
        for key in touched where model.trails.awaitsChange(key) {
            model.trails.mainLine(key, model.mainPrices(key), at: m.receivedAt)
        }
        if model.ticker.first != told { model.needsDraw = true }
        if case .connection = m.update { model.needsDraw = true }
        // The paused view's rows are the frozen store's: the feed changes none of them.
        guard !model.paused else { return [] }
        switch m.update {
        case .snapshot where model.fused == nil, .clear where model.fused == nil:
            model.syncRows(force: true)
            model.needsDraw = true
        case .heartbeat, .connection:
            break
        default:
            model.followRows(touched)
        }
        // Rows may have gone: the selection stays on one that is there.
        switch m.update {
        case .snapshot, .remove, .clear: model.clampSelection()
        // A feed that adds rows one by one (scoreboards) gets its first row selected.
        default: if model.selected == nil { model.clampSelection() }
        }
        return []
    case .feedEnded(let reason):
        model.feedEnded = reason ?? DashboardModel.feedEndedNormally
        model.needsDraw = true
        return []
    case .tick(let date):
        model.now = date
        // Clocks run, markers and staleness age: a tick draws.
        model.needsDraw = true
        if model.fused != nil {
            let bounds = model.stalenessBounds, bound = model.stalenessBound
            model.fused!.refreshStaleness(sources: model.store, now: date) { bounds[$0] ?? bound }
            if !model.paused { model.followRows(model.fused!.touchedRows) }
        }
        model.syncRows()
        model.tickAlerts(date)
        return []
    case .resize(let w, let h):
        model.width = w
        model.height = h
        model.needsDraw = true
        model.clampSelection()
        return []
    case .notice(let text):
        model.tell(TickerItem(at: model.now, key: EventKey(provider: model.provider, id: ""), news: .note(text)))
        model.needsDraw = true
        return []
    case .history(let row, let seed):
        model.trails.seed(row, seed)
        model.needsDraw = true
        return []
    case .key(let key):
        model.needsDraw = true
        let wasPaused = model.paused
        let effects = model.handle(key)
        // Pausing or resuming changes the store the rows come from.
        model.syncRows(force: model.paused != wasPaused)
        model.clampSelection()
        return effects
    }
}

extension DashboardModel {
    /// The kept order follows a change of the rows `touched`, and `needsDraw` says whether it shows (the first
    /// rows, a fused view's first snapshot, make the order whole).
    mutating func followRows(_ touched: [EventKey]) {
        guard rowIndex.basis != nil else {
            syncRows(force: true)
            needsDraw = true
            return
        }
        let window = scroll..<(scroll + visibleRowCount)
        follow(rowIndex.follow(touched, in: shown, now: now, window: window), touched: touched)
    }

    /// Whether a change of the rows shows: a row on screen changed, or the order did above or on the screen
    /// (the detail pane: its own match changed).
    mutating func follow(_ change: RowIndex.Change, touched: [EventKey]) {
        switch mode {
        case .detail(let key):
            if touched.contains(key) { needsDraw = true }
        case .table:
            switch change {
            case .none: break
            case .all:
                needsDraw = true
                keepSelectionInView()
            case .from(let i):
                if i < scroll + visibleRowCount { needsDraw = true }
                if keepSelectionInView() { needsDraw = true }
            }
        }
    }

    /// Scrolls so that the selected row stays on screen when rows moved around it (the table shows the
    /// rows from `scroll`). Returns whether the scroll changed.
    @discardableResult
    mutating func keepSelectionInView() -> Bool {
        guard let s = selected, let i = rowIndex.position(of: s) else { return false }
        let before = scroll
        scroll(toShow: i, of: rowIndex.count)
        return scroll != before
    }

    /// Scrolls within the `count` rows so that row `i` is on screen.
    mutating func scroll(toShow i: Int, of count: Int) {
        let n = visibleRowCount
        scroll = min(scroll, max(0, count - n))
        if i < scroll { scroll = i }
        if i >= scroll + n { scroll = i - n + 1 }
    }

    /// A line for the ticker (the newest 100 are kept).
    mutating func tell(_ item: TickerItem) {
        ticker.insert(item, at: 0)
        if ticker.count > 100 { ticker.removeLast(ticker.count - 100) }
        if let incident = item.incident, PriceTrails.marks(incident) {
            let line = lineAtIncident(item.key)
            trails.mark(incident, row: item.key, at: item.at, prices: line.before, standing: line.standing)
        }
    }

    /// The 1 / X / 2 cells' prices of a row as it stands (nil: suspended, or no price).
    func mainPrices(_ key: EventKey) -> [Price?] {
        guard let e = live.events[key]?.event, e.mainMarket != nil else { return [] }
        return e.mainColumns.openPrices
    }

    /// The main line of a row an incident arrives at now, read once: its cells as they stand (`mainPrices`), and
    /// its prices just before, each cell as it stands or, where suspended, its last price seen open (as `history
    /// show` reads "before").
    func lineAtIncident(_ key: EventKey) -> (before: [Price?], standing: [Price?]) {
        guard let e = live.events[key]?.event, let main = e.mainMarket else { return ([], []) }
        let columns = e.mainColumns
        let standing = columns.openPrices
        let before = zip(columns.cells, standing).map { c, price -> Price? in
            guard let c else { return nil }
            if let price { return price }
            let market = e.markets.first { $0.id == main.id && $0.book == c.book } ?? main
            return trailKey(key, market, selection: c.selection.id, event: e).flatMap { trails.lastOpen($0) }
        }
        return (before, standing)
    }

    /// Where a market of row `row`'s event keeps its prices: its provider's own event (a fused row's market names
    /// its source).
    func trailEvent(_ row: EventKey, _ market: Market, event: Event? = nil) -> EventKey? {
        guard let e = event ?? live.events[row]?.event ?? shown.events[row]?.event else { return nil }
        guard let match = e.match else { return row }
        let provider = market.provider ?? row.provider
        return match.sources.first { $0.provider == provider }.map { EventKey(provider: provider, id: $0.id) }
    }

    /// The trail of `selection` (an id) of `market` as row `row` shows it. A fused row shows its sources' markets by
    /// meaning (the match result as `result` with `home`, `draw`, `away`; totals, spreads, both teams to score), while
    /// the trails keep what each provider sent under its own ids: those are found in the source's event.
    func trailKey(_ row: EventKey, _ market: Market, selection: String, event: Event? = nil) -> PriceTrails.Key? {
        guard let source = trailEvent(row, market, event: event) else { return nil }
        let shown = PriceTrails.Key(event: source, market: market, selection: selection)
        guard source != row, FusedMatch.isByMeaning(market.id) else { return shown }
        let asked = TrailKeyMemo.Asked(source: source, market: market.id, book: market.book ?? "", selection: selection)
        // Read back once: a key that has points is the source's still (the table asks for it every frame).
        if let known = trailKeys.key(asked), !trails.points(known).isEmpty { return known }
        guard let raw = store.events[source]?.event else { return shown }
        let found = rawTrailKey(source, raw, market, selection: selection) ?? shown
        trailKeys.keep(found, for: asked)
        return found
    }

    /// The source's own key of a fused market's selection: its market at that book whose normalized form has the
    /// fused id, and the selection it came from.
    private func rawTrailKey(_ source: EventKey, _ raw: Event, _ market: Market, selection: String) -> PriceTrails.Key? {
        let main = FusedMatch.mainMarket(of: raw)
        let result = market.id == FusedMatch.resultMarketID
        for m in raw.markets where (m.book ?? raw.provider.singleBook ?? raw.provider.rawValue) == market.book {
            // The match result is the source's main market, at each book: no other is normalized to find it.
            if result, m.id != main?.id { continue }
            for (n, origins) in FusedMatch.normalizedWithOrigins(m, main: main, event: raw) where n.id == market.id {
                if let j = n.selections.firstIndex(where: { $0.id == selection }) {
                    return PriceTrails.Key(event: source, market: m, selection: m.selections[origins[j]].id)
                }
            }
        }
        return nil
    }

    mutating func handle(_ key: Key) -> [DashboardEffect] {
        if ruleDraft != nil {
            editRule(key)
            return []
        }
        if betDraft != nil { return editBet(key) }
        if editingFilter {
            switch key {
            case .escape: filter = ""; editingFilter = false
            case .enter: editingFilter = false
            default: _ = LineEditor.apply(key, to: &filter)
            }
            // The rows are made again for the new filter, and the selection kept on one, after the key (`update`).
            scroll = 0
            return []
        }
        if showHelp {
            if key == .character("q") { return [.quit] }
            showHelp = false
            return []
        }
        switch key {
        case .character("q"): return [.quit]
        case .character("?"): showHelp = true
        case .character("/"):
            if mode == .table { editingFilter = true }
        case .escape:
            if case .detail = mode { mode = .table; detailScroll = 0 } else { filter = "" }
        case .enter:
            if mode == .table, let s = selected { mode = .detail(s); detailScroll = 0 }
        case .up, .character("k"): move(by: -1)
        case .down, .character("j"): move(by: 1)
        case .pageUp: move(by: -visibleRowCount)
        case .pageDown: move(by: visibleRowCount)
        case .home, .character("g"): move(to: 0)
        case .end, .character("G"): move(to: Int.max)
        case .character("s"): sort = sort.next
        case .character("o"):
            let all = OddsFormat.allCases
            oddsFormat = all[(all.firstIndex(of: oddsFormat)! + 1) % all.count]
        case .character("p"): frozen = frozen == nil ? live : nil
        case .character("v"): valueMode.toggle()
        case .character("a"): startRule()
        case .character("b"): startBet()
        case .character("f"):
            let order = self.order
            guard let key = selected ?? (order.count > 0 ? order.key(at: 0) : nil), let e = shown.events[key]?.event else { return [] }
            let team = e.home
            if favourites.contains(team) || (e.away.map(favourites.contains) ?? false) {
                favourites.remove(team)
                if let a = e.away { favourites.remove(a) }
            } else {
                favourites.insert(team)
            }
            return [.saveFavourites(favourites.sorted())]
        default: break
        }
        return []
    }

    mutating func move(by delta: Int) {
        if case .detail(let key) = mode {
            // Within the pane: past its end, a page back would first have to undo the overshoot.
            detailScroll = min(max(0, detailScroll + delta), DashboardLayout.detailScrollLimit(self, key: key, height: height))
            return
        }
        let order = self.order
        guard order.count > 0 else { selected = nil; return }
        let index = selected.flatMap(order.position(of:)) ?? 0
        move(to: min(max(0, index + delta), order.count - 1), order: order)
    }

    mutating func move(to index: Int, order given: RowIndex? = nil) {
        if case .detail(let key) = mode {
            detailScroll = index == 0 ? 0 : DashboardLayout.detailScrollLimit(self, key: key, height: height)
            return
        }
        let order = given ?? self.order
        guard order.count > 0 else { selected = nil; return }
        let i = min(max(0, index), order.count - 1)
        selected = order.key(at: i)
        if i < scroll { scroll = i }
        if i >= scroll + visibleRowCount { scroll = i - visibleRowCount + 1 }
    }

    /// Keeps the selection on an existing row and the scroll within bounds.
    mutating func clampSelection() {
        let order = self.order
        guard order.count > 0 else { selected = nil; scroll = 0; return }
        let i: Int
        if let s = selected, let at = order.position(of: s) { i = at } else { i = 0; selected = order.key(at: 0) }
        scroll(toShow: i, of: order.count)
        if case .detail(let k) = mode, shown.events[k] == nil { mode = .table }
    }
}

/// Messages counted per tenth of a second over the last few seconds: O(1) a message, whatever the rate
/// (a list of receive times filtered on every message was O(rate) each past 4,096 in five seconds).
struct MessageRate: Sendable {
    private var slots = [Int](repeating: 0, count: 64)
    /// The tenth of a second of the newest slot.
    private var newest = Int.min

    /// Seconds averaged over.
    static let window = 5.0

    private static func tenth(_ date: Date) -> Int { Int((date.timeIntervalSince1970 * 10).rounded(.down)) }

    mutating func count(at date: Date) {
        let t = MessageRate.tenth(date)
        if newest == .min || t > newest {
            // The slots between the newest and this one are empty: cleared as the window moves on.
            let from = newest == .min ? t - 63 : max(newest + 1, t - 63)
            for i in from...t { slots[((i % 64) + 64) % 64] = 0 }
            newest = t
        }
        guard t > newest - 64 else { return }
        slots[((t % 64) + 64) % 64] += 1
    }

    /// Messages a second over the `window` seconds up to `now`.
    func perSecond(at now: Date) -> Double {
        guard newest != .min else { return 0 }
        let last = MessageRate.tenth(now)
        let first = last - Int(MessageRate.window * 10) + 1
        let lo = max(first, newest - 63), hi = min(last, newest)
        guard lo <= hi else { return 0 }
        var total = 0
        for t in lo...hi { total += slots[((t % 64) + 64) % 64] }
        return Double(total) / MessageRate.window
    }
}

extension DashboardModel {
    /// What the history is asked for a row: its sources (a fused row's, else the row's own event) and its main
    /// line's cells (market, book, selection), to put the prices around its incidents in the same columns.
    public func historyRequest(_ row: EventKey) -> (sources: [EventKey], main: [(market: String, book: String, selection: String)?])? {
        guard let e = shown.events[row]?.event else { return nil }
        let sources = e.match?.sources.map { EventKey(provider: $0.provider, id: $0.id) } ?? [row]
        guard let main = e.mainMarket else { return (sources, []) }
        let cells = e.mainColumns.cells.map { cell in
            cell.map { (market: main.id, book: $0.book ?? main.book ?? "", selection: $0.selection.id) }
        }
        return (sources, cells)
    }
}
