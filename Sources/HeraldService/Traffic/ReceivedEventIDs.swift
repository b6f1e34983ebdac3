import HeraldCore
import HeraldSystem

/// Event ids (each within its app, `EventKey`) this instance received
/// lately, for `duplicate_window`: another event of the same app with one of
/// these ids within the window is a duplicate (a publisher that sent it
/// twice), not to be delivered again.
///
/// Memory is ~100 bytes an id: at 1 000 events/s the default 10 minutes keep
/// 600 000 ids (~60 MB). At most `capacity` are kept; past it the oldest are
/// forgotten before their window ends (and a late duplicate of one would be
/// delivered again).
final class ReceivedEventIDs: Sendable {
    private struct State {
        var receivedAt: [EventKey: Timestamp] = [:]
        /// Ids in the order they were received, from `head`.
        var order: [(key: EventKey, at: Timestamp)] = []
        var head = 0
    }

    let window: Duration
    let capacity: Int
    private let state = Locked(State())

    init(window: Duration, capacity: Int = 1_000_000) {
        self.window = window
        self.capacity = max(1, capacity)
    }

    /// Claims `key`, received at `now`: nil when it was not received within
    /// the window before (it is now, at `now`), else when it was. One step, so
    /// of two events with one key handled at once exactly one gets nil.
    func claim(_ key: EventKey, at now: Timestamp) -> Timestamp? {
        state.withLock { state in
            if let at = state.receivedAt[key], now - at < window { return at }
            forget(&state, before: now)
            state.receivedAt[key] = now
            state.order.append((key, now))
            while state.receivedAt.count > capacity, state.head < state.order.count {
                drop(&state)
            }
            return nil
        }
    }

    /// How many ids are kept (for tests and metrics).
    var count: Int { state.withLock { $0.receivedAt.count } }

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
        // An id claimed again later keeps its newer time.
        if state.receivedAt[oldest.key] == oldest.at { state.receivedAt[oldest.key] = nil }
    }
}
