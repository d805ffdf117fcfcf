import Foundation
import NIOCore
import PostgresNIO

/// A value bound to a PostgreSQL statement: provider text reaches the server only this way, never in SQL.
enum PostgresValue {
    case int(Int64?)
    case text(String?)
    case bool(Bool?)
    case ints([Int64?])
    case texts([String?])
    case bools([Bool?])
}

extension PostgresQuery {
    /// `sql` with `$1`, `$2`… bound to `values` in order.
    static func bound(_ sql: String, _ values: [PostgresValue] = []) -> PostgresQuery {
        var binds = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .int(let v): binds.append(v)
            case .text(let v): binds.append(v)
            case .bool(let v): binds.append(v)
            case .ints(let v): binds.append(PostgresArray(v))
            case .texts(let v): binds.append(PostgresArray(v))
            case .bools(let v): binds.append(PostgresArray(v))
            }
        }
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }
}

/// One row read back, its columns by position.
struct PostgresCells {
    private let row: PostgresRandomAccessRow

    init(_ row: PostgresRow) { self.row = row.makeRandomAccess() }

    func int(_ i: Int) throws -> Int64 { try row[i].decode(Int64.self) }
    func optionalInt(_ i: Int) throws -> Int64? { try row[i].decode(Int64?.self) }
    func text(_ i: Int) throws -> String { try row[i].decode(String.self) }
    func optionalText(_ i: Int) throws -> String? { try row[i].decode(String?.self) }
    func bool(_ i: Int) throws -> Bool { try row[i].decode(Bool.self) }
    func optionalBool(_ i: Int) throws -> Bool? { try row[i].decode(Bool?.self) }
    func optionalInt32(_ i: Int) throws -> Int? { try row[i].decode(Int64?.self).map { Int($0) } }
    /// A column's bytes as sent (binary format), nil for NULL.
    func bytes(_ i: Int) -> ByteBuffer? { row[i].bytes }
}

extension PostgresCells {
    /// A score change read from six columns from `first` on: home, away, score_text, status, period, clock.
    func scoreState(from first: Int) throws -> ScoreState {
        ScoreState(home: try optionalInt32(first), away: try optionalInt32(first + 1), scoreText: try optionalText(first + 2),
                   status: try text(first + 3), period: try optionalText(first + 4), clock: try optionalText(first + 5))
    }
}

/// Rows handed from the task reading a query's row sequence, as they arrive, to the thread that asked for them: that
/// thread reads each while the server is still sending the next. At most `capacity` rows wait; the reading task then
/// waits for room, PostgresNIO stops reading the socket, and the server waits on TCP (a slow reader, such as a pipe
/// into a pager, holds the server back instead of filling memory).
final class PostgresRowHandoff: @unchecked Sendable {
    // @unchecked: everything is behind `condition`.
    private let condition = NSCondition()
    private let capacity: Int
    private var rows: [PostgresRow] = []
    private var end: Result<Void, Error>?
    private var stopped = false
    /// The reading task, waiting for room.
    private var room: CheckedContinuation<Void, Never>?
    private var held = 0

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// The most rows that waited at once.
    var mostHeld: Int { condition.withLock { held } }

    /// Adds `row` once there is room for it; false once the reader has stopped (the task should stop reading).
    func push(_ row: PostgresRow) async -> Bool {
        while true {
            let added: Bool? = condition.withLock {
                if stopped { return false }
                guard rows.count < capacity else { return nil }
                rows.append(row)
                held = max(held, rows.count)
                condition.signal()
                return true
            }
            if let added { return added }
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                let ready: Bool = condition.withLock {
                    if stopped || rows.count < capacity { return true }
                    room = c
                    return false
                }
                if ready { c.resume() }
            }
        }
    }

    /// The query ended: its rows are all pushed, or it failed.
    func finish(_ result: Result<Void, Error>) {
        condition.withLock {
            end = result
            condition.broadcast()
        }
    }

    /// The rows that arrived since the last call, waiting for one; nil once the query ended (throwing its error).
    func next() throws -> [PostgresRow]? {
        condition.lock()
        while rows.isEmpty && end == nil { condition.wait() }
        if !rows.isEmpty {
            let taken = rows
            rows.removeAll(keepingCapacity: true)
            let waiting = room
            room = nil
            condition.unlock()
            waiting?.resume()
            return taken
        }
        let result = end
        condition.unlock()
        try result?.get()
        return nil
    }

    /// The reader takes no more rows: the reading task stops, and this returns once it has (its query then ends on
    /// the connection before the next one starts).
    func stop() {
        condition.lock()
        stopped = true
        rows.removeAll()
        let waiting = room
        room = nil
        condition.unlock()
        waiting?.resume()
        condition.lock()
        while end == nil { condition.wait() }
        condition.unlock()
    }
}
