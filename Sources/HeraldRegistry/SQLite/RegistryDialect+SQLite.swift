import HeraldCore

extension RegistryDialect {
    /// The registry in one SQLite file: for a single Herald instance and for
    /// development. One connection on its own thread does all the work (SQLite
    /// admits one writer at a time anyway); WAL mode and a busy timeout let
    /// other processes (the CLI, a backup) read and write the file meanwhile.
    ///
    /// `path` is the database file (created on first use, with its `-wal` and
    /// `-shm` files beside it); nothing is opened until the store's first call.
    public static func sqlite(path: String) throws(RegistryError) -> RegistryDialect {
        guard !path.isEmpty else { throw RegistryError(.invalidInput, operation: "open", message: "the SQLite path is empty") }
        return RegistryDialect(sql: SQLiteDialect.sql, location: path, poolSize: 1) { operation throws(RegistryError) in
            try SQLiteConnection.open(path: path, operation: operation)
        }
    }
}
