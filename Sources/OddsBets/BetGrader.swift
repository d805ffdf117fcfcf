import Foundation
import OddsFusion
import OddsHistory
import OddsModel
import OddsValue

/// A bet graded from the history: its closing line and CLV where the close was seen, and its result where the
/// final score was.
public struct GradedBet: Sendable {
    public var bet: StoredBet
    /// The closing line of its selection; nil where no closing price was seen (history off at the time, or the
    /// match not yet live), never a guess.
    public var close: ClosingLine?
    /// price × closing fair probability − 1.
    public var clv: Fraction?
    public var result: BetResult
    /// The final score it was settled on.
    public var finalScore: Score?
    /// Return − stake, once settled.
    public var profit: Fraction?
    /// Why there is no CLV, in words, where there is none.
    public var noClose: String?
    /// The closing fair price and the close at the bet's book: from the close, else from the grade kept.
    public var fairPrice: Fraction?
    public var closeAtBook: Price?
    /// Why it is not settled, in words, while it is not.
    public var unsettledWhy: String?

    public init(bet: StoredBet, result: BetResult) { self.bet = bet; self.result = result }

    public var stake: Fraction { Fraction(decimalText: bet.stake) ?? .zero }
}

/// Grades the ledger's bets from what the history kept of their matches.
public struct BetGrader {
    public var reference: FairReference
    public var method: DevigMethod

    public init(reference: FairReference = .consensus, method: DevigMethod = .multiplicative) {
        self.reference = reference; self.method = method
    }

    /// `bet` graded from `history`: the sources of its match (every provider's, where it was fused), each
    /// selection's close (its last price before the match went live), and the final score once it ended.
    public func grade(_ bet: StoredBet, history: any HistoryBackend) throws -> GradedBet {
        var graded = try gradeLive(bet, history: history)
        // What the history no longer holds (retention), the grade kept says.
        if let kept = bet.grade {
            if graded.clv == nil, let clv = kept.clv.flatMap({ Fraction(decimalText: $0) }) {
                graded.clv = clv
                graded.fairPrice = kept.closeFair.flatMap { Fraction(decimalText: $0) }
                graded.closeAtBook = kept.closeText.flatMap { Price(typed: $0) }
                graded.noClose = nil
            }
            if graded.result == .unsettled, let result = BetResult(rawValue: kept.result), result != .unsettled {
                graded.result = result
                if let h = kept.finalHome, let a = kept.finalAway { graded.finalScore = Score(home: h, away: a) }
                graded.unsettledWhy = nil
            }
        }
        graded.profit = graded.result.returns(stake: graded.stake, price: Fraction(bet.odds)).map { $0 - graded.stake }
        return graded
    }

    /// The grade from what the history holds now.
    private func gradeLive(_ bet: StoredBet, history: any HistoryBackend) throws -> GradedBet {
        var graded = GradedBet(bet: bet, result: .unsettled)
        let sources = try history.matches(MatchQuery(provider: bet.matchKey == nil ? bet.source.provider : nil,
                                                     id: bet.matchKey ?? bet.source.eventID))
        guard !sources.isEmpty else {
            graded.noClose = "its match is no longer in the history"
            graded.unsettledWhy = graded.noClose
            return graded
        }
        let summary = try history.summary(of: sources, filter: TimelineFilter(), recent: 0)
        // The close: each book's market as it stood when the match went live.
        let event = Self.closing(summary.lines, bet: bet)
        if let (m, s) = Self.locate(bet, in: event.event) {
            if event.event.markets[m].selections[s].price == nil {
                graded.noClose = event.anyClose ? "no closing price was seen at \(bet.book)"
                    : "no closing price was seen (the history did not see the match go live)"
            }
            if let close = ClosingLines.close(event.event, market: m, selection: s, reference: reference, method: method) {
                graded.close = close
                graded.clv = close.clv(of: Fraction(bet.odds))
                graded.fairPrice = close.fairPrice
                graded.closeAtBook = close.closeAtBook
                graded.noClose = nil
            } else if graded.noClose == nil {
                graded.noClose = "no fair closing price could be made"
            }
        } else {
            graded.noClose = event.anyClose ? "its selection had no closing price" : "no closing price was seen (the history did not see the match go live)"
        }
        // The result: the final score, once a source says the match ended.
        let ended = summary.recent.scores.filter { $0.state.status == EventStatus.ended.rawValue }
        if let last = ended.last, Self.notPlayed(last.state) {
            graded.result = .void
        } else if let last = ended.last, let home = last.state.home, let away = last.state.away {
            let score = Score(home: home, away: away)
            graded.finalScore = score
            let meaning = graded.close.map { BetMarket(id: $0.market) } ?? Self.meaning(bet, event.event)
            let outcome = graded.close?.outcome ?? Self.outcome(bet, event.event)
            graded.result = Settlement.settle(meaning, outcome: outcome, line: bet.line.isEmpty ? nil : bet.line, final: score)
            if graded.result == .unsettled { graded.unsettledWhy = "its market cannot be settled from the score" }
        } else {
            graded.unsettledWhy = sources.contains { $0.status == EventStatus.ended.rawValue } ? "no final score was stored" : "its match has not ended"
        }
        return graded
    }

    /// Whether a match's end says it was not played: a feed that ends a match postponed, cancelled or abandoned
    /// says so in its period's words (SofaScore's "Postponed", "Canceled", "Abandoned").
    static func notPlayed(_ state: ScoreState) -> Bool {
        let words = ((state.period ?? "") + " " + (state.scoreText ?? "")).lowercased()
        return ["postpon", "cancel", "abandon"].contains { words.contains($0) }
    }

    /// One market per source, book and market, each selection at its closing price (nil where none was seen).
    static func closing(_ lines: [SelectionLine], bet: StoredBet) -> (event: Event, anyClose: Bool) {
        let (event, _) = BetSelection.event(lines, provider: bet.source.provider, id: bet.source.eventID, sport: bet.sport, league: bet.league,
                                            home: bet.home, away: bet.away, startTime: bet.startTime) { $0.close?.price }
        return (event, lines.contains { $0.close?.price != nil })
    }

    /// The bet's own selection in the closing event: (market, selection) indices.
    static func locate(_ bet: StoredBet, in event: Event) -> (Int, Int)? {
        for (m, market) in event.markets.enumerated()
        where market.id == bet.marketID && market.book == bet.book && (market.provider ?? event.provider) == bet.source.provider {
            if let s = market.selections.firstIndex(where: { $0.id == bet.selectionID && ($0.line ?? "") == bet.line }) { return (m, s) }
        }
        return nil
    }

    /// The bet's market by meaning when no close gave it: the match result, or as the provider names it. A market of
    /// part of the match, another count, one side or a combination ("1st Half Result", "Total Corners", "Team Total",
    /// "Result & Both Teams To Score") is not settled from the match's final score, nor is a three-way handicap.
    static func meaning(_ bet: StoredBet, _ event: Event) -> BetMarket {
        let id = bet.marketID.lowercased(), name = TeamName.fold(bet.marketName)
        if FusedMatch.isPartOrOther(bet.marketName, event: event) || FusedMatch.isThreeWay(name) {
            return .other(bet.marketID)
        }
        if ["1x2", "ml", "moneyline", "h2h"].contains(id) || name.contains("result") || name.contains("winner") || name.contains("moneyline") {
            return .result
        }
        if name.contains("both teams") || id == "btts" { return .bothTeamsToScore }
        if name.contains("total") || name.contains("over under") || name.contains("goals over") {
            return Fraction(decimalText: bet.line).map { .total(line: $0) } ?? .other(bet.marketID)
        }
        if name.contains("spread") || name.contains("handicap") { return .spread }
        return .other(bet.marketID)
    }

    /// The bet's selection by meaning when no close gave it: home, draw or away by the teams, else its own key.
    static func outcome(_ bet: StoredBet, _ event: Event) -> String {
        let folded = TeamName.fold(bet.selectionName), id = bet.selectionID.lowercased()
        if ["home", "draw", "away", "over", "under", "yes", "no"].contains(id) { return id }
        if folded == TeamName.fold(bet.home) || id == "1" { return "home" }
        if let away = bet.away, folded == TeamName.fold(away) || id == "2" { return "away" }
        if folded == "draw" || id == "x" { return "draw" }
        for word in ["over", "under", "yes", "no"] where folded.hasPrefix(word) { return word }
        return id
    }
}
