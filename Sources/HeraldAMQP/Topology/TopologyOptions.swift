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

    public init(
        prefix: String = "herald", queueType: QueueType = .quorum, bindings: [String] = ["#"], deliveryLimit: Int? = nil,
        consumerTimeout: Duration? = nil, retryTiers: [RetryTier] = [.init(delay: .seconds(5)), .init(delay: .seconds(30)), .init(delay: .seconds(120)),
                                   .init(delay: .seconds(600))]
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
    public var queues: [String] { [eventsQueue, deadLetterQueue] + retryTiers.map(retryQueue(for:)) }
    /// Every exchange this topology declares.
    public var exchanges: [String] { [eventsExchange, retryExchange, deadLetterExchange, resultsExchange] }
}
