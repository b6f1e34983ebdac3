/// What happened to one target of one event: published to the results
/// exchange so upstream learns, above all, which tokens are dead.
///
/// Encoded as docs/event-model.md and schemas/ show (see `Outcome+JSON.swift`); the
/// routing key is `<status>.<provider>.<app>` (``routingKey``).
public struct Outcome: Sendable, Hashable {
    public var status: Status
    /// The event's id (for a body that was not even JSON: the AMQP message id).
    public var eventID: String
    public var app: String?
    /// `nil` only in a `rejected` outcome for an event whose target is unknown.
    public var provider: Provider?
    /// The target's token, FID, topic or condition, as the event gave it.
    public var address: Target.Address?
    /// The registry channel the device was reached through, when a channel target reached it.
    public var channel: String?
    /// The attributes the channel device registered with, when the event
    /// asked for them (``Target/deviceAttributes``).
    public var deviceAttributes: JSONObject?
    /// The provider's reason (`Unregistered`, `UNREGISTERED`), or Herald's
    /// (the validation error of a rejected event, the dropping rule's reason).
    public var reason: String?
    /// More about the reason, for humans: the provider's own explanation
    /// (Google's `error.message` and field violations), the validation error of
    /// a refused token, or why the invalidation guard held a token back.
    /// At most ``DeliveryDetail/maxBytes`` bytes from a provider.
    public var detail: String?
    /// The provider's HTTP status, when it answered.
    public var providerStatus: Int?
    /// When the provider says the token stopped being valid (APNs 410 `timestamp`).
    public var invalidatedAt: Timestamp?
    /// For `invalid_token`: the device was removed from the registry (every
    /// channel of its app), so upstream need not remove it itself.
    public var unregistered: Bool = false
    /// For `retrying`: when the next attempt is due. An absolute time, like
    /// every time in an outcome, so a consumer reading late still knows.
    public var nextAttemptAt: Timestamp?
    /// `apns-id`, or the FCM message name (`projects/p/messages/id`).
    public var providerMessageID: String?
    /// Which delivery attempt this was, from 1.
    public var attempt: Int
    /// No answer came from the provider (a timeout, or the connection lost
    /// after the request was written), even after the timeout retries: the
    /// provider may have accepted the notification. Upstream should not send
    /// it again by other means.
    public var uncertain: Bool = false
    /// The event was delivered to Herald again (the broker's redelivered flag,
    /// or a result Herald remembered from the first delivery and publishes
    /// again): this outcome may repeat one already published.
    public var redelivered: Bool = false
    /// Time spent on the provider request, in milliseconds; `nil` when no
    /// request was made (expired, dropped, rejected).
    public var latencyMs: Double?
    /// When the outcome was decided.
    public var at: Timestamp
    /// The event's `context`, echoed.
    public var context: JSONValue?

    public init(
        status: Status,
        eventID: String,
        app: String? = nil,
        provider: Provider? = nil,
        address: Target.Address? = nil,
        reason: String? = nil,
        detail: String? = nil,
        providerStatus: Int? = nil,
        invalidatedAt: Timestamp? = nil,
        nextAttemptAt: Timestamp? = nil,
        providerMessageID: String? = nil,
        attempt: Int = 1,
        latencyMs: Double? = nil,
        at: Timestamp,
        context: JSONValue? = nil
    ) {
        self.status = status
        self.eventID = eventID
        self.app = app
        self.provider = provider
        self.address = address
        self.reason = reason
        self.detail = detail
        self.providerStatus = providerStatus
        self.invalidatedAt = invalidatedAt
        self.nextAttemptAt = nextAttemptAt
        self.providerMessageID = providerMessageID
        self.attempt = attempt
        self.latencyMs = latencyMs
        self.at = at
        self.context = context
    }

    /// An outcome for `target` of `event`, copying the event's id, app and context.
    /// Sets each member itself: going through the memberwise init and setting
    /// `channel` after it copies the whole outcome (~280 bytes) once more, and
    /// this runs per notification.
    public init(_ status: Status, event: Event, target: Target, attempt: Int = 1, at: Timestamp) {
        self.status = status
        eventID = event.id
        app = event.app
        provider = target.provider
        address = target.address
        channel = target.channel
        deviceAttributes = target.deviceAttributes
        self.attempt = attempt
        self.at = at
        context = event.context.map { .object($0) }
    }

    /// `<status>.<provider>.<app>`, e.g. `invalid_token.apns.chat`; upstream
    /// binds `invalid_token.#` to learn which tokens to delete.
    ///
    /// A missing provider or app (a rejected event) reads `unknown`:
    /// `rejected.unknown.unknown`. `.`, `*` and `#` in an app name (only
    /// possible in a hand-built outcome; decoding refuses them) become `_`
    /// so the key keeps three words.
    public var routingKey: String {
        "\(status.rawValue).\(provider?.rawValue ?? "unknown").\(Self.routingWord(app))"
    }

    /// A routing key's word for `word`: `unknown` when absent or empty,
    /// `.`, `*` and `#` as `_` so the key keeps its words (registry results'
    /// keys are made the same way).
    package static func routingWord(_ word: String?) -> String {
        guard let word, !word.isEmpty else { return "unknown" }
        guard
            word.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "#") })
        else {
            return word
        }
        return String(word.map { $0 == "." || $0 == "*" || $0 == "#" ? "_" : $0 })
    }
}

extension Outcome {
    /// The fate of one target. Raw values are the wire names.
    public enum Status: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Accepted by the provider (APNs 200, FCM 200).
        case delivered
        /// The token will never work again: delete it (APNs 410, BadDeviceToken; FCM UNREGISTERED, ...).
        case invalidToken = "invalid_token"
        /// Permanent failure for this notification (payload too large, bad topic, retries exhausted, ...).
        case failed
        /// Transient failure; another attempt is scheduled (429, 5xx, timeout).
        case retrying
        /// Not sent: past its `ttl` / `expires_at`.
        case expired
        /// Not sent: a routing rule dropped it, or the token was in `exclude_tokens`.
        case dropped
        /// The event itself is invalid; it went to the dead-letter queue.
        case rejected

        public var description: String { rawValue }
    }
}
