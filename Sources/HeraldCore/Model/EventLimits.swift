/// Bounds on an event body, checked before and while it is decoded, so one
/// bad message cannot take memory or time from the others.
public struct EventLimits: Sendable, Hashable {
    /// The largest body, in bytes; checked before parsing.
    public var maxBytes: Int
    /// The most targets one event may have.
    public var maxTargets: Int
    /// The deepest JSON nesting (an event is shallow; `data` and `context`
    /// rarely need more than a few levels).
    public var maxJSONDepth: Int

    /// 1 MiB, 10 000 targets, 32 levels.
    public static let `default` = EventLimits(maxBytes: 1 << 20, maxTargets: 10_000, maxJSONDepth: 32)

    public init(maxBytes: Int, maxTargets: Int, maxJSONDepth: Int) {
        self.maxBytes = maxBytes
        self.maxTargets = maxTargets
        self.maxJSONDepth = maxJSONDepth
    }
}
