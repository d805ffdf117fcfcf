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

/// Rows handed from the connection's event loop, as they arrive, to the thread that asked for them: that thread
/// reads each while the server is still sending the next.
final class PostgresRowHandoff: @unchecked Sendable {
    // @unchecked: everything is behind `condition`.
    private let condition = NSCondition()
    private var rows: [PostgresRow] = []
    private var end: Result<Void, Error>?

    func push(_ row: PostgresRow) {
        condition.lock()
        rows.append(row)
        condition.signal()
        condition.unlock()
    }

    func finish(_ result: Result<Void, Error>) {
        condition.lock()
        end = result
        condition.signal()
        condition.unlock()
    }

    /// The rows that arrived since the last call, waiting for one; nil once the query ended (throwing its error).
    func next() throws -> [PostgresRow]? {
        condition.lock()
        defer { condition.unlock() }
        while rows.isEmpty && end == nil { condition.wait() }
        if !rows.isEmpty {
            defer { rows.removeAll(keepingCapacity: true) }
            return rows
        }
        try end?.get()
        return nil
    }
}
