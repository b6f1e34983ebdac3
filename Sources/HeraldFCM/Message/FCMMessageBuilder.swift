import HeraldCore

/// Turns a provider-neutral `Event` into the FCM HTTP v1 `message` for one
/// target, the way the Firebase Admin SDKs shape it: target, `notification`,
/// string-only `data`, `android`, an `apns` block for iOS apps on FCM,
/// `webpush`, then the event's raw `fcm` object merged over it all (RFC 7396).
///
/// Pure: the current time is a parameter (it turns `expires_at` into a TTL).
public struct FCMMessageBuilder: Sendable {
    public init() {}

    public func message(for event: Event, to target: Target.Address, now: Timestamp) -> FCMMessage {
        let expiry = FCMExpiry(event.expiry, now: now)
        var message = JSONObject()
        message[target.field] = .string(target.value)
        if let notification = notificationObject(event.notification) {
            message["notification"] = .object(notification)
        }
        if let data = event.data, !data.isEmpty {
            message["data"] = .object(FCMData.coerce(data))
        }
        message["android"] = .object(android(event, expiry: expiry))
        message["apns"] = .object(apns(event, expiry: expiry))
        message["webpush"] = .object(webpush(event, expiry: expiry))
        if let raw = event.fcm {
            message.merge(raw)
        }
        return FCMMessage(target: target, object: message)
    }

    /// `notification`: the cross-platform title, body and image.
    func notificationObject(_ notification: Event.Notification?) -> JSONObject? {
        guard let notification else { return nil }
        var object = JSONObject()
        object.set("title", notification.title)
        object.set("body", notification.body)
        object.set("image", notification.image)
        return object.isEmpty ? nil : object
    }
}

extension JSONObject {
    /// Sets `key` to the string when there is one.
    mutating func set(_ key: String, _ value: String?) {
        if let value { self[key] = .string(value) }
    }

    /// Sets `key` to an array of strings when there is one.
    mutating func set(_ key: String, _ values: [String]?) {
        if let values { self[key] = .array(values.map { .string($0) }) }
    }
}
