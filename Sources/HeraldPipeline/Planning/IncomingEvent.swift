import HeraldCore

/// An events-queue message as the pipeline sees it, independent of the AMQP client.
public struct IncomingEvent: Sendable {
    public var body: [UInt8]
    public var routingKey: String
    /// AMQP headers with string (or stringified) values.
    public var headers: [String: String]
    /// The AMQP `message-id` property: the event's id when its body has none.
    public var messageID: String?
    /// The broker redelivered this message (an earlier consumer did not ack it).
    public var redelivered: Bool
    /// Who published the event: the AMQP `user-id`, which the broker checked
    /// against the publishing connection's user, or on a copy Herald
    /// republished the original's (`PublisherIdentity`); nil when nobody is
    /// vouched for.
    public var userID: String?

    public init(
        body: [UInt8], routingKey: String, headers: [String: String] = [:], messageID: String? = nil,
        redelivered: Bool = false, userID: String? = nil
    ) {
        self.body = body
        self.routingKey = routingKey
        self.headers = headers
        self.messageID = messageID
        self.redelivered = redelivered
        self.userID = userID
    }

    /// The attempt `x-herald-attempt` claims (at least 1; 1 when absent or not
    /// a decimal number). Publishers can set any header, so the planner bounds
    /// it (``EventPlanner/plan(_:now:newID:)``).
    public var claimedAttempt: Int {
        headers[HeraldHeader.attempt].flatMap { Int($0) }.map { max(1, $0) } ?? 1
    }

    /// The receipt time `x-herald-received-at` claims (epoch ms), if any; the
    /// planner trusts it only within bounds.
    public var claimedReceivedAt: Timestamp? {
        headers[HeraldHeader.receivedAt].flatMap { Int64($0) }.map(Timestamp.init(millisecondsSinceEpoch:))
    }
}
