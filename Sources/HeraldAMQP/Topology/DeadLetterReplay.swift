import HeraldCore

/// Where a dead letter goes back to when an operator replays it (`herald
/// dead replay`), and what the replayed copy carries: one rule, next to the
/// one that parks it (`RetryRouting.deadLetterMessage`).
///
/// The routing key is the one the dead letter carries: both ways into the
/// dead-letter queue keep it (Herald publishes its dead letters with the
/// delivery's key; the events and registry queues set no
/// `x-dead-letter-routing-key`). The exchange is, first found:
/// 1. `x-herald-exchange`, which Herald sets on the dead letters it parks;
/// 2. the `exchange` of the newest `x-death` entry (the broker dead-lettered
///    it: rejected, over the delivery limit), else `x-first-death-exchange`;
/// 3. the registry exchange for a registry command's routing key, when the
///    topology has one;
/// 4. the events exchange.
/// The retry and dead-letter exchanges are never an origin (a delay queue
/// dead-letters into the events exchange): either is read as the events exchange.
public enum DeadLetterReplay {
    /// Herald's headers that describe the dead-lettering itself; a replayed copy drops them.
    public static let deadLetterHeaders: Set<String> = [HeraldHeader.error, HeraldHeader.exchange, HeraldHeader.deadLetteredAt]
    /// How often a quorum queue delivered the message before (failed deliveries, from RabbitMQ 4.3 on).
    public static let deliveryCountHeader = "x-delivery-count"
    /// Headers a quorum queue adds to what it delivers; a replayed copy drops them.
    public static let brokerDeliveryHeaders: Set<String> = [deliveryCountHeader, "x-acquired-count"]

    /// The exchange and routing key `delivery` (read from the dead-letter queue) was first published with.
    public static func origin(of delivery: AMQPDelivery, topology: TopologyOptions) -> (exchange: String, routingKey: String) {
        let headers = delivery.headers
        var exchange = headers[HeraldHeader.exchange]?.stringValue
        if exchange?.isEmpty ?? true, case .array(let deaths)? = headers["x-death"], case .table(let newest)? = deaths.first {
            exchange = newest["exchange"]?.stringValue
        }
        if exchange?.isEmpty ?? true { exchange = headers["x-first-death-exchange"]?.stringValue }
        if exchange?.isEmpty ?? true, let registry = topology.registryCommands, registry.routingKeys.contains(delivery.routingKey) {
            exchange = registry.exchange
        }
        guard let found = exchange, !found.isEmpty, found != topology.retryExchange, found != topology.deadLetterExchange else {
            return (topology.eventsExchange, delivery.routingKey)
        }
        return (found, delivery.routingKey)
    }

    /// The copy of `delivery` a replay publishes: same body and properties,
    /// persistent, to ``origin(of:topology:)``, without the broker's death and
    /// delivery headers, Herald's dead-letter headers, the retry tier and the
    /// attempt count (a replay starts its attempts afresh). It keeps
    /// `x-herald-received-at`: an event's `ttl` still counts from when Herald
    /// first received it.
    public static func message(for delivery: AMQPDelivery, topology: TopologyOptions) -> AMQPMessage {
        let (exchange, routingKey) = origin(of: delivery, topology: topology)
        var properties = delivery.properties
        properties.headers = delivery.headers.filter { header, _ in
            !RetryRouting.brokerDeathHeaders.contains(header) && !deadLetterHeaders.contains(header)
                && !brokerDeliveryHeaders.contains(header) && header != RetryRouting.tierHeader && header != HeraldHeader.attempt
        }
        properties.persistent = true
        return AMQPMessage(exchange: exchange, routingKey: routingKey, body: delivery.body, properties: properties)
    }
}
