extension TopologyOptions {
    /// Arguments of the events queue: dead-letters to `deadLetterExchange` (reject
    /// without requeue, delivery limit). Quorum queues dead-letter at-least-once,
    /// which RabbitMQ allows only with `x-overflow: reject-publish`.
    ///
    /// `x-consumer-timeout` (both types) is read by RabbitMQ 3.12 and later
    /// (4.3 and later: quorum queues only) and accepted and ignored by 3.10
    /// and 3.11, which know no such argument. No version compares it on a
    /// redeclaration, so a queue that exists keeps the value it was created
    /// with; `eventsConsumerArguments` covers that case from 4.3 on.
    public var eventsQueueArguments: AMQPTable {
        var arguments = baseArguments
        arguments["x-dead-letter-exchange"] = .string(deadLetterExchange)
        if queueType == .quorum, let deliveryLimit { arguments["x-delivery-limit"] = .int(Int64(deliveryLimit)) }
        if let consumerTimeout { arguments["x-consumer-timeout"] = .int(consumerTimeout.wholeMilliseconds) }
        return arguments
    }

    /// Arguments of the `basic.consume` on the events queue: for a quorum
    /// queue, `x-consumer-timeout`, which RabbitMQ 4.3 and later apply to
    /// that consumer whatever the queue was declared with (earlier versions
    /// accept and ignore it). Nothing for a classic queue: 4.3 refuses the
    /// argument there (`PRECONDITION_FAILED`, it is a quorum queue's alone).
    public var eventsConsumerArguments: AMQPTable {
        guard queueType == .quorum, let consumerTimeout else { return [:] }
        return ["x-consumer-timeout": .int(consumerTimeout.wholeMilliseconds)]
    }

    /// Arguments of the registry commands queue: the events queue's, so it
    /// has the same type, dead-letter exchange, delivery limit (quorum) and
    /// consumer timeout; a command refused without requeue or delivered too
    /// often goes to `deadLetterExchange` as a poison event does. Its
    /// consumer takes ``eventsConsumerArguments`` likewise.
    public var registryQueueArguments: AMQPTable { eventsQueueArguments }

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

extension Duration {
    /// Whole milliseconds, truncated: the unit of RabbitMQ's time arguments
    /// (`x-message-ttl`, `x-consumer-timeout`).
    var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
