import HeraldAMQP
import HeraldConfig

extension LoadedConfig {
    /// The broker connection the `amqp:` section describes (its addresses, heartbeat, ack delay, TLS files), paced by `io_pacing`.
    public func amqpConfiguration(connectionName: String = "herald") throws(AMQPError) -> AMQPConfiguration {
        let amqp = configuration.amqp
        let tls = AMQPTLSOptions(caFile: amqp.caFile.map(resolve), certificateFile: amqp.certFile.map(resolve),
                                 keyFile: amqp.keyFile.map(resolve))
        let urls = try amqp.addresses.map { address throws(AMQPError) in try AMQPURL(address) }
        var configuration = AMQPConfiguration(url: urls[0], tls: tls, heartbeat: amqp.heartbeat.duration,
                                              connectionName: connectionName)
        configuration.urls = urls
        configuration.shuffleURLs = amqp.shuffle
        configuration.ackDelay = amqp.ackDelay.duration
        configuration.pacingWindow = self.configuration.ioPacing.duration
        return configuration
    }

    /// The exchanges and queues Herald declares: names from `amqp:`, one delay
    /// queue per distinct `retry.delays` entry.
    public var topology: TopologyOptions {
        let amqp = configuration.amqp
        var tiers: [RetryTier] = []
        for delay in configuration.retry.delays.map(\.duration) where !tiers.contains(where: { $0.delay == delay }) {
            tiers.append(RetryTier(delay: delay))
        }
        var topology = TopologyOptions(queueType: amqp.queueType == .quorum ? .quorum : .classic, bindings: amqp.bindings,
                                       deliveryLimit: amqp.deliveryLimit, retryTiers: tiers)
        topology.eventsExchange = amqp.eventsExchange
        topology.eventsQueue = amqp.queue
        topology.retryExchange = amqp.retryExchange
        topology.retryQueuePrefix = amqp.retryExchange
        topology.deadLetterExchange = amqp.deadLetterExchange
        topology.deadLetterQueue = amqp.deadLetterQueue
        topology.resultsExchange = amqp.resultsExchange
        return topology
    }
}
