import HeraldCore

/// When to connect, how long to back off, when to give up: the connection
/// thread's lifecycle as a value type. Each event returns the action the owner
/// must perform; time comes in as an argument, so tests need no sockets or sleeps.
public struct ReconnectStateMachine: Sendable {
    public typealias Instant = ContinuousClock.Instant

    public enum State: Sendable, Equatable {
        case idle
        case connecting(attempt: Int)
        case connected(since: Instant)
        case backingOff(until: Instant, attempt: Int)
        case stopped
    }

    public enum Action: Sendable, Equatable {
        /// Open a connection now (and declare the topology, re-subscribe consumers).
        case connect
        /// Drop the dead connection's state (fail unconfirmed publishes retryably, mark
        /// deliveries stale), then wait until the instant before `backOffElapsed`.
        case tearDownAndWait(until: Instant)
        /// Wait until the instant, then report `backOffElapsed`.
        case wait(until: Instant)
        /// Stop for good: close what is open, fail what waits. `failure` is nil on a requested shutdown.
        case stop(failure: AMQPError?)
        /// Nothing to do.
        case none
    }

    public private(set) var state: State = .idle
    public let policy: BackoffPolicy
    private var random: SplitMix64
    /// Failed connect attempts since the last successful connect (for `maxAttempts`).
    private var failedAttempts = 0
    /// Back-off level: grows with each failure or short-lived connection, resets
    /// after a connection that stayed up for `stableAfter`.
    private var level = 0

    public init(policy: BackoffPolicy, seed: UInt64 = UInt64.random(in: .min ... .max)) {
        self.policy = policy
        self.random = SplitMix64(seed: seed)
    }

    public mutating func start() -> Action {
        guard state == .idle else { return .none }
        state = .connecting(attempt: 0)
        return .connect
    }

    public mutating func connectSucceeded(at now: Instant) -> Action {
        guard case .connecting = state else { return .none }
        failedAttempts = 0
        state = .connected(since: now)
        return .none
    }

    /// A connect attempt failed; non-retryable failures (bad credentials, a topology
    /// that contradicts the broker's) stop at once.
    public mutating func connectFailed(at now: Instant, error: AMQPError) -> Action {
        guard case .connecting(let attempt) = state else { return .none }
        failedAttempts += 1
        if !error.isRetryable {
            state = .stopped
            return .stop(failure: error)
        }
        if let limit = policy.maxAttempts, failedAttempts >= limit {
            state = .stopped
            return .stop(
                failure: AMQPError(
                    .gaveUp, operation: "connect",
                    detail: "\(failedAttempts) attempts; last: \(error)", isRetryable: false))
        }
        let until = now + policy.delay(attempt: level, unit: random.unit())
        level += 1
        state = .backingOff(until: until, attempt: attempt + 1)
        return .wait(until: until)
    }

    /// The live connection died (socket error, heartbeat timeout, broker closed it).
    public mutating func connectionLost(at now: Instant) -> Action {
        guard case .connected(let since) = state else { return .none }
        if now - since >= policy.stableAfter { level = 0 }
        let until = now + policy.delay(attempt: level, unit: random.unit())
        level += 1
        state = .backingOff(until: until, attempt: 1)
        return .tearDownAndWait(until: until)
    }

    public mutating func backOffElapsed(at now: Instant) -> Action {
        guard case .backingOff(let until, let attempt) = state else { return .none }
        if now < until { return .wait(until: until) }
        state = .connecting(attempt: attempt)
        return .connect
    }

    public mutating func shutdownRequested() -> Action {
        if state == .stopped { return .none }
        state = .stopped
        return .stop(failure: nil)
    }
}
