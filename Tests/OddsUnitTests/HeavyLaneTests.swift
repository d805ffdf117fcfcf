import Foundation
import OddsTestSupport
import Testing

@Suite("Where tests run", .unitLane)
struct HeavyLaneTests {
    @Test("A test marked .heavyLane runs on one of the lane's own threads", .heavyLane)
    func onTheLane() {
        #expect(HeavyLane.isCurrent, "\(Thread.current)")
    }

    @Test("Any other unit test runs on the unit lane, a thread of its own, not on the concurrency pool")
    func onTheUnitLane() async {
        #expect(HeavyLane.unit.isCurrent && !HeavyLane.shared.isCurrent, "\(Thread.current)")
        // A child task inherits the lane; a detached task does not.
        async let child = HeavyLane.unit.isCurrent
        #expect(await child)
        #expect(await !Task.detached { HeavyLane.unit.isCurrent || HeavyLane.shared.isCurrent }.value)
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
