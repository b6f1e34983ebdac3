import HeraldCore

/// Where a dead letter goes back to when an operator replays it (`herald
/// dead replay`), whether it may go at all, and what the replayed copy
/// carries: one rule, next to the one that parks it
/// (`RetryRouting.deadLetterMessage`). docs/security.md ("Dead-letter
/// replay") gives the trust argument.
///
/// A dead letter reaches the dead-letter queue one of two ways, and only
/// what the broker or Herald wrote decides where it came from — never a
/// header a publisher could have set:
/// 1. The broker dead-lettered it (rejected, expired, over a length or
///    delivery limit): it carries `x-death`, and the `queue` of its newest
///    entry is the queue it left. The broker writes that entry as it
///    dead-letters: a new one goes first, and an entry a publisher sent for
///    the same queue and reason is moved first with its `queue` unchanged.
///    Its `exchange`, `x-first-death-*` and Herald's `x-herald-*` headers
///    may all be the publisher's, and are not read.
/// 2. Herald parked it (refused, retries exhausted): Herald publishes it to
///    the dead-letter exchange, which publishers cannot write to (their
///    permissions, docs/security.md), without `x-death`, and with
///    `x-herald-exchange` set to the exchange of the delivery it consumed
///    (the broker's, replacing any such header the publisher sent).
///
/// The events queue's dead letters go back to the events exchange, the
/// registry queue's to the registry exchange; nothing else is replayed.
/// The routing key is the one the dead letter carries: both ways keep it
/// (the events and registry queues set no `x-dead-letter-routing-key`).
public enum DeadLetterReplay {
    /// Where a replay publishes a dead letter's copy.
    public struct Origin: Sendable, Equatable {
        public let exchange: String
        public let routingKey: String

        public init(exchange: String, routingKey: String) {
            self.exchange = exchange
            self.routingKey = routingKey
        }
    }

    /// Why a dead letter is not replayed: it stays in the dead-letter queue.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String

        public init(_ description: String) { self.description = description }
    }

    /// Herald's headers that describe the dead-lettering itself; a replayed copy drops them.
    public static let deadLetterHeaders: Set<String> = [
        HeraldHeader.error, HeraldHeader.exchange, HeraldHeader.deadLetteredAt,
    ]
    /// How often a quorum queue delivered the message before (failed deliveries, from RabbitMQ 4.3 on).
    public static let deliveryCountHeader = "x-delivery-count"
    /// Headers a quorum queue adds to what it delivers; a replayed copy drops them.
    public static let brokerDeliveryHeaders: Set<String> = [deliveryCountHeader, "x-acquired-count"]
    /// How often one message may be replayed unless the operator allows more:
    /// a message dead-lettered again after that many replays stays parked.
    public static let defaultMaxReplays = 3

    /// Where `delivery` (read from the dead-letter queue) came from, by the
    /// rule above, or why it is not replayed.
    public static func origin(of delivery: AMQPDelivery, topology: TopologyOptions) -> Result<Origin, Refusal> {
        let headers = delivery.headers
        let events = Origin(exchange: topology.eventsExchange, routingKey: delivery.routingKey)
        let registry = topology.registryCommands.map { Origin(exchange: $0.exchange, routingKey: delivery.routingKey) }
        if let death = headers["x-death"] {
            guard case .array(let deaths) = death, case .table(let newest)? = deaths.first,
                let queue = newest["queue"]?.stringValue, !queue.isEmpty
            else {
                return .failure(
                    Refusal(
                        "its x-death header names no queue in its newest entry, so where the broker"
                            + " dead-lettered it from is unknown"))
            }
            if queue == topology.eventsQueue { return .success(events) }
            if let registry, queue == topology.registryCommands?.queue { return .success(registry) }
            return .failure(
                Refusal(
                    "the broker dead-lettered it from queue '\(queue.truncatedForMessage)', which is "
                        + notHeralds("queue", events: topology.eventsQueue, registry: topology.registryCommands?.queue))
            )
        }
        guard let exchange = headers[HeraldHeader.exchange]?.stringValue, !exchange.isEmpty else {
            return .failure(
                Refusal(
                    "it carries neither the broker's x-death nor Herald's \(HeraldHeader.exchange):"
                        + " neither dead-lettered it"))
        }
        if exchange == topology.eventsExchange { return .success(events) }
        if let registry, exchange == registry.exchange { return .success(registry) }
        return .failure(
            Refusal(
                "Herald parked it from exchange '\(exchange.truncatedForMessage)', which is "
                    + notHeralds(
                        "exchange", events: topology.eventsExchange, registry: topology.registryCommands?.exchange)))
    }

    /// "neither Herald's events queue 'herald.events' nor its registry queue 'herald.registry'".
    private static func notHeralds(_ kind: String, events: String, registry: String?) -> String {
        guard let registry else { return "not Herald's events \(kind) '\(events)'" }
        return "neither Herald's events \(kind) '\(events)' nor its registry \(kind) '\(registry)'"
    }

    /// How often `delivery` was replayed before (`x-herald-replays`; 0 when
    /// absent, not an integer, or negative).
    public static func replays(of delivery: AMQPDelivery) -> Int {
        guard let count = delivery.headers[HeraldHeader.replays]?.intValue, count > 0 else { return 0 }
        return Int(clamping: count)
    }

    /// The copy of `delivery` a replay publishes, or why there is none (see
    /// ``origin(of:topology:)``; or it was replayed `maxReplays` times
    /// already). The copy has the same body and properties, is persistent,
    /// goes to the origin, and counts one replay more in `x-herald-replays`;
    /// it drops the broker's death and delivery headers, Herald's dead-letter
    /// headers, the retry tier and the attempt count (a replay starts its
    /// attempts afresh: the replay count bounds how often). It keeps
    /// `x-herald-received-at`: an event's `ttl` still counts from when Herald
    /// first received it. It is published as `topology.userID` (the replaying
    /// connection's user, which the broker checks) and keeps its first
    /// publisher in `x-herald-publisher` (`RetryRouting.republish`): replayed
    /// with Herald's own user, an event or command is checked against the
    /// app's publishers as its first publisher, never as Herald.
    public static func message(
        for delivery: AMQPDelivery, topology: TopologyOptions,
        maxReplays: Int = defaultMaxReplays
    ) -> Result<AMQPMessage, Refusal> {
        let origin: Origin
        switch self.origin(of: delivery, topology: topology) {
        case .success(let found): origin = found
        case .failure(let refusal): return .failure(refusal)
        }
        let replayed = replays(of: delivery)
        guard replayed < maxReplays else {
            return .failure(
                Refusal(
                    "it was replayed \(replayed) time\(replayed == 1 ? "" : "s") already"
                        + " (\(HeraldHeader.replays)), the most allowed is \(maxReplays)"))
        }
        var properties = delivery.properties
        properties.headers = delivery.headers.filter { header, _ in
            !RetryRouting.brokerDeathHeaders.contains(header) && !deadLetterHeaders.contains(header)
                && !brokerDeliveryHeaders.contains(header) && header != RetryRouting.tierHeader
                && header != HeraldHeader.attempt
        }
        properties.headers[HeraldHeader.replays] = .int(Int64(replayed) + 1)
        RetryRouting.republish(&properties, of: delivery, as: topology.userID)
        properties.persistent = true
        return .success(
            AMQPMessage(
                exchange: origin.exchange, routingKey: origin.routingKey, body: delivery.body,
                properties: properties))
    }
}
