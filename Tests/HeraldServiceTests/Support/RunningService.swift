import HeraldAMQP
import HeraldConfig
import HeraldCore
import HeraldService
import HeraldSystem
import HeraldTestSupport
import Testing

/// `DeliveryService` running in-process for a test, with a publisher to feed it.
final class RunningService: Sendable {
    let service: DeliveryService
    let config: LoadedConfig
    /// What the service logged (warnings and above, unless `logLevel` says otherwise), for assertions.
    let logs = TimedLogSink()
    private let task: Task<Void, any Error>
    private let returned = Locked(false)

    /// - Parameter clock: the service's time (`TestClock.read`); the real one by default.
    init(
        _ config: LoadedConfig, logLevel: LogLevel = .warning,
        clock: @escaping @Sendable () -> Timestamp = { Timestamp.now() }
    ) {
        self.config = config
        service = DeliveryService(
            config: config, logger: Logger(label: "herald-test", level: logLevel, sink: logs), clock: clock)
        let service = service
        task = Task { [returned] in
            defer { returned.withLock { $0 = true } }
            try await service.run()
        }
    }

    /// Whether `run()` has returned or thrown.
    var hasReturned: Bool { returned.withLock { $0 } }

    /// Waits for the consumer to be active (the topology exists), whether or
    /// not every other readiness condition holds.
    func waitUntilConsuming(timeout: Duration = .seconds(20)) async -> Bool {
        await eventually(timeout: timeout) { service.health.report.contains("consumer_active ok\n") }
    }

    /// This instance's metric `name`, summed over its label sets.
    func metric(_ name: String) -> Double { metricSum(name, in: service.metrics.registry.render()) }

    /// Graceful shutdown; returns once `run()` has returned.
    func stop() async throws {
        service.shutdown()
        try await awaitEnd(of: task, "DeliveryService.run() after shutdown()")
    }
}

/// Publishes raw bodies to a test's events exchange (anything: not only valid events).
struct TestPublisher: Sendable {
    let connection: AMQPConnection
    let exchange: String

    func publish(_ body: String, routingKey: String = "chat.message", messageID: String? = nil) async throws {
        try await publish(Array(body.utf8), routingKey: routingKey, messageID: messageID)
    }

    func publish(_ body: [UInt8], routingKey: String = "chat.message", messageID: String? = nil) async throws {
        try await connection.publish(
            exchange: exchange, routingKey: routingKey, body: body, persistent: true,
            mandatory: true, messageID: messageID)
    }
}

extension RunningService {
    /// Runs Herald on `config` around `body` with the running service, a
    /// results collector (collecting the dead letters too when
    /// `watchingDeadLetters`) and a publisher to its events exchange; stops
    /// it and deletes the test's queues after.
    static func serving(
        _ config: ServiceConfig, watchingDeadLetters: Bool = false,
        _ body: (RunningService, ResultsCollector, TestPublisher) async throws -> Void
    ) async throws {
        let results = try await ResultsCollector(prefix: config.prefix)
        let running = RunningService(try config.load())
        #expect(await running.waitUntilConsuming())
        if watchingDeadLetters { try await results.watchDeadLetters(queue: "\(config.prefix).dead") }
        try await body(
            running, results, TestPublisher(connection: results.connection, exchange: "\(config.prefix).events"))
        try await running.stop()
        await results.close(deleting: config.queues)
    }

    /// ``serving(_:watchingDeadLetters:_:)`` for a body that needs only the results and the publisher.
    static func serving(_ config: ServiceConfig, _ body: (ResultsCollector, TestPublisher) async throws -> Void)
        async throws
    {
        try await serving(config) { _, results, publisher in try await body(results, publisher) }
    }
}
