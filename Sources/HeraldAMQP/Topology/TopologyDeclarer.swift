/// Declares a `TopologyOptions` on a channel, idempotently: declaring what
/// exists with the same arguments is a no-op; different arguments fail with the
/// broker's 406 PRECONDITION_FAILED naming the queue or exchange (not retryable).
enum TopologyDeclarer {
    static func declare(_ topology: TopologyOptions, on connection: RabbitConnection, channel: UInt16) throws(AMQPError) {
        try connection.declareExchange(channel, name: topology.eventsExchange, type: "topic", durable: true)
        try connection.declareExchange(channel, name: topology.retryExchange, type: "headers", durable: true)
        try connection.declareExchange(channel, name: topology.deadLetterExchange, type: "fanout", durable: true)
        try connection.declareExchange(channel, name: topology.resultsExchange, type: "topic", durable: true)

        try connection.declareQueue(channel, name: topology.deadLetterQueue, durable: true,
                                    arguments: topology.deadLetterQueueArguments)
        try connection.bindQueue(channel, queue: topology.deadLetterQueue, exchange: topology.deadLetterExchange, routingKey: "")

        try connection.declareQueue(channel, name: topology.eventsQueue, durable: true,
                                    arguments: topology.eventsQueueArguments)
        for key in topology.bindings {
            try connection.bindQueue(channel, queue: topology.eventsQueue, exchange: topology.eventsExchange, routingKey: key)
        }

        for tier in topology.retryTiers {
            let queue = topology.retryQueue(for: tier)
            try connection.declareQueue(channel, name: queue, durable: true, arguments: topology.retryQueueArguments(for: tier))
            try connection.bindQueue(channel, queue: queue, exchange: topology.retryExchange, routingKey: "",
                                     arguments: topology.retryBindingArguments(for: tier))
        }
    }
}
