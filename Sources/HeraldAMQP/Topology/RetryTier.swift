/// One retry delay: a queue `<prefix>.<name>` whose messages wait `delay`
/// (`x-message-ttl`) and are then dead-lettered back to the events exchange.
public struct RetryTier: Sendable, Equatable, Hashable {
    /// Short label used in the queue name and the routing header, e.g. `5s`, `2m`.
    public let name: String
    public let delay: Duration

    public init(name: String, delay: Duration) {
        self.name = name
        self.delay = delay
    }

    /// A tier named after its delay: 5s, 30s, 2m, 10m, 1h, 1500ms.
    public init(delay: Duration) {
        self.init(name: RetryTier.label(delay), delay: delay)
    }

    /// The delay in whole milliseconds, as `x-message-ttl` wants it.
    public var milliseconds: Int64 { delay.wholeMilliseconds }

    static func label(_ delay: Duration) -> String {
        let ms = RetryTier(name: "", delay: delay).milliseconds
        if ms % 3_600_000 == 0 && ms > 0 { return "\(ms / 3_600_000)h" }
        if ms % 60_000 == 0 && ms > 0 { return "\(ms / 60_000)m" }
        if ms % 1000 == 0 { return "\(ms / 1000)s" }
        return "\(ms)ms"
    }
}
