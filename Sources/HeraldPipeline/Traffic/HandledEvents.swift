import HeraldCore

/// Event ids this instance handled, for `duplicate_window`: another event with
/// one of these ids within the window is a duplicate (a publisher that sent
/// it twice), not to be delivered again.
///
/// Memory is ~100 bytes an id: at 1 000 events/s the default 10 minutes keep
/// 600 000 ids (~60 MB). At most `capacity` are kept; past it the oldest are
/// forgotten before their window ends (and a late duplicate of one would be
/// delivered again).
public final class HandledEvents: Sendable {
    private struct State {
        var handledAt: [String: Timestamp] = [:]
        /// Ids in the order they were handled, from `head`.
        var order: [(id: String, at: Timestamp)] = []
        var head = 0
    }

    public let window: Duration
    public let capacity: Int
    private let state = Locked(State())

    public init(window: Duration, capacity: Int = 1_000_000) {
        self.window = window
        self.capacity = max(1, capacity)
    }

    /// When `id` was handled, if that is within the window before `now`.
    public func handledAt(_ id: String, now: Timestamp) -> Timestamp? {
        state.withLock { state in
            guard let at = state.handledAt[id], now - at < window else { return nil }
            return at
        }
    }

    /// Notes that the event `id` was handled at `now` (its first delivery's outcomes confirmed and acked).
    public func record(_ id: String, at now: Timestamp) {
        state.withLock { state in
            forget(&state, before: now)
            state.handledAt[id] = now
            state.order.append((id, now))
            while state.handledAt.count > capacity, state.head < state.order.count {
                drop(&state)
            }
        }
    }

    /// How many ids are kept (for tests and metrics).
    public var count: Int { state.withLock { $0.handledAt.count } }

    /// Forgets the ids whose window has passed.
    private func forget(_ state: inout State, before now: Timestamp) {
        while state.head < state.order.count, now - state.order[state.head].at >= window {
            drop(&state)
        }
        if state.head > 4096, state.head * 2 > state.order.count {
            state.order.removeFirst(state.head)
            state.head = 0
        }
    }

    private func drop(_ state: inout State) {
        let oldest = state.order[state.head]
        state.head += 1
        // An id handled again later keeps its newer time.
        if state.handledAt[oldest.id] == oldest.at { state.handledAt[oldest.id] = nil }
    }
}
