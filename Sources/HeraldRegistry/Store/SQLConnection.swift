import HeraldCore

/// One statement of a backend's SQL, with the table it works on for error
/// messages. The text has placeholders only (`?1`, `$1`): values always
/// travel as bound parameters.
struct SQLStatement: Sendable, Hashable {
    let table: String
    let text: String

    init(_ table: String, _ text: String) {
        self.table = table
        self.text = text
    }
}

/// A value bound to a statement's placeholder.
enum SQLParameter: Sendable, Hashable {
    case text(String)
    case integer(Int64)
    case null

    /// `.text`, or `.null` for nil.
    static func optional(_ text: String?) -> SQLParameter { text.map { .text($0) } ?? .null }
}

/// One open database connection, used only by the thread that opened it
/// (`ConnectionPool`): neither sqlite3 nor PGconn handles may be shared.
///
/// Rows come back as text, nil for NULL: both backends give every column as
/// text, and `RegistryOperations` reads the few integer columns from it.
protocol SQLConnection: AnyObject {
    /// Runs one statement; its rows (none for a statement without results).
    /// Failures carry `operation` and name the statement's table.
    func run(_ statement: SQLStatement, _ parameters: [SQLParameter], operation: String) throws(RegistryError)
        -> [[String?]]

    /// False when the connection is known to be lost or left inside a
    /// transaction: the pool closes it and opens another for the next job.
    var isUsable: Bool { get }

    /// Frees the handle; the connection is not used afterwards.
    func close()
}

/// The errors a connection reports, shaped alike on both backends: each
/// names the database by its label (`SQLite (path)`,
/// `PostgreSQL (postgres://user:***@host/db)`), and the backend supplies
/// only its own words (the kind, the database's message, a detail).
struct ConnectionErrors: Sendable {
    /// The database as messages name it.
    let label: String

    /// The database cannot be opened: `.unavailable`, "cannot `verb` `label`: `message`".
    func unreachable(_ verb: String, _ message: String, _ operation: String) -> RegistryError {
        RegistryError(.unavailable, operation: operation, message: "cannot \(verb) \(label): \(message)")
    }

    /// A statement on a connection already closed.
    func closed(_ operation: String) -> RegistryError {
        RegistryError(.internal, operation: operation, message: "\(label) is closed")
    }

    /// A statement failed: "`label` `table`: `message``detail`", and for
    /// `.migration` (a table is missing) the advice to migrate.
    func statement(
        _ kind: RegistryError.Kind, _ statement: SQLStatement, _ message: String, detail: String = "",
        _ operation: String
    ) -> RegistryError {
        let hint = kind == .migration ? "; the schema is missing, run migrate() first" : ""
        return RegistryError(
            kind, operation: operation, message: "\(label) \(statement.table): \(message)\(detail)\(hint)")
    }
}

extension Timestamp {
    /// Microseconds since the epoch, rounded down (saturating): the precision
    /// both backends keep.
    var microsecondsSinceEpoch: Int64 {
        Int64(clamping: Int128(seconds) * 1_000_000 + Int128(nanoseconds / 1000))
    }

    init(microsecondsSinceEpoch microseconds: Int64) {
        let (seconds, remainder) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        self.init(seconds: seconds, nanoseconds: remainder * 1000)
    }
}
