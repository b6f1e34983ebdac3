import CSQLite
import Glibc

/// One sqlite3 connection, owned by the pool thread that opened it: WAL mode
/// (readers never wait for the writer), a busy timeout (another process's
/// write lock is waited for, not failed at once), prepared statements kept
/// for reuse, and everything freed in `close()`.
final class SQLiteConnection: SQLConnection {
    /// How long a statement waits for another connection's write lock before `.unavailable`.
    static let busyTimeoutMilliseconds: Int32 = 5000

    private var db: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    /// Its errors, naming `SQLite (path)`.
    private let errors: ConnectionErrors

    private init(db: OpaquePointer, errors: ConnectionErrors) {
        self.db = db
        self.errors = errors
    }

    deinit { close() }

    /// Opens (creating if need be) the database at `path` and sets it up.
    static func open(path: String, operation: String) throws(RegistryError) -> SQLiteConnection {
        let errors = ConnectionErrors(label: "SQLite (\(path))")
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close_v2(handle)
            throw errors.unreachable("open", message, operation)
        }
        let connection = SQLiteConnection(db: handle, errors: errors)
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        let mode = try connection.useWriteAheadLogging(operation: operation)
        guard mode == "wal" else {
            throw RegistryError(
                .unavailable, operation: operation,
                message:
                    "\(errors.label) cannot use write-ahead logging (journal mode \(mode ?? "unknown"))")
        }
        // In WAL mode NORMAL keeps the database consistent; a power loss may
        // drop the last transactions, which devices register again.
        _ = try connection.run(SQLStatement("database", "PRAGMA synchronous = NORMAL"), [], operation: operation)
        return connection
    }

    /// Switches a new database to WAL (the mode is stored in the file, so a
    /// database some connection already switched is only read), returning the
    /// mode in force. Two connections opening a new database at once both try
    /// the switch, and SQLite refuses the loser with SQLITE_BUSY at once rather
    /// than through the busy handler; it reads the mode again (the winner's WAL)
    /// or tries again, within the busy timeout.
    private func useWriteAheadLogging(operation: String) throws(RegistryError) -> String? {
        let query = SQLStatement("database", "PRAGMA journal_mode")
        let change = SQLStatement("database", "PRAGMA journal_mode = WAL")
        let deadline = ContinuousClock.now + .milliseconds(Int(Self.busyTimeoutMilliseconds))
        while true {
            if let mode = try run(query, [], operation: operation).first?.first ?? nil, mode == "wal" { return mode }
            do throws(RegistryError) {
                return try run(change, [], operation: operation).first?.first ?? nil
            } catch  where error.kind == .unavailable && ContinuousClock.now < deadline {
                usleep(10_000)
            }
        }
    }

    func run(_ statement: SQLStatement, _ parameters: [SQLParameter], operation: String) throws(RegistryError)
        -> [[String?]]
    {
        guard let db else { throw errors.closed(operation) }
        let prepared = try prepare(statement, db, operation)
        // Bound with SQLITE_STATIC: the copies live until the statement is reset below.
        var copies: [UnsafeMutablePointer<CChar>] = []
        defer {
            sqlite3_reset(prepared)
            sqlite3_clear_bindings(prepared)
            copies.forEach { free($0) }
        }
        for (offset, parameter) in parameters.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch parameter {
            case .integer(let value):
                status = sqlite3_bind_int64(prepared, index, value)
            case .null:
                status = sqlite3_bind_null(prepared, index)
            case .text(let value):
                guard let copy = strdup(value) else { throw failure(SQLITE_NOMEM, statement, operation) }
                copies.append(copy)
                status = sqlite3_bind_text(prepared, index, copy, -1, nil)
            }
            guard status == SQLITE_OK else { throw failure(status, statement, operation) }
        }
        var rows: [[String?]] = []
        while true {
            let status = sqlite3_step(prepared)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw failure(status, statement, operation) }
            rows.append(
                (0..<sqlite3_column_count(prepared)).map { column in
                    sqlite3_column_text(prepared, column).map { String(cString: $0) }
                })
        }
    }

    /// Usable unless a transaction was left open (a rollback that failed).
    var isUsable: Bool { db.map { sqlite3_get_autocommit($0) != 0 } ?? false }

    func close() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements.removeAll()
        if let db { sqlite3_close_v2(db) }
        db = nil
    }

    private func prepare(_ statement: SQLStatement, _ db: OpaquePointer, _ operation: String) throws(RegistryError)
        -> OpaquePointer
    {
        if let prepared = statements[statement.text] { return prepared }
        var prepared: OpaquePointer?
        let status = sqlite3_prepare_v2(db, statement.text, -1, &prepared, nil)
        guard status == SQLITE_OK, let prepared else { throw failure(status, statement, operation) }
        statements[statement.text] = prepared
        return prepared
    }

    /// The error for a failed call: its kind from the result code, and SQLite's own message.
    private func failure(_ status: Int32, _ statement: SQLStatement, _ operation: String) -> RegistryError {
        let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
        let kind: RegistryError.Kind =
            switch status & 0xFF {
            case SQLITE_BUSY, SQLITE_LOCKED, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_READONLY,
                SQLITE_PROTOCOL, SQLITE_NOMEM:
                .unavailable
            case SQLITE_ERROR where message.hasPrefix("no such table"): .migration
            default: .internal
            }
        return errors.statement(kind, statement, message, operation)
    }
}
