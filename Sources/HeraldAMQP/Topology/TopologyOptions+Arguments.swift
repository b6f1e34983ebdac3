extension TopologyOptions {
    /// Arguments of the events queue: dead-letters to `deadLetterExchange` (reject
    /// without requeue, delivery limit). Quorum queues dead-letter at-least-once,
    /// which RabbitMQ allows only with `x-overflow: reject-publish`.
    public var eventsQueueArguments: AMQPTable {
        var arguments = baseArguments
        arguments["x-dead-letter-exchange"] = .string(deadLetterExchange)
        if queueType == .quorum, let deliveryLimit { arguments["x-delivery-limit"] = .int(Int64(deliveryLimit)) }
        return arguments
    }

    /// Arguments of a delay queue: messages expire after the tier's delay and are
    /// dead-lettered to `eventsExchange` with their own (original) routing key,
    /// because no `x-dead-letter-routing-key` is set.
    public func retryQueueArguments(for tier: RetryTier) -> AMQPTable {
        var arguments = baseArguments
        arguments["x-message-ttl"] = .int(tier.milliseconds)
        arguments["x-dead-letter-exchange"] = .string(eventsExchange)
        return arguments
    }

    /// Arguments of the dead-letter queue: the end of the line, no dead-lettering.
    public var deadLetterQueueArguments: AMQPTable {
        ["x-queue-type": .string(queueType.rawValue)]
    }

    /// Binding arguments that route a retry (header `herald-retry-tier: <name>`) to `tier`'s queue.
    public func retryBindingArguments(for tier: RetryTier) -> AMQPTable {
        ["x-match": "all", RetryRouting.tierHeader: .string(tier.name)]
    }

    private var baseArguments: AMQPTable {
        var arguments: AMQPTable = ["x-queue-type": .string(queueType.rawValue)]
        if queueType == .quorum {
            arguments["x-dead-letter-strategy"] = "at-least-once"
            arguments["x-overflow"] = "reject-publish"
        }
        return arguments
    }
}
