/// Declares a `TopologyOptions` on a channel, idempotently: declaring what
/// exists with the same arguments is a no-op; different arguments fail with the
/// broker's 406 PRECONDITION_FAILED naming the queue or exchange (not retryable),
/// and for a queue with what to do about it.
enum TopologyDeclarer {
    static func declare(_ topology: TopologyOptions, on connection: RabbitConnection, channel: UInt16) throws(AMQPError)
    {
        try connection.declareExchange(channel, name: topology.eventsExchange, type: "topic", durable: true)
        try connection.declareExchange(channel, name: topology.retryExchange, type: "headers", durable: true)
        try connection.declareExchange(channel, name: topology.deadLetterExchange, type: "fanout", durable: true)
        try connection.declareExchange(channel, name: topology.resultsExchange, type: "topic", durable: true)

        try declareQueue(
            topology.deadLetterQueue, arguments: topology.deadLetterQueueArguments, on: connection, channel: channel)
        try connection.bindQueue(
            channel, queue: topology.deadLetterQueue, exchange: topology.deadLetterExchange, routingKey: "")

        try declareQueue(
            topology.eventsQueue, arguments: topology.eventsQueueArguments, on: connection, channel: channel)
        for key in topology.bindings {
            try connection.bindQueue(
                channel, queue: topology.eventsQueue, exchange: topology.eventsExchange, routingKey: key)
        }

        if let registry = topology.registryCommands {
            try connection.declareExchange(channel, name: registry.exchange, type: "topic", durable: true)
            try declareQueue(
                registry.queue, arguments: topology.registryQueueArguments, on: connection, channel: channel)
            for key in registry.routingKeys {
                try connection.bindQueue(channel, queue: registry.queue, exchange: registry.exchange, routingKey: key)
            }
        }

        for tier in topology.retryTiers {
            let queue = topology.retryQueue(for: tier)
            try declareQueue(
                queue, arguments: topology.retryQueueArguments(for: tier), on: connection, channel: channel)
            try connection.bindQueue(
                channel, queue: queue, exchange: topology.retryExchange, routingKey: "",
                arguments: topology.retryBindingArguments(for: tier))
        }
    }

    /// A durable queue; a 406 naming an inequivalent argument (the queue
    /// exists with other arguments, which a declaration never changes) keeps
    /// the broker's text and adds the ways out.
    private static func declareQueue(
        _ name: String, arguments: AMQPTable, on connection: RabbitConnection,
        channel: UInt16
    ) throws(AMQPError) {
        do {
            _ = try connection.declareQueue(channel, name: name, lifetime: .durable, arguments: arguments)
        } catch  where error.replyCode == 406 && error.detail.contains("inequivalent arg") {
            throw AMQPError(
                error.code, operation: error.operation, detail: error.detail + "; " + mismatchHint,
                replyCode: error.replyCode, libraryStatus: error.libraryStatus, isRetryable: false)
        }
    }

    static let mismatchHint =
        "the queue exists with other arguments, and RabbitMQ never changes a queue's arguments"
        + " on a declaration: declare it as it was created (undo the changed setting), or drain and delete the queue"
        + " so it is declared anew"
}
