extension AMQPConnection {
    /// Publishes `message` and returns once the broker confirmed it.
    ///
    /// Throws `AMQPError`: `.unroutable` (mandatory and no queue matched; not
    /// retryable), `.nacked` (broker refused it, e.g. a full queue with
    /// `reject-publish`; retryable), `.connectionLost` / `.channelClosed` with
    /// `isRetryable` (outcome unknown: publish again), `.invalidMessage` (AMQP
    /// cannot carry it, e.g. a `message-id` over 255 bytes: nothing was sent and
    /// the connection is unaffected; not retryable), `.shutdown`.
    public func publish(_ message: AMQPMessage, mandatory: Bool = false) async throws {
        try await publish([message], mandatory: mandatory)
    }

    /// Publishes `messages` (in this order) and returns once the broker settled
    /// every one of them: one wake-up for the lot. Throws the first failure (as
    /// `publish(_:)` does) after all are settled; the others may have been
    /// confirmed, so a caller that retries must tolerate duplicates.
    public func publish(_ messages: [AMQPMessage], mandatory: Bool = false) async throws {
        guard !messages.isEmpty else { return }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            submit(
                .publish(
                    messages, mandatory: mandatory,
                    PublishWaiter(count: messages.count, continuation: continuation)))
        }
    }

    /// Publishes `messages` (in this order) and calls `whenSettled` once the
    /// broker settled every one of them, with the first failure (as
    /// `publish(_:)` throws it) or nil. Nothing waits: `whenSettled` runs on
    /// the connection's thread as the last confirm is read — so it must be
    /// quick and must not block — or at once on the caller's thread when there
    /// is nothing to publish or the connection has stopped. It saves the
    /// caller a resumption, and the connection a wake-up for whatever the
    /// callback queues (an ack queued from it leaves in the same turn).
    public func publish(
        _ messages: [AMQPMessage], mandatory: Bool = false, whenSettled: @escaping @Sendable (AMQPError?) -> Void
    ) {
        guard !messages.isEmpty else { return whenSettled(nil) }
        submit(
            .publish(
                messages, mandatory: mandatory,
                PublishWaiter(count: messages.count, completion: .callback(whenSettled))))
    }

    /// Publishes `body` to `exchange` with `routingKey` and returns once the broker confirmed it.
    public func publish(
        exchange: String, routingKey: String, headers: AMQPTable = [:], body: [UInt8], persistent: Bool = true,
        mandatory: Bool = false, contentType: String? = "application/json", messageID: String? = nil
    ) async throws {
        let properties = AMQPProperties(
            contentType: contentType, headers: headers, persistent: persistent,
            messageID: messageID)
        try await publish(
            AMQPMessage(exchange: exchange, routingKey: routingKey, body: body, properties: properties),
            mandatory: mandatory)
    }
}
