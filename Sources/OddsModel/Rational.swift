/// An exact non-negative rational number, kept reduced, used for price arithmetic so that no
/// binary floating point ever touches a price.
public struct Rational: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let numerator: Int64
    public let denominator: Int64

    /// Creates a reduced rational; returns nil for a zero denominator.
    public init?(_ numerator: Int64, _ denominator: Int64) {
        guard denominator != 0 else { return nil }
        // Whole numbers (every American price, most lines) need no reduction.
        if denominator == 1 { self.numerator = numerator; self.denominator = 1; return }
        var n = numerator, d = denominator
        if d < 0 { n = -n; d = -d }
        let g = Rational.gcd(n.magnitude, d.magnitude)
        self.numerator = n / Int64(g)
        self.denominator = d / Int64(g)
    }

    /// A rational already in lowest terms with a positive denominator (the caller has reduced it).
    init(reduced numerator: Int64, _ denominator: Int64) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The greatest common divisor (1 when both are zero), by the binary method: no division.
    public static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 { binaryGCD(a, b) }

    public static func < (lhs: Rational, rhs: Rational) -> Bool {
        // Cross-multiplication in 128 bits cannot overflow for 64-bit parts.
        let l = lhs.numerator.multipliedFullWidth(by: rhs.denominator)
        let r = rhs.numerator.multipliedFullWidth(by: lhs.denominator)
        return (l.high, l.low) < (r.high, r.low)
    }

    public func adding(_ other: Rational) -> Rational? {
        let (a, o1) = numerator.multipliedReportingOverflow(by: other.denominator)
        let (b, o2) = other.numerator.multipliedReportingOverflow(by: denominator)
        let (d, o3) = denominator.multipliedReportingOverflow(by: other.denominator)
        let (n, o4) = a.addingReportingOverflow(b)
        if o1 || o2 || o3 || o4 { return nil }
        return Rational(n, d)
    }

    public func subtracting(_ other: Rational) -> Rational? {
        adding(Rational(-other.numerator, other.denominator)!)
    }

    public func multiplied(by other: Rational) -> Rational? {
        let (n, o1) = numerator.multipliedReportingOverflow(by: other.numerator)
        let (d, o2) = denominator.multipliedReportingOverflow(by: other.denominator)
        if o1 || o2 { return nil }
        return Rational(n, d)
    }

    public var reciprocal: Rational? { Rational(denominator, numerator) }

    public var description: String { "\(numerator)/\(denominator)" }

    /// Decimal text with exactly `places` fraction digits, rounded half away from zero.
    /// This is the one rounding rule used for every converted price.
    public func rounded(places: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let negative = numerator < 0
        let magnitude = numerator.magnitude
        // Work in 128 bits: magnitude * scale may exceed 64 bits.
        let scaled = magnitude.multipliedFullWidth(by: UInt64(scale))
        let d = UInt64(denominator)
        let (q, r) = d.dividingFullWidth((scaled.high, scaled.low))
        var quotient = q
        if r >= d - r { quotient += 1 }  // r * 2 >= d without overflow
        let intPart = quotient / UInt64(scale)
        let fracPart = quotient % UInt64(scale)
        let sign = negative && quotient != 0
        var count = 1
        var v = intPart
        while v >= 10 { v /= 10; count += 1 }
        // Written digit by digit into the string's own memory, made once: two numbers made strings, a
        // padding and three joins, for every price a table prints, cost far more.
        return String(unsafeUninitializedCapacity: (sign ? 1 : 0) + count + (places > 0 ? 1 + places : 0)) { out in
            var n = 0
            // `value`'s last `digits` decimal digits at `n`, leading zeros included.
            func write(_ value: UInt64, digits: Int) {
                var v = value
                for k in stride(from: n + digits - 1, through: n, by: -1) { out[k] = UInt8(ascii: "0") &+ UInt8(v % 10); v /= 10 }
                n += digits
            }
            if sign { out[n] = UInt8(ascii: "-"); n += 1 }
            write(intPart, digits: count)
            if places > 0 {
                out[n] = UInt8(ascii: "."); n += 1
                write(fracPart, digits: places)
            }
            return n
        }
    }

    /// Parses plain decimal text such as "2.10", "7" or "0.5" exactly (no exponent, at most 12 fraction digits).
    public init?(decimalText: some StringProtocol) {
        if let r = decimalText.utf8.withContiguousStorageIfAvailable({ Rational(decimalBytes: $0) }) {
            guard let r else { return nil }
            self = r
        } else {
            guard let r = Array(decimalText.utf8).withUnsafeBufferPointer({ Rational(decimalBytes: $0) }) else { return nil }
            self = r
        }
    }

    /// `init(decimalText:)` on the text's UTF-8 bytes (decoders read numbers straight from a frame).
    public init?(decimalBytes: UnsafeBufferPointer<UInt8>) {
        var integer: Int64 = 0
        var fraction: Int64 = 0
        var scale: Int64 = 1
        var seenDot = false
        var digits = 0
        var negative = false
        for (i, byte) in decimalBytes.enumerated() {
            switch byte {
            case UInt8(ascii: "-") where i == 0: negative = true
            case UInt8(ascii: "+") where i == 0: continue
            case UInt8(ascii: "."):
                if seenDot { return nil }
                seenDot = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let v = Int64(byte - UInt8(ascii: "0"))
                digits += 1
                if seenDot {
                    guard scale < 1_000_000_000_000 else { return nil }
                    fraction = fraction * 10 + v
                    scale *= 10
                } else {
                    guard integer < 100_000_000 else { return nil }
                    integer = integer * 10 + v
                }
            default: return nil
            }
        }
        guard digits > 0 else { return nil }
        let (whole, o1) = integer.multipliedReportingOverflow(by: scale)
        let (n, o2) = whole.addingReportingOverflow(fraction)
        if o1 || o2 { return nil }
        self.init(negative ? -n : n, scale)
    }
}

/// The greatest common divisor (1 when both are zero) of unsigned integers of any width, by the binary
/// method: no division.
@inlinable
public func binaryGCD<T: FixedWidthInteger & UnsignedInteger>(_ a: T, _ b: T) -> T {
    if a == 0 { return b == 0 ? 1 : b }
    if b == 0 { return a }
    let shift = (a | b).trailingZeroBitCount
    var a = a >> a.trailingZeroBitCount, b = b
    repeat {
        b >>= b.trailingZeroBitCount
        if a > b { swap(&a, &b) }
        b -= a
    } while b != 0
    return a << shift
}
