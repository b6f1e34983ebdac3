import HeraldCore
import HeraldSystem

/// At most `limit` events processed at once. With a large `prefetch` the
/// broker keeps its window full (it sends in bigger batches), while the events
/// beyond `limit` wait as received messages (about a kilobyte each) instead of
/// as tasks with their frames, child tasks and HTTP requests (about 15 KB each).
///
/// One waiter at a time: the consumer loop takes a slot before starting each
/// event's task; a finished event gives its slot back and wakes the loop. At
/// shutdown the loop waits for every slot to come back (`waitUntilAllFree`).
final class EventSlots: Sendable {
    private struct State {
        var free: Int
        var waiter: CheckedContinuation<Void, Never>?
        var idleWaiter: CheckedContinuation<Void, Never>?
    }

    let limit: Int
    private let state: Locked<State>

    init(limit: Int) {
        let limit = max(1, limit)
        self.limit = limit
        state = Locked(State(free: limit))
    }

    /// Whether a caller is parked in `acquire` (waiting for a slot) and in
    /// `waitUntilAllFree` (waiting for every slot): what proves that a
    /// caller waits rather than has yet to arrive.
    var parked: (taker: Bool, idle: Bool) {
        state.withLock { ($0.waiter != nil, $0.idleWaiter != nil) }
    }

    /// Takes a slot, waiting until one is free. Only one caller may wait at a time.
    func acquire() async {
        let taken = state.withLock { state -> Bool in
            guard state.free > 0 else { return false }
            state.free -= 1
            return true
        }
        if taken { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.free > 0 {
                    state.free -= 1
                    return true
                }
                precondition(state.waiter == nil, "EventSlots has one waiter at a time")
                state.waiter = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Gives a slot back; hands it straight to the waiter, if there is one.
    func release() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter  // the slot passes to the waiter: `free` stays as it is
            }
            state.free += 1
            guard state.free == limit, let idle = state.idleWaiter else { return nil }
            state.idleWaiter = nil
            return idle
        }
        waiter?.resume()
    }

    /// Returns once every slot is free (no event in progress). One caller at a
    /// time, and none may `acquire` meanwhile.
    func waitUntilAllFree() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idleNow = state.withLock { state -> Bool in
                if state.free == limit { return true }
                precondition(state.idleWaiter == nil, "EventSlots has one idle waiter at a time")
                state.idleWaiter = continuation
                return false
            }
            if idleNow { continuation.resume() }
        }
    }
}
