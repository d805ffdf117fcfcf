import Foundation
import OddsModel

/// A selection's price as last stored: what a new sighting is compared with.
public struct LastPrice: Sendable, Equatable {
    public var text: String?
    public var suspended: Bool
    public init(text: String?, suspended: Bool) { self.text = text; self.suspended = suspended }
}

/// What the database already holds of a source.
public struct KnownSource: Sendable, Equatable {
    /// The last stored price of each selection.
    public var prices: [SelectionRef: LastPrice] = [:]
    /// The last stored score change.
    public var score: ScoreState?
    /// When it was last seen: what was received until then is kept already.
    public var lastSeen: Date?
    public init(prices: [SelectionRef: LastPrice] = [:], score: ScoreState? = nil, lastSeen: Date? = nil) {
        self.prices = prices; self.score = score; self.lastSeen = lastSeen
    }
}

/// What the tracker asks the database the first time it meets a source in this process, so that a writer
/// started again (or after an outage), or a recording replayed again, stores nothing twice.
public protocol HistoryLookup {
    func known(_ source: SourceKey) throws -> KnownSource
}

/// Turns the store's events into rows: one per change. A price sent again unchanged, a score whose clock alone
/// moved, an incident told twice are not changes. Bounded: sources not seen for `idleLimit` are forgotten
/// (met again, they are looked up in the database).
struct ChangeTracker {
    private struct Track {
        var prices: [SelectionRef: LastPrice]
        var score: ScoreState?
        var incidents: Set<String> = []
        /// The incidents as last looked at: unchanged (the same array), they are not read again.
        var lastIncidents: [Incident] = []
        var member: String?
        /// The event's markets as last compared, when every one of them was: a market the same as it was then (the
        /// decoders hand back an unchanged market as the same value) has nothing new, and is not read again.
        var markets: [Market] = []
        var touched: Date
        /// What was received until then is stored already (a recording replayed again).
        var keptUntil: Date?
    }

    private var tracks: [SourceKey: Track] = [:]
    private var observed = 0
    /// Sources and selections not kept because an id of theirs is longer than `HistoryKeys.maxIDBytes`.
    private(set) var skipped = 0
    /// Markets read selection by selection (the others were as last compared).
    private(set) var marketsRead = 0
    var idleLimit: TimeInterval = 6 * 3600
    /// Whether what is observed comes from the built-in simulator.
    var demo = false

    /// Sources held in memory.
    var count: Int { tracks.count }

    /// Forgets everything: after a failed write, what is known is asked of the database again.
    mutating func reset() { tracks = [:] }

    mutating func observe(_ input: HistoryInput, lookup: any HistoryLookup, into batch: inout HistoryBatch) throws {
        let e = input.event
        let key = SourceKey(provider: e.provider, eventID: e.id)
        guard HistoryKeys.fits(e.id) else { skipped += 1; return }
        let at = input.receivedAt
        var track: Track
        // Taken out while it changes (and put back after), so that its dictionaries are changed in place, not copied.
        if let t = tracks.removeValue(forKey: key) {
            track = t
        } else {
            let known = try lookup.known(key)
            track = Track(prices: known.prices, score: known.score, touched: at, keptUntil: known.lastSeen)
        }
        if let until = track.keptUntil {
            if at <= until { tracks[key] = track; return }
            track.keptUntil = nil
        }
        track.touched = at

        batch.sources[key] = SourceRow(key: key, sport: e.sport, league: e.league, home: e.home, away: e.away, startTime: e.startTime,
                                       firstSeenAt: batch.sources[key]?.firstSeenAt ?? at, seenAt: at, demo: demo)

        if let member = input.member, track.member != member.matchKey {
            track.member = member.matchKey
            batch.members.append(MemberRow(matchKey: member.matchKey, source: key, reason: member.reason, at: at))
        }

        switch input.scope {
        case .all:
            let before = track.markets
            for (i, market) in e.markets.enumerated() where i >= before.count || before[i] != market {
                prices(of: market, key, at, input.providerTime, &track, &batch)
            }
            track.markets = e.markets
        case .books(let books):
            track.markets = []
            for market in e.markets where books.contains(market.book ?? "") { prices(of: market, key, at, input.providerTime, &track, &batch) }
        case .selection(let marketID, let book, let selectionID):
            // The market as compared moves on with the selection, so that the next whole event (a feed that sends a
            // price change and then its event, as TickOdds does) is not read again market by market. Only when the
            // rest of the market is as compared last time; otherwise every market is read next time.
            var synced = true
            for (i, market) in e.markets.enumerated() where market.id == marketID && market.book == book {
                prices(of: market, key, at, input.providerTime, &track, &batch, only: selectionID)
                if synced, i < track.markets.count, Self.same(track.markets[i], market, except: selectionID) {
                    track.markets[i] = market
                } else {
                    synced = false
                }
            }
            if !synced { track.markets = [] }
        case .facts:
            break
        }

        let score = ScoreState(home: e.score?.home, away: e.score?.away, scoreText: e.scoreText, status: e.status.rawValue,
                               period: e.period, clock: e.clock)
        if track.score.map({ score.differs(from: $0) }) ?? true {
            batch.scores.append(ScoreRow(source: key, receivedAt: at, providerAt: input.providerTime, state: score))
        }
        track.score = score

        if e.incidents != track.lastIncidents {
            for incident in e.incidents {
                let identity = HistoryKeys.identity(incident.identity)
                guard !track.incidents.contains(identity) else { continue }
                track.incidents.insert(identity)
                batch.incidents.append(IncidentRow(source: key, receivedAt: at, providerAt: input.providerTime, identity: identity, incident: incident))
            }
            track.lastIncidents = e.incidents
        }
        tracks[key] = track

        observed += 1
        if observed % 10_000 == 0 { forgetIdle(now: at) }
    }

    private mutating func prices(of market: Market, _ key: SourceKey, _ at: Date, _ providerAt: Date?, _ track: inout Track,
                        _ batch: inout HistoryBatch, only: String? = nil) {
        marketsRead += 1
        for s in market.selections {
            if let only, s.id != only { continue }
            let ref = SelectionRef(source: key, book: market.book ?? "", marketID: market.id, line: s.line ?? "", selectionID: s.id)
            guard HistoryKeys.fits(ref.book), HistoryKeys.fits(ref.marketID), HistoryKeys.fits(ref.line), HistoryKeys.fits(ref.selectionID)
            else { skipped += 1; continue }
            let now = LastPrice(text: s.price?.text, suspended: s.suspended)
            if track.prices[ref] == now { continue }
            track.prices[ref] = now
            batch.prices.append(PriceRow(ref: ref, marketName: market.name, selectionName: s.name, receivedAt: at, providerAt: providerAt,
                                         text: s.price?.text, odds: s.price?.decimalOdds, suspended: s.suspended))
        }
    }

    /// Whether `new` is `old` but for the selections with id `selectionID`.
    static func same(_ old: Market, _ new: Market, except selectionID: String) -> Bool {
        guard old.id == new.id, old.book == new.book, old.name == new.name, old.provider == new.provider,
              old.selections.count == new.selections.count else { return false }
        for (a, b) in zip(old.selections, new.selections) where a != b {
            guard a.id == selectionID, b.id == selectionID else { return false }
        }
        return true
    }

    private mutating func forgetIdle(now: Date) {
        let cutoff = now.addingTimeInterval(-idleLimit)
        tracks = tracks.filter { $0.value.touched >= cutoff }
    }
}

/// The ids a history's unique indexes hold. No provider sends ids of hundreds of bytes, and an index entry has a
/// limit (PostgreSQL's B-tree, about 2.7 kB): a longer id is not an id, and its source or selection is not kept
/// (counted). Names, which no index holds, are kept whatever their length.
enum HistoryKeys {
    static let maxIDBytes = 512

    static func fits(_ id: String) -> Bool { id.utf8.count <= maxIDBytes }

    /// An incident's identity as stored: itself, or past the limit (it can hold a player's name) a digest of it
    /// that is the same in every process.
    static func identity(_ text: String) -> String {
        guard text.utf8.count > maxIDBytes else { return text }
        var a: UInt64 = 0xcbf2_9ce4_8422_2325, b: UInt64 = 0x6c62_272e_07bb_0142
        for byte in text.utf8 {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 &+ 1
        }
        return "digest:" + String(a, radix: 16) + String(b, radix: 16) + ":\(text.utf8.count)"
    }
}
