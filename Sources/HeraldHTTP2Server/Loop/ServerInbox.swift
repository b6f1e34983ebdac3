import CHeraldShim
import Glibc
import HeraldCore
import HeraldSystem

/// The event loop's mailbox: a locked queue of actions plus an eventfd that
/// wakes the loop from `epoll_wait`.
///
/// The loop marks itself asleep before waiting; a producer writes the eventfd
/// only then, and only once per sleep, so a busy loop is never woken by
/// syscalls it does not need.
final class ServerInbox: Sendable {
    private struct State {
        var actions: [LoopAction] = []
        var sleeping = false
        var notified = false
        var closed = false
    }

    let eventFD: Int32
    private let state = Locked(State())

    init() throws(HTTP2ServerError) {
        let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard fd >= 0 else { throw HTTP2ServerError.system(call: "eventfd", errno: errno) }
        eventFD = fd
    }

    deinit {
        state.withLock { if !$0.closed { Glibc.close(eventFD) } }
    }

    /// Queues `action`; wakes the loop if it is waiting. Dropped after `close()`.
    func post(_ action: LoopAction) {
        let wake = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.actions.append(action)
            guard state.sleeping, !state.notified else { return false }
            state.notified = true
            var one: UInt64 = 1
            _ = Glibc.write(eventFD, &one, 8)
            return true
        }
        _ = wake
    }

    /// Called by the loop before `epoll_wait`: returns false (do not sleep) if work is queued.
    func prepareToSleep() -> Bool {
        state.withLock { state in
            guard state.actions.isEmpty else { return false }
            state.sleeping = true
            return true
        }
    }

    /// Called by the loop after waking: clears the eventfd and takes every queued action.
    func wakeAndTake() -> [LoopAction] {
        state.withLock { state in
            if state.notified {
                var value: UInt64 = 0
                _ = Glibc.read(eventFD, &value, 8)
                state.notified = false
            }
            state.sleeping = false
            guard !state.actions.isEmpty else { return [] }
            let taken = state.actions
            state.actions.removeAll(keepingCapacity: true)
            return taken
        }
    }

    /// Takes queued actions without touching the eventfd (the loop is awake).
    func take() -> [LoopAction] {
        state.withLock { state in
            guard !state.actions.isEmpty else { return [] }
            let taken = state.actions
            state.actions.removeAll(keepingCapacity: true)
            return taken
        }
    }

    /// Drops further actions and closes the eventfd; called once by the loop as it exits.
    func close() {
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            state.actions.removeAll()
            Glibc.close(eventFD)
        }
    }
}
