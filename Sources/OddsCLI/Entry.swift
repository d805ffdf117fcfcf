import ArgumentParser
import CAllocator
import Foundation
import OddsModel
import OddsCommandSupport
import OddsOutput
import OddsTransport

/// The process entry: parses, runs, and turns every failure into one sentence and an exit code.
public enum OddsMain {
    /// Sets the allocator up (`Allocator`); called first, on the main thread, before any other
    /// thread has allocated (a thread's first allocation picks its arena).
    public static func prepare() {
        Allocator.tune(environment: ProcessEnvironment.current())
        // A replay's frames are found while the command line is parsed (`RecordingScout`).
        RecordingScout.startEarly(arguments: CommandLine.arguments)
        if Allocator.isReplay(CommandLine.arguments) { LocalZone.warmUp() }
    }

    public static func main() async -> Never {
        CommandHost.install()
        do {
            let command = try OddsCommand.parseAsRoot(HistoryOptions.normalize(Array(CommandLine.arguments.dropFirst())))
            // The command runs as a task that a signal can cancel in any state (Interrupts).
            let task = Task {
                var command = command
                if var asyncCommand = command as? AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    try command.run()
                }
            }
            Interrupts.shared.install { task.cancel() }
            do {
                try await task.value
            } catch where Interrupts.shared.exitCode == nil {
                throw error
            } catch {
                // A one-shot query cut short by a signal: whatever the cancelled work threw is the interruption.
            }
            // Output is written (stdio flushed here; the rest is written unbuffered) and the terminal
            // restored by the command itself: `_exit` spares the process the C and C++ exit handlers of
            // the runtime it links, a noticeable part of a one-shot query's time.
            fflush(nil)
            _exit(Interrupts.shared.exitCode ?? 0)
        } catch let error as OddsError {
            // The one sentence may quote a provider (a name it does not know): made safe like every stderr line.
            FileHandle.standardError.write(Data(("odds: " + TerminalText.safe(Secrets.shared.redact(error.message)) + "\n").utf8))
            exit(error.exitCode)
        } catch {
            OddsCommand.exit(withError: error)
        }
    }
}

/// The user's time zone, looked up ahead on a thread of its own. A table shows kick-off times in it,
/// and the first `TimeZone.current` loads ICU's zone data from the binary: after the machine sat idle,
/// pages read from disk again, a wait that fell at the very end of a replay (after its last frame,
/// before its table). Looked up at the start by `odds live` and `odds dash`, and for any replay before its
/// command line is parsed (only the words are known then), that wait overlaps the parse and the decoding,
/// or a query's wait for the network. Not by `odds stream` or `odds record`, which show no time. Once a process.
enum LocalZone {
    static func warmUp() { _ = started }

    private static let started: Void = Thread.detachNewThread { _ = TimeZone.current }
}

/// Values a one-shot command holds until the process exits: the exit gives their pages back at once,
/// where freeing them would release every event, market and selection one by one.
enum ProcessLifetime {
    nonisolated(unsafe) private static var parked: [Any] = []
    private static let lock = NSLock()

    static func park(_ value: Any) {
        lock.lock(); defer { lock.unlock() }
        parked.append(value)
    }
}

/// glibc's allocator as this program's allocation pattern wants it.
///
/// By default a thread other than the main one allocates from an arena of its own that grows one page
/// (one `mprotect` call) at a time: a call per page to build a large BoltOdds state. And every buffer
/// over 128 KiB is mapped anew and unmapped when freed, so each multi-MB frame of a recording or a
/// socket faults its pages in again. One arena that grows 4 MiB at a time, and buffers up to 32 MiB
/// kept in it for the next frame, make `odds live --replay` of that state faster.
///
/// A replay reads a large frame in two halves at once, and two threads on one arena wait on its lock:
/// with `--replay` on the command line, each thread gets an arena of its own, made 60 MiB large at
/// once (address space; a page counts as memory only once used). Not for the live feeds, where one
/// arena keeps the peak of a large frame lower. The choice is made before
/// the command line is parsed, when no other thread has allocated yet (a thread's first allocation
/// picks its arena, and glibc fixes the number of arenas then), so it looks at the words alone.
/// A user's own `MALLOC_*` or `GLIBC_TUNABLES` setting wins: nothing is changed then.
enum Allocator {
    static func tune(environment: [String: String], arguments: [String] = CommandLine.arguments) {
        guard applies(environment: environment) else { return }
        odds_tune_allocator(isReplay(arguments))
    }

    /// False when the user set the allocator up themselves.
    static func applies(environment: [String: String]) -> Bool {
        !environment.keys.contains { $0.hasPrefix("MALLOC_") || $0 == "GLIBC_TUNABLES" }
    }

    /// Whether the command line asks for a replay (`--replay FILE` or `--replay=FILE`).
    static func isReplay(_ arguments: [String]) -> Bool {
        arguments.dropFirst().contains { $0 == "--replay" || $0.hasPrefix("--replay=") }
    }
}
