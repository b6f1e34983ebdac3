@testable import HeraldAMQP
import HeraldCore
import HeraldTestSupport
import Testing

@Suite("Topology on the broker (shared broker)")
struct TopologyTests {
    @Test(arguments: QueueType.allCases)
    func rejectedEventGoesToTheDeadLetterQueue(queueType: QueueType) async throws {
        let topology = TestBroker.topology(queueType)
        try await TestBroker.withConnection(topology: topology) { connection in
            let consumer = try await connection.consume(queue: topology.eventsQueue, prefetch: 5)
            try await connection.publish(
                exchange: topology.eventsExchange, routingKey: "chat.poison", body: "not json".bytes,
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
            try await connection.publish(
                exchange: topology.eventsExchange, routingKey: "chat.message.sent",
                body: #"{"id":"r1"}"#.bytes, mandatory: true, messageID: "r1")
            var delivery = try await TestBroker.next(consumer)
            #expect(delivery.attempt == nil)
            // Twice through the same tier: the second pass must not be dropped by RabbitMQ's cycle detection.
            for attempt in 2...3 {
                let retry = RetryRouting.retryMessage(for: delivery, tier: tier, attempt: attempt, topology: topology)
                let sent = ContinuousClock.now
                try await connection.publish(retry, mandatory: true)
                try await connection.ack(delivery)
                delivery = try await TestBroker.next(consumer, timeout: .seconds(60))
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
            /// Publishes `id` and has three consumers in turn take it and give it back:
            /// the limit allows 2 returns; the third return dead-letters it.
            func poison(_ id: String) async throws {
                try await admin.publish(
                    exchange: topology.eventsExchange, routingKey: "chat.poison", body: "poison".bytes,
                    mandatory: true, messageID: id)
                for delivery in 1...3 {
                    let consumer = try await admin.consume(queue: topology.eventsQueue, prefetch: 1)
                    let taken = try await TestBroker.next(consumer)
                    #expect(taken.messageID == id)
                    #expect(taken.redelivered == (delivery > 1))
                    // Cancel first, so the returned message is not handed straight back to this consumer.
                    try await admin.cancel(consumer)
                    try await admin.reject(taken, requeue: true)
                }
            }
            try await poison("p1")
            try await eventually("dead-lettered") {
                try await admin.messageCount(queue: topology.deadLetterQueue) == 1
            }
            #expect(try await admin.messageCount(queue: topology.eventsQueue) == 0)
            let dead = try await admin.consume(queue: topology.deadLetterQueue, prefetch: 5)
            let parked = try await TestBroker.next(dead)
            #expect(parked.messageID == "p1")
            #expect(parked.body == "poison".bytes)
            #expect(parked.headers["x-first-death-reason"] == .string("delivery_limit"))
            try await admin.ack(parked)
            // Exactly once: nothing else arrives. A second poison message goes the same way
            // after it, and the queue dead-letters in order: a second copy of p1 would come first.
            try await poison("p2")
            let next = try await TestBroker.next(dead)
            try await admin.ack(next)
            #expect(next.messageID == "p2", "p1 was dead-lettered again")
            #expect(try await admin.messageCount(queue: topology.deadLetterQueue) == 0)
            try await TestBroker.delete(topology, on: admin)
        }
    }

    @Test func bindingsFromTheOptionsDecideWhatReachesTheEventsQueue() async throws {
        let topology = TestBroker.topology(.classic)
        try await TestBroker.withConnection(topology: topology) { connection in
            for key in ["chat.a.b", "marketing.promo", "marketing.promo.extra", "billing.x"] {
                try? await connection.publish(
                    exchange: topology.eventsExchange, routingKey: key, body: key.bytes, mandatory: true)
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
            try await connection.declareQueue(classic.eventsQueue, arguments: ["x-queue-type": "classic"])
        }
        var topology = classic
        topology.queueType = .quorum
        let connection = try AMQPConnection(
            configuration: try TestBroker.configuration(), topology: topology,
            logger: Logger(label: "test", sink: MemoryLogSink()))
        let error = try await #require(throws: AMQPError.self) { try await connection.run() }
        #expect(error.replyCode == 406)
        #expect(error.operation == "queue.declare \(topology.eventsQueue)")
        #expect(error.detail.contains("PRECONDITION_FAILED"))
        #expect(error.detail.contains("inequivalent arg"))
        #expect(error.detail.hasSuffix("; " + TopologyDeclarer.mismatchHint))
        #expect(!error.isRetryable)
        try await TestBroker.withConnection { connection in try await TestBroker.delete(classic, on: connection) }
    }

    /// The delivery limit is an argument RabbitMQ compares: changing it on an
    /// existing queue stops the start with the broker's reason and what to do.
    @Test func aChangedDeliveryLimitFailsTheDeclarationWithTheReasonAndTheWayOut() async throws {
        var topology = TestBroker.topology(.quorum)
        topology.deliveryLimit = 20
        try await TestBroker.withConnection(topology: topology) { _ in }
        topology.deliveryLimit = 5
        let changed = topology
        let error = try await #require(throws: AMQPError.self) {
            try await TestBroker.withConnection(topology: changed) { _ in }
        }
        #expect(error.replyCode == 406)
        #expect(error.operation == "queue.declare \(topology.eventsQueue)")
        #expect(error.detail.contains("inequivalent arg 'x-delivery-limit'"), "\(error)")
        #expect(error.detail.contains("drain and delete the queue so it is declared anew"))
        try await TestBroker.withConnection { connection in try await TestBroker.delete(changed, on: connection) }
    }

    /// RabbitMQ 4.3 refuses queues that are neither durable nor exclusive; every
    /// queue Herald's topology declares is durable (and neither exclusive nor auto-delete).
    @Test(arguments: QueueType.allCases)
    func everyQueueOfTheTopologyIsDurable(queueType: QueueType) async throws {
        let topology = TestBroker.topology(queueType)
        try await TestBroker.withConnection(topology: topology) { connection in
            let queues = try await BrokerInspection.queues(topology.queues)
            #expect(Set(queues.keys) == Set(topology.queues))
            for (name, queue) in queues {
                #expect(queue.durable && !queue.exclusive && !queue.autoDelete, "\(name): \(queue)")
                #expect(queue.arguments["x-queue-type"] == queueType.rawValue, "\(name)")
            }
            try await TestBroker.delete(topology, on: connection)
        }
    }

    /// `x-consumer-timeout` on the events queue and, for a quorum queue, on its
    /// consumer: 3.10 and 3.11 know neither, so they must accept them (a quorum
    /// queue refuses only arguments another queue type knows); 3.12 and later
    /// read the queue's, 4.3 and later the consumer's (docs/amqp.md).
    @Test(arguments: QueueType.allCases)
    func theConsumerTimeoutIsDeclaredOnTheEventsQueueAndItsConsumer(queueType: QueueType) async throws {
        var topology = TestBroker.topology(queueType)
        topology.consumerTimeout = .seconds(1800)
        let declared = topology
        try await TestBroker.withConnection(topology: declared) { connection in
            let queue = try #require(try await BrokerInspection.queues([declared.eventsQueue])[declared.eventsQueue])
            #expect(queue.arguments["x-consumer-timeout"] == "1800000")
            let consumer = try await connection.consume(
                queue: declared.eventsQueue, prefetch: 5,
                arguments: declared.eventsConsumerArguments)
            let registered = try await BrokerInspection.consumers(of: declared.eventsQueue)[consumer.tag]
            #expect(registered?.arguments["x-consumer-timeout"] == (queueType == .quorum ? "1800000" : nil))
            try await connection.cancel(consumer)
            try await TestBroker.delete(declared, on: connection)
        }
    }

    /// Why `x-consumer-timeout` is safe where no queue type knows it: a quorum
    /// queue refuses an argument that another queue type knows
    /// (`x-max-priority`, a classic queue's) with 406, and accepts one no type knows.
    @Test func aQuorumQueueRefusesAnotherTypesArgumentButNotAnUnknownOne() async throws {
        let refused = TestBroker.uniqueName("priority"), accepted = TestBroker.uniqueName("unknown-arg")
        try await TestBroker.withConnection { connection in
            let error = try await #require(throws: AMQPError.self) {
                try await connection.declareQueue(refused, arguments: ["x-queue-type": "quorum", "x-max-priority": 5])
            }
            #expect(error.replyCode == 406)
            #expect(error.detail.contains("invalid arg 'x-max-priority'"), "\(error)")
            try await connection.declareQueue(
                accepted, arguments: ["x-queue-type": "quorum", "x-herald-no-such-argument": 1])
            try await connection.deleteQueue(accepted)
        }
    }

    /// RabbitMQ does not compare `x-consumer-timeout` when a queue is declared
    /// again (it is in no queue type's list of arguments), so a changed
    /// consumer timeout never stops the start, and the queue keeps the value
    /// it was created with.
    @Test func aChangedConsumerTimeoutIsNeitherRefusedNorAppliedToTheExistingQueue() async throws {
        var topology = TestBroker.topology(.quorum)
        topology.consumerTimeout = .seconds(1800)
        try await TestBroker.withConnection(topology: topology) { _ in }
        for changed in [Duration.seconds(3600), nil] {
            topology.consumerTimeout = changed
            let redeclared = topology
            try await TestBroker.withConnection(topology: redeclared) { _ in }
        }
        let declared = topology
        let queue = try await BrokerInspection.queues([declared.eventsQueue])[declared.eventsQueue]
        #expect(queue?.arguments["x-consumer-timeout"] == "1800000")
        try await TestBroker.withConnection { connection in try await TestBroker.delete(declared, on: connection) }
    }
    /// With registry commands: their topic exchange and a durable queue of
    /// the events queue's type and dead-lettering, bound for each command's
    /// key alone; a command rejected without requeue reaches the dead-letter queue.
    @Test(arguments: QueueType.allCases)
    func registryCommandsHaveAnExchangeAndAQueueLikeTheEventsQueue(queueType: QueueType) async throws {
        var topology = TestBroker.topology(queueType)
        topology.deliveryLimit = 7
        let prefix = String(topology.eventsQueue.dropLast(".events".count))
        topology.registryCommands = RegistryCommandTopology(prefix: prefix, routingKeys: ["register", "unregister"])
        let declared = topology
        #expect(declared.registryCommands?.queue == prefix + ".registry")
        #expect(declared.queues.contains(prefix + ".registry") && declared.exchanges.contains(prefix + ".registry"))
        try await TestBroker.withConnection(topology: declared) { connection in
            let queue = try #require(try await BrokerInspection.queues([prefix + ".registry"])[prefix + ".registry"])
            #expect(queue.durable && !queue.exclusive && !queue.autoDelete)
            #expect(queue.arguments["x-queue-type"] == queueType.rawValue)
            #expect(queue.arguments["x-dead-letter-exchange"] == declared.deadLetterExchange)
            #expect(queue.arguments["x-delivery-limit"] == (queueType == .quorum ? "7" : nil))
            let consumer = try await connection.consume(queue: prefix + ".registry", prefetch: 5)
            try await connection.publish(
                exchange: prefix + ".registry", routingKey: "register", body: "{}".bytes, mandatory: true)
            await #expect(throws: AMQPError.self, "only the commands' keys are bound") {
                try await connection.publish(
                    exchange: prefix + ".registry", routingKey: "chat.message", body: "{}".bytes, mandatory: true)
            }
            let command = try await TestBroker.next(consumer)
            #expect(command.routingKey == "register")
            try await connection.reject(command, requeue: false)
            let dead = try await connection.consume(queue: declared.deadLetterQueue, prefetch: 5)
            let parked = try await TestBroker.next(dead)
            #expect(parked.headers["x-first-death-queue"] == .string(prefix + ".registry"))
            try await connection.ack(parked)
            try await TestBroker.delete(declared, on: connection)
        }
    }

    /// A server-named queue is the broker's name, private to its connection,
    /// and gone when the connection closes.
    @Test func aServerNamedQueueIsPrivateToItsConnectionAndGoesWithIt() async throws {
        let exchange = TestBroker.uniqueName("tail")
        let name = try await TestBroker.withConnection { connection in
            try await connection.declareExchange(exchange, type: "topic", durable: false)
            let name = try await connection.declareServerNamedQueue()
            #expect(name.hasPrefix("amq.gen-"), "\(name)")
            try await connection.bindQueue(name, exchange: exchange, routingKey: "delivered.*.*")
            let consumer = try await connection.consume(queue: name, prefetch: 5)
            try await connection.publish(exchange: exchange, routingKey: "failed.apns.chat", body: "no".bytes)
            try await connection.publish(exchange: exchange, routingKey: "delivered.apns.chat", body: "yes".bytes)
            let delivery = try await TestBroker.next(consumer)
            #expect(delivery.body == "yes".bytes)
            #expect(delivery.routingKey == "delivered.apns.chat")
            try await connection.ack(delivery)
            try await connection.deleteExchange(exchange)
            return name
        }
        _ = try await TestBroker.withConnection { connection in
            await #expect(throws: AMQPError.self) { _ = try await connection.messageCount(queue: name) }
        }
    }
}
