import HeraldCore

/// A rate with room for bursts, shared by every task sending through it: a
/// route's `rate`, an app's provider throttle.
///
/// Tokens refill at `perSecond` up to `burst`. `acquire()` waits for a token:
/// waiting tasks are queued and handed one token each, in the order they
/// asked, by one pacing task that looks at the clock when it hands a token
/// out — so a stall of the machine is followed by at most `burst` sends at
/// once, not by every send whose time passed meanwhile. `takeIfAvailable()`
/// takes one only if it is there now and nobody waits (the `drop` behaviour).
public final class TokenBucket: Sendable {
    private struct State {
        var tokens: Double
        var updated: ContinuousClock.Instant
        var waiters: [CheckedContinuation<Void, Never>] = []
        var waitersHead = 0
        var pacing = false

        var hasWaiters: Bool { waitersHead < waiters.count }
    }

    public let perSecond: Double
    public let burst: Int
    private let state: Locked<State>

    public init(perSecond: Double, burst: Int, now: ContinuousClock.Instant = .now) {
        self.perSecond = perSecond
        self.burst = max(1, burst)
        state = Locked(State(tokens: Double(max(1, burst)), updated: now))
    }

    /// Waits for a token; returns how long that took (zero when one was there).
    public func acquire() async -> Duration {
        let started = ContinuousClock.now
        var queued = false
        await withCheckedContinuation { continuation in
            enum Step { case go, wait, waitAndPace }
            let step = state.withLock { state -> Step in
                refill(&state, now: started)
                if !state.hasWaiters && state.tokens >= 1 {
                    state.tokens -= 1
                    return .go
                }
                state.waiters.append(continuation)
                guard !state.pacing else { return .wait }
                state.pacing = true
                return .waitAndPace
            }
            switch step {
            case .go: continuation.resume()
            case .wait: queued = true
            case .waitAndPace:
                queued = true
                Task { await self.pace() }
            }
        }
        return queued ? ContinuousClock.now - started : .zero
    }

    /// Takes a token if one is there now and nobody waits for one.
    public func takeIfAvailable(now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in
            refill(&state, now: now)
            guard !state.hasWaiters, state.tokens >= 1 else { return false }
            state.tokens -= 1
            return true
        }
    }

    /// Hands tokens to the waiting tasks as they come, until none waits.
    private func pace() async {
        while true {
            let now = ContinuousClock.now
            let (ready, wait) = state.withLock { state -> ([CheckedContinuation<Void, Never>], Duration?) in
                refill(&state, now: now)
                var ready: [CheckedContinuation<Void, Never>] = []
                while state.hasWaiters, state.tokens >= 1 {
                    ready.append(state.waiters[state.waitersHead])
                    state.waitersHead += 1
                    state.tokens -= 1
                }
                if !state.hasWaiters {
                    state.waiters.removeAll(keepingCapacity: true)
                    state.waitersHead = 0
                    state.pacing = false
                    return (ready, nil)
                }
                if state.waitersHead > 1024, state.waitersHead * 2 > state.waiters.count {
                    state.waiters.removeFirst(state.waitersHead)
                    state.waitersHead = 0
                }
                return (ready, .nanoseconds(Int64(((1 - state.tokens) / perSecond * 1e9).rounded(.up))))
            }
            for continuation in ready { continuation.resume() }
            guard let wait else { return }
            try? await Task.sleep(for: wait)
        }
    }

    private func refill(_ state: inout State, now: ContinuousClock.Instant) {
        guard now > state.updated else { return }
        let elapsed = now - state.updated
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        state.tokens = min(Double(burst), state.tokens + seconds * perSecond)
        state.updated = now
    }
}
