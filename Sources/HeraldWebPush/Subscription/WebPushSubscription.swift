import HeraldCore
import HeraldCrypto

/// A browser's push subscription: where to send (the endpoint) and the keys
/// to encrypt for (RFC 8291), checked once so that encrypting and signing
/// for it cannot fail on its account.
///
/// Browsers hand it over as `PushSubscription.toJSON()`:
/// `{"endpoint": "https://…", "keys": {"p256dh": "<base64url>", "auth": "<base64url>"}}`.
public struct WebPushSubscription: Sendable {
    /// Bytes in the `auth` secret (RFC 8291 §3.2).
    public static let authSecretSize = 16

    /// The push resource URL, as given (an absolute `https://` URL with a host).
    public let endpoint: String
    /// The endpoint's origin, `https://host[:port]`: the `aud` of the VAPID
    /// token sent with it (RFC 8292 §2).
    public let origin: String
    /// The endpoint's host in lower case (an IPv6 literal in brackets): what
    /// `allowed_hosts` and the egress pre-check judge.
    public let host: String
    /// The browser's P-256 key (`p256dh`), loaded.
    public let userAgentPublicKey: PublicKey
    /// `p256dh` as its 65-byte uncompressed point; it enters the key derivation as these bytes.
    public let userAgentPublicKeyBytes: [UInt8]
    /// The 16-byte `auth` secret.
    public let authSecret: [UInt8]

    /// A subscription from its endpoint and raw keys (a simulator's own, or decoded ones).
    public init(endpoint: String, p256dh: [UInt8], authSecret: [UInt8]) throws(WebPushSubscriptionError) {
        do {
            let url = try HTTPSURL(parsing: endpoint)
            origin = url.origin
            host = url.host
        } catch {
            throw WebPushSubscriptionError(.endpoint, error.reason)
        }
        do {
            userAgentPublicKey = try PublicKey(uncompressedP256: p256dh)
        } catch {
            throw WebPushSubscriptionError(.p256dh, "is not a P-256 public key: \(error.detail)")
        }
        guard authSecret.count == Self.authSecretSize else {
            throw WebPushSubscriptionError(
                .auth, "must decode to \(Self.authSecretSize) bytes, found \(authSecret.count)")
        }
        self.endpoint = endpoint
        userAgentPublicKeyBytes = p256dh
        self.authSecret = authSecret
    }

    /// A subscription from its endpoint and its keys as browsers write them:
    /// URL-safe base64, padding tolerated.
    public init(endpoint: String, p256dh: String, auth: String) throws(WebPushSubscriptionError) {
        try self.init(
            endpoint: endpoint, p256dh: try Self.decode(p256dh, .p256dh), authSecret: try Self.decode(auth, .auth))
    }

    /// A subscription from the JSON of `PushSubscription.toJSON()`; members
    /// other than `endpoint` and `keys` (`expirationTime`) are ignored.
    public init(json: JSONValue) throws(WebPushSubscriptionError) {
        guard let object = json.objectValue else {
            throw WebPushSubscriptionError(
                .subscription, "must be an object with endpoint and keys, found \(json.kindDescription)")
        }
        let endpoint = try Self.string(object["endpoint"], .endpoint)
        guard let keysValue = object["keys"] else {
            throw WebPushSubscriptionError(.keys, "is missing (an object with p256dh and auth)")
        }
        guard let keys = keysValue.objectValue else {
            throw WebPushSubscriptionError(
                .keys, "must be an object with p256dh and auth, found \(keysValue.kindDescription)")
        }
        try self.init(
            endpoint: endpoint, p256dh: try Self.string(keys["p256dh"], .p256dh),
            auth: try Self.string(keys["auth"], .auth))
    }

    private static func string(_ value: JSONValue?, _ field: WebPushSubscriptionError.Field)
        throws(WebPushSubscriptionError) -> String
    {
        guard let value else { throw WebPushSubscriptionError(field, "is missing") }
        guard let text = value.stringValue else {
            throw WebPushSubscriptionError(field, "must be a string, found \(value.kindDescription)")
        }
        return text
    }

    private static func decode(_ text: String, _ field: WebPushSubscriptionError.Field) throws(WebPushSubscriptionError)
        -> [UInt8]
    {
        guard !text.isEmpty else { throw WebPushSubscriptionError(field, "is empty") }
        guard let bytes = Base64URL.decode(text) else {
            throw WebPushSubscriptionError(field, "is not URL-safe base64 (\(text.utf8.count) characters)")
        }
        return bytes
    }
}
