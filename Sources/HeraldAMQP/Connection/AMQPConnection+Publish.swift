extension AMQPConnection {
    /// Publishes `message` and returns once the broker confirmed it.
    ///
    /// Throws `AMQPError`: `.unroutable` (mandatory and no queue matched; not
    /// retryable), `.nacked` (broker refused it, e.g. a full queue with
    /// `reject-publish`; retryable), `.connectionLost` / `.channelClosed` with
    /// `isRetryable` (outcome unknown: publish again), `.shutdown`.
    public func publish(_ message: AMQPMessage, mandatory: Bool = false) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            submit(.publish(message, mandatory: mandatory, continuation))
        }
    }

    /// Publishes `body` to `exchange` with `routingKey` and returns once the broker confirmed it.
    public func publish(
        exchange: String, routingKey: String, headers: AMQPTable = [:], body: [UInt8], persistent: Bool = true,
        mandatory: Bool = false, contentType: String? = "application/json", messageID: String? = nil
    ) async throws {
        let properties = AMQPProperties(contentType: contentType, headers: headers, persistent: persistent,
                                        messageID: messageID)
        try await publish(AMQPMessage(exchange: exchange, routingKey: routingKey, body: body, properties: properties),
                          mandatory: mandatory)
    }
}
