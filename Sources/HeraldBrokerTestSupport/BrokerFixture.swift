import Foundation
import HeraldAMQP
import HeraldTestSupport

/// A test's own names on the shared test broker, and their clean-up: the one
/// way tests name what they declare there, so tests (and other helpers' test
/// runs) share the broker without sharing a queue or an exchange.
///
/// Why a module of its own: naming and clean-up need `HeraldAMQP`, which
/// `HeraldTestSupport` (also linked by the benchmarks) does without.
public struct BrokerFixture: Sendable {
    /// The shared test broker: `HERALD_AMQP_URL`, else the local RabbitMQ on 127.0.0.1:5672.
    public static var url: String {
        ProcessInfo.processInfo.environment["HERALD_AMQP_URL"] ?? "amqp://guest:guest@127.0.0.1:5672/%2f"
    }

    /// `test-<purpose>-<random>`: a prefix no other test, and no other run, uses.
    public let prefix: String

    public init(_ purpose: String) {
        prefix = "test-\(purpose)-\(String(UInt64.random(in: 0 ... .max), radix: 36))"
    }

    /// `<prefix>.<name>`.
    public func name(_ name: String) -> String { "\(prefix).\(name)" }

    /// A name no other test (or test run) uses: `test-<purpose>-<random>`.
    public static func uniqueName(_ purpose: String) -> String { BrokerFixture(purpose).prefix }

    /// The `amqp:` section of a Herald config whose exchanges and queues are
    /// all `prefix`'s, named as ``TopologyOptions`` names them for a prefix
    /// (`<prefix>.events`, `<prefix>.dead`, …, `<prefix>.registry`): the
    /// `address` lines (`url: …`, or `urls: […]` and its options), then
    /// `queue_type` and the names, then the `extra` lines.
    public static func amqpSection(
        prefix: String, address: [String], queueType: String, extra: [String] = []
    ) -> String {
        let names = [
            "queue: \(prefix).events", "events_exchange: \(prefix).events", "retry_exchange: \(prefix).retry",
            "dead_letter_exchange: \(prefix).dead", "dead_letter_queue: \(prefix).dead",
            "results_exchange: \(prefix).results", "registry_exchange: \(prefix).registry",
            "registry_queue: \(prefix).registry",
        ]
        return (["amqp:"] + (address + ["queue_type: \(queueType)"] + names + extra).map { "  " + $0 })
            .joined(separator: "\n")
    }

    /// Runs `body` on `connection` (a test's own): connected first, then shut
    /// down and its `run()` awaited (within a bound only a connection that never
    /// stops reaches), whether `body` returned or threw.
    public static func using<T: Sendable>(
        _ connection: AMQPConnection, _ body: @Sendable (AMQPConnection) async throws -> T
    ) async throws -> T {
        let runner = Task { try await connection.run() }
        do {
            try await connection.waitUntilConnected()
            let result = try await body(connection)
            connection.shutdown()
            try await awaitEnd(of: runner, "the connection's run() after shutdown()")
            return result
        } catch {
            connection.shutdown()
            _ = try? await awaitEnd(of: runner, "the connection's run() after shutdown()")
            throw error
        }
    }

    /// Deletes `queues`, then `exchanges`, on `connection`; one already gone (or
    /// never declared) is not an error.
    public static func delete(queues: [String], exchanges: [String] = [], on connection: AMQPConnection) async {
        for queue in queues { try? await connection.deleteQueue(queue) }
        for exchange in exchanges { try? await connection.deleteExchange(exchange) }
    }
}
