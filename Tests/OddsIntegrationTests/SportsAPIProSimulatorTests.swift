import Foundation
import OddsJSON
@testable import OddsSimulator
import OddsTransport
import OddsTestSupport
import Testing

/// The SportsAPIPro simulator (docs: /work/shared/providers/sportsapipro-v2.txt and sportsapipro-v1.txt): its
/// frames without sockets, then both WebSockets on loopback.
@Suite struct SportsAPIProSimulatorTests {
    // MARK: - Frames, without sockets

    @Test func v2EnvelopesAreTheDocs() throws {
        let welcome = try JSONParser.parse(SportsAPIProV2.welcome(sport: "football", nats: true))
        #expect(welcome["type"]?.string == "welcome")
        #expect(welcome["message"]?.string == "SportsAPIData WebSocket v3.1 — All Channels Sub-Second")
        #expect(welcome["sport"]?.string == "football")
        #expect(welcome["natsConnected"]?.bool == true)
        #expect(welcome["channels"]?.array?.first?.string == "live-scores")

        let options = Simulator.Options()
        let incidents = try #require(SportsAPIProV2.Channel("match:14109842:incidents"))
        let subscribed = try JSONParser.parse(SportsAPIProV2.subscribed("match:14109842:incidents",
                                                                        mode: SportsAPIProV2.mode(incidents, options: options)))
        #expect(subscribed["mode"]?.string == "realtime (NATS-triggered fetch, 15000ms safety-net poll)")

        let update = try JSONParser.parse(SportsAPIProV2.update("live-scores", .object([("events", .array([]))]), source: "nats"))
        #expect(update["type"]?.string == "update" && update["source"]?.string == "nats" && update["channel"]?.string == "live-scores")
        #expect((update["timestamp"]?.int ?? 0) > 1_700_000_000_000)
        let snapshot = try JSONParser.parse(SportsAPIProV2.snapshot("match:1", .object([])))
        #expect(snapshot["type"]?.string == "snapshot" && snapshot["data"]?.isObject == true)
        let pong = try JSONParser.parse(SportsAPIProV2.pong("live-scores"))
        #expect(pong["type"]?.string == "pong" && pong["channel"]?.string == "live-scores" && pong["timestamp"]?.int != nil)
        #expect(try JSONParser.parse(SportsAPIProV2.error("x"))["type"]?.string == "error")
    }

    @Test func v2ChannelNames() {
        #expect(SportsAPIProV2.Channel("live-scores") == .liveScores(nil))
        #expect(SportsAPIProV2.Channel("live-scores:basketball") == .liveScores("basketball"))
        #expect(SportsAPIProV2.Channel("live-scores:curling") == nil)
        #expect(SportsAPIProV2.Channel("match:14100007") == .match(serial: 7, .score))
        #expect(SportsAPIProV2.Channel("match:14100007:odds") == .match(serial: 7, .odds))
        #expect(SportsAPIProV2.Channel("match:14100007:") == nil)
        #expect(SportsAPIProV2.Channel("match:14100007:score") == nil)
        #expect(SportsAPIProV2.Channel("match:abc:stats") == nil)
        #expect(SportsAPIProV2.Channel("scores") == nil)
        #expect(SportsAPIProV2.sports.count == 25)
    }

    /// Ticks a world as the simulator does, recording half times; `body` sees every soccer match after each tick.
    static func play(ticks: Int, _ body: (SimWorld, SportsAPIProState, [SimChange]) throws -> Void) rethrows {
        var world = SimWorld(seed: 42)
        var state = SportsAPIProState(world: world, natsConnected: true)
        for _ in 0..<ticks {
            let changes = world.tick()
            state.record(changes, world: world)
            try body(world, state, changes)
        }
    }

    @Test(.heavyLane) func incidentsOverSimulatedMatches() throws {
        var types = Set<String>()
        var classes = Set<String>()
        var assisted = 0
        var rescinded = Set<Bool>()
        var seen: [Int: String] = [:]
        try Self.play(ticks: 500) { world, state, _ in
            for m in world.live where m.sport == "soccer" {
                let story = SportsAPIProV2.story(m, state: state)
                // Every goal is in the list, and the last goal's running score is the match's.
                let goals = story.incidents.filter { $0.type == "goal" }
                #expect(goals.count == m.scoreHome + m.scoreAway)
                #expect(Set(story.incidents.map(\.id)).count == story.incidents.count)
                for incident in story.incidents {
                    let text = incident.json.rendered
                    // The same incident is the same every time it is sent (client dedup by id).
                    if let before = seen[incident.id] { #expect(before == text) }
                    seen[incident.id] = text
                    let value = try JSONParser.parse(text)
                    types.insert(incident.type)
                    if let c = value["incidentClass"]?.string { classes.insert(c) }
                    switch incident.type {
                    case "goal":
                        #expect(value["player"]?["name"]?.string != nil)
                        if value["assist1"] != nil { assisted += 1 }
                    case "card":
                        #expect(value["reason"]?.string != nil && value["player"]?["name"]?.string != nil)
                        if let r = value["rescinded"]?.bool { rescinded.insert(r) }
                    case "varDecision": #expect(value["player"]?["name"]?.string != nil)
                    case "inGamePenalty":
                        // SofaScore's shape: no score of its own, a description and a class.
                        #expect(value["homeScore"] == nil && value["description"]?.string != nil && value["incidentClass"]?.string == "missed")
                    case "substitution": #expect(value["playerIn"]?["name"]?.string != nil && value["playerOut"]?["name"]?.string != nil)
                    case "injuryTime": #expect((value["length"]?.int ?? 0) > 0)
                    case "period": #expect(["HT", "FT"].contains(value["text"]?.string ?? ""))
                    default: break
                    }
                }
                if let data = SportsAPIProV2.incidents(m, state: state) {
                    // Newest first.
                    let list = try JSONParser.parse(data.rendered)["incidents"]?.array ?? []
                    #expect(list.first?["id"]?.int == story.incidents.last?.id)
                }
            }
        }
        #expect(types == ["goal", "card", "substitution", "varDecision", "period", "injuryTime", "inGamePenalty"], "\(types)")
        #expect(classes.isSuperset(of: ["yellow", "red", "regular", "missed", "penaltyAwarded"]), "\(classes)")
        #expect(rescinded == [false, true])
        #expect(assisted > 0)
    }

    @Test func statsGrowAndLineupsAreFull() throws {
        var shots: [Int: Int] = [:]
        try Self.play(ticks: 60) { world, _, _ in
            for m in world.live where m.sport == "soccer" && m.phase != .ended {
                let value = try JSONParser.parse(try #require(SportsAPIProV2.stats(m)).rendered)
                let items = value["statistics"]?.array?.first?["groups"]?.array?.flatMap { $0["statisticsItems"]?.array ?? [] } ?? []
                let names = Set(items.compactMap { $0["name"]?.string })
                #expect(names.isSuperset(of: ["Ball possession", "Total shots", "Shots on target", "Corner kicks", "Fouls", "Passes"]))
                let total = items.first { $0["key"]?.string == "totalShotsOnGoal" }
                let sum = (total?["homeValue"]?.int ?? 0) + (total?["awayValue"]?.int ?? 0)
                #expect(sum >= shots[m.serial] ?? 0)
                shots[m.serial] = sum
                let possession = items.first { $0["key"]?.string == "ballPossession" }
                #expect((possession?["homeValue"]?.int ?? 0) + (possession?["awayValue"]?.int ?? 0) == 100)
            }
        }
        let world = SimWorld(seed: 42)
        let m = try #require(world.live.first { $0.sport == "soccer" })
        let lineups = try JSONParser.parse(try #require(SportsAPIProV2.lineups(m)).rendered)
        for side in ["home", "away"] {
            let players = lineups[side]?["players"]?.array ?? []
            #expect(players.filter { $0["substitute"]?.bool == false }.count == 11)
            #expect(players.filter { $0["substitute"]?.bool == true }.count == 7)
            #expect(lineups[side]?["formation"]?.string?.split(separator: "-").compactMap { Int($0) }.reduce(0, +) == 10)
        }
        #expect(SportsAPIProV2.lineups(try #require(world.live.first { $0.sport == "tennis" })) == nil)
    }

    @Test func oddsHaveFractionalAndDecimalPrices() throws {
        #expect(SportsAPIProV2.fractional(210) == "11/10")
        #expect(SportsAPIProV2.fractional(250) == "3/2")
        #expect(SportsAPIProV2.fractional(191) == "91/100")
        let world = SimWorld(seed: 42)
        for m in world.live where m.away != nil {
            let value = try JSONParser.parse(try #require(SportsAPIProV2.odds(m)).rendered)
            if m.serial % 3 == 0 {
                // SofaScore's own shape: no provider grouping, fractions only.
                #expect(value["providers"] == nil && value["eventId"]?.int == SportsAPIProV2.matchID(m.serial))
                let choices = (value["markets"]?.array ?? []).flatMap { $0["choices"]?.array ?? [] }
                #expect(!choices.isEmpty && choices.allSatisfy { $0["fractionalValue"]?.string != nil && $0["decimalValue"] == nil })
                continue
            }
            let providers = value["providers"]?.array ?? []
            #expect(providers.count == 3)
            for p in providers {
                for market in p["markets"]?.array ?? [] {
                    #expect(market["marketName"]?.string != nil)
                    for c in market["choices"]?.array ?? [] {
                        let fraction = (c["fractionalValue"]?.string ?? "").split(separator: "/").compactMap { Int($0) }
                        let decimal = (c["decimalValue"]?.string ?? "").replacingOccurrences(of: ".", with: "")
                        #expect(fraction.count == 2 && Int(decimal) == 100 + fraction[0] * 100 / fraction[1])
                        #expect(c["initialFractionalValue"]?.string != nil && [-1, 0, 1].contains(c["change"]?.int ?? 9))
                    }
                }
            }
        }
    }

    @Test func v1GamesAndMessages() throws {
        let connected = try JSONParser.parse(SportsAPIProV1.connectedText)
        #expect(connected["type"]?.string == "connected" && connected["version"]?.string == "1.0")
        #expect(connected["sports"]?.array?.count == 9)
        #expect(connected["channels"]?.array?.map { $0.string ?? "" }.prefix(3) == ["all", "live", "football"])
        #expect(SportsAPIProV1.sport(ofPath: "/v1/football/ws") == "football")
        #expect(SportsAPIProV1.sport(ofPath: "/v1/curling/ws") == nil)

        let world = SimWorld(seed: 42)
        let live = try #require(world.live.first { $0.sport == "soccer" })
        let fixture = try #require(world.prematch.first { $0.sport == "soccer" }?.fixtures.first)
        var state = SportsAPIProState(world: world, natsConnected: true)
        let first = state.nextUpdateID(), second = state.nextUpdateID()
        #expect(second > first)
        let scores = try JSONParser.parse(SportsAPIProV1.scores("football", [live, fixture], updateID: first))
        #expect(scores["type"]?.string == "scores" && scores["updateId"]?.int == first && scores["ts"]?.int != nil)
        let games = scores["games"]?.array ?? []
        #expect(games[0]["homeCompetitor"]?["score"]?.int == live.scoreHome)
        #expect(games[0]["statusGroup"]?.int == 3)
        #expect(games[0]["statusText"]?.string?.hasSuffix("'") == true)
        #expect(games[1]["homeCompetitor"]?["score"]?.int == -1 && games[1]["statusGroup"]?.int == 2)
        let update = try JSONParser.parse(SportsAPIProV1.matchUpdate("match:\(SportsAPIProV1.gameID(live.serial))", live, updateID: second))
        #expect(update["type"]?.string == "match-update" && update["game"]?["awayCompetitor"]?["name"]?.string == SportsAPIPro.v1Team(live.away ?? ""))
    }

    // MARK: - Loopback

    @Test(.timeLimit(.minutes(1))) func v2OverLoopback() async throws {
        try await withSimulator({ $0.sportsAPIIncidentsPollInterval = 0.3 }) { sim, transport in
            let ws = try await WebSocketSession.connect(url: sim.webSocketURL(.sportsapi) + "?x-api-key=\(testKey)",
                                                        headers: [("x-sport", "football")], transport: transport)
            let log = SocketLog(ws)
            defer { log.stop() }
            let welcome = try await log.next { $0["type"]?.string == "welcome" }
            #expect(welcome["natsConnected"]?.bool == true && welcome["sport"]?.string == "football")

            ws.send(#"{"action":"subscribe","channel":"live-scores"}"#)
            _ = try await log.next { $0["type"]?.string == "subscribed" && $0["channel"]?.string == "live-scores" }
            let snapshot = try await log.next { $0["type"]?.string == "snapshot" && $0["channel"]?.string == "live-scores" }
            let events = snapshot["data"]?["events"]?.array ?? []
            #expect(!events.isEmpty && events.allSatisfy { $0["homeTeam"]?["name"]?.string != nil })

            // A soccer match with goals: its incidents channel gets a snapshot, and the poll sends it again.
            let world = await sim.worldNow
            let m = try #require(world.live.first { $0.sport == "soccer" && $0.scoreHome + $0.scoreAway > 0 })
            let channel = "match:\(SportsAPIProV2.matchID(m.serial)):incidents"
            ws.send(#"{"action":"subscribe","channel":"\#(channel)"}"#)
            let first = try await log.next { $0["type"]?.string == "snapshot" && $0["channel"]?.string == channel }
            let ids = first["data"]?["incidents"]?.array?.compactMap { $0["id"]?.int } ?? []
            #expect(!ids.isEmpty)
            let polled = try await log.next { $0["type"]?.string == "update" && $0["channel"]?.string == channel && $0["source"]?.string == "poll" }
            #expect(polled["data"]?["incidents"]?.array?.compactMap { $0["id"]?.int } == ids)

            ws.send(#"{"action":"ping","channel":"live-scores"}"#)
            let pong = try await log.next { $0["type"]?.string == "pong" }
            #expect(pong["channel"]?.string == "live-scores")

            ws.send(#"{"action":"subscribe","channel":"match:99"}"#)
            _ = try await log.next { $0["type"]?.string == "error" && $0["channel"]?.string == "match:99" }
            ws.send(#"{"action":"dance"}"#)
            _ = try await log.next { $0["type"]?.string == "error" && $0["message"]?.string?.contains("dance") == true }

            #expect(await sim.sportsAPIChannels() == [["live-scores", channel]])
            ws.send(#"{"action":"unsubscribe","channel":"\#(channel)"}"#)
            _ = try await log.next { $0["type"]?.string == "unsubscribed" && $0["channel"]?.string == channel }
            #expect(await sim.sportsAPIChannels() == [["live-scores"]])

            // World changes (a goal, a period) are pushed as "nats" updates.
            await sim.tick(60)
            let pushed = try await log.next { $0["type"]?.string == "update" && $0["channel"]?.string == "live-scores" }
            #expect(pushed["source"]?.string == "nats")
            await ws.close()
        }
    }

    @Test("Full time's incident comes after the finished status (a fetch on the change, as the docs' ~300 ms says)",
          .timeLimit(.minutes(2)))
    func fullTimeAfterFinished() async throws {
        try await withSimulator({ $0.secondsPerTick = 60; $0.sportsAPIIncidentsPollInterval = 0 }) { sim, transport in
            let ws = try await WebSocketSession.connect(url: sim.webSocketURL(.sportsapi) + "?x-api-key=\(testKey)", headers: [],
                                                        transport: transport, timeout: 15)
            let log = SocketLog(ws)
            defer { log.stop() }
            _ = try await log.next { $0["type"]?.string == "welcome" }
            // The soccer match nearest its end.
            let m = try #require(await sim.worldNow.live.filter { $0.sport == "soccer" && $0.phase != .ended }.max { $0.elapsed < $1.elapsed })
            let id = SportsAPIProV2.matchID(m.serial)
            for channel in ["match:\(id)", "match:\(id):incidents"] {
                ws.send(#"{"action":"subscribe","channel":"\#(channel)"}"#)
                _ = try await log.next { $0["type"]?.string == "subscribed" && $0["channel"]?.string == channel }
            }
            var ticks = 0
            while await sim.worldNow.match(m.serial)?.phase != .ended, ticks < 150 { await sim.tick(); ticks += 1 }
            #expect(await sim.worldNow.match(m.serial)?.phase == .ended)
            let finished = try await log.next {
                $0["type"]?.string == "update" && $0["channel"]?.string == "match:\(id)" && $0["data"]?["event"]?["status"]?["type"]?.string == "finished"
            }
            let final = try await log.next {
                $0["type"]?.string == "update" && $0["channel"]?.string == "match:\(id):incidents"
                    && $0["data"]?["incidents"]?.array?.first?["text"]?.string == "FT"
            }
            let gap = (final["timestamp"]?.int ?? 0) - (finished["timestamp"]?.int ?? 0)
            #expect(gap >= 250, "full time \(gap) ms after the finished status")
            #expect(finished["source"]?.string == "nats" && final["data"]?["incidents"]?.array?.first?["addedTime"]?.int == 999)
            await ws.close()
        }
    }

    @Test(.timeLimit(.minutes(1))) func v2RefusesABadKey() async throws {
        try await withSimulator { sim, transport in
            for (url, headers) in [(sim.webSocketURL(.sportsapi) + "?x-api-key=wrong", [(String, String)]()),
                                   (sim.webSocketURL(.sportsapi), [])] {
                do {
                    _ = try await WebSocketSession.connect(url: url, headers: headers, transport: transport, timeout: 15)
                    Issue.record("a bad key was accepted")
                } catch TransportError.upgradeRejected(let status) {
                    #expect(status == 401)
                }
            }
            // The key in a header is as good as in the query.
            let ws = try await WebSocketSession.connect(url: sim.webSocketURL(.sportsapi), headers: [("x-api-key", testKey)],
                                                        transport: transport, timeout: 5)
            let log = SocketLog(ws)
            defer { log.stop() }
            _ = try await log.next { $0["type"]?.string == "welcome" }
            await ws.close()
        }
    }

    @Test(.timeLimit(.minutes(1))) func v2WithoutNATSDeliversByPoll() async throws {
        try await withSimulator({ $0.sportsAPINATSConnected = false; $0.sportsAPIIncidentsPollInterval = 0.2 }) { sim, transport in
            let ws = try await WebSocketSession.connect(url: sim.webSocketURL(.sportsapi) + "?x-api-key=\(testKey)",
                                                        headers: [("x-sport", "curling")], transport: transport)
            let log = SocketLog(ws)
            defer { log.stop() }
            let welcome = try await log.next { $0["type"]?.string == "welcome" }
            #expect(welcome["natsConnected"]?.bool == false && welcome["sport"]?.string == "football")
            // An x-sport the docs do not list: an error after welcome, and live-scores stays on football.
            _ = try await log.next { $0["type"]?.string == "error" && $0["message"]?.string?.contains("curling") == true }
            ws.send(#"{"action":"subscribe","channel":"live-scores:basketball"}"#)
            _ = try await log.next { $0["type"]?.string == "snapshot" && $0["channel"]?.string == "live-scores:basketball" }
            await sim.tick(4)
            let update = try await log.next { $0["type"]?.string == "update" }
            #expect(update["source"]?.string == "poll")
            await sim.sportsAPISetNATSConnected(true)
            await sim.tick(4)
            _ = try await log.next { $0["type"]?.string == "update" && $0["source"]?.string == "nats" }
            await ws.close()
        }
    }

    @Test(.timeLimit(.minutes(1))) func v1OverLoopback() async throws {
        try await withSimulator { sim, transport in
            #expect(sim.webSocketURL(.sportsapiV1).hasSuffix("/v1/{sport}/ws"))
            let ws = try await WebSocketSession.connect(url: sim.sportsAPIV1URL(sport: "football") + "?x-api-key=\(testKey)",
                                                        headers: [], transport: transport)
            let log = SocketLog(ws)
            defer { log.stop() }
            let connected = try await log.next { $0["type"]?.string == "connected" }
            #expect(connected["sports"]?.array?.count == 9)
            let all = try await log.next { $0["type"]?.string == "scores" && $0["channel"]?.string == "all" }
            let firstID = try #require(all["updateId"]?.int)
            #expect(all["games"]?.array?.contains { $0["homeCompetitor"]?["score"]?.int == -1 } == true)

            await sim.tick(2)
            let changed = try await log.next { $0["type"]?.string == "scores" && ($0["updateId"]?.int ?? 0) > firstID }
            let changedGames = changed["games"]?.array ?? []
            #expect(!changedGames.isEmpty)

            ws.send(#"{"type":"ping"}"#)
            _ = try await log.next { $0["type"]?.string == "pong" && $0["ts"]?.int != nil }

            let game = try #require(all["games"]?.array?.first?["id"]?.int)
            ws.send(#"{"type":"subscribe","channel":"match:\#(game)"}"#)
            _ = try await log.next { $0["type"]?.string == "match-update" && $0["game"]?["id"]?.int == game }
            #expect(await sim.sportsAPIChannels(.sportsapiV1) == [["all", "match:\(game)"]])

            await sim.sportsAPIV1SendScores(updateID: 7)
            _ = try await log.next { $0["type"]?.string == "scores" && $0["updateId"]?.int == 7 }

            do {
                _ = try await WebSocketSession.connect(url: sim.sportsAPIV1URL(sport: "football") + "?x-api-key=nope",
                                                       headers: [], transport: transport, timeout: 5)
                Issue.record("a bad key was accepted")
            } catch TransportError.upgradeRejected(let status) {
                #expect(status == 401)
            }
            await ws.close()
        }
    }
}

/// Reads a WebSocket in the background, keeping each text frame parsed; `next` waits (bounded) for the first
/// frame not yet taken that matches.
final class SocketLog: @unchecked Sendable {  // `frames` and `taken` are touched under `lock`
    private let lock = NSLock()
    private var frames: [JSONValue] = []
    private var taken = 0
    private var task: Task<Void, Never>?

    init(_ ws: WebSocketSession) {
        task = Task { [weak self] in
            for await event in ws.events {
                guard let bytes = event.bytes, let value = try? JSONParser.parse(bytes: bytes) else { continue }
                self?.append(value)
            }
        }
    }

    private func append(_ value: JSONValue) { lock.withLock { frames.append(value) } }

    /// The first frame after the last one taken that matches (frames before it are passed over).
    func next(timeout: Double = 30, _ matches: (JSONValue) -> Bool) async throws -> JSONValue {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let value = take(matches) { return value }
            if Date() > deadline {
                let seen = lock.withLock { frames.suffix(8) }.map { JSONOutput($0).rendered.prefix(120) }
                throw TimedOut(what: "a matching frame; received \(seen)")
            }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
    }

    private func take(_ matches: (JSONValue) -> Bool) -> JSONValue? {
        lock.withLock {
            guard let found = frames.indices.dropFirst(taken).first(where: { matches(frames[$0]) }) else { return nil }
            taken = found + 1
            return frames[found]
        }
    }

    func stop() { task?.cancel() }
}
