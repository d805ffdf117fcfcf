import Foundation
@testable import OddsCLI
import OddsModel
import OddsTestSupport
import OddsTransport
import Testing

@Suite("The dashboard's feed inbox", .unitLane)
struct DashInboxTests {
    @Test("Closing after the feed said it stopped still takes the feed's error, which comes just after; a feed that never ends is not waited for past the bound")
    func endAwaited() async throws {
        let clock = VirtualClock()
        let feed = FeedStream(capacity: 8)
        let inbox = DashboardRunner.Inbox(feed: feed, books: BookFilter([]), restamp: false)
        _ = inbox.drain()
        #expect(inbox.error == nil)
        // The end comes while the inbox waits for it (it sleeps on the clock between looks).
        let ending = Task { await inbox.awaitEnd(timeout: 10, clock: clock) }
        try await clock.waitForSleeper()
        feed.finish(throwing: OddsError.authentication(.tickodds, "TickOdds rejected the API key."))
        clock.advance(by: 0.01)
        await ending.value
        #expect((inbox.error as? OddsError)?.exitCode == 3, "\(String(describing: inbox.error))")

        // A feed that never ends: the wait stops at its bound on the clock, not before, and not long after.
        let open = FeedStream(capacity: 8)
        let waiting = DashboardRunner.Inbox(feed: open, books: BookFilter([]), restamp: false)
        let started = clock.now
        let returned = Counter()
        let bounded = Task { await waiting.awaitEnd(timeout: 0.3, clock: clock); returned.add() }
        for _ in 0..<100 where returned.value == 0 {
            try await waitFor("the inbox asleep or returned", timeout: 10) { clock.sleeping > 0 || returned.value > 0 }
            if returned.value == 0 { clock.advance(by: 0.01) }
        }
        await bounded.value
        let waited = clock.now.timeIntervalSince(started)
        #expect(waiting.error == nil)
        #expect(waited >= 0.3 - 1e-9 && waited <= 0.32, "\(waited)")
        open.stop()
    }
}
