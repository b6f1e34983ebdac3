extension AMQPConnection {
    /// Subscribes to `queue` with manual acks and `prefetch` unacked deliveries at most.
    /// Waits for a connection; throws `.channelClosed` 404 when the queue does not exist.
    public func consume(
        queue: String, prefetch: UInt16, tag: String? = nil,
        arguments: AMQPTable = [:]
    ) async throws -> AMQPConsumer {
        let consumerTag = tag ?? "herald-\(UInt32.random(in: 0 ... .max))-\(UInt32.random(in: 0 ... .max))"
        let spec = ConsumerSpec(queue: queue, tag: consumerTag, prefetch: prefetch, arguments: arguments)
        let (stream, continuation) = AsyncThrowingStream<AMQPDelivery, any Error>.makeStream()
        continuation.onTermination = { [weak self] reason in
            // The reader went away: stop the consumer so the broker stops sending.
            if case .cancelled = reason { self?.submit(.cancel(consumerTag: consumerTag, nil)) }
        }
        try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
            submit(.consume(spec, continuation, waiter))
        }
        return AMQPConsumer(tag: consumerTag, queue: queue, deliveries: stream)
    }

    /// Stops `consumer`; its stream ends. Unsettled deliveries can still be settled.
    public func cancel(_ consumer: AMQPConsumer) async throws {
        try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
            submit(.cancel(consumerTag: consumer.tag, waiter))
        }
    }

    /// Acks `delivery` (`multiple`: and every earlier unsettled delivery on the channel).
    /// Throws `.staleDelivery` when it came on a previous connection (nothing is sent;
    /// the broker redelivers it) and `.alreadySettled` when it was settled before.
    public func ack(_ delivery: AMQPDelivery, multiple: Bool = false) async throws {
        try await settle(delivery.tag, .ack(multiple: multiple))
    }

    /// Nacks `delivery`: back to the queue (`requeue`) or to the dead-letter exchange.
    public func nack(_ delivery: AMQPDelivery, multiple: Bool = false, requeue: Bool) async throws {
        try await settle(delivery.tag, .nack(multiple: multiple, requeue: requeue))
    }

    /// Rejects `delivery`; with `requeue: false` the queue dead-letters it.
    public func reject(_ delivery: AMQPDelivery, requeue: Bool = false) async throws {
        try await settle(delivery.tag, .reject(requeue: requeue))
    }

    /// Queues the settlement of `delivery` and returns at once, without waiting
    /// for the connection thread to write it. For callers that would only log a
    /// failure: a stale or repeated settlement is logged by the connection, and a
    /// settlement lost with the connection means the broker redelivers. Queued
    /// settlements are written before a later `shutdown()` closes the connection.
    public func settleWithoutWaiting(_ delivery: AMQPDelivery, _ settlement: Settlement) {
        submit(.settle(delivery.tag, settlement, nil))
    }

    /// Settles the delivery identified by `tag`.
    public func settle(_ tag: DeliveryTag, _ settlement: Settlement) async throws {
        try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
            submit(.settle(tag, settlement, waiter))
        }
    }
}

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

/// What a consumer subscribes to; kept by the connection thread so it can
/// subscribe again, with the same tag, after a reconnect.
struct ConsumerSpec: Sendable {
    var queue: String
    var tag: String
    var prefetch: UInt16
    var arguments: AMQPTable
}
