import HeraldCore

/// A rate with room for bursts, shared by every task sending through it: a
/// route's `rate`, an app's provider throttle.
///
/// Tokens refill at `perSecond` up to `burst`. `reserve()` always takes one,
/// going into debt when none is left, and says how long its caller must wait
/// for its turn: waiting callers are spaced one token apart, in the order they
/// asked, and none of them skips the queue. `takeIfAvailable()` takes one only
/// if it is there now (the `drop` behaviour).
public final class TokenBucket: Sendable {
    public let perSecond: Double
    public let burst: Int
    private let state: Locked<(tokens: Double, updated: ContinuousClock.Instant)>

    public init(perSecond: Double, burst: Int, now: ContinuousClock.Instant = .now) {
        self.perSecond = perSecond
        self.burst = max(1, burst)
        state = Locked((Double(max(1, burst)), now))
    }

    /// Takes a token; the wait before using it (zero when one was there).
    public func reserve(now: ContinuousClock.Instant = .now) -> Duration {
        state.withLock { state in
            refill(&state, now: now)
            state.tokens -= 1
            guard state.tokens < 0 else { return .zero }
            return .nanoseconds(Int64((-state.tokens / perSecond * 1e9).rounded(.up)))
        }
    }

    /// Takes a token if one is there now.
    public func takeIfAvailable(now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in
            refill(&state, now: now)
            guard state.tokens >= 1 else { return false }
            state.tokens -= 1
            return true
        }
    }

    private func refill(_ state: inout (tokens: Double, updated: ContinuousClock.Instant), now: ContinuousClock.Instant) {
        guard now > state.updated else { return }
        let elapsed = now - state.updated
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        state.tokens = min(Double(burst), state.tokens + seconds * perSecond)
        state.updated = now
    }
}
