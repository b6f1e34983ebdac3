/// The delivery tags handed to consumers on the current connection and not yet
/// settled, so a second ack of the same delivery is refused here instead of
/// closing the channel at the broker.
struct DeliveryTracker {
    private var outstanding: Set<UInt64> = []

    var count: Int { outstanding.count }

    /// The oldest delivery not yet settled (tags grow with each delivery), nil when none.
    var lowestOutstanding: UInt64? { outstanding.min() }

    mutating func delivered(_ tag: UInt64) { outstanding.insert(tag) }

    /// Settles `tag` (and, `multiple`, every lower outstanding tag). False when
    /// `tag` itself is not outstanding: it was already settled.
    mutating func settle(_ tag: UInt64, multiple: Bool) -> Bool {
        guard outstanding.remove(tag) != nil else { return false }
        if multiple { outstanding = outstanding.filter { $0 > tag } }
        return true
    }

    mutating func removeAll() { outstanding.removeAll() }
}
