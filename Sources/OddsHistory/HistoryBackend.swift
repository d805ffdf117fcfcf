import Foundation
import OddsModel

/// One kind of database a history lives in. Every backend keeps the same schema (`HistorySchema`), answers
/// the same questions, and is run through the same test suite.
public protocol HistoryBackend: AnyObject, HistoryLookup {
    /// Where it is, for messages (a URL's password hidden).
    var location: HistoryLocation { get }
    /// Writes one batch in one transaction: all of it, or (throwing) none of it. Returns the changes stored (fewer
    /// than the batch's when another writer had stored some already).
    func write(_ batch: HistoryBatch) throws -> Int
    /// The sources kept, newest first.
    func matches(_ query: MatchQuery) throws -> [StoredSource]
    /// Every stored change of `sources`, oldest first, read once: `head` gets the selections, score changes and
    /// incidents (its `prices` empty), then each price change is handed to `price` in time order as it is read, so
    /// that a match of many changes is never held whole.
    func timeline(of sources: [StoredSource], filter: TimelineFilter, head: (Timeline) throws -> Void,
                  prices price: (StoredPrice) throws -> Void) throws
    /// What a terminal shows of `sources` without reading every row whole: each selection's line, the latest
    /// `recent` price changes (and every score change and incident), the main market around each incident.
    func summary(of sources: [StoredSource], filter: TimelineFilter, recent: Int) throws -> TimelineSummary
    /// Every selection of `sources` (of every book and market), by row id: what the names a reader gives can name.
    func selections(of sources: [StoredSource]) throws -> [StoredSelection]
    /// The spans writers watched `providers` that reach into `range`, earliest first (`WatchSpan`).
    func watches(of providers: [ProviderID], during range: ClosedRange<Date>) throws -> [WatchSpan]
    func stats() throws -> HistoryStats
    /// Drops what was received before `cutoff`; returns the changes dropped.
    func prune(before cutoff: Date) throws -> Int
    /// Keeps a bet in the ledger; returns its id.
    func addBet(_ bet: StoredBet) throws -> Int64
    /// Every bet kept, oldest placed first.
    func bets() throws -> [StoredBet]
    /// Drops a bet; false when there is none with that id.
    func removeBet(id: Int64) throws -> Bool
    /// Keeps a bet's grade (false when there is no bet with that id).
    func gradeBet(id: Int64, _ grade: StoredGrade) throws -> Bool
    func close()
}

extension HistoryBackend {
    /// Every stored change of `sources`, oldest first, the price changes included.
    public func timeline(of sources: [StoredSource], filter: TimelineFilter) throws -> Timeline {
        var timeline = Timeline()
        var prices: [StoredPrice] = []
        try self.timeline(of: sources, filter: filter, head: { timeline = $0 }, prices: { prices.append($0) })
        timeline.prices = prices
        return timeline
    }
}

/// What `history matches` asks for.
public struct MatchQuery: Sendable {
    public var since: Date?
    public var provider: ProviderID?
    /// Only the sources with this event id, or fused into the match with this key (found by index).
    public var id: String?
    public var limit: Int
    public init(since: Date? = nil, provider: ProviderID? = nil, id: String? = nil, limit: Int = 10_000) {
        self.since = since; self.provider = provider; self.id = id; self.limit = limit
    }
}

/// What part of a timeline `history show` asks for.
public struct TimelineFilter: Sendable {
    public var since: Date?
    /// A market's id or name, any case, with the markets of the same meaning in every source (`MarketMeanings`).
    public var market: String?
    /// A book's key, any case.
    public var book: String?
    /// False: the scores and incidents alone, no price read.
    public var prices: Bool
    public init(since: Date? = nil, market: String? = nil, book: String? = nil, prices: Bool = true) {
        self.since = since; self.market = market; self.book = book; self.prices = prices
    }
}

/// A source as kept: its facts, when it was seen, how many price changes it has, and its fused match.
public struct StoredSource: Sendable, Equatable {
    public var rowID: Int64
    public var key: SourceKey
    public var sport: String
    public var league: String?
    public var home: String
    public var away: String?
    public var startTime: Date?
    public var firstSeen: Date
    public var lastSeen: Date
    public var priceChanges: Int
    /// The fused match it was last joined to, when several providers were followed.
    public var matchKey: String?
    /// From the built-in simulator (`--demo`).
    public var demo: Bool
    /// Its status as last stored ("live", "ended"), if a score change was.
    public var status: String?

    public var title: String { away.map { "\(home) v \($0)" } ?? home }
}

/// A stored selection: what every price change of it shares (one object, not copied into each change).
public final class StoredSelection: Sendable, Equatable {
    /// Its row in the history (0 when not read from one): what tells one line from another.
    public let rowID: Int64
    public let source: SourceKey
    public let book: String
    public let marketID: String
    public let marketName: String
    public let line: String
    public let selectionID: String
    public let selectionName: String

    public init(rowID: Int64, source: SourceKey, book: String, marketID: String, marketName: String, line: String,
                selectionID: String, selectionName: String) {
        self.rowID = rowID; self.source = source; self.book = book; self.marketID = marketID; self.marketName = marketName
        self.line = line; self.selectionID = selectionID; self.selectionName = selectionName
    }

    public static func == (a: StoredSelection, b: StoredSelection) -> Bool {
        a === b || (a.rowID == b.rowID && a.source == b.source && a.book == b.book && a.marketID == b.marketID
                    && a.marketName == b.marketName && a.line == b.line && a.selectionID == b.selectionID && a.selectionName == b.selectionName)
    }
}

/// A stored price change.
public struct StoredPrice: Sendable, Equatable {
    public var at: Date
    public var providerAt: Date?
    public var selection: StoredSelection
    public var text: String?
    public var odds: Rational?
    public var suspended: Bool

    public init(at: Date, providerAt: Date?, selection: StoredSelection, text: String?, odds: Rational?, suspended: Bool) {
        self.at = at; self.providerAt = providerAt; self.selection = selection; self.text = text; self.odds = odds; self.suspended = suspended
    }

    public init(at: Date, providerAt: Date?, source: SourceKey, book: String, marketID: String, marketName: String, line: String,
                selectionID: String, selectionName: String, text: String?, odds: Rational?, suspended: Bool) {
        self.init(at: at, providerAt: providerAt,
                  selection: StoredSelection(rowID: 0, source: source, book: book, marketID: marketID, marketName: marketName, line: line,
                                             selectionID: selectionID, selectionName: selectionName),
                  text: text, odds: odds, suspended: suspended)
    }

    /// The price as kept: from the provider's text in its own format, else its exact odds; nil while suspended.
    public var price: Price? {
        guard !suspended, let text else { return nil }
        return Price(decimal: text) ?? Price(american: text) ?? Price(fractional: text) ?? odds.flatMap { Price(decimalOdds: $0) }
    }

    public var source: SourceKey { selection.source }
    public var book: String { selection.book }
    public var marketID: String { selection.marketID }
    public var marketName: String { selection.marketName }
    public var line: String { selection.line }
    public var selectionID: String { selection.selectionID }
    public var selectionName: String { selection.selectionName }
    public var selectionRowID: Int64 { selection.rowID }
}

/// A stored score, status or period change.
public struct StoredScore: Sendable, Equatable {
    public var at: Date
    public var providerAt: Date?
    public var source: SourceKey
    public var state: ScoreState
}

/// A stored incident.
public struct StoredIncident: Sendable, Equatable {
    public var at: Date
    public var providerAt: Date?
    public var source: SourceKey
    public var incident: Incident
}

/// A match's stored changes, each list oldest first.
public struct Timeline: Sendable, Equatable {
    public var prices: [StoredPrice] = []
    /// Every selection of the sources (of the filter's book), whether or not the filter's market is theirs: what
    /// reads markets by meaning (`MarketMeanings`) needs all of a source's markets to tell its main one.
    public var selections: [StoredSelection] = []
    public var scores: [StoredScore] = []
    public var incidents: [StoredIncident] = []
    public init() {}
}

/// What `history stats` reports.
public struct HistoryStats: Sendable, Equatable {
    public var schemaVersion: Int
    public var sources: Int
    public var selections: Int
    public var priceChanges: Int
    public var scoreChanges: Int
    public var incidents: Int
    /// The database's size on disk (or as the server reports it).
    public var bytes: Int64
    public var oldest: Date?
    public var newest: Date?
    /// What the last pruning did.
    public var lastPrune: PruneRecord?
    /// Each provider's latest watch span, by provider: when a writer last watched it (is the collector running?).
    public var watched: [WatchSpan] = []
}

/// One pruning: when, what it cut at, how many changes it dropped.
public struct PruneRecord: Sendable, Equatable {
    public var at: Date
    public var cutoff: Date
    public var changes: Int
}

/// Opens histories by kind: a file path is SQLite, a `postgres://` URL PostgreSQL.
public enum History {
    /// Opens (and, writing, creates and migrates) the history at `location`. Throws `OddsError.history` with one
    /// sentence when it cannot.
    /// The history opened for its bet ledger: read, and written to the ledger alone, beside a running writer (the
    /// history's one writer is not waited for; a schema of an earlier version is migrated first).
    public static func openLedger(_ location: HistoryLocation) throws -> any HistoryBackend {
        switch location {
        case .sqlite(let path):
            return try SQLiteHistory(path: path, writing: false, ledger: true)
        case .postgres(let url):
            return try PostgresHistory(url: url, writing: true)
        }
    }

    public static func open(_ location: HistoryLocation, writing: Bool) throws -> any HistoryBackend {
        do {
            return try backend(location, writing: writing)
        } catch is OlderSchema {
            // A history of an earlier version is migrated forward before it is read (as a writer would on open).
            try backend(location, writing: true).close()
            return try backend(location, writing: false)
        }
    }

    private static func backend(_ location: HistoryLocation, writing: Bool) throws -> any HistoryBackend {
        switch location {
        case .sqlite(let path):
            return try SQLiteHistory(path: path, writing: writing)
        case .postgres(let url):
            return try PostgresHistory(url: url, writing: writing)
        }
    }
}

/// A history opened for reading whose schema is of an earlier version: migrated first.
struct OlderSchema: Error {}

extension Date {
    /// Milliseconds since 1970, as the history stores times.
    var historyMillis: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }
    init(historyMillis ms: Int64) { self.init(timeIntervalSince1970: Double(ms) / 1000) }
}
