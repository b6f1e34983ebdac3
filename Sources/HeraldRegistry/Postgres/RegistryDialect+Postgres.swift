import HeraldCore

extension RegistryDialect {
    /// The registry in a PostgreSQL database: for several Herald instances
    /// sharing one registry. A pool of connections, each owned by a thread of
    /// its own; a lost connection is opened again on next use, and a call that
    /// cannot reach the server fails `.unavailable` (retryable).
    ///
    /// `url` is libpq's URL form (`postgres://user:password@host:port/database`,
    /// query parameters included); `poolSize` connections are opened as calls
    /// need them. The location messages name is the URL without password or query.
    public static func postgres(url: String, poolSize: Int = 4) throws(RegistryError) -> RegistryDialect {
        let server = PostgresConnection.label(for: url)
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
        return RegistryDialect(sql: PostgresDialect.sql, location: server, poolSize: poolSize) { operation throws(RegistryError) in
            try PostgresConnection.open(url: url, operation: operation)
        }
    }
}
