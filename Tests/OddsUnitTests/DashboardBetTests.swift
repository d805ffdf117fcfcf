import Foundation
import OddsDashboard
import OddsModel
import OddsStore
import OddsTestSupport
import Testing

/// `b` in the dashboard (issue 52): a bet at a price shown, the stake asked for, handed to the run loop.
@Suite("Dashboard bets", .unitLane)
struct DashboardBetTests {
    typealias A = DashboardAlertTests

    @Test("b: the first main price shown, Tab cycles the prices, digits make the stake; Enter asks the loop to record it")
    func record() throws {
        var model = A.model()
        for key in "/Arsenal" { _ = update(&model, .key(.character(key))) }
        _ = update(&model, .key(.enter))
        _ = update(&model, .key(.character("b")))
        #expect(model.betDraft?.cell.selection.name == "Arsenal" && model.betDraft?.stake == "")
        #expect(DashboardLayout.layout(model).line(39).contains("bet: Arsenal 2.00 · stake: ▏"))
        _ = update(&model, .key(.character("\t")))
        #expect(model.betDraft?.cell.selection.name == "Draw")
        // Letters are not a stake; an empty stake is refused with a word in the footer.
        for c in "x1y2.5" { _ = update(&model, .key(.character(c))) }
        #expect(model.betDraft?.stake == "12.5")
        _ = update(&model, .key(.backspace))
        #expect(model.betDraft?.stake == "12.")
        for c: Character in ["\u{7F}", "٣", "\u{15}"] { _ = update(&model, .key(.character(c))) }
        #expect(model.betDraft?.stake == "12.")
        _ = update(&model, .key(.clearLine))
        #expect(update(&model, .key(.enter)).isEmpty && model.betDraft?.error != nil)
        #expect(DashboardLayout.layout(model).line(39).contains("type a stake"))
        for c in "10" { _ = update(&model, .key(.character(c))) }
        let effects = update(&model, .key(.enter))
        #expect(effects == [.recordBet(BetRequest(match: "t1", title: "Arsenal v Chelsea", selection: "Draw", price: Price(decimal: "3.40")!,
                                                   book: nil, stake: "10"))], "\(effects)")
        #expect(model.betDraft == nil)
        // The loop's answer is a ticker line.
        _ = update(&model, .notice("bet 1 recorded: Draw 3.40 at tickodds, stake 10"))
        #expect(model.ticker.first.map { if case .note(let t) = $0.news { t.hasPrefix("bet 1 recorded") } else { false } } == true)
        // Esc lets a draft go.
        _ = update(&model, .key(.character("b")))
        _ = update(&model, .key(.escape))
        #expect(model.betDraft == nil)
    }
}
