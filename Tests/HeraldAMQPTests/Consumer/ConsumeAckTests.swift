import HeraldAMQP
import HeraldCore
import Testing

@Suite("Consuming and settling deliveries (shared broker)")
struct ConsumeAckTests {
    @Test func publishedMessageArrivesWithItsPropertiesAndLeavesTheQueueWhenAcked() async throws {
        let queue = TestBroker.uniqueName("ack")
        try await TestBroker.withConnection { connection in
            try await connection.declareQueue(queue)
            let consumer = try await connection.consume(queue: queue, prefetch: 10)
            try await connection.publish(
                exchange: "", routingKey: queue, headers: ["x-herald-attempt": 3, "tenant": "acme"],
                body: #"{"id":"evt-1"}"#.bytes, mandatory: true, messageID: "evt-1")
            let delivery = try await TestBroker.next(consumer)
            #expect(delivery.body == #"{"id":"evt-1"}"#.bytes)
            #expect(delivery.routingKey == queue)
            #expect(delivery.exchange == "")
            #expect(delivery.messageID == "evt-1")
            #expect(delivery.contentType == "application/json")
            #expect(delivery.properties.persistent)
            #expect(delivery.attempt == 3)
            #expect(delivery.headers["tenant"] == .string("acme"))
            #expect(!delivery.redelivered)
            #expect(delivery.tag.connection == connection.connectionsOpened)
            try await connection.ack(delivery)
            try await connection.cancel(consumer)
            #expect(try await connection.messageCount(queue: queue) == 0)
            try await connection.deleteQueue(queue)
        }
    }

    /// `basic.qos` is per consumer (global 0): two consumers on the one
    /// consume channel each get their own prefetch of deliveries, where a
    /// channel-wide (global) limit would share one between them. RabbitMQ 4.3
    /// refuses global QoS by default and quorum queues never allowed it.
    @Test func prefetchIsPerConsumerNotPerChannel() async throws {
        let queue = TestBroker.uniqueName("prefetch")
        try await TestBroker.withConnection { connection in
            try await connection.declareQueue(queue)
            for index in 0..<10 {
                try await connection.publish(exchange: "", routingKey: queue, body: "m\(index)".bytes)
            }
            let first = try await connection.consume(queue: queue, prefetch: 2)
            let second = try await connection.consume(queue: queue, prefetch: 2)
            var held: [AMQPDelivery] = []
            for consumer in [first, second] {
                held.append(try await TestBroker.next(consumer))
                held.append(try await TestBroker.next(consumer))
            }
            let consumers = try await BrokerInspection.consumers(of: queue)
            #expect(consumers[first.tag]?.prefetchCount == 2)
            #expect(consumers[second.tag]?.prefetchCount == 2)
            let channel = try await BrokerInspection.channel(try #require(consumers[first.tag]?.channel))
            #expect(channel?.globalPrefetchCount == 0)
            // Four out (two each), none more while they are unacked: six still ready. The queue
            // answers the count after every dispatch it could make: a fifth delivery is in it.
            #expect(try await connection.messageCount(queue: queue) == 6)
            for delivery in held { try await connection.ack(delivery) }
            try await connection.cancel(first)
            try await connection.cancel(second)
            try await connection.deleteQueue(queue)
        }
    }

    @Test func nackWithRequeueRedeliversTheMessageFlaggedRedelivered() async throws {
        let queue = TestBroker.uniqueName("nack")
        try await TestBroker.withConnection { connection in
            try await connection.declareQueue(queue)
            let consumer = try await connection.consume(queue: queue, prefetch: 1)
            try await connection.publish(exchange: "", routingKey: queue, body: "again".bytes)
            let first = try await TestBroker.next(consumer)
            #expect(!first.redelivered)
            try await connection.nack(first, requeue: true)
            let second = try await TestBroker.next(consumer)
            #expect(second.redelivered)
            #expect(second.body == "again".bytes)
            try await connection.ack(second)
            try await connection.deleteQueue(queue)
        }
    }

    @Test func settlementsQueuedWithoutWaitingAreWrittenBeforeTheConnectionCloses() async throws {
        let queue = TestBroker.uniqueName("nowait")
        try await TestBroker.withConnection { connection in
            try await connection.declareQueue(queue)
            for body in ["acked", "requeued"] {
                try await connection.publish(exchange: "", routingKey: queue, body: body.bytes)
            }
            let consumer = try await connection.consume(queue: queue, prefetch: 10)
            let acked = try await TestBroker.next(consumer)
            let requeued = try await TestBroker.next(consumer)
            connection.settleWithoutWaiting(acked, .ack(multiple: false))
            connection.settleWithoutWaiting(requeued, .nack(multiple: false, requeue: true))
            // The requeued message comes back on the same consumer; the acked one never does.
            let again = try await TestBroker.next(consumer)
            #expect(again.redelivered)
            #expect(again.body == "requeued".bytes)
            connection.settleWithoutWaiting(again, .ack(multiple: false))
            // Queued behind the ack above, so it can only answer once the ack was written.
            try await connection.cancel(consumer)
        }
        // All three settlements reached the broker before the connection closed: nothing is left to redeliver.
        try await TestBroker.withConnection { other in
            #expect(try await other.messageCount(queue: queue) == 0)
            try await other.deleteQueue(queue)
        }
    }

    @Test func acksTakenTogetherNeverSettleADeliveryLeftUnacked() async throws {
        let queue = TestBroker.uniqueName("coalesced")
        try await TestBroker.withConnection { connection in
            try await connection.declareQueue(queue)
            for index in 1...6 { try await connection.publish(exchange: "", routingKey: queue, body: "\(index)".bytes) }
            let consumer = try await connection.consume(queue: queue, prefetch: 10)
            var received: [AMQPDelivery] = []
            for _ in 1...6 { received.append(try await TestBroker.next(consumer)) }
            // Out of order, in one burst (one turn of the connection thread), leaving "3" unacked:
            // the acks below it may be written as one `multiple` ack, the ones above it must not cover it.
            for index in [2, 1, 5, 4, 6] { connection.settleWithoutWaiting(received[index - 1], .ack(multiple: false)) }
            try await connection.cancel(consumer)
            #expect(
                try await connection.messageCount(queue: queue) == 0, "'3' is still held unacked by this connection")
        }
        // The connection closed with "3" unacked: it alone is back on the queue.
        try await TestBroker.withConnection { other in
            #expect(try await other.messageCount(queue: queue) == 1)
            let consumer = try await other.consume(queue: queue, prefetch: 10)
            let back = try await TestBroker.next(consumer)
            #expect(back.body == "3".bytes)
            #expect(back.redelivered)
            try await other.ack(back)
            try await other.deleteQueue(queue)
        }
    }

    @Test func aPacedConnectionConfirmsDeliversAndSettlesASteadyStream() async throws {
        let queue = TestBroker.uniqueName("paced")
        var configuration = try TestBroker.configuration()
        configuration.pacingWindow = .milliseconds(2)
        try await TestBroker.withConnection(configuration) { connection in
            try await connection.declareQueue(queue)
            let consumer = try await connection.consume(queue: queue, prefetch: 50)
            // One confirmed publish at a time: each confirm and each delivery waits for a pass of the paced thread.
            let receiving = Task {
                var bodies: [String] = []
                for _ in 0..<200 {
                    let delivery = try await TestBroker.next(consumer)
                    bodies.append(String(decoding: delivery.body, as: UTF8.self))
                    connection.settleWithoutWaiting(delivery, .ack(multiple: false))
                }
                return bodies
            }
            for index in 0..<200 {
                try await connection.publish(exchange: "", routingKey: queue, body: "\(index)".bytes)
            }
            #expect(try await receiving.value == (0..<200).map(String.init))
            try await connection.cancel(consumer)
            #expect(try await connection.messageCount(queue: queue) == 0, "every ack reached the broker")
            try await connection.deleteQueue(queue)
        }
    }

    @Test func ackWithMultipleSettlesEveryEarlierDelivery() async throws {
        let queue = TestBroker.uniqueName("multi")
        try await TestBroker.withConnection { connection in
            try await connection.declareQueue(queue)
            let consumer = try await connection.consume(queue: queue, prefetch: 10)
            for index in 0..<3 { try await connection.publish(exchange: "", routingKey: queue, body: "\(index)".bytes) }
            var received: [AMQPDelivery] = []
            for _ in 0..<3 { received.append(try await TestBroker.next(consumer)) }
            try await connection.ack(received[2], multiple: true)
            let error = try await #require(throws: AMQPError.self) { try await connection.ack(received[0]) }
            #expect(error.code == .alreadySettled)
            try await connection.cancel(consumer)
            #expect(try await connection.messageCount(queue: queue) == 0)
            try await connection.deleteQueue(queue)
        }
    }

    @Test func secondAckOfADeliveryIsRefusedWithoutBreakingTheChannel() async throws {
        let queue = TestBroker.uniqueName("twice")
        try await TestBroker.withConnection { connection in
            try await connection.declareQueue(queue)
            let consumer = try await connection.consume(queue: queue, prefetch: 10)
            try await connection.publish(exchange: "", routingKey: queue, body: "one".bytes)
            let first = try await TestBroker.next(consumer)
            try await connection.ack(first)
            let error = try await #require(throws: AMQPError.self) { try await connection.ack(first) }
            #expect(error.code == .alreadySettled)
            #expect(error.description.contains("already acked"))
            // The channel is still usable: the next message arrives and is acked on the same connection.
            try await connection.publish(exchange: "", routingKey: queue, body: "two".bytes)
            let second = try await TestBroker.next(consumer)
            try await connection.ack(second)
            #expect(second.body == "two".bytes)
            #expect(connection.connectionsOpened == 1)
            try await connection.deleteQueue(queue)
        }
    }

    @Test func consumingAMissingQueueFailsWith404AndSparesOtherConsumers() async throws {
        let queue = TestBroker.uniqueName("present")
        try await TestBroker.withConnection { connection in
            try await connection.declareQueue(queue)
            let consumer = try await connection.consume(queue: queue, prefetch: 10)
            let error = try await #require(throws: AMQPError.self) {
                _ = try await connection.consume(queue: TestBroker.uniqueName("absent"), prefetch: 1)
            }
            #expect(error.replyCode == 404)
            #expect(!error.isRetryable)
            try await connection.publish(exchange: "", routingKey: queue, body: "still here".bytes)
            let delivery = try await TestBroker.next(consumer)
            try await connection.ack(delivery)
            #expect(connection.connectionsOpened == 1)
            try await connection.deleteQueue(queue)
        }
    }
}
