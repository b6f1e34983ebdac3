import HeraldCore

/// One event made into a Web Push message for one subscription (RFC 8030
/// §5): the encrypted body and the headers that tell the push service how
/// long to keep it (`TTL`), how urgently to deliver it (`Urgency`) and which
/// earlier message it replaces (`Topic`).
///
/// Built once by `WebPushProvider.prepare`; the `TTL` is counted when the
/// message is sent, so an event with an `expires_at` never asks a push
/// service to keep it past that time.
public struct WebPushMessage: Sendable {
    let subscription: WebPushSubscription
    /// The `aes128gcm` body (RFC 8291).
    let body: [UInt8]
    let expiry: Event.Expiry?
    let urgency: String
    let topic: String?

    /// The longest `Topic` (RFC 8030 §5.4: at most 32 characters of the URL-safe base64 alphabet).
    static let maximumTopicLength = 32

    /// `Urgency` (RFC 8030 §5.3) of a priority: `high`, `normal`, `low`.
    static func urgency(_ priority: Priority) -> String {
        switch priority {
        case .high: "high"
        case .normal: "normal"
        case .low: "low"
        }
    }

    /// Why `topic` cannot be a `Topic` header, or nil when it can.
    static func problem(withTopic topic: String) -> String? {
        guard !topic.isEmpty, topic.utf8.count <= maximumTopicLength, topic.utf8.allSatisfy(Base64URL.isAlphabet) else {
            return "collapse_id \(JSONText.quoted(topic.truncatedForMessage)) cannot be a Web Push Topic: "
                + "at most \(maximumTopicLength) characters of letters, digits, '-' and '_'"
        }
        return nil
    }

    /// `TTL` in seconds at `now`: the event's own, else `defaultTTL`; 0 for an expiry already past.
    func ttlSeconds(now: Timestamp, defaultTTL: Duration) -> Int64 {
        switch expiry {
        case nil: defaultTTL.components.seconds
        case .ttl(let seconds)?: Int64(seconds)
        case .at(let timestamp)?: max(0, timestamp.seconds - now.seconds)
        }
    }

    /// The request to the subscription's endpoint, authorized by `authorization` (VAPID).
    func request(authorization: String, now: Timestamp, defaultTTL: Duration) -> (
        url: String, headers: [(String, String)]
    ) {
        var headers: [(String, String)] = [
            ("authorization", authorization),
            ("ttl", String(ttlSeconds(now: now, defaultTTL: defaultTTL))),
            ("urgency", urgency),
            ("content-encoding", "aes128gcm"),
            ("content-type", "application/octet-stream"),
        ]
        if let topic { headers.append(("topic", topic)) }
        return (subscription.endpoint, headers)
    }
}
