import Foundation
import HeraldAMQP
import HeraldCore
import HeraldTestSupport

/// The shared test broker on 127.0.0.1:5672 (or `HERALD_AMQP_URL`), and helpers
/// that give every test its own uniquely named queues and exchanges.
enum TestBroker {
    static var url: String {
        ProcessInfo.processInfo.environment["HERALD_AMQP_URL"] ?? "amqp://guest:guest@127.0.0.1:5672/%2f"
    }

    /// A name no other test (or test run) uses.
    static func uniqueName(_ purpose: String) -> String {
        "test.amqp.\(purpose).\(String(UInt64.random(in: 0 ... .max), radix: 36))"
    }

    static func configuration(url: String = TestBroker.url, heartbeat: Duration = .seconds(10)) throws -> AMQPConfiguration {
        var configuration = try AMQPConfiguration(url: url)
        configuration.heartbeat = heartbeat
        configuration.connectTimeout = .seconds(2)
        // A bound only a broker that never answers reaches: on a loaded machine a quorum
        // queue's declare or delete (its Raft group starting or stopping) took over 10 s.
        configuration.operationTimeout = .seconds(60)
        configuration.reconnect = BackoffPolicy(initial: .milliseconds(50), maximum: .milliseconds(500), maxAttempts: 30)
        configuration.shutdownGracePeriod = .seconds(2)
        return configuration
    }

    /// Runs `body` with a connected `AMQPConnection`, then shuts it down and waits for `run()`.
    static func withConnection<T: Sendable>(
        _ configuration: AMQPConfiguration? = nil, topology: TopologyOptions? = nil,
        logger: Logger = Logger(label: "test.amqp", level: .warning, sink: MemoryLogSink()),
        _ body: @Sendable (AMQPConnection) async throws -> T
    ) async throws -> T {
        let connection = try AMQPConnection(configuration: configuration ?? self.configuration(), topology: topology,
                                            logger: logger)
        let runner = Task { try await connection.run() }
        do {
            try await connection.waitUntilConnected()
            let result = try await body(connection)
            connection.shutdown()
            try await runner.value
            return result
        } catch {
            connection.shutdown()
            _ = try? await runner.value
            throw error
        }
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
