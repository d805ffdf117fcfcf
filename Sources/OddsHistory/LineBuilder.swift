import Foundation
import OddsModel

/// What `history show` prints of a match on a terminal, read without loading its every row: each selection's
/// line, the latest rows, the main market around each incident, and how many rows there are in all.
public struct TimelineSummary: Sendable, Equatable {
    /// Each selection's line per source and book, in the order first seen.
    public var lines: [SelectionLine] = []
    /// The latest rows (at most the number asked for), each list oldest first.
    public var recent = Timeline()
    public var around: [IncidentPrices] = []
    /// Rows of the whole timeline: price changes, score changes and incidents.
    public var rows = 0
    public init() {}
}

/// Where a stored price change is: its selection's row, its time and its order among rows of that millisecond
/// (SQLite's rowid, PostgreSQL's seq).
struct PriceRef: Hashable {
    var selection: Int64
    var at: Int64
    var seq: Int64
}

/// Builds each selection's line from its price changes streamed in (selection, time) order, holding only the
/// numbers: where each line opened, peaked, bottomed, stands and closed, its sampled path, its count, and the
/// latest rows overall. The backend then reads those few rows whole.
struct LineBuilder {
    struct Partial {
        var selection: Int64
        var changes = 0
        var open: PriceRef
        var last: PriceRef
        var high: PriceRef
        var highOdds: (Int64, Int64)?
        var low: PriceRef
        var lowOdds: (Int64, Int64)?
        var close: PriceRef?
        var path: [(Int64, Int64)] = []
        var timed = PricePath()
    }

    /// Each selection's source's kickoff (ms), where its source has gone live.
    let kickoffs: [Int64: Int64]
    let recentLimit: Int
    private(set) var partials: [Partial] = []
    private(set) var recent: [PriceRef] = []
    private(set) var rows = 0
    /// The earliest and latest time of any row (what narrows a later lookup to the days they span).
    private(set) var span: ClosedRange<Int64>?
    /// Rows of one selection and millisecond, held until their order (by seq) is known.
    private var tied: [(ref: PriceRef, odds: (Int64, Int64)?, suspended: Bool)] = []

    init(kickoffs: [Int64: Int64], recent: Int) {
        self.kickoffs = kickoffs
        recentLimit = recent
    }

    /// One row, in (selection, time) order; rows of one millisecond in any order. A price without a positive
    /// denominator is none.
    mutating func add(selection: Int64, at: Int64, seq: Int64, num: Int64?, den: Int64?, suspended: Bool) {
        var odds: (Int64, Int64)?
        if let num, let den, den > 0 { odds = (num, den) }
        if let t = tied.first, t.ref.selection != selection || t.ref.at != at { flush() }
        tied.append((PriceRef(selection: selection, at: at, seq: seq), odds, suspended))
    }

    /// The lines, in the order first seen, and the latest rows oldest first.
    mutating func finish() -> (partials: [Partial], recent: [PriceRef]) {
        flush()
        trimRecent(to: recentLimit)
        return (partials.sorted { ($0.open.at, $0.open.seq) < ($1.open.at, $1.open.seq) }, recent.reversed())
    }

    private mutating func flush() {
        if tied.count > 1 { tied.sort { $0.ref.seq < $1.ref.seq } }
        for t in tied { take(t.ref, t.odds, t.suspended) }
        tied.removeAll(keepingCapacity: true)
    }

    private mutating func take(_ ref: PriceRef, _ odds: (Int64, Int64)?, _ suspended: Bool) {
        rows += 1
        span = span.map { min($0.lowerBound, ref.at)...max($0.upperBound, ref.at) } ?? ref.at...ref.at
        if recentLimit > 0 {
            recent.append(ref)
            if recentLimit < Int.max / 4, recent.count >= 2 * recentLimit + 64 { trimRecent(to: recentLimit) }
        }
        let priced = odds != nil && !suspended
        let beforeKickoff = kickoffs[ref.selection].map { ref.at < $0 } ?? false
        let shown = priced ? odds : nil
        guard let i = partials.indices.last, partials[i].selection == ref.selection else {
            var p = Partial(selection: ref.selection, open: ref, last: ref, high: ref, highOdds: odds, low: ref, lowOdds: odds)
            p.changes = 1
            p.timed.add(millis: ref.at, num: shown?.0 ?? 0, den: shown?.1 ?? 0)
            if priced, let odds { p.path.append(odds) }
            if beforeKickoff, priced { p.close = ref }
            partials.append(p)
            return
        }
        partials[i].changes += 1
        partials[i].last = ref
        partials[i].timed.add(millis: ref.at, num: shown?.0 ?? 0, den: shown?.1 ?? 0)
        if priced, let o = odds {
            partials[i].path.append(o)
            if partials[i].highOdds.map({ Self.less($0, o) }) ?? true { partials[i].high = ref; partials[i].highOdds = o }
            if partials[i].lowOdds.map({ Self.less(o, $0) }) ?? true { partials[i].low = ref; partials[i].lowOdds = o }
        }
        if beforeKickoff, priced { partials[i].close = ref }
    }

    /// Keeps the latest `n` rows, newest first.
    private mutating func trimRecent(to n: Int) {
        recent.sort { ($0.at, $0.seq) > ($1.at, $1.seq) }
        if recent.count > n { recent.removeLast(recent.count - n) }
    }

    /// a < b for fractions with positive denominators, exactly.
    static func less(_ a: (Int64, Int64), _ b: (Int64, Int64)) -> Bool {
        let l = a.0.multipliedFullWidth(by: b.1), r = b.0.multipliedFullWidth(by: a.1)
        return (l.high, l.low) < (r.high, r.low)
    }

    /// The refs every line and the latest rows need read whole.
    static func refs(_ partials: [Partial], _ recent: [PriceRef]) -> Set<PriceRef> {
        var out = Set(recent)
        for p in partials {
            out.insert(p.open); out.insert(p.last); out.insert(p.high); out.insert(p.low)
            if let c = p.close { out.insert(c) }
        }
        return out
    }

    /// The lines, from the partials and their rows read whole (a partial whose rows are missing is left out).
    static func lines(_ partials: [Partial], _ rows: [PriceRef: StoredPrice]) -> [SelectionLine] {
        partials.compactMap { p in
            guard let open = rows[p.open], let high = rows[p.high], let low = rows[p.low], let last = rows[p.last] else { return nil }
            return SelectionLine(open: open, high: high, low: low, last: last, close: p.close.flatMap { rows[$0] }, changes: p.changes,
                                 moves: HistoryReport.sample(p.path).compactMap { Rational($0.0, $0.1) }, path: p.timed)
        }
    }
}
