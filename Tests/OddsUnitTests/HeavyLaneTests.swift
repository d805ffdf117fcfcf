import Foundation
import OddsTestSupport
import Testing

@Suite("Where tests run")
struct HeavyLaneTests {
    @Test("A test marked .heavyLane runs on one of the lane's own threads", .heavyLane)
    func onTheLane() {
        #expect(HeavyLane.isCurrent, "\(Thread.current)")
    }

    @Test("Any other test runs on the concurrency pool")
    func onThePool() {
        #expect(!HeavyLane.isCurrent)
    }

    @Test("A child process's run time is its own: taken when it exits, not when the test looks")
    func childRunTime() async throws {
        let child = try Subprocess("/bin/sh", ["-c", "sleep 0.2"])
        try await Task.sleep(nanoseconds: 4_000_000_000)
        #expect(child.poll() == 0)
        let seconds = try #require(child.runTime)
        // Well under the 4 s before the test looked, whatever the load on the machine.
        #expect(seconds >= 0.2 && seconds < 3, "\(seconds)")
    }
}
