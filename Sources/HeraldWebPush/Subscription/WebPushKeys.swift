import HeraldCore

/// The keys of a browser's push subscription, as `PushSubscription.toJSON()`
/// gives them under `keys` and an event carries them: the browser's P-256
/// public key and its authentication secret, both URL-safe base64.
///
/// They travel with a Web Push target because every message is encrypted for
/// them (RFC 8291). Event decoding checks their shape (the decoded lengths);
/// the Web Push provider checks that `p256dh` is a point on the curve before
/// it encrypts.
public struct WebPushKeys: Sendable, Hashable {
    /// `keys.p256dh`: the browser's public key, a 65-byte uncompressed point.
    public var p256dh: String
    /// `keys.auth`: the 16-byte authentication secret.
    public var auth: String

    public init(p256dh: String, auth: String) {
        self.p256dh = p256dh
        self.auth = auth
    }

    /// The field holding a Web Push target's endpoint and keys in an event.
    public static let subscriptionField = "subscription"
    /// Decoded size of `p256dh`: 0x04 then two 32-byte coordinates.
    public static let publicKeyBytes = 65
    /// Decoded size of `auth`.
    public static let authSecretBytes = 16

    /// `{"endpoint": …, "keys": {"p256dh": …, "auth": …}}`, as an event's target gives it.
    public func subscriptionJSON(endpoint: String) -> JSONValue {
        .object(
            JSONObject([
                ("endpoint", .string(endpoint)),
                ("keys", .object(JSONObject([("p256dh", .string(p256dh)), ("auth", .string(auth))]))),
            ]))
    }

}

extension Target {
    /// A Web Push target's subscription keys, carried in ``Target/extras``; nil for another target.
    public var webPushKeys: WebPushKeys? { extras.as(WebPushKeys.self) }
}
