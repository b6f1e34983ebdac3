import HeraldCore

/// What routing decided for each target of an event that asked for a debug
/// trace: the rule that matched, what it changed, and what became of the
/// target (sent, dropped, rejected, expired). The planner keeps one only for
/// such an event (``EventPlan/routeTrace`` is nil otherwise); it becomes the
/// event's route record (``DebugTraceRecord/route(_:plan:at:)``).
public struct RouteTrace: Sendable, Equatable {
    /// What became of one target at planning.
    public enum Result: Sendable, Equatable {
        case send
        case excluded
        case dropped(reason: String)
        case rejected(reason: String)
        case expired
    }

    /// One target's routing.
    public struct Entry: Sendable, Equatable {
        public var target: Target
        /// The rule that matched; nil when none did.
        public var rule: String?
        /// The app that delivers (the rule's, else the event's).
        public var app: String?
        public var set: EventOverrides
        public var defaults: EventOverrides
        public var result: Result
    }

    /// The most targets one route record lists; the others are counted in ``omitted``.
    public static let maxEntries = 100
    /// The most targets of one event (or one page of a channel's devices) that get a delivery record each.
    public static let maxTracedSends = 100

    /// The AMQP routing key the event came with.
    public var routingKey: String
    public var entries: [Entry] = []
    /// Targets routed beyond ``maxEntries`` and not listed.
    public var omitted = 0
    /// Sends marked for a delivery record so far (at most ``maxTracedSends``).
    public var tracedSends = 0
    /// Sends beyond ``maxTracedSends`` that get no delivery record.
    public var untracedSends = 0

    public init(routingKey: String) {
        self.routingKey = routingKey
    }

    mutating func add(_ target: Target, decision: RouteDecision?, result: Result) {
        guard entries.count < Self.maxEntries else {
            omitted += 1
            return
        }
        entries.append(
            Entry(
                target: target, rule: decision?.rule, app: decision?.app, set: decision?.set ?? EventOverrides(),
                defaults: decision?.defaults ?? EventOverrides(), result: result))
    }

    /// Whether the next send gets a delivery record (counting it).
    mutating func traceNextSend() -> Bool {
        guard tracedSends < Self.maxTracedSends else {
            untracedSends += 1
            return false
        }
        tracedSends += 1
        return true
    }
}
