import Foundation
@testable import OddsCLI
import OddsModel
import OddsTransport
import Testing

@Suite("The dashboard's feed inbox")
struct DashInboxTests {
    @Test("Closing after the feed said it stopped still takes the feed's error, which comes just after; a feed that never ends is not waited for past the bound")
    func endAwaited() async throws {
        let feed = FeedStream(capacity: 8)
        let inbox = DashboardRunner.Inbox(feed: feed, books: BookFilter([]), restamp: false)
        _ = inbox.drain()
        #expect(inbox.error == nil)
        // From a thread of its own: the pool's threads may be busy with other tests for longer than the wait.
        Thread {
            usleep(200_000)
            feed.finish(throwing: OddsError.authentication(.tickodds, "TickOdds rejected the API key."))
        }.start()
        await inbox.awaitEnd(timeout: 10)
        #expect((inbox.error as? OddsError)?.exitCode == 3, "\(String(describing: inbox.error))")

        let open = FeedStream(capacity: 8)
        let waiting = DashboardRunner.Inbox(feed: open, books: BookFilter([]), restamp: false)
        let started = Date()
        await waiting.awaitEnd(timeout: 0.3)
        #expect(waiting.error == nil)
        #expect(Date().timeIntervalSince(started) >= 0.3)
        open.stop()
    }
}
