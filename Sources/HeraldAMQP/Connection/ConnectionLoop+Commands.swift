import HeraldCore

extension ConnectionLoop {
    /// Runs one command on the live connection; returns an error only when the
    /// connection itself is broken (the caller tears it down).
    func execute(_ command: Command, on connection: RabbitConnection) -> AMQPError? {
        switch command {
        case .publish(let messages, let mandatory, let waiter):
            enqueue(messages, mandatory: mandatory, waiter: waiter)
            return nil
        case .settle(let tag, let settlement, let waiter):
            return settle(tag, settlement, waiter: waiter, on: connection)
        case .consume(let spec, let stream, let waiter):
            return subscribe(spec, stream: stream, waiter: waiter, on: connection)
        case .cancel(let tag, let waiter):
            guard let registration = consumers.removeValue(forKey: tag) else {
                waiter?.resume()
                return nil
            }
            registration.stream.finish()
            do throws(AMQPError) {
                try connection.cancel(Self.consumeChannel, tag: tag)
                waiter?.resume()
                return nil
            } catch {
                waiter?.resume(throwing: error)
                return error
            }
        case .admin(let name, let body, let waiter):
            do throws(AMQPError) {
                if !adminChannelOpen {
                    try connection.openChannel(Self.adminChannel)
                    adminChannelOpen = true
                }
                waiter.resume(returning: try body(connection, Self.adminChannel))
                return nil
            } catch {
                waiter.resume(throwing: error)
                if error.code == .channelClosed {
                    adminChannelOpen = false
                    logger.debug(
                        "amqp admin command refused", ["operation": .string(name), "error": .string(error.description)])
                    do throws(AMQPError) { try connection.sendChannelCloseOk(Self.adminChannel) } catch { return error }
                    return nil
                }
                return error
            }
        case .shutdown:
            shutdownRequested = true
            return nil
        }
    }

    /// Queues `messages` for the publish channel, or fails them when shutting down.
    func enqueue(_ messages: [AMQPMessage], mandatory: Bool, waiter: PublishWaiter) {
        for message in messages {
            if shutdownRequested {
                waiter.resume(throwing: Self.shutdownError("basic.publish"))
            } else {
                outbox.append(Outgoing(message: message, mandatory: mandatory, waiter: waiter))
            }
        }
    }

    private func settle(
        _ tag: DeliveryTag, _ settlement: Settlement, waiter: Waiter?,
        on connection: RabbitConnection
    ) -> AMQPError? {
        guard tag.connection == generation else {
            let error = staleError(tag, settlement)  // logs, whether or not anyone waits
            waiter?.resume(throwing: error)
            return nil
        }
        guard deliveries.settle(tag.value, multiple: settlement.multiple) else {
            logger.warning("amqp second settlement of a delivery ignored", ["delivery": .string(tag.description)])
            waiter?.resume(
                throwing: AMQPError(
                    .alreadySettled, operation: "\(settlement.name) \(tag)",
                    detail: "this delivery was already acked, nacked or rejected",
                    isRetryable: false))
            return nil
        }
        if case .ack(multiple: false) = settlement {
            if pendingAcks.isEmpty { pendingAcksSince = .now }
            pendingAcks.append((tag.value, waiter))
            return nil
        }
        // Acks taken earlier in this turn go first: a `multiple` nack must not catch them.
        if let error = flushAcks(connection) {
            waiter?.resume(throwing: Self.settlementLost("\(settlement.name) \(tag)", error))
            return error
        }
        do throws(AMQPError) {
            switch settlement {
            case .ack(let multiple):
                try connection.ack(Self.consumeChannel, tag: tag.value, multiple: multiple)
            case .nack(let multiple, let requeue):
                try connection.nack(Self.consumeChannel, tag: tag.value, multiple: multiple, requeue: requeue)
            case .reject(let requeue):
                try connection.reject(Self.consumeChannel, tag: tag.value, requeue: requeue)
            }
            waiter?.resume()
            return nil
        } catch {
            waiter?.resume(throwing: Self.settlementLost("\(settlement.name) \(tag)", error))
            return error
        }
    }

    private func subscribe(
        _ spec: ConsumerSpec, stream: AsyncThrowingStream<AMQPDelivery, any Error>.Continuation,
        waiter: Waiter, on connection: RabbitConnection
    ) -> AMQPError? {
        if shutdownRequested {
            Command.consume(spec, stream, waiter).fail(Self.shutdownError("basic.consume"))
            return nil
        }
        guard consumers[spec.tag] == nil else {
            Command.consume(spec, stream, waiter).fail(
                AMQPError(
                    .invalidArgument, operation: "basic.consume \(spec.queue)",
                    detail: "consumer tag \(spec.tag) is in use", isRetryable: false))
            return nil
        }
        do throws(AMQPError) {
            // A missing queue must not close the consume channel (it would take the other consumers with it).
            if let missing = try checkQueueExists(spec.queue, on: connection) {
                Command.consume(spec, stream, waiter).fail(missing)
                return nil
            }
            try connection.qos(Self.consumeChannel, prefetch: spec.prefetch)
            _ = try connection.consume(Self.consumeChannel, queue: spec.queue, tag: spec.tag, arguments: spec.arguments)
            consumers[spec.tag] = ConsumerRegistration(spec: spec, stream: stream)
            waiter.resume()
            logger.info(
                "amqp consuming",
                [
                    "queue": .string(spec.queue), "consumer_tag": .string(spec.tag),
                    "prefetch": .int(Int(spec.prefetch)),
                ])
            return nil
        } catch {
            Command.consume(spec, stream, waiter).fail(error)
            return error
        }
    }

    /// Passive-declares `queue` on the admin channel: nil when it exists, the
    /// broker's (non-retryable) error when it does not. Throws only when the
    /// connection is broken.
    func checkQueueExists(_ queue: String, on connection: RabbitConnection) throws(AMQPError) -> AMQPError? {
        if !adminChannelOpen {
            try connection.openChannel(Self.adminChannel)
            adminChannelOpen = true
        }
        do throws(AMQPError) {
            try connection.declareQueue(Self.adminChannel, name: queue, lifetime: .durable, passive: true)
            return nil
        } catch  where error.code == .channelClosed {
            try connection.sendChannelCloseOk(Self.adminChannel)
            try connection.openChannel(Self.adminChannel)
            return error
        }
    }
}
