import ArgumentParser
import Foundation
import OddsModel
import OddsCommandSupport
import OddsOutput

/// The process entry: parses, runs, and turns every failure into one sentence and an exit code.
public enum OddsMain {
    public static func main() async -> Never {
        CommandHost.install()
        do {
            let command = try OddsCommand.parseAsRoot()
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
            exit(Interrupts.shared.exitCode ?? 0)
        } catch let error as OddsError {
            // The one sentence may quote a provider (a name it does not know): made safe like every stderr line.
            FileHandle.standardError.write(Data(("odds: " + TerminalText.safe(Secrets.shared.redact(error.message)) + "\n").utf8))
            exit(error.exitCode)
        } catch {
            OddsCommand.exit(withError: error)
        }
    }
}
