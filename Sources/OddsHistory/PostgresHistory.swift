import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import OddsModel
import PostgresNIO

/// A history in a PostgreSQL database, through postgres-nio: for a desk, where one collector (or two, for
/// safety) writes and everyone reads. A batch is one transaction of a few statements, each binding a whole
/// column of rows as one array (no statement a row, and no provider text in SQL). Price changes are partitioned
/// by day; retention drops whole days. Writers take turns on an advisory lock, and each checks its rows against
/// each selection's last stored price and each match's last score, storing only what is newer and different, so
/// two collectors on one feed store each change once.
final class PostgresHistory: HistoryBackend {
    let location: HistoryLocation
    private let url: PostgresURL
    private let logger = Logger(label: "odds.history.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    private var connection: PostgresConnection?
    /// A second connection, for reading a big match in two halves at once.
    private var helper: PostgresConnection?
    /// Price changes from which `history show` reads a match in two halves at once.
    var splitRows = 20_000
    /// The thread that reads queries' rows for the caller (made on first use).
    private var reader: ReaderThread?
    private var sourceIDs: [SourceKey: Int64] = [:]
    private var selectionIDs: [SelectionRef: Int64] = [:]
    /// The rows of the writer's watch spans, by span.
    private var watchIDs: [Int: Int64] = [:]
    /// Days whose price partition exists.
    private var days: Set<Int64> = []

    /// The advisory lock writers take turns on (and migrations hold): "oddshist" as a number.
    static let lockKey: Int64 = 0x6f64_6473_6869_7374
    static let dayMillis: Int64 = 86_400_000

    init(url text: String, writing: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        location = .postgres(url: text)
        url = try PostgresURL(text, environment: environment)
        do {
            if writing { try migrate() } else { try checkVersion() }
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    func close() {
        for c in [connection, helper].compactMap({ $0 }) { _ = try? c.close().wait() }
        connection = nil
        helper = nil
        reader?.stop()
        reader = nil
    }

    // MARK: - Connection

    private func connect() throws -> PostgresConnection { try reuse(&connection) }

    private func connectHelper() throws -> PostgresConnection { try reuse(&helper) }

    /// The connection in `slot` while it is open, else a new one put there.
    private func reuse(_ slot: inout PostgresConnection?) throws -> PostgresConnection {
        if let c = slot, !c.isClosed { return c }
        slot = nil
        let c = try open()
        slot = c
        return c
    }

    private func open() throws -> PostgresConnection {
        var config: PostgresConnection.Configuration
        if let socket = url.socketPath {
            config = .init(unixSocketPath: socket, username: url.user, password: url.password, database: url.database)
        } else {
            config = .init(host: url.host, port: url.port, username: url.user, password: url.password, database: url.database, tls: try tls())
        }
        config.options.connectTimeout = .milliseconds(Int64(url.connectTimeout * 1000))
        do {
            return try PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.next(), configuration: config, id: 1,
                                                  logger: logger).wait()
        } catch {
            throw OddsError.history("Cannot connect to the history at \(location): \(connectionReason(error)).")
        }
    }

    /// Why a connection could not be made, in the words a user acts on.
    private func connectionReason(_ error: Error) -> String {
        let said = String(describing: (error as? PSQLError)?.underlying ?? error)
        let server = url.socketPath ?? "\(url.host):\(url.port)"
        if said.contains("certificate") || said.contains("CERTIFICATE") || said.contains("handshake") {
            return "the server's TLS certificate was not accepted (sslmode=\(url.tls.rawValue)\(url.rootCertificate == nil ? "; name the root that signed it with sslrootcert=FILE" : ""))"
        }
        if (error as? PSQLError)?.code == .connectionError {
            if said.contains("refused") { return "the server at \(server) refused the connection (is it running?)" }
            if said.lowercased().contains("timed out") || said.contains("Timeout") { return "the server at \(server) did not answer in \(Int(url.connectTimeout)) s" }
            if said.contains("No such file") { return "there is no server socket at \(server)" }
            if said.contains("resolve") || said.contains("not known") { return "the host \(url.host) is unknown" }
            return "cannot reach the server at \(server)"
        }
        return PostgresHistory.reason(error)
    }

    private func tls() throws -> PostgresConnection.Configuration.TLS {
        var config = TLSConfiguration.makeClientConfiguration()
        switch url.tls {
        case .disable: return .disable
        case .prefer, .require: config.certificateVerification = .none
        case .verifyCA: config.certificateVerification = .noHostnameVerification
        case .verifyFull: config.certificateVerification = .fullVerification
        }
        if let root = url.rootCertificate { config.trustRoots = .file(root) }
        do {
            let context = try NIOSSLContext(configuration: config)
            return url.tls == .prefer ? .prefer(context) : .require(context)
        } catch {
            throw OddsError.history("Cannot set up TLS for the history at \(location): \(error).")
        }
    }

    @discardableResult
    private func run(_ sql: String, _ values: [PostgresValue] = []) throws -> [PostgresCells] {
        try connect().query(.bound(sql, values), logger: logger).wait().rows.map(PostgresCells.init)
    }

    /// A query under way, its rows handed over as they arrive.
    private struct Streaming {
        let handoff: PostgresRowHandoff
        unowned let history: PostgresHistory

        /// Hands each row to `each` on this thread as it arrives (while the server sends the rest).
        func rows(_ each: (PostgresCells) throws -> Void) throws {
            defer { history.mostRowsHeld = max(history.mostRowsHeld, handoff.mostHeld) }
            do {
                while let rows = try handoff.next() {
                    for row in rows { try each(PostgresCells(row)) }
                }
            } catch {
                handoff.stop()
                throw error
            }
        }

        /// Reads no more of it, and returns once the reading has stopped.
        func abandon() { handoff.stop() }
    }

    /// Rows that may wait for the reader of a query, at most.
    var rowsAhead = 4096

    /// The most rows that waited for a reader at once, over the queries read so far.
    private(set) var mostRowsHeld = 0

    private func start(_ sql: String, _ values: [PostgresValue], on connection: PostgresConnection) -> Streaming {
        let handoff = PostgresRowHandoff(capacity: rowsAhead)
        let query = PostgresQuery.bound(sql, values)
        let logger = self.logger
        Task(executorPreference: readerThread()) {
            do {
                for try await row in try await connection.query(query, logger: logger) {
                    guard await handoff.push(row) else { break }
                }
                handoff.finish(.success(()))
            } catch {
                handoff.finish(.failure(error))
            }
        }
        return Streaming(handoff: handoff, history: self)
    }

    private func readerThread() -> ReaderThread {
        if let reader { return reader }
        let made = ReaderThread(name: "odds-history-rows")
        reader = made
        return made
    }

    private func transaction<T>(_ body: () throws -> T) throws -> T {
        try run("BEGIN")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            _ = try? run("ROLLBACK")
            throw error
        }
    }

    /// One sentence on what went wrong, from the server's own message where it sent one; never a credential.
    static func reason(_ error: Error) -> String {
        if let e = error as? OddsError { return e.message }
        guard let e = error as? PSQLError else { return String(describing: error) }
        if let message = e.serverInfo?[.message] { return message }
        switch e.code {
        case .sslUnsupported: return "the server does not offer TLS, which the URL's sslmode asks for"
        case .authMechanismRequiresPassword: return "the server asks for a password and the URL (or PGPASSWORD) gives none"
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown: return "the connection to the server was lost"
        case .connectionError:
            if let io = e.underlying { return "\(io)".replacingOccurrences(of: "\n", with: " ") }
            return "no connection"
        default: return e.code.description
        }
    }

    // MARK: - Schema

    private func migrate() throws {
        do {
            try transaction {
                try run("SELECT pg_advisory_xact_lock($1)", [.int(Self.lockKey)])
                try run("CREATE TABLE IF NOT EXISTS history_meta (key text PRIMARY KEY, value text NOT NULL)")
                let current = try storedVersion()
                if current > HistorySchema.version {
                    throw OddsError.history("The history at \(location) has schema version \(current), newer than this odds reads (\(HistorySchema.version)): update odds.")
                }
                guard current < HistorySchema.version else { return }
                for version in (current + 1)...HistorySchema.version {
                    for sql in HistorySchema.postgres(version) { try run(sql) }
                }
                try run("""
                    INSERT INTO history_meta (key, value) VALUES ('schema_version', $1)
                    ON CONFLICT (key) DO UPDATE SET value = excluded.value
                    """, [.text(String(HistorySchema.version))])
            }
        } catch let e as OddsError {
            throw e
        } catch {
            throw OddsError.history("Cannot prepare the history at \(location): \(PostgresHistory.reason(error)).")
        }
    }

    private func storedVersion() throws -> Int {
        let rows = try run("SELECT value FROM history_meta WHERE key = 'schema_version'")
        return try rows.first.flatMap { Int(try $0.text(0)) } ?? 0
    }

    private func checkVersion() throws {
        let current: Int
        do {
            let exists = try run("SELECT to_regclass('history_meta') IS NOT NULL")
            current = try exists.first?.bool(0) == true ? try storedVersion() : 0
        } catch let e as OddsError {
            throw e
        } catch {
            throw OddsError.history("Cannot read the history at \(location): \(PostgresHistory.reason(error)).")
        }
        if current > HistorySchema.version {
            throw OddsError.history("The history at \(location) has schema version \(current), newer than this odds reads (\(HistorySchema.version)): update odds.")
        }
        if current == 0 {
            throw OddsError.history("There is no history in \(location) yet: run a stream, the dashboard or `odds history collect` with --history first.")
        }
        if current < HistorySchema.version { throw OlderSchema() }
    }

    // MARK: - Writing

    func write(_ batch: HistoryBatch) throws -> Int {
        do {
            return try transaction { try writeTurn(batch) }
        } catch {
            // The transaction rolled back: ids and partitions made in it are gone.
            sourceIDs = [:]
            selectionIDs = [:]
            watchIDs = [:]
            days = []
            if let e = error as? OddsError { throw e }
            throw OddsError.history("Cannot write the history at \(location): \(PostgresHistory.reason(error)).")
        }
    }

    /// One writer's turn, inside its transaction.
    private func writeTurn(_ batch: HistoryBatch) throws -> Int {
        // Writers take turns; each checks its rows against what is stored, since another may have stored the same
        // changes (or later ones) in any turn before this one.
        try run("SELECT pg_advisory_xact_lock($1)", [.int(Self.lockKey)])
        try writeSources(batch)
        var written = 0
        written += try writePrices(batch.prices)
        written += try writeScores(batch.scores)

        if !batch.incidents.isEmpty {
            let rows = batch.incidents
            let i = rows.map(\.incident)
            let inserted = try run("""
                INSERT INTO incident (source_id, received_at, identity, kind, minute, added_time, side, player, assist, player_out,
                    reason, detail, score_home, score_away, rescinded, provider_at)
                SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::text[],
                    $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::bigint[], $14::bigint[], $15::boolean[],
                    $16::bigint[])
                ON CONFLICT (source_id, identity) DO NOTHING
                RETURNING 1
                """, [.ints(try rows.map { try sourceID($0.source) }), .ints(rows.map { $0.receivedAt.historyMillis }),
                      .texts(rows.map(\.identity)), .texts(i.map(\.kind.rawValue)), .ints(i.map { $0.minute.map(Int64.init) }),
                      .ints(i.map { $0.addedTime.map(Int64.init) }), .texts(i.map { $0.team?.rawValue }), .texts(i.map(\.player)),
                      .texts(i.map(\.assist)), .texts(i.map(\.playerOut)), .texts(i.map(\.reason)), .texts(i.map(\.detail)),
                      .ints(i.map { $0.score.map { Int64($0.home) } }), .ints(i.map { $0.score.map { Int64($0.away) } }),
                      .bools(i.map(\.rescinded)), .ints(rows.map { $0.providerAt?.historyMillis })])
            written += inserted.count
        }
        if !batch.members.isEmpty {
            let rows = batch.members
            let inserted = try run("""
                INSERT INTO match_member (match_key, source_id, reason, joined_at)
                SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[])
                ON CONFLICT (match_key, source_id) DO NOTHING
                RETURNING 1
                """, [.texts(rows.map(\.matchKey)), .ints(try rows.map { try sourceID($0.source) }), .texts(rows.map(\.reason)),
                      .ints(rows.map { $0.at.historyMillis })])
            written += inserted.count
        }
        try writeWatches(batch.watches)
        return written
    }

    private func writeWatches(_ rows: [WatchRow]) throws {
        for row in rows {
            let w = row.watched
            if let id = watchIDs[row.span] {
                try run("UPDATE watch SET ended_at = greatest(ended_at, $1) WHERE id = $2", [.int(w.to.historyMillis), .int(id)])
            } else if let id = try run("INSERT INTO watch (provider, started_at, ended_at) VALUES ($1, $2, $3) RETURNING id",
                                       [.text(w.provider.rawValue), .int(w.from.historyMillis), .int(w.to.historyMillis)]).first?.int(0) {
                watchIDs[row.span] = id
            }
        }
    }

    private func writeSources(_ batch: HistoryBatch) throws {
        guard !batch.sources.isEmpty else { return }
        let rows = Array(batch.sources.values)
        let returned = try run("""
            INSERT INTO source (provider, event_id, sport, league, home, away, start_time, first_seen, last_seen, demo)
            SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::bigint[],
                                 $9::bigint[], $10::boolean[])
            ON CONFLICT (provider, event_id) DO UPDATE SET sport = excluded.sport, league = excluded.league, home = excluded.home,
                away = excluded.away, start_time = coalesce(excluded.start_time, source.start_time),
                last_seen = greatest(source.last_seen, excluded.last_seen)
            RETURNING id, provider, event_id
            """, [.texts(rows.map(\.key.provider.rawValue)), .texts(rows.map(\.key.eventID)), .texts(rows.map(\.sport)),
                  .texts(rows.map(\.league)), .texts(rows.map(\.home)), .texts(rows.map(\.away)),
                  .ints(rows.map { $0.startTime?.historyMillis }), .ints(rows.map { $0.firstSeenAt.historyMillis }),
                  .ints(rows.map { $0.seenAt.historyMillis }), .bools(rows.map(\.demo))])
        let byName = Dictionary(rows.map { ("\($0.key.provider.rawValue)\u{0}\($0.key.eventID)", $0.key) }, uniquingKeysWith: { a, _ in a })
        for r in returned {
            if let key = byName["\(try r.text(1))\u{0}\(try r.text(2))"] { sourceIDs[key] = try r.int(0) }
        }
    }

    /// What is stored last of a selection, as the writer compares with it.
    private struct Last {
        var at: Int64
        var text: String?
        var suspended: Bool
    }

    private func writePrices(_ prices: [PriceRow]) throws -> Int {
        guard !prices.isEmpty else { return 0 }
        try addPartitions(for: prices)

        // Selections new to this writer are made (or found) and their last stored prices read back; the known
        // ones' last prices are read back too.
        var refs: [SelectionRef] = []
        var names: [SelectionRef: (market: String, selection: String)] = [:]
        for p in prices where names[p.ref] == nil {
            names[p.ref] = (p.marketName, p.selectionName)
            refs.append(p.ref)
        }
        var stored: [Int64: Last] = [:]
        let known = refs.compactMap { selectionIDs[$0] }
        let fresh = refs.filter { selectionIDs[$0] == nil }
        if !fresh.isEmpty {
            let sourceIDs = try fresh.map { try sourceID($0.source) }
            var byKey: [String: SelectionRef] = [:]
            for (ref, id) in zip(fresh, sourceIDs) { byKey[Self.selectionKey(id, ref.book, ref.marketID, ref.line, ref.selectionID)] = ref }
            for r in try run("""
                INSERT INTO selection (source_id, book, market_id, line, selection_key, market_name, selection_name)
                SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
                ON CONFLICT (source_id, book, market_id, line, selection_key) DO UPDATE SET market_name = excluded.market_name,
                    selection_name = excluded.selection_name
                RETURNING id, source_id, book, market_id, line, selection_key, last_at, last_text, last_suspended
                """, [.ints(sourceIDs), .texts(fresh.map(\.book)), .texts(fresh.map(\.marketID)), .texts(fresh.map(\.line)),
                      .texts(fresh.map(\.selectionID)), .texts(fresh.map { names[$0]?.market }),
                      .texts(fresh.map { names[$0]?.selection })]) {
                let key = Self.selectionKey(try r.int(1), try r.text(2), try r.text(3), try r.text(4), try r.text(5))
                guard let ref = byKey[key] else { continue }
                let id = try r.int(0)
                if selectionIDs.count > 1_000_000 { selectionIDs = [:] }
                selectionIDs[ref] = id
                if let at = try r.optionalInt(6) {
                    stored[id] = Last(at: at, text: try r.optionalText(7), suspended: try r.optionalBool(8) ?? false)
                }
            }
        }
        if !known.isEmpty {
            for r in try run("SELECT id, last_at, last_text, last_suspended FROM selection WHERE id = ANY($1::bigint[]) AND last_at IS NOT NULL",
                             [.ints(known)]) {
                stored[try r.int(0)] = Last(at: try r.int(1), text: try r.optionalText(2), suspended: try r.optionalBool(3) ?? false)
            }
        }

        // Rows stored already (by another writer, as new or newer) are not stored again: older than a selection's
        // last stored change, or at its very millisecond and stored there; a change that says what the one before
        // it said is none.
        let boundary = try pricesStored(at: prices.compactMap { p -> (Int64, Int64)? in
            guard let id = selectionIDs[p.ref], let s = stored[id], p.receivedAt.historyMillis == s.at else { return nil }
            return (id, s.at)
        })
        var rows: [(id: Int64, row: PriceRow)] = []
        rows.reserveCapacity(prices.count)
        var latest: [Int64: Last] = [:]
        var first: [Int64: Int64] = [:]
        for p in prices {
            guard let id = selectionIDs[p.ref] else { continue }
            let at = p.receivedAt.historyMillis
            if let s = stored[id] {
                if at < s.at { continue }
                if at == s.at, boundary.contains(PriceAt(id: id, at: at, text: p.text, suspended: p.suspended)) { continue }
            }
            if let before = latest[id] ?? stored[id], before.text == p.text, before.suspended == p.suspended { continue }
            rows.append((id, p))
            latest[id] = Last(at: at, text: p.text, suspended: p.suspended)
            first[id] = min(first[id] ?? .max, at)
        }
        guard !rows.isEmpty else { return 0 }
        try run("""
            INSERT INTO price_change (selection_id, received_at, provider_at, price_text, odds_num, odds_den, suspended)
            SELECT s, r, p, t, n, d, x FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::bigint[], $6::bigint[],
                                               $7::boolean[]) WITH ORDINALITY AS v(s, r, p, t, n, d, x, o)
            ORDER BY o
            """, [.ints(rows.map(\.id)), .ints(rows.map { $0.row.receivedAt.historyMillis }), .ints(rows.map { $0.row.providerAt?.historyMillis }),
                  .texts(rows.map(\.row.text)), .ints(rows.map { $0.row.odds?.numerator }), .ints(rows.map { $0.row.odds?.denominator }),
                  .bools(rows.map(\.row.suspended))])

        let ids = Array(latest.keys)
        try run("""
            UPDATE selection s SET first_at = least(s.first_at, v.f), last_at = v.a, last_text = v.t, last_suspended = v.x
            FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::boolean[], $5::bigint[]) AS v(id, a, t, x, f) WHERE s.id = v.id
            """, [.ints(ids), .ints(ids.map { latest[$0]?.at }), .texts(ids.map { latest[$0]?.text }), .bools(ids.map { latest[$0]?.suspended }),
                  .ints(ids.map { first[$0] })])
        var perSource: [Int64: Int64] = [:]
        for r in rows { perSource[try sourceID(r.row.ref.source), default: 0] += 1 }
        let sources = Array(perSource.keys)
        try run("""
            UPDATE source o SET price_changes = o.price_changes + v.n FROM unnest($1::bigint[], $2::bigint[]) AS v(id, n) WHERE o.id = v.id
            """, [.ints(sources), .ints(sources.map { perSource[$0] })])
        return rows.count
    }

    /// A stored price change as the writer compares with it.
    private struct PriceAt: Hashable {
        var id: Int64
        var at: Int64
        var text: String?
        var suspended: Bool
    }

    /// The price changes stored at exactly these selections' millisecond (their last stored one).
    private func pricesStored(at keys: [(Int64, Int64)]) throws -> Set<PriceAt> {
        guard !keys.isEmpty else { return [] }
        var out = Set<PriceAt>()
        for r in try run("""
            SELECT p.selection_id, p.received_at, p.price_text, p.suspended FROM price_change p
            JOIN unnest($1::bigint[], $2::bigint[]) AS v(id, at) ON p.selection_id = v.id AND p.received_at = v.at
            """, [.ints(keys.map(\.0)), .ints(keys.map(\.1))]) {
            out.insert(PriceAt(id: try r.int(0), at: try r.int(1), text: try r.optionalText(2), suspended: try r.bool(3)))
        }
        return out
    }

    private static func selectionKey(_ source: Int64, _ book: String, _ market: String, _ line: String, _ selection: String) -> String {
        "\(source)\u{0}\(book)\u{0}\(market)\u{0}\(line)\u{0}\(selection)"
    }

    private func writeScores(_ scores: [ScoreRow]) throws -> Int {
        guard !scores.isEmpty else { return 0 }
        var stored: [Int64: (at: Int64, state: ScoreState)] = [:]
        let ids = try scores.map { try sourceID($0.source) }
        for r in try run("""
            SELECT DISTINCT ON (source_id) source_id, received_at, home, away, score_text, status, period, clock FROM score_change
            WHERE source_id = ANY($1::bigint[]) ORDER BY source_id, received_at DESC, seq DESC
            """, [.ints(Array(Set(ids)))]) {
            stored[try r.int(0)] = (try r.int(1), try r.scoreState(from: 2))
        }
        // As for prices: not older than the last stored score, not one stored at its very millisecond, and news.
        var boundary: [Int64: [ScoreState]] = [:]
        let ties = zip(ids, scores).filter { id, s in stored[id]?.at == s.receivedAt.historyMillis }.map(\.0)
        if !ties.isEmpty {
            for r in try run("""
                SELECT c.source_id, c.home, c.away, c.score_text, c.status, c.period, c.clock FROM score_change c
                JOIN unnest($1::bigint[], $2::bigint[]) AS v(id, at) ON c.source_id = v.id AND c.received_at = v.at
                """, [.ints(ties), .ints(ties.map { stored[$0]?.at })]) {
                boundary[try r.int(0), default: []].append(try r.scoreState(from: 1))
            }
        }
        var rows: [(id: Int64, row: ScoreRow)] = []
        var latest: [Int64: ScoreState] = [:]
        for (id, s) in zip(ids, scores) {
            let at = s.receivedAt.historyMillis
            if let last = stored[id] {
                if at < last.at { continue }
                if at == last.at, boundary[id]?.contains(where: { !s.state.differs(from: $0) }) == true { continue }
            }
            if let before = latest[id] ?? stored[id]?.state, !s.state.differs(from: before) { continue }
            rows.append((id, s))
            latest[id] = s.state
        }
        guard !rows.isEmpty else { return 0 }
        try run("""
            INSERT INTO score_change (source_id, received_at, provider_at, home, away, score_text, status, period, clock)
            SELECT s, r, p, h, a, t, st, pe, c FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::integer[], $5::integer[],
                $6::text[], $7::text[], $8::text[], $9::text[]) WITH ORDINALITY AS v(s, r, p, h, a, t, st, pe, c, o)
            ORDER BY o
            """, [.ints(rows.map(\.id)), .ints(rows.map { $0.row.receivedAt.historyMillis }), .ints(rows.map { $0.row.providerAt?.historyMillis }),
                  .ints(rows.map { $0.row.state.home.map(Int64.init) }), .ints(rows.map { $0.row.state.away.map(Int64.init) }),
                  .texts(rows.map(\.row.state.scoreText)), .texts(rows.map(\.row.state.status)), .texts(rows.map(\.row.state.period)),
                  .texts(rows.map(\.row.state.clock))])
        return rows.count
    }

    /// Adds the day partitions `prices` need (under the writers' lock, so two writers never race to make one).
    private func addPartitions(for prices: [PriceRow]) throws {
        var needed = Set<Int64>()
        for p in prices {
            let day = Self.day(of: p.receivedAt.historyMillis)
            if !days.contains(day) { needed.insert(day) }
        }
        for day in needed.sorted() {
            let from = day * Self.dayMillis
            // The name and bounds are numbers this program made, never provider text.
            try run("CREATE TABLE IF NOT EXISTS \(Self.partitionName(day)) PARTITION OF price_change FOR VALUES FROM (\(from)) TO (\(from + Self.dayMillis))")
            days.insert(day)
        }
    }

    static func day(of millis: Int64) -> Int64 { millis >= 0 ? millis / dayMillis : (millis - dayMillis + 1) / dayMillis }

    /// `price_change_20261127`: a day's partition, named by its UTC date.
    static func partitionName(_ day: Int64) -> String {
        let c = Calendar.utc.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(day) * 86_400))
        return String(format: "price_change_%04d%02d%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }

    /// The day a partition's name gives, if it is one of ours.
    static func partitionDay(_ name: String) -> Int64? {
        guard name.hasPrefix("price_change_"), name.count == 21, let n = Int(name.suffix(8)) else { return nil }
        let parts = DateComponents(calendar: .utc, timeZone: TimeZone(identifier: "UTC"), year: n / 10_000, month: n / 100 % 100, day: n % 100)
        guard let date = parts.date else { return nil }
        return Int64((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    private func sourceID(_ key: SourceKey) throws -> Int64 {
        if let id = sourceIDs[key] { return id }
        if let r = try run("SELECT id FROM source WHERE provider = $1 AND event_id = $2", [.text(key.provider.rawValue), .text(key.eventID)]).first {
            let id = try r.int(0)
            sourceIDs[key] = id
            return id
        }
        throw OddsError.history("The history lost track of \(key.provider.rawValue) event \(key.eventID).")
    }

    // MARK: - Looking up what is stored

    func known(_ source: SourceKey) throws -> KnownSource {
        do {
            guard let row = try run("SELECT id, last_seen FROM source WHERE provider = $1 AND event_id = $2",
                                    [.text(source.provider.rawValue), .text(source.eventID)]).first else { return KnownSource() }
            let id = try row.int(0)
            sourceIDs[source] = id
            var known = KnownSource(lastSeen: Date(historyMillis: try row.int(1)))
            for r in try run("""
                SELECT book, market_id, line, selection_key, last_text, last_suspended FROM selection
                WHERE source_id = $1 AND last_at IS NOT NULL
                """, [.int(id)]) {
                let ref = SelectionRef(source: source, book: try r.text(0), marketID: try r.text(1), line: try r.text(2), selectionID: try r.text(3))
                known.prices[ref] = LastPrice(text: try r.optionalText(4), suspended: try r.optionalBool(5) ?? false)
            }
            known.score = try run("""
                SELECT home, away, score_text, status, period, clock FROM score_change WHERE source_id = $1
                ORDER BY received_at DESC, seq DESC LIMIT 1
                """, [.int(id)]).first.map { try $0.scoreState(from: 0) }
            return known
        } catch let e as OddsError {
            throw e
        } catch {
            throw OddsError.history("Cannot read the history at \(location): \(PostgresHistory.reason(error)).")
        }
    }

    // MARK: - Reading

    private func read<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as OddsError { throw e } catch {
            throw OddsError.history("Cannot read the history at \(location): \(PostgresHistory.reason(error)).")
        }
    }

    // MARK: - Bets

    private func writeLedger<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as OddsError { throw e } catch {
            throw OddsError.history("Cannot write the bet ledger at \(location): \(PostgresHistory.reason(error)).")
        }
    }

    func addBet(_ b: StoredBet) throws -> Int64 {
        try writeLedger {
            let row = try run("""
                INSERT INTO bet (placed_at, provider, event_id, match_key, sport, league, home, away, start_time, market_id, market_name,
                                 line, selection_key, selection_name, book, price_text, odds_num, odds_den, stake, note, created_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21) RETURNING id
                """, [.int(b.placedAt.historyMillis), .text(b.source.provider.rawValue), .text(b.source.eventID), .text(b.matchKey),
                      .text(b.sport), .text(b.league), .text(b.home), .text(b.away), .int(b.startTime?.historyMillis), .text(b.marketID),
                      .text(b.marketName), .text(b.line), .text(b.selectionID), .text(b.selectionName), .text(b.book), .text(b.priceText),
                      .int(b.odds.numerator), .int(b.odds.denominator), .text(b.stake), .text(b.note), .int(Date().historyMillis)])
            return try row.first?.int(0) ?? 0
        }
    }

    func bets() throws -> [StoredBet] {
        try read {
            try run("""
                SELECT id, placed_at, provider, event_id, match_key, sport, league, home, away, start_time, market_id, market_name, line,
                       selection_key, selection_name, book, price_text, odds_num, odds_den, stake, note,
                       graded_at, result, final_home, final_away, close_text, close_fair, clv
                FROM bet ORDER BY placed_at, id
                """).compactMap { r in
                guard let odds = Rational(try r.int(17), try r.int(18)) else { return nil }
                var bet = StoredBet(id: try r.int(0), placedAt: Date(historyMillis: try r.int(1)),
                                 source: SourceKey(provider: SQLiteHistory.provider(try r.text(2)), eventID: try r.text(3)),
                                 matchKey: try r.optionalText(4), sport: try r.text(5), league: try r.optionalText(6), home: try r.text(7),
                                 away: try r.optionalText(8), startTime: try r.optionalInt(9).map(Date.init(historyMillis:)),
                                 marketID: try r.text(10), marketName: try r.text(11), line: try r.text(12), selectionID: try r.text(13),
                                 selectionName: try r.text(14), book: try r.text(15), priceText: try r.text(16), odds: odds,
                                 stake: try r.text(19), note: try r.optionalText(20))
                if let at = try r.optionalInt(21), let result = try r.optionalText(22) {
                    bet.grade = StoredGrade(at: Date(historyMillis: at), result: result, finalHome: try r.optionalInt32(23),
                                            finalAway: try r.optionalInt32(24), closeText: try r.optionalText(25),
                                            closeFair: try r.optionalText(26), clv: try r.optionalText(27))
                }
                return bet
            }
        }
    }

    func gradeBet(id: Int64, _ g: StoredGrade) throws -> Bool {
        try writeLedger {
            try run("""
                WITH u AS (UPDATE bet SET graded_at = $1, result = $2, final_home = $3, final_away = $4, close_text = $5, close_fair = $6, clv = $7
                           WHERE id = $8 RETURNING 1)
                SELECT count(*) FROM u
                """, [.int(g.at.historyMillis), .text(g.result), .int(g.finalHome.map(Int64.init)), .int(g.finalAway.map(Int64.init)),
                      .text(g.closeText), .text(g.closeFair), .text(g.clv), .int(id)]).first?.int(0) ?? 0 > 0
        }
    }

    func removeBet(id: Int64) throws -> Bool {
        try writeLedger {
            try run("WITH d AS (DELETE FROM bet WHERE id = $1 RETURNING 1) SELECT count(*) FROM d", [.int(id)]).first?.int(0) ?? 0 > 0
        }
    }

    func matches(_ query: MatchQuery) throws -> [StoredSource] {
        try read {
            var sql = """
                SELECT o.id, o.provider, o.event_id, o.sport, o.league, o.home, o.away, o.start_time, o.first_seen, o.last_seen,
                       o.price_changes, o.demo,
                       (SELECT match_key FROM match_member m WHERE m.source_id = o.id ORDER BY m.joined_at DESC LIMIT 1),
                       (SELECT status FROM score_change c WHERE c.source_id = o.id ORDER BY c.received_at DESC, c.seq DESC LIMIT 1)
                FROM source o WHERE o.last_seen >= $1
                """
            var values: [PostgresValue] = [.int(query.since?.historyMillis ?? 0)]
            if let provider = query.provider {
                values.append(.text(provider.rawValue))
                sql += " AND o.provider = $\(values.count)"
            }
            if let id = query.id {
                values.append(.text(id))
                sql += " AND (o.event_id = $\(values.count) OR o.id IN (SELECT source_id FROM match_member WHERE match_key = $\(values.count)))"
            }
            sql += " ORDER BY o.last_seen DESC, o.id DESC LIMIT $\(values.count + 1)"
            values.append(.int(Int64(query.limit)))
            return try run(sql, values).map { r in
                StoredSource(rowID: try r.int(0), key: SourceKey(provider: SQLiteHistory.provider(try r.text(1)), eventID: try r.text(2)),
                             sport: try r.text(3), league: try r.optionalText(4), home: try r.text(5), away: try r.optionalText(6),
                             startTime: try r.optionalInt(7).map(Date.init(historyMillis:)), firstSeen: Date(historyMillis: try r.int(8)),
                             lastSeen: Date(historyMillis: try r.int(9)), priceChanges: Int(try r.int(10)), matchKey: try r.optionalText(12),
                             demo: try r.bool(11), status: try r.optionalText(13))
            }
        }
    }

    func timeline(of sources: [StoredSource], filter: TimelineFilter, head: (Timeline) throws -> Void,
                  prices each: (StoredPrice) throws -> Void) throws {
        guard !sources.isEmpty else { return try head(Timeline()) }
        let since = filter.since?.historyMillis ?? Int64.min
        try read {
            var out = Timeline()
            let (selections, stored, all) = try self.selections(of: sources, filter: filter)
            out.selections = all
            out.scores = try scores(of: sources, since: since)
            out.incidents = try incidents(of: sources, since: since)
            try head(out)
            if !selections.isEmpty {
                // Handed over as the rows arrive: the server sends the rest meanwhile.
                try start("""
                    SELECT selection_id, received_at, provider_at, price_text, odds_num, odds_den, suspended FROM price_change
                    WHERE selection_id = ANY($1::bigint[]) AND received_at >= $2 AND received_at BETWEEN $3 AND $4 ORDER BY received_at, seq
                    """, [.ints(Array(selections.keys)), .int(since), .int(stored.lowerBound), .int(stored.upperBound)], on: try connect()).rows { r in
                    guard let selection = selections[try r.int(0)] else { return }
                    try each(try Self.price(r, from: 1, selection))
                }
            }
        }
    }

    func selections(of sources: [StoredSource]) throws -> [StoredSelection] {
        guard !sources.isEmpty else { return [] }
        return try read { try self.selections(of: sources, filter: TimelineFilter()).all }
    }

    func summary(of sources: [StoredSource], filter: TimelineFilter, recent: Int) throws -> TimelineSummary {
        guard !sources.isEmpty else { return TimelineSummary() }
        let since = filter.since?.historyMillis ?? Int64.min
        return try read {
            var out = TimelineSummary()
            let (selections, stored, _) = try self.selections(of: sources, filter: filter)
            out.recent.scores = try scores(of: sources, since: since)
            out.recent.incidents = try incidents(of: sources, since: since)
            let kickoffs = HistoryReport.kickoffs(out.recent)
            var builder = LineBuilder(kickoffs: selections.compactMapValues { s in kickoffs[s.source]?.historyMillis }, recent: recent)
            if !selections.isEmpty {
                // From the (selection, time, seq) index and the prices it carries; a selection's changes come back as
                // one array a column (a row each would cost the client more than the server's whole scan), its price
                // and suspension packed in one number (`PackedPrice`): every array costs the server as much again.
                typealias Arrays = (id: Int64, at: [Int64?], seq: [Int64?], price: [Int64?])
                func add(_ a: Arrays, exact: [PriceRef: (Int64, Int64)]) {
                    // Aggregated in the order read, which the server does not promise: put right where it is not.
                    var order = Array(a.at.indices)
                    let key = { (i: Int) in (a.at[i] ?? 0, a.seq[i] ?? 0) }
                    if zip(order, order.dropFirst()).contains(where: { key($0) > key($1) }) { order.sort { key($0) < key($1) } }
                    for i in order {
                        let p = PackedPrice(a.price[i])
                        var odds = p.odds
                        if p.isWide { odds = exact[PriceRef(selection: a.id, at: a.at[i] ?? 0, seq: a.seq[i] ?? 0)] }
                        builder.add(selection: a.id, at: a.at[i] ?? 0, seq: a.seq[i] ?? 0, num: odds?.0, den: odds?.1, suspended: p.suspended)
                    }
                }
                // Each selection is taken as it arrives, unless a price too wide to pack came first: from there on
                // they wait until those are read as they are.
                var waiting: [Arrays] = []
                var wide: [PriceRef] = []
                func take(_ r: PostgresCells) throws {
                    let id = try r.int(0)
                    let at = try PostgresArrayReader.ints(r.bytes(1)), seq = try PostgresArrayReader.ints(r.bytes(2))
                    let price = try PostgresArrayReader.ints(r.bytes(3))
                    guard seq.count == at.count, price.count == at.count else { throw PostgresArrayReader.Malformed() }
                    let before = wide.count
                    for i in price.indices where PackedPrice(price[i]).isWide { wide.append(PriceRef(selection: id, at: at[i] ?? 0, seq: seq[i] ?? 0)) }
                    if waiting.isEmpty && wide.count == before { add((id, at, seq, price), exact: [:]) } else { waiting.append((id, at, seq, price)) }
                }
                // A big match is read in two halves of its selections at once, on two connections (the server
                // aggregates each half in a process of its own); the halves are taken in order. A server that
                // will not take a second connection (its limit reached) reads it whole on the one.
                let ids = selections.keys.sorted()
                let big = ids.count > 1 && sources.reduce(0, { $0 + $1.priceChanges }) >= splitRows
                let main = try connect()
                let second = big ? try? connectHelper() : nil
                let halves = second != nil ? [Array(ids[..<(ids.count / 2)]), Array(ids[(ids.count / 2)...])] : [ids]
                let streams = halves.enumerated().map { i, half in
                    start("""
                        SELECT s, array_agg(a), array_agg(q), array_agg(o) FROM (
                            SELECT selection_id AS s, received_at AS a, seq AS q, \(PackedPrice.sql) AS o
                            FROM price_change WHERE selection_id = ANY($1::bigint[]) AND received_at >= $2 AND received_at BETWEEN $3 AND $4) p
                        GROUP BY s ORDER BY s
                        """, [.ints(half), .int(since), .int(stored.lowerBound), .int(stored.upperBound)], on: i == 0 ? main : second ?? main)
                }
                var failure: Error?
                for stream in streams {
                    // After a failure the other stream is stopped; either way both connections are free after.
                    do { if failure == nil { try stream.rows(take) } else { stream.abandon() } } catch { failure = error }
                }
                if let failure { throw failure }
                if !waiting.isEmpty {
                    let exact = try prices(at: wide, selections).compactMapValues { p in p.odds.map { ($0.numerator, $0.denominator) } }
                    for a in waiting { add(a, exact: exact) }
                }
            }
            let (partials, latest) = builder.finish()
            let rows = try prices(at: Array(LineBuilder.refs(partials, latest)), selections)
            // Every lookup below is bounded by the days the match's rows span: the server plans over those partitions only.
            let span = builder.span ?? 0...0
            out.lines = LineBuilder.lines(partials, rows)
            out.recent.prices = latest.compactMap { rows[$0] }
            out.rows = builder.rows + out.recent.scores.count + out.recent.incidents.count
            // The prices either side of each incident: what is asked for is gathered first, then read in two statements.
            var asked = Set<PriceAsk>()
            _ = HistoryReport.aroundIncidents(lines: out.lines, incidents: out.recent.incidents,
                                              before: { ids, at in ids.forEach { asked.insert(PriceAsk(selection: $0, at: at)) }; return nil },
                                              after: { _, _ in nil })
            var before: [PriceAsk: (PriceRef, StoredPrice)] = [:], after: [PriceAsk: (PriceRef, StoredPrice)] = [:]
            if !asked.isEmpty {
                let asks = Array(asked)
                for (earlier, sql) in [(true, "received_at < v.at ORDER BY received_at DESC, seq DESC"), (false, "received_at >= v.at ORDER BY received_at, seq")] {
                    for r in try run("""
                        SELECT v.s, v.at, p.received_at, p.provider_at, p.price_text, p.odds_num, p.odds_den, p.suspended, p.seq
                        FROM unnest($1::bigint[], $2::bigint[]) AS v(s, at) CROSS JOIN LATERAL (
                            SELECT * FROM price_change WHERE selection_id = v.s AND received_at >= $3 AND received_at BETWEEN $4 AND $5
                            AND NOT suspended AND price_text IS NOT NULL AND \(sql) LIMIT 1) p
                        """, [.ints(asks.map(\.selection)), .ints(asks.map(\.at)), .int(since), .int(span.lowerBound), .int(span.upperBound)]) {
                        let ask = PriceAsk(selection: try r.int(0), at: try r.int(1))
                        guard let selection = selections[ask.selection] else { continue }
                        let found = (PriceRef(selection: ask.selection, at: try r.int(2), seq: try r.int(8)), try Self.price(r, from: 2, selection))
                        if earlier { before[ask] = found } else { after[ask] = found }
                    }
                }
            }
            func pick(_ ids: [Int64], _ at: Int64, _ from: [PriceAsk: (PriceRef, StoredPrice)], latest: Bool) -> StoredPrice? {
                let found = ids.compactMap { from[PriceAsk(selection: $0, at: at)] }
                let order = { (a: (PriceRef, StoredPrice), b: (PriceRef, StoredPrice)) in (a.0.at, a.0.seq) < (b.0.at, b.0.seq) }
                return (latest ? found.max(by: order) : found.min(by: order))?.1
            }
            out.around = HistoryReport.aroundIncidents(lines: out.lines, incidents: out.recent.incidents,
                                                       before: { pick($0, $1, before, latest: true) }, after: { pick($0, $1, after, latest: false) })
            return out
        }
    }

    /// The price changes at `refs`, read whole; the lookup is bounded by the days they span, so the server plans
    /// over those partitions only.
    private func prices(at refs: [PriceRef], _ selections: [Int64: StoredSelection]) throws -> [PriceRef: StoredPrice] {
        guard let from = refs.map(\.at).min(), let to = refs.map(\.at).max() else { return [:] }
        var rows: [PriceRef: StoredPrice] = [:]
        for r in try run("""
            SELECT p.seq, p.selection_id, p.received_at, p.provider_at, p.price_text, p.odds_num, p.odds_den, p.suspended
            FROM price_change p JOIN unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS v(s, a, q)
              ON p.selection_id = v.s AND p.received_at = v.a AND p.seq = v.q
            WHERE p.received_at BETWEEN $4 AND $5
            """, [.ints(refs.map(\.selection)), .ints(refs.map(\.at)), .ints(refs.map(\.seq)), .int(from), .int(to)]) {
            guard let selection = selections[try r.int(1)] else { continue }
            rows[PriceRef(selection: try r.int(1), at: try r.int(2), seq: try r.int(0))] = try Self.price(r, from: 2, selection)
        }
        return rows
    }

    /// A selection's price either side of a time, as `history show` asks for it.
    private struct PriceAsk: Hashable {
        var selection: Int64
        var at: Int64
    }

    /// A price change from six columns from `first` on: received_at, provider_at, price_text, odds_num, odds_den, suspended.
    private static func price(_ r: PostgresCells, from first: Int, _ selection: StoredSelection) throws -> StoredPrice {
        var odds: Rational?
        if let n = try r.optionalInt(first + 3), let d = try r.optionalInt(first + 4) { odds = Rational(n, d) }
        return StoredPrice(at: Date(historyMillis: try r.int(first)), providerAt: try r.optionalInt(first + 1).map(Date.init(historyMillis:)),
                           selection: selection, text: try r.optionalText(first + 2), odds: odds, suspended: try r.bool(first + 5))
    }

    /// The sources' selections, as `filter` narrows them, by row id; the times their stored changes span (the
    /// whole of time where a selection's first change is not known), which bounds every read of their changes so
    /// that the server plans over those days' partitions only; and all the selections, of the filter's book.
    private func selections(of sources: [StoredSource], filter: TimelineFilter) throws
        -> (byID: [Int64: StoredSelection], span: ClosedRange<Int64>, all: [StoredSelection]) {
        guard filter.prices else { return ([:], 0...0, []) }
        let byID = Dictionary(sources.map { ($0.rowID, $0.key) }, uniquingKeysWith: { a, _ in a })
        var sql = """
            SELECT id, source_id, book, market_id, market_name, line, selection_key, selection_name, first_at, last_at FROM selection
            WHERE source_id = ANY($1::bigint[])
            """
        var values: [PostgresValue] = [.ints(Array(byID.keys))]
        if let book = filter.book {
            values.append(.text(book))
            sql += " AND lower(book) = lower($\(values.count))"
        }
        var all: [StoredSelection] = []
        var spans: [Int64: (first: Int64?, last: Int64?)] = [:]
        for r in try run(sql, values) {
            guard let source = byID[try r.int(1)] else { continue }
            let id = try r.int(0)
            all.append(StoredSelection(rowID: id, source: source, book: try r.text(2), marketID: try r.text(3), marketName: try r.text(4),
                                       line: try r.text(5), selectionID: try r.text(6), selectionName: try r.text(7)))
            spans[id] = (try r.optionalInt(8), try r.optionalInt(9))
        }
        // The market is matched by meaning too, which SQL cannot tell.
        var selections: [Int64: StoredSelection] = [:]
        var first = Int64.max, last = Int64.min, unknown = false
        for s in filter.narrow(all, sources: sources) {
            selections[s.rowID] = s
            switch spans[s.rowID] ?? (nil, nil) {
            case let (f?, l?): first = min(first, f); last = max(last, l)
            case (nil, _?): unknown = true
            default: break
            }
        }
        all.sort { $0.rowID < $1.rowID }
        return (selections, unknown || first > last ? Int64.min...Int64.max : first...last, all)
    }

    private func scores(of sources: [StoredSource], since: Int64) throws -> [StoredScore] {
        let byID = Dictionary(sources.map { ($0.rowID, $0.key) }, uniquingKeysWith: { a, _ in a })
        return try run("""
            SELECT received_at, source_id, home, away, score_text, status, period, clock, provider_at FROM score_change
            WHERE source_id = ANY($1::bigint[]) AND received_at >= $2 ORDER BY received_at, seq
            """, [.ints(Array(byID.keys)), .int(since)]).compactMap { r in
            guard let source = byID[try r.int(1)] else { return nil }
            return StoredScore(at: Date(historyMillis: try r.int(0)), providerAt: try r.optionalInt(8).map(Date.init(historyMillis:)),
                               source: source, state: try r.scoreState(from: 2))
        }
    }

    private func incidents(of sources: [StoredSource], since: Int64) throws -> [StoredIncident] {
        let byID = Dictionary(sources.map { ($0.rowID, $0.key) }, uniquingKeysWith: { a, _ in a })
        return try run("""
            SELECT received_at, source_id, kind, minute, added_time, side, player, assist, player_out, reason, detail,
                   score_home, score_away, rescinded, provider_at
            FROM incident WHERE source_id = ANY($1::bigint[]) AND received_at >= $2 ORDER BY received_at, seq
            """, [.ints(Array(byID.keys)), .int(since)]).compactMap { r in
            guard let source = byID[try r.int(1)] else { return nil }
            var score: Score?
            if let h = try r.optionalInt32(11), let a = try r.optionalInt32(12) { score = Score(home: h, away: a) }
            let incident = Incident(kind: IncidentKind(rawValue: try r.text(2)) ?? .other, minute: try r.optionalInt32(3),
                                    team: try r.optionalText(5).flatMap(Side.init(rawValue:)), player: try r.optionalText(6),
                                    detail: try r.optionalText(10), addedTime: try r.optionalInt32(4), assist: try r.optionalText(7),
                                    playerOut: try r.optionalText(8), reason: try r.optionalText(9), score: score, rescinded: try r.bool(13))
            return StoredIncident(at: Date(historyMillis: try r.int(0)), providerAt: try r.optionalInt(14).map(Date.init(historyMillis:)),
                                  source: source, incident: incident)
        }
    }

    func watches(of providers: [ProviderID], during range: ClosedRange<Date>) throws -> [WatchSpan] {
        guard !providers.isEmpty else { return [] }
        return try read {
            try run("""
                SELECT provider, started_at, ended_at FROM watch
                WHERE provider = ANY($1::text[]) AND ended_at >= $2 AND started_at <= $3 ORDER BY started_at
                """, [.texts(providers.map(\.rawValue)), .int(range.lowerBound.historyMillis), .int(range.upperBound.historyMillis)]).map {
                WatchSpan(provider: SQLiteHistory.provider(try $0.text(0)), from: Date(historyMillis: try $0.int(1)),
                          to: Date(historyMillis: try $0.int(2)))
            }
        }
    }

    func stats() throws -> HistoryStats {
        try read {
            func count(_ table: String) throws -> Int { Int(try run("SELECT count(*) FROM \(table)").first?.int(0) ?? 0) }
            let span = try run("SELECT min(received_at), max(received_at) FROM price_change").first
            let bytes = try run("""
                SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c
                JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = current_schema() AND c.relkind = 'r'
                  AND (c.relname IN ('source', 'selection', 'score_change', 'incident', 'match_member', 'prune_log', 'history_meta', 'watch')
                       OR c.relname LIKE 'price\\_change\\_%')
                """).first?.int(0) ?? 0
            let prune = try run("SELECT pruned_at, cutoff, changes FROM prune_log ORDER BY pruned_at DESC LIMIT 1").first.map {
                PruneRecord(at: Date(historyMillis: try $0.int(0)), cutoff: Date(historyMillis: try $0.int(1)), changes: Int(try $0.int(2)))
            }
            let watched = try run("SELECT DISTINCT ON (provider) provider, started_at, ended_at FROM watch ORDER BY provider, ended_at DESC").map {
                WatchSpan(provider: SQLiteHistory.provider(try $0.text(0)), from: Date(historyMillis: try $0.int(1)), to: Date(historyMillis: try $0.int(2)))
            }
            return HistoryStats(schemaVersion: try storedVersion(), sources: try count("source"), selections: try count("selection"),
                                priceChanges: try count("price_change"), scoreChanges: try count("score_change"), incidents: try count("incident"),
                                bytes: bytes, oldest: try span?.optionalInt(0).map(Date.init(historyMillis:)),
                                newest: try span?.optionalInt(1).map(Date.init(historyMillis:)), lastPrune: prune, watched: watched)
        }
    }

    func prune(before cutoff: Date) throws -> Int {
        let ms = cutoff.historyMillis
        defer { sourceIDs = [:]; selectionIDs = [:]; watchIDs = [:]; days = [] }
        do {
            return try transaction {
                try run("SELECT pg_advisory_xact_lock($1)", [.int(Self.lockKey)])
                var dropped = 0
                // Whole days before the cutoff go as partitions; the day the cutoff falls in stays until it has passed.
                for r in try run("""
                    SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                    WHERE i.inhparent = 'price_change'::regclass ORDER BY c.relname
                    """) {
                    let name = try r.text(0)
                    guard let day = Self.partitionDay(name), (day + 1) * Self.dayMillis <= ms, name == Self.partitionName(day) else { continue }
                    dropped += Int(try run("SELECT count(*) FROM \(name)").first?.int(0) ?? 0)
                    try run("DROP TABLE \(name)")
                }
                for table in ["score_change", "incident"] {
                    dropped += Int(try run("WITH d AS (DELETE FROM \(table) WHERE received_at < $1 RETURNING 1) SELECT count(*) FROM d",
                                           [.int(ms)]).first?.int(0) ?? 0)
                }
                try run("DELETE FROM source WHERE last_seen < $1", [.int(ms)])
                try run("DELETE FROM watch WHERE ended_at < $1", [.int(ms)])
                try run("INSERT INTO prune_log (pruned_at, cutoff, changes) VALUES ($1, $2, $3)",
                        [.int(Date().historyMillis), .int(ms), .int(Int64(dropped))])
                return dropped
            }
        } catch let e as OddsError {
            throw e
        } catch {
            throw OddsError.history("Cannot prune the history at \(location): \(PostgresHistory.reason(error)).")
        }
    }
}

extension Calendar {
    static let utc: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c
    }()
}
