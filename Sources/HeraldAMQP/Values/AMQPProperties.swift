/// The `basic` content properties of a message (content type, message id,
/// headers, delivery mode...), as published and as delivered.
public struct AMQPProperties: Sendable, Equatable {
    public var contentType: String?
    public var contentEncoding: String?
    public var headers: AMQPTable
    /// Persistent messages (delivery mode 2) survive a broker restart in durable queues.
    public var persistent: Bool
    public var priority: UInt8?
    public var correlationID: String?
    public var replyTo: String?
    /// Per-message TTL in milliseconds, as a decimal string (AMQP's `expiration`).
    public var expiration: String?
    public var messageID: String?
    /// Seconds since the UNIX epoch.
    public var timestamp: UInt64?
    public var type: String?
    public var userID: String?
    public var appID: String?

    public init(
        contentType: String? = nil, contentEncoding: String? = nil, headers: AMQPTable = [:],
        persistent: Bool = false, priority: UInt8? = nil, correlationID: String? = nil, replyTo: String? = nil,
        expiration: String? = nil, messageID: String? = nil, timestamp: UInt64? = nil, type: String? = nil,
        userID: String? = nil, appID: String? = nil
    ) {
        self.contentType = contentType
        self.contentEncoding = contentEncoding
        self.headers = headers
        self.persistent = persistent
        self.priority = priority
        self.correlationID = correlationID
        self.replyTo = replyTo
        self.expiration = expiration
        self.messageID = messageID
        self.timestamp = timestamp
        self.type = type
        self.userID = userID
        self.appID = appID
    }
}
