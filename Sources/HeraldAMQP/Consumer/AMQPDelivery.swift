import HeraldCore

/// One message delivered to a consumer, copied out of rabbitmq-c's buffers.
/// Settle it exactly once with `AMQPConnection.ack/nack/reject(_:)`.
public struct AMQPDelivery: Sendable {
    public let body: [UInt8]
    /// The exchange it was published to (after dead-lettering: the dead-letter exchange).
    public let exchange: String
    public let routingKey: String
    /// True when the broker delivered it before (to us or another consumer) without an ack.
    public let redelivered: Bool
    public let tag: DeliveryTag
    public let consumerTag: String
    public let properties: AMQPProperties

    public init(
        body: [UInt8], exchange: String, routingKey: String, redelivered: Bool, tag: DeliveryTag,
        consumerTag: String, properties: AMQPProperties
    ) {
        self.body = body
        self.exchange = exchange
        self.routingKey = routingKey
        self.redelivered = redelivered
        self.tag = tag
        self.consumerTag = consumerTag
        self.properties = properties
    }

    public var headers: AMQPTable { properties.headers }
    public var messageID: String? { properties.messageID }
    public var contentType: String? { properties.contentType }

    /// Herald's retry count (`x-herald-attempt`), nil on a first delivery.
    public var attempt: Int? {
        headers[HeraldHeader.attempt]?.intValue.map { Int($0) }
            ?? headers[HeraldHeader.attempt]?.stringValue.flatMap { Int($0) }
    }

    /// Who first published this message, when Herald publishes as `herald`:
    /// its broker-checked `user-id`, or on Herald's own copies the publisher
    /// they record (`PublisherIdentity`).
    public func publisher(herald: String?) -> String? {
        PublisherIdentity.publisher(
            userID: properties.userID, recorded: headers[HeraldHeader.publisher]?.stringValue, herald: herald)
    }
}

/// Identifies a delivery for `ack`/`nack`/`reject`: the broker's delivery tag plus
/// the connection it came on. Tags restart on every connection, so a tag from a
/// dead connection must never be acked on the new one (it would ack a different
/// message, or close the channel with 406 "unknown delivery tag").
public struct DeliveryTag: Sendable, Hashable, CustomStringConvertible {
    /// The broker's delivery tag on the consumer channel.
    public let value: UInt64
    /// Which connection (counted from 1 per `AMQPConnection`) delivered it.
    public let connection: UInt64

    public init(value: UInt64, connection: UInt64) {
        self.value = value
        self.connection = connection
    }

    public var description: String { "\(value)@\(connection)" }
}
