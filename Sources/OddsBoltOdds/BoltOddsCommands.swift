import ArgumentParser
import OddsCommandSupport
import OddsJSON
import OddsModel
import OddsOutput
import OddsTransport

/// `odds boltodds …`: every BoltOdds operation.
struct BoltOddsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "boltodds",
        abstract: "BoltOdds: many books; odds, play-by-play, scores.",
        discussion: """
            BoltOdds names competitions ("NBA", "EPL", "Wimbledon (M)") where other providers name sports: --sport takes \
            either, in any case (soccer means every soccer competition BoltOdds lists), and --book a sportsbook as \
            `odds boltodds info` lists it. Unknown values are refused before connecting, with the close matches.
            """,
        subcommands: [Live.self, Info.self, Games.self, Markets.self, Parlays.self, Esports.self, Stream.self, PlayByPlay.self,
                      Scores.self, BoxScore.self, Stats.self, MatchInfo.self])
}

/// Repeatable filters of the BoltOdds odds stream.
struct BoltOddsFilterOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("A sport or competition (repeatable): soccer, NBA, \"Wimbledon (M)\".", valueName: "sport"))
    var sport: [String] = []
    @Option(name: .long, help: ArgumentHelp("A game: its label as `odds boltodds games` lists it, or the short id tables show (repeatable).", valueName: "game"))
    var game: [String] = []
    @Option(name: .long, help: ArgumentHelp("A market name as `odds boltodds markets` lists it (repeatable).", valueName: "market"))
    var market: [String] = []
}

extension BoltOddsCommand {
    struct Live: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "live",
            abstract: "Live games with the best price per selection across books (the odds stream's initial state, with live scores).",
            discussion: "The same as odds live --provider boltodds. Example: odds boltodds live --sport NBA --book draftkings --book fanduel")
        @OptionGroup var sportOption: SportOption
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await CommandHost.run(common, provider: .boltodds, sport: sportOption.value) { rt in
                let client = try rt.boltOdds()
                try await client.prepare(sport: rt.sport, books: rt.common.book)
                rt.printEvents(try await client.liveEvents(sport: rt.sport))
            }
        }
    }

    struct Info: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "info",
            abstract: "Competitions (BoltOdds' \"sports\") and sportsbooks, spelled as filters need them (GET /get_info).")
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await CommandHost.run(common) { rt in
                let info = try await rt.boltOdds().info()
                if rt.outputFormat == .json {
                    rt.io.out(JSONOutput.object([
                        ("sports", .array(info.sports.map { .object([("name", .string($0)), ("sport", .string(BoltOddsLeagues.sport($0)))]) })),
                        ("sportsbooks", .array(info.books.map { .string($0) })),
                    ]).rendered + "\n")
                    return
                }
                let records: [[(String, JSONOutput)]] = info.sports.map {
                    [("kind", .string("competition")), ("name", .string($0)), ("sport", .string(BoltOddsLeagues.sport($0)))]
                } + info.books.map { [("kind", .string("sportsbook")), ("name", .string($0)), ("sport", .null)] }
                rt.io.out(RecordReporter.render(columns: [.init("KIND"), .init("NAME"), .init("SPORT")], records: records,
                                                format: rt.outputFormat, options: rt.renderOptions))
            }
        }
    }

    struct Games: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "games",
            abstract: "Every supported game with its label, the spelling --game and the other feeds need (GET /get_games).",
            discussion: "Example: odds boltodds games --sport NBA")
        @Option(name: .long, help: "Only games of this sport or competition (any case).")
        var sport: String?
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await CommandHost.run(common) { rt in
                var games = try await rt.boltOdds().games()
                if let sport {
                    let typed = sport.lowercased()
                    games = games.filter { g in
                        guard let league = g.league else { return false }
                        return league.lowercased() == typed || BoltOddsLeagues.sport(league) == sportSlug(typed)
                    }
                }
                let records: [[(String, JSONOutput)]] = games.map { g in
                    [("id", .string(Event.shortID(for: g.label))), ("game", .string(g.label)), ("competition", .optionalString(g.league)),
                     ("sport", .string(g.league.map(BoltOddsLeagues.sport) ?? "unknown")), ("when", .optionalString(g.when)),
                     ("universalId", .optionalString(g.universalID))]
                }
                rt.io.out(RecordReporter.render(columns: [.init("ID"), .init("GAME"), .init("COMPETITION"), .init("SPORT"), .init("WHEN"), .init("UNIVERSAL ID")],
                                                records: records, format: rt.outputFormat, options: rt.renderOptions))
            }
        }
    }

    struct Markets: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "markets",
            abstract: "Markets by sportsbook and competition (GET /get_markets?sportsbooks=&sports=).",
            discussion: "Example: odds boltodds markets --sport NBA --book draftkings")
        @Option(name: .long, help: "Only this sport or competition.")
        var sport: String?
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await CommandHost.run(common) { rt in
                let client = try rt.boltOdds()
                let filters = try await client.resolve(sport: sport, books: rt.common.book)
                let markets = try await client.markets(books: filters.sportsbooks ?? [], leagues: filters.sports ?? [])
                let records: [[(String, JSONOutput)]] = markets.flatMap { m in
                    m.markets.map { [("book", .string(m.book)), ("competition", .string(m.league)), ("market", .string($0))] }
                }
                rt.io.out(RecordReporter.render(columns: [.init("BOOK"), .init("COMPETITION"), .init("MARKET")],
                                                records: records, format: rt.outputFormat, options: rt.renderOptions))
            }
        }
    }

    struct Stream: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stream",
            abstract: "The odds stream (with play-by-play and live scores of its games) as NDJSON updates.",
            discussion: """
                Filters are sent as one subscribe message; left out, a filter means all. Example: \
                odds boltodds stream --sport NBA --book draftkings --market Moneyline
                """)
        @OptionGroup var filters: BoltOddsFilterOptions
        @OptionGroup var stream: StreamOptions
        @OptionGroup var replay: ReplayOptions
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await CommandHost.run(common) { rt in
                try await rt.runStreamOrReplay(replay, provider: .boltodds, sport: nil, options: stream) {
                    let client = try rt.boltOdds()
                    let resolved = try await client.resolve(sports: filters.sport, books: rt.common.book, games: filters.game,
                                                            markets: filters.market)
                    client.use(resolved)
                    return client
                }
            }
        }
    }

    struct PlayByPlay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pbp",
            abstract: "Play-by-play of live games (the play-by-play WebSocket) as NDJSON: score, clock, period and plays.",
            discussion: "Example: odds boltodds pbp --game 'Houston Rockets vs Los Angeles Clippers, 2025-12-11, 08'")
        @Option(name: .long, help: ArgumentHelp("A game: its label as `odds boltodds games` lists it, or the short id tables show (repeatable).", valueName: "game"))
        var game: [String]
        @OptionGroup var stream: StreamOptions
        @OptionGroup var common: CommonOptions

        func validate() throws {
            if game.isEmpty { throw ValidationError("Name at least one game with --game (see odds boltodds games).") }
        }

        func run() async throws {
            try await CommandHost.run(common) { rt in
                let client = try rt.boltOdds()
                let stats = FeedStats()
                let games = try await client.gameLabels(game)
                let feed = FeedRunner.run(client.feedConnections(filters: BoltOddsFilters(), pbpGames: games, scores: false).filter { $0.connectionName == "pbp" },
                                          transport: rt.transport, stats: stats)
                // Lines for a person on a terminal; NDJSON when piped or asked for.
                try await rt.runStream(feed, stats: stats, options: stream, human: rt.io.stdoutIsTTY && rt.common.requestedFormat == nil, replayed: false)
            }
        }
    }

    struct Scores: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "scores",
            abstract: "Live scores (the live-scores WebSocket) as NDJSON: score, period and status of each game.",
            discussion: "Without --game, the games of the odds stream's current state are followed. Example: odds boltodds scores --game '…'")
        @Option(name: .long, help: ArgumentHelp("A game: its label as `odds boltodds games` lists it, or the short id tables show (repeatable).", valueName: "game"))
        var game: [String] = []
        @OptionGroup var stream: StreamOptions
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await CommandHost.run(common) { rt in
                let client = try rt.boltOdds()
                let stats = FeedStats()
                let games = try await client.gameLabels(game)
                var adapters = client.feedConnections(filters: BoltOddsFilters(), pbpGames: games.isEmpty ? nil : games, pbp: false)
                // Named games need no odds stream to learn them from.
                if !game.isEmpty { adapters = adapters.filter { $0.connectionName == "scores" } }
                let feed = FeedRunner.run(adapters, transport: rt.transport, stats: stats)
                try await rt.runStream(feed, stats: stats, options: stream, human: rt.io.stdoutIsTTY && rt.common.requestedFormat == nil, replayed: false)
            }
        }
    }
}


extension BoltOddsCommand {
    struct Parlays: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "parlays",
            abstract: "The parlays one sportsbook offers (GET /get_parlays?sportsbooks=).",
            discussion: "Example: odds boltodds parlays --book draftkings")
        @OptionGroup var common: CommonOptions

        func validate() throws {
            if common.book.count != 1 { throw ValidationError("Name exactly one sportsbook with --book.") }
        }

        func run() async throws {
            try await CommandHost.run(common) { rt in
                let client = try rt.boltOdds()
                let book = try await client.resolve(sport: nil, books: rt.common.book).sportsbooks?.first ?? rt.common.book[0]
                let value = try await client.parlays(book: book)
                if rt.outputFormat == .json { rt.printDocument(value); return }
                let records: [[(String, JSONOutput)]] = (value.array ?? []).map { p in
                    let legs = p["legs"].map { legs -> [String] in
                        guard case .object(let members) = legs else { return [] }
                        return members.members.map(\.key)
                    } ?? []
                    return [("odds", .optionalString(p["odds"]?.text)), ("type", .optionalString(p["type"]?.text)),
                            ("totalBets", .optionalString(p["total_bets"]?.text)), ("legs", .string(legs.joined(separator: " + ")))]
                }
                rt.io.out(RecordReporter.render(columns: [.init("ODDS", rightAligned: true), .init("TYPE"),
                                                          .init("BETS", rightAligned: true), .init("LEGS", shrinkable: true)],
                                                records: records, format: rt.outputFormat, options: rt.renderOptions))
            }
        }
    }

    struct Esports: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "esports", abstract: "Esports games with play-by-play (GET /playbyplay/esports).")
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await CommandHost.run(common) { rt in
                rt.printDocument(try await rt.boltOdds().esports())
            }
        }
    }

    struct BoxScore: GameDocumentCommand {
        static let configuration = CommandConfiguration(
            commandName: "boxscore",
            abstract: "Team and player box scores of live or finished games (POST /boxscores).",
            discussion: "Example: odds boltodds boxscore 'Tampa Bay Buccaneers vs Atlanta Falcons, 2025-12-11, 08'")
        @OptionGroup var games: GameArguments
        @OptionGroup var common: CommonOptions
        static var endpoint: BoltOddsClient.ScoresEndpoint { .boxScores }
    }

    struct Stats: GameDocumentCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: "Detailed match statistics (POST /match_stats).",
            discussion: "Example: odds boltodds stats 'Jessica Bouzas Maneiro vs Magdalena Frech, 2026-02-26, 03'")
        @OptionGroup var games: GameArguments
        @OptionGroup var common: CommonOptions
        static var endpoint: BoltOddsClient.ScoresEndpoint { .matchStats }
    }

    struct MatchInfo: GameDocumentCommand {
        static let configuration = CommandConfiguration(
            commandName: "match-info",
            abstract: "Participants, score, match and clock status (POST /match_info).")
        @OptionGroup var games: GameArguments
        @OptionGroup var common: CommonOptions
        static var endpoint: BoltOddsClient.ScoresEndpoint { .matchInfo }
    }
}

/// The games a one-document command asks about.
struct GameArguments: ParsableArguments {
    @Argument(help: "Games: labels as `odds boltodds games` lists them, or the short ids tables show.")
    var labels: [String]
}

/// One BoltOdds document about some games, fetched and printed as sent: the shape of `boxscore`, `stats` and
/// `match-info`. A command names its endpoint; the games, the host and the output are this shape's.
protocol GameDocumentCommand: AsyncParsableCommand {
    var games: GameArguments { get }
    var common: CommonOptions { get }
    static var endpoint: BoltOddsClient.ScoresEndpoint { get }
}

extension GameDocumentCommand {
    func run() async throws {
        let typed = games.labels
        try await CommandHost.run(common) { rt in
            let client = try rt.boltOdds()
            rt.printDocument(try await client.scores(Self.endpoint, games: try await client.gameLabels(typed)))
        }
    }
}

extension CommandContext {
    /// The BoltOdds client; what it lists is kept for shell completion.
    func boltOdds() throws -> BoltOddsClient {
        let bolt = try client(.boltodds, as: BoltOddsClient.self)
        cacheNames(bolt)
        return bolt
    }
}
