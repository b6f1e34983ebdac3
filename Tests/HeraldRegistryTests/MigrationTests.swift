import HeraldCore
import HeraldRegistry
import HeraldTestSupport
import Testing

/// migrate(): versions applied once, concurrently safe, and what a store says without it.
@Suite struct MigrationTests {
    @Test(arguments: Backend.allCases) func migrateAppliesEachVersionOnce(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { database in
            let store = try database.makeStore()
            defer { store.close() }
            #expect(try await store.migrate() == [1, 2, 3, 4, 5])
            #expect(try await store.migrate() == [])
            let second = try database.makeStore()
            defer { second.close() }
            #expect(try await second.migrate() == [])
        }
    }

    /// Runs `migrate()` on every store at once; what each applied, fewest versions first.
    static func migrateTogether(_ stores: [any RegistryStore]) async throws -> [[Int]] {
        let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
            for store in stores { group.addTask { try await store.migrate() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        return applied.sorted { $0.count < $1.count }
    }

    @Test(arguments: Backend.allCases) func migratingAtOnceFromTwoStoresAppliesOnce(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { database in
            let stores = try (0..<2).map { _ in try database.makeStore() }
            defer { stores.forEach { $0.close() } }
            #expect(try await Self.migrateTogether(stores) == [[], [1, 2, 3, 4, 5]])
            _ = try await stores[0].register(
                Devices.fcm(1), channels: ["c"], environment: nil, topic: nil, at: Devices.time())
            #expect(try await stores[1].count(app: "chat", channel: "c") == 1)
        }
    }

    /// Both stores opening a new SQLite file switch it to write-ahead logging,
    /// and SQLite refuses one of two simultaneous switches at once, busy
    /// timeout or not (a few rounds in a hundred): neither store may fail.
    @Test func storesOpeningANewSQLiteFileTogetherBothWork() async throws {
        for _ in 0..<40 {
            try await TestDatabase.with(.sqlite) { database in
                let stores = try (0..<2).map { _ in try database.makeStore() }
                defer { stores.forEach { $0.close() } }
                #expect(try await Self.migrateTogether(stores) == [[], [1, 2, 3, 4, 5]])
            }
        }
    }

    /// Version 4 (`herald_apps`) counts the registrations a registry of an
    /// older Herald already holds, so the per-app limit holds from the start.
    @Test(arguments: Backend.allCases) func version4CountsTheRegistrationsAlreadyStored(_ backend: Backend) async throws
    {
        try await TestDatabase.with(backend) { database in
            let store = try database.makeStore()
            defer { store.close() }
            _ = try await store.migrate()
            _ = try await store.register(
                Devices.apns(1), channels: ["a", "b"], environment: nil, topic: nil, at: Devices.time())
            _ = try await store.register(
                Devices.apns(2), channels: ["a"], environment: nil, topic: nil, at: Devices.time())
            _ = try await store.register(
                Devices.apns(3, app: "shop"), channels: ["a"], environment: nil, topic: nil, at: Devices.time())
            // Back to version 3: as an older Herald left it.
            let downgrade = "DROP TABLE herald_apps; DELETE FROM herald_schema_migrations WHERE version = 4;"
            switch backend {
            case .sqlite: try await ScriptRunner.run("/usr/bin/sqlite3", [database.location, downgrade])
            case .postgres: try await PostgresAdmin.execute(database.location, downgrade)
            }
            let again = try database.makeStore(
                limits: RegistryLimits(maxChannelsPerDevice: 10, maxDevicesPerChannel: 10, maxRegistrationsPerApp: 4))
            defer { again.close() }
            #expect(try await again.migrate() == [4])
            #expect(try await again.count(app: "chat", channel: nil) == 3)
            #expect(try await again.count(app: "shop", channel: nil) == 1)
            // chat holds 3 of its 4: one more fits, two do not.
            await #expect(throws: RegistryError.self) {
                _ = try await again.register(
                    Devices.apns(4), channels: ["x", "y"], environment: nil, topic: nil, at: Devices.time())
            }
            #expect(
                try await again.register(
                    Devices.apns(4), channels: ["x"], environment: nil, topic: nil, at: Devices.time()) == [
                        "x": .created
                    ])
        }
    }

    @Test(arguments: Backend.allCases) func anUnmigratedDatabaseSaysSo(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { database in
            let store = try database.makeStore()
            defer { store.close() }
            let error = await registryError { () throws(RegistryError) in
                try await store.count(app: "chat", channel: "c")
            }
            #expect(error?.kind == .migration)
            #expect(error?.message.contains("herald_channels") == true, "\(String(describing: error))")
            #expect(error?.message.contains("run migrate() first") == true)
        }
    }
}
