import HeraldCore

/// How Herald schedules a retry and dead-letters a poison event, in one place.
///
/// A retry is published to the retry exchange (type `headers`) with the
/// ORIGINAL routing key and header `herald-retry-tier: <tier name>`; the tier's
/// binding routes it to `herald.retry.<tier>`. When its TTL expires, RabbitMQ
/// dead-letters it to the events exchange with the routing key it was published
/// with (the delay queue sets no `x-dead-letter-routing-key`), i.e. the original.
///
/// - Important: The retry copy drops RabbitMQ's `x-death` (and `x-first-death-*`,
///   `x-last-death-*`) headers, so every retry is a fresh message: RabbitMQ drops a
///   message dead-lettered into a queue that already appears in its `x-death`
///   history with no rejection in between (dead-letter cycle detection), and a
///   copied history would make that depend on whatever queues a deployment adds.
///   The attempt count lives in `x-herald-attempt` instead.
///
/// Herald's own header names (`x-herald-attempt`, `x-herald-error`, ...) are
/// `HeraldHeader`'s.
public enum RetryRouting {
    /// Routing header the retry exchange matches (not `x-` prefixed: the headers
    /// exchange ignores `x-` binding arguments).
    public static let tierHeader = "herald-retry-tier"

    /// Headers RabbitMQ adds when dead-lettering; never copied into a republished message.
    public static let brokerDeathHeaders: Set<String> = [
        "x-death", "x-first-death-exchange", "x-first-death-queue", "x-first-death-reason",
        "x-last-death-exchange", "x-last-death-queue", "x-last-death-reason",
    ]

    /// The message that brings `delivery` back after `tier`'s delay, as attempt `attempt`.
    public static func retryMessage(
        for delivery: AMQPDelivery, tier: RetryTier, attempt: Int,
        topology: TopologyOptions
    ) -> AMQPMessage {
        var properties = delivery.properties
        properties.headers = delivery.headers.filter { !brokerDeathHeaders.contains($0.key) }
        properties.headers[HeraldHeader.attempt] = .int(Int64(attempt))
        properties.headers[tierHeader] = .string(tier.name)
        republish(&properties, of: delivery, as: topology.userID)
        properties.persistent = true
        return AMQPMessage(
            exchange: topology.retryExchange, routingKey: delivery.routingKey, body: delivery.body,
            properties: properties)
    }

    /// Makes `properties`, copied from `delivery`, Herald's to publish as
    /// `user`: the `user-id` becomes `user` (the broker refuses another from
    /// Herald's connection), and `x-herald-publisher` records who first
    /// published the message (`PublisherIdentity`), so a copy vouches for no
    /// more than its original did. Without a `user`, the copy carries no
    /// `user-id` and its header is never believed.
    public static func republish(_ properties: inout AMQPProperties, of delivery: AMQPDelivery, as user: String?) {
        properties.headers[HeraldHeader.publisher] = user.map {
            .string(PublisherIdentity.recorded(delivery.publisher(herald: $0)))
        }
        properties.userID = user
    }

    /// The longest `x-herald-error`, in UTF-8 bytes: one reason per refused
    /// target could otherwise outgrow the content header frame.
    public static let maxErrorBytes = 4096

    /// The message that parks `delivery` in the dead-letter queue with `error`
    /// (cut to ``maxErrorBytes``), the exchange it was delivered from (where
    /// a replay sends it back, `DeadLetterReplay`) and `at`.
    public static func deadLetterMessage(
        for delivery: AMQPDelivery, error: String, topology: TopologyOptions,
        at: Timestamp = .now()
    ) -> AMQPMessage {
        var properties = delivery.properties
        properties.headers = delivery.headers.filter { !brokerDeathHeaders.contains($0.key) }
        properties.headers[tierHeader] = nil
        properties.headers.merge(deadLetterHeaders(error: error, exchange: delivery.exchange, at: at)) { $1 }
        republish(&properties, of: delivery, as: topology.userID)
        properties.persistent = true
        return AMQPMessage(
            exchange: topology.deadLetterExchange, routingKey: delivery.routingKey, body: delivery.body,
            properties: properties)
    }

    /// The headers that say why, from where and when Herald dead-lettered a
    /// message: `x-herald-error` (cut to ``maxErrorBytes``),
    /// `x-herald-exchange`, `x-herald-dead-lettered-at`.
    public static func deadLetterHeaders(error: String, exchange: String, at: Timestamp) -> AMQPTable {
        [
            HeraldHeader.error: .string(bounded(error)), HeraldHeader.exchange: .string(exchange),
            HeraldHeader.deadLetteredAt: .int(at.millisecondsSinceEpoch),
        ]
    }

    /// `error` if it fits in ``maxErrorBytes``, else its start (on a character
    /// boundary) and how long it was.
    static func bounded(_ error: String) -> String {
        let length = error.utf8.count
        guard length > maxErrorBytes else { return error }
        var kept = ""
        for character in error {
            guard kept.utf8.count + character.utf8.count <= maxErrorBytes - 40 else { break }
            kept.append(character)
        }
        return kept + "… (\(length) bytes in all)"
    }
}
