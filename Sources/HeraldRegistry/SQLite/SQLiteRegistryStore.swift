import HeraldCore

/// The registry in one SQLite file: for a single Herald instance and for
/// development. One connection on its own thread does all the work (SQLite
/// admits one writer at a time anyway); WAL mode and a busy timeout let
/// other processes (the CLI, a backup) read and write the file meanwhile.
public final class SQLiteRegistryStore: SQLRegistryStore, @unchecked Sendable {
    /// The database file (created on first use, with its `-wal` and `-shm` files beside it).
    public let path: String

    /// A store on the file at `path`; nothing is opened until the first call.
    public init(path: String, providers: ProviderCatalog, limits: RegistryLimits = .default) throws(RegistryError) {
        guard !path.isEmpty else { throw RegistryError(.invalidInput, operation: "open", message: "the SQLite path is empty") }
        self.path = path
        try super.init(sql: SQLiteDialect.sql, providers: providers, limits: limits, poolSize: 1) { operation throws(RegistryError) in
            try SQLiteConnection.open(path: path, operation: operation)
        }
    }
}
