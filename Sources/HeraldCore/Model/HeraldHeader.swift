/// AMQP header names Herald sets on the messages it republishes (retries,
/// dead letters, replayed copies), in one place for every module that writes or reads them:
/// the pipeline, the AMQP layer's retry routing, and the operator commands.
public enum HeraldHeader {
    /// The delivery attempt the message carries (1 for the first, set on retries).
    public static let attempt = "x-herald-attempt"
    /// When Herald first received the event, epoch milliseconds: `ttl` counts from it across retries.
    public static let receivedAt = "x-herald-received-at"
    /// Why a message was dead-lettered (`herald.dead`).
    public static let error = "x-herald-error"
    /// On a dead letter Herald parked itself: the exchange the message was
    /// delivered from (the events or the registry exchange), where
    /// `herald dead replay` republishes it.
    public static let exchange = "x-herald-exchange"
    /// On a dead letter Herald parked itself: when, epoch milliseconds.
    public static let deadLetteredAt = "x-herald-dead-lettered-at"
    /// How often `herald dead replay` has put the message back (1 on the
    /// first replayed copy): a replay past the limit is refused, and a copy
    /// that carries it is not a duplicate for `duplicate_window`.
    public static let replays = "x-herald-replays"
    /// On a message Herald republished (a retry, a dead letter, a replayed
    /// copy), whose `user-id` is Herald's own: the `user-id` of the message
    /// as first published, empty when it had none (`PublisherIdentity`).
    public static let publisher = "x-herald-publisher"
}
