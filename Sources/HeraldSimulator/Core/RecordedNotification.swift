import HeraldCore

/// One notification the simulator accepted: what a test or a user's acceptance
/// suite asserts on ("did Herald send this payload to this token?").
public struct RecordedNotification: Sendable, Equatable {
    /// `apns`, `fcm` or `webpush`.
    public var provider: String
    /// Device token, FCM topic or condition, Web Push subscription id.
    public var target: String
    /// Request headers that matter to the provider (apns-*, authorization left out).
    public var headers: [String: String]
    /// The payload (APNs body; FCM `message` object; Web Push plaintext, decrypted,
    /// as `WebPushSimulatorService` records it).
    public var payload: JSONValue
    /// The id the simulator answered with (`apns-id`, FCM message name).
    public var messageID: String
    public var receivedAt: Timestamp
    /// A probe, not a notification: an FCM message to the probe topic
    /// (`herald check --online` sends one `validate_only`). Kept out of
    /// `NotificationRecorder.notifications`, the JSON-lines file and the admin
    /// API's default listing.
    public var probe: Bool

    /// Whom it was addressed to, as the service that accepted it reads its
    /// requests (APNs: the device token, case ignored, and `apns-topic`; FCM:
    /// the `message`'s token or FID, or its topic; Web Push: the subscription
    /// id and `Topic`): what the admin API filters on and faults aim at.
    public var addressee: SimulatedAddressee

    /// `addressee` defaults to `target` as a token.
    public init(
        provider: String, target: String, headers: [String: String], payload: JSONValue,
        messageID: String, receivedAt: Timestamp, probe: Bool = false, addressee: SimulatedAddressee? = nil
    ) {
        self.provider = provider
        self.target = target
        self.headers = headers
        self.payload = payload
        self.messageID = messageID
        self.receivedAt = receivedAt
        self.probe = probe
        self.addressee = addressee ?? SimulatedAddressee(target: target, token: target, topic: nil, probe: probe)
    }

    /// One JSON-lines record: `{"provider","target","message_id","received_at","headers","payload"}`,
    /// and `"probe":true` for a probe.
    public var jsonValue: JSONValue {
        var headerObject = JSONObject()
        for key in headers.keys.sorted() { headerObject[key] = .string(headers[key] ?? "") }
        var object = JSONObject([
            ("provider", .string(provider)), ("target", .string(target)), ("message_id", .string(messageID)),
            ("received_at", .string(receivedAt.rfc3339(fractionDigits: 3))), ("headers", .object(headerObject)),
            ("payload", payload),
        ])
        if probe { object["probe"] = true }
        return .object(object)
    }
}
