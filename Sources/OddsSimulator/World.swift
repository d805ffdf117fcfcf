import Foundation
import OddsModel

/// One selection of a simulated market. Prices are whole hundredths of decimal odds (210 = "2.10").
public struct SimSelection: Sendable, Hashable {
    public var name: String
    public var side: String
    public var price: Int
    public var handicap: String?
    /// A line whose outcome is already settled (over 2.5 after the third goal) is suspended on its own.
    public var suspended = false
}

public struct SimMarket: Sendable, Hashable {
    public var key: String
    public var name: String
    public var industryKey: String
    /// PulseScore's market tab ("Popular", "Goals").
    public var tab: String
    public var selections: [SimSelection]
}

public struct SimIncident: Sendable, Hashable {
    /// The provider label: "Goal", "Yellow Card", "Red Card", "Substitution", "VAR Decision".
    public var label: String
    public var minute: Int
    public var team: String
    public var player: String?
}

public enum SimPhase: String, Sendable { case notStarted, live, halfTime, ended }

/// A simulated match, race or fixture.
public struct SimMatch: Sendable, Hashable {
    public var serial: Int
    public var sport: String
    public var league: String
    public var home: String
    /// Nil for races.
    public var away: String?
    var strengthHome: Double
    var strengthAway: Double
    /// Seconds of play.
    public var elapsed: Int
    public var scoreHome = 0
    public var scoreAway = 0
    var gamesHome = 0
    var gamesAway = 0
    var setNumber = 1
    public var phase: SimPhase
    public var period: String
    /// The kick-off, in seconds from the simulator's epoch (`SimClock.epoch`): before it for a match
    /// under way (by its play and breaks so far), after it for a fixture.
    public var kickOffOffset = 0
    var breakTicks = 0
    public var suspendedTicks = 0
    var endedTicks = 0
    public var incidents: [SimIncident] = []
    public var markets: [SimMarket] = []
    var totalLine = 0.0

    public var suspended: Bool { suspendedTicks > 0 }
    /// The chance, each minute of play, that one book is slow to move its match-result price (`Options.bookLagChance`).
    var bookLagChance = 0.0

    /// "67:23" for soccer, "05:12" left in the quarter for basketball, nil for tennis.
    public var clock: String? {
        switch sport {
        case "soccer":
            return String(format: "%02d:%02d", elapsed / 60, elapsed % 60)
        case "basketball":
            let left = max(0, 12 * 60 - elapsed % (12 * 60))
            return String(format: "%02d:%02d", left / 60, left % 60)
        default:
            return nil
        }
    }

    public var minute: Int { elapsed / 60 }
}

/// A change the world made in one tick; the protocol front ends turn these into wire messages.
public enum SimChange: Sendable, Hashable {
    case started(Int)
    case score(Int, from: String, to: String)
    case incident(Int, SimIncident)
    case period(Int, from: String, to: String)
    case odds(Int, market: Int, selection: Int, old: Int)
    case suspended(Int, Bool)
    case ended(Int)
    case removed(Int)

    public var serial: Int {
        switch self {
        case .started(let s), .score(let s, _, _), .incident(let s, _), .period(let s, _, _), .odds(let s, _, _, _),
             .suspended(let s, _), .ended(let s), .removed(let s): return s
        }
    }
}

/// A pre-match league: fixtures that have not started.
public struct SimLeague: Sendable, Hashable {
    public var sport: String
    public var name: String
    public var fixtures: [SimMatch]
}

/// The simulated world: live matches that evolve tick by tick, and pre-match listings.
/// Deterministic: the same seed and the same number of ticks give the same state.
/// The wall-clock instant the simulated world's kick-offs count from: this process's first use of
/// it, to the minute, so that every simulator of one process (and every label it makes) agrees;
/// `ODDS_DEMO_EPOCH` (seconds since 1970) instead, so that several processes agree too.
public enum SimClock {
    public static let epoch: Date = {
        if let text = ProcessInfo.processInfo.environment["ODDS_DEMO_EPOCH"], let seconds = parse(text) {
            return Date(timeIntervalSince1970: seconds)
        }
        return Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 60).rounded(.down) * 60)
    }()

    /// `ODDS_DEMO_EPOCH`'s value: whole seconds since 1970, from 1970 to 9999.
    public static func parse(_ text: String) -> Double? {
        guard let seconds = Int64(text), (0...253_402_300_799).contains(seconds) else { return nil }
        return Double(seconds)
    }
}

public struct SimWorld: Sendable {
    public private(set) var live: [SimMatch] = []
    public private(set) var prematch: [SimLeague] = []
    public private(set) var tickCount = 0
    /// Seconds of play per tick.
    public var secondsPerTick = 15
    var random: SeededRandom
    /// The draws of the leagues not every provider carries, kept apart so that adding such a league leaves
    /// every other match's story as it was.
    var partialRandom: SeededRandom
    var nextSerial = 1

    /// Runs `body` with the random source of `league`'s matches.
    mutating func drawing<T>(for league: String, _ body: (inout SimWorld) -> T) -> T {
        guard Self.coverage[league] != nil else { return body(&self) }
        swap(&random, &partialRandom)
        defer { swap(&random, &partialRandom) }
        return body(&self)
    }

    public init(seed: UInt64) {
        random = SeededRandom(seed: seed)
        partialRandom = SeededRandom(seed: seed &+ 0x5EED)
        // The leagues not every provider carries come last, so that every other match and race keeps its serial.
        for league in Teams.leagues where Self.coverage[league.name] == nil { populate(league) }
        prematch += makeRaces(sport: "horse-racing", venues: Teams.racecourses, runners: Teams.horses)
        prematch += makeRaces(sport: "greyhounds", venues: Teams.greyhoundTracks, runners: Teams.greyhounds)
        for league in Teams.leagues where Self.coverage[league.name] != nil { drawing(for: league.name) { world in world.populate(league) } }
        addReturnFixture()
    }

    /// A trap for matching: the first soccer league's first live match has a fixture of the same teams, home
    /// and away alike, kicking off tomorrow (a cup tie's replay). Made last and drawing nothing at random, so
    /// that every other match keeps its serial and its story.
    mutating func addReturnFixture() {
        guard let first = live.first(where: { $0.sport == "soccer" }),
              let league = prematch.firstIndex(where: { $0.name == first.league }) else { return }
        defer { nextSerial += 1 }
        var fixture = SimMatch(serial: nextSerial, sport: first.sport, league: first.league, home: first.home, away: first.away,
                               strengthHome: first.strengthHome, strengthAway: first.strengthAway, elapsed: 0, phase: .notStarted,
                               period: "Not Started")
        // A day after today's kick-off, to the minute.
        fixture.kickOffOffset = first.kickOffOffset + 24 * 3600
        Self.price(&fixture)
        prematch[league].fixtures.append(fixture)
    }

    /// A league's live matches and fixtures.
    mutating func populate(_ league: Teams.LeagueDef) {
        let count = 2
        var teams = league.teams
        for _ in 0..<count where teams.count >= 2 {
            var match = makeMatch(league: league, teams: &teams)
            match.elapsed = random.int(0...(league.sport == "soccer" ? 80 : 40)) * 60 + random.int(0...59)
            if league.sport == "soccer", match.elapsed >= 45 * 60 { match.period = "2nd Half" }
            if league.sport == "basketball" { match.period = Self.quarterName(match.elapsed / (12 * 60) + 1) }
            seedScore(&match)
            Self.price(&match)
            // Started as long ago as it has played, with half time (15 min) behind a second half.
            match.kickOffOffset = -(match.elapsed + (match.period == "2nd Half" ? 15 * 60 : 0))
            live.append(match)
        }
        var fixtures: [SimMatch] = []
        for _ in 0..<3 where teams.count >= 2 {
            var fixture = makeMatch(league: league, teams: &teams)
            fixture.phase = .notStarted
            fixture.period = "Not Started"
            // Later today or tomorrow: 30 minutes to 10 hours ahead, on the quarter hour's minutes.
            fixture.kickOffOffset = (30 + (fixture.serial * 97) % 570) * 60
            Self.price(&fixture)
            fixtures.append(fixture)
        }
        prematch.append(SimLeague(sport: league.sport, name: league.name, fixtures: fixtures))
    }

    mutating func makeMatch(league: Teams.LeagueDef, teams: inout [String]) -> SimMatch {
        // The leagues not every provider carries start with their teams paired as listed, so that the demo always
        // shows their traps (Inter v Napoli beside Inter Miami v LAFC).
        let inOrder = Self.coverage[league.name] != nil && tickCount == 0
        let home = teams.remove(at: inOrder ? 0 : random.int(0...(teams.count - 1)))
        let away = teams.remove(at: inOrder ? 0 : random.int(0...(teams.count - 1)))
        defer { nextSerial += 1 }
        var m = SimMatch(serial: nextSerial, sport: league.sport, league: league.name, home: home, away: away,
                         strengthHome: 0.7 + random.unit() * 0.6, strengthAway: 0.7 + random.unit() * 0.6,
                         elapsed: 0, phase: .live, period: league.sport == "tennis" ? "Set 1" : "1st Half")
        if league.sport == "basketball" { m.period = "1st Quarter"; m.totalLine = Double(200 + random.int(0...40)) + 0.5 }
        return m
    }

    mutating func makeRaces(sport: String, venues: [String], runners: [String]) -> [SimLeague] {
        venues.enumerated().map { index, venue in
            let races: [SimMatch] = (0..<3).map { r in
                defer { nextSerial += 1 }
                let time = String(format: "%02d:%02d", 13 + r + index % 2, (r * 35 + index * 10) % 60)
                var field = runners
                var selections: [SimSelection] = []
                for _ in 0..<min(6, field.count) {
                    let name = field.remove(at: random.int(0...(field.count - 1)))
                    selections.append(SimSelection(name: name, side: sportSlugName(name), price: 0))
                }
                var weights = selections.map { _ in 0.5 + random.unit() * 2 }
                let total = weights.reduce(0, +)
                weights = weights.map { $0 / total }
                for i in selections.indices { selections[i].price = Self.toPrice(weights[i], margin: 1.15) }
                let place = selections.map { SimSelection(name: $0.name, side: $0.side, price: max(101, ($0.price - 100) / 4 + 100)) }
                var race = SimMatch(serial: nextSerial, sport: sport, league: venue, home: "\(time) \(venue)", away: nil,
                                    strengthHome: 1, strengthAway: 1, elapsed: 0, phase: .notStarted, period: "Not Started")
                race.markets = [SimMarket(key: "win", name: "Win", industryKey: "outright", tab: "Popular", selections: selections),
                                SimMarket(key: "each_way", name: "Each Way", industryKey: "each_way", tab: "Popular", selections: place)]
                return race
            }
            return SimLeague(sport: sport, name: venue, fixtures: races)
        }
    }

    func sportSlugName(_ s: String) -> String { s.lowercased().replacingOccurrences(of: " ", with: "_") }

    mutating func seedScore(_ m: inout SimMatch) {
        let fraction = Double(m.elapsed) / (m.sport == "soccer" ? 5400 : 2880)
        switch m.sport {
        case "soccer":
            m.scoreHome = poissonSample(1.4 * m.strengthHome * fraction)
            m.scoreAway = poissonSample(1.1 * m.strengthAway * fraction)
        case "basketball":
            m.scoreHome = Int(Double(110) * fraction * m.strengthHome) + random.int(0...6)
            m.scoreAway = Int(Double(105) * fraction * m.strengthAway) + random.int(0...6)
        default:
            m.gamesHome = random.int(0...4); m.gamesAway = random.int(0...4)
        }
    }

    mutating func poissonSample(_ lambda: Double) -> Int {
        let l = exp(-lambda)
        var k = 0
        var p = 1.0
        repeat { k += 1; p *= random.unit() } while p > l && k < 12
        return k - 1
    }

    static func quarterName(_ q: Int) -> String {
        ["1st Quarter", "2nd Quarter", "3rd Quarter", "4th Quarter"][min(max(q, 1), 4) - 1]
    }

    // MARK: - Ticks

    /// Advances every live match by one tick and returns what changed, in order.
    public mutating func tick() -> [SimChange] {
        tickCount += 1
        var changes: [SimChange] = []
        var index = 0
        while index < live.count {
            if live[index].phase == .ended {
                live[index].endedTicks += 1
                if live[index].endedTicks >= 2 {
                    let old = live.remove(at: index)
                    changes.append(.removed(old.serial))
                    changes.append(contentsOf: drawing(for: old.league) { world in world.startReplacement(for: old) })
                    continue
                }
            } else {
                var match = live[index]
                changes += drawing(for: match.league) { world in world.advance(&match) }
                live[index] = match
            }
            index += 1
        }
        return changes
    }

    mutating func startReplacement(for old: SimMatch) -> [SimChange] {
        guard let league = Teams.leagues.first(where: { $0.name == old.league }) else { return [] }
        var teams = league.teams.filter { t in !live.contains { $0.home == t || $0.away == t } }
        guard teams.count >= 2 else { return [] }
        var match = makeMatch(league: league, teams: &teams)
        Self.price(&match)
        live.append(match)
        return [.started(match.serial)]
    }

    mutating func advance(_ m: inout SimMatch) -> [SimChange] {
        var changes: [SimChange] = []
        let serial = m.serial
        if m.suspendedTicks > 0 {
            m.suspendedTicks -= 1
            if m.suspendedTicks == 0 { changes.append(.suspended(serial, false)) }
        }
        if m.phase == .halfTime {
            m.breakTicks += 1
            if m.breakTicks >= 4 {
                m.phase = .live
                let from = m.period
                m.period = "2nd Half"
                m.elapsed = 45 * 60
                changes.append(.period(serial, from: from, to: m.period))
            }
            return changes
        }
        m.elapsed += secondsPerTick
        var event = false
        switch m.sport {
        case "soccer": event = soccer(&m, &changes)
        case "basketball": event = basketball(&m, &changes)
        default: event = tennis(&m, &changes)
        }
        if m.phase == .ended { changes.append(.ended(serial)); return changes }
        if event || random.chance(0.35) {
            let before = m.markets
            Self.price(&m)
            if !m.suspended {
                for (mi, market) in m.markets.enumerated() where mi < before.count {
                    for (si, s) in market.selections.enumerated() where si < before[mi].selections.count {
                        if before[mi].selections[si].price != s.price || before[mi].selections[si].suspended != s.suspended {
                            changes.append(.odds(serial, market: mi, selection: si, old: before[mi].selections[si].price))
                        }
                    }
                }
            }
        }
        return changes
    }

    mutating func player() -> String { "\(random.pick(Teams.firstNames)) \(random.pick(Teams.lastNames))" }

    mutating func soccer(_ m: inout SimMatch, _ changes: inout [SimChange]) -> Bool {
        let serial = m.serial
        var event = false
        let perTick = Double(secondsPerTick) / 60
        for side in ["home", "away"] {
            let rate = (side == "home" ? 1.4 * m.strengthHome : 1.1 * m.strengthAway) / 90
            if random.chance(rate * perTick) {
                let from = "\(m.scoreHome)-\(m.scoreAway)"
                if side == "home" { m.scoreHome += 1 } else { m.scoreAway += 1 }
                let incident = SimIncident(label: "Goal", minute: m.minute + 1, team: side, player: player())
                m.incidents.append(incident)
                changes.append(.score(serial, from: from, to: "\(m.scoreHome)-\(m.scoreAway)"))
                changes.append(.incident(serial, incident))
                m.suspendedTicks = 2
                changes.append(.suspended(serial, true))
                event = true
            }
        }
        if random.chance(4.0 / 90 * perTick) {
            let incident = SimIncident(label: random.chance(0.1) ? "Red Card" : "Yellow Card", minute: m.minute + 1,
                                       team: random.chance(0.5) ? "home" : "away", player: player())
            m.incidents.append(incident)
            changes.append(.incident(serial, incident))
            event = true
        }
        if m.minute >= 55, random.chance(5.0 / 35 * perTick) {
            let incident = SimIncident(label: "Substitution", minute: m.minute + 1,
                                       team: random.chance(0.5) ? "home" : "away", player: player())
            m.incidents.append(incident)
            changes.append(.incident(serial, incident))
        }
        if random.chance(0.3 / 90 * perTick) {
            let incident = SimIncident(label: "VAR Decision", minute: m.minute + 1, team: random.chance(0.5) ? "home" : "away", player: nil)
            m.incidents.append(incident)
            changes.append(.incident(serial, incident))
        }
        if m.period == "1st Half", m.elapsed >= 45 * 60 + 60 {
            m.phase = .halfTime
            m.breakTicks = 0
            changes.append(.period(serial, from: m.period, to: "Half Time"))
            m.period = "Half Time"
            event = true
        } else if m.period == "2nd Half", m.elapsed >= 90 * 60 + 180 {
            m.phase = .ended
            changes.append(.period(serial, from: m.period, to: "Ended"))
            m.period = "Ended"
        }
        return event
    }

    mutating func basketball(_ m: inout SimMatch, _ changes: inout [SimChange]) -> Bool {
        let from = "\(m.scoreHome)-\(m.scoreAway)"
        m.scoreHome += random.chance(0.55 * m.strengthHome) ? random.pick([2, 2, 3, 1]) : 0
        m.scoreAway += random.chance(0.55 * m.strengthAway) ? random.pick([2, 2, 3, 1]) : 0
        let to = "\(m.scoreHome)-\(m.scoreAway)"
        if from != to { changes.append(.score(m.serial, from: from, to: to)) }
        let quarter = m.elapsed / (12 * 60) + 1
        if quarter > 4 {
            m.phase = .ended
            changes.append(.period(m.serial, from: m.period, to: "Ended"))
            m.period = "Ended"
        } else if Self.quarterName(quarter) != m.period {
            changes.append(.period(m.serial, from: m.period, to: Self.quarterName(quarter)))
            m.period = Self.quarterName(quarter)
        }
        return from != to
    }

    mutating func tennis(_ m: inout SimMatch, _ changes: inout [SimChange]) -> Bool {
        guard random.chance(0.3) else { return false }
        let homeWins = random.chance(m.strengthHome / (m.strengthHome + m.strengthAway))
        if homeWins { m.gamesHome += 1 } else { m.gamesAway += 1 }
        let (g1, g2) = (m.gamesHome, m.gamesAway)
        if (max(g1, g2) >= 6 && abs(g1 - g2) >= 2) || max(g1, g2) == 7 {
            let from = "\(m.scoreHome)-\(m.scoreAway)"
            if g1 > g2 { m.scoreHome += 1 } else { m.scoreAway += 1 }
            m.gamesHome = 0; m.gamesAway = 0
            changes.append(.score(m.serial, from: from, to: "\(m.scoreHome)-\(m.scoreAway)"))
            if max(m.scoreHome, m.scoreAway) == 2 {
                m.phase = .ended
                changes.append(.period(m.serial, from: m.period, to: "Ended"))
                m.period = "Ended"
                return true
            }
            m.setNumber += 1
            let old = m.period
            m.period = "Set \(m.setNumber)"
            changes.append(.period(m.serial, from: old, to: m.period))
        }
        return true
    }

    // MARK: - Prices

    /// Hundredths of decimal odds for probability `p` with the book's margin, within 1.01…101.
    static func toPrice(_ p: Double, margin: Double = 1.06) -> Int {
        // Clamp in Double first: a vanishing probability makes the quotient too big (or infinite) for Int.
        guard p > 0 else { return 10100 }
        let x = 100 / (p * margin)
        let raw = x.isFinite && x < 10100 ? max(101, Int(x.rounded())) : 10100
        // Snap to a bookmaker's ladder of steps, as real prices are.
        let step: Int
        switch raw {
        case ..<200: step = 1
        case ..<300: step = 2
        case ..<400: step = 5
        case ..<600: step = 10
        case ..<1000: step = 20
        case ..<2000: step = 50
        case ..<3000: step = 100
        case ..<5000: step = 200
        default: step = 500
        }
        return max(101, (raw + step / 2) / step * step)
    }

    static func poisson(_ lambda: Double) -> [Double] {
        var out: [Double] = []
        var term = exp(-lambda)
        for k in 0..<12 { out.append(term); term *= lambda / Double(k + 1) }
        return out
    }

    static func normalCDF(_ x: Double) -> Double { 0.5 * (1 + erf(x / 2.squareRoot())) }

    /// Recomputes every market of a match from its state.
    static func price(_ m: inout SimMatch) {
        switch m.sport {
        case "soccer":
            let rf = max(0, Double(90 * 60 - m.elapsed) / 5400)
            let ph = poisson(1.4 * m.strengthHome * rf), pa = poisson(1.1 * m.strengthAway * rf)
            var home = 0.0, draw = 0.0, away = 0.0, over = 0.0, bothScore = 0.0
            let goalsSettled = m.scoreHome + m.scoreAway > 2, bothScored = m.scoreHome > 0 && m.scoreAway > 0
            for i in 0..<12 { for j in 0..<12 {
                let p = ph[i] * pa[j]
                let h = m.scoreHome + i, a = m.scoreAway + j
                if h > a { home += p } else if h == a { draw += p } else { away += p }
                if h + a > 2 { over += p }
                if h > 0 && a > 0 { bothScore += p }
            } }
            m.markets = [
                SimMarket(key: "full_time_result", name: "Fulltime Result", industryKey: "h2h_3_way", tab: "Popular", selections: [
                    SimSelection(name: m.home, side: "home", price: toPrice(home)),
                    SimSelection(name: "Draw", side: "draw", price: toPrice(draw)),
                    SimSelection(name: m.away ?? "", side: "away", price: toPrice(away))]),
                SimMarket(key: "total_goals", name: "Over/Under 2.5 Goals", industryKey: "totals", tab: "Popular", selections: [
                    SimSelection(name: "Over 2.5", side: "over", price: toPrice(over), handicap: "2.5", suspended: goalsSettled),
                    SimSelection(name: "Under 2.5", side: "under", price: toPrice(1 - over), handicap: "2.5",
                                 suspended: goalsSettled)]),
                SimMarket(key: "both_teams_to_score", name: "Both Teams to Score", industryKey: "btts", tab: "Goals", selections: [
                    SimSelection(name: "Yes", side: "yes", price: toPrice(bothScore), suspended: bothScored),
                    SimSelection(name: "No", side: "no", price: toPrice(1 - bothScore), suspended: bothScored)]),
            ]
        case "basketball":
            let rf = max(0.001, Double(48 * 60 - m.elapsed) / 2880)
            let mean = Double(m.scoreHome - m.scoreAway) + (m.strengthHome - m.strengthAway) * 10 * rf
            let sd = 12 * rf.squareRoot() + 0.5
            let home = normalCDF(mean / sd)
            let expected = Double(m.scoreHome + m.scoreAway) + 215 * rf * (m.strengthHome + m.strengthAway) / 2
            let over = 1 - normalCDF((m.totalLine - expected) / (15 * rf.squareRoot() + 1))
            let line = String(format: "%.1f", m.totalLine)
            let spread = Double(Int((abs(m.strengthHome - m.strengthAway) * 12).rounded())) + 1.5
            let spreadLine = m.strengthHome >= m.strengthAway ? -spread : spread
            m.markets = [
                SimMarket(key: "money_line", name: "Money Line", industryKey: "h2h", tab: "Popular", selections: [
                    SimSelection(name: m.home, side: "home", price: toPrice(home)),
                    SimSelection(name: m.away ?? "", side: "away", price: toPrice(1 - home))]),
                SimMarket(key: "total_points", name: "Total Points", industryKey: "totals", tab: "Popular", selections: [
                    SimSelection(name: "Over \(line)", side: "over", price: toPrice(over), handicap: line),
                    SimSelection(name: "Under \(line)", side: "under", price: toPrice(1 - over), handicap: line)]),
                // The spread is fixed for the match from the teams' strengths (BoltOdds' books quote the same line).
                SimMarket(key: "point_spread", name: "Point Spread", industryKey: "spreads", tab: "Popular", selections: [
                    SimSelection(name: m.home, side: "home", price: toPrice(normalCDF((mean + spreadLine) / sd)),
                                 handicap: String(format: "%.1f", spreadLine)),
                    SimSelection(name: m.away ?? "", side: "away", price: toPrice(1 - normalCDF((mean + spreadLine) / sd)),
                                 handicap: String(format: "%.1f", -spreadLine))]),
            ]
        default:
            let x = 1.3 * Double(m.scoreHome - m.scoreAway) + 0.25 * Double(m.gamesHome - m.gamesAway)
                + 2 * (m.strengthHome - m.strengthAway)
            let home = 1 / (1 + exp(-x))
            m.markets = [
                SimMarket(key: "match_winner", name: "Match Winner", industryKey: "h2h", tab: "Popular", selections: [
                    SimSelection(name: m.home, side: "home", price: toPrice(home)),
                    SimSelection(name: m.away ?? "", side: "away", price: toPrice(1 - home))]),
            ]
        }
    }

    /// The live match with this serial.
    public func match(_ serial: Int) -> SimMatch? { live.first { $0.serial == serial } }

    /// Which providers carry a league's matches, as real ones do not all carry everything (inferred coverage:
    /// US books and the global API have MLS, Bet365 and the global API Serie A); a league not listed is at all.
    public static let coverage: [String: Set<SimProvider>] = [
        "MLS": [.boltodds, .sportsapi, .sportsapiV1],
        "Serie A": [.pulsescore, .boltodds, .sportsapi, .sportsapiV1],
        "2. Bundesliga": [.pulsescore, .boltodds, .sportsapi, .sportsapiV1],
        "Segunda División": [.pulsescore, .boltodds, .sportsapi, .sportsapiV1],
        "Ligue 1": [.pulsescore, .boltodds, .sportsapi, .sportsapiV1],
        "Eredivisie": [.boltodds, .sportsapi, .sportsapiV1],
        "Championship": [.pulsescore, .boltodds, .sportsapi, .sportsapiV1],
        "Serie B": [.boltodds, .sportsapi, .sportsapiV1],
    ]

    /// Whether `provider` carries the match.
    public static func carries(_ m: SimMatch, _ provider: SimProvider) -> Bool { carries(league: m.league, provider) }

    static func carries(league: String, _ provider: SimProvider) -> Bool { coverage[league].map { $0.contains(provider) } ?? true }

    /// The live matches `provider` carries.
    public func live(for provider: SimProvider) -> [SimMatch] { live.filter { Self.carries($0, provider) } }

    /// The pre-match listings `provider` carries.
    public func prematch(for provider: SimProvider) -> [SimLeague] { prematch.filter { Self.carries(league: $0.name, provider) } }

    /// The live match with this serial, if `provider` carries it.
    public func match(_ serial: Int, for provider: SimProvider) -> SimMatch? {
        match(serial).flatMap { Self.carries($0, provider) ? $0 : nil }
    }

    /// Any match, live or pre-match, by serial.
    public func anyMatch(_ serial: Int) -> SimMatch? {
        match(serial) ?? prematch.lazy.flatMap(\.fixtures).first { $0.serial == serial }
    }
}

/// Hundredths as decimal odds text: 210 → "2.10".
func priceText(_ hundredths: Int) -> String {
    "\(hundredths / 100).\(String(format: "%02d", hundredths % 100))"
}
