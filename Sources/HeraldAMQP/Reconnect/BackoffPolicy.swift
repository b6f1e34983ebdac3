import HeraldCore

/// How long to wait between reconnect attempts: exponential growth from
/// `initial` to `maximum`, with `EqualJitter` (half fixed, half random) so a
/// fleet of consumers does not reconnect in lock-step after a broker restart.
public struct BackoffPolicy: Sendable, Equatable {
    public var initial: Duration
    public var maximum: Duration
    public var multiplier: Double
    /// A connection that lived at least this long resets the attempt count.
    public var stableAfter: Duration
    /// Consecutive failed attempts after which `run()` fails; nil retries forever.
    public var maxAttempts: Int?

    public init(
        initial: Duration = .milliseconds(100), maximum: Duration = .seconds(30), multiplier: Double = 2,
        stableAfter: Duration = .seconds(10), maxAttempts: Int? = nil
    ) {
        self.initial = initial
        self.maximum = maximum
        self.multiplier = max(1, multiplier)
        self.stableAfter = stableAfter
        self.maxAttempts = maxAttempts
    }

    /// The delay before attempt `attempt` (0-based) given `unit`, a random number in [0, 1).
    public func delay(attempt: Int, unit: Double) -> Duration {
        let initialSeconds = seconds(initial)
        let ceiling = seconds(maximum)
        var base = initialSeconds
        var step = 0
        while step < attempt && base < ceiling {
            base *= multiplier
            step += 1
        }
        base = min(base, ceiling)
        return EqualJitter.delay(.nanoseconds(Int64(base * 1e9)), unit: unit)
    }

    private func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
