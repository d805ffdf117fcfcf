import ArgumentParser
import OddsCommandSupport

/// `odds help [TOPIC | COMMAND…]`: a reference topic (output, config, exit-codes, providers) as
/// plain text, or a command's help, as `odds COMMAND --help` shows it.
struct Help: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "help",
        abstract: "A reference topic or a command's help.",
        // The parser reads every command's configuration at each start, and the topics' text asks every
        // provider (a cost to every start, `odds --version` too): made only when a help text may show it.
        discussion: Docs.mayShowHelp(CommandLine.arguments) ? Docs.allTopics : "")

    @Argument(help: ArgumentHelp("A topic or a command (with its subcommands: odds help boltodds games).", valueName: "topic-or-command"))
    var words: [String] = []

    func run() throws {
        print(try Help.text(for: words), terminator: "")
    }

    /// The subcommand a path of names leads to, from `commands`.
    static func subcommand(_ path: ArraySlice<String>, of commands: [ParsableCommand.Type]) throws -> ParsableCommand.Type {
        let word = path.first!
        guard let found = commands.first(where: { $0._commandName == word }) else {
            let names = Docs.topics.map(\.name) + commands.map { $0._commandName }
            throw ValidationError("No help topic or command '\(word)'. Try one of: \(names.joined(separator: ", ")).")
        }
        let rest = path.dropFirst()
        return rest.isEmpty ? found : try subcommand(rest, of: found.configuration.subcommands)
    }

    /// The text `odds help words…` prints.
    static func text(for words: [String]) throws -> String {
        guard let first = words.first else { return OddsCommand.helpMessage() + "\n" }
        if words.count == 1, let topic = Docs.topics.first(where: { $0.name == first.lowercased() }) {
            return "\(topic.name.uppercased()): \(topic.abstract)\n\n" + Docs.wrapped(topic.text) + "\n"
        }
        let command = try subcommand(words[...], of: OddsCommand.configuration.subcommands)
        return OddsCommand.helpMessage(for: command) + "\n"
    }
}
