/// How a price is written: the four odds formats the tool reads and shows.
public enum OddsFormat: String, CaseIterable, Sendable, Codable {
    case decimal, american, fractional, probability
}

/// A price as the provider sent it, with its exact value.
///
/// `text` is the provider's own text ("2.10", "-110", "11/10") and is what the user sees in the
/// provider's format. Every other format is computed from `decimalOdds`, an exact rational, and
/// rounded once, half away from zero: decimal to 2 places, American to a whole number,
/// probability to 4 places (shown as a percentage with 2). Fractional odds are the exact reduced
/// fraction of `decimalOdds - 1`.
public struct Price: Hashable, Sendable {
    public let text: String
    /// Decimal odds, exactly; always greater than 1.
    public let decimalOdds: Rational
    /// Last, after the words: a price is 33 bytes, not 40 (a large state holds one per selection).
    public let format: OddsFormat

    private static let one = Rational(1, 1)!
    private static let hundred = Rational(100, 1)!

    /// Decimal odds such as "2.10"; nil unless the value is a plain number greater than 1.
    public init?(decimal text: String) {
        let trimmed = text.trimmingSpaces
        guard let value = Rational(decimalText: trimmed), value > Price.one else { return nil }
        self.text = trimmed
        self.format = .decimal
        self.decimalOdds = value
    }

    /// American odds such as "-110" or "+150" (a bare "150" is read as positive).
    public init?(american text: String) {
        let trimmed = text.trimmingSpaces
        guard let value = Rational(decimalText: trimmed) else { return nil }
        self.init(american: trimmed, value: value)
    }

    /// `init(american:)` on a frame's UTF-8 bytes, with spaces and tabs around it trimmed: no
    /// `String` is made unless it is a price.
    public init?(americanBytes bytes: UnsafeBufferPointer<UInt8>) {
        var lo = 0, hi = bytes.count
        while lo < hi, bytes[lo] == 0x20 || bytes[lo] == 0x09 { lo += 1 }
        while hi > lo, bytes[hi - 1] == 0x20 || bytes[hi - 1] == 0x09 { hi -= 1 }
        let trimmed = UnsafeBufferPointer(rebasing: bytes[lo..<hi])
        // The usual form, an optional sign and up to 7 digits, read here; anything else as text.
        var i = 0, negative = false
        if i < trimmed.count, trimmed[i] == UInt8(ascii: "-") || trimmed[i] == UInt8(ascii: "+") {
            negative = trimmed[i] == UInt8(ascii: "-")
            i += 1
        }
        var magnitude: Int64 = 0
        var plain = i < trimmed.count && trimmed.count - i <= 7
        while plain, i < trimmed.count {
            let d = trimmed[i] &- UInt8(ascii: "0")
            if d > 9 { plain = false } else { magnitude = magnitude * 10 + Int64(d) }
            i += 1
        }
        if plain {
            guard magnitude >= 100 else { return nil }
            // (a + 100) / 100 for +a, (m + 100) / m for -m: both reduce by gcd(m mod 100, 100).
            let g = Int64(Price.gcdWith100[Int(magnitude % 100)])
            self.init(text: String(decoding: trimmed, as: UTF8.self), format: .american,
                      decimalOdds: negative ? Rational(reduced: (magnitude + 100) / g, magnitude / g)
                                            : Rational(reduced: (magnitude + 100) / g, 100 / g))
            return
        }
        guard let value = Rational(decimalBytes: trimmed) else { return nil }
        self.init(american: String(decoding: trimmed, as: UTF8.self), value: value)
    }

    private init(text: String, format: OddsFormat, decimalOdds: Rational) {
        self.text = text; self.format = format; self.decimalOdds = decimalOdds
    }

    /// gcd(n, 100) for n in 0..<100.
    private static let gcdWith100: [UInt8] = (0..<100).map { UInt8(Rational.gcd(UInt64($0), 100)) }

    private init?(american trimmed: String, value: Rational) {
        guard value.denominator == 1, value.numerator.magnitude >= 100 else { return nil }
        let a = value.numerator
        let decimal: Rational?
        if a > 0 {
            decimal = Rational(a + 100, 100)
        } else {
            decimal = Rational(-a + 100, -a)
        }
        guard let decimal, decimal > Price.one else { return nil }
        self.text = trimmed
        self.format = .american
        self.decimalOdds = decimal
    }

    /// Fractional odds such as "11/10" or "evs".
    public init?(fractional text: String) {
        let trimmed = text.trimmingSpaces
        let lower = trimmed.lowercased()
        let value: Rational?
        if lower == "evs" || lower == "evens" {
            value = Rational(1, 1)
        } else {
            let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2,
                  let n = Rational(decimalText: parts[0]), n.denominator == 1, n.numerator > 0,
                  let d = Rational(decimalText: parts[1]), d.denominator == 1, d.numerator > 0 else { return nil }
            value = Rational(n.numerator, d.numerator)
        }
        guard let value, let decimal = value.adding(Price.one) else { return nil }
        self.text = trimmed
        self.format = .fractional
        self.decimalOdds = decimal
    }

    /// A price a person typed, in any odds format: American when signed ("+150", "-110"), fractional with a slash
    /// ("6/4") or "evs", else decimal ("2.50"); the text is kept as typed. Nil unless above evens of nothing (1.0).
    public init?(typed text: String) {
        let t = text.trimmingSpaces
        let price: Price?
        if t.hasPrefix("+") || t.hasPrefix("-") {
            price = Price(american: t)
        } else if t.contains("/") || ["evs", "evens"].contains(t.lowercased()) {
            price = Price(fractional: t)
        } else {
            price = Price(decimal: t)
        }
        guard let price, Price.one < price.decimalOdds else { return nil }
        self = price
    }

    /// A price from an exact decimal-odds value, shown as decimal with two places.
    public init?(decimalOdds: Rational) {
        guard decimalOdds > Price.one else { return nil }
        self.decimalOdds = decimalOdds
        self.format = .decimal
        self.text = decimalOdds.rounded(places: 2)
    }

    /// The price in `format`: the provider's text when it is that format, else the exact conversion.
    public func formatted(_ format: OddsFormat) -> String {
        switch format {
        case .decimal: return self.format == .decimal ? text : decimalText
        case .american: return self.format == .american ? text : americanText
        case .fractional: return self.format == .fractional ? text : fractionalText
        case .probability: return probabilityPercent
        }
    }

    /// Decimal odds rounded to 2 places.
    public var decimalText: String { decimalOdds.rounded(places: 2) }

    /// American odds: "+N" at or above evens, "-N" below, N rounded to a whole number.
    public var americanText: String {
        let profit = decimalOdds.subtracting(Price.one)!
        if profit >= Price.one {
            return "+" + (profit.multiplied(by: Price.hundred) ?? profit).rounded(places: 0)
        }
        let value = Price.hundred.multiplied(by: profit.reciprocal!) ?? profit
        return "-" + value.rounded(places: 0)
    }

    /// The exact reduced fraction of the profit per unit staked.
    public var fractionalText: String {
        let profit = decimalOdds.subtracting(Price.one)!
        return "\(profit.numerator)/\(profit.denominator)"
    }

    /// Implied probability as a fraction of 1, 4 places ("0.4762").
    public var probabilityText: String { decimalOdds.reciprocal!.rounded(places: 4) }

    /// Implied probability as a percentage, 2 places ("47.62%").
    public var probabilityPercent: String {
        (decimalOdds.reciprocal!.multiplied(by: Price.hundred) ?? Price.one).rounded(places: 2) + "%"
    }

    /// Implied probability, exact.
    public var impliedProbability: Rational { decimalOdds.reciprocal! }
}

extension String {
    /// The text without spaces, tabs and line breaks around it. Foundation's `trimmingCharacters(in:)`
    /// goes through `NSString`, whose first use slows a command's start.
    public var trimmingSpaces: String {
        // Usually nothing to trim: a Character that is one of these starts and ends with its byte.
        func space(_ b: UInt8?) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        if !space(utf8.first) && !space(utf8.last) { return self }
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\n" || f == "\r" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\n" || l == "\r" { s.removeLast() }
        return String(s)
    }
}
