import ArgumentParser
import OddsCommandSupport
import Foundation
import OddsFusion
import OddsModel
import OddsProviders
import OddsStore
import OddsTransport

/// `odds`: live sports odds and scores in the terminal.
public struct OddsCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "odds",
        abstract: "Live sports odds, scores and incidents in the terminal.",
        discussion: Docs.root,
        version: BuildInfo.line,
        // Each provider's own command group comes from its descriptor, in the registry's order.
        subcommands: [Live.self, Sports.self, EventCommand.self, Stream.self, Dash.self, Value.self, Arb.self, Alert.self, Record.self]
            + ProviderRegistry.descriptors.compactMap { ($0.commands as? ProviderCommandGroup)?.command }
            + [Watch.self, HistoryCommand.self, BetsCommand.self, ConfigCommand.self, Sim.self, Help.self],
        defaultSubcommand: nil
    )

    public init() {}
}

extension OddsCommand {
    /// `odds live`: live events of a sport with their main market.
    struct Live: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "live",
            abstract: "Live events with score, clock and main-market prices.",
            discussion: "Example: odds live --sport soccer --provider tickodds --odds-format american")

        @OptionGroup var providerOption: ProviderOption
        @OptionGroup var sportOption: SportOption
        @OptionGroup var replay: ReplayOptions
        @OptionGroup var common: CommonOptions

        @Flag(name: .long, help: "With several providers: each row's sources, their own names and ids and why they were joined, and the near misses that were not.")
        var explain = false

        func validate() throws {
            if case .several = providerOption.choice, replay.replay != nil {
                throw ValidationError("--replay shows the recording's own provider; drop --provider all (or the list).")
            }
            if explain, providerOption.choice.map({ if case .several = $0 { return false } else { return true } }) ?? true {
                throw ValidationError("--explain needs several providers: --provider all, or a list.")
            }
        }

        func run() async throws {
            // Its table shows kick-off times in the user's zone: looked up while the query runs.
            LocalZone.warmUp()
            if case .several(let ids, let all) = providerOption.choice {
                try await withRuntime(common, sport: sportOption.value) { rt in
                    if explain { rt.printExplanation(try await rt.fusedLive(ids, all: all)) }
                    else { rt.printEvents(try await rt.fusedLiveEvents(ids, all: all)) }
                }
                return
            }
            try await withRuntime(common, provider: providerOption.provider, sport: sportOption.value) { rt in
                if let path = replay.replay {
                    // The state at the end of the recording, whatever --speed says.
                    let (store, stats) = try rt.replayedStore(path, providerFlag: providerOption.provider)
                    rt.reportReplay(stats)
                    let events = store.currentEvents()
                    // Freed by the exit, not one allocation at a time (a large store is slow to free).
                    ProcessLifetime.park(store)
                    // A recording of several providers shows one row per real match, as it did live.
                    if Set(events.map(\.provider)).count > 1 {
                        var fusion = MatchFusion(names: MatchNames(user: rt.config.aliases))
                        fusion.update(events)
                        rt.printEvents(fusion.fused(events).map(\.event))
                    } else {
                        rt.printEvents(events)
                    }
                    return
                }
                // `providers = [...]` in the config joins them when no --provider says otherwise.
                if let several = rt.configJoined(providerOption.choice) {
                    rt.printEvents(try await rt.fusedLiveEvents(several.ids, all: several.all))
                    return
                }
                let events = try await rt.preparedProvider(rt.settings.provider).liveEvents(sport: rt.settings.sport)
                rt.printEvents(events)
            }
        }
    }

    /// `odds sports`: sports with live events.
    struct Sports: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sports",
            abstract: "The sports that have live events now.",
            discussion: "Example: odds sports --provider tickodds --json")

        @OptionGroup var providerOption: ProviderOption
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await withRuntime(common, provider: providerOption.provider) { rt in
                let sports = try await rt.provider(rt.settings.provider).liveSports()
                rt.printSports(sports)
            }
        }
    }

    /// `odds event ID`: one live event in full.
    struct EventCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "event",
            abstract: "One live event with every market and selection.",
            discussion: "Example: odds event 98734521 --provider pulsescore")

        @Argument(help: "The provider's event (fixture) id.")
        var id: String

        @OptionGroup var providerOption: ProviderOption
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await withRuntime(common, provider: providerOption.provider) { rt in
                rt.printEvent(try await rt.provider(rt.settings.provider).liveEvent(id: id))
            }
        }
    }

    /// `odds stream`: NDJSON of normalized updates until interrupted.
    struct Stream: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stream",
            abstract: "The live feed as NDJSON, one update a line.",
            discussion: """
            Each line has a "type": snapshot, upsert, remove, price, score, incident, status, heartbeat or connection. \
            Price lines carry the previous price and its direction. Reconnects with backoff; stops with an exit code on \
            a fatal close (bad key, plan limit). With --provider all (or a list), every provider's feed at once: each \
            line names its provider, and a line about a match the id of its fused match ("match"). \
            Example: odds stream --provider tickodds --sport soccer --limit 100
            """)

        @OptionGroup var providerOption: ProviderOption
        @OptionGroup var sportOption: SportOption
        @OptionGroup var stream: StreamOptions
        @OptionGroup var replay: ReplayOptions
        @OptionGroup var common: CommonOptions

        func validate() throws {
            if case .several = providerOption.choice, replay.replay != nil {
                throw ValidationError("--replay shows the recording's own provider; drop --provider all (or the list).")
            }
        }

        func run() async throws {
            try await runStreamCommand(providerOption, sportOption, replay, common) { _ in stream }
        }
    }
}

/// `odds stream` and `odds history collect`: the providers asked for (one, a list, or a replay), streamed with the
/// options `prepare` settles once the runtime is known.
func runStreamCommand(_ providerOption: ProviderOption, _ sportOption: SportOption, _ replay: ReplayOptions, _ common: CommonOptions,
                      prepare: @escaping (Runtime) -> StreamOptions) async throws {
    if case .several(let ids, let all) = providerOption.choice {
        try await withRuntime(common, sport: sportOption.value) { rt in try await runFusedStream(ids, all: all, options: prepare(rt), rt) }
        return
    }
    try await withRuntime(common, provider: providerOption.provider, sport: sportOption.value) { rt in
        try await runStreamOrReplay(replay, provider: providerOption.provider, sport: rt.settings.sport,
                                    options: prepare(rt), rt) { try await rt.preparedProvider(rt.settings.provider) }
    }
}
