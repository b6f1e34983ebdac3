import Glibc
import HeraldCore
import HeraldSystem

/// Keeps every accepted notification and every refused request in memory
/// (bounded) and optionally appends each delivered notification as a JSON line
/// to a file, with per-provider, per-status counters.
///
/// Shared by all simulated services; safe from any thread (one `Locked`).
public final class NotificationRecorder: Sendable {
    struct State {
        var accepted: Ring<RecordedNotification>
        var refused: Ring<RecordedRefusal>
        var counters: [String: Int] = [:]

        init(capacity: Int) {
            accepted = Ring(capacity: capacity)
            refused = Ring(capacity: capacity)
        }
    }

    private let state: Locked<State>
    private let capacity: Int
    private let file: Locked<UnsafeMutablePointer<FILE>?>

    /// - Parameters:
    ///   - capacity: notifications kept in memory, and as many refusals; older
    ///     ones are forgotten one by one as new ones arrive (a ring, so no
    ///     recording ever pays for a mass trim: freeing 25 000 notifications at
    ///     once stalled the simulator's server thread for ~100 ms under
    ///     benchmark load). Counters keep counting.
    ///   - jsonLinesPath: a file to append every delivered notification to, one
    ///     JSON object per line (probes are not delivered, so not written).
    public init(capacity: Int = 100_000, jsonLinesPath: String? = nil) {
        self.capacity = max(1, capacity)
        state = Locked(State(capacity: max(1, capacity)))
        file = Locked(jsonLinesPath.flatMap { fopen($0, "a") })
    }

    deinit {
        file.withLock { handle in
            if let handle { fclose(handle) }
            handle = nil
        }
    }

    /// Records an accepted notification (or an accepted probe).
    public func record(_ notification: RecordedNotification) {
        // The replaced record is freed after the lock is released.
        let replaced = state.withLock { $0.accepted.append(notification) }
        _ = replaced
        guard !notification.probe else { return }
        file.withLock { handle in
            guard let handle else { return }
            var line = notification.jsonValue.serialized
            line.append(0x0A)
            _ = line.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, handle) }
            fflush(handle)
        }
    }

    /// Records a refused request (the `Simulator` records every one).
    public func record(_ refusal: RecordedRefusal) {
        let replaced = state.withLock { $0.refused.append(refusal) }
        _ = replaced
    }

    /// Counts one answer, e.g. `count(provider: "apns", status: 410)`.
    public func count(provider: String, status: Int) {
        state.withLock { $0.counters["\(provider).\(status)", default: 0] += 1 }
    }

    /// The delivered notifications in memory, oldest first (probes left out).
    public var notifications: [RecordedNotification] { delivered(matching: RecordFilter()) }

    /// The refused requests in memory, oldest first, probes included.
    public var refusals: [RecordedRefusal] { refused(matching: RecordFilter(probes: .include)) }

    /// The accepted notifications `filter` lets through, oldest first.
    public func delivered(matching filter: RecordFilter) -> [RecordedNotification] {
        state.withLock { $0.accepted.inOrder }.filter(filter.matches)
    }

    /// The refused requests `filter` lets through, oldest first.
    public func refused(matching filter: RecordFilter) -> [RecordedRefusal] {
        state.withLock { $0.refused.inOrder }.filter(filter.matches)
    }

    /// Answers given so far, keyed `provider.status` (e.g. `apns.200`, `fcm.404`).
    public var counters: [String: Int] { state.withLock { $0.counters } }

    /// Forgets notifications, refusals and counters (between test cases);
    /// returns how many notifications and refusals were forgotten.
    @discardableResult
    public func reset() -> (delivered: Int, refused: Int) {
        let old = state.withLock { state in
            let old = state
            state = State(capacity: capacity)
            return old
        }
        return (old.accepted.count, old.refused.count)
    }
}

/// A fixed-capacity ring: once full, each new element replaces the oldest.
struct Ring<Element: Sendable>: Sendable {
    private var elements: [Element] = []
    private var head = 0
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    var count: Int { elements.count }

    /// Oldest first.
    var inOrder: [Element] { Array(elements[head...] + elements[..<head]) }

    /// Appends `element`; returns the oldest element it replaced once full.
    mutating func append(_ element: Element) -> Element? {
        guard elements.count == capacity else {
            elements.append(element)
            return nil
        }
        let oldest = elements[head]
        elements[head] = element
        head = (head + 1) % capacity
        return oldest
    }
}
