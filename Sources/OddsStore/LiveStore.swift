import Foundation
import OddsModel

/// Identifies an event across providers.
public struct EventKey: Hashable, Sendable, Comparable {
    public var provider: ProviderID
    public var id: String
    public init(provider: ProviderID, id: String) { self.provider = provider; self.id = id }
    public static func < (a: EventKey, b: EventKey) -> Bool {
        (a.provider.rawValue, a.id) < (b.provider.rawValue, b.id)
    }
}

/// Identifies one book's price of a selection inside an event: market, book, selection and line, so
/// that two books' prices and alternate lines never overwrite each other.
public struct SelectionKey: Hashable, Sendable {
    public var marketID: String
    public var book: String?
    public var selectionID: String
    public var line: String?
    public init(marketID: String, book: String? = nil, selectionID: String, line: String? = nil) {
        self.marketID = marketID; self.book = book; self.selectionID = selectionID; self.line = line
    }
}

/// Which way a price went. Up means longer odds (a higher decimal price).
public enum PriceDirection: String, Sendable { case up, down }

/// The last change of one selection's price.
public struct PriceMove: Hashable, Sendable {
    public var previous: Price?
    public var direction: PriceDirection?
    public var changedAt: Date
}

/// One event as the store knows it.
public struct EventState: Sendable {
    public var event: Event
    /// Per selection: its previous price, the direction and time of its last change.
    public var moves: [SelectionKey: PriceMove] = [:]
    /// When the store last applied an update to this event.
    public var lastUpdate: Date
    /// When the last incident arrived.
    public var lastIncidentAt: Date?
    /// The connection whose snapshot or upsert last sent the whole event: a later snapshot of that
    /// connection that lacks it removes it, another connection's does not (PulseScore has one
    /// connection per sport, each broadcasting its sport's whole list).
    public var connection: String = "live"
}

/// One provider feed's health.
public struct FeedState: Hashable, Sendable {
    /// Each connection's state by name (`"live"` for a provider with one connection).
    public var connections: [String: ConnectionState] = [:]
    /// When each connection's state last changed (to count down a reconnect).
    public var connectionSince: [String: Date] = [:]
    public var lastMessageAt: Date?
    public var messages: Int = 0

    /// The feed's state as one: the worst of its connections' (connecting before any is known).
    public var connection: ConnectionState { worstConnection.map { connections[$0]! } ?? .connecting }

    /// The name of the connection in the worst state (ties: the first name).
    public var worstConnection: String? {
        connections.keys.sorted().max { connections[$0]!.severity < connections[$1]!.severity }
    }
}

/// The current live state of every feed: a pure fold of `FeedMessage`s, with no I/O.
///
/// Updates mutate events in place inside the dictionary, so applying one price change does not
/// copy the event it belongs to.
public struct LiveStore: Sendable {
    public private(set) var events: [EventKey: EventState] = [:] {
        // Any change may move the events' places (an index found before is then invalid).
        didSet { generation &+= 1 }
    }
    /// Counts changes to `events`, so that `lastFound` is used only while nothing has changed since.
    private var generation = 0
    /// The last event `bookUpsert` found, its place, and `generation` then: a game comes book after
    /// book, and each of its books found it again by hashing its id (a long string), once per book.
    private var lastFound: (key: EventKey, index: Dictionary<EventKey, EventState>.Index, generation: Int)?
    public private(set) var feeds: [ProviderID: FeedState] = [:]
    /// Events removed lately (at most 1,000), which scores may not bring back.
    private var removed = Set<EventKey>()
    /// How long an ended event stays after its last update (then it is dropped, as if removed).
    public var endedRetention: TimeInterval = 120
    private var messagesSinceSweep = 0
    /// Incidents kept per event; older ones are dropped.
    public var incidentLimit = 100
    /// Whether a scoreboard of a match that has ended adds it: a live view leaves out what is over, a
    /// question about one match (its incidents after full time) wants it.
    public var admitsEnded = false

    public init() {}

    /// Folds one message into the state.
    public mutating func apply(_ message: consuming FeedMessage) {
        let provider = message.provider
        let now = message.receivedAt
        // One hash of the provider: writes go through the index.
        if let f = feeds.index(forKey: provider) {
            feeds.values[f].messages += 1
            feeds.values[f].lastMessageAt = now
        } else {
            feeds[provider] = FeedState(lastMessageAt: now, messages: 1)
        }

        // Feeds that keep telling of a finished match (SportsAPIPro's live scores) never remove it: it goes
        // `endedRetention` (two minutes: the final score stays a while) after its last word, so that a long run's
        // store holds what is live.
        messagesSinceSweep += 1
        if messagesSinceSweep >= 1024 {
            messagesSinceSweep = 0
            dropEnded(before: now.addingTimeInterval(-endedRetention))
        }

        // The update taken out of the message, so that what it carries is moved into the store, not copied.
        var update = FeedUpdate.heartbeat
        swap(&update, &message.update)
        switch consume update {
        case .snapshot(let list):
            var seen = Set<EventKey>()
            for event in list {
                let key = EventKey(provider: provider, id: event.id)
                seen.insert(key)
                upsert(event, key: key, connection: message.connection, at: now)
            }
            for (key, state) in events where key.provider == provider && !seen.contains(key) && state.connection == message.connection {
                events[key] = nil
            }
        case .upsert(let event):
            upsert(event, key: EventKey(provider: provider, id: event.id), connection: message.connection, at: now)
        case .remove(let id):
            bury(EventKey(provider: provider, id: id))
        case .price(let update):
            applyPrice(update, key: EventKey(provider: provider, id: update.eventID), at: now)
        case .score(let id, _, let to):
            let key = EventKey(provider: provider, id: id)
            guard events[key] != nil else { return }
            events[key]!.event.score = to
            events[key]!.event.scoreText = nil
            touch(key, at: now)
        case .incident(let id, let incident):
            let key = EventKey(provider: provider, id: id)
            guard events[key] != nil else { return }
            // In match order: an incident told late (a VAR decision on an earlier minute, full time after the
            // last added minute's news) goes where it happened; almost always that is the end.
            let at = Self.place(of: incident, in: events[key]!.event.incidents)
            events[key]!.event.incidents.insert(incident, at: at)
            if events[key]!.event.incidents.count > incidentLimit {
                events[key]!.event.incidents.removeFirst(events[key]!.event.incidents.count - incidentLimit)
            }
            events[key]!.lastIncidentAt = now
            touch(key, at: now)
        case .stats(let id, let stats):
            let key = EventKey(provider: provider, id: id)
            guard events[key] != nil else { return }
            events[key]!.event.stats = stats
            touch(key, at: now)
        case .lineups(let id, let lineups):
            let key = EventKey(provider: provider, id: id)
            guard events[key] != nil else { return }
            events[key]!.event.lineups = lineups
            touch(key, at: now)
        case .status(let id, let status, let period):
            let key = EventKey(provider: provider, id: id)
            guard events[key] != nil else { return }
            events[key]!.event.status = status
            if let period { events[key]!.event.period = period }
            touch(key, at: now)
        case .bookUpsert(let event, let book):
            let key = EventKey(provider: provider, id: event.id)
            bookUpsert(event, book: book, key: key, at: now)
        case .bookViews(let event, let books):
            let key = EventKey(provider: provider, id: event.id)
            // New to the store (the initial state): the views together are the event as it is sent.
            guard events.index(forKey: key) != nil else { insert(event, key: key, at: now); return }
            for (view, book) in FeedUpdate.splitBookViews(event, books: books) { bookUpsert(view, book: book, key: key, at: now) }
        case .scoreboard(let board):
            applyScoreboard(board, provider: provider, at: now)
        case .clear(.book(let book)):
            for key in events.keys where key.provider == provider { removeBook(book, from: key) }
        case .clear(.bookInLeague(let book, let league)):
            for key in events.keys where key.provider == provider && events[key]!.event.league == league {
                removeBook(book, from: key)
            }
        case .clear(.bookInEvent(let book, let id)):
            let key = EventKey(provider: provider, id: id)
            guard events[key] != nil else { return }
            removeBook(book, from: key)
            // The game is gone from every book: it is over (or withdrawn).
            if events[key]!.event.markets.isEmpty { bury(key) } else { touch(key, at: now) }
        case .clear(.sport(let sport)):
            for key in events.keys where key.provider == provider && events[key]!.event.sport == sport {
                events[key] = nil
            }
        case .heartbeat:
            break
        case .connection(let state):
            if feeds[provider, default: FeedState()].connections[message.connection] != state {
                feeds[provider]!.connections[message.connection] = state
                feeds[provider]!.connectionSince[message.connection] = now
            }
        }
    }

    /// Applies many messages in order.
    public mutating func apply(_ messages: [FeedMessage]) {
        for m in messages { apply(m) }
    }

    private mutating func touch(_ key: EventKey, at now: Date) {
        events[key]!.lastUpdate = now
        events[key]!.event.updatedAt = now
    }

    /// Removes the events that ended and have had no word since `cutoff`.
    public mutating func dropEnded(before cutoff: Date) {
        // Two fields of each state read in place: iterating the pairs copied every state (its event, line
        // moves and connection retained and released), and burying while iterating copied the whole dictionary.
        var ended: [EventKey] = []
        for index in events.indices where events.values[index].event.status == .ended && events.values[index].lastUpdate < cutoff {
            ended.append(events.keys[index])
        }
        for key in ended { bury(key) }
    }

    /// Removes an event and remembers that it went, so that a late message of another feed about it
    /// (a score sent just after the odds said the game is over) does not bring it back.
    private mutating func bury(_ key: EventKey) {
        events[key] = nil
        if removed.count >= 1_000 { removed.removeAll() }
        removed.insert(key)
    }

    private mutating func removeBook(_ book: String, from key: EventKey) {
        events[key]!.event.markets.removeAll { $0.book == book }
        events[key]!.moves = events[key]!.moves.filter { $0.key.book != book }
    }

    /// An event new to the store, as it came (a book's view of it, or several books' views at once).
    private mutating func insert(_ incoming: consuming Event, key: EventKey, at now: Date) {
        var event = incoming
        event.updatedAt = now
        events[key] = EventState(event: event, lastUpdate: now)
        lastFound = events.index(forKey: key).map { (key, $0, generation) }
    }

    /// One book's markets of an event replace that book's; the rest of the event stays.
    private mutating func bookUpsert(_ incoming: consuming Event, book: String, key: EventKey, at now: Date) {
        let index: Dictionary<EventKey, EventState>.Index
        if let last = lastFound, last.generation == generation, last.key == key {
            index = last.index
        } else if let found = events.index(forKey: key) {
            index = found
        } else {
            insert(incoming, key: key, at: now)
            return
        }
        // In place (through `modify`): the getter of `values[index]` would copy the whole event state.
        LiveStore.inPlace(&events.values[index]) { state in
            if state.event.markets.contains(where: { $0.book == book }) {
                let old = state.event.markets
                LiveStore.recordMoves(&state, old: old, new: incoming.markets, at: now)
                // This book's markets where they were (books keep their order).
                var markets: [Market] = []
                var placed = false
                for market in old {
                    if market.book == book {
                        if !placed { markets += incoming.markets; placed = true }
                    } else {
                        markets.append(market)
                    }
                }
                state.event.markets = markets
            } else {
                // A book new to this event (the initial state, book by book): nothing moved; at the end.
                state.event.takeMarkets(of: &incoming)
            }
            // Teams and competition as this feed names them; score, clock and incidents come from others.
            if !incoming.home.isEmpty { state.event.home = incoming.home }
            if let away = incoming.away { state.event.away = away }
            if let league = incoming.league { state.event.league = league }
            if incoming.sport != "unknown" { state.event.sport = incoming.sport }
            if let start = incoming.startTime { state.event.startTime = start }
            // A book's view says when the game starts, not that it ended: its start passing makes a
            // scheduled game live, and an unknown status takes its word; a scores feed's word stands.
            if (state.event.status == .scheduled && incoming.status == .live) || state.event.status == .unknown {
                state.event.status = incoming.status
            }
            state.event.updatedAt = now
            state.lastUpdate = now
        }
        // Changed in place: the place is still the event's.
        lastFound = (key, index, generation)
    }

    /// Score, clock, period and status from a scores feed; a match not known yet is added when the
    /// message names its teams.
    private mutating func applyScoreboard(_ board: Scoreboard, provider: ProviderID, at now: Date) {
        let key = EventKey(provider: provider, id: board.eventID)
        if events[key] == nil {
            // A finished game, or one whose odds were removed, is not brought back.
            guard let home = board.home, admitsEnded || board.status != .ended, !removed.contains(key) else { return }
            events[key] = EventState(event: Event(provider: provider, id: board.eventID, sport: board.sport ?? "unknown",
                                                  league: board.league, home: home, away: board.away),
                                     lastUpdate: now)
        }
        // An event first heard of without its teams (odds before the match channel) gets them now.
        if events[key]!.event.home.isEmpty, let home = board.home { events[key]!.event.home = home }
        if events[key]!.event.away == nil, let away = board.away { events[key]!.event.away = away }
        if let score = board.score { events[key]!.event.score = score; events[key]!.event.scoreText = nil }
        else if let text = board.scoreText { events[key]!.event.score = nil; events[key]!.event.scoreText = text }
        if let clock = board.clock { events[key]!.event.clock = clock }
        if board.clockStart != nil || board.clock != nil { events[key]!.event.clockStart = board.clockStart }
        if let period = board.period { events[key]!.event.period = period }
        if let status = board.status { events[key]!.event.status = status }
        if let league = board.league, events[key]!.event.league == nil { events[key]!.event.league = league }
        if let sport = board.sport, events[key]!.event.sport == "unknown" { events[key]!.event.sport = sport }
        if let start = board.startTime { events[key]!.event.startTime = start }
        if let cards = board.redCards {
            // Kept as the statistic a stats feed would send, so that every output shows it where stats go.
            let stat = TeamStat(name: Scoreboard.redCardsStat, home: String(cards.home), away: String(cards.away))
            if let at = events[key]!.event.stats.firstIndex(where: { $0.name == stat.name && $0.group == nil }) {
                events[key]!.event.stats[at] = stat
            } else {
                events[key]!.event.stats.append(stat)
            }
        }
        touch(key, at: now)
    }

    /// Where `incident` goes in `list` (in match order): after every incident at or before its moment.
    static func place(of incident: Incident, in list: [Incident]) -> Int {
        let k = incident.timelineKey
        var at = list.endIndex
        while at > list.startIndex, list[at - 1].timelineKey > k { at -= 1 }
        return at
    }

    private static func inPlace<R>(_ state: inout EventState, _ body: (inout EventState) -> R) -> R { body(&state) }

    private struct MarketKey: Hashable { var id: String; var book: String? }

    /// Price moves from `old` to `new` markets (same id and book, same selection).
    static func recordMoves(_ state: inout EventState, old: [Market], new: [Market], at now: Date) {
        let marketIndex: [MarketKey: Int]? = old.count > 32
            ? Dictionary(old.indices.map { (MarketKey(id: old[$0].id, book: old[$0].book), $0) }, uniquingKeysWith: { first, _ in first }) : nil
        // Markets and selections are read by index where they are: a copy of each (its strings and
        // arrays retained, then released) was most of what a firehose's store spent here.
        for m in new.indices {
            let found = marketIndex.map { $0[MarketKey(id: new[m].id, book: new[m].book)] }
                ?? old.firstIndex(where: { $0.id == new[m].id && $0.book == new[m].book })
            guard let o = found else { continue }
            // The very same selections (often the same storage, from the decoder's cache) moved nothing;
            // comparing them in full would cost what looking for moves costs.
            if old[o].selections.sameStorage(as: new[m].selections) { continue }
            // A market of many selections (a hostile feed's) is looked up by index, not searched per selection.
            let index: [SelectionRef: Int]? = old[o].selections.count > 32
                ? Dictionary(old[o].selections.indices.map { (old[o].selections[$0].ref, $0) }, uniquingKeysWith: { first, _ in first }) : nil
            for k in new[m].selections.indices {
                let at = index.map { $0[new[m].selections[k].ref] }
                    ?? old[o].selections.firstIndex(where: { $0.isSame(as: new[m].selections[k]) })
                guard let at, let move = LiveStore.move(from: old[o].selections[at].price, to: new[m].selections[k].price, at: now) else { continue }
                state.moves[SelectionKey(market: new[m], selection: new[m].selections[k])] = move
            }
        }
    }

    private mutating func upsert(_ incoming: consuming Event, key: EventKey, connection: String, at now: Date) {
        var event = incoming
        event.updatedAt = now
        // One hash of the key; then the state in place (the getter of `values[index]` would copy it).
        guard let index = events.index(forKey: key) else {
            let incidentAt: Date? = event.incidents.isEmpty ? nil : now
            events[key] = EventState(event: event, lastUpdate: now, lastIncidentAt: incidentAt, connection: connection)
            return
        }
        events.values[index].refresh(with: event, at: now)
        if events.values[index].connection != connection { events.values[index].connection = connection }
    }

    /// The move from `before` to `after`, if the price changed.
    static func move(from before: Price?, to after: Price?, at now: Date) -> PriceMove? {
        guard let after, let before, before.decimalOdds != after.decimalOdds else { return nil }
        return PriceMove(previous: before, direction: after.decimalOdds > before.decimalOdds ? .up : .down, changedAt: now)
    }

    private mutating func applyPrice(_ update: PriceUpdate, key: EventKey, at now: Date) {
        // One hash of the key; then the state in place (the getter of `values[index]` would copy it,
        // and a copy of the markets held while writing would copy them).
        guard let index = events.index(forKey: key) else { return }
        events.values[index].apply(update, at: now)
    }

    // MARK: - Queries

    /// Events of one provider (or all), in a stable order: league, then start, then title.
    public func currentEvents(provider: ProviderID? = nil) -> [Event] {
        // Each event read in place: through the dictionary's pairs, each state was copied too.
        var chosen: [Event] = []
        chosen.reserveCapacity(events.count)
        for index in events.indices where provider == nil || events.keys[index].provider == provider {
            chosen.append(events.values[index].event)
        }
        // An event is one pointer (`CopyOnWrite`): the list in order is a retain of each.
        return LiveStore.order(of: chosen).map { chosen[$0] }
    }

    /// The indices of `events` by competition, then match, then id.
    static func order(of events: [Event]) -> [Int] {
        // All ASCII without NUL (the usual case): the three keys joined by NUL and compared as bytes, which
        // is the same order (a prefix first, then by code) at a fraction of a string comparison's cost. The
        // title's bytes go in as its parts (home, " v ", away): made as a string, it was a new one per event.
        var blob: [UInt8] = [], spans: [Range<Int>] = []
        blob.reserveCapacity(events.count * 64)
        spans.reserveCapacity(events.count)
        events.withUnsafeBufferPointer { list in
            for i in list.indices {
                let start = blob.count
                if let league = list[i].league { blob.append(contentsOf: league.utf8) }
                blob.append(0)
                blob.append(contentsOf: list[i].home.utf8)
                if let away = list[i].away {
                    blob.append(contentsOf: " v ".utf8)
                    blob.append(contentsOf: away.utf8)
                }
                blob.append(0)
                blob.append(contentsOf: list[i].id.utf8)
                spans.append(start..<blob.count)
            }
        }
        let ascii = blob.withUnsafeBufferPointer { b in
            var zeros = 0
            for byte in b where byte == 0 || byte >= 0x80 { if byte >= 0x80 { return false }; zeros += 1 }
            return zeros == 2 * events.count
        }
        guard ascii else {
            // Each key made once, not twice a comparison (a title is a new string).
            let keys = events.map { ($0.league ?? "", $0.title, $0.id) }
            return keys.indices.sorted { keys[$0] < keys[$1] }
        }
        return blob.withUnsafeBufferPointer { b in
            events.indices.sorted { x, y in
                let a = spans[x], c = spans[y]
                let common = min(a.count, c.count)
                let d = common == 0 ? 0 : memcmp(b.baseAddress! + a.lowerBound, b.baseAddress! + c.lowerBound, common)
                return d != 0 ? d < 0 : a.count < c.count
            }
        }
    }

    /// The best available price of one selection across books (suspended lines excluded), with its book.
    public func bestPrice(_ key: EventKey, marketID: String, selection: SelectionRef) -> BestPrice? {
        events[key]?.event.bestPrices(marketID: marketID)[selection]
    }

    /// True when nothing has updated the event within `bound` seconds, or its feed is not live.
    public func isStale(_ key: EventKey, now: Date, bound: TimeInterval) -> Bool {
        guard let state = events[key] else { return true }
        let feedLast = feeds[key.provider]?.lastMessageAt ?? state.lastUpdate
        return now.timeIntervalSince(max(feedLast, state.lastUpdate)) > bound
    }
}

extension EventState {
    /// The event sent again whole: it replaces this one, with what it does not carry kept and its
    /// price moves recorded. Mutating in place (through the dictionary's `modify`), so the state is
    /// not copied and the event is moved in.
    mutating func refresh(with incoming: consuming Event, at now: Date) {
        var event = incoming
        // Providers that send incidents one by one send events without them: keep what we have.
        if event.incidents.isEmpty { event.incidents = self.event.incidents }
        else if event.incidents.count > self.event.incidents.count { lastIncidentAt = now }
        // Stats and lineups come on channels of their own.
        if event.stats.isEmpty { event.stats = self.event.stats }
        if event.lineups == nil { event.lineups = self.event.lineups }
        LiveStore.recordMoves(&self, old: self.event.markets, new: event.markets, at: now)
        self.event = event
        lastUpdate = now
    }

    /// One selection's new price, in place.
    mutating func apply(_ update: PriceUpdate, at now: Date) {
        var selection = update.selection
        let ref = selection.ref
        if let mi = event.markets.firstIndex(where: { $0.id == update.marketID && $0.book == update.book }) {
            if let si = event.markets[mi].selections.firstIndex(where: { $0.isSame(as: ref) }) {
                let before = event.markets[mi].selections[si].price
                // A price update that does not say whether this is the main line keeps what was known.
                if selection.isMain == nil { selection.isMain = event.markets[mi].selections[si].isMain }
                if let move = LiveStore.move(from: before, to: selection.price, at: now) {
                    moves[SelectionKey(update)] = move
                }
                event.markets[mi].selections[si] = selection
            } else {
                event.markets[mi].selections.append(selection)
            }
        } else {
            event.markets.append(Market(id: update.marketID, name: update.marketName, book: update.book, selections: [selection]))
        }
        lastUpdate = now
        event.updatedAt = now
    }
}

extension SelectionKey {
    public init(market: Market, selection: Selection) {
        self.init(marketID: market.id, book: market.book, selectionID: selection.id, line: selection.line)
    }

    public init(_ update: PriceUpdate) {
        self.init(marketID: update.marketID, book: update.book, selectionID: update.selection.id, line: update.selection.line)
    }
}

extension Array {
    /// True when both arrays are the same storage (so the same elements); false says nothing.
    func sameStorage(as other: [Element]) -> Bool {
        count == other.count && withUnsafeBufferPointer { a in other.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }
}
