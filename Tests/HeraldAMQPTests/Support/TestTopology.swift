import HeraldAMQP

extension TestBroker {
    /// A private copy of Herald's topology with a 1 s retry tier.
    static func topology(_ queueType: QueueType) -> TopologyOptions {
        TopologyOptions(
            prefix: uniqueName("topo"), queueType: queueType, bindings: ["chat.#", "marketing.*"],
            retryTiers: [RetryTier(delay: .seconds(1)), RetryTier(delay: .seconds(30))])
    }

    static func delete(_ topology: TopologyOptions, on connection: AMQPConnection) async throws {
        for queue in topology.queues { try await connection.deleteQueue(queue) }
        for exchange in topology.exchanges { try await connection.deleteExchange(exchange) }
    }
}
