import ArgumentParser
import OddsCommandSupport
import OddsJSON
import OddsModel
import OddsOutput

/// `odds pulsescore …`: every PulseScore operation.
struct PulseScoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pulsescore",
        abstract: "PulseScore (Bet365 odds): live and pre-match events.",
        subcommands: [Live.self, Sports.self, Event.self, Leagues.self, Events.self, Stream.self])
}

extension PulseScoreCommand {
    struct Live: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "live",
            abstract: "Live events of a sport (GET /live-events?sport=).",
            discussion: "Example: odds pulsescore live --sport tennis")
        @OptionGroup var sportOption: SportOption
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await CommandHost.run(common, sport: sportOption.value) { rt in
                rt.printEvents(try await rt.pulseScore().liveEvents(sport: rt.sport))
            }
        }
    }

    struct Sports: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sports",
            abstract: "Sports with live events now (GET /live-events/sports; path inferred, see the README).")
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await CommandHost.run(common) { rt in rt.printSports(try await rt.pulseScore().liveSports()) }
        }
    }

    struct Event: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "event",
            abstract: "One event: live by id (GET /live-events/{id}), or pre-match by fixture id with --prematch.",
            discussion: "Examples: odds pulsescore event 98734521; odds pulsescore event 45921003 --prematch --sport tennis")
        @Argument(help: "Event id (live) or fixture id (pre-match).")
        var id: String
        @Flag(name: .long, help: "Fetch the pre-match event ([/{sport}]/events/{fi}).")
        var prematch = false
        @OptionGroup var sportOption: SportOption
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await CommandHost.run(common, sport: sportOption.value) { rt in
                let client = try rt.pulseScore()
                let event = prematch ? try await client.event(sport: rt.sport, fixtureID: id)
                    : try await client.liveEvent(id: id)
                rt.printEvent(event)
            }
        }
    }

    struct Leagues: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "leagues",
            abstract: "Pre-match leagues of a sport with their fixtures ([/{sport}]/leagues; soccer at the root).",
            discussion: "Example: odds pulsescore leagues --sport horse-racing")
        @OptionGroup var sportOption: SportOption
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await CommandHost.run(common, sport: sportOption.value) { rt in
                let leagues = try await rt.pulseScore().leagues(sport: rt.sport)
                let records: [[(String, JSONOutput)]] = leagues.map { l in
                    [("league", .string(l.name)), ("sport", .string(l.sport)), ("live", .bool(l.live)),
                     ("events", .array(l.events.map { e in
                         .object([("id", .string(e.id)), ("home", .string(e.home)), ("away", .optionalString(e.away))])
                     }))]
                }
                rt.io.out(RecordReporter.render(columns: [.init("LEAGUE"), .init("SPORT"), .init("LIVE"),
                                                          .init("FIXTURES", rightAligned: true)],
                                                records: records, format: rt.outputFormat, options: rt.renderOptions))
            }
        }
    }

    struct Events: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "events",
            abstract: "Pre-match events of one league ([/{sport}]/events?league=&tab=).",
            discussion: "Example: odds pulsescore events --league 'Premier League' --tab Popular")
        @Option(name: .long, help: "League name, as `odds pulsescore leagues` lists it.")
        var league: String
        @Option(name: .long, help: "Market tab filter, e.g. Popular.")
        var tab: String?
        @OptionGroup var sportOption: SportOption
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await CommandHost.run(common, sport: sportOption.value) { rt in
                rt.printEvents(try await rt.pulseScore().events(sport: rt.sport, league: league, tab: tab))
            }
        }
    }

    struct Stream: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stream",
            abstract: "The live WebSocket broadcast of a sport as NDJSON updates (needs a PRO or MAX plan).",
            discussion: "Close codes 4011 and 4012 reconnect with backoff; 4001, 4003, 4004, 4005, 4010 and 4029 stop with an exit code.")
        @OptionGroup var sportOption: SportOption
        @OptionGroup var stream: StreamOptions
        @OptionGroup var replay: ReplayOptions
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await CommandHost.run(common, sport: sportOption.value) { rt in
                try await rt.runStreamOrReplay(replay, provider: .pulsescore, sport: rt.sport, options: stream) {
                    try rt.pulseScore()
                }
            }
        }
    }
}

extension CommandContext {
    func pulseScore() throws -> PulseScoreClient { try client(.pulsescore, as: PulseScoreClient.self) }
}
