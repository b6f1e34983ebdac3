import Foundation
import HeraldAMQP
import HeraldBrokerTestSupport
import HeraldCore
import HeraldTestSupport

/// The shared test broker (`BrokerFixture.url`) as the AMQP tests connect
/// to it; every test's queues and exchanges are named by `BrokerFixture`.
enum TestBroker {
    static var url: String { BrokerFixture.url }

    /// A name no other test (or test run) uses.
    static func uniqueName(_ purpose: String) -> String { BrokerFixture.uniqueName("amqp-\(purpose)") }

    static func configuration(url: String = TestBroker.url, heartbeat: Duration = .seconds(10)) throws
        -> AMQPConfiguration
    {
        var configuration = try AMQPConfiguration(url: url)
        configuration.heartbeat = heartbeat
        configuration.connectTimeout = .seconds(2)
        // A bound only a broker that never answers reaches: on a loaded machine a quorum
        // queue's declare or delete (its Raft group starting or stopping) took over 10 s.
        configuration.operationTimeout = .seconds(60)
        configuration.reconnect = BackoffPolicy(
            initial: .milliseconds(50), maximum: .milliseconds(500), maxAttempts: 30)
        configuration.shutdownGracePeriod = .seconds(2)
        return configuration
    }

    /// Runs `body` with a connected `AMQPConnection`, then shuts it down and waits for `run()`.
    static func withConnection<T: Sendable>(
        _ configuration: AMQPConfiguration? = nil, topology: TopologyOptions? = nil,
        logger: Logger = Logger(label: "test.amqp", level: .warning, sink: MemoryLogSink()),
        _ body: @Sendable (AMQPConnection) async throws -> T
    ) async throws -> T {
        let connection = try AMQPConnection(
            configuration: configuration ?? self.configuration(), topology: topology,
            logger: logger)
        return try await BrokerFixture.using(connection, body)
    }

    /// Receives the next delivery or fails after `timeout`.
    static func next(_ consumer: AMQPConsumer, timeout: Duration = .seconds(60)) async throws -> AMQPDelivery {
        try await within(timeout, "delivery on \(consumer.queue)") {
            var iterator = consumer.deliveries.makeAsyncIterator()
            return try await iterator.next()
        }
    }
}

extension String {
    var bytes: [UInt8] { Array(utf8) }
}
