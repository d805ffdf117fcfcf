import Foundation
import OddsModel
import OddsStore

/// What the dashboard has seen of each price since it started, bounded in memory: for each selection (per source
/// event, market, book), at most `pointsPerSelection` points, halved in resolution when full so that a line always
/// reaches back to its first sighting (its open); at most `maxSelections` selections in two generations: when
/// the newer one is full, the older (what has not changed since) is let go whole, without sorting anything. And each row's incidents with the main line's prices just before and first after them.
/// Recorded from what each message carries (a price, an event, a book's view), never by scanning the store.
public struct PriceTrails: Sendable {
    /// One selection's prices: from one provider's event, in one market and book.
    public struct Key: Hashable, Sendable {
        public var event: EventKey
        public var market: String
        public var book: String
        public var selection: String
        public init(event: EventKey, market: String, book: String, selection: String) {
            self.event = event; self.market = market; self.book = book; self.selection = selection
        }

        /// A selection of `market` (its book, or "" for a feed that names none).
        public init(event: EventKey, market: Market, selection: String) {
            self.init(event: event, market: market.id, book: market.book ?? "", selection: selection)
        }
    }

    /// A price as seen: its decimal odds (for drawing), nil while suspended or without a price.
    public struct Point: Sendable, Equatable {
        public var at: Date
        public var odds: Double?
        public init(at: Date, odds: Double?) { self.at = at; self.odds = odds }
    }

    /// An incident as the dashboard saw it arrive, with the main line's prices just before and at its first change after.
    public struct Mark: Sendable, Equatable {
        public var at: Date
        public var incident: Incident
        /// The 1 / X / 2 cells' prices just before it: each cell's last open price.
        public var before: [Price?]
        /// The same cells at the first change after it with the line open; nil until one is seen.
        public var after: [Price?]?
        /// The cells as they stood when it arrived (nil: suspended): what a change after it is told from, so that a
        /// line suspended on the goal and reopened at the same prices has its price after.
        public var standing: [Price?]
        public init(at: Date, incident: Incident, before: [Price?], after: [Price?]?, standing: [Price?]? = nil) {
            self.at = at; self.incident = incident; self.before = before; self.after = after; self.standing = standing ?? before
        }
    }

    public static let pointsPerSelection = 32
    public static let maxSelections = 8_000
    /// Incidents kept a row, and rows with incidents kept.
    public static let marksPerRow = 12
    public static let maxMarkedRows = 500

    /// One selection's points, and its price when last open: an incident's "before" where the line is
    /// suspended by the time the incident arrives (a book suspends on the goal before the feed tells of it).
    struct Line: Sendable {
        var points: [Point]
        var open: Price?
    }

    /// The selections changed lately, and before them those not changed since the newer generation began.
    private var trails: [Key: Line] = [:]
    private var older: [Key: Line] = [:]
    public private(set) var marks: [EventKey: [Mark]] = [:]
    private var markOrder: [EventKey] = []
    /// When no writer watched each source, as its history said (`TrailSeed.unwatched`): its price then is unknown.
    private var unwatched: [EventKey: [ClosedRange<Date>]] = [:]
    private var unwatchedOrder: [EventKey] = []

    public init() {}

    /// Selections followed.
    public var count: Int { trails.count + older.count }

    /// The points of one selection, oldest first.
    public func points(_ key: Key) -> [Point] { (trails[key] ?? older[key])?.points ?? [] }

    /// When no writer watched the source `event`, as its history said: its lines' prices then are unknown.
    public func unwatched(_ event: EventKey) -> [ClosedRange<Date>] { unwatched[event] ?? [] }

    /// The selection's last price seen open (nil: none seen open).
    public func lastOpen(_ key: Key) -> Price? { (trails[key] ?? older[key])?.open }

    /// Records what `update` carries for `provider`, seen at `at`. `held`: the store before `update` is applied; an
    /// event's selection whose price and suspension it already held is passed over (a feed that sends the whole
    /// event with every price change moves one selection of many), so such a selection's line begins, or begins
    /// again after it was let go, at its next change rather than at the next sight of it.
    public mutating func record(_ update: FeedUpdate, provider: ProviderID, at: Date, held: LiveStore? = nil) {
        func before(_ id: String) -> Event? { held?.events[EventKey(provider: provider, id: id)]?.event }
        switch update {
        case .snapshot(let events):
            for e in events { record(e, provider: provider, at: at, before: before(e.id)) }
        case .upsert(let e), .bookUpsert(let e, _), .bookViews(let e, _):
            record(e, provider: provider, at: at, before: before(e.id))
        case .price(let p):
            add(Key(event: EventKey(provider: provider, id: p.eventID), market: p.marketID, book: p.book ?? "", selection: p.selection.id),
                p.selection, at)
        default:
            break
        }
    }

    private mutating func record(_ e: Event, provider: ProviderID, at: Date, before: Event?) {
        let event = EventKey(provider: provider, id: e.id)
        // By index, so that the comparison reads each selection in place rather than copying it.
        for i in e.markets.indices {
            let was = before.flatMap { Self.market(e.markets[i], at: i, in: $0) }
            for j in e.markets[i].selections.indices {
                if let was, j < was.selections.count, Self.same(was.selections[j], e.markets[i].selections[j]) { continue }
                add(Key(event: event, market: e.markets[i], selection: e.markets[i].selections[j].id), e.markets[i].selections[j], at)
            }
        }
    }

    /// `market`'s counterpart (the same id and book) in `event`: at the same place, else wherever it is.
    private static func market(_ market: Market, at index: Int, in event: Event) -> Market? {
        if index < event.markets.count, event.markets[index].id == market.id, event.markets[index].book == market.book {
            return event.markets[index]
        }
        return event.markets.first { $0.id == market.id && $0.book == market.book }
    }

    /// Whether a selection as held and as sent record the same: the same selection, price (its text too) and suspension.
    /// Compared, not hashed: cheaper than finding its line.
    private static func same(_ a: Selection, _ b: Selection) -> Bool {
        a.suspended == b.suspended && a.id == b.id && a.price == b.price
    }

    private mutating func add(_ key: Key, _ s: Selection, _ at: Date) {
        let open = s.suspended ? nil : s.price
        let odds = open.map { Double($0.decimalOdds.numerator) / Double($0.decimalOdds.denominator) }
        if let i = trails.index(forKey: key) {
            // In place: one lookup, and the line's storage is not copied.
            if let open { trails.values[i].open = open }
            guard trails.values[i].points.last?.odds != odds else { return }
            Self.append(&trails.values[i].points, Point(at: at, odds: odds))
        } else if let j = older.index(forKey: key) {
            if let open { older.values[j].open = open }
            guard older.values[j].points.last?.odds != odds else { return }
            var line = older.remove(at: j).value
            Self.append(&line.points, Point(at: at, odds: odds))
            keep(key, line)
        } else {
            keep(key, Line(points: [Point(at: at, odds: odds)], open: open))
        }
    }

    private static func append(_ points: inout [Point], _ point: Point) {
        if points.count >= pointsPerSelection {
            // Half the resolution: the open, every other point after it, and the latest.
            let last = points.last!
            points = [points[0]] + stride(from: 2, to: points.count - 1, by: 2).map { points[$0] } + [last]
        }
        points.append(point)
    }

    /// Puts a line in the newer generation; a full one becomes the older, and the older is let go.
    private mutating func keep(_ key: Key, _ line: Line) {
        if trails.count >= Self.maxSelections / 2 {
            older = trails
            trails = [:]
        }
        trails[key] = line
    }

    /// The move of a selection: its last price against its open, or against its price `window` seconds before
    /// `now`; nil without two prices to compare.
    public func move(_ key: Key, window: TimeInterval?, now: Date) -> Double? {
        let points = self.points(key)
        guard let last = points.last?.odds else { return nil }
        var from = points.first?.odds
        if let window {
            let start = now.addingTimeInterval(-window)
            from = (points.last { $0.at <= start } ?? points.first)?.odds
        }
        guard let from, from > 0, points.count > 1 else { return nil }
        return last / from - 1
    }

    // MARK: Incidents

    /// The incidents marked: goals, red cards, penalties and VAR decisions (`Incident.markLetter`).
    public static func marks(_ i: Incident) -> Bool { i.markLetter != nil }

    /// An incident of row `row` arrived at `at`: the main line's prices just before it `prices`, the line as it
    /// stood then `standing` (nil: `prices`).
    public mutating func mark(_ incident: Incident, row: EventKey, at: Date, prices: [Price?], standing: [Price?]? = nil) {
        if marks[row] == nil {
            if markOrder.count >= Self.maxMarkedRows { marks[markOrder.removeFirst()] = nil }
            markOrder.append(row)
        }
        var list = marks[row] ?? []
        list.append(Mark(at: at, incident: incident, before: prices, after: nil, standing: standing))
        if list.count > Self.marksPerRow { list.removeFirst(list.count - Self.marksPerRow) }
        marks[row] = list
    }

    /// Whether `row` has an incident still waiting for the main line's first change after it.
    public func awaitsChange(_ row: EventKey) -> Bool { marks[row]?.contains { $0.after == nil } ?? false }

    /// The main line of `row` is `prices` at `at`: the first change after each waiting incident, once the line is
    /// open again (a market suspended on a goal reopens at the price after it).
    public mutating func mainLine(_ row: EventKey, _ prices: [Price?], at: Date) {
        guard var list = marks[row], prices.contains(where: { $0 != nil }) else { return }
        for i in list.indices where list[i].after == nil && list[i].at < at && list[i].standing != prices {
            list[i].after = prices
        }
        marks[row] = list
    }

    // MARK: From a history

    /// Takes what a history kept of a row from before the dashboard saw it: earlier points go in front of each
    /// line (the line bounded as always), earlier incidents before the row's own.
    public mutating func seed(_ row: EventKey, _ seed: TrailSeed) {
        for (source, gaps) in seed.unwatched where !gaps.isEmpty {
            if unwatched[source] == nil {
                if unwatchedOrder.count >= Self.maxMarkedRows { unwatched[unwatchedOrder.removeFirst()] = nil }
                unwatchedOrder.append(source)
            }
            unwatched[source] = gaps
        }
        for (key, stored) in seed.points {
            let mine = points(key)
            let earlier = stored.filter { $0.at < (mine.first?.at ?? .distantFuture) }
            guard !earlier.isEmpty else { continue }
            var merged = earlier + mine
            if merged.count > Self.pointsPerSelection {
                // Evenly thinned, the open and the latest kept.
                let n = Self.pointsPerSelection
                merged = (0..<n).map { merged[$0 * (merged.count - 1) / (n - 1)] }
            }
            let open = lastOpen(key)
            older[key] = nil
            trails[key] = nil
            keep(key, Line(points: merged, open: open))
        }
        let mine = marks[row] ?? []
        let earlier = seed.marks.filter { $0.at < (mine.first?.at ?? .distantFuture) }
        guard !earlier.isEmpty else { return }
        if marks[row] == nil {
            if markOrder.count >= Self.maxMarkedRows { marks[markOrder.removeFirst()] = nil }
            markOrder.append(row)
        }
        marks[row] = Array((earlier + mine).suffix(Self.marksPerRow))
    }
}

/// What a history holds of a row from before the dashboard started: each line's points, and its incidents with
/// the main line's prices around them.
public struct TrailSeed: Sendable {
    public var points: [PriceTrails.Key: [PriceTrails.Point]]
    public var marks: [PriceTrails.Mark]
    /// Each source's times no writer watched it (the history's watch gaps).
    public var unwatched: [EventKey: [ClosedRange<Date>]]
    public init(points: [PriceTrails.Key: [PriceTrails.Point]], marks: [PriceTrails.Mark], unwatched: [EventKey: [ClosedRange<Date>]] = [:]) {
        self.points = points; self.marks = marks; self.unwatched = unwatched
    }
}

/// The trail keys of fused rows' markets as read back to their sources (`DashboardModel.trailKey`), kept: the
/// table asks for each row's cells every frame, and reading a market back normalizes the source's markets.
final class TrailKeyMemo: @unchecked Sendable {
    struct Asked: Hashable {
        var source: EventKey
        var market: String
        var book: String
        var selection: String
    }
    private let lock = NSLock()
    private var keys: [Asked: PriceTrails.Key] = [:]

    func key(_ asked: Asked) -> PriceTrails.Key? {
        lock.lock(); defer { lock.unlock() }
        return keys[asked]
    }

    func keep(_ key: PriceTrails.Key, for asked: Asked) {
        lock.lock(); defer { lock.unlock() }
        // Matches that ended are not kept forever: the rows on screen ask again.
        if keys.count >= 20_000 { keys.removeAll(keepingCapacity: true) }
        keys[asked] = key
    }
}
