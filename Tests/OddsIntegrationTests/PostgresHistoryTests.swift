import Foundation
import GRDB
import NIOCore
@testable import OddsHistory
import OddsModel
import OddsStore
import OddsTestSupport
import Testing

/// What only a PostgreSQL history does: several collectors on one database, a server that goes away and comes
/// back, day partitions, URLs and their secrets. (The suite over both backends is `HistoryBackendTests`.)
@Suite("History in PostgreSQL", .heavyLane)
struct PostgresHistoryTests {
    typealias B = HistoryBackendTests

    /// A feed of `count` messages in which prices and the score keep changing (and sometimes change back).
    static func feed(_ count: Int) -> [FeedMessage] {
        (0..<count).map { i in
            let home = ["2.10", "2.20", "2.10", "2.30"][i % 4]
            let away = ["3.60", "3.70"][(i / 3) % 2]
            let goals = i / 50
            return B.message(B.event(score: Score(home: goals, away: 0), prices: [home, "3.40", away], id: String(i % 3)), at: Double(i) * 0.4)
        }
    }

    /// `feed(count)` as one match, its selections changing in turn.
    static func oneMatch(_ count: Int) -> [FeedMessage] {
        feed(count).map { m -> FeedMessage in
            guard case .upsert(var e) = m.update else { return m }
            e.id = "100"
            return FeedMessage(provider: .tickodds, receivedAt: m.receivedAt, update: .upsert(e))
        }
    }

    @Test("A big match read in two halves at once, on two connections, reads as it does whole")
    func readInHalves() throws {
        guard let h = try HistoryHarness.make(.postgres), case .postgres(let url) = h.location else { return }
        defer { h.remove() }
        // One match, its selections changing in turn, one of them to a price too wide to pack.
        let messages = Self.oneMatch(240)
        _ = try h.write(messages)
        let writer = try History.open(h.location, writing: true)
        _ = try writer.write(B.batch(at: 200, [("full_time_result:full_game", "draw", "3000000000", Rational(3_000_000_000, 1), false)]))
        writer.close()
        let whole = try PostgresHistory(url: url, writing: false)
        let halves = try PostgresHistory(url: url, writing: false)
        defer { whole.close(); halves.close() }
        halves.splitRows = 1
        // One row waiting at most on each connection: the halves are read in turn all the same.
        halves.rowsAhead = 1
        let sources = try whole.matches(MatchQuery())
        let t = try whole.timeline(of: sources, filter: TimelineFilter())
        for recent in [0, 5] {
            let a = try whole.summary(of: sources, filter: TimelineFilter(), recent: recent)
            let b = try halves.summary(of: sources, filter: TimelineFilter(), recent: recent)
            #expect(b == a && b.lines == HistoryReport.lines(t) && b.around == HistoryReport.aroundIncidents(t))
            #expect(b.lines.count == 3 && b.lines.contains { $0.high.text == "3000000000" })
        }
        // A role the server lets have one connection: the second is refused, and the match is read whole on the one.
        let server = try #require(try PostgresTestServer.shared())
        let role = "one_\(UInt32.random(in: 0...UInt32.max))"
        let database = String(url.split(separator: "/").last!)
        _ = try server.psql("CREATE ROLE \(role) LOGIN PASSWORD 'pw' CONNECTION LIMIT 1; GRANT ALL ON DATABASE \(database) TO \(role)")
        _ = try server.psql("GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(role)", database: database)
        let limited = try PostgresHistory(url: "postgres://\(role):pw@127.0.0.1:\(server.port)/\(database)", writing: false)
        defer { limited.close() }
        limited.splitRows = 1
        #expect(try limited.summary(of: sources, filter: TimelineFilter(), recent: 5) == whole.summary(of: sources, filter: TimelineFilter(), recent: 5))
    }

    @Test("A slow reader holds the server back, a few rows waiting; one that stops part way leaves the connection free")
    func slowReader() throws {
        guard let h = try HistoryHarness.make(.postgres), case .postgres(let url) = h.location else { return }
        defer { h.remove() }
        let messages = Self.oneMatch(2400)
        _ = try h.write(messages)
        let reader = try PostgresHistory(url: url, writing: false)
        defer { reader.close() }
        reader.rowsAhead = 8
        let sources = try reader.matches(MatchQuery())
        let whole = try reader.timeline(of: sources, filter: TimelineFilter())
        try #require(whole.prices.count > 1000)
        // The reader stops at its first price for longer than the server takes to send them all: the rows that wait
        // for it are the few the hand-over takes, the rest held back (by PostgresNIO's buffer, TCP and the server).
        var read: [StoredPrice] = []
        try reader.timeline(of: sources, filter: TimelineFilter(), head: { _ in }, prices: { p in
            if read.isEmpty { Thread.sleep(forTimeInterval: 0.5) }
            read.append(p)
        })
        #expect(read == whole.prices)
        #expect(reader.mostRowsHeld > 0 && reader.mostRowsHeld <= 8, "\(reader.mostRowsHeld) rows waited")
        // A reader that throws part way: the error is said, and the same connection reads the next query whole.
        struct Enough: Error {}
        var seen = 0
        #expect(throws: (any Error).self) {
            try reader.timeline(of: sources, filter: TimelineFilter(), head: { _ in }, prices: { _ in
                seen += 1
                if seen == 20 { throw Enough() }
            })
        }
        #expect(seen == 20)
        #expect(try reader.timeline(of: sources, filter: TimelineFilter()) == whole)
    }

    @Test("Two collectors on one feed and one database store each change once, whoever writes first")
    func twoCollectors() throws {
        guard let server = try PostgresTestServer.shared() else { return }
        let messages = Self.feed(300)
        // What one collector stores alone.
        let alone = HistoryLocation.postgres(url: try server.createDatabase())
        try Self.write(messages, to: [alone], lag: [0])
        // Two, the second seeing each message 5 ms later, both writing as they go.
        let shared = HistoryLocation.postgres(url: try server.createDatabase())
        try Self.write(messages, to: [shared, shared], lag: [0, 0.005])
        let expected = try Self.read(alone)
        let got = try Self.read(shared)
        #expect(expected.prices.count > 100 && expected.scores.count > 3)
        #expect(got.prices.count == expected.prices.count, "\(got.prices.count) prices against \(expected.prices.count)")
        #expect(got.scores.count == expected.scores.count)
        // The same changes, in the same order (the times may be either collector's).
        let sameChanges = got.prices.map { "\($0.source.eventID) \($0.selectionID) \($0.text ?? "-")" }
            == expected.prices.map { "\($0.source.eventID) \($0.selectionID) \($0.text ?? "-")" }
        #expect(sameChanges)
    }

    @Test("A collector far behind another (which stored later changes meanwhile) stores nothing twice in any later turn")
    func behindAnother() throws {
        guard let server = try PostgresTestServer.shared() else { return }
        let messages = Self.feed(300)
        let alone = HistoryLocation.postgres(url: try server.createDatabase())
        try Self.write(messages, to: [alone], lag: [0])
        let shared = HistoryLocation.postgres(url: try server.createDatabase())
        // The slow one meets the matches first, then the fast one stores the whole feed, then the slow one goes
        // on, in many small turns.
        let slow = HistoryWriter(backend: try History.open(shared, writing: true), capacity: 30, retentionDays: nil, lossless: true) { _ in }
        var store = LiveStore()
        func feed(_ part: ArraySlice<FeedMessage>) {
            for m in part {
                store.apply(m)
                slow.record(m, in: store)
            }
        }
        feed(messages[0..<10])
        try waitUntil("the slow writer's first turn", { slow.counts.batches >= 1 })
        try Self.write(messages, to: [shared], lag: [0])
        feed(messages[10...])
        let counts = slow.finish()
        #expect(counts.batches > 5)
        #expect(try Self.read(shared).prices.count == (try Self.read(alone).prices.count))
        #expect(try Self.read(shared).scores.count == (try Self.read(alone).scores.count))
    }

    /// Writes `messages` through one writer per location, each seeing a message `lag` seconds after the first,
    /// a message a millisecond so that their batches interleave.
    static func write(_ messages: [FeedMessage], to locations: [HistoryLocation], lag: [Double]) throws {
        let writers = try locations.map { HistoryWriter(backend: try History.open($0, writing: true), retentionDays: nil) { _ in } }
        var stores = locations.map { _ in LiveStore() }
        for m in messages {
            for i in writers.indices {
                var seen = m
                seen.receivedAt = m.receivedAt.addingTimeInterval(lag[i])
                stores[i].apply(seen)
                writers[i].record(seen, in: stores[i])
            }
            usleep(1_000)
        }
        for w in writers { w.finish() }
    }

    static func read(_ location: HistoryLocation) throws -> Timeline {
        let h = try History.open(location, writing: false)
        defer { h.close() }
        return try h.timeline(of: try h.matches(MatchQuery()), filter: TimelineFilter())
    }

    @Test("The server restarted: one warning, the live path goes on, the loss is counted; writing resumes with no duplicate")
    func serverRestarted() throws {
        guard try PostgresTestServer.shared() != nil else { return }
        // A server of its own: stopping the shared one would fail other tests.
        let server = try PostgresTestServer(tls: false)
        defer { server.shutdown() }
        let url = try server.createDatabase()
        // It offers no TLS: a URL that requires it is one sentence.
        do {
            _ = try History.open(.postgres(url: url + "?sslmode=require"), writing: true)
            Issue.record("sslmode=require opened a server without TLS")
        } catch let e as OddsError {
            #expect(e.message.contains("does not offer TLS"), "\(e.message)")
        }
        let location = HistoryLocation.postgres(url: url)
        let live = LiveWriter(try History.open(location, writing: true))
        let (writer, warnings, send) = (live.writer, live.warnings, live.send)
        send(B.event(id: "1"), 0)
        try waitUntil("the first batch", { writer.counts.written == 4 })
        server.stop()
        send(B.event(prices: ["2.00", "3.40", "3.60"], id: "1"), 10)
        try waitUntil("the warning", { !warnings.all.isEmpty })
        #expect(warnings.all.count == 1 && warnings.all[0].contains("live view goes on"), "\(warnings.all)")
        // The live path is not held up while the database is away.
        let started = Date()
        for i in 0..<50 { send(B.event(prices: ["2.0\(i % 10)", "3.40", "3.60"], id: "1"), 11 + Double(i)) }
        #expect(Date().timeIntervalSince(started) < 1)
        try waitUntil("the changes meanwhile lost", { writer.counts.lost > 1 })
        #expect(warnings.all.count == 1)
        try server.start()
        send(B.event(prices: ["1.90", "3.40", "3.60"], id: "1"), 100)
        send(B.event(prices: ["1.90", "3.40", "3.60"], id: "1"), 101)
        try waitUntil("writing again", { warnings.all.count == 2 })
        let counts = writer.finish()
        #expect(counts.lost > 1)
        #expect(warnings.all[0].contains("refused"))
        #expect(warnings.all[1].contains("again") && !warnings.all.joined().contains(server.password), "\(warnings.all)")
        let t = try Self.read(location)
        // Before the outage three prices; after it the one change, once; the score once.
        #expect(t.prices.map(\.text) == ["2.10", "3.40", "3.60", "1.90"], "\(t.prices.map(\.text))")
        #expect(t.scores.count == 1)
    }

    @Test("Price changes live in day partitions; retention drops whole days")
    func partitions() throws {
        guard let server = try PostgresTestServer.shared() else { return }
        let url = try server.createDatabase()
        let database = String(url.split(separator: "/").last!)
        let day = 86_400.0
        try Self.write([B.message(B.event(id: "a"), at: 0), B.message(B.event(id: "b"), at: day), B.message(B.event(id: "c"), at: 2 * day)],
                       to: [.postgres(url: url)], lag: [0])
        let partitions = "SELECT string_agg(c.relname, ',' ORDER BY c.relname) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'price_change'::regclass"
        let names = try server.psql(partitions, database: database).split(separator: ",")
        #expect(names.count == 3 && names.allSatisfy { $0.hasPrefix("price_change_20") }, "\(names)")
        #expect(try server.psql("SELECT count(*) FROM pg_indexes WHERE indexdef LIKE '%USING brin (received_at)%' AND tablename LIKE 'price_change%'",
                                database: database) == "4")
        let history = try History.open(.postgres(url: url), writing: true)
        // An hour into the third day (which starts 8 hours before t0 + 2 days): the first two days go, the third
        // stays whole.
        let dropped = try history.prune(before: B.t0.addingTimeInterval(2 * day - 7 * 3600))
        history.close()
        #expect(dropped == 8)  // six prices in two partitions, two scores
        #expect(try server.psql(partitions, database: database).split(separator: ",").count == 1)
        #expect(try Self.read(.postgres(url: url)).prices.count == 3)
    }

    @Test("A URL's password is never shown; a bad password, a closed port, a missing TLS, a bad parameter: one sentence each")
    func urls() throws {
        guard let server = try PostgresTestServer.shared() else { return }
        let good = try server.createDatabase()
        #expect(!HistoryLocation.postgres(url: good).description.contains(server.password))
        let cases: [(String, String)] = [
            (good.replacingOccurrences(of: server.password, with: "wrong-secret"), "password authentication failed"),
            ("postgres://odds:wrong-secret@127.0.0.1:1/x", "Cannot connect"),
            // The server's certificate is its own: checked against the system's roots, it is refused.
            (good + "?sslmode=verify-full", "certificate"),
            (good + "?sslmode=sometimes", "sslmode"),
            (good + "?colour=blue", "colour"),
        ]
        for (url, expected) in cases {
            do {
                _ = try History.open(.postgres(url: url), writing: true)
                Issue.record("\(url) opened")
            } catch let e as OddsError {
                #expect(e.exitCode == 9 && e.message.contains(expected), "\(e.message)")
                #expect(!e.message.contains("wrong-secret") && !e.message.contains(server.password), "\(e.message)")
                #expect(!e.message.contains("\n"))
            }
        }
        // TLS: required, and verified against the server's own certificate as the trusted root.
        if let certificate = server.certificate {
            for mode in ["require", "verify-ca&sslrootcert=\(certificate)", "verify-full&sslrootcert=\(certificate)"] {
                let h = try History.open(.postgres(url: good + "?sslmode=" + mode), writing: true)
                h.close()
            }
        } else if PostgresTestServer.required {
            Issue.record("the test server offers no TLS (no openssl to make its certificate)")
        }
        // The password may come from PGPASSWORD instead of the URL.
        let bare = try PostgresURL(server.url(database: "x", withPassword: false), environment: ["PGPASSWORD": "from-env"])
        #expect(bare.password == "from-env" && bare.user == "odds" && bare.database == "x" && bare.tls == .prefer)
        let socket = try PostgresURL("postgresql:///desk?host=/run/postgresql&port=5433&sslmode=disable", environment: ["USER": "ann"])
        #expect(socket.socketPath == "/run/postgresql/.s.PGSQL.5433" && socket.user == "ann" && socket.database == "desk" && socket.tls == .disable)
        let encoded = try PostgresURL("postgres://a%40b:p%2Fw@[::1]:6543/db", environment: [:])
        #expect(encoded.user == "a@b" && encoded.password == "p/w" && encoded.host == "::1" && encoded.port == 6543)
    }

    @Test("A history of schema version 1 is migrated forward on open: its last prices filled in, its index carrying prices", arguments: HistoryHarness.Kind.allCases)
    func migratesForward(_ kind: HistoryHarness.Kind) throws {
        guard let h = try HistoryHarness.make(kind) else { return }
        defer { h.remove() }
        let t = 1_800_000_000_000 as Int64
        let rows = [
            "INSERT INTO source (provider, event_id, sport, home, away, first_seen, last_seen, price_changes) VALUES ('tickodds', '100', 'soccer', 'Arsenal', 'Chelsea', \(t), \(t + 2000), 2)",
            "INSERT INTO selection (source_id, book, market_id, line, selection_key, market_name, selection_name) VALUES (1, 'tickodds', 'full_time_result:full_game', '', 'home', 'Fulltime Result', 'Arsenal')",
            "INSERT INTO price_change (selection_id, received_at, price_text, odds_num, odds_den, suspended) VALUES (1, \(t), '2.10', 21, 10, \(kind == .sqlite ? "0" : "false"))",
            "INSERT INTO price_change (selection_id, received_at, price_text, odds_num, odds_den, suspended) VALUES (1, \(t + 1000), '2.05', 41, 20, \(kind == .sqlite ? "0" : "false"))",
        ]
        switch h.location {
        case .sqlite(let path):
            let db = try DatabaseQueue(path: path)
            try db.write { db in
                for sql in HistorySchema.sqlite(1) + rows { try db.execute(sql: sql) }
                try db.execute(sql: "PRAGMA user_version = 1")
            }
            try db.close()
        case .postgres(let url):
            let server = try #require(try PostgresTestServer.shared())
            let database = String(url.split(separator: "/").last!)
            let day = t / 86_400_000 * 86_400_000
            let setup = ["CREATE TABLE history_meta (key text PRIMARY KEY, value text NOT NULL)", "INSERT INTO history_meta VALUES ('schema_version', '1')"]
                + HistorySchema.postgres(1)
                + ["CREATE TABLE price_change_old PARTITION OF price_change FOR VALUES FROM (\(day)) TO (\(day + 86_400_000))"] + rows
            try server.psql(setup.joined(separator: ";\n"), database: database)
        }
        // Read first (as history show would, before any writer opened it): migrated forward, then read.
        try h.read { (history) throws in
            #expect(try history.stats().schemaVersion == HistorySchema.version)
            let sources = try history.matches(MatchQuery())
            #expect(try history.timeline(of: sources, filter: TimelineFilter()).prices.map(\.text) == ["2.10", "2.05"])
            let line = try #require(try history.summary(of: sources, filter: TimelineFilter(), recent: 1).lines.first)
            #expect(line.open.text == "2.10" && line.last.text == "2.05" && line.changes == 2)
            #expect(try history.matches(MatchQuery(id: "100")).count == 1 && history.matches(MatchQuery(id: "10")).isEmpty)
            // Version 6 keeps when writers watched; an older history has no such span, and nothing of it reads as a gap.
            #expect(try history.watches(of: [.tickodds], during: Date.distantPast...Date.distantFuture).isEmpty)
        }
        if case .sqlite(let path) = h.location {
            // Version 3's index carries the prices (what `history show` reads a match's lines from).
            let db = try DatabaseQueue(path: path)
            #expect(try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM pragma_index_info('price_change_selection_time')") } == 5)
            try db.close()
        }
        // Version 5 fills in each selection's first change, which bounds a reader's span.
        let first: Int64? = switch h.location {
        case .sqlite(let path): try DatabaseQueue(path: path).read { try Int64.fetchOne($0, sql: "SELECT first_at FROM selection") }
        case .postgres(let url):
            Int64(try #require(try PostgresTestServer.shared()).psql("SELECT first_at FROM selection", database: String(url.split(separator: "/").last!))
                .trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(first == t)
        let history = try History.open(h.location, writing: true)
        defer { history.close() }
        let known = try history.known(SourceKey(provider: .tickodds, eventID: "100"))
        #expect(known.prices.values.map(\.text) == ["2.05"])
    }
}

@Suite("PostgreSQL arrays read back")
struct PostgresArrayReaderTests {
    /// The binary array format, written by hand: one dimension, element type, length and lower bound, then each element.
    static func array(_ elements: [Int64?], type: UInt32 = 20) -> ByteBuffer {
        var b = ByteBuffer()
        b.writeInteger(1, as: Int32.self)
        b.writeInteger(elements.contains { $0 == nil } ? 1 : 0, as: Int32.self)
        b.writeInteger(type)
        b.writeInteger(Int32(elements.count))
        b.writeInteger(1, as: Int32.self)
        for e in elements {
            if let e { b.writeInteger(8, as: Int32.self); b.writeInteger(e) } else { b.writeInteger(-1, as: Int32.self) }
        }
        return b
    }

    @Test("bigint[] and boolean[] with NULLs; an empty array; anything cut short or of another shape is refused, never read past")
    func reads() throws {
        #expect(try PostgresArrayReader.ints(Self.array([1, nil, -5, Int64.max])) == [1, nil, -5, Int64.max])
        var empty = ByteBuffer()
        empty.writeInteger(0, as: Int32.self); empty.writeInteger(0, as: Int32.self); empty.writeInteger(20, as: UInt32.self)
        #expect(try PostgresArrayReader.ints(empty) == [])
        var bools = ByteBuffer()
        for v in [1, 1, 16] as [Int32] { bools.writeInteger(v) }
        bools.writeInteger(3, as: Int32.self); bools.writeInteger(1, as: Int32.self)
        for v in [1, 0] as [UInt8] { bools.writeInteger(1, as: Int32.self); bools.writeInteger(v) }
        bools.writeInteger(-1, as: Int32.self)
        #expect(try PostgresArrayReader.bools(bools) == [true, false, nil])
        let whole = Self.array([7, 8, 9])
        for cut in 0..<whole.readableBytes {
            let short = whole.getSlice(at: whole.readerIndex, length: cut)!
            #expect(throws: PostgresArrayReader.Malformed.self) { try PostgresArrayReader.ints(short) }
        }
        // A 4-byte element where 8 were meant, a 9-byte one, two dimensions, a NULL cell: refused.
        var wide = ByteBuffer()
        for v in [1, 0, 20, 1, 1, 9] as [Int32] { wide.writeInteger(v) }
        wide.writeInteger(Int64(1)); wide.writeInteger(UInt8(0))
        #expect(throws: PostgresArrayReader.Malformed.self) { try PostgresArrayReader.ints(wide) }
        var narrow = ByteBuffer()
        for v in [1, 0, 23, 1, 1, 4, 5] as [Int32] { narrow.writeInteger(v) }
        #expect(throws: PostgresArrayReader.Malformed.self) { try PostgresArrayReader.ints(narrow) }
        var square = ByteBuffer()
        for v in [2, 0, 20, 1, 1, 1, 1] as [Int32] { square.writeInteger(v) }
        #expect(throws: PostgresArrayReader.Malformed.self) { try PostgresArrayReader.ints(square) }
        #expect(throws: PostgresArrayReader.Malformed.self) { try PostgresArrayReader.ints(nil) }
    }
}

