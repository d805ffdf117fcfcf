import Foundation
import OddsHistory
import OddsModel
import OddsValue

/// How `odds bets report` groups the bets.
public enum BetReportGrouping: String, CaseIterable, Sendable {
    case all, book, sport, market, month

    func key(_ g: GradedBet) -> String {
        switch self {
        case .all: return "all"
        case .book: return g.bet.book
        case .sport: return g.bet.sport
        case .market: return g.close?.market ?? g.bet.marketName
        case .month: return String(ISODate.text(g.bet.placedAt).prefix(7))
        }
    }
}

/// One group's figures: what was staked and won, and how the prices taken did against the close.
public struct BetGroupReport: Sendable {
    public var group: String
    public var bets: Int
    /// Settled won, lost or push (void bets return their stake and count for nothing).
    public var settled: Int
    public var staked: Fraction
    public var profit: Fraction
    /// profit / staked, over the settled bets.
    public var roi: Fraction?
    /// The bets with a close, their mean CLV, its 95 % interval (mean ± 1.96 standard errors), and how many beat it.
    public var withClose: Int
    public var meanCLV: Fraction?
    public var clvInterval: (low: Double, high: Double)?
    public var beatClose: Int
    /// What the figures cannot say yet.
    public var note: String?
}

public enum BetReport {
    /// Bets with a close below which a mean CLV is too few to judge; settled bets below which profit says little.
    public static let fewCLV = 30, fewSettled = 100

    public static func groups(_ graded: [GradedBet], by grouping: BetReportGrouping) -> [BetGroupReport] {
        var order: [String] = []
        var byKey: [String: [GradedBet]] = [:]
        for g in graded {
            let k = grouping.key(g)
            if byKey[k] == nil { order.append(k) }
            byKey[k, default: []].append(g)
        }
        return order.map { report($0, byKey[$0]!) }
    }

    static func report(_ group: String, _ bets: [GradedBet]) -> BetGroupReport {
        let settled = bets.filter(\.result.isSettledOnScore)
        let staked = settled.reduce(Fraction.zero) { $0 + $1.stake }
        let profit = settled.reduce(Fraction.zero) { $0 + ($1.profit ?? .zero) }
        let clvs = bets.compactMap(\.clv)
        let mean = clvs.isEmpty ? nil : (clvs.reduce(Fraction.zero, +) / Fraction(clvs.count))
        var interval: (Double, Double)?
        if let mean, clvs.count >= 2 {
            let m = mean.doubleValue
            let variance = clvs.map { ($0.doubleValue - m) * ($0.doubleValue - m) }.reduce(0, +) / Double(clvs.count - 1)
            let half = 1.96 * (variance / Double(clvs.count)).squareRoot()
            interval = (m - half, m + half)
        }
        var notes: [String] = []
        if clvs.count < fewCLV { notes.append("\(clvs.count) bet\(clvs.count == 1 ? "" : "s") with a close: too few to judge CLV (\(fewCLV)+)") }
        if settled.count < fewSettled { notes.append("\(settled.count) settled: profit says little yet (\(fewSettled)+)") }
        return BetGroupReport(group: group, bets: bets.count, settled: settled.count, staked: staked, profit: profit,
                              roi: staked.isPositive ? profit / staked : nil, withClose: clvs.count, meanCLV: mean ?? nil,
                              clvInterval: interval, beatClose: clvs.filter(\.isPositive).count,
                              note: notes.isEmpty ? nil : notes.joined(separator: "; "))
    }

    /// The running profit over the settled bets, in the order placed, and each bet's CLV: what the report's small
    /// charts draw.
    public static func series(_ graded: [GradedBet]) -> (profit: [Fraction], clv: [Fraction]) {
        var running = Fraction.zero
        var profit: [Fraction] = []
        for g in graded.sorted(by: { $0.bet.placedAt < $1.bet.placedAt }) {
            guard let p = g.profit else { continue }
            running = running + p
            profit.append(running)
        }
        return (profit, graded.sorted(by: { $0.bet.placedAt < $1.bet.placedAt }).compactMap(\.clv))
    }
}
