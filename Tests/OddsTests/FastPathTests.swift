import Foundation
import OddsModel
@testable import OddsTickOdds
import Testing

/// The byte-level fast paths of the model's text readers agree with the Character-level originals.
@Suite("Fast paths agree with their references")
struct FastPathTests {
    /// Random ASCII strings made of the characters that matter to these readers.
    static func samples(_ alphabet: String, count: Int = 3000, seed: UInt64 = 7) -> [String] {
        var random = SeededRandom(seed: seed)
        let chars = Array(alphabet)
        return (0..<count).map { _ in
            String((0..<Int(random.next() % 9)).map { _ in chars[Int(random.next() % UInt64(chars.count))] })
        }
    }

    @Test("sportSlug on ASCII equals lowercasing, splitting on space and underscore, joining with '-'")
    func slug() {
        for s in FastPathTests.samples("aZ _-9Ice Hockey") + ["Soccer", "Ice Hockey", "ice_hockey", "  A  B ", "", "__", "Ünïcode Sport"] {
            let reference = s.lowercased().split(whereSeparator: { $0 == " " || $0 == "_" }).joined(separator: "-")
            #expect(sportSlug(s) == reference, "\(s)")
        }
    }

    @Test("Score(text:) on ASCII reads as the Foundation-trimmed split does")
    func score() {
        for s in FastPathTests.samples("0129 -:\t+x") + ["2-1", " 2 - 1 ", "2:1", "-2-1", "245/6", "1-2-3", "99999999999999999999-1", "2\u{A0}-1"] {
            let parts = s.split(whereSeparator: { $0 == "-" || $0 == ":" })
            var reference: Score?
            if parts.count == 2, let h = Int(parts[0].trimmingCharacters(in: .whitespaces)),
               let a = Int(parts[1].trimmingCharacters(in: .whitespaces)) { reference = Score(home: h, away: a) }
            #expect(Score(text: s) == reference, "\(s)")
        }
    }

    @Test("A selection id splits on ':' as String.split does, ASCII or not")
    func selectionRef() {
        for s in FastPathTests.samples("ab:1", count: 4000) + ["1:full_time_result:full_game:home", "::a::b:c:d:", "é:b:c:d", "a:b:c"] {
            let parts = s.split(separator: ":").map(String.init)
            let reference = parts.count >= 4 ? ("\(parts[1]):\(parts[2])", parts[3]) : ("mk", nil as String?)
            let ref = TickOddsWire.selectionRef(s, marketKey: "mk")
            #expect(ref.marketID == reference.0 && ref.side == reference.1, "\(s)")
        }
    }
}
