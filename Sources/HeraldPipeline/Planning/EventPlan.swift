import HeraldCore

/// What to do with one incoming event: the sends to make, and the outcomes
/// already decided without any provider (dropped, expired, rejected).
public struct EventPlan: Sendable {
    /// One target to deliver, with the event as routing shaped it for that target.
    public struct Send: Sendable {
        public var target: Target
        /// The event after its route's `app`, `set` and `defaults`.
        public var event: Event
        /// The app whose credentials deliver (the route's, else the event's).
        public var app: String
        /// The route that matched, if any.
        public var rule: String?
    }

    /// The decoded event; nil when the body could not be decoded at all.
    public var event: Event?
    public var attempt: Int
    /// When Herald first received the event (across retries).
    public var receivedAt: Timestamp
    public var sends: [Send]
    public var outcomes: [Outcome]
    /// Set when the message belongs in the dead-letter queue: the error for `x-herald-error`.
    public var deadLetterReason: String?
}
