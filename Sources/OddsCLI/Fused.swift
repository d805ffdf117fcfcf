import Foundation
import OddsFusion
import OddsJSON
import OddsModel
import OddsCommandSupport
import OddsOutput
import OddsProviders
import OddsStore
import OddsTransport

extension Runtime {
    /// `providers = [...]` in the config, when neither --provider (`choice`) nor ODDS_PROVIDER names a provider:
    /// the providers commands that join several join by default.
    func configJoined(_ choice: ProviderChoice?) -> (ids: [ProviderID], all: Bool)? {
        guard choice == nil, settings.providerSource != .environment, let joined = settings.joined,
              joined.all || joined.ids.count > 1 else { return nil }
        return joined
    }

    /// The providers to join: `--provider all` or a list, else the config's (`configJoined`); nil for one provider.
    func joinedProviders(_ choice: ProviderChoice?) -> (ids: [ProviderID], all: Bool)? {
        if case .several(let ids, let all) = choice { return (ids, all) }
        return configJoined(choice)
    }

    /// Live matches of several providers, one row per real match (`--provider all` or a list): each
    /// provider asked at once; one that cannot be used (no key, refused, down) is named on stderr and
    /// the others go on. Fails only when none could be used.
    func fusedLiveEvents(_ ids: [ProviderID], all: Bool) async throws -> [Event] {
        try await fusedLive(ids, all: all).events
    }

    /// The fused live matches, with the matcher's near misses and the sources' events (for `--explain`).
    /// Without `prices`, each provider's list alone (`liveList`): enough to find a match by its names.
    func fusedLive(_ ids: [ProviderID], all: Bool, prices: Bool = true) async throws -> (events: [Event], nearMisses: [NearMiss], sources: [Event]) {
        let usable = try withKeys(ids, all: all)
        let sport = settings.sport
        let answers = await withTaskGroup(of: (Int, Result<[Event], Error>).self) { group in
            for (i, id) in usable.enumerated() {
                group.addTask {
                    do {
                        let provider = try await self.preparedProvider(id)
                        return (i, .success(try await prices ? provider.liveEvents(sport: sport) : provider.liveList(sport: sport)))
                    } catch { return (i, .failure(error)) }
                }
            }
            var out: [(Int, Result<[Event], Error>)] = []
            for await answer in group { out.append(answer) }
            return out.sorted { $0.0 < $1.0 }
        }
        var events: [Event] = []
        var failures: [Error] = []
        for (i, answer) in answers {
            switch answer {
            case .success(let list): events += list
            case .failure(let error):
                failures.append(error)
                leftOut(usable[i], error)
            }
        }
        if failures.count == usable.count, let first = failures.first { throw first }
        var fusion = MatchFusion(names: MatchNames(user: config.aliases))
        fusion.update(events)
        let misses = fusion.nearMisses.values.sorted { ($0.key.provider, $0.key.id) < ($1.key.provider, $1.key.id) }
        return (fusion.fused(events).map(\.event), misses, events)
    }

    /// The live feeds of several providers as one stream (`odds stream --provider all`): every provider's
    /// connections run side by side, each message naming its provider. A provider without a key is named
    /// and left out under `all`; one that fails to prepare is named and the rest go on.
    /// `beforeStart` runs once every provider is prepared, just before the feeds start.
    /// Returns the stream and the prepared clients of the providers in it.
    /// `focused`: providers with per-match channels (SportsAPIPro) run them, pointed by the handles returned.
    func fusedStream(_ ids: [ProviderID], all: Bool, stats: FeedStats, focused: Bool = false,
                     beforeStart: () -> Void = {}) async throws
        -> (stream: FeedStream, providers: [any OddsProvider], focus: [ProviderID: any MatchFocus]) {
        var adapters: [any FeedAdapter] = []
        var failures: [Error] = []
        var used: [any OddsProvider] = []
        var focus: [ProviderID: any MatchFocus] = [:]
        for id in try withKeys(ids, all: all) {
            do {
                let client = try await preparedProvider(id)
                if focused, let connections = try client.focusedConnections(sport: settings.sport) {
                    adapters += connections.adapters
                    focus[id] = connections.focus
                } else {
                    adapters += client.feedConnections(sport: settings.sport)
                }
                used.append(client)
            } catch {
                failures.append(error)
                leftOut(id, error)
            }
        }
        if adapters.isEmpty, let first = failures.first { throw first }
        // One consumer reads every connection: they share one connection's buffer.
        transport.webSocketBuffer = max(1 << 20, Transport.defaultWebSocketBuffer / max(1, adapters.count))
        beforeStart()
        return (FeedRunner.run(adapters, transport: transport, stats: stats), used, focus)
    }

    /// The providers to use: under `all`, those with a key (the others named on stderr, once each);
    /// a usage error when that leaves none.
    private func withKeys(_ ids: [ProviderID], all: Bool) throws -> [ProviderID] {
        guard all else { return ids }
        let missing = ids.filter { settings.providers[$0]?.key?.isEmpty ?? true }
        for id in missing { io.err("\(id.displayName): no API key (ODDS_\(id.environmentName)_KEY); skipped.") }
        let usable = ids.filter { !missing.contains($0) }
        guard !usable.isEmpty else {
            throw OddsError.usage("--provider all found no provider with an API key; set one (odds help config) or use --demo.")
        }
        return usable
    }

    /// Says on stderr that a provider could not be used, in one sentence (its key never in it).
    private func leftOut(_ id: ProviderID, _ error: Error) {
        let text = (error as? OddsError)?.message ?? String(describing: error)
        io.err("\(id.displayName): \(io.redactor.redact(text)) Left out.")
    }

    /// `odds live --provider all --explain`: each fused row's sources, with their own names and ids and
    /// why they were joined; then the near misses that were not joined, and why (so an alias can be added).
    func printExplanation(_ fused: (events: [Event], nearMisses: [NearMiss], sources: [Event])) {
        var records: [[(String, JSONOutput)]] = []
        func row(_ match: String, _ s: EventSource, joined: Bool) -> [(String, JSONOutput)] {
            [("match", .string(match)), ("joined", .bool(joined)), ("provider", .string(s.provider.rawValue)), ("id", .string(s.id)),
             ("teams", .string(s.away.map { "\(s.home) v \($0)" } ?? s.home)),
             ("start", s.startTime.map { .string(EventJSON.date($0)) } ?? .null),
             ("confidence", .number(String(format: "%.3f", s.confidence))), ("why", .string(s.reason))]
        }
        for e in fused.events {
            for s in e.match?.sources ?? [] { records.append(row(e.id, s, joined: true)) }
        }
        var byKey: [EventKey: Event] = [:]
        for e in fused.sources { byKey[EventKey(provider: e.provider, id: e.id)] = e }
        for miss in fused.nearMisses {
            guard let e = byKey[miss.key] else { continue }
            records.append(row(miss.matchID, EventSource(e, confidence: miss.evidence.confidence, reason: "not joined: " + miss.evidence.reason),
                               joined: false))
        }
        io.out(RecordReporter.render(columns: [.init("MATCH"), .init("JOINED"), .init("PROVIDER"), .init("ID"), .init("TEAMS", shrinkable: true),
                                               .init("START"), .init("CONF", rightAligned: true), .init("WHY", shrinkable: true)],
                                     records: records, format: outputFormat, options: renderOptions))
    }
}
