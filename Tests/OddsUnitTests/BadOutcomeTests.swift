import Foundation
import Logging
import OddsJSON
import OddsModel
@testable import OddsOutput
import OddsStore
@testable import OddsSportsAPI
@testable import OddsBoltOdds
@testable import OddsCLI
@testable import OddsTransport
import OddsTickOdds
import OddsSimulator
import OddsSimulatorFaults
import OddsTestSupport
import Testing

@Suite("One warning per bad outcome", .unitLane)
struct BadOutcomeTests {
    @Test("A BoltOdds game with one unusable outcome: the game is kept, the outcome is skipped and counted once")
    func once() throws {
        let feed = BoltOddsOddsFeed(settings: ProviderSettings(key: "k", restURL: "http://127.0.0.1:1/api", webSocketURL: "ws://127.0.0.1:1/api"),
                                    filters: BoltOddsFilters(), index: BoltOddsGameIndex())
        let game = #"{"action":"initial_state","data":{"sport":"EPL","sportsbook":"fanduel","game":"A vs B, 2026-11-24, 03","home_team":"A","away_team":"B","info":{},"outcomes":{"A Moneyline":{"odds":"EVEN","outcome_name":"Moneyline","outcome_target":"A"},"B Moneyline":{"odds":"+120","outcome_name":"Moneyline","outcome_target":"B"}}}}"#
        for frame in [game, "[\(game)]", "[\(game),\(game.replacingOccurrences(of: "A vs B", with: "C vs D"))]"] {
            let inbound = try feed.receive(Array(frame.utf8), first: false)
            let games = inbound.updates.filter { if case .bookUpsert = $0 { return true } else { return false } }.count
            #expect(inbound.skipped.count == games, "\(frame.prefix(20)): \(inbound.skipped)")
            #expect(games >= 1)
        }
    }

}
