import HeraldAMQP
import HeraldCore
import HeraldTestSupport
import Testing

/// Failover between the nodes of a real three-node cluster, on a quorum queue.
@Suite("Cluster failover (three local nodes)", .serialized, .cluster)
struct ClusterFailoverTests {
    static func configuration(shuffled: Bool = false) throws -> AMQPConfiguration {
        var configuration = try TestBroker.configuration(url: ClusterBroker.url(1), heartbeat: .seconds(5))
        configuration.addresses = try ClusterBroker.nodes.map { AMQPAddress(try AMQPURL(ClusterBroker.url($0))) }
        configuration.shuffleURLs = shuffled
        configuration.reconnect = BackoffPolicy(
            initial: .milliseconds(100), maximum: .milliseconds(400), maxAttempts: 100)
        return configuration
    }

    /// Publishes `ids` with confirms, publishing again what failed retryably (a publish is never dropped).
    static func publish(_ ids: Range<Int>, to queue: String, on connection: AMQPConnection) async throws -> Int {
        var republished = 0
        for index in ids {
            while true {
                do {
                    try await connection.publish(
                        exchange: "", routingKey: queue, body: "m-\(index)".bytes, mandatory: true,
                        messageID: "m-\(index)")
                    break
                } catch let error as AMQPError where error.isRetryable {
                    republished += 1
                }
            }
        }
        return republished
    }

    @Test func losingTheConnectedNodeMovesToTheNextAndNothingIsLost() async throws {
        let queue = TestBroker.uniqueName("cluster")
        let total = 400
        let sink = MemoryLogSink()
        try await TestBroker.withConnection(
            try Self.configuration(), logger: Logger(label: "test.amqp", level: .info, sink: sink)
        ) { connection in
            try await connection.declareQueue(queue, arguments: ["x-queue-type": "quorum"])
            #expect(connection.connectedNode == "127.0.0.1:5701", "the list's first node, unshuffled")
            var republished = try await Self.publish(0..<(total / 2), to: queue, on: connection)

            try await ClusterBroker.stop(1)
            try await eventually("reconnected to another node", timeout: .seconds(30)) {
                connection.isConnected && connection.connectionsOpened >= 2
            }
            #expect(connection.connectedNode == "127.0.0.1:5702", "the node after the lost one")
            #expect(
                sink.lines.contains { $0.contains("amqp connected") && $0.contains("127.0.0.1:5702") },
                "the log names the node: \(sink.lines.filter { $0.contains("amqp connected") })")
            republished += try await Self.publish((total / 2)..<total, to: queue, on: connection)

            let consumer = try await connection.consume(queue: queue, prefetch: 50)
            var seen: [String] = []
            var iterator = consumer.deliveries.makeAsyncIterator()
            while Set(seen).count < total {
                guard let delivery = try await iterator.next() else { throw TestFailure("consumer ended early") }
                try await connection.ack(delivery)
                seen.append(delivery.messageID ?? "?")
            }
            #expect(Set(seen) == Set((0..<total).map { "m-\($0)" }), "every confirmed message survived the node's loss")
            print(
                "[cluster] \(total) messages, \(republished) publishes repeated after the failover, \(seen.count - total) duplicates"
            )
            // A quorum queue is deleted on all its members: node 1 first comes back.
            try await ClusterBroker.restart(1)
            try await connection.deleteQueue(queue)
        }
    }

    @Test func withOneNodeDownEveryConnectStillFindsALiveNode() async throws {
        try await ClusterBroker.kill(1)
        try await TestBroker.withConnection(try Self.configuration()) { connection in
            #expect(connection.connectedNode == "127.0.0.1:5702", "node 1 refuses, node 2 answers")
        }
        try await TestBroker.withConnection(try Self.configuration(shuffled: true)) { connection in
            #expect(connection.connectedNode != "127.0.0.1:5701", "never the dead node")
        }
        try await ClusterBroker.restart(1)
    }
}
