extension Event {
    /// When an event stops being worth sending: relative to when Herald
    /// first received it (`ttl`) or absolute (`expires_at`).
    ///
    /// The model reads no clock: the caller passes the time it first
    /// received the event (kept across retries) and the current time.
    public enum Expiry: Sendable, Hashable {
        /// `ttl`: seconds after receipt. 0 means "now or never": sent on the
        /// first attempt, expired on any retry later than receipt.
        case ttl(seconds: Int)
        /// `expires_at`: an absolute time.
        case at(Timestamp)
    }

    /// The absolute expiry time, given when the event was first received;
    /// `nil` when the event has no expiry.
    public func expiresAt(receivedAt: Timestamp) -> Timestamp? {
        switch expiry {
        case nil: nil
        case .ttl(let seconds)?: receivedAt + .seconds(seconds)
        case .at(let timestamp)?: timestamp
        }
    }

    /// `true` when `now` is past the expiry (an event exactly at its expiry
    /// is still sent). Expired events are not sent; their targets get `expired`.
    public func isExpired(at now: Timestamp, receivedAt: Timestamp) -> Bool {
        guard let expiresAt = expiresAt(receivedAt: receivedAt) else { return false }
        return now > expiresAt
    }
}
