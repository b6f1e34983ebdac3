@testable import HeraldAMQP
import HeraldCore
import Testing

@Suite("Topology options and retry routing (no sockets)")
struct TopologyOptionsTests {
    @Test func defaultsAreDesignMdNames() {
        let topology = TopologyOptions()
        #expect(topology.exchanges == ["herald.events", "herald.retry", "herald.dead", "herald.results"])
        #expect(topology.queues == ["herald.events", "herald.dead", "herald.retry.5s", "herald.retry.30s",
                                    "herald.retry.2m", "herald.retry.10m"])
        #expect(topology.queueType == .quorum)
        #expect(topology.bindings == ["#"])
    }

    @Test func quorumQueuesDeadLetterAtLeastOnceAndDelayQueuesReturnToTheEventsExchange() {
        var topology = TopologyOptions(deliveryLimit: 20)
        #expect(topology.eventsQueueArguments == [
            "x-queue-type": "quorum", "x-dead-letter-exchange": "herald.dead", "x-dead-letter-strategy": "at-least-once",
            "x-overflow": "reject-publish", "x-delivery-limit": 20,
        ])
        let tier = topology.retryTiers[0]
        #expect(topology.retryQueueArguments(for: tier) == [
            "x-queue-type": "quorum", "x-message-ttl": 5000, "x-dead-letter-exchange": "herald.events",
            "x-dead-letter-strategy": "at-least-once", "x-overflow": "reject-publish",
        ])
        #expect(topology.retryQueueArguments(for: tier)["x-dead-letter-routing-key"] == nil)
        topology.queueType = .classic
        #expect(topology.eventsQueueArguments == ["x-queue-type": "classic", "x-dead-letter-exchange": "herald.dead"])
    }

    @Test func theConsumerTimeoutIsAQueueArgumentOfBothTypesAndAConsumerArgumentOfQuorumOnly() {
        var topology = TopologyOptions(consumerTimeout: .seconds(1800))
        #expect(topology.eventsQueueArguments["x-consumer-timeout"] == 1_800_000)
        #expect(topology.eventsConsumerArguments == ["x-consumer-timeout": 1_800_000])
        #expect(topology.retryQueueArguments(for: topology.retryTiers[0])["x-consumer-timeout"] == nil, "nobody consumes a delay queue")
        topology.queueType = .classic
        #expect(topology.eventsQueueArguments["x-consumer-timeout"] == 1_800_000)
        #expect(topology.eventsConsumerArguments == [:])
        topology.consumerTimeout = nil
        #expect(topology.eventsQueueArguments["x-consumer-timeout"] == nil)
    }

    @Test func tierNamesFollowTheirDelays() {
        #expect([5, 30, 120, 600, 3600].map { RetryTier(delay: .seconds($0)).name } == ["5s", "30s", "2m", "10m", "1h"])
        #expect(RetryTier(delay: .milliseconds(1500)).name == "1500ms")
        #expect(RetryTier(delay: .seconds(120)).milliseconds == 120_000)
    }

    @Test func retryMessageKeepsTheRoutingKeyAndDropsTheBrokersDeathHistory() {
        let topology = TopologyOptions()
        let delivery = AMQPDelivery(
            body: Array("{}".utf8), exchange: "herald.events", routingKey: "chat.msg", redelivered: false,
            tag: DeliveryTag(value: 1, connection: 1), consumerTag: "c",
            properties: AMQPProperties(contentType: "application/json",
                                       headers: ["x-death": .array([]), "x-first-death-queue": "q", "tenant": "acme"],
                                       messageID: "evt-1"))
        let retry = RetryRouting.retryMessage(for: delivery, tier: topology.retryTiers[1], attempt: 2, topology: topology)
        #expect(retry.exchange == "herald.retry")
        #expect(retry.routingKey == "chat.msg")
        #expect(retry.properties.headers == ["tenant": "acme", "x-herald-attempt": 2, "herald-retry-tier": "30s"])
        #expect(retry.properties.persistent)
        #expect(retry.properties.messageID == "evt-1")
        let dead = RetryRouting.deadLetterMessage(for: delivery, error: "no targets", topology: topology,
                                                  at: Timestamp(millisecondsSinceEpoch: 1_700_000_000_123))
        #expect(dead.exchange == "herald.dead")
        #expect(dead.routingKey == "chat.msg")
        #expect(dead.properties.headers == ["tenant": "acme", "x-herald-error": "no targets", "x-herald-exchange": "herald.events",
                                            "x-herald-dead-lettered-at": 1_700_000_000_123])
    }

    /// A replay goes back where the dead letter came from, found in Herald's
    /// header, else the broker's death history, else by the routing key, and
    /// carries none of the headers that describe its dead-lettering.
    @Test func aReplayGoesBackToTheExchangeTheDeadLetterCameFrom() {
        var topology = TopologyOptions()
        topology.registryCommands = RegistryCommandTopology(routingKeys: ["register", "unregister"])
        func dead(_ routingKey: String, _ headers: AMQPTable) -> AMQPDelivery {
            AMQPDelivery(body: Array("{}".utf8), exchange: "herald.dead", routingKey: routingKey, redelivered: true,
                         tag: DeliveryTag(value: 1, connection: 1), consumerTag: "c",
                         properties: AMQPProperties(headers: headers, messageID: "evt-1"))
        }
        let parked = dead("register", ["x-herald-exchange": "herald.registry", "x-herald-error": "refused",
                                       "x-herald-dead-lettered-at": 1, "x-herald-attempt": 3, "x-herald-received-at": 7,
                                       "x-delivery-count": 2, "tenant": "acme"])
        let replay = DeadLetterReplay.message(for: parked, topology: topology)
        #expect(replay.exchange == "herald.registry")
        #expect(replay.routingKey == "register")
        #expect(replay.properties.headers == ["x-herald-received-at": 7, "tenant": "acme"])
        #expect(replay.properties.persistent)
        #expect(replay.properties.messageID == "evt-1")

        // Rejected by the events queue after a retry: the newest x-death entry names the events exchange.
        let rejected = dead("chat.msg", [
            "x-death": .array([.table(["exchange": "herald.events", "queue": "herald.events", "reason": "rejected"]),
                               .table(["exchange": "herald.retry", "queue": "herald.retry.5s", "reason": "expired"])]),
            "x-first-death-exchange": "herald.retry",
        ])
        #expect(DeadLetterReplay.origin(of: rejected, topology: topology) == ("herald.events", "chat.msg"))
        #expect(DeadLetterReplay.message(for: rejected, topology: topology).properties.headers == [:])
        #expect(DeadLetterReplay.origin(of: dead("chat.msg", ["x-first-death-exchange": "herald.retry"]), topology: topology)
                    == ("herald.events", "chat.msg"))
        #expect(DeadLetterReplay.origin(of: dead("unregister", [:]), topology: topology) == ("herald.registry", "unregister"))
        #expect(DeadLetterReplay.origin(of: dead("unregister", [:]), topology: TopologyOptions()) == ("herald.events", "unregister"))
        #expect(DeadLetterReplay.origin(of: dead("chat.msg", ["x-herald-exchange": "herald.dead"]), topology: topology)
                    == ("herald.events", "chat.msg"))
    }
}
