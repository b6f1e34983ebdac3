/// Every failure of the AMQP layer, with what a caller needs to act on it:
/// which operation failed, the broker's reply code and text when the broker
/// answered, the rabbitmq-c status when the library failed, and whether doing
/// the same thing again (after a reconnect) can succeed.
///
/// A public struct around an open set of codes, so new codes do not break callers.
public struct AMQPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let description: String
        private init(_ name: String) { description = name }

        /// rabbitmq-c reported an error (socket, TLS, heartbeat timeout, bad data...).
        public static let library = Code("library error")
        /// The broker closed the connection (`connection.close`).
        public static let connectionClosed = Code("connection closed by broker")
        /// The broker closed a channel (`channel.close`), e.g. a missing exchange.
        public static let channelClosed = Code("channel closed by broker")
        /// The connection went away while the operation was pending; its outcome is unknown.
        public static let connectionLost = Code("connection lost")
        /// A mandatory message matched no queue and came back in `basic.return`.
        public static let unroutable = Code("unroutable")
        /// The broker refused the message (`basic.nack`), e.g. a full queue with `reject-publish`.
        public static let nacked = Code("nacked by broker")
        /// The delivery came from a connection that is gone; the broker will redeliver it.
        public static let staleDelivery = Code("stale delivery")
        /// The delivery was already acked, nacked or rejected.
        public static let alreadySettled = Code("delivery already settled")
        /// The broker cancelled the consumer (`basic.cancel`), e.g. its queue was deleted.
        public static let consumerCancelled = Code("consumer cancelled by broker")
        /// The connection is shutting down or has shut down.
        public static let shutdown = Code("shut down")
        /// The message cannot be carried by AMQP as it is (a short string over
        /// 255 bytes, headers too large for a frame): nothing was sent, the
        /// connection is unaffected, and publishing it again fails again.
        public static let invalidMessage = Code("invalid message")
        /// A malformed URL, option or argument.
        public static let invalidArgument = Code("invalid argument")
        /// Reconnecting failed too many times in a row.
        public static let gaveUp = Code("gave up reconnecting")
    }

    public let code: Code
    /// The AMQP method or library call that failed, e.g. `queue.declare herald.events`.
    public let operation: String
    /// The broker's reply code (e.g. 404, 406, 320, 312) when the broker answered.
    public let replyCode: Int?
    /// The broker's reply text, or the rabbitmq-c error string.
    public let detail: String
    /// The rabbitmq-c status (`amqp_status_enum`) when the library failed.
    public let libraryStatus: Int32?
    /// True when the same operation can succeed later (after a reconnect or back-off).
    public let isRetryable: Bool

    public init(
        _ code: Code, operation: String, detail: String = "", replyCode: Int? = nil,
        libraryStatus: Int32? = nil, isRetryable: Bool
    ) {
        self.code = code
        self.operation = operation
        self.detail = detail
        self.replyCode = replyCode
        self.libraryStatus = libraryStatus
        self.isRetryable = isRetryable
    }

    public var description: String {
        var text = "\(operation): \(code)"
        if let replyCode { text += " \(replyCode)" }
        if !detail.isEmpty { text += ": \(detail)" }
        text += isRetryable ? " (retryable)" : " (not retryable)"
        return text
    }
}
