@testable import HeraldAMQP
import HeraldCore
import Testing

@Suite("Topology options and retry routing (no sockets)")
struct TopologyOptionsTests {
    @Test func defaultsAreDesignMdNames() {
        let topology = TopologyOptions()
        #expect(topology.exchanges == ["herald.events", "herald.retry", "herald.dead", "herald.results"])
        #expect(
            topology.queues == [
                "herald.events", "herald.dead", "herald.retry.5s", "herald.retry.30s",
                "herald.retry.2m", "herald.retry.10m",
            ])
        #expect(topology.queueType == .quorum)
        #expect(topology.bindings == ["#"])
    }

    @Test func quorumQueuesDeadLetterAtLeastOnceAndDelayQueuesReturnToTheEventsExchange() {
        var topology = TopologyOptions(deliveryLimit: 20)
        #expect(
            topology.eventsQueueArguments == [
                "x-queue-type": "quorum", "x-dead-letter-exchange": "herald.dead",
                "x-dead-letter-strategy": "at-least-once",
                "x-overflow": "reject-publish", "x-delivery-limit": 20,
            ])
        let tier = topology.retryTiers[0]
        #expect(
            topology.retryQueueArguments(for: tier) == [
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
        #expect(
            topology.retryQueueArguments(for: topology.retryTiers[0])["x-consumer-timeout"] == nil,
            "nobody consumes a delay queue")
        topology.queueType = .classic
        #expect(topology.eventsQueueArguments["x-consumer-timeout"] == 1_800_000)
        #expect(topology.eventsConsumerArguments == [:])
        topology.consumerTimeout = nil
        #expect(topology.eventsQueueArguments["x-consumer-timeout"] == nil)
    }

    @Test func tierNamesFollowTheirDelays() {
        #expect(
            [5, 30, 120, 600, 3600].map { RetryTier(delay: .seconds($0)).name } == ["5s", "30s", "2m", "10m", "1h"])
        #expect(RetryTier(delay: .milliseconds(1500)).name == "1500ms")
        #expect(RetryTier(delay: .seconds(120)).milliseconds == 120_000)
    }

    @Test func retryMessageKeepsTheRoutingKeyAndDropsTheBrokersDeathHistory() {
        let topology = TopologyOptions()
        let delivery = AMQPDelivery(
            body: Array("{}".utf8), exchange: "herald.events", routingKey: "chat.msg", redelivered: false,
            tag: DeliveryTag(value: 1, connection: 1), consumerTag: "c",
            properties: AMQPProperties(
                contentType: "application/json",
                headers: ["x-death": .array([]), "x-first-death-queue": "q", "tenant": "acme"],
                messageID: "evt-1"))
        let retry = RetryRouting.retryMessage(
            for: delivery, tier: topology.retryTiers[1], attempt: 2, topology: topology)
        #expect(retry.exchange == "herald.retry")
        #expect(retry.routingKey == "chat.msg")
        #expect(retry.properties.headers == ["tenant": "acme", "x-herald-attempt": 2, "herald-retry-tier": "30s"])
        #expect(retry.properties.persistent)
        #expect(retry.properties.messageID == "evt-1")
        let dead = RetryRouting.deadLetterMessage(
            for: delivery, error: "no targets", topology: topology,
            at: Timestamp(millisecondsSinceEpoch: 1_700_000_000_123))
        #expect(dead.exchange == "herald.dead")
        #expect(dead.routingKey == "chat.msg")
        #expect(
            dead.properties.headers == [
                "tenant": "acme", "x-herald-error": "no targets", "x-herald-exchange": "herald.events",
                "x-herald-dead-lettered-at": 1_700_000_000_123,
            ])
    }

    /// What Herald republishes carries Herald's user-id and records the first
    /// publisher, which only a message already carrying Herald's user-id can
    /// pass on: a forged record from a publisher is replaced by its user.
    @Test func republishedCopiesCarryHeraldsUserAndRecordTheFirstPublisher() {
        var topology = TopologyOptions()
        topology.userID = "herald"
        func delivery(userID: String?, headers: AMQPTable = [:]) -> AMQPDelivery {
            var properties = AMQPProperties(contentType: "application/json", headers: headers, messageID: "evt-1")
            properties.userID = userID
            return AMQPDelivery(
                body: Array("{}".utf8), exchange: "herald.events", routingKey: "chat.msg", redelivered: false,
                tag: DeliveryTag(value: 1, connection: 1), consumerTag: "c", properties: properties)
        }
        func record(_ message: AMQPMessage) -> String? {
            message.properties.headers[HeraldHeader.publisher]?.stringValue
        }
        let forged = delivery(userID: "mallory", headers: [HeraldHeader.publisher: "orders"])
        let retry = RetryRouting.retryMessage(for: forged, tier: topology.retryTiers[0], attempt: 2, topology: topology)
        #expect(retry.properties.userID == "herald")
        #expect(record(retry) == "mallory", "a publisher's own record is not believed")
        // The retry comes back as Herald's; what it records passes on to its dead letter.
        let returned = delivery(userID: "herald", headers: retry.properties.headers)
        #expect(returned.publisher(herald: "herald") == "mallory")
        let dead = RetryRouting.deadLetterMessage(for: returned, error: "x", topology: topology)
        #expect(dead.properties.userID == "herald")
        #expect(record(dead) == "mallory")
        // A message without user-id is recorded as such, and stays nobody's.
        let anonymous = RetryRouting.deadLetterMessage(
            for: delivery(userID: nil, headers: [HeraldHeader.publisher: "orders"]),
            error: "x", topology: topology)
        #expect(record(anonymous) == "")
        #expect(delivery(userID: "herald", headers: anonymous.properties.headers).publisher(herald: "herald") == nil)
        // Herald's own message without a record (herald publish) is Herald's.
        #expect(delivery(userID: "herald").publisher(herald: "herald") == "herald")
        // Without a user of its own, Herald sets neither.
        let plain = RetryRouting.deadLetterMessage(for: forged, error: "x", topology: TopologyOptions())
        #expect(plain.properties.userID == nil)
        #expect(record(plain) == nil)
    }
}
