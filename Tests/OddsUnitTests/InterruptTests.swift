import Foundation
@testable import OddsCLI
import OddsTestSupport
import Testing

/// The process's signal watch, on an instance of its own (SIGUSR2, and the deadline's exit recorded, not done).
@Suite("Signals", .unitLane)
struct InterruptTests {
    @Test("A signal sent the moment the watch starts, before its source is registered, is handled, not lost")
    func beforeRegistration() {
        let ended = Eventually<Int32>(), handled = Eventually<Bool>()
        let interrupts = Interrupts(signals: [SIGUSR2], end: { ended.set($0) })
        _ = interrupts.beginScope { handled.set(true) }
        // At once: libdispatch registers the source a moment later, on a thread of its own.
        kill(getpid(), SIGUSR2)
        #expect(handled.wait(seconds: 5) == true)
        // The scope handled it: the deadline ends the process with 0, as a stream does.
        #expect(ended.wait(seconds: 5) == 0)
    }
}
