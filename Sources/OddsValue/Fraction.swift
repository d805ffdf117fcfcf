import BigInt
import OddsModel

/// An exact signed rational of any size, kept reduced with a positive denominator: the number type of
/// margins, fair prices, expected values and stakes. Values that fit 128 bits (nearly all) are worked on
/// in machine integers; a result that would overflow is worked on again as a big integer, so no answer is
/// ever rounded or lost to an overflow.
public struct Fraction: Hashable, Sendable, Comparable, CustomStringConvertible {
    enum Storage: Hashable, Sendable {
        case small(Int128, Int128)
        case big(BigInt, BigInt)
    }

    var storage: Storage

    public static let zero = Fraction(0)
    public static let one = Fraction(1)

    public init(_ value: Int) { storage = .small(Int128(value), 1) }

    /// `numerator / denominator`, reduced; nil for a zero denominator.
    public init?(_ numerator: Int128, _ denominator: Int128) {
        guard denominator != 0 else { return nil }
        self = Fraction.reducedSmall(numerator, denominator) ?? Fraction.reducedBig(BigInt(numerator), BigInt(denominator))
    }

    /// A price's exact rational (decimal odds, implied probability…).
    public init(_ r: Rational) { storage = .small(Int128(r.numerator), Int128(r.denominator)) }

    init(big numerator: BigInt, _ denominator: BigInt) { self = Fraction.reducedBig(numerator, denominator) }

    /// Plain decimal text ("0.5", "-2", "100.25"); nil for anything else.
    public init?(decimalText text: String) {
        guard let r = Rational(decimalText: text) else { return nil }
        self.init(r)
    }

    private static func reducedSmall(_ n: Int128, _ d: Int128) -> Fraction? {
        var n = n, d = d
        if d < 0 {
            guard n != .min, d != .min else { return nil }
            n = -n; d = -d
        }
        if d == 1 { return Fraction(storage: .small(n, 1)) }
        let g = gcd(n.magnitude, d.magnitude)
        return Fraction(storage: .small(n / Int128(g), d / Int128(g)))
    }

    private static func reducedBig(_ n: BigInt, _ d: BigInt) -> Fraction {
        var n = n, d = d
        if d.sign == .minus { n.negate(); d.negate() }
        let g = BigInt(n.magnitude.greatestCommonDivisor(with: d.magnitude))
        if g > 1 { n /= g; d /= g }
        // Back to machine integers whenever it fits, so equal values are stored alike.
        if n.bitWidth <= 127, d.bitWidth <= 127, let sn = Int128(exactly: n), let sd = Int128(exactly: d) {
            return Fraction(storage: .small(sn, sd))
        }
        return Fraction(storage: .big(n, d))
    }

    private init(storage: Storage) { self.storage = storage }

    static func gcd(_ a: UInt128, _ b: UInt128) -> UInt128 { binaryGCD(a, b) }

    var bigParts: (BigInt, BigInt) {
        switch storage {
        case .small(let n, let d): return (BigInt(n), BigInt(d))
        case .big(let n, let d): return (n, d)
        }
    }

    public var numerator: BigInt { bigParts.0 }
    public var denominator: BigInt { bigParts.1 }

    public var isZero: Bool { if case .small(0, _) = storage { return true } else { return false } }
    public var isNegative: Bool {
        switch storage {
        case .small(let n, _): return n < 0
        case .big(let n, _): return n.sign == .minus && !n.isZero
        }
    }
    public var isPositive: Bool { !isZero && !isNegative }

    public static func + (a: Fraction, b: Fraction) -> Fraction {
        if case .small(let an, let ad) = a.storage, case .small(let bn, let bd) = b.storage {
            if ad == bd {
                let (n, o) = an.addingReportingOverflow(bn)
                if !o, let r = reducedSmall(n, ad) { return r }
            } else {
                let (x, o1) = an.multipliedReportingOverflow(by: bd)
                let (y, o2) = bn.multipliedReportingOverflow(by: ad)
                let (d, o3) = ad.multipliedReportingOverflow(by: bd)
                if !(o1 || o2 || o3) {
                    let (n, o4) = x.addingReportingOverflow(y)
                    if !o4, let r = reducedSmall(n, d) { return r }
                }
            }
        }
        let (an, ad) = a.bigParts, (bn, bd) = b.bigParts
        return reducedBig(an * bd + bn * ad, ad * bd)
    }

    public static prefix func - (a: Fraction) -> Fraction {
        switch a.storage {
        case .small(let n, let d) where n != .min: return Fraction(storage: .small(-n, d))
        default:
            let (n, d) = a.bigParts
            return reducedBig(-n, d)
        }
    }

    public static func - (a: Fraction, b: Fraction) -> Fraction { a + (-b) }

    public static func * (a: Fraction, b: Fraction) -> Fraction {
        if case .small(let an, let ad) = a.storage, case .small(let bn, let bd) = b.storage {
            // Cross-reduce first: keeps products small.
            let g1 = Int128(gcd(an.magnitude, bd.magnitude)), g2 = Int128(gcd(bn.magnitude, ad.magnitude))
            let (n, o1) = (an / g1).multipliedReportingOverflow(by: bn / g2)
            let (d, o2) = (ad / g2).multipliedReportingOverflow(by: bd / g1)
            if !(o1 || o2) { return Fraction(storage: .small(n, d)) }
        }
        let (an, ad) = a.bigParts, (bn, bd) = b.bigParts
        return reducedBig(an * bn, ad * bd)
    }

    /// The reciprocal; nil for zero.
    public var reciprocal: Fraction? {
        guard !isZero else { return nil }
        switch storage {
        case .small(let n, let d): return Fraction(d, n)
        case .big(let n, let d): return Fraction(big: d, n)
        }
    }

    /// `a / b`; nil when `b` is zero.
    public static func / (a: Fraction, b: Fraction) -> Fraction? { b.reciprocal.map { a * $0 } }

    public static func < (a: Fraction, b: Fraction) -> Bool {
        if case .small(let an, let ad) = a.storage, case .small(let bn, let bd) = b.storage {
            let l = an.multipliedFullWidth(by: bd), r = bn.multipliedFullWidth(by: ad)
            return (l.high, l.low) < (r.high, r.low)
        }
        let (an, ad) = a.bigParts, (bn, bd) = b.bigParts
        return an * bd < bn * ad
    }

    /// Decimal text with exactly `places` fraction digits, rounded half away from zero: the one rounding
    /// rule of everything shown.
    public func rounded(places: Int) -> String {
        // Most values fit 128 bits scaled: no big integers (the stream rounds a few numbers per price).
        if case .small(let sn, let sd) = storage, places <= 30, sn != .min {
            var scale: Int128 = 1
            for _ in 0..<places { scale *= 10 }
            let (scaled, overflow) = sn.magnitude.multipliedReportingOverflow(by: UInt128(scale))
            if !overflow {
                let d = UInt128(sd)
                var (q, r) = scaled.quotientAndRemainder(dividingBy: d)
                if r >= d - r { q += 1 }
                let whole = q / UInt128(scale), part = q % UInt128(scale)
                var text = String(whole)
                if places > 0 {
                    let digits = String(part)
                    text += "." + String(repeating: "0", count: places - digits.count) + digits
                }
                return sn < 0 && q != 0 ? "-" + text : text
            }
        }
        let (n, d) = bigParts
        var scale = BigInt(1)
        for _ in 0..<places { scale *= 10 }
        let magnitude = BigInt(n.magnitude) * scale
        let (q, r) = magnitude.quotientAndRemainder(dividingBy: d)
        var quotient = q
        if r * 2 >= d { quotient += 1 }
        let whole = quotient / scale, part = quotient % scale
        var text = String(whole)
        if places > 0 {
            let digits = String(part)
            text += "." + String(repeating: "0", count: places - digits.count) + digits
        }
        return n.sign == .minus && !quotient.isZero ? "-" + text : text
    }

    /// The nearest multiple of `unit` (> 0), halves away from zero.
    public func roundedToMultiple(of unit: Fraction) -> Fraction {
        guard let units = self / unit else { return self }
        let (n, d) = units.bigParts
        let (q, r) = BigInt(n.magnitude).quotientAndRemainder(dividingBy: d)
        var whole = q
        if r * 2 >= d { whole += 1 }
        if n.sign == .minus { whole.negate() }
        return Fraction(big: whole, 1) * unit
    }

    /// The nearest binary double: only for the methods that have no closed form (power, Shin), never for
    /// anything compared or shown.
    public var doubleValue: Double {
        switch storage {
        case .small(let n, let d): return Double(n) / Double(d)
        case .big(let n, let d):
            // Scale both down together so neither overflows a double.
            let shift = max(0, max(n.bitWidth, d.bitWidth) - 1000)
            return Double(n >> shift) / Double(d >> shift)
        }
    }

    /// `value` rounded to 15 decimal places, exactly as a fraction (the results of the iterative methods).
    public init(approximating value: Double) {
        let scale: Int128 = 1_000_000_000_000_000
        self = Fraction(Int128((value * Double(scale)).rounded()), scale)!
    }

    public var description: String {
        switch storage {
        case .small(let n, let d): return d == 1 ? "\(n)" : "\(n)/\(d)"
        case .big(let n, let d): return "\(n)/\(d)"
        }
    }
}
