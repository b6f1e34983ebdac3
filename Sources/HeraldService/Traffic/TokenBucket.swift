import HeraldCore
import HeraldSystem

/// A rate with room for bursts, shared by every task sending through it: a
/// route's `rate`, an app's provider throttle.
///
/// Tokens refill at `perSecond` up to `burst`. `acquire()` waits for a token:
/// waiting tasks are queued and handed one token each, in the order they
/// asked, by one pacing task that looks at the clock when it hands a token
/// out — so a stall of the machine is followed by at most `burst` sends at
/// once, not by every send whose time passed meanwhile. `takeIfAvailable()`
/// takes one only if it is there now and nobody waits (the `drop` behaviour).
final class TokenBucket: Sendable {
    private struct State {
        var tokens: Double
        var updated: ContinuousClock.Instant
        var waiters: [CheckedContinuation<Void, Never>] = []
        var waitersHead = 0
        var pacing = false
        /// The pacing task's latest wait for the next token.
        var scheduledWait: Duration?

        var hasWaiters: Bool { waitersHead < waiters.count }
    }

    /// The rate, clamped into `RateBounds` (config validation refuses one
    /// outside them; the clamp keeps any other caller from an overflow).
    let perSecond: Double
    let burst: Int
    private let state: Locked<State>
    /// How the pacing task waits for the next token.
    private let sleep: @Sendable (Duration) async -> Void

    convenience init(perSecond: Double, burst: Int, now: ContinuousClock.Instant = .now) {
        self.init(perSecond: perSecond, burst: burst, now: now) { try? await Task.sleep(for: $0) }
    }

    /// `sleep` is how the pacing task waits for the next token; a test holds
    /// it to stall the pacing task as a loaded machine would.
    init(
        perSecond: Double, burst: Int, now: ContinuousClock.Instant = .now,
        sleep: @escaping @Sendable (Duration) async -> Void
    ) {
        self.perSecond = RateBounds.clamped(perSecond)
        self.burst = max(1, burst)
        self.sleep = sleep
        state = Locked(State(tokens: Double(max(1, burst)), updated: now))
    }

    /// Waits for a token; returns how long that took (zero when one was there).
    func acquire() async -> Duration {
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
    func takeIfAvailable(now: ContinuousClock.Instant = .now) -> Bool {
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
                return (ready, Self.wait(forTokens: 1 - state.tokens, perSecond: perSecond))
            }
            for continuation in ready { continuation.resume() }
            guard let wait else { return }
            state.withLock { $0.scheduledWait = wait }
            await sleep(wait)
        }
    }

    /// The longest wait `wait(forTokens:perSecond:)` returns: a year, far
    /// beyond any wait within `RateBounds` (at most 1/0.000001 s, 11.6 days).
    static let longestWait = Duration.seconds(365 * 86_400)

    /// How long `tokens` take to refill at `perSecond`, rounded up to the
    /// nanosecond; saturating at `longestWait`, and zero for no tokens, so no
    /// rate or deficit can make the conversion trap.
    static func wait(forTokens tokens: Double, perSecond: Double) -> Duration {
        let nanoseconds = (tokens / perSecond * 1e9).rounded(.up)
        let longest = Double(longestWait.components.seconds) * 1e9
        guard nanoseconds > 0 else { return .zero }
        guard nanoseconds < longest else { return longestWait }
        return .nanoseconds(Int64(nanoseconds))
    }

    /// The pacing task's latest wait for the next token (nil before it first waited).
    var scheduledWait: Duration? { state.withLock { $0.scheduledWait } }

    /// How many tasks wait for a token now.
    var waiting: Int { state.withLock { $0.waiters.count - $0.waitersHead } }

    private func refill(_ state: inout State, now: ContinuousClock.Instant) {
        guard now > state.updated else { return }
        let elapsed = now - state.updated
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        state.tokens = min(Double(burst), state.tokens + seconds * perSecond)
        state.updated = now
    }
}
