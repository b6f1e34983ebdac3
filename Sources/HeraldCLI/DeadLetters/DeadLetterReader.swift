import HeraldAMQP
import HeraldCore
import HeraldSystem

/// Reads the dead-letter queue without taking anything out of it.
///
/// It subscribes with manual acks and a prefetch of as many messages as it
/// means to read, takes the deliveries, and cancels the subscription; what it
/// read stays unacked until the caller settles it. Whatever the caller does
/// not ack goes back with one `basic.nack` (`requeue`) — an explicit return,
/// which RabbitMQ 4.3 and later do not count toward a quorum queue's delivery
/// limit — and if the connection drops first, the broker returns it all the
/// same. Nothing is removed except by an ack.
struct DeadLetterReader {
    let connection: AMQPConnection
    let queue: String

    /// The most a read can hold unacked: AMQP's prefetch is 16 bits.
    static let maxLimit = Int(UInt16.max)

    /// The ready messages of the queue (404 when it does not exist).
    func count() async throws -> Int {
        do {
            return try await connection.messageCount(queue: queue)
        } catch let error as AMQPError where error.replyCode == 404 {
            throw DeadLetterFailure(
                "\(queue) does not exist on the broker: Herald declares it when it starts (herald run)"
                    + " or publishes (herald publish); check amqp.dead_letter_queue")
        }
    }

    /// Reads up to `limit` messages (at most ``maxLimit``), in queue order.
    /// The read ends when that many arrived, when the queue had fewer, or
    /// when nothing arrived for `quiet` (another consumer holds the rest).
    func read(limit: Int, quiet: Duration = .seconds(2)) async throws -> (letters: [DeadLetter], ready: Int) {
        let ready = try await count()
        let wanted = min(ready, limit, Self.maxLimit)
        guard wanted > 0 else { return ([], ready) }
        let consumer = try await connection.consume(queue: queue, prefetch: UInt16(wanted))
        let received = Locked<[AMQPDelivery]>([])
        let reader = Task {
            for try await delivery in consumer.deliveries {
                let count = received.withLock { deliveries in
                    deliveries.append(delivery)
                    return deliveries.count
                }
                if count >= wanted { return }
            }
        }
        var seen = 0
        var quietSince = ContinuousClock.now
        while true {
            let count = received.withLock { $0.count }
            if count >= wanted { break }
            if count != seen {
                seen = count
                quietSince = .now
            } else if ContinuousClock.now - quietSince >= quiet {
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        // No more deliveries: what is returned later must not come back to this read.
        try await connection.cancel(consumer)
        reader.cancel()
        _ = try? await reader.value
        return (received.withLock { $0 }.map(DeadLetter.init), ready)
    }

    /// Returns every letter of `letters` not acked to the queue, in one `basic.nack` with `multiple`.
    func giveBack(_ letters: [DeadLetter], except acked: Set<DeliveryTag> = []) async throws {
        guard let last = letters.last(where: { !acked.contains($0.delivery.tag) }) else { return }
        try await connection.nack(last.delivery, multiple: true, requeue: true)
    }
}

/// Why a `herald dead` subcommand could not do its work, as it is printed.
struct DeadLetterFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
