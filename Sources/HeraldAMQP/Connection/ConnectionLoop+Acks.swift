extension ConnectionLoop {
    /// Sends the single acks taken since the last flush (one turn of commands).
    ///
    /// Acks below every delivery still unsettled go out as **one** `basic.ack`
    /// with `multiple`: one frame, and for a quorum queue one Raft command,
    /// instead of one each. That is exact, not approximate: tags grow with each
    /// delivery on the channel, so every tag up to the highest of them is either
    /// in this batch or was settled before. Acks above an unsettled delivery go
    /// one by one.
    func flushAcks(_ connection: RabbitConnection) -> AMQPError? {
        guard !pendingAcks.isEmpty else { return nil }
        pendingAcksSince = nil
        let acks = pendingAcks
        pendingAcks.removeAll(keepingCapacity: true)
        let lowestUnsettled = deliveries.lowestOutstanding ?? .max
        var highestCovered: UInt64?
        var coveredCount = 0
        var singles: [UInt64] = []
        for ack in acks {
            if ack.tag < lowestUnsettled {
                highestCovered = max(highestCovered ?? 0, ack.tag)
                coveredCount += 1
            } else {
                singles.append(ack.tag)
            }
        }
        do throws(AMQPError) {
            if let highestCovered {
                try connection.ack(Self.consumeChannel, tag: highestCovered, multiple: coveredCount > 1)
            }
            for tag in singles { try connection.ack(Self.consumeChannel, tag: tag, multiple: false) }
        } catch {
            for ack in acks { ack.waiter?.resume(throwing: Self.settlementLost("basic.ack \(ack.tag)", error)) }
            return error
        }
        for ack in acks { ack.waiter?.resume() }
        return nil
    }

    /// When held acks must go out (nil: none held).
    var ackDeadline: ContinuousClock.Instant? {
        pendingAcks.isEmpty ? nil : ackHolding.deadline(oldest: pendingAcksSince)
    }

    /// `flushAcks` at the end of a turn, unless `AckHolding` lets the acks wait for more.
    func flushAcksIfDue(_ connection: RabbitConnection) -> AMQPError? {
        let due = ackHolding.mustSend(
            held: pendingAcks.count, oldest: pendingAcksSince, now: .now,
            callerWaiting: pendingAcks.contains { $0.waiter != nil }, shuttingDown: shutdownRequested)
        return due ? flushAcks(connection) : nil
    }

    /// The connection died before the acks of this turn were written: the broker redelivers those messages.
    func failPendingAcks(_ error: AMQPError) {
        let acks = pendingAcks
        pendingAcks.removeAll()
        pendingAcksSince = nil
        for ack in acks { ack.waiter?.resume(throwing: Self.settlementLost("basic.ack \(ack.tag)", error)) }
    }

    /// What a caller waiting on a settlement gets when the connection broke under it.
    static func settlementLost(_ operation: String, _ cause: AMQPError) -> AMQPError {
        AMQPError(
            .connectionLost, operation: operation, detail: "\(cause.detail); the broker redelivers it",
            isRetryable: false)
    }
}
