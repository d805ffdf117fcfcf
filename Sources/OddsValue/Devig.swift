import Foundation

/// How a book's margin is taken out of its prices to give vig-free probabilities. Each method reads the
/// implied probabilities qᵢ = 1/priceᵢ of one complete market (Σq = 1 + margin) and gives pᵢ with Σp = 1.
public enum DevigMethod: String, CaseIterable, Sendable, Codable {
    /// pᵢ = qᵢ / Σq: the margin taken from each selection in proportion to its probability. Exact.
    case multiplicative
    /// pᵢ = qᵢ − (Σq − 1) / n: the margin taken equally from each of the n selections. Exact; none
    /// when a selection would fall to zero or below (a long shot in a high-margin market).
    case additive
    /// pᵢ = qᵢᵏ with k such that Σ qᵢᵏ = 1: more margin taken from long shots. Solved by bisection
    /// to 1e-15, then made exact to sum to 1.
    case power
    /// Shin's model of insider trading: pᵢ = (√(z² + 4(1 − z)·qᵢ²/Σq) − z) / (2(1 − z)) with z, the
    /// insiders' share, such that Σp = 1. Solved by bisection to 1e-15, then made exact to sum to 1.
    /// A market without margin (Σq ≤ 1) has z = 0 and is taken multiplicatively.
    case shin

    /// The formula, for help and the man page.
    public var formula: String {
        switch self {
        case .multiplicative: return "p = q / Σq"
        case .additive: return "p = q − (Σq − 1) / n"
        case .power: return "p = q^k, with k such that Σ q^k = 1"
        case .shin: return "p = (√(z² + 4(1−z)·q²/Σq) − z) / (2(1−z)), with z such that Σp = 1"
        }
    }

    /// The vig-free probabilities of `implied` (each > 0, in order), or nil when the method gives none.
    public func fair(_ implied: [Fraction]) -> [Fraction]? {
        guard implied.count >= 2, implied.allSatisfy(\.isPositive) else { return nil }
        let sum = implied.reduce(Fraction.zero, +)
        switch self {
        case .multiplicative:
            return implied.map { ($0 / sum)! }
        case .additive:
            let share = ((sum - .one) / Fraction(implied.count))!
            let out = implied.map { $0 - share }
            return out.allSatisfy(\.isPositive) ? out : nil
        case .power:
            let q = implied.map(\.doubleValue)
            // f(k) = Σ qᵏ − 1 falls as k grows (each q < 1); the root brackets [lo, hi].
            func f(_ k: Double) -> Double { q.reduce(0) { $0 + pow($1, k) } - 1 }
            var lo = 1e-6, hi = 1.0
            while f(hi) > 0, hi < 1e6 { hi *= 2 }
            guard f(lo) >= 0, f(hi) <= 0 else { return nil }
            let k = Self.bisect(lo, hi) { f($0) > 0 }
            return Self.exact(q.map { pow($0, k) })
        case .shin:
            guard Fraction.one < sum else { return DevigMethod.multiplicative.fair(implied) }
            let q = implied.map(\.doubleValue), s = sum.doubleValue
            func p(_ z: Double) -> [Double] { q.map { (sqrt(z * z + 4 * (1 - z) * $0 * $0 / s) - z) / (2 * (1 - z)) } }
            // Σp(z) falls from √Σq > 1 at z = 0 toward 1 − … below 1 as z nears 1.
            let z = Self.bisect(0, 0.999_999) { p($0).reduce(0, +) > 1 }
            return Self.exact(p(z))
        }
    }

    /// The point where `above` turns false, between lo (true) and hi (false), to 1e-15 or 200 halvings.
    static func bisect(_ lo: Double, _ hi: Double, above: (Double) -> Bool) -> Double {
        var lo = lo, hi = hi
        for _ in 0..<200 where hi - lo > 1e-15 {
            let mid = (lo + hi) / 2
            if above(mid) { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    /// Iterative results made exact: each to 15 places, then scaled so that they sum to exactly 1.
    static func exact(_ values: [Double]) -> [Fraction]? {
        guard values.allSatisfy({ $0.isFinite && $0 > 0 }) else { return nil }
        let fractions = values.map { Fraction(approximating: $0) }
        let sum = fractions.reduce(Fraction.zero, +)
        guard sum.isPositive else { return nil }
        return fractions.map { ($0 / sum)! }
    }
}

/// Whose prices a selection's fair price comes from.
public enum FairReference: Hashable, Sendable, CustomStringConvertible {
    /// Per selection, the median of every book's vig-free probability (with an even count, the mean of
    /// the middle two), renormalised so the market sums to 1.
    case consensus
    /// One book's vig-free probabilities ("pinnacle").
    case book(String)

    public init(_ text: String) {
        let t = text.trimmingCharacters(in: .whitespaces)
        self = t.lowercased() == "consensus" ? .consensus : .book(t)
    }

    public var description: String {
        switch self {
        case .consensus: return "consensus"
        case .book(let b): return b
        }
    }
}
