import Foundation
import HeraldTestSupport

/// One process-level test's world: a simulator, a results collector on the
/// test's results exchange, and the `herald run` children it started — all
/// torn down by `ProcessFixture.with` (children are SIGKILLed and reaped,
/// queues deleted) whether the test body passed, failed or threw.
final class ProcessFixture: @unchecked Sendable {
    let simulator: SimulatorHarness
    let results: ResultsCollector
    let config: ServiceConfig
    private var children: [ChildProcess] = []
    private let lock = NSLock()

    private init(simulator: SimulatorHarness, results: ResultsCollector, config: ServiceConfig) {
        self.simulator = simulator
        self.results = results
        self.config = config
    }

    /// Runs `body` with a fixture whose collector reads the results exchange of `config`
    /// (and of every config sharing its names); tears down after.
    static func with(simulator: SimulatorHarness, config: ServiceConfig, _ body: (ProcessFixture) async throws -> Void)
        async throws
    {
        let results = try await ResultsCollector(prefix: config.prefix)
        let fixture = ProcessFixture(simulator: simulator, results: results, config: config)
        do {
            try await body(fixture)
        } catch {
            await fixture.tearDown()
            throw error
        }
        await fixture.tearDown()
    }

    private func tearDown() async {
        for child in lock.withLock({ children }) { child.kill() }
        await results.close(deleting: config.queues)
    }

    /// Starts `herald run --config <file>`; killed at tear-down if still running.
    func start(_ config: ServiceConfig) throws -> ChildProcess {
        let child = try ChildProcess.heraldRun(config: config.file)
        lock.withLock { children.append(child) }
        return child
    }

    var publisher: TestPublisher { TestPublisher(connection: results.connection, exchange: "\(config.prefix).events") }
}
