/// Publisher-confirm bookkeeping for one confirm-mode channel: hands out the
/// sequence numbers the broker will use as delivery tags, settles them on
/// `basic.ack`/`basic.nack` (single or `multiple`), and remembers which
/// mandatory publishes came back in `basic.return`, so their ack becomes an
/// "unroutable" failure.
///
/// Generic over the waiter so tests drive it without continuations.
struct ConfirmTracker<Waiter> {
    /// What a mandatory publish is recognised by when `basic.return` (which has no
    /// delivery tag) brings it back.
    struct ReturnKey: Equatable {
        var exchange: String
        var routingKey: String
        var body: [UInt8]
    }

    struct Returned: Equatable {
        var replyCode: Int
        var replyText: String
    }

    private struct Entry {
        var waiter: Waiter
        var exchange: String
        var returnKey: ReturnKey?
        var returned: Returned?
    }

    private var pending: [UInt64: Entry] = [:]
    /// The sequence number the next publish gets (AMQP counts from 1 per channel).
    private(set) var nextSequence: UInt64 = 1
    /// No pending entry is below this.
    private var lowest: UInt64 = 1

    var inFlight: Int { pending.count }

    /// Records a publish about to be sent and returns its sequence number.
    mutating func register(_ waiter: Waiter, exchange: String = "", returnKey: ReturnKey?) -> UInt64 {
        let sequence = nextSequence
        nextSequence += 1
        pending[sequence] = Entry(waiter: waiter, exchange: exchange, returnKey: returnKey)
        return sequence
    }

    /// Matches a `basic.return` to the oldest pending mandatory publish with the
    /// same exchange, routing key and body. Returns false when none matches.
    mutating func markReturned(_ key: ReturnKey, replyCode: Int, replyText: String) -> Bool {
        var sequence = lowest
        while sequence < nextSequence {
            if let entry = pending[sequence], entry.returned == nil, entry.returnKey == key {
                pending[sequence]?.returned = Returned(replyCode: replyCode, replyText: replyText)
                return true
            }
            sequence += 1
        }
        return false
    }

    /// Settles `tag` (and every lower pending tag when `multiple`); `acked` is false for `basic.nack`.
    /// Returns each settled waiter with its outcome: nil for success.
    /// `operation` is built only when a settlement fails.
    mutating func settle(
        tag: UInt64, multiple: Bool, acked: Bool,
        operation: @autoclosure () -> String
    ) -> [(Waiter, AMQPError?)] {
        var settled: [(Waiter, AMQPError?)] = []
        let range: ClosedRange<UInt64> = multiple ? lowest...max(lowest, tag) : tag...tag
        if multiple && tag < lowest { return [] }
        for sequence in range {
            guard let entry = pending.removeValue(forKey: sequence) else { continue }
            settled.append((entry.waiter, Self.outcome(entry, acked: acked, operation: operation)))
        }
        advanceLowest()
        return settled
    }

    /// Removes every pending publish (the channel or connection died), oldest first.
    mutating func removeAll() -> [Waiter] {
        removeAllWithExchanges().map(\.waiter)
    }

    /// Like `removeAll()`, with the exchange each publish went to, so a channel
    /// error naming an exchange can be pinned on the publishes that caused it.
    mutating func removeAllWithExchanges() -> [(waiter: Waiter, exchange: String)] {
        let removed = pending.keys.sorted().compactMap { pending[$0].map { ($0.waiter, $0.exchange) } }
        pending.removeAll()
        lowest = nextSequence
        return removed
    }

    /// Starts over for a new channel: sequence numbers restart at 1.
    mutating func reset() {
        precondition(pending.isEmpty, "reset with publishes in flight")
        nextSequence = 1
        lowest = 1
    }

    private mutating func advanceLowest() {
        while lowest < nextSequence && pending[lowest] == nil { lowest += 1 }
    }

    private static func outcome(_ entry: Entry, acked: Bool, operation: () -> String) -> AMQPError? {
        if !acked {
            return AMQPError(
                .nacked, operation: operation(),
                detail: "the broker could not take the message (queue full with reject-publish, or an internal error)",
                isRetryable: true)
        }
        if let returned = entry.returned {
            return AMQPError(
                .unroutable, operation: operation(), detail: returned.replyText, replyCode: returned.replyCode,
                isRetryable: false)
        }
        return nil
    }
}
