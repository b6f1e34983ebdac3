import Glibc
import HeraldCore
import Synchronization

/// Keeps every accepted notification in memory (bounded) and optionally
/// appends each as a JSON line to a file, with per-provider, per-status counters.
///
/// Shared by all simulated services; safe from any thread (one `Mutex`).
public final class NotificationRecorder: Sendable {
    struct State {
        /// A ring: once full, each new notification replaces the oldest at `head`.
        var ring: [RecordedNotification] = []
        var head = 0
        var forgotten = 0
        var counters: [String: Int] = [:]

        /// Oldest first.
        var inOrder: [RecordedNotification] { Array(ring[head...] + ring[..<head]) }
    }

    private let state = Mutex(State())
    private let capacity: Int
    private let file: Mutex<UnsafeMutablePointer<FILE>?>

    /// - Parameters:
    ///   - capacity: notifications kept in memory; older ones are forgotten one by
    ///     one as new ones arrive (a ring, so no recording ever pays for a mass
    ///     trim: freeing 25 000 notifications at once stalled the simulator's
    ///     server thread for ~100 ms under benchmark load). Counters keep counting.
    ///   - jsonLinesPath: a file to append every accepted notification to, one JSON object per line.
    public init(capacity: Int = 100_000, jsonLinesPath: String? = nil) {
        self.capacity = max(1, capacity)
        file = Mutex(jsonLinesPath.flatMap { fopen($0, "a") })
    }

    deinit {
        file.withLock { handle in
            if let handle { fclose(handle) }
            handle = nil
        }
    }

    /// Records an accepted notification.
    public func record(_ notification: RecordedNotification) {
        // The replaced notification is freed after the lock is released.
        let replaced: RecordedNotification? = state.withLock { s in
            guard s.ring.count == capacity else {
                s.ring.append(notification)
                return nil
            }
            let oldest = s.ring[s.head]
            s.ring[s.head] = notification
            s.head = (s.head + 1) % capacity
            s.forgotten += 1
            return oldest
        }
        _ = replaced
        file.withLock { handle in
            guard let handle else { return }
            var line = notification.jsonValue.serialized
            line.append(0x0A)
            _ = line.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, handle) }
            fflush(handle)
        }
    }

    /// Counts one answer, e.g. `count(provider: "apns", status: 410)`.
    public func count(provider: String, status: Int) {
        state.withLock { $0.counters["\(provider).\(status)", default: 0] += 1 }
    }

    /// The notifications in memory, oldest first.
    public var notifications: [RecordedNotification] { state.withLock { $0.inOrder } }

    /// Answers given so far, keyed `provider.status` (e.g. `apns.200`, `fcm.404`).
    public var counters: [String: Int] { state.withLock { $0.counters } }

    /// Forgets notifications and counters (between test cases).
    public func reset() { state.withLock { $0 = State() } }
}
