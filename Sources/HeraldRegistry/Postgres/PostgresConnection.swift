import CPostgres
import Glibc
import HeraldCore

/// One libpq connection, owned by the pool thread that opened it; freed in
/// `close()`. Statements go through `PQexecParams` (values as parameters,
/// never in the text).
final class PostgresConnection: SQLConnection {
    /// Seconds a connection attempt may take, unless the URL says otherwise.
    static let connectTimeoutSeconds = 5

    private var connection: OpaquePointer?
    /// Its errors, naming `PostgreSQL (postgres://user:***@host/db)`.
    private let errors: ConnectionErrors
    /// What every libpq message passes through on its way to an error.
    private let scrubber: PostgresMessageScrubber

    private init(connection: OpaquePointer, errors: ConnectionErrors, scrubber: PostgresMessageScrubber) {
        self.connection = connection
        self.errors = errors
        self.scrubber = scrubber
    }

    deinit { close() }

    /// How messages name the server: the URL without its password or query
    /// (libpq also takes `?password=` there).
    static func label(for url: String) -> String {
        "PostgreSQL (\(URLSecrets.redacted(String(url.prefix { $0 != "?" }))))"
    }

    /// Connects to `url` (`postgres://user:password@host:port/database?…`).
    static func open(url: String, operation: String) throws(RegistryError) -> PostgresConnection {
        let errors = ConnectionErrors(label: label(for: url))
        let scrubber = PostgresMessageScrubber(url: url)
        // The URL comes last, so what it says wins over these defaults.
        // NULL-terminated, as libpq reads them.
        let keywords: [String?] = ["connect_timeout", "application_name", "dbname", nil]
        let values: [String?] = [String(connectTimeoutSeconds), "herald", url, nil]
        let handle = withCStrings(keywords) { keywords in
            withCStrings(values) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let handle else { throw errors.unreachable("connect to", "out of memory", operation) }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = scrubber.scrub(oneLine(PQerrorMessage(handle)))
            PQfinish(handle)
            throw errors.unreachable("connect to", message, operation)
        }
        // Notices ("relation already exists, skipping") would go to stderr.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        return PostgresConnection(connection: handle, errors: errors, scrubber: scrubber)
    }

    func run(_ statement: SQLStatement, _ parameters: [SQLParameter], operation: String) throws(RegistryError)
        -> [[String?]]
    {
        guard let connection else { throw errors.closed(operation) }
        let texts: [String?] = parameters.map { parameter in
            switch parameter {
            case .text(let value): value
            case .integer(let value): String(value)
            case .null: nil
            }
        }
        let result = withCStrings(texts) { values in
            PQexecParams(connection, statement.text, Int32(texts.count), nil, values, nil, nil, 0)
        }
        defer { PQclear(result) }
        guard let result else {
            throw errors.statement(
                .unavailable, statement, scrubber.scrub(Self.oneLine(PQerrorMessage(connection))), operation)
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK:
            return []
        case PGRES_TUPLES_OK:
            let columns = PQnfields(result)
            return (0..<PQntuples(result)).map { row in
                (0..<columns).map { column in
                    PQgetisnull(result, row, column) != 0 ? nil : String(cString: PQgetvalue(result, row, column))
                }
            }
        default:
            throw failure(result, connection, statement, operation)
        }
    }

    /// Usable while libpq holds it open, no transaction was left behind, and
    /// the server sent nothing since the last statement: an idle connection
    /// the server has something to say to is one it is closing (shutdown,
    /// restart, terminated backend), so it is replaced before it fails a job.
    var isUsable: Bool {
        guard let connection, PQstatus(connection) == CONNECTION_OK, PQtransactionStatus(connection) == PQTRANS_IDLE
        else {
            return false
        }
        var descriptor = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 0
    }

    func close() {
        if let connection { PQfinish(connection) }
        connection = nil
    }

    /// The error for a failed statement: its kind from the SQLSTATE (or from
    /// a connection libpq found lost), and the server's own message.
    private func failure(
        _ result: OpaquePointer, _ connection: OpaquePointer, _ statement: SQLStatement,
        _ operation: String
    ) -> RegistryError {
        let state = field(result, "C") ?? ""
        var message = field(result, "M") ?? Self.oneLine(PQresultErrorMessage(result))
        if let detail = field(result, "D") { message += " (\(detail))" }
        if PQstatus(connection) != CONNECTION_OK {
            return errors.statement(
                .unavailable, statement, scrubber.scrub(message),
                detail: "; the connection is lost and is opened again on next use", operation)
        }
        let kind: RegistryError.Kind =
            switch state {
            case "40001", "40P01": .conflict  // serialization failure, deadlock
            case "42P01": .migration  // undefined table
            case _
            where state.hasPrefix("08") || state.hasPrefix("53") || state.hasPrefix("57P") || state.hasPrefix("58"):
                .unavailable  // connection, resources, shutdown, system
            case _ where state.hasPrefix("22"): .invalidInput  // data exception
            default: .internal
            }
        return errors.statement(kind, statement, scrubber.scrub(message), detail: " [SQLSTATE \(state)]", operation)
    }

    /// A field of an error result (`PQresultErrorField`; `code` is the
    /// PG_DIAG_* letter: C the SQLSTATE, M the message, D the detail).
    private func field(_ result: OpaquePointer, _ code: Unicode.Scalar) -> String? {
        PQresultErrorField(result, Int32(code.value)).map { String(cString: $0) }
    }

    /// libpq's multi-line messages as one line.
    private static func oneLine(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "unknown error" }
        return String(cString: text).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

/// Runs `body` with `strings` as an array of C strings (nil stays NULL), valid during the call.
private func withCStrings<T>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
    let copies = strings.map { $0.flatMap { strdup($0) } }
    defer { copies.forEach { free($0) } }
    return body(copies.map { $0.map { UnsafePointer($0) } })
}
