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
    /// The longest `id`, in UTF-8 bytes: it becomes the AMQP `message-id` of
    /// every outcome and retry, an AMQP short string of at most 255 bytes.
    public var maxIDBytes: Int
    /// The largest `context`, serialized: it is echoed in every outcome.
    public var maxContextBytes: Int
    /// The most `context` bytes one event may have echoed in all its outcomes
    /// together (serialized context × targets): every outcome of an event is
    /// built before any is published, so this bounds the memory one event takes.
    /// The same budget then holds the providers' words too (``OutcomeBudget``).
    public var maxContextFanoutBytes: Int

    /// 1 MiB, 10 000 targets, 32 levels, 255-byte ids, 4 KiB of context, 8 MiB of context over all outcomes.
    public static let `default` = EventLimits(maxBytes: 1 << 20, maxTargets: 10_000, maxJSONDepth: 32)

    public init(
        maxBytes: Int, maxTargets: Int, maxJSONDepth: Int, maxIDBytes: Int = 255, maxContextBytes: Int = 4096,
        maxContextFanoutBytes: Int = 8 << 20
    ) {
        self.maxBytes = maxBytes
        self.maxTargets = maxTargets
        self.maxJSONDepth = maxJSONDepth
        self.maxIDBytes = maxIDBytes
        self.maxContextBytes = maxContextBytes
        self.maxContextFanoutBytes = maxContextFanoutBytes
    }
}
