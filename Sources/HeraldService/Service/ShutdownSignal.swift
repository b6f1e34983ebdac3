import HeraldCore
import HeraldSystem

/// A one-way switch many tasks can wait on: "stop taking new work".
/// Waiting honours cancellation, so a waiter can race other work in a task group.
final class ShutdownSignal: Sendable {
    private struct State {
        var triggered = false
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Locked(State())

    var isTriggered: Bool { state.withLock { $0.triggered } }

    func trigger() {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            guard !s.triggered else { return [] }
            s.triggered = true
            defer { s.waiters = [:] }
            return Array(s.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once `trigger()` has been called (at once if it already was),
    /// or when the calling task is cancelled.
    func wait() async {
        let id = state.withLock { s -> Int in
            s.nextID += 1
            return s.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { s -> Bool in
                    if s.triggered || Task.isCancelled { return true }
                    s.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume()
        }
    }

    /// Returns once `trigger()` has been called or `timeout` has passed, whichever is first.
    func wait(atMost timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.wait() }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Runs `chore` at once and then every `period`, until `trigger()` is
    /// called: a trigger ends the wait between two runs at once.
    func repeatUntilTriggered(every period: Duration, _ chore: () async -> Void) async {
        while !isTriggered {
            await chore()
            await wait(atMost: period)
        }
    }
}
