import HeraldCore
import HeraldSystem

/// The wall clock tests hand to code that reads the time (token caches,
/// expiry, the simulator's `received_at`), so time-dependent behaviour is
/// tested without sleeping. It stands still until the test moves it
/// (`advance`), or moves on `step` per read (each stamped request gets its
/// own known time), or answers from a script and then its last value forever.
public final class TestClock: Sendable {
    private struct State {
        var current: Timestamp
        var script: [Timestamp]
    }

    /// The first time it reads.
    public let start: Timestamp
    /// How far each read moves it on.
    public let step: Duration
    private let state: Locked<State>

    /// A clock at `start` that moves `step` per read (`.zero`: only when advanced).
    public init(_ start: Timestamp = Timestamp(seconds: 1_796_032_800), step: Duration = .zero) {
        self.start = start
        self.step = step
        state = Locked(State(current: start, script: []))
    }

    /// A clock whose reads answer `script` in order, then its last value forever.
    public init(script: [Timestamp]) {
        precondition(!script.isEmpty, "a scripted clock needs a time")
        start = script[0]
        step = .zero
        state = Locked(State(current: script[script.count - 1], script: script))
    }

    /// The time now; moves the clock on by `step`, or to the script's next value.
    public func read() -> Timestamp {
        state.withLock { state in
            if !state.script.isEmpty { return state.script.removeFirst() }
            defer { state.current = state.current + step }
            return state.current
        }
    }

    /// `read` as the closure the code under test takes.
    public var closure: @Sendable () -> Timestamp { { [self] in read() } }

    /// Moves the clock on by `duration`.
    public func advance(by duration: Duration) {
        state.withLock { $0.current = $0.current + duration }
    }

    /// What the `n`th read (from 0) of a stepping clock returned, as the simulator's record writes it.
    public func stamp(_ n: Int64) -> String { (start + step * n).rfc3339(fractionDigits: 3) }
}
