import HeraldCore

/// FCM's payload size limits, checked before sending so an oversized event
/// is `rejected` at once instead of costing a request.
///
/// - Important: FCM allows 4096 bytes of payload, 2048 for messages to topics
///   (and conditions, which address topics). Herald counts the compact JSON of
///   the message without its target and without the `apns` and `webpush`
///   blocks, which go to other services with limits of their own; the APNs
///   payload inside `apns` is held to APNs' 4096 bytes separately.
public enum FCMPayloadLimit {
    public static let standard = 4096
    public static let topic = 2048
    public static let apnsPayload = 4096

    /// The byte limit for a message to `address`.
    public static func limit(for address: Target.Address) -> Int {
        address.isDevice ? standard : topic
    }

    /// The counted size of `message` (see above).
    public static func countedSize(of message: JSONObject) -> Int {
        message.serializedCount(excluding: notCounted)
    }

    /// The members left out of the count: the target, and the blocks for other services.
    static let notCounted = Set(FCMTargetRules().addressFields + ["apns", "webpush"])

    /// The size of the APNs payload inside the `apns` block, if there is one.
    public static func apnsPayloadSize(of message: JSONObject) -> Int? {
        message["apns"]?["payload"].map(\.serializedCount)
    }
}
