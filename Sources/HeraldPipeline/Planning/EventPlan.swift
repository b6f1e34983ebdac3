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
        /// The event asked for a debug trace and this target gets a delivery record (docs/debug-trace.md).
        public var traced: Bool

        public init(target: Target, event: Event, app: String, rule: String? = nil, traced: Bool = false) {
            self.target = target
            self.event = event
            self.app = app
            self.rule = rule
            self.traced = traced
        }
    }

    /// A channel target to expand into the devices of `app` registered on it.
    public struct Expansion: Sendable, Hashable {
        public var target: ChannelTarget
        public var app: String

        public init(target: ChannelTarget, app: String) {
            self.target = target
            self.app = app
        }
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
    /// The targets the dead letter is for, when only some of the event's
    /// targets were refused: the dead-lettered body lists only them, so
    /// replaying it never notifies the targets that were delivered. Empty when
    /// the event as a whole was refused (its body is dead-lettered as received).
    public var deadLetterTargets: [Target] = []
    /// The event's channel targets, for the service to expand through the
    /// registry (each device then planned with ``EventPlanner/plan(_:of:_:excluded:at:into:)``).
    public var expansions: [Expansion] = []
    /// The routing of each target, kept only when the event (or a route) asked
    /// for a debug trace: nil otherwise, so an event without one pays nothing.
    public var routeTrace: RouteTrace?

    /// A plan of the same event, attempt and receipt with nothing in it yet:
    /// what a page of a channel's devices is planned into.
    public var emptied: EventPlan {
        EventPlan(event: event, attempt: attempt, receivedAt: receivedAt, sends: [], outcomes: [])
    }
}
