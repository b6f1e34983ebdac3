import HeraldCore
import HeraldRegistry
import HeraldTestSupport
import Testing

/// A PostgreSQL that goes away and comes back: calls fail `.unavailable`
/// (retryable) meanwhile and work again after, with no new store. The test
/// stops a server of its own (port 5434, .build/postgres-outage), so the
/// shared test server and every other test are untouched; it is stopped at
/// the end whether the test passed or not.
@Suite(.serialized) struct OutageTests {
    static let server = TestServer(environment: [
        "HERALD_POSTGRES_DIR": ".build/postgres-outage", "HERALD_POSTGRES_PORT": "5434",
    ])

    @Test func aStoppedServerIsUnavailableThenWorksAgain() async throws {
        let server = Self.server
        try await server.start()
        do {
            try await TestDatabase.with(.postgres, server: server) { database in
                let store = try database.makeStore(poolSize: 2)
                defer { store.close() }
                _ = try await store.migrate()
                _ = try await store.register(
                    Devices.fcm(1), channels: ["c"], environment: nil, topic: nil, at: Devices.time())

                try await server.stop()
                // Every connection of the pool finds it gone, each call says so.
                for _ in 0..<3 {
                    let error = try #require(
                        await registryError { () throws(RegistryError) in
                            try await store.count(app: "chat", channel: "c")
                        })
                    #expect(error.kind == .unavailable)
                    #expect(error.isRetryable)
                    #expect(error.operation == "count")
                    #expect(
                        error.message.contains(
                            "cannot connect to PostgreSQL (postgres://herald:***@127.0.0.1:5434/herald_test)"),
                        "\(error)")
                    #expect(!error.message.contains(":herald@"), "the password leaked: \(error)")
                }
                let failed = await registryError { () throws(RegistryError) in
                    try await store.register(
                        Devices.fcm(2), channels: ["c"], environment: nil, topic: nil, at: Devices.time())
                }
                #expect(failed?.kind == .unavailable)

                try await server.start()
                #expect(try await store.count(app: "chat", channel: "c") == 1)
                #expect(
                    try await store.register(
                        Devices.fcm(2), channels: ["c"], environment: nil, topic: nil, at: Devices.time())
                        == ["c": .created])
                #expect(try await store.count(app: "chat", channel: "c") == 2)
            }
        } catch {
            try? await server.start()
            try? await server.stop()
            throw error
        }
        try await server.stop()
    }
}
