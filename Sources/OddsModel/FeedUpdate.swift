import Foundation

/// The state of one live connection.
public enum ConnectionState: Hashable, Sendable {
    case connecting
    case live
    /// Connected, but the provider says its feed is not real-time now (SportsAPIPro's
    /// `natsConnected: false`: updates come by poll).
    case degraded(reason: String)
    /// Waiting `seconds` before reconnect attempt number `attempt`, after `reason`.
    case reconnecting(seconds: Double, attempt: Int, reason: String)
    /// No message within the feed's staleness bound.
    case stale
    /// Will not reconnect.
    case stopped(reason: String)

    /// How bad the state is, to summarise several connections by the worst (live 0 … stopped 4).
    public var severity: Int {
        switch self {
        case .live: return 0
        case .connecting, .degraded: return 1
        case .stale: return 2
        case .reconnecting: return 3
        case .stopped: return 4
        }
    }

    public var label: String {
        switch self {
        case .connecting: return "connecting"
        case .live: return "live"
        case .degraded: return "degraded"
        case .reconnecting: return "reconnecting"
        case .stale: return "stale"
        case .stopped: return "stopped"
        }
    }
}

/// A price that changed, or a line that was suspended or reopened.
public struct PriceUpdate: Hashable, Sendable {
    public var eventID: String
    public var marketID: String
    public var marketName: String
    public var book: String?
    public var selection: Selection
    public init(eventID: String, marketID: String, marketName: String, book: String? = nil, selection: Selection) {
        self.eventID = eventID; self.marketID = marketID; self.marketName = marketName; self.book = book
        self.selection = selection
    }
}

/// What a `clear` update removes, within the feed's provider.
public enum ClearScope: Hashable, Sendable {
    /// Every price of this book, in every event.
    case book(String)
    /// Every event of this sport (slug).
    case sport(String)
    /// Every price of this book in the events of one competition (BoltOdds' `sport_clear`: its
    /// "sport" is a competition such as "NBA", the event's `league`).
    case bookInLeague(book: String, league: String)
    /// Every price of this book in one event (BoltOdds' `game_removed` from one book).
    case bookInEvent(book: String, eventID: String)

    /// The book whose prices go, if the scope names one.
    public var book: String? {
        switch self {
        case .book(let b), .bookInLeague(let b, _), .bookInEvent(let b, _): return b
        case .sport: return nil
        }
    }
}

/// What a scores or play-by-play message says about a match now; nil fields are unchanged. It
/// names the teams so that a match heard of here first (before any odds) can be shown.
public struct Scoreboard: Hashable, Sendable {
    /// The statistic's name under which a scoreboard's red cards are kept on the event.
    public static let redCardsStat = "Red cards"
    public var eventID: String
    public var home: String?
    public var away: String?
    public var league: String?
    /// Sport slug, when known.
    public var sport: String?
    public var score: Score?
    /// A score that is not N-N, as sent.
    public var scoreText: String?
    public var clock: String?
    /// Set when the clock runs from a known start (the event's `clockStart`).
    public var clockStart: ClockStart?
    public var period: String?
    public var status: EventStatus?
    /// Red cards per side, when the scores feed counts them (SportsAPIPro v1's competitors, v2's events).
    public var redCards: Score?
    /// The scheduled start, when the scores feed sends one.
    public var startTime: Date?

    public init(eventID: String, home: String? = nil, away: String? = nil, league: String? = nil, sport: String? = nil,
                score: Score? = nil, scoreText: String? = nil, clock: String? = nil, period: String? = nil,
                status: EventStatus? = nil) {
        self.eventID = eventID; self.home = home; self.away = away; self.league = league; self.sport = sport
        self.score = score; self.scoreText = scoreText; self.clock = clock; self.period = period; self.status = status
    }
}

/// One normalized change from a provider's feed. Providers turn their wire messages into these.
public enum FeedUpdate: Hashable, Sendable {
    /// The whole current set of live events of this feed; replaces what was known.
    case snapshot([Event])
    /// A new or refreshed event.
    case upsert(Event)
    /// One book's whole view of an event (BoltOdds' `initial_state`, `game_update`, `game_added`):
    /// its markets replace that book's, other books' stay, and the event's teams and competition
    /// are refreshed while its score and clock (from other feeds) are kept.
    case bookUpsert(Event, book: String)
    /// Several books' whole views of one event in a row, as one event holding every book's markets
    /// (gathered by `BookViewRun` where that changes nothing): the same as a `bookUpsert` of each book
    /// in turn, with the event's markets that name that book. A store folds the event once, instead
    /// of once per book (BoltOdds' initial state sends each game once per book, one after another).
    case bookViews(Event, books: [String])
    /// Score, clock, period or status from a scores or play-by-play feed.
    case scoreboard(Scoreboard)
    /// The event is gone (ended, removed).
    case remove(eventID: String)
    case price(PriceUpdate)
    case score(eventID: String, from: Score?, to: Score)
    case incident(eventID: String, Incident)
    /// The match's whole statistics table now.
    case stats(eventID: String, [TeamStat])
    /// The match's lineups now.
    case lineups(eventID: String, Lineups)
    case status(eventID: String, status: EventStatus, period: String?)
    /// Drop everything of a book or a sport (BoltOdds' `book_clear` and `sport_clear`).
    case clear(ClearScope)
    case heartbeat
    case connection(ConnectionState)

    /// True for `.upsert`: the tag alone, read without copying the event out.
    public var isUpsert: Bool {
        if case .upsert = self { return true }
        return false
    }

    /// The event this update is about, if it is about one.
    public var eventID: String? {
        switch self {
        case .upsert(let e), .bookUpsert(let e, _), .bookViews(let e, _): return e.id
        case .scoreboard(let s): return s.eventID
        case .remove(let id), .score(let id, _, _), .incident(let id, _), .status(let id, _, _), .stats(let id, _),
             .lineups(let id, _): return id
        case .price(let p): return p.eventID
        case .snapshot, .heartbeat, .connection, .clear: return nil
        }
    }
}

extension FeedUpdate {
    /// A `bookViews` update as the `bookUpsert` of each of its books, in order.
    public static func splitBookViews(_ event: Event, books: [String]) -> [(event: Event, book: String)] {
        books.map { book in
            var view = event
            view.markets = event.markets.filter { $0.book == book }
            return (view, book)
        }
    }
}

/// Books' views of one event that come one after another (BoltOdds' initial state sends each game
/// once per book, in a row), gathered into one event as a decoder reads them: one `bookViews` update
/// for a store to fold once, instead of a `bookUpsert` per book. A view joins only where folding the
/// merged update is the same as folding the views in turn: every market of a view names its book,
/// no book comes twice, and the views agree on what a store takes from a later book's view (teams,
/// competition, sport, start and status). Each view's markets are moved, not copied.
public struct BookViewRun: Sendable {
    private var event: Event
    private var books: [String]

    /// A run begun with `event`, `book`'s view; nil when a market of it names another book.
    public init?(_ event: consuming Event, book: String) {
        guard event.markets.allSatisfy({ $0.book == book }) else { return nil }
        self.event = event
        books = [book]
    }

    /// Whether `view`, `book`'s view, joined the run (its markets moved in, `view` left without them).
    public mutating func join(_ view: inout Event, book: String) -> Bool {
        guard event.isSameView(as: view), !books.contains(book), view.markets.allSatisfy({ $0.book == book }) else { return false }
        event.takeMarkets(of: &view)
        books.append(book)
        return true
    }

    /// The run as an update: a `bookUpsert` for a run of one view.
    public consuming func update() -> FeedUpdate {
        books.count == 1 ? .bookUpsert(event, book: books[0]) : .bookViews(event, books: books)
    }
}

extension Event {
    /// Whether `other` is a view of the same event that a store would fold just as this one: the same
    /// provider and id, teams, competition, sport, start and status.
    func isSameView(as other: Event) -> Bool {
        provider == other.provider && id == other.id && home == other.home && away == other.away
            && league == other.league && sport == other.sport && startTime == other.startTime && status == other.status
    }

    /// `other`'s markets moved to the end of this event's (`other` is left with markets of nothing): a
    /// book's view of a game joining the views before it (a store's event, a decoder's `BookViewRun`).
    /// Moved, not copied: swapped with vacant markets that `other` then lets go of.
    public mutating func takeMarkets(of other: inout Event) {
        let start = markets.count, count = other.markets.count
        guard count > 0 else { return }
        // Room ahead for a few more books (four times what is needed, at most 64 markets more), else
        // doubling: a game comes once per book, and growing by each book's few markets reallocated
        // the list at most books.
        let needed = start + count
        if markets.capacity < needed {
            markets.reserveCapacity(max(needed, 2 * markets.capacity, min(4 * needed, needed + 64)))
        }
        for _ in 0..<count { markets.append(Market.vacant) }
        markets.withUnsafeMutableBufferPointer { held in
            other.markets.withUnsafeMutableBufferPointer { new in
                for i in new.indices { swap(&held[start + i], &new[i]) }
            }
        }
    }
}

/// A feed update as received: which provider and connection, when.
public struct FeedMessage: Hashable, Sendable {
    public var provider: ProviderID
    /// The provider's connection it came on (`"live"` for providers with one; BoltOdds: odds, pbp, scores).
    public var connection: String
    public var receivedAt: Date
    /// The provider's own time of the message (its envelope's timestamp), where it sends one.
    public var providerTime: Date?
    public var update: FeedUpdate
    public init(provider: ProviderID, connection: String = "live", receivedAt: Date, providerTime: Date? = nil, update: FeedUpdate) {
        self.provider = provider; self.connection = connection; self.receivedAt = receivedAt; self.providerTime = providerTime
        self.update = update
    }
}
