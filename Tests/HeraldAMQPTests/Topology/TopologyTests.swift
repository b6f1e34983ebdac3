import HeraldAMQP
import HeraldCore
import Testing

@Suite("Topology on the broker (shared broker)")
struct TopologyTests {
    @Test(arguments: QueueType.allCases)
    func rejectedEventGoesToTheDeadLetterQueue(queueType: QueueType) async throws {
        let topology = TestBroker.topology(queueType)
        try await TestBroker.withConnection(topology: topology) { connection in
            let consumer = try await connection.consume(queue: topology.eventsQueue, prefetch: 5)
            try await connection.publish(exchange: topology.eventsExchange, routingKey: "chat.poison", body: "not json".bytes,
                                         mandatory: true)
            let delivery = try await TestBroker.next(consumer)
            #expect(delivery.exchange == topology.eventsExchange)
            try await connection.reject(delivery, requeue: false)
            let dead = try await connection.consume(queue: topology.deadLetterQueue, prefetch: 5)
            let parked = try await TestBroker.next(dead)
            #expect(parked.body == "not json".bytes)
            #expect(parked.routingKey == "chat.poison")
            #expect(parked.headers["x-first-death-reason"] == .string("rejected"))
            try await connection.ack(parked)
            try await TestBroker.delete(topology, on: connection)
        }
    }

    @Test(arguments: QueueType.allCases)
    func retryThroughADelayTierComesBackWithTheOriginalRoutingKeyEveryTime(queueType: QueueType) async throws {
        let topology = TestBroker.topology(queueType)
        let tier = topology.retryTiers[0]
        try await TestBroker.withConnection(topology: topology) { connection in
            let consumer = try await connection.consume(queue: topology.eventsQueue, prefetch: 5)
            try await connection.publish(exchange: topology.eventsExchange, routingKey: "chat.message.sent",
                                         body: #"{"id":"r1"}"#.bytes, mandatory: true, messageID: "r1")
            var delivery = try await TestBroker.next(consumer)
            #expect(delivery.attempt == nil)
            // Twice through the same tier: the second pass must not be dropped by RabbitMQ's cycle detection.
            for attempt in 2...3 {
                let retry = RetryRouting.retryMessage(for: delivery, tier: tier, attempt: attempt, topology: topology)
                let sent = ContinuousClock.now
                try await connection.publish(retry, mandatory: true)
                try await connection.ack(delivery)
                delivery = try await TestBroker.next(consumer, timeout: .seconds(6))
                let waited = ContinuousClock.now - sent
                #expect(waited >= .milliseconds(900), "came back after \(waited), before the tier's 1 s delay")
                #expect(delivery.routingKey == "chat.message.sent")
                #expect(delivery.exchange == topology.eventsExchange)
                #expect(delivery.attempt == attempt)
                #expect(delivery.messageID == "r1")
                #expect(delivery.body == #"{"id":"r1"}"#.bytes)
                #expect(delivery.headers["x-first-death-queue"] == .string(topology.retryQueue(for: tier)))
            }
            try await connection.ack(delivery)
            try await TestBroker.delete(topology, on: connection)
        }
    }

    /// A message that no consumer ever settles (each takes it, then dies) is
    /// dead-lettered by the broker after the delivery limit: exactly once,
    /// with the reason, and the events queue is empty afterwards.
    @Test func aPoisonMessageReachesTheDeadLetterQueueOnceAfterTheDeliveryLimit() async throws {
        var limited = TestBroker.topology(.quorum)
        limited.deliveryLimit = 2
        let topology = limited
        try await TestBroker.withConnection(topology: topology) { admin in
            try await admin.publish(exchange: topology.eventsExchange, routingKey: "chat.poison", body: "poison".bytes,
                                    mandatory: true, messageID: "p1")
            // Deliveries 1 to 3: the limit allows 2 returns; the third return dead-letters it.
            for delivery in 1...3 {
                let consumer = try await admin.consume(queue: topology.eventsQueue, prefetch: 1)
                let taken = try await TestBroker.next(consumer)
                #expect(taken.messageID == "p1")
                #expect(taken.redelivered == (delivery > 1))
                // Cancel first, so the returned message is not handed straight back to this consumer.
                try await admin.cancel(consumer)
                try await admin.reject(taken, requeue: true)
            }
            try await TestBroker.eventually("dead-lettered") {
                try await admin.messageCount(queue: topology.deadLetterQueue) == 1
            }
            #expect(try await admin.messageCount(queue: topology.eventsQueue) == 0)
            let dead = try await admin.consume(queue: topology.deadLetterQueue, prefetch: 5)
            let parked = try await TestBroker.next(dead)
            #expect(parked.messageID == "p1")
            #expect(parked.body == "poison".bytes)
            #expect(parked.headers["x-first-death-reason"] == .string("delivery_limit"))
            try await admin.ack(parked)
            // Exactly once: nothing else arrives.
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await admin.messageCount(queue: topology.deadLetterQueue) == 0)
            try await TestBroker.delete(topology, on: admin)
        }
    }

    @Test func bindingsFromTheOptionsDecideWhatReachesTheEventsQueue() async throws {
        let topology = TestBroker.topology(.classic)
        try await TestBroker.withConnection(topology: topology) { connection in
            for key in ["chat.a.b", "marketing.promo", "marketing.promo.extra", "billing.x"] {
                try? await connection.publish(exchange: topology.eventsExchange, routingKey: key, body: key.bytes, mandatory: true)
            }
            #expect(try await connection.messageCount(queue: topology.eventsQueue) == 2)
            try await TestBroker.delete(topology, on: connection)
        }
    }

    @Test func declaringTheTopologyTwiceIsHarmless() async throws {
        let topology = TestBroker.topology(.quorum)
        try await TestBroker.withConnection(topology: topology) { connection in
            try await connection.declare(topology)
            try await connection.declare(topology)
            #expect(try await connection.messageCount(queue: topology.retryQueue(for: topology.retryTiers[1])) == 0)
            try await TestBroker.delete(topology, on: connection)
        }
    }

    @Test func aQueueDeclaredDifferentlyFailsStartupWithPreconditionFailed() async throws {
        let classic = TestBroker.topology(.classic)
        try await TestBroker.withConnection { connection in
            try await connection.declareQueue(classic.eventsQueue, durable: true, arguments: ["x-queue-type": "classic"])
        }
        var topology = classic
        topology.queueType = .quorum
        let connection = try AMQPConnection(configuration: try TestBroker.configuration(), topology: topology,
                                            logger: Logger(label: "test", sink: MemoryLogSink()))
        let error = try await #require(throws: AMQPError.self) { try await connection.run() }
        #expect(error.replyCode == 406)
        #expect(error.operation == "queue.declare \(topology.eventsQueue)")
        #expect(error.detail.contains("PRECONDITION_FAILED"))
        #expect(!error.isRetryable)
        try await TestBroker.withConnection { connection in try await TestBroker.delete(classic, on: connection) }
    }
}
