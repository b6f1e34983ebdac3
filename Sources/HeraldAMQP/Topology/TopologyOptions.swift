/// The names and shapes of Herald's exchanges and queues (docs/amqp.md
/// "Topology"), with the documented names as defaults. The service maps `config.yaml`'s `amqp:`
/// section onto it; tests use `prefix:` to get a private copy.
public struct TopologyOptions: Sendable, Equatable {
    /// Topic exchange upstream services publish events to.
    public var eventsExchange: String
    /// The queue Herald consumes; durable.
    public var eventsQueue: String
    public var queueType: QueueType
    /// Routing-key patterns binding `eventsQueue` to `eventsExchange`.
    public var bindings: [String]
    /// Quorum only: deliveries after which a message is dead-lettered as poison (`x-delivery-limit`).
    public var deliveryLimit: Int?
    /// How long a consumer of `eventsQueue` may hold a delivery unacked
    /// before the broker takes it back (`x-consumer-timeout`, see
    /// `eventsQueueArguments` and `eventsConsumerArguments`); nil leaves the
    /// broker's own setting (a policy, or `consumer_timeout` in rabbitmq.conf).
    public var consumerTimeout: Duration?
    /// Headers exchange that routes a retry to its delay tier by the `herald-retry-tier` header.
    public var retryExchange: String
    /// Delay queues are named `<retryQueuePrefix>.<tier name>`.
    public var retryQueuePrefix: String
    public var retryTiers: [RetryTier]
    /// Fanout exchange for poison events and exhausted retries, and its queue.
    public var deadLetterExchange: String
    public var deadLetterQueue: String
    /// Topic exchange outcomes are published to.
    public var resultsExchange: String
    /// Where registry commands arrive; nil (Herald has no registry): none of it is declared.
    public var registryCommands: RegistryCommandTopology?
    /// The AMQP user Herald's connection authenticates as: the `user-id` of
    /// what Herald republishes (retries, dead letters) in place of the
    /// publisher's, which the broker would refuse from Herald's connection.
    /// Nil: republished without `user-id`.
    public var userID: String?

    public init(
        prefix: String = "herald", queueType: QueueType = .quorum, bindings: [String] = ["#"],
        deliveryLimit: Int? = nil,
        consumerTimeout: Duration? = nil,
        retryTiers: [RetryTier] = [
            .init(delay: .seconds(5)), .init(delay: .seconds(30)), .init(delay: .seconds(120)),
            .init(delay: .seconds(600)),
        ]
    ) {
        eventsExchange = prefix + ".events"
        eventsQueue = prefix + ".events"
        self.queueType = queueType
        self.bindings = bindings
        self.deliveryLimit = deliveryLimit
        self.consumerTimeout = consumerTimeout
        retryExchange = prefix + ".retry"
        retryQueuePrefix = prefix + ".retry"
        self.retryTiers = retryTiers
        deadLetterExchange = prefix + ".dead"
        deadLetterQueue = prefix + ".dead"
        resultsExchange = prefix + ".results"
    }

    public func retryQueue(for tier: RetryTier) -> String { retryQueuePrefix + "." + tier.name }

    /// Every queue this topology declares.
    public var queues: [String] {
        [eventsQueue, deadLetterQueue] + retryTiers.map(retryQueue(for:)) + (registryCommands.map { [$0.queue] } ?? [])
    }
    /// Every exchange this topology declares.
    public var exchanges: [String] {
        [eventsExchange, retryExchange, deadLetterExchange, resultsExchange]
            + (registryCommands.map { [$0.exchange] } ?? [])
    }
}

/// The exchange and queue registry commands arrive on (docs/registry.md,
/// "Managing registrations"): a topic exchange, and a durable queue of the
/// events queue's type and dead-lettering (``TopologyOptions/registryQueueArguments``)
/// bound for each command's routing key. Part of the topology only when
/// Herald has a registry to apply the commands to.
public struct RegistryCommandTopology: Sendable, Equatable {
    /// Topic exchange senders publish commands to.
    public var exchange: String
    /// The queue Herald consumes them from.
    public var queue: String
    /// The routing keys binding `queue` to `exchange`: one per kind of command.
    public var routingKeys: [String]

    public init(exchange: String, queue: String, routingKeys: [String]) {
        self.exchange = exchange
        self.queue = queue
        self.routingKeys = routingKeys
    }

    /// `<prefix>.registry` for both, as ``TopologyOptions`` names its own.
    public init(prefix: String = "herald", routingKeys: [String]) {
        self.init(exchange: prefix + ".registry", queue: prefix + ".registry", routingKeys: routingKeys)
    }
}

/// RabbitMQ queue type for Herald's queues (`x-queue-type`).
public enum QueueType: String, Sendable, Equatable, CaseIterable {
    /// Replicated, durable, poison-message limit (`x-delivery-limit`), at-least-once dead-lettering.
    case quorum
    /// Lighter, single-node; dead-lettering is at-most-once.
    case classic
}
