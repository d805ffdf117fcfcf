import Foundation
import OddsFusion
import OddsModel
import OddsProviders
import OddsTransport

extension Runtime {
    /// Live matches of several providers, one row per real match (`--provider all` or a list): each
    /// provider asked at once; one that cannot be used (no key, refused, down) is named on stderr and
    /// the others go on. Fails only when none could be used.
    func fusedLiveEvents(_ ids: [ProviderID], all: Bool) async throws -> [Event] {
        var usable = ids
        if all {
            // `all` means every provider with a key.
            let missing = ids.filter { settings.providers[$0]?.key?.isEmpty ?? true }
            for id in missing { io.err("\(id.displayName): no API key (ODDS_\(id.environmentName)_KEY); skipped.") }
            usable = ids.filter { !missing.contains($0) }
            guard !usable.isEmpty else {
                throw OddsError.usage("--provider all found no provider with an API key; set one (odds help config) or use --demo.")
            }
        }
        let sport = settings.sport
        let answers = await withTaskGroup(of: (Int, Result<[Event], Error>).self) { group in
            for (i, id) in usable.enumerated() {
                group.addTask {
                    do { return (i, .success(try await self.preparedProvider(id).liveEvents(sport: sport))) } catch { return (i, .failure(error)) }
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
                let text = (error as? OddsError)?.message ?? String(describing: error)
                io.err("\(usable[i].displayName): \(io.redactor.redact(text)) Left out.")
            }
        }
        if failures.count == usable.count, let first = failures.first { throw first }
        var fusion = MatchFusion(names: MatchNames(user: config.aliases))
        fusion.update(events)
        return fusion.fused(events).map(\.event)
    }
}
