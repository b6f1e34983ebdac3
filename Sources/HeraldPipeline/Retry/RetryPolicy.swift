/// When and whether a transiently failed target is tried again.
///
/// Retries wait in delay queues, one per configured delay (`herald.retry.30s`),
/// so a delay is always one of the configured tiers: the tier for the attempt,
/// or — when the provider asked for longer with `Retry-After` — the shortest
/// tier at least that long (the longest tier when none is).
public struct RetryPolicy: Sendable, Equatable {
    public enum Decision: Sendable, Equatable {
        /// Republish for attempt `attempt` after `delay`.
        case retry(attempt: Int, delay: Duration)
        /// No attempts left: the target fails and the event is dead-lettered.
        case exhausted
    }

    /// Deliveries in all, the first included.
    public let maxAttempts: Int
    /// Delay tiers, in configured order: before retry 1, 2, ...; later retries reuse the last.
    public let delays: [Duration]

    public init(maxAttempts: Int, delays: [Duration]) {
        self.maxAttempts = maxAttempts
        self.delays = delays.isEmpty ? [.seconds(5)] : delays
    }

    /// The longest a message can have waited in delay queues before attempt
    /// `attempt` arrives (every retry at the longest tier, as `Retry-After`
    /// can ask): how far back a retry's receipt time may plausibly lie.
    public func longestWait(before attempt: Int) -> Duration {
        let retries = min(max(attempt, 1), maxAttempts) - 1
        return (delays.max() ?? .zero) * retries
    }

    /// What to do after attempt `attempt` (1-based) failed transiently.
    public func decision(afterFailedAttempt attempt: Int, retryAfter: Duration? = nil) -> Decision {
        guard attempt < maxAttempts else { return .exhausted }
        let scheduled = delays[min(max(attempt - 1, 0), delays.count - 1)]
        guard let retryAfter, retryAfter > scheduled else {
            return .retry(attempt: attempt + 1, delay: scheduled)
        }
        let tier = delays.sorted().first { $0 >= retryAfter } ?? delays.max() ?? scheduled
        return .retry(attempt: attempt + 1, delay: tier)
    }
}
