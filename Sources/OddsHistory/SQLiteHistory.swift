import Foundation
import GRDB
import GRDBSQLite
import OddsModel

/// A history in one SQLite file, through GRDB: WAL (readers never wait on the writer), one transaction a batch,
/// prepared statements reused for every row, and only bound parameters. One writer at a time: a second is
/// refused by a lock on `PATH.lock`, never allowed to interleave.
final class SQLiteHistory: HistoryBackend {
    let location: HistoryLocation
    private let path: String
    private let pool: DatabasePool
    private var lockFD: Int32 = -1
    private var sourceIDs: [SourceKey: Int64] = [:]
    private var selectionIDs: [SelectionRef: Int64] = [:]
    /// The rows of the writer's watch spans, by span.
    private var watchIDs: [Int: Int64] = [:]

    /// `writing`: the history's one writer (its lock taken); `ledger`: read, and written to the bet ledger alone.
    init(path: String, writing: Bool, ledger: Bool = false) throws {
        self.path = path
        location = .sqlite(path: path)
        let fm = FileManager.default
        var folder: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &folder), folder.boolValue {
            throw OddsError.history("The history at \(path) is a folder: --history takes a file (such as \(path)/history.sqlite) or a postgres:// URL.")
        }
        if !writing, !fm.fileExists(atPath: path) {
            throw OddsError.history("There is no history at \(path) yet: run a stream or the dashboard with --history first.")
        }
        if writing {
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty {
                do { try fm.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                    throw OddsError.history("Cannot create the folder for the history at \(path): \(SQLiteHistory.reason(error)).")
                }
            }
        }
        let fd = writing ? try SQLiteHistory.takeWriterLock(path) : -1
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.label = "odds-history"
        config.readonly = !(writing || ledger)
        config.foreignKeysEnabled = true
        config.maximumReaderCount = 2
        config.prepareDatabase { db in
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            // A writer appends and a reader reads each page of a match's index once: a small page cache is enough,
            // and keeps the live commands' memory (the dashboard reads beside its feed) as it was.
            try db.execute(sql: "PRAGMA cache_size = -512")
        }
        do {
            pool = try DatabasePool(path: path, configuration: config)
        } catch {
            if fd >= 0 { Glibc.close(fd) }
            throw OddsError.history("Cannot open the history at \(path): \(SQLiteHistory.reason(error)).")
        }
        lockFD = fd
        do {
            if writing || ledger { try migrate() } else { try checkVersion() }
        } catch let error as OddsError {
            close()
            throw error
        } catch let error as OlderSchema {
            close()
            throw error
        } catch {
            close()
            throw OddsError.history("Cannot open the history at \(path): \(SQLiteHistory.reason(error)).")
        }
    }

    deinit { close() }

    func close() {
        try? pool.close()
        if lockFD >= 0 { _ = flock(lockFD, LOCK_UN); Glibc.close(lockFD); lockFD = -1 }
    }

    /// The writer's lock: held as long as this history is open for writing, released by the kernel if the
    /// process dies (a kill -9 leaves no stale lock behind).
    private static func takeWriterLock(_ path: String) throws -> Int32 {
        let fd = open(path + ".lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw OddsError.history("Cannot write the history at \(path): \(String(cString: strerror(errno))).")
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            Glibc.close(fd)
            throw OddsError.history("Another odds is writing the history at \(path): one writer at a time (reading it meanwhile is fine).")
        }
        return fd
    }

    static func reason(_ error: Error) -> String {
        if let e = error as? DatabaseError { return e.message ?? "SQLite error \(e.resultCode.rawValue)" }
        return String(describing: error)
    }

    private func migrate() throws {
        try pool.writeWithoutTransaction { db in
            let current = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            if current > HistorySchema.version {
                throw OddsError.history("The history at \(path) has schema version \(current), newer than this odds reads (\(HistorySchema.version)): update odds.")
            }
            guard current < HistorySchema.version else { return }
            for version in (current + 1)...HistorySchema.version {
                try db.inTransaction {
                    for sql in HistorySchema.sqlite(version) { try db.execute(sql: sql) }
                    try db.execute(sql: "PRAGMA user_version = \(version)")
                    return .commit
                }
            }
        }
    }

    private func checkVersion() throws {
        let current = try pool.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
        if current > HistorySchema.version {
            throw OddsError.history("The history at \(path) has schema version \(current), newer than this odds reads (\(HistorySchema.version)): update odds.")
        }
        if current == 0 { throw OddsError.history("\(path) is not an odds history (no schema).") }
        if current < HistorySchema.version { throw OlderSchema() }
    }

    // MARK: - Writing

    func write(_ batch: HistoryBatch) throws -> Int {
        do {
            try pool.write { db in try self.write(batch, db) }
            return batch.changes
        } catch {
            // The transaction rolled back: ids handed out in it are gone.
            sourceIDs = [:]
            selectionIDs = [:]
            watchIDs = [:]
            if let e = error as? OddsError { throw e }
            throw OddsError.history("Cannot write the history at \(path): \(SQLiteHistory.reason(error)).")
        }
    }

    /// Inserts one price change through the C API: the one statement run for every change, where building
    /// GRDB's arguments (an array of values a row) costs more than SQLite's insert. The values bound are those
    /// GRDB binds (integers, text, NULL; a flag as 0 or 1).
    private static func insert(_ p: PriceRow, selectionID: Int64, into raw: SQLiteStatement, _ db: Database) throws {
        defer { sqlite3_reset(raw) }
        var code = SQLITE_OK
        func bind(_ index: Int32, _ value: Int64?) {
            let c = value.map { sqlite3_bind_int64(raw, index, $0) } ?? sqlite3_bind_null(raw, index)
            if code == SQLITE_OK { code = c }
        }
        bind(1, selectionID)
        bind(2, p.receivedAt.historyMillis)
        bind(3, p.providerAt?.historyMillis)
        if var text = p.text {
            let c = text.withUTF8 { bytes -> Int32 in
                guard bytes.count <= Int(Int32.max) else { return SQLITE_TOOBIG }
                guard let base = bytes.baseAddress else { return sqlite3_bind_text(raw, 4, "", 0, Self.transient) }
                return sqlite3_bind_text(raw, 4, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(bytes.count), Self.transient)
            }
            if code == SQLITE_OK { code = c }
        } else {
            bind(4, nil)
        }
        bind(5, p.odds?.numerator)
        bind(6, p.odds?.denominator)
        bind(7, p.suspended ? 1 : 0)
        if code == SQLITE_OK { code = sqlite3_step(raw) }
        guard code == SQLITE_DONE else { throw failure(code, db) }
    }

    /// What a statement stepped through the C API failed with, as GRDB reports it.
    private static func failure(_ code: Int32, _ db: Database) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
    }

    /// SQLite copies the bytes bound (the C API's `SQLITE_TRANSIENT`).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private func write(_ batch: HistoryBatch, _ db: Database) throws {
        let upsertSource = try db.cachedStatement(sql: """
            INSERT INTO source (provider, event_id, sport, league, home, away, start_time, first_seen, last_seen, demo)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (provider, event_id) DO UPDATE SET sport = excluded.sport, league = excluded.league,
                home = excluded.home, away = excluded.away, start_time = coalesce(excluded.start_time, source.start_time),
                last_seen = max(source.last_seen, excluded.last_seen)
            RETURNING id
            """)
        for (key, s) in batch.sources {
            let id = try Int64.fetchOne(upsertSource, arguments: [key.provider.rawValue, key.eventID, s.sport, s.league, s.home, s.away,
                                                                  s.startTime?.historyMillis, s.firstSeenAt.historyMillis, s.seenAt.historyMillis, s.demo])
            if let id { sourceIDs[key] = id }
        }

        let upsertSelection = try db.cachedStatement(sql: """
            INSERT INTO selection (source_id, book, market_id, line, selection_key, market_name, selection_name)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (source_id, book, market_id, line, selection_key) DO UPDATE SET market_name = excluded.market_name,
                selection_name = excluded.selection_name
            RETURNING id
            """)
        let insertPrice = try db.cachedStatement(sql: """
            INSERT INTO price_change (selection_id, received_at, provider_at, price_text, odds_num, odds_den, suspended)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        var perSource: [Int64: Int] = [:]
        // Each selection's first change in the batch and its latest.
        var touched: [Int64: (first: Int64, latest: PriceRow)] = [:]
        let insert = insertPrice.sqliteStatement
        for p in batch.prices {
            let sourceID = try source(p.ref.source, db)
            let selectionID: Int64
            if let id = selectionIDs[p.ref] {
                selectionID = id
            } else {
                guard let id = try Int64.fetchOne(upsertSelection, arguments: [sourceID, p.ref.book, p.ref.marketID, p.ref.line, p.ref.selectionID,
                                                                             p.marketName, p.selectionName]) else { continue }
                if selectionIDs.count > 1_000_000 { selectionIDs = [:] }
                selectionIDs[p.ref] = id
                selectionID = id
            }
            try Self.insert(p, selectionID: selectionID, into: insert, db)
            perSource[sourceID, default: 0] += 1
            let at = p.receivedAt.historyMillis
            if let known = touched[selectionID] {
                touched[selectionID] = (min(known.first, at), p)
            } else {
                touched[selectionID] = (at, p)
            }
        }
        let last = try db.cachedStatement(sql: """
            UPDATE selection SET first_at = coalesce(min(first_at, ?1), ?1), last_at = ?2, last_text = ?3, last_suspended = ?4 WHERE id = ?5
            """)
        for (id, t) in touched {
            try last.execute(arguments: [t.first, t.latest.receivedAt.historyMillis, t.latest.text, t.latest.suspended, id])
        }
        let count = try db.cachedStatement(sql: "UPDATE source SET price_changes = price_changes + ? WHERE id = ?")
        for (id, n) in perSource { try count.execute(arguments: [n, id]) }

        let insertScore = try db.cachedStatement(sql: """
            INSERT INTO score_change (source_id, received_at, provider_at, home, away, score_text, status, period, clock)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for s in batch.scores {
            try insertScore.execute(arguments: [try source(s.source, db), s.receivedAt.historyMillis, s.providerAt?.historyMillis,
                                                s.state.home, s.state.away, s.state.scoreText, s.state.status, s.state.period, s.state.clock])
        }

        let insertIncident = try db.cachedStatement(sql: """
            INSERT INTO incident (source_id, received_at, identity, kind, minute, added_time, side, player, assist, player_out,
                reason, detail, score_home, score_away, rescinded, provider_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (source_id, identity) DO NOTHING
            """)
        for row in batch.incidents {
            let i = row.incident
            try insertIncident.execute(arguments: [try source(row.source, db), row.receivedAt.historyMillis, row.identity, i.kind.rawValue,
                                                   i.minute, i.addedTime, i.team?.rawValue, i.player, i.assist, i.playerOut, i.reason,
                                                   i.detail, i.score?.home, i.score?.away, i.rescinded, row.providerAt?.historyMillis])
        }

        let insertMember = try db.cachedStatement(sql: """
            INSERT INTO match_member (match_key, source_id, reason, joined_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (match_key, source_id) DO NOTHING
            """)
        for m in batch.members {
            try insertMember.execute(arguments: [m.matchKey, try source(m.source, db), m.reason, m.at.historyMillis])
        }
        try writeWatches(batch.watches, db)
    }

    private func writeWatches(_ rows: [WatchRow], _ db: Database) throws {
        guard !rows.isEmpty else { return }
        let insert = try db.cachedStatement(sql: "INSERT INTO watch (provider, started_at, ended_at) VALUES (?, ?, ?) RETURNING id")
        let update = try db.cachedStatement(sql: "UPDATE watch SET ended_at = max(ended_at, ?) WHERE id = ?")
        for row in rows {
            let w = row.watched
            if let id = watchIDs[row.span] {
                try update.execute(arguments: [w.to.historyMillis, id])
            } else if let id = try Int64.fetchOne(insert, arguments: [w.provider.rawValue, w.from.historyMillis, w.to.historyMillis]) {
                watchIDs[row.span] = id
            }
        }
    }

    /// The row id of a source written in this batch or before.
    private func source(_ key: SourceKey, _ db: Database) throws -> Int64 {
        if let id = sourceIDs[key] { return id }
        if let id = try Int64.fetchOne(db, sql: "SELECT id FROM source WHERE provider = ? AND event_id = ?",
                                       arguments: [key.provider.rawValue, key.eventID]) {
            sourceIDs[key] = id
            return id
        }
        throw OddsError.history("The history lost track of \(key.provider.rawValue) event \(key.eventID).")
    }

    /// Caps the file at its current size (nil lifts the cap): a full disk, for the tests of what the writer does then.
    func capSize(_ capped: Bool) throws {
        try pool.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(capped ? pages : 1_073_741_823)")
        }
    }

    // MARK: - Looking up what is stored

    func known(_ source: SourceKey) throws -> KnownSource {
        // On the writer's own connection: a writer opens no reader connection (nor its page cache) for this.
        try pool.writeWithoutTransaction { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT id, last_seen FROM source WHERE provider = ? AND event_id = ?",
                                             arguments: [source.provider.rawValue, source.eventID]) else { return KnownSource() }
            let id: Int64 = row[0]
            var known = KnownSource(lastSeen: Date(historyMillis: row[1]))
            for r in try Row.fetchAll(db, sql: """
                SELECT book, market_id, line, selection_key, last_text, last_suspended FROM selection
                WHERE source_id = ? AND last_at IS NOT NULL
                """, arguments: [id]) {
                let ref = SelectionRef(source: source, book: r[0], marketID: r[1], line: r[2], selectionID: r[3])
                // Nullable in the schema (a selection without a stored price), as PostgreSQL reads it too.
                known.prices[ref] = LastPrice(text: r[4], suspended: (r[5] as Bool?) ?? false)
            }
            known.score = try Row.fetchOne(db, sql: """
                SELECT home, away, score_text, status, period, clock FROM score_change
                WHERE source_id = ? ORDER BY received_at DESC, rowid DESC LIMIT 1
                """, arguments: [id]).map {
                ScoreState(home: $0[0], away: $0[1], scoreText: $0[2], status: $0[3], period: $0[4], clock: $0[5])
            }
            return known
        }
    }

    // MARK: - Reading

    func matches(_ query: MatchQuery) throws -> [StoredSource] {
        try read { db in
            var sql = """
                SELECT o.id, o.provider, o.event_id, o.sport, o.league, o.home, o.away, o.start_time, o.first_seen, o.last_seen,
                       o.price_changes, o.demo,
                       (SELECT match_key FROM match_member m WHERE m.source_id = o.id ORDER BY m.joined_at DESC LIMIT 1),
                       (SELECT status FROM score_change c WHERE c.source_id = o.id ORDER BY c.received_at DESC, c.rowid DESC LIMIT 1)
                FROM source o WHERE o.last_seen >= ?
                """
            var arguments: StatementArguments = [query.since?.historyMillis ?? 0]
            if let provider = query.provider {
                sql += " AND o.provider = ?"
                arguments += [provider.rawValue]
            }
            if let id = query.id {
                sql += " AND (o.event_id = ? OR o.id IN (SELECT source_id FROM match_member WHERE match_key = ?))"
                arguments += [id, id]
            }
            sql += " ORDER BY o.last_seen DESC, o.id DESC LIMIT ?"
            arguments += [query.limit]
            return try Row.fetchAll(db, sql: sql, arguments: arguments).compactMap(SQLiteHistory.storedSource)
        }
    }

    /// The provider a row names: as this process declared it, else under its stored id.
    static func provider(_ raw: String) -> ProviderID {
        ProviderID.declared(raw) ?? ProviderID(raw, displayName: raw, environmentName: raw.uppercased())
    }

    private static func storedSource(_ r: Row) -> StoredSource? {
        let provider = SQLiteHistory.provider(r[1])
        return StoredSource(rowID: r[0], key: SourceKey(provider: provider, eventID: r[2]), sport: r[3], league: r[4], home: r[5], away: r[6],
                            startTime: (r[7] as Int64?).map(Date.init(historyMillis:)), firstSeen: Date(historyMillis: r[8]),
                            lastSeen: Date(historyMillis: r[9]), priceChanges: r[10], matchKey: r[12], demo: r[11], status: r[13])
    }

    func timeline(of sources: [StoredSource], filter: TimelineFilter, head: (Timeline) throws -> Void,
                  prices each: (StoredPrice) throws -> Void) throws {
        guard !sources.isEmpty else { return try head(Timeline()) }
        let since = filter.since?.historyMillis ?? Int64.min
        try read { db in
            var out = Timeline()
            let (selections, all) = try self.selections(of: sources, filter: filter, db)
            out.selections = all
            out.scores = try scores(of: sources, since: since, db)
            out.incidents = try incidents(of: sources, since: since, db)
            try head(out)
            if !selections.isEmpty {
                let keys = Array(selections.keys)
                let cursor = try Row.fetchCursor(db, sql: """
                    SELECT selection_id, received_at, provider_at, price_text, odds_num, odds_den, suspended FROM price_change
                    WHERE selection_id IN (\(Self.marks(keys.count))) AND received_at >= ?
                    ORDER BY received_at, rowid
                    """, arguments: StatementArguments(keys) + [since])
                while let r = try cursor.next() {
                    guard let selection = selections[r[0]] else { continue }
                    try each(Self.price(r, from: 1, selection))
                }
            }
        }
    }

    func selections(of sources: [StoredSource]) throws -> [StoredSelection] {
        guard !sources.isEmpty else { return [] }
        return try read { db in try self.selections(of: sources, filter: TimelineFilter(), db).all }
    }

    func summary(of sources: [StoredSource], filter: TimelineFilter, recent: Int) throws -> TimelineSummary {
        guard !sources.isEmpty else { return TimelineSummary() }
        let since = filter.since?.historyMillis ?? Int64.min
        return try read { db in
            var out = TimelineSummary()
            let selections = try self.selections(of: sources, filter: filter, db).narrowed
            out.recent.scores = try scores(of: sources, since: since, db)
            out.recent.incidents = try incidents(of: sources, since: since, db)
            let kickoffs = HistoryReport.kickoffs(out.recent)
            var builder = LineBuilder(kickoffs: selections.compactMapValues { s in kickoffs[s.source]?.historyMillis }, recent: recent)
            if !selections.isEmpty {
                let keys = selections.keys.sorted()
                // In the (selection, time, price) index's order: read from the index alone, never sorted.
                let statement = try db.makeStatement(sql: """
                    SELECT selection_id, received_at, rowid, odds_num, odds_den, suspended FROM price_change
                    WHERE selection_id IN (\(Self.marks(keys.count))) AND received_at >= ?
                    ORDER BY selection_id, received_at
                    """)
                try statement.setArguments(StatementArguments(keys) + [since])
                // Stepped by hand: the one loop over every row, where a typed cursor's checks per column would dominate.
                let raw = statement.sqliteStatement
                defer { sqlite3_reset(raw) }
                while true {
                    let code = sqlite3_step(raw)
                    if code == SQLITE_DONE { break }
                    guard code == SQLITE_ROW else { throw Self.failure(code, db) }
                    let priced = sqlite3_column_type(raw, 3) != SQLITE_NULL && sqlite3_column_type(raw, 4) != SQLITE_NULL
                    builder.add(selection: sqlite3_column_int64(raw, 0), at: sqlite3_column_int64(raw, 1), seq: sqlite3_column_int64(raw, 2),
                                num: priced ? sqlite3_column_int64(raw, 3) : nil, den: priced ? sqlite3_column_int64(raw, 4) : nil,
                                suspended: sqlite3_column_int64(raw, 5) != 0)
                }
            }
            let (partials, latest) = builder.finish()
            var rows: [PriceRef: StoredPrice] = [:]
            let refs = Array(LineBuilder.refs(partials, latest))
            for start in stride(from: 0, to: refs.count, by: 10_000) {
                let chunk = refs[start..<min(refs.count, start + 10_000)].map(\.seq)
                for r in try Row.fetchAll(db, sql: """
                    SELECT rowid, selection_id, received_at, provider_at, price_text, odds_num, odds_den, suspended FROM price_change
                    WHERE rowid IN (\(Self.marks(chunk.count)))
                    """, arguments: StatementArguments(chunk)) {
                    guard let selection = selections[r[1]] else { continue }
                    rows[PriceRef(selection: r[1], at: r[2], seq: r[0])] = Self.price(r, from: 2, selection)
                }
            }
            out.lines = LineBuilder.lines(partials, rows)
            out.recent.prices = latest.compactMap { rows[$0] }
            out.rows = builder.rows + out.recent.scores.count + out.recent.incidents.count
            func edge(_ ids: [Int64], _ at: Int64, before: Bool) throws -> StoredPrice? {
                let r = try Row.fetchOne(db, sql: """
                    SELECT selection_id, received_at, provider_at, price_text, odds_num, odds_den, suspended FROM price_change
                    WHERE selection_id IN (\(Self.marks(ids.count))) AND received_at >= ? AND received_at \(before ? "<" : ">=") ?
                    AND suspended = 0 AND price_text IS NOT NULL
                    ORDER BY received_at \(before ? "DESC" : ""), rowid \(before ? "DESC" : "") LIMIT 1
                    """, arguments: StatementArguments(ids) + [since, at])
                return r.flatMap { r in selections[r[0]].map { Self.price(r, from: 1, $0) } }
            }
            out.around = try HistoryReport.aroundIncidents(lines: out.lines, incidents: out.recent.incidents,
                                                           before: { try edge($0, $1, before: true) }, after: { try edge($0, $1, before: false) })
            return out
        }
    }

    private static func marks(_ n: Int) -> String { Array(repeating: "?", count: n).joined(separator: ", ") }

    /// A price change from six columns from `first` on: received_at, provider_at, price_text, odds_num, odds_den, suspended.
    private static func price(_ r: Row, from first: Int, _ selection: StoredSelection) -> StoredPrice {
        var odds: Rational?
        if let n = r[first + 3] as Int64?, let d = r[first + 4] as Int64? { odds = Rational(n, d) }
        return StoredPrice(at: Date(historyMillis: r[first]), providerAt: (r[first + 1] as Int64?).map(Date.init(historyMillis:)),
                           selection: selection, text: r[first + 2], odds: odds, suspended: r[first + 5])
    }

    /// The sources' selections, as `filter` narrows them, by row id; and all of them, of the filter's book.
    private func selections(of sources: [StoredSource], filter: TimelineFilter, _ db: Database) throws
        -> (narrowed: [Int64: StoredSelection], all: [StoredSelection]) {
        guard filter.prices else { return ([:], []) }
        let byID = Dictionary(sources.map { ($0.rowID, $0.key) }, uniquingKeysWith: { a, _ in a })
        var sql = """
            SELECT id, source_id, book, market_id, market_name, line, selection_key, selection_name FROM selection
            WHERE source_id IN (\(Self.marks(sources.count)))
            """
        var arguments = StatementArguments(sources.map(\.rowID))
        if let book = filter.book {
            sql += " AND lower(book) = lower(?)"
            arguments += [book]
        }
        var all: [StoredSelection] = []
        for r in try Row.fetchAll(db, sql: sql, arguments: arguments) {
            guard let source = byID[r[1]] else { continue }
            all.append(StoredSelection(rowID: r[0], source: source, book: r[2], marketID: r[3], marketName: r[4], line: r[5],
                                       selectionID: r[6], selectionName: r[7]))
        }
        // The market is matched by meaning too, which SQL cannot tell.
        all.sort { $0.rowID < $1.rowID }
        return (Dictionary(filter.narrow(all, sources: sources).map { ($0.rowID, $0) }, uniquingKeysWith: { a, _ in a }), all)
    }

    private func scores(of sources: [StoredSource], since: Int64, _ db: Database) throws -> [StoredScore] {
        let byID = Dictionary(sources.map { ($0.rowID, $0.key) }, uniquingKeysWith: { a, _ in a })
        return try Row.fetchAll(db, sql: """
            SELECT received_at, source_id, home, away, score_text, status, period, clock, provider_at FROM score_change
            WHERE source_id IN (\(Self.marks(sources.count))) AND received_at >= ? ORDER BY received_at, rowid
            """, arguments: StatementArguments(sources.map(\.rowID)) + [since]).compactMap { r in
            guard let source = byID[r[1]] else { return nil }
            return StoredScore(at: Date(historyMillis: r[0]), providerAt: (r[8] as Int64?).map(Date.init(historyMillis:)), source: source,
                               state: ScoreState(home: r[2], away: r[3], scoreText: r[4], status: r[5], period: r[6], clock: r[7]))
        }
    }

    private func incidents(of sources: [StoredSource], since: Int64, _ db: Database) throws -> [StoredIncident] {
        let byID = Dictionary(sources.map { ($0.rowID, $0.key) }, uniquingKeysWith: { a, _ in a })
        return try Row.fetchAll(db, sql: """
            SELECT received_at, source_id, kind, minute, added_time, side, player, assist, player_out, reason, detail,
                   score_home, score_away, rescinded, provider_at
            FROM incident WHERE source_id IN (\(Self.marks(sources.count))) AND received_at >= ? ORDER BY received_at, rowid
            """, arguments: StatementArguments(sources.map(\.rowID)) + [since]).compactMap { r in
            guard let source = byID[r[1]] else { return nil }
            let score: Score? = { () -> Score? in
                guard let h = r[11] as Int?, let a = r[12] as Int? else { return nil }
                return Score(home: h, away: a)
            }()
            let incident = Incident(kind: IncidentKind(rawValue: r[2]) ?? .other, minute: r[3], team: (r[5] as String?).flatMap(Side.init(rawValue:)),
                                    player: r[6], detail: r[10], addedTime: r[4], assist: r[7], playerOut: r[8], reason: r[9],
                                    score: score, rescinded: r[13])
            return StoredIncident(at: Date(historyMillis: r[0]), providerAt: (r[14] as Int64?).map(Date.init(historyMillis:)),
                                  source: source, incident: incident)
        }
    }

    func watches(of providers: [ProviderID], during range: ClosedRange<Date>) throws -> [WatchSpan] {
        guard !providers.isEmpty else { return [] }
        return try read { db in
            try Row.fetchAll(db, sql: """
                SELECT provider, started_at, ended_at FROM watch
                WHERE provider IN (\(Self.marks(providers.count))) AND ended_at >= ? AND started_at <= ? ORDER BY started_at
                """, arguments: StatementArguments(providers.map(\.rawValue)) + [range.lowerBound.historyMillis, range.upperBound.historyMillis])
                .map { r in WatchSpan(provider: SQLiteHistory.provider(r[0]), from: Date(historyMillis: r[1]), to: Date(historyMillis: r[2])) }
        }
    }

    func stats() throws -> HistoryStats {
        let files = [path, path + "-wal"].compactMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int64 }
        return try read { db in
            func count(_ table: String) throws -> Int { try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
            let oldest = try Int64.fetchOne(db, sql: "SELECT min(received_at) FROM price_change")
            let newest = try Int64.fetchOne(db, sql: "SELECT max(received_at) FROM price_change")
            let prune = try Row.fetchOne(db, sql: "SELECT pruned_at, cutoff, changes FROM prune_log ORDER BY pruned_at DESC LIMIT 1").map {
                PruneRecord(at: Date(historyMillis: $0[0]), cutoff: Date(historyMillis: $0[1]), changes: $0[2])
            }
            // SQLite gives a bare column the row of its group's max().
            let watched = try Row.fetchAll(db, sql: "SELECT provider, started_at, max(ended_at) FROM watch GROUP BY provider ORDER BY provider").map {
                WatchSpan(provider: SQLiteHistory.provider($0[0]), from: Date(historyMillis: $0[1]), to: Date(historyMillis: $0[2]))
            }
            return HistoryStats(schemaVersion: try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0,
                                sources: try count("source"), selections: try count("selection"), priceChanges: try count("price_change"),
                                scoreChanges: try count("score_change"), incidents: try count("incident"), bytes: files.reduce(0, +),
                                oldest: oldest.map(Date.init(historyMillis:)), newest: newest.map(Date.init(historyMillis:)), lastPrune: prune,
                                watched: watched)
        }
    }

    func prune(before cutoff: Date) throws -> Int {
        let ms = cutoff.historyMillis
        // Pruned sources and selections take their ids with them.
        defer { sourceIDs = [:]; selectionIDs = [:]; watchIDs = [:] }
        do {
            return try pool.write { db in
                var dropped = 0
                for table in ["price_change", "score_change", "incident"] {
                    try db.execute(sql: "DELETE FROM \(table) WHERE received_at < ?", arguments: [ms])
                    dropped += db.changesCount
                }
                // A source nothing is left of goes with its selections.
                try db.execute(sql: "DELETE FROM source WHERE last_seen < ?", arguments: [ms])
                try db.execute(sql: "DELETE FROM watch WHERE ended_at < ?", arguments: [ms])
                try db.execute(sql: "INSERT INTO prune_log (pruned_at, cutoff, changes) VALUES (?, ?, ?)",
                               arguments: [Date().historyMillis, ms, dropped])
                return dropped
            }
        } catch {
            throw OddsError.history("Cannot prune the history at \(path): \(SQLiteHistory.reason(error)).")
        }
    }

    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try pool.read(body) } catch let e as OddsError { throw e } catch {
            throw OddsError.history("Cannot read the history at \(path): \(SQLiteHistory.reason(error)).")
        }
    }

    // MARK: - Bets

    private func writeLedger<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try pool.write(body) } catch let e as OddsError { throw e } catch {
            throw OddsError.history("Cannot write the bet ledger at \(path): \(SQLiteHistory.reason(error)).")
        }
    }

    func addBet(_ b: StoredBet) throws -> Int64 {
        try writeLedger { db in
            try db.execute(sql: """
                INSERT INTO bet (placed_at, provider, event_id, match_key, sport, league, home, away, start_time, market_id, market_name,
                                 line, selection_key, selection_name, book, price_text, odds_num, odds_den, stake, note, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [b.placedAt.historyMillis, b.source.provider.rawValue, b.source.eventID, b.matchKey, b.sport, b.league,
                                 b.home, b.away, b.startTime?.historyMillis, b.marketID, b.marketName, b.line, b.selectionID,
                                 b.selectionName, b.book, b.priceText, b.odds.numerator, b.odds.denominator, b.stake, b.note,
                                 Date().historyMillis])
            return db.lastInsertedRowID
        }
    }

    func bets() throws -> [StoredBet] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, placed_at, provider, event_id, match_key, sport, league, home, away, start_time, market_id, market_name, line,
                       selection_key, selection_name, book, price_text, odds_num, odds_den, stake, note,
                       graded_at, result, final_home, final_away, close_text, close_fair, clv
                FROM bet ORDER BY placed_at, id
                """).compactMap { r in
                guard let odds = Rational(r[17] as Int64, r[18] as Int64) else { return nil }
                var bet = StoredBet(id: r[0], placedAt: Date(historyMillis: r[1]), source: SourceKey(provider: SQLiteHistory.provider(r[2]), eventID: r[3]),
                                    matchKey: r[4], sport: r[5], league: r[6], home: r[7], away: r[8],
                                    startTime: (r[9] as Int64?).map(Date.init(historyMillis:)), marketID: r[10], marketName: r[11], line: r[12],
                                    selectionID: r[13], selectionName: r[14], book: r[15], priceText: r[16], odds: odds, stake: r[19], note: r[20])
                if let at = r[21] as Int64?, let result = r[22] as String? {
                    bet.grade = StoredGrade(at: Date(historyMillis: at), result: result, finalHome: (r[23] as Int64?).map { Int($0) },
                                            finalAway: (r[24] as Int64?).map { Int($0) }, closeText: r[25], closeFair: r[26], clv: r[27])
                }
                return bet
            }
        }
    }

    func gradeBet(id: Int64, _ g: StoredGrade) throws -> Bool {
        try writeLedger { db in
            try db.execute(sql: """
                UPDATE bet SET graded_at = ?, result = ?, final_home = ?, final_away = ?, close_text = ?, close_fair = ?, clv = ? WHERE id = ?
                """, arguments: [g.at.historyMillis, g.result, g.finalHome, g.finalAway, g.closeText, g.closeFair, g.clv, id])
            return db.changesCount > 0
        }
    }

    func removeBet(id: Int64) throws -> Bool {
        try writeLedger { db in
            try db.execute(sql: "DELETE FROM bet WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }
}
