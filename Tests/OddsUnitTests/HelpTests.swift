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

/// Help that fits on a screen (issue 18).
@Suite("Help", .unitLane)
struct HelpTests {
    @Test("odds --help is under 40 lines; the reference lives in odds help TOPIC")
    func rootHelpIsShort() throws {
        let root = OddsCommand.helpMessage(columns: 80)
        #expect(root.split(separator: "\n", omittingEmptySubsequences: false).count < 40, "\(root)")
        #expect(root.contains("EXAMPLES") && root.contains("odds help TOPIC"))
        #expect(!root.contains("JSON EVENT") && !root.contains("CONFIGURATION:"))
        for (topic, needle) in [("output", "JSON EVENT"), ("config", "CONFIGURATION"), ("exit-codes", "130"), ("providers", "inferred")] {
            let text = try Help.text(for: [topic])
            #expect(text.contains(needle), "\(topic)")
            #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 || !$0.contains(" ") }, "\(topic) is wrapped")
        }
        // The root help names the topics from a list of its own (so that a start does not build them): the same.
        #expect(Docs.topicNames == Docs.topics.map(\.name))
        #expect(try Help.text(for: ["boltodds", "games"]).contains("get_games"))
        #expect(throws: (any Error).self) { try Help.text(for: ["nope"]) }
        // The man page carries the topics (generated from the help command's discussion). The parser reads
        // every command's configuration at each start, so the discussion is made only for a command line
        // that may show a help text (`odds help --help` is checked on the binary, CLITests).
        #expect(Docs.allTopics.contains("EXIT CODES") && Docs.allTopics.contains("STREAM LINES"))
        for words in [["help"], ["help", "--help"], ["live", "-h"], ["--help"], ["--experimental-dump-help"]] {
            #expect(Docs.mayShowHelp(["odds"] + words), "\(words)")
        }
        for words in [["live", "--sport", "soccer"], ["--version"], [], ["stream", "--replay", "r.ndjson", "--speed", "max"]] {
            #expect(!Docs.mayShowHelp(["odds"] + words), "\(words)")
        }
        // The program's name is not a word of the command line.
        #expect(!Docs.mayShowHelp(["help"]))
    }
}
