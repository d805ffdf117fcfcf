import ArgumentParser
import OddsCommandSupport
import OddsJSON
import OddsModel
import OddsOutput

/// `odds tickodds …`: every TickOdds operation.
struct TickOddsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tickodds",
        abstract: "TickOdds: scores, clock, incidents and odds.",
        subcommands: [Live.self, Event.self, Sports.self, Status.self, Stream.self])
}

extension TickOddsCommand {
    struct Live: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "live",
            abstract: "Live events (GET /api/v1/live/events), filtered to --sport when given.")
        @Option(name: .long, help: "Only this sport (default: every sport).")
        var sport: String?
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await CommandHost.run(common) { rt in
                rt.printEvents(try await rt.tickOdds().liveEvents(sport: sport.map(sportSlug)))
            }
        }
    }

    struct Event: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "event", abstract: "One live event with full odds (GET /api/v1/live/events/{fixtureId}).")
        @Argument(help: "The fixture id.")
        var id: String
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await CommandHost.run(common) { rt in rt.printEvent(try await rt.tickOdds().liveEvent(id: id)) }
        }
    }

    struct Sports: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "sports", abstract: "Sports with live events (GET /api/v1/live/sports).")
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await CommandHost.run(common) { rt in rt.printSports(try await rt.tickOdds().liveSports()) }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Health of the TickOdds live scraper (GET /api/v1/live/status).")
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await CommandHost.run(common) { rt in
                let pairs = try await rt.tickOdds().status()
                if rt.outputFormat == .json {
                    rt.io.out(JSONOutput.object(pairs.map { ($0.0, .string($0.1)) }).rendered + "\n")
                } else {
                    let records: [[(String, JSONOutput)]] = pairs.map { [("key", .string($0.0)), ("value", .string($0.1))] }
                    rt.io.out(RecordReporter.render(columns: [.init("KEY"), .init("VALUE")], records: records,
                                                    format: rt.outputFormat, options: rt.renderOptions))
                }
            }
        }
    }

    struct Stream: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stream",
            abstract: "The live WebSocket as NDJSON updates: snapshot, match_start, update, match_end, heartbeat.",
            discussion: "A connection with no message for twice the heartbeat interval (15 s) is treated as dead and reconnected.")
        @Option(name: .long, help: "Subscribe to this sport only (default: all).")
        var sport: String?
        @OptionGroup var stream: StreamOptions
        @OptionGroup var replay: ReplayOptions
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await CommandHost.run(common) { rt in
                try await rt.runStreamOrReplay(replay, provider: .tickodds, sport: sport.map(sportSlug), options: stream) {
                    try rt.tickOdds()
                }
            }
        }
    }
}

extension CommandContext {
    func tickOdds() throws -> TickOddsClient { try client(.tickodds, as: TickOddsClient.self) }
}
