import Glibc
import HeraldCore
import Synchronization

/// Keeps every accepted notification in memory (bounded) and optionally
/// appends each as a JSON line to a file, with per-provider, per-status counters.
///
/// Shared by all simulated services; safe from any thread (one `Mutex`).
public final class NotificationRecorder: Sendable {
    struct State {
        var recent: [RecordedNotification] = []
        var forgotten = 0
        var counters: [String: Int] = [:]
    }

    private let state = Mutex(State())
    private let capacity: Int
    private let file: Mutex<UnsafeMutablePointer<FILE>?>

    /// - Parameters:
    ///   - capacity: notifications kept in memory (up to a quarter more between trims);
    ///     older ones are forgotten, counters keep counting.
    ///   - jsonLinesPath: a file to append every accepted notification to, one JSON object per line.
    public init(capacity: Int = 100_000, jsonLinesPath: String? = nil) {
        self.capacity = capacity
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
        state.withLock { s in
            s.recent.append(notification)
            // Trim in batches so recording stays O(1) amortized under benchmark load.
            if s.recent.count > capacity + capacity / 4 + 1 {
                let excess = s.recent.count - capacity
                s.recent.removeFirst(excess)
                s.forgotten += excess
            }
        }
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
    public var notifications: [RecordedNotification] { state.withLock { $0.recent } }

    /// Answers given so far, keyed `provider.status` (e.g. `apns.200`, `fcm.404`).
    public var counters: [String: Int] { state.withLock { $0.counters } }

    /// Forgets notifications and counters (between test cases).
    public func reset() { state.withLock { $0 = State() } }
}
