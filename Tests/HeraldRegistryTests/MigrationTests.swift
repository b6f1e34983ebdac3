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
            #expect(try await store.migrate() == [1, 2, 3])
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
            #expect(try await Self.migrateTogether(stores) == [[], [1, 2, 3]])
            _ = try await stores[0].register(Devices.fcm(1), channels: ["c"], environment: nil, topic: nil, at: Devices.time())
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
                #expect(try await Self.migrateTogether(stores) == [[], [1, 2, 3]])
            }
        }
    }

    @Test(arguments: Backend.allCases) func anUnmigratedDatabaseSaysSo(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { database in
            let store = try database.makeStore()
            defer { store.close() }
            let error = await registryError { () throws(RegistryError) in try await store.count(app: "chat", channel: "c") }
            #expect(error?.kind == .migration)
            #expect(error?.message.contains("herald_channels") == true, "\(String(describing: error))")
            #expect(error?.message.contains("run migrate() first") == true)
        }
    }
}
