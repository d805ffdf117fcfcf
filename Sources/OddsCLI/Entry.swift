import ArgumentParser
import Foundation
import OddsModel
import OddsOutput

/// The process entry: parses, runs, and turns every failure into one sentence and an exit code.
public enum OddsMain {
    public static func main() async -> Never {
        do {
            var command = try OddsCommand.parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            exit(0)
        } catch let error as OddsError {
            // The one sentence may quote a provider (a name it does not know): made safe like every stderr line.
            FileHandle.standardError.write(Data(("odds: " + TerminalText.safe(Secrets.shared.redact(error.message)) + "\n").utf8))
            exit(error.exitCode)
        } catch {
            OddsCommand.exit(withError: error)
        }
    }
}
