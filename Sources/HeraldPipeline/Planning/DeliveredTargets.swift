import HeraldCore
import HeraldSystem

/// Remembers, for a bounded number of recent events, what this instance
/// already did for each target of each attempt, so a redelivered event (the
/// broker lost our ack, or the connection went before the outcomes were
/// confirmed) never notifies a device twice nor schedules a second retry:
///
/// - **confirmed**: the target's outcome (and retry, dead letter) was
///   confirmed by the broker; a redelivery skips the target altogether.
/// - **unconfirmed**: the provider answered, but publishing what came of it
///   failed; a redelivery publishes the remembered result again, marked
///   `redelivered`, without sending to the provider again.
///
/// In memory and per instance: a redelivery to another instance can still
/// duplicate (at-least-once, see docs/pipeline.md).
public final class DeliveredTargets: Sendable {
    /// A 64-bit digest of event id, attempt and target, not the strings
    /// themselves: at 100 000 entries that is under 2 MB instead of tens. A
    /// false match needs a 64-bit collision within this instance's recent events.
    typealias Key = UInt64

    static func key(eventID: String, attempt: Int, target: Target) -> Key {
        var hasher = Hasher()
        hasher.combine(eventID)
        hasher.combine(attempt)
        hasher.combine(target)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// What a redelivery finds for one target.
    public enum Memory: Sendable, Equatable {
        /// Not handled by this instance (or forgotten): deliver it.
        case unknown
        /// Handled and confirmed: nothing to do.
        case confirmed
        /// Handled, but its publishing failed: publish this again.
        case unconfirmed(TargetResult)
    }

    /// An unconfirmed result, boxed: a table entry is then a key and a
    /// pointer (confirmed entries, nearly all of them, hold nil), not the
    /// ~330 bytes of a `TargetResult` inline — at 100 000 entries about
    /// 90 MB less (measured with bench/channel.sh).
    final class Unconfirmed: Sendable {
        let result: TargetResult
        init(_ result: TargetResult) { self.result = result }
    }

    struct State {
        /// nil: confirmed; a value: unconfirmed.
        var entries: [Key: Unconfirmed?] = [:]
        var order: [Key] = []
        var head = 0
        var unconfirmed = 0
    }

    private let state = Locked(State())
    /// How many targets are remembered at most; the oldest are forgotten first.
    public let capacity: Int
    /// How many of those may hold an unconfirmed result (each holds its
    /// outcome, context included); past it a failed batch's results are not
    /// kept, and a redelivery sends those targets again.
    public let unconfirmedCapacity: Int

    public init(capacity: Int = 100_000, unconfirmedCapacity: Int = 10_000) {
        self.capacity = max(1, capacity)
        self.unconfirmedCapacity = max(0, unconfirmedCapacity)
    }

    /// The outcomes of these targets of attempt `attempt` of `eventID` are confirmed.
    public func confirm(eventID: String, attempt: Int, targets: some Sequence<Target>) {
        state.withLock { s in
            for target in targets { store(Self.key(eventID: eventID, attempt: attempt, target: target), nil, in: &s) }
        }
    }

    /// Publishing these results failed: keep them for the redelivery. A
    /// target already confirmed stays confirmed.
    public func keepUnconfirmed(eventID: String, attempt: Int, results: some Sequence<TargetResult>) {
        state.withLock { s in
            for result in results {
                let key = Self.key(eventID: eventID, attempt: attempt, target: result.target)
                switch s.entries[key] {
                case .some(.none): continue
                case .none where s.unconfirmed >= unconfirmedCapacity: continue
                default: store(key, Unconfirmed(result), in: &s)
                }
            }
        }
    }

    public func memory(eventID: String, attempt: Int, target: Target) -> Memory {
        state.withLock { s in
            switch s.entries[Self.key(eventID: eventID, attempt: attempt, target: target)] {
            case .none: .unknown
            case .some(.none): .confirmed
            case .some(.some(let box)): .unconfirmed(box.result)
            }
        }
    }

    public var count: Int { state.withLock { $0.entries.count } }

    /// Inserts or replaces `key`, forgetting the oldest entries past `capacity`.
    private func store(_ key: Key, _ result: Unconfirmed?, in s: inout State) {
        let previous = s.entries.updateValue(result, forKey: key)
        s.unconfirmed += (result == nil ? 0 : 1) - (previous.flatMap { $0 } == nil ? 0 : 1)
        guard previous == nil else { return }
        s.order.append(key)
        if s.order.count - s.head > capacity {
            if case .some(.some) = s.entries.removeValue(forKey: s.order[s.head]) { s.unconfirmed -= 1 }
            s.head += 1
            // Compact the FIFO once the forgotten prefix is as large as what is kept.
            if s.head >= capacity {
                s.order.removeFirst(s.head)
                s.head = 0
            }
        }
    }
}

/// What handling one target produced: its outcome, and whether it goes to a
/// retry tier or, out of attempts, to the dead-letter queue.
public struct TargetResult: Sendable, Equatable {
    public enum Next: Sendable, Equatable {
        /// Nothing more to publish than the outcome.
        case none
        /// Retried after the delay (the retry tier it selects).
        case retry(after: Duration)
        /// Out of attempts: dead-lettered with this reason.
        case exhausted(reason: String)
    }

    public var target: Target
    public var outcome: Outcome
    public var next: Next

    public init(target: Target, outcome: Outcome, next: Next) {
        self.target = target
        self.outcome = outcome
        self.next = next
    }
}
