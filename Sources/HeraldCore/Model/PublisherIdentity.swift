/// Who first published a message that may have come back through Herald — a
/// retry, a dead letter Herald parked, a copy `herald dead replay` put back —
/// as far as the broker vouches for it.
///
/// RabbitMQ checks a message's AMQP `user-id` against the user of the
/// connection that publishes it, so a `user-id` says who sent the message.
/// When Herald republishes a message, the copy must carry Herald's own user
/// (the broker refuses the original's from Herald's connection), so Herald
/// records the original publisher in `x-herald-publisher`. Any publisher can
/// set that header too, so it is believed only on a message whose `user-id`
/// is Herald's own, which no publisher can forge: a rejected event that
/// Herald dead-lettered and an operator replayed is still its publisher's,
/// and is refused again.
public enum PublisherIdentity {
    /// The publisher of a message with the verified `userID` and the
    /// `x-herald-publisher` header `recorded`, when Herald publishes as
    /// `herald`; nil when nobody is vouched for.
    public static func publisher(userID: String?, recorded: String?, herald: String?) -> String? {
        guard let userID, let herald, userID == herald, let recorded else { return userID }
        return recorded.isEmpty ? nil : recorded
    }

    /// What `x-herald-publisher` records for `publisher`: its user, or empty
    /// when the original message had no `user-id`.
    public static func recorded(_ publisher: String?) -> String { publisher ?? "" }
}
