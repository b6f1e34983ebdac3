import HeraldCore

/// When and whether a transiently failed target is tried again, and after
/// how long.
///
/// Retries wait in delay queues with a fixed TTL (`herald.retry.30s`). A
/// delay queue releases its messages in order (RabbitMQ expires a message
/// only at the head of its queue), so a per-message `expiration` shorter than
/// the message ahead of it would wait for that one anyway: jitter inside one
/// queue cannot spread a burst. Each configured delay is therefore served by
/// ``jitterSlots`` delay queues whose delays divide its `EqualJitter` range,
/// [delay/2, delay], evenly (`30s` → 15s, 20s, 25s, 30s), and each failed
/// target draws one of them: targets that failed together come back in
/// ``jitterSlots`` waves spread over half the delay, none later than the
/// configured delay.
///
/// The configured delay for an attempt is the tier for the attempt, or —
/// when the provider asked for longer with `Retry-After` — the shortest tier
/// at least that long (the longest tier when none is); its slots shorter
/// than `Retry-After` are not drawn.
public struct RetryPolicy: Sendable, Equatable {
    public enum Decision: Sendable, Equatable {
        /// Republish for attempt `attempt` after `delay`.
        case retry(attempt: Int, delay: Duration)
        /// No attempts left: the target fails and the event is dead-lettered.
        case exhausted
    }

    /// Delay queues per configured delay.
    public static let jitterSlots = 4

    /// Deliveries in all, the first included.
    public let maxAttempts: Int
    /// Delay tiers, in configured order: before retry 1, 2, ...; later retries reuse the last.
    public let delays: [Duration]

    public init(maxAttempts: Int, delays: [Duration]) {
        self.maxAttempts = maxAttempts
        self.delays = delays.isEmpty ? [.seconds(5)] : delays
    }

    /// The delays of `delay`'s jitter slots, shortest first, in whole
    /// milliseconds (a delay queue's `x-message-ttl`); the last is `delay`.
    public static func slots(of delay: Duration) -> [Duration] {
        (0..<jitterSlots).map { slot in
            let unit = Double(slot) / Double(jitterSlots - 1)
            let jittered = EqualJitter.delay(delay, unit: unit).components
            return .milliseconds(jittered.seconds * 1000 + jittered.attoseconds / 1_000_000_000_000_000)
        }
    }

    /// Every delay a retry can wait, each once, in configured order with
    /// each delay's slots shortest first: one delay queue each.
    public var queueDelays: [Duration] {
        var all: [Duration] = []
        for delay in delays {
            for slot in Self.slots(of: delay) where !all.contains(slot) { all.append(slot) }
        }
        return all
    }

    /// The longest a message can have waited in delay queues before attempt
    /// `attempt` arrives (every retry at the longest tier, as `Retry-After`
    /// can ask): how far back a retry's receipt time may plausibly lie.
    public func longestWait(before attempt: Int) -> Duration {
        let retries = min(max(attempt, 1), maxAttempts) - 1
        return (delays.max() ?? .zero) * retries
    }

    /// What to do after attempt `attempt` (1-based) failed transiently;
    /// `unit`, a number in [0, 1), draws the jitter slot.
    public func decision(
        afterFailedAttempt attempt: Int, retryAfter: Duration? = nil,
        unit: Double = SharedIdentifierRandom.shared.unit()
    ) -> Decision {
        guard attempt < maxAttempts else { return .exhausted }
        var tier = delays[min(max(attempt - 1, 0), delays.count - 1)]
        if let retryAfter, retryAfter > tier {
            tier = delays.sorted().first { $0 >= retryAfter } ?? delays.max() ?? tier
        }
        var slots = Self.slots(of: tier)
        if let retryAfter { slots = slots.filter { $0 >= retryAfter } }
        guard !slots.isEmpty else { return .retry(attempt: attempt + 1, delay: tier) }
        let slot = min(Int(min(max(unit, 0), 1) * Double(slots.count)), slots.count - 1)
        return .retry(attempt: attempt + 1, delay: slots[slot])
    }
}
