import HeraldAMQP
import HeraldBrokerTestSupport
import HeraldCore
import HeraldProviders
import HeraldSystem
import HeraldTestSupport

/// Reads everything published to a results exchange (and, optionally, a
/// dead-letter queue) through our own AMQP client, for assertions.
final class ResultsCollector: Sendable {
    let connection: AMQPConnection
    private let outcomes = Locked<[(routingKey: String, outcome: Outcome)]>([])
    private let bodies = Locked<[[UInt8]]>([])
    private let registry = Locked<[(routingKey: String, result: JSONObject, messageID: String?)]>([])
    private let deadLetters = Locked<[AMQPDelivery]>([])
    private let traceRecords = Locked<[(routingKey: String, record: JSONObject, body: [UInt8])]>([])
    private let tasks = Locked<[Task<Void, Never>]>([])
    /// The dead-letter queue `watchDeadLetters` reads, if it was called.
    private let deadLetterQueue = Locked<String?>(nil)
    /// How often each marker `waitUntilSettled` sent has come back.
    private let markers = Locked<[String: Int]>([:])
    private let exchange: String
    let queue: String

    /// Reads from the broker at `url`; on a cluster, pick a node the test does
    /// not stop (the collector does not follow a lost node).
    init(prefix: String, url: String = ServiceConfig.brokerURL) async throws {
        connection = try AMQPConnection(
            configuration: try AMQPConfiguration(url: url),
            logger: Logger(label: "test-results", level: .error))
        queue = "\(prefix).results.all"
        exchange = "\(prefix).results"
        let runner = Task { [connection] in try? await connection.run() }
        tasks.withLock { $0.append(Task { await runner.value }) }
        try await connection.waitUntilConnected()
        try await connection.declareExchange("\(prefix).results", type: "topic")
        // Exclusive: gone with this connection even if the test never reaches close().
        try await connection.declareQueue(queue, lifetime: .exclusive)
        try await connection.bindQueue(queue, exchange: "\(prefix).results", routingKey: "#")
        let consumer = try await connection.consume(queue: queue, prefetch: 500)
        let reader = Task { [self] in
            do {
                for try await delivery in consumer.deliveries {
                    if await self.isMarker(delivery) { continue }
                    self.bodies.withLock { $0.append(delivery.body) }
                    if case .object(let record)? = try? JSONValue.parse(delivery.body), record["trace"] != nil {
                        self.traceRecords.withLock { $0.append((delivery.routingKey, record, delivery.body)) }
                    } else if let outcome = try? Outcome.decode(delivery.body, providers: .registered) {
                        self.outcomes.withLock { $0.append((delivery.routingKey, outcome)) }
                    } else if case .object(let result)? = try? JSONValue.parse(delivery.body), result["result"] != nil {
                        self.registry.withLock { $0.append((delivery.routingKey, result, delivery.messageID)) }
                    }
                    try? await self.connection.ack(delivery)
                }
            } catch {}
        }
        tasks.withLock { $0.append(reader) }
    }

    /// Also collects the dead-letter queue `queue` (declared by Herald's topology).
    func watchDeadLetters(queue: String) async throws {
        let consumer = try await connection.consume(queue: queue, prefetch: 100)
        deadLetterQueue.withLock { $0 = queue }
        let reader = Task { [self] in
            do {
                for try await delivery in consumer.deliveries {
                    if await self.isMarker(delivery) { continue }
                    self.deadLetters.withLock { $0.append(delivery) }
                    try? await self.connection.ack(delivery)
                }
            } catch {}
        }
        tasks.withLock { $0.append(reader) }
    }

    var all: [(routingKey: String, outcome: Outcome)] { outcomes.withLock { $0 } }
    /// The registry commands' results, as JSON objects.
    var registryResults: [(routingKey: String, result: JSONObject, messageID: String?)] { registry.withLock { $0 } }

    /// Waits (up to `timeout`) until `condition` holds over the registry results received.
    func waitForRegistryResults(
        timeout: Duration = .seconds(20),
        until condition: ([(routingKey: String, result: JSONObject, messageID: String?)]) -> Bool
    ) async -> Bool {
        await eventually(timeout: timeout) { condition(registryResults) }
    }
    /// The debug trace records (docs/debug-trace.md), with their routing keys and bytes as published.
    var traces: [(routingKey: String, record: JSONObject, body: [UInt8])] { traceRecords.withLock { $0 } }

    /// The outcome messages exactly as published.
    var rawBodies: [[UInt8]] { bodies.withLock { $0 } }
    var dead: [AMQPDelivery] { deadLetters.withLock { $0 } }

    /// Waits (up to `timeout`) until `condition` holds over the outcomes received.
    func wait(timeout: Duration = .seconds(20), until condition: ([(routingKey: String, outcome: Outcome)]) -> Bool)
        async -> Bool
    {
        await eventually(timeout: timeout) { condition(all) }
    }

    /// Waits until `instances` hold no event, then until everything they
    /// published before has been read here: a marker sent after it to the
    /// results exchange (and the dead-letter queue, when watched) has come
    /// back, and a queue hands its one consumer messages in order. A count
    /// checked after it is final for what the test published before: "nothing
    /// else came" proven by an event after it, not by waiting a while.
    func waitUntilSettled(_ instances: [RunningService], timeout: Duration = .seconds(60)) async -> Bool {
        guard await eventually(timeout: timeout, { instances.allSatisfy { $0.metric("herald_inflight_events") == 0 } })
        else {
            return false
        }
        let marker = "settled-\(String(UInt64.random(in: 0 ... .max), radix: 36))"
        let deadLetters = deadLetterQueue.withLock { $0 }
        do {
            try await connection.publish(
                exchange: exchange, routingKey: "test.settled", body: [], mandatory: true, messageID: marker)
            if let deadLetters {
                try await connection.publish(
                    exchange: "", routingKey: deadLetters, body: [], mandatory: true, messageID: marker)
            }
        } catch {
            return false
        }
        let expected = deadLetters == nil ? 1 : 2
        return await eventually(timeout: timeout) { markers.withLock { $0[marker] ?? 0 } == expected }
    }

    /// Counts and acks a marker of `waitUntilSettled`; false for any other delivery.
    private func isMarker(_ delivery: AMQPDelivery) async -> Bool {
        guard let id = delivery.messageID, id.hasPrefix("settled-") else { return false }
        markers.withLock { $0[id, default: 0] += 1 }
        try? await connection.ack(delivery)
        return true
    }

    func close(deleting queues: [String] = []) async {
        await BrokerFixture.delete(queues: queues + [queue], on: connection)
        connection.shutdown()
        for task in tasks.withLock({ $0 }) { task.cancel() }
    }
}
