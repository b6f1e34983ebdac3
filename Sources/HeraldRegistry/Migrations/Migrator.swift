/// One step of the schema: the statements that create or change what its
/// version needs, written per backend in its dialect.
struct Migration: Sendable {
    let version: Int
    let statements: [SQLStatement]
}

/// Brings a database's schema up to the newest version this Herald knows,
/// recording each version applied in `herald_schema_migrations`.
///
/// Everything runs in one transaction: either every pending version is
/// applied and recorded or none is (both databases run DDL in transactions).
/// Two instances migrating at once are serialized by `lockMigrations` (a
/// PostgreSQL advisory lock; SQLite's write lock) taken before the table of
/// versions is even created, so the second finds the work done and applies
/// nothing. Versions a newer Herald recorded are left alone.
struct Migrator: Sendable {
    let sql: RegistrySQL
    let operations: RegistryOperations

    /// The versions applied now, ascending; empty when the schema was up to date.
    func migrate(_ db: any SQLConnection) throws(RegistryError) -> [Int] {
        let operation = "migrate"
        return try operations.transaction(db, operation) { () throws(RegistryError) in
            if let lock = sql.lockMigrations { _ = try db.run(lock, [], operation: operation) }
            _ = try db.run(sql.createMigrationsTable, [], operation: operation)
            var applied = Set<Int>()
            for row in try db.run(sql.appliedVersions, [], operation: operation) {
                guard let text = row.first ?? nil, let version = Int(text) else {
                    throw RegistryError(
                        .migration, operation: operation,
                        message:
                            "\(sql.appliedVersions.table) holds a version that is not an integer")
                }
                applied.insert(version)
            }
            var now: [Int] = []
            for migration in sql.migrations where !applied.contains(migration.version) {
                do throws(RegistryError) {
                    for statement in migration.statements { _ = try db.run(statement, [], operation: operation) }
                    _ = try db.run(sql.recordVersion, [.integer(Int64(migration.version))], operation: operation)
                } catch  where !error.isRetryable {
                    throw RegistryError(
                        .migration, operation: operation,
                        message:
                            "migration \(migration.version) failed, nothing was applied: \(error.message)")
                }
                now.append(migration.version)
            }
            return now
        }
    }
}
