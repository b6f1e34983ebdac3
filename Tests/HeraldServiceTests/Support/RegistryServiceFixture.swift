import HeraldCore
import HeraldRegistry
import HeraldTestSupport
import Testing

/// A service with a registry, for the end-to-end tests of registry
/// commands: the simulator, the service, the test's own store on the same
/// database, the results, and publishers of registry commands and events.
struct RegistryServiceFixture {
    let simulator: SimulatorHarness
    let config: ServiceConfig
    let store: any RegistryStore
    let results: ResultsCollector
    let running: RunningService
    let commands: TestPublisher
    let events: TestPublisher

    /// - Parameters:
    ///   - registry: lines added to the `registry:` section.
    ///   - apps: YAML added to the app's section (`ServiceConfig.webPushSection`).
    ///   - clock: the service's time; the real one by default.
    ///   - before: what the test stores before the service starts.
    init(
        _ database: TestDatabase, registry: [String] = [], apps: (SimulatorHarness) -> String = { _ in "" },
        logLevel: LogLevel = .warning, clock: @escaping @Sendable () -> Timestamp = { Timestamp.now() },
        before: (any RegistryStore) async throws -> Void = { _ in }
    ) async throws {
        simulator = try await SimulatorHarness()
        config = try ServiceConfig(
            simulator: simulator, extraAppsYAML: apps(simulator), providerTimeout: "30s",
            topLevelExtra: database.configSection(registry))
        store = try database.makeStore()
        _ = try await store.migrate()
        try await before(store)
        results = try await ResultsCollector(prefix: config.prefix)
        running = RunningService(try config.load(), logLevel: logLevel, clock: clock)
        commands = TestPublisher(connection: results.connection, exchange: "\(config.prefix).registry")
        events = TestPublisher(connection: results.connection, exchange: "\(config.prefix).events")
        #expect(await running.waitUntilConsuming())
    }

    func stop() async throws {
        try await running.stop()
        store.close()
        await results.close(deleting: config.queues)
        simulator.stop()
    }
}
