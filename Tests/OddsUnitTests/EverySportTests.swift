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

/// Every sport (issue 18): `--sport all`, `--sport` repeated, config, replays that keep what they recorded.
@Suite("Every sport", .unitLane)
struct EverySportTests {

    @Test("A snapshot replaces what its own connection told, not another connection's events")
    func snapshotPerConnection() {
        var store = LiveStore()
        let t = Date()
        func e(_ id: String, _ sport: String) -> Event { Event(provider: .pulsescore, id: id, sport: sport, home: "A", away: "B", status: .live) }
        store.apply(FeedMessage(provider: .pulsescore, connection: "live-soccer", receivedAt: t, update: .snapshot([e("1", "soccer"), e("2", "soccer")])))
        store.apply(FeedMessage(provider: .pulsescore, connection: "live-tennis", receivedAt: t, update: .snapshot([e("3", "tennis")])))
        #expect(store.events.count == 3)
        store.apply(FeedMessage(provider: .pulsescore, connection: "live-soccer", receivedAt: t, update: .snapshot([e("2", "soccer")])))
        #expect(Set(store.events.keys.map(\.id)) == ["2", "3"])
    }
}
