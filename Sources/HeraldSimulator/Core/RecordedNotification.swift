import HeraldCore

/// One notification the simulator accepted: what a test or a user's acceptance
/// suite asserts on ("did Herald send this payload to this token?").
public struct RecordedNotification: Sendable, Equatable {
    /// `apns` or `fcm`.
    public var provider: String
    /// Device token, FCM topic or condition.
    public var target: String
    /// Request headers that matter to the provider (apns-*, authorization left out).
    public var headers: [String: String]
    /// The payload (APNs body; FCM `message` object).
    public var payload: JSONValue
    /// The id the simulator answered with (`apns-id`, FCM message name).
    public var messageID: String
    public var receivedAt: Timestamp

    public init(provider: String, target: String, headers: [String: String], payload: JSONValue,
                messageID: String, receivedAt: Timestamp) {
        self.provider = provider
        self.target = target
        self.headers = headers
        self.payload = payload
        self.messageID = messageID
        self.receivedAt = receivedAt
    }

    /// One JSON-lines record: `{"provider","target","message_id","received_at","headers","payload"}`.
    public var jsonValue: JSONValue {
        var headerObject = JSONObject()
        for key in headers.keys.sorted() { headerObject[key] = .string(headers[key] ?? "") }
        return .object(JSONObject([
            ("provider", .string(provider)), ("target", .string(target)), ("message_id", .string(messageID)),
            ("received_at", .string(receivedAt.rfc3339(fractionDigits: 3))), ("headers", .object(headerObject)),
            ("payload", payload),
        ]))
    }
}
