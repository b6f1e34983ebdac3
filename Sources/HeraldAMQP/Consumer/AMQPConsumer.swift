/// A subscription to a queue: the deliveries, in order, across reconnects.
///
/// After a reconnect the same consumer (same tag) continues on the new
/// connection; deliveries received before it are stale (acking them throws
/// `.staleDelivery`) and the broker delivers them again, flagged `redelivered`.
/// The stream ends when the consumer is cancelled or the connection shuts down,
/// and throws when the broker cancels it (queue deleted) or `run()` fails.
public struct AMQPConsumer: Sendable {
    public let tag: String
    public let queue: String
    public let deliveries: AsyncThrowingStream<AMQPDelivery, any Error>
}
