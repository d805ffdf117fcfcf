import Foundation
import OddsModel
import OddsSimulator
import OddsTestSupport
import Testing

@Suite("Prices convert exactly", .unitLane)
struct PriceTests {
    @Test("Documented examples", arguments: [
        ("2.10", "2.10", "+110", "11/10", "0.4762", "47.62%"),
        ("1.91", "1.91", "-110", "91/100", "0.5236", "52.36%"),
        ("2.00", "2.00", "+100", "1/1", "0.5000", "50.00%"),
        ("1.50", "1.50", "-200", "1/2", "0.6667", "66.67%"),
        ("4.50", "4.50", "+350", "7/2", "0.2222", "22.22%"),
        ("101", "101", "+10000", "100/1", "0.0099", "0.99%"),
    ])
    func decimalExamples(text: String, decimal: String, american: String, fractional: String, probability: String, percent: String) throws {
        let p = try #require(Price(decimal: text))
        #expect(p.formatted(.decimal) == decimal)
        #expect(p.formatted(.american) == american)
        #expect(p.formatted(.fractional) == fractional)
        #expect(p.probabilityText == probability)
        #expect(p.formatted(.probability) == percent)
    }

    @Test("American input keeps its text and converts exactly")
    func american() throws {
        let p = try #require(Price(american: "-110"))
        #expect(p.text == "-110")
        #expect(p.formatted(.american) == "-110")
        #expect(p.decimalOdds == Rational(21, 11))
        #expect(p.formatted(.decimal) == "1.91")
        #expect(p.formatted(.fractional) == "10/11")
        let q = try #require(Price(american: "+150"))
        #expect(q.formatted(.decimal) == "2.50")
        #expect(q.formatted(.fractional) == "3/2")
        #expect(Price(american: "150")?.decimalOdds == q.decimalOdds)
    }

    @Test("Fractional input, including evens")
    func fractional() throws {
        #expect(Price(fractional: "11/10")?.formatted(.decimal) == "2.10")
        #expect(Price(fractional: "evs")?.formatted(.american) == "+100")
        #expect(Price(fractional: "10/11")?.formatted(.american) == "-110")
    }

    @Test("Invalid prices are rejected", arguments: ["", "abc", "1.00", "0.5", "-2.0", "1e3", "1..2", "2.1.0"])
    func invalidDecimal(text: String) {
        #expect(Price(decimal: text) == nil)
    }

    @Test("Invalid American and fractional prices are rejected")
    func invalidOthers() {
        #expect(Price(american: "50") == nil)
        #expect(Price(american: "-99") == nil)
        #expect(Price(american: "+1.5") == nil)
        #expect(Price(fractional: "0/1") == nil)
        #expect(Price(fractional: "1/0") == nil)
        #expect(Price(fractional: "3") == nil)
    }

    @Test("Rounding is half away from zero")
    func rounding() throws {
        #expect(Rational(2345, 1000)!.rounded(places: 2) == "2.35")
        #expect(Rational(2344, 1000)!.rounded(places: 2) == "2.34")
        #expect(Rational(-2345, 1000)!.rounded(places: 2) == "-2.35")
        #expect(Rational(1, 3)!.rounded(places: 4) == "0.3333")
        #expect(Rational(2, 3)!.rounded(places: 0) == "1")
    }

    // Property-based: many generated prices from a seeded generator, each round trip exact.

    @Test("Property: decimal text survives every conversion round trip exactly")
    func decimalRoundTrips() throws {
        var random = SeededRandom(seed: 7)
        for _ in 0..<5_000 {
            let hundredths = random.int(101...100_000)
            let text = "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
            let p = try #require(Price(decimal: text))
            // The provider's text is shown as is.
            #expect(p.formatted(.decimal) == text)
            // Fractional is exact: parsing it back gives the same value.
            let f = try #require(Price(fractional: p.fractionalText))
            #expect(f.decimalOdds == p.decimalOdds)
            // Probability times odds is exactly one.
            #expect(p.impliedProbability.multiplied(by: p.decimalOdds) == Rational(1, 1))
            // American is within half a unit of the exact value, and reads back to within the rounding.
            let a = try #require(Price(american: p.americanText))
            let diff = try #require(a.decimalOdds.subtracting(p.decimalOdds))
            #expect(diff < Rational(1, 100)! && Rational(-1, 100)! < diff)
        }
    }

    @Test("Property: American integers survive every round trip exactly")
    func americanRoundTrips() throws {
        var random = SeededRandom(seed: 11)
        for _ in 0..<5_000 {
            let magnitude = random.int(100...20_000)
            let text = random.chance(0.5) ? "+\(magnitude)" : "-\(magnitude)"
            let p = try #require(Price(american: text))
            #expect(p.formatted(.american) == text)
            // Through the exact value, the American text computed from it is the same integer.
            let viaValue = try #require(Price(decimalOdds: p.decimalOdds))
            #expect(viaValue.americanText == (text == "-100" ? "+100" : text))
            let f = try #require(Price(fractional: p.fractionalText))
            #expect(f.americanText == viaValue.americanText)
        }
    }

    @Test("Property: fractional odds round trip exactly")
    func fractionalRoundTrips() throws {
        var random = SeededRandom(seed: 13)
        for _ in 0..<5_000 {
            let n = random.int(1...500), d = random.int(1...200)
            let p = try #require(Price(fractional: "\(n)/\(d)"))
            let reduced = Rational(Int64(n), Int64(d))!
            #expect(p.fractionalText == "\(reduced.numerator)/\(reduced.denominator)")
            #expect(p.decimalOdds == reduced.adding(Rational(1, 1)!))
        }
    }

    @Test("American odds read on bytes are the text reading, for every form and around every edge")
    func americanBytes() {
        var texts = ["+100", "-110", "+0100", "100", "-0", "99", "-99", "+", "-", "", " -110 ", "\t+150", "1.0", "-110.0",
                     "1234567", "-1234567", "12345678", "99999999", "+1e3", "1,000", "--110", "+-110", "0", "00100"]
        for n in stride(from: -1_300, through: 1_300, by: 7) { texts += ["\(n)", "+\(n)"] }
        for text in texts {
            let bytes = Array(text.utf8)
            let read = bytes.withUnsafeBufferPointer { Price(americanBytes: $0) }
            #expect(read == Price(american: text), "\(text)")
            if let read { #expect(read.text == text.trimmingCharacters(in: .whitespaces)) }
        }
        // The reduction by gcd(n, 100) from the table: -150 is 5/3, +250 is 7/2, -100 and +100 are 2.
        #expect(Price(american: "-150")?.decimalOdds == Rational(5, 3))
        #expect(Array("+250".utf8).withUnsafeBufferPointer { Price(americanBytes: $0) }?.decimalOdds == Rational(7, 2))
        #expect(Array("-100".utf8).withUnsafeBufferPointer { Price(americanBytes: $0) }?.decimalOdds == Rational(2, 1))
    }

    @Test("The binary gcd is Euclid's")
    func gcd() {
        func euclid(_ a: UInt64, _ b: UInt64) -> UInt64 {
            var a = a, b = b
            while b != 0 { (a, b) = (b, a % b) }
            return a == 0 ? 1 : a
        }
        var random = SeededRandom(seed: 5)
        var pairs: [(UInt64, UInt64)] = [(0, 0), (0, 7), (7, 0), (1, 1), (100, 250), (1 << 40, 1 << 20), (UInt64.max, 3)]
        for _ in 0..<2_000 { pairs.append((random.next() % 1_000_000, random.next() % 1_000_000)) }
        for (a, b) in pairs { #expect(Rational.gcd(a, b) == euclid(a, b), "\(a), \(b)") }
    }

    @Test("Comparison of rationals does not overflow")
    func comparison() {
        #expect(Rational(Int64.max / 2, 3)! > Rational(Int64.max / 4, 3)!)
        #expect(Rational(1, 3)! < Rational(1, 2)!)
    }
}
