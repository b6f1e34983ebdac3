import HeraldCore

/// Remembers, for a bounded number of recent events, which targets this
/// instance already handled — delivered, refused or scheduled for retry, with
/// their outcomes confirmed — so a redelivered event (the broker lost our ack)
/// does not notify a device twice nor schedule a second retry.
///
/// In memory and per instance: a redelivery to another instance can still
/// duplicate (at-least-once, see docs/pipeline.md).
public final class DeliveredTargets: Sendable {
    /// A 64-bit digest of event id and target, not the strings themselves: at
    /// 100 000 entries that is under 2 MB instead of tens. A false "already
    /// handled" needs a 64-bit collision within this instance's recent events.
    typealias Key = UInt64

    static func key(eventID: String, target: Target) -> Key {
        var hasher = Hasher()
        hasher.combine(eventID)
        hasher.combine(target)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    struct State {
        var keys: Set<Key> = []
        var order: [Key] = []
        var head = 0
    }

    private let state = Locked(State())
    public let capacity: Int

    public init(capacity: Int = 100_000) { self.capacity = max(1, capacity) }

    public func remember(eventID: String, target: Target) {
        let key = Self.key(eventID: eventID, target: target)
        state.withLock { s in
            guard s.keys.insert(key).inserted else { return }
            s.order.append(key)
            if s.order.count - s.head > capacity {
                s.keys.remove(s.order[s.head])
                s.head += 1
                // Compact the FIFO once the forgotten prefix is as large as what is kept.
                if s.head >= capacity {
                    s.order.removeFirst(s.head)
                    s.head = 0
                }
            }
        }
    }

    public func contains(eventID: String, target: Target) -> Bool {
        state.withLock { $0.keys.contains(Self.key(eventID: eventID, target: target)) }
    }

    public var count: Int { state.withLock { $0.keys.count } }
}
