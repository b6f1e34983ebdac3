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
