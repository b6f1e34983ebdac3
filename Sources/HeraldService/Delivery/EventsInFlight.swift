import HeraldCore
import HeraldPipeline
import HeraldSystem

/// The events this instance is processing, by id and attempt, so that a
/// redelivery of one still in flight — the broker gave it back because the
/// connection it came on was lost, while its first delivery goes on and
/// publishes on the next connection — waits for that first delivery to
/// finish. Then the redelivery memory (`DeliveredTargets`) tells what was
/// done, and no device is notified twice.
final class EventsInFlight: Sendable {
    struct Key: Hashable {
        let eventID: String
        let attempt: Int
    }

    private struct Entry {
        var count = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let entries = Locked<[Key: Entry]>([:])

    static func key(_ plan: EventPlan) -> Key? {
        plan.event.map { Key(eventID: $0.id, attempt: plan.attempt) }
    }

    /// Waits until no delivery of `key` is in flight (at once when none is).
    func waitUntilIdle(_ key: Key) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = entries.withLock { entries -> Bool in
                guard var entry = entries[key], entry.count > 0 else { return true }
                entry.waiters.append(continuation)
                entries[key] = entry
                return false
            }
            if now { continuation.resume() }
        }
    }

    func enter(_ key: Key) {
        entries.withLock { $0[key, default: Entry()].count += 1 }
    }

    /// Ends one delivery of `key`; the last one wakes the redeliveries waiting for it.
    func leave(_ key: Key) {
        let waiters = entries.withLock { entries -> [CheckedContinuation<Void, Never>] in
            guard var entry = entries[key] else { return [] }
            entry.count -= 1
            if entry.count > 0 {
                entries[key] = entry
                return []
            }
            entries[key] = nil
            return entry.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
