import HeraldCore
import Synchronization

/// Remembers, for a bounded number of recent events, which targets this
/// instance already handled — delivered, refused or scheduled for retry, with
/// their outcomes confirmed — so a redelivered event (the broker lost our ack)
/// does not notify a device twice nor schedule a second retry.
///
/// In memory and per instance: a redelivery to another instance can still
/// duplicate (at-least-once, see docs/pipeline.md).
public final class DeliveredTargets: Sendable {
    struct Key: Hashable {
        let eventID: String
        let target: Target
    }

    struct State {
        var keys: Set<Key> = []
        var order: [Key] = []
        var head = 0
    }

    private let state = Mutex(State())
    public let capacity: Int

    public init(capacity: Int = 100_000) { self.capacity = max(1, capacity) }

    public func remember(eventID: String, target: Target) {
        let key = Key(eventID: eventID, target: target)
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
        state.withLock { $0.keys.contains(Key(eventID: eventID, target: target)) }
    }

    public var count: Int { state.withLock { $0.keys.count } }
}
