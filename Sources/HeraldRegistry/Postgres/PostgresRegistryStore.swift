import HeraldCore

/// The registry in a PostgreSQL database: for several Herald instances
/// sharing one registry. A pool of connections, each owned by a thread of
/// its own; a lost connection is opened again on next use, and a call that
/// cannot reach the server fails `.unavailable` (retryable).
public final class PostgresRegistryStore: SQLRegistryStore, @unchecked Sendable {
    /// The server as messages name it: the URL without password or query.
    public let server: String

    /// A store on the database at `url` (`postgres://user:password@host:port/database`,
    /// libpq's URL form, query parameters included) with `poolSize` connections,
    /// opened as calls need them.
    public init(url: String, providers: ProviderCatalog, poolSize: Int = 4, limits: RegistryLimits = .default) throws(RegistryError) {
        server = PostgresConnection.label(for: url)
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
            throw RegistryError(.invalidInput, operation: "open", message:
                "expected a postgres:// or postgresql:// URL, found \"\(String(url.prefix { $0 != ":" }).truncatedForMessage)…\"")
        }
        // libpq's own message for a URL it cannot read quotes the token, password included.
        do { _ = try PostgresURL(parsing: url) } catch {
            throw RegistryError(.invalidInput, operation: "open", message: "\(server) cannot be used: \(error)")
        }
        guard (1...64).contains(poolSize) else {
            throw RegistryError(.invalidInput, operation: "open", message: "pool size \(poolSize) is out of range (1-64)")
        }
        try super.init(sql: PostgresDialect.sql, providers: providers, limits: limits, poolSize: poolSize) { operation throws(RegistryError) in
            try PostgresConnection.open(url: url, operation: operation)
        }
    }
}
