import Foundation
import OddsHistory
import OddsModel
import OddsValue

/// A bet as a person gives it (on the command line or a CSV row), before it is found in the history.
public struct BetEntry: Sendable {
    /// The match as `odds history show` takes it: an event id, a fused match id, a short id or a team.
    public var match: String
    public var selection: String
    public var price: String
    public var stake: String
    public var book: String?
    public var provider: String?
    public var market: String?
    public var line: String?
    public var placedAt: Date
    public var note: String?

    public init(match: String, selection: String, price: String, stake: String, book: String? = nil, provider: String? = nil,
                market: String? = nil, line: String? = nil, placedAt: Date, note: String? = nil) {
        self.match = match; self.selection = selection; self.price = price; self.stake = stake; self.book = book
        self.provider = provider; self.market = market; self.line = line; self.placedAt = placedAt; self.note = note
    }
}

/// Why an entry could not be placed, in one sentence.
public struct BetEntryError: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The price or stake cannot be read.
        case input
        /// No such match or selection in the history.
        case notFound
        /// More than one selection fits: the sentence says what to add.
        case ambiguous
    }
    public var kind: Kind
    public var message: String
}

public enum BetPlacement {
    /// `entry` found in `history`: the bet to store, the facts of its match and selection taken from the history.
    public static func resolve(_ entry: BetEntry, in history: any HistoryBackend) throws -> StoredBet {
        guard let typed = Price(typed: entry.price) else {
            throw BetEntryError(kind: .input, message: "PRICE takes odds in any format above evens of nothing: 2.50, +150, -110 or 6/4; not '\(entry.price)'.")
        }
        guard let stake = Fraction(decimalText: entry.stake), stake.isPositive else {
            throw BetEntryError(kind: .input, message: "STAKE takes a positive amount such as 10 or 12.50; not '\(entry.stake)'.")
        }
        guard let found = try StoredMatchFinder.lookup(entry.match, in: history) else {
            throw BetEntryError(kind: .notFound, message: "The history has no match '\(entry.match)' (see odds history matches).")
        }
        var sources = found.sources
        if let provider = entry.provider { sources = sources.filter { $0.key.provider.rawValue == provider.lowercased() } }
        guard let first = sources.first else {
            throw BetEntryError(kind: .notFound, message: "The match '\(entry.match)' has no \(entry.provider ?? "") prices in the history.")
        }
        let summary = try history.summary(of: sources, filter: TimelineFilter(), recent: 0)
        // A bet on a match already over is no bet: any provider of the match saying it ended is enough.
        let scores = sources.count == found.sources.count ? summary.recent.scores
            : try history.timeline(of: found.sources, filter: TimelineFilter(prices: false)).scores
        if let end = scores.first(where: { $0.state.status == EventStatus.ended.rawValue }), end.at <= entry.placedAt {
            let score = end.state.home.flatMap { h in end.state.away.map { " (\(h)-\($0))" } } ?? ""
            throw BetEntryError(kind: .input, message: "\(first.title) ended at \(ISODate.text(end.at))\(score), before the bet was placed "
                                + "(\(ISODate.text(entry.placedAt))): give the time it was placed with --at.")
        }
        var candidates = BetSelection.candidates(summary.lines, source: first)
            .filter { BetSelection.names(entry.selection, $0, home: first.home, away: first.away) }
        if let market = entry.market {
            let m = TeamName.fold(market)
            candidates = candidates.filter {
                TeamName.fold($0.selection.marketID) == m || TeamName.fold($0.selection.marketName) == m || $0.market.map(TeamName.fold) == m
            }
        } else {
            candidates = candidates.filter { $0.market == "result" }
        }
        if let line = entry.line {
            let wanted = Rational(decimalText: line)
            candidates = candidates.filter { c in
                let l = c.selection.line.isEmpty ? nil : c.selection.line
                return l == line || (wanted != nil && l.flatMap { Rational(decimalText: $0) } == wanted)
            }
        }
        if let book = entry.book {
            let b = TeamName.fold(book)
            candidates = candidates.filter { TeamName.fold($0.selection.book) == b || TeamName.fold(BookNames.proper($0.selection.book)) == b }
        }
        guard let chosen = candidates.first else {
            throw BetEntryError(kind: .notFound, message: "'\(entry.selection)' is not a selection of \(first.title)"
                                + "\(entry.market.map { " in the market '\($0)'" } ?? "'s match result")\(entry.book.map { " at \($0)" } ?? "")"
                                + " in the history (see odds history show \(first.key.eventID)).")
        }
        // A word that fits more than one selection ("Manchester" in a derby): the names say which to type.
        let names = Set(candidates.map(\.selection.selectionName)).sorted()
        if names.count > 1, Set(candidates.map { $0.outcome ?? $0.selection.selectionID }).count > 1 {
            throw BetEntryError(kind: .ambiguous, message: "'\(entry.selection)' fits more than one selection (\(names.joined(separator: ", "))): type more of the name, or home, draw or away.")
        }
        let books = Set(candidates.map(\.selection.book)).sorted()
        let ways = Set(candidates.map { [$0.selection.marketID, $0.selection.line, $0.selection.selectionID, $0.selection.source.provider.rawValue] })
        guard books.count == 1, ways.count == 1 else {
            let choices = books.count > 1 ? "name the book with --book (\(books.joined(separator: ", ")))"
                : "name the market, line or provider (--market, --line, --provider)"
            throw BetEntryError(kind: .ambiguous, message: "'\(entry.selection)' is priced more than one way: \(choices).")
        }
        let s = chosen.selection
        let source = sources.first { $0.key == s.source } ?? first
        return StoredBet(placedAt: entry.placedAt, source: s.source, matchKey: source.matchKey, sport: source.sport, league: source.league,
                         home: source.home, away: source.away, startTime: source.startTime, marketID: s.marketID,
                         marketName: s.marketName, line: s.line, selectionID: s.selectionID, selectionName: s.selectionName,
                         book: s.book, priceText: typed.text, odds: typed.decimalOdds, stake: entry.stake, note: entry.note)
    }
}
