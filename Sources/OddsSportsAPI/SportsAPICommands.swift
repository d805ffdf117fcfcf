import ArgumentParser
import Foundation
import OddsCommandSupport
import OddsJSON
import OddsModel
import OddsOutput
import OddsStore
import OddsTransport

/// `odds sportsapi …`: SportsAPIPro v2, the match centre.
struct SportsAPICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sportsapi",
        abstract: "SportsAPIPro v2: scores, incidents, stats, odds.",
        discussion: """
            Everything comes over one WebSocket of channels (live-scores, match:ID, match:ID:incidents, :stats, :odds, \
            :lineups); one-shot commands subscribe, take the snapshots and close. --sport sets the x-sport header \
            (soccer is football; 25 sports, others are refused).
            """,
        subcommands: [Live.self, Match.self, Incidents.self, Stats.self, Lineups.self, MatchOdds.self, Stream.self])
}

/// A SportsAPIPro match id argument.
struct MatchIDArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The match id, as `odds sportsapi live` lists it.", valueName: "id"))
    var id: String
}

extension CommandContext {
    func sportsAPI() throws -> SportsAPIProClient { try client(.sportsapi, as: SportsAPIProClient.self) }

    func sportsAPIV1() throws -> SportsAPIProV1Client { try client(.sportsapiV1, as: SportsAPIProV1Client.self) }

    /// One match's channels from v2, with the user's books applied.
    func sportsAPIMatch(_ id: String, parts: [SportsAPIProChannel]) async throws -> Event {
        common.bookFilter.apply(try await sportsAPI().match(id: id, parts: parts))
    }
}

extension SportsAPICommand {
    struct Live: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "live",
            abstract: "Live matches with score, clock and status (the live-scores channel's snapshot).",
            discussion: "The same as odds live --provider sportsapi. Example: odds sportsapi live --sport basketball")
        @OptionGroup var sportOption: SportOption
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await CommandHost.run(common, provider: .sportsapi, sport: sportOption.value) { rt in
                rt.printEvents(try await rt.sportsAPI().liveEvents(sport: rt.sport))
            }
        }
    }

    struct Match: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "match",
            abstract: "One match in one view: score, status, incidents, statistics, lineups and odds (JSON: all of it).",
            discussion: "Example: odds sportsapi match 14109842 --json")
        @OptionGroup var match: MatchIDArgument
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await CommandHost.run(common, provider: .sportsapi) { rt in
                rt.printEvent(try await rt.sportsAPIMatch(match.id, parts: SportsAPIProChannel.all(match: match.id)))
            }
        }
    }

    struct Incidents: MatchPartCommand {
        static let configuration = CommandConfiguration(
            commandName: "incidents",
            abstract: "A match's incidents, oldest first: goals with scorer and assist, cards with reason, substitutions, VAR, periods.",
            discussion: "Example: odds sportsapi incidents 14109842")
        @OptionGroup var match: MatchIDArgument
        @OptionGroup var common: CommonOptions
        var matchID: String { match.id }
        static var provider: ProviderID { .sportsapi }

        static func fetch(_ id: String, _ rt: any CommandContext) async throws -> Event { try await rt.sportsAPIMatch(id, parts: [.incidents(id)]) }

        static func columns(_ e: Event) -> [Tabular.Column] {
            [.init("MIN", rightAligned: true), .init("KIND"), .init("TEAM"), .init("PLAYER", shrinkable: true),
             .init("ASSIST"), .init("OFF"), .init("REASON", shrinkable: true), .init("SCORE"), .init("DETAIL")]
        }

        static func records(_ e: Event, _ rt: any CommandContext) -> [[(String, JSONOutput)]] {
            e.incidents.map { i in
                [("minute", .optionalString(i.minuteLabel)), ("kind", .string(i.kind.rawValue)),
                 ("team", .optionalString(i.team.map { $0 == .home ? e.home : (e.away ?? "away") })),
                 ("player", .optionalString(i.player)), ("assist", .optionalString(i.assist)),
                 ("playerOut", .optionalString(i.playerOut)), ("reason", .optionalString(i.reason)),
                 ("score", .optionalString(i.score?.text)), ("detail", .optionalString(i.rescinded ? "\(i.detail ?? "Card") (rescinded)" : i.detail))]
            }
        }
    }

    struct Stats: MatchPartCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: "A match's statistics per team: possession, shots, corners, fouls and the rest, as sent.",
            discussion: "Example: odds sportsapi stats 14109842")
        @OptionGroup var match: MatchIDArgument
        @OptionGroup var common: CommonOptions
        var matchID: String { match.id }
        static var provider: ProviderID { .sportsapi }

        static func fetch(_ id: String, _ rt: any CommandContext) async throws -> Event { try await rt.sportsAPIMatch(id, parts: [.stats(id)]) }

        static func columns(_ e: Event) -> [Tabular.Column] {
            [.init("GROUP"), .init("STATISTIC", shrinkable: true), .init(e.home, rightAligned: true), .init(e.away ?? "AWAY", rightAligned: true)]
        }

        static func records(_ e: Event, _ rt: any CommandContext) -> [[(String, JSONOutput)]] {
            e.stats.map {
                [("group", .optionalString($0.group)), ("statistic", .string($0.name)), ("home", .string($0.home)), ("away", .string($0.away))]
            }
        }
    }

    struct Lineups: MatchPartCommand {
        static let configuration = CommandConfiguration(
            commandName: "lineups",
            abstract: "A match's lineups: formation, starters and substitutes of each team.",
            discussion: "Example: odds sportsapi lineups 14109842")
        @OptionGroup var match: MatchIDArgument
        @OptionGroup var common: CommonOptions
        var matchID: String { match.id }
        static var provider: ProviderID { .sportsapi }
        static var nothing: String? { "No lineups for this match yet." }

        static func fetch(_ id: String, _ rt: any CommandContext) async throws -> Event { try await rt.sportsAPIMatch(id, parts: [.lineups(id)]) }

        static func columns(_ e: Event) -> [Tabular.Column] {
            [.init("TEAM"), .init("FORMATION"), .init("ROLE"), .init("NO", rightAligned: true), .init("PLAYER", shrinkable: true), .init("POS")]
        }

        static func records(_ e: Event, _ rt: any CommandContext) -> [[(String, JSONOutput)]] {
            var records: [[(String, JSONOutput)]] = []
            for (team, side) in [(e.home, e.lineups?.home), (e.away ?? "away", e.lineups?.away)] {
                guard let side else { continue }
                for (role, list) in [("starter", side.starters), ("substitute", side.substitutes)] {
                    for p in list {
                        records.append([("team", .string(team)), ("formation", .optionalString(side.formation)), ("role", .string(role)),
                                        ("number", .optionalString(p.number)), ("player", .string(p.name)),
                                        ("position", .optionalString(p.position))])
                    }
                }
            }
            return records
        }
    }

    struct MatchOdds: MatchPartCommand {
        static let configuration = CommandConfiguration(
            commandName: "odds",
            abstract: "A match's live odds from every book SportsAPIPro carries, prices as sent (fractional or decimal).",
            discussion: "Example: odds sportsapi odds 14109842 --book bet365 --odds-format decimal")
        @OptionGroup var match: MatchIDArgument
        @OptionGroup var common: CommonOptions
        var matchID: String { match.id }
        static var provider: ProviderID { .sportsapi }

        static func fetch(_ id: String, _ rt: any CommandContext) async throws -> Event { try await rt.sportsAPIMatch(id, parts: [.odds(id)]) }

        static func json(_ e: Event, _ rt: any CommandContext) -> JSONOutput? {
            .object([("id", .string(e.id)), ("home", .string(e.home)), ("away", .optionalString(e.away)),
                     ("markets", .array(e.markets.map(EventJSON.market)))] + rt.renderOptions.jsonLabels)
        }

        static func columns(_ e: Event) -> [Tabular.Column] {
            [.init("BOOK"), .init("MARKET", shrinkable: true), .init("SELECTION"), .init("PRICE", rightAligned: true),
             .init("AS SENT", rightAligned: true)]
        }

        static func records(_ e: Event, _ rt: any CommandContext) -> [[(String, JSONOutput)]] {
            let format = rt.renderOptions.oddsFormat
            var records: [[(String, JSONOutput)]] = []
            for m in e.markets {
                for s in m.selections {
                    records.append([("book", .optionalString(m.book.map { rt.renderOptions.bookText($0) })), ("market", .string(m.name)),
                                    ("selection", .string(s.name)),
                                    ("price", .string(s.suspended ? "SUSP" : (s.price?.formatted(format) ?? "-"))),
                                    ("text", .optionalString(s.price?.text))])
                }
            }
            return records
        }
    }

    struct Stream: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stream",
            abstract: "Channels as NDJSON updates (default: live-scores); lines for a person on a terminal.",
            discussion: """
                --channel is repeatable: live-scores, live-scores:SPORT, match:ID, match:ID:incidents, match:ID:stats, \
                match:ID:odds, match:ID:lineups. Example: odds sportsapi stream --channel match:14109842 --channel match:14109842:incidents
                """)
        @Option(name: .long, help: ArgumentHelp("A channel to subscribe to (repeatable).", valueName: "channel"))
        var channel: [String] = []
        @OptionGroup var sportOption: SportOption
        @OptionGroup var stream: StreamOptions
        @OptionGroup var replay: ReplayOptions
        @OptionGroup var common: CommonOptions

        func validate() throws {
            for c in channel where SportsAPIProChannel(c) == nil {
                throw ValidationError("'\(c)' is not a SportsAPIPro v2 channel (live-scores, live-scores:SPORT, match:ID, match:ID:incidents, :stats, :odds, :lineups).")
            }
        }

        func run() async throws {
            try await CommandHost.run(common, provider: .sportsapi, sport: sportOption.value) { rt in
                let human = rt.io.stdoutIsTTY && rt.common.requestedFormat == nil
                if let path = replay.replay {
                    let (feed, stats, _) = try rt.openReplay(path, providerFlag: .sportsapi, speed: replay.replaySpeed)
                    try await rt.runStream(feed, stats: stats, options: stream, human: human, replayed: true)
                    return
                }
                let channels = channel.isEmpty ? [SportsAPIProChannel.liveScores(sport: nil)] : channel.compactMap(SportsAPIProChannel.init)
                let stats = FeedStats()
                let feed = FeedRunner.run(try rt.sportsAPI().feed(sport: sportOption.value, channels: channels),
                                          transport: rt.transport, stats: stats)
                try await rt.runStream(feed, stats: stats, options: stream, human: human, replayed: false)
            }
        }
    }
}

/// `odds sportsapi-v1 …`: SportsAPIPro v1's scores WebSocket.
struct SportsAPIV1Command: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sportsapi-v1",
        abstract: "SportsAPIPro v1: live scores of nine sports.",
        subcommands: [Live.self, Stream.self])
}

extension SportsAPIV1Command {
    struct Live: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "live",
            abstract: "Live games with score and status (the first scores message of the sport's channel, or live).",
            discussion: "The same as odds live --provider sportsapi-v1. Example: odds sportsapi-v1 live --sport tennis")
        @OptionGroup var sportOption: SportOption
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await CommandHost.run(common, provider: .sportsapiV1, sport: sportOption.value) { rt in
                rt.printEvents(try await rt.sportsAPIV1().liveEvents(sport: rt.sport))
            }
        }
    }

    struct Stream: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stream",
            abstract: "Channels as NDJSON updates (default: live); stale updates (an updateId not above the last) are dropped.",
            discussion: """
                --channel is repeatable: all, live, a sport (football, basketball, tennis, hockey, handball, \
                american-football, baseball, volleyball, rugby) or match:ID. --sport picks the host. \
                Example: odds sportsapi-v1 stream --sport tennis --channel tennis
                """)
        @Option(name: .long, help: ArgumentHelp("A channel to subscribe to (repeatable).", valueName: "channel"))
        var channel: [String] = []
        @OptionGroup var sportOption: SportOption
        @OptionGroup var stream: StreamOptions
        @OptionGroup var replay: ReplayOptions
        @OptionGroup var common: CommonOptions

        func validate() throws {
            for c in channel {
                let ok = c == "all" || c == "live" || SportsAPIProSports.v1.contains(c) || (c.hasPrefix("match:") && c.count > 6)
                if !ok { throw ValidationError("'\(c)' is not a SportsAPIPro v1 channel (all, live, a sport, match:ID).") }
            }
        }

        func run() async throws {
            try await CommandHost.run(common, provider: .sportsapiV1, sport: sportOption.value) { rt in
                let human = rt.io.stdoutIsTTY && rt.common.requestedFormat == nil
                if let path = replay.replay {
                    let (feed, stats, _) = try rt.openReplay(path, providerFlag: .sportsapiV1, speed: replay.replaySpeed)
                    try await rt.runStream(feed, stats: stats, options: stream, human: human, replayed: true)
                    return
                }
                let stats = FeedStats()
                let feed = FeedRunner.run(try rt.sportsAPIV1().feed(sport: sportOption.value, channels: channel.isEmpty ? ["live"] : channel),
                                          transport: rt.transport, stats: stats)
                try await rt.runStream(feed, stats: stats, options: stream, human: human, replayed: false)
            }
        }
    }
}
