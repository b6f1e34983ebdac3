import CPostgres
import Foundation
import HeraldCore
import HeraldProviders
import HeraldRegistry

/// The two registry backends; every behaviour test runs on both (the
/// registry's own tests, the CLI's and the service's).
public enum Backend: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgres

    public var description: String { rawValue }
}

/// A database of one test's own, so tests run in parallel: a fresh SQLite
/// file in a temporary directory, or a fresh schema on the test server
/// (`scripts/postgres`), reached through `search_path` in the URL.
public struct TestDatabase: Sendable {
    public let backend: Backend
    /// The SQLite file, or the PostgreSQL URL with the schema.
    public let location: String
    private let cleanup: @Sendable () async -> Void

    /// A store on this database; several stores may share it (several instances).
    public func makeStore(
        limits: RegistryLimits = .default, poolSize: Int = 4, secretKey: RegistrySecretKey? = nil
    ) throws -> any RegistryStore {
        switch backend {
        case .sqlite:
            try SQLRegistryStore(
                .sqlite(path: location), providers: .registered, limits: limits, secretKey: secretKey)
        case .postgres:
            try SQLRegistryStore(
                .postgres(url: location, poolSize: poolSize), providers: .registered, limits: limits,
                secretKey: secretKey)
        }
    }

    /// The `registry:` section of a Herald config on this database, with
    /// the `extra` settings (`max_registrations_per_app: 3`) after its own.
    public func configSection(_ extra: [String] = []) -> String {
        let own =
            switch backend {
            case .sqlite: ["backend: sqlite", "path: \(location)"]
            case .postgres: ["backend: postgres", "url: \"\(location)\""]
            }
        return "registry: {\((own + extra).joined(separator: ", "))}"
    }

    /// Runs `body` with a database of its own, removed afterwards.
    public static func with<T>(
        _ backend: Backend, server: TestServer = .shared,
        _ body: (TestDatabase) async throws -> T
    ) async throws -> T {
        let database = try await make(backend, server: server)
        do {
            let result = try await body(database)
            await database.cleanup()
            return result
        } catch {
            await database.cleanup()
            throw error
        }
    }

    /// Runs `body` with a migrated store on a database of its own.
    public static func withStore<T>(
        _ backend: Backend, limits: RegistryLimits = .default,
        _ body: (any RegistryStore) async throws -> T
    ) async throws -> T {
        try await with(backend) { database in
            let store = try database.makeStore(limits: limits)
            defer { store.close() }
            _ = try await store.migrate()
            return try await body(store)
        }
    }

    private static func make(_ backend: Backend, server: TestServer) async throws -> TestDatabase {
        switch backend {
        case .sqlite:
            let directory = try makeTemporaryDirectory("registry")
            return TestDatabase(backend: .sqlite, location: directory + "/registry.sqlite") {
                removeTemporaryDirectory(directory)
            }
        case .postgres:
            let url = try await server.url()
            let schema = "test_\(String(UInt64.random(in: 0 ... .max), radix: 36))"
            try await PostgresAdmin.execute(url, "CREATE SCHEMA \(schema)")
            return TestDatabase(backend: .postgres, location: url + "?options=-c%20search_path%3D\(schema)") {
                try? await PostgresAdmin.execute(url, "DROP SCHEMA \(schema) CASCADE")
            }
        }
    }
}

/// A PostgreSQL server `scripts/postgres` runs: the shared test server, or
/// one of a test's own (its own directory and port) that it may stop.
public struct TestServer: Sendable {
    /// `HERALD_POSTGRES_DIR` and `HERALD_POSTGRES_PORT` for the script; empty for the shared server.
    public let environment: [String: String]

    public init(environment: [String: String]) { self.environment = environment }

    /// The server scripts/test starts (127.0.0.1:5433), or `HERALD_POSTGRES_URL`.
    public static let shared = TestServer(environment: [:])

    public func url() async throws -> String {
        if environment.isEmpty, let url = ProcessInfo.processInfo.environment["HERALD_POSTGRES_URL"] { return url }
        return try await script("url").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public func start() async throws { try await script("start") }
    public func stop() async throws { try await script("stop") }

    /// Runs `scripts/postgres COMMAND` for this server; throws with its output when it fails.
    @discardableResult
    public func script(_ command: String) async throws -> String {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let run = try await runTool(
            "/usr/bin/env", assignments + [root.appendingPathComponent("scripts/postgres").path, command])
        guard run.status == 0 else {
            throw TestFailure("scripts/postgres \(command) failed (\(run.status)): \(run.output)")
        }
        return run.output
    }
}

/// Statements the tests run themselves (schemas), over libpq.
public enum PostgresAdmin {
    public static func execute(_ url: String, _ sql: String) async throws {
        let failure: String? = await onOwnThread {
            guard let connection = PQconnectdb(url) else { return "out of memory" }
            defer { PQfinish(connection) }
            guard PQstatus(connection) == CONNECTION_OK else { return String(cString: PQerrorMessage(connection)) }
            PQsetNoticeProcessor(connection, { _, _ in }, nil)  // "drop cascades to ..."
            let result = PQexec(connection, sql)
            defer { PQclear(result) }
            return PQresultStatus(result) == PGRES_COMMAND_OK ? nil : String(cString: PQerrorMessage(connection))
        }
        if let failure { throw TestFailure("\(sql): \(failure)") }
    }
}
