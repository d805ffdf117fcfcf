import Foundation
import OddsBets
import OddsDashboard
import OddsHistory
import OddsModel
import OddsStore

/// Reads what the history kept of the row the dashboard's detail pane shows, off the UI loop: on a thread of its
/// own, one read at a time, each row once. The loop takes what was read when it is ready.
final class DashboardHistoryReader: @unchecked Sendable {
    // @unchecked: `ready`, `asked` and `busy` are behind `lock`.
    typealias Cell = (market: String, book: String, selection: String)

    private let location: HistoryLocation
    private let lock = NSLock()
    private var ready: [(EventKey, TrailSeed)] = []
    private var asked = Set<EventKey>()
    private var busy = false

    init(location: HistoryLocation) { self.location = location }

    /// Reads `row`'s sources from the history, unless it was read before or a read is under way.
    func ask(_ row: EventKey, sources: [EventKey], main: [Cell?]) {
        lock.lock()
        defer { lock.unlock() }
        guard !busy, asked.insert(row).inserted else { return }
        busy = true
        let location = location
        let thread = Thread { [self] in
            // A history that cannot be read leaves the pane with what the dashboard saw itself.
            let seed = try? Self.read(location, sources: sources, main: main)
            lock.withLock {
                if let seed { ready.append((row, seed)) }
                busy = false
            }
        }
        thread.name = "odds-dash-history"
        thread.start()
    }

    /// What was read since the last call.
    func take() -> [(EventKey, TrailSeed)] {
        lock.withLock {
            defer { ready = [] }
            return ready
        }
    }

    static func read(_ location: HistoryLocation, sources: [EventKey], main: [Cell?]) throws -> TrailSeed {
        let history = try History.open(location, writing: false)
        defer { history.close() }
        // Each source found by its event id (an index), not among every source of its provider.
        var stored: [StoredSource] = []
        for key in Set(sources) {
            stored += try history.matches(MatchQuery(provider: key.provider, id: key.id)).filter { $0.key.eventID == key.id }
        }
        guard !stored.isEmpty else { return TrailSeed(points: [:], marks: []) }
        // Each line's bounded path and the prices around each incident: never the match's every row.
        var seed = seed(try history.summary(of: stored, filter: TimelineFilter(), recent: 0), main: main)
        // Where no writer watched a source, its lines' prices are unknown: the sparklines leave those cells blank.
        for u in try history.unwatched(stored) {
            for source in stored where source.key.provider == u.provider {
                seed.unwatched[EventKey(provider: u.provider, id: source.key.eventID), default: []].append(u.gap)
            }
        }
        return seed
    }

    /// Each stored line as the dashboard draws one, and each incident that moves a price with the main line's
    /// prices just before it and at its first change after (where the history's main market is the row's).
    static func seed(_ s: TimelineSummary, main: [Cell?]) -> TrailSeed {
        var points: [PriceTrails.Key: [PriceTrails.Point]] = [:]
        var names: [Int: String] = [:]
        for line in s.lines {
            let sel = line.selection
            let key = PriceTrails.Key(event: EventKey(provider: sel.source.provider, id: sel.source.eventID), market: sel.marketID,
                                      book: sel.book, selection: sel.selectionID)
            points[key, default: []] += line.path.points.map { p in
                PriceTrails.Point(at: p.at, odds: p.odds.map { Double($0.numerator) / Double($0.denominator) })
            }
            for (i, cell) in main.enumerated() where cell?.market == sel.marketID && cell?.book == sel.book && cell?.selection == sel.selectionID {
                names[i] = sel.selectionName
            }
        }
        let marks = s.around.map { around -> PriceTrails.Mark in
            let cells = main.indices.map { i in names[i].flatMap { name in around.selections.first { $0.name == name } } }
            let after = cells.map { $0?.after.flatMap(price) }
            return PriceTrails.Mark(at: around.incident.at, incident: around.incident.incident, before: cells.map { $0?.before.flatMap(price) },
                                    after: after.contains { $0 != nil } ? after : nil)
        }
        return TrailSeed(points: points, marks: marks)
    }

    /// A stored price as the dashboard shows one: from the provider's text in its own format, else its exact odds.
    static func price(_ p: StoredPrice) -> Price? { p.price }
}

/// The dashboard's `b`: each bet found in the history as `odds bets add` finds its arguments and kept in the ledger,
/// on a task of its own (the UI loop never waits on the database); the answers are taken by the loop.
final class DashboardBets: @unchecked Sendable {
    // @unchecked: `answers` is only touched under `lock`.
    private let location: HistoryLocation?
    private let lock = NSLock()
    private var answers: [String] = []
    private let wake: @Sendable () -> Void

    init(location: HistoryLocation?, wake: @escaping @Sendable () -> Void) {
        self.location = location
        self.wake = wake
    }

    func record(_ request: BetRequest) {
        guard let location else {
            answer("bets are kept in the history: start the dashboard with --history (or history = … in the config) to record one")
            return
        }
        Task.detached { [self] in
            let entry = BetEntry(match: request.match, selection: request.selection, price: request.price.text, stake: request.stake,
                                 book: request.book, placedAt: Date())
            do {
                let ledger = try History.openLedger(location)
                defer { ledger.close() }
                var bet = try BetPlacement.resolve(entry, in: ledger)
                bet.id = try ledger.addBet(bet)
                answer("bet \(bet.id) recorded: \(bet.selectionName) \(request.price.text) at \(bet.book), stake \(request.stake)  \(request.title)")
            } catch let e as BetEntryError {
                answer("bet not recorded: \(e.message)")
            } catch {
                answer("bet not recorded: \((error as? OddsError)?.message ?? "\(error)")")
            }
        }
    }

    private func answer(_ text: String) {
        lock.withLock { answers.append(text) }
        wake()
    }

    /// The answers since the last call.
    func take() -> [String] { lock.withLock { defer { answers.removeAll() }; return answers } }
}
