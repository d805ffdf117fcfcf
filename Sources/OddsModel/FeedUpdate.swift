import Foundation

/// The state of one live connection.
public enum ConnectionState: Hashable, Sendable {
    case connecting
    case live
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
        case .connecting: return 1
        case .stale: return 2
        case .reconnecting: return 3
        case .stopped: return 4
        }
    }

    public var label: String {
        switch self {
        case .connecting: return "connecting"
        case .live: return "live"
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
}

/// One normalized change from a provider's feed. Providers turn their wire messages into these.
public enum FeedUpdate: Hashable, Sendable {
    /// The whole current set of live events of this feed; replaces what was known.
    case snapshot([Event])
    /// A new or refreshed event.
    case upsert(Event)
    /// The event is gone (ended, removed).
    case remove(eventID: String)
    case price(PriceUpdate)
    case score(eventID: String, from: Score?, to: Score)
    case incident(eventID: String, Incident)
    case status(eventID: String, status: EventStatus, period: String?)
    /// Drop everything of a book or a sport (BoltOdds' `book_clear` and `sport_clear`).
    case clear(ClearScope)
    case heartbeat
    case connection(ConnectionState)

    /// The event this update is about, if it is about one.
    public var eventID: String? {
        switch self {
        case .upsert(let e): return e.id
        case .remove(let id), .score(let id, _, _), .incident(let id, _), .status(let id, _, _): return id
        case .price(let p): return p.eventID
        case .snapshot, .heartbeat, .connection, .clear: return nil
        }
    }
}

/// A feed update as received: which provider and connection, when.
public struct FeedMessage: Hashable, Sendable {
    public var provider: ProviderID
    /// The provider's connection it came on (`"live"` for providers with one; BoltOdds: odds, pbp, scores).
    public var connection: String
    public var receivedAt: Date
    public var update: FeedUpdate
    public init(provider: ProviderID, connection: String = "live", receivedAt: Date, update: FeedUpdate) {
        self.provider = provider; self.connection = connection; self.receivedAt = receivedAt; self.update = update
    }
}
