import Foundation
import OddsFusion
import OddsModel
import OddsProviders
import OddsStore

/// `odds-bench match [--matches N]`: N real matches as five providers name them (short names,
/// affixes, "&", kick-offs minutes apart, some at only some providers), matched from nothing, then
/// again after one score changed (which must cost no matching), best of 5.
enum MatchBench {
    static func run(_ args: [String]) -> Int32 {
        var matches = 2_000
        if let i = args.firstIndex(of: "--matches"), i + 1 < args.count, let n = Int(args[i + 1]), n > 0 { matches = n }
        let events = corpus(matches: matches)
        var best = Double.infinity, bestUpdate = Double.infinity
        var joined = 0
        for _ in 0..<5 {
            var fusion = MatchFusion()
            let t = Date()
            fusion.update(events)
            best = min(best, Date().timeIntervalSince(t))
            joined = fusion.matches.filter { $0.sources.count > 1 }.count
            var changed = events
            changed[changed.count / 2].score = Score(home: 9, away: 9)
            let u = Date()
            fusion.update(changed)
            bestUpdate = min(bestUpdate, Date().timeIntervalSince(u))
        }
        print("match: \(events.count) events from 5 providers (\(matches) real matches): \(String(format: "%.1f", best * 1000)) ms; "
              + "\(joined) fused rows of several sources; an update with one score changed: \(String(format: "%.2f", bestUpdate * 1000)) ms (best of 5)")
        return 0
    }

    /// Each real match at every provider but one in five, named as that provider would.
    static func corpus(matches: Int) -> [Event] {
        // The registered providers, each with its own way of spelling a name.
        let spellings: [(String) -> String] = [{ $0 }, { $0 + " FC" }, { "FC " + $0 }, { $0.uppercased() }, { $0 + " AFC" }]
        let providers = Array(zip(ProviderRegistry.ids, spellings))
        let sports = ["soccer", "basketball", "tennis", "ice-hockey"]
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        var events: [Event] = []
        for m in 0..<matches {
            let home = "Home \(Self.word(m)) Town", away = "Away \(Self.word(m &* 7 &+ 3)) City"
            for (p, (provider, spell)) in providers.enumerated() where (m + p) % 5 != 0 || p == 0 {
                let start = t0.addingTimeInterval(Double(m % 96) * 900 + Double(p * 2) * 60)
                events.append(Event(provider: provider, id: "\(p)-\(m)", sport: sports[m % sports.count], home: spell(home),
                                    away: spell(away), status: .live, startTime: start))
            }
        }
        return events
    }

    /// A made-up word per number, so that names differ the way real ones do.
    static func word(_ n: Int) -> String {
        let syllables = ["ka", "lo", "mi", "ra", "te", "su", "vo", "ne", "di", "po", "ga", "ru"]
        var n = n, out = ""
        repeat { out += syllables[n % syllables.count]; n /= syllables.count } while n > 0
        return out.prefix(1).uppercased() + out.dropFirst()
    }
}
