import HeraldCore
import HeraldCrypto
import HeraldWebPush

/// A push subscription the simulator issued, as a browser holds one: the
/// subscription it hands to the application server (endpoint, `p256dh`,
/// `auth`), the private key behind `p256dh`, and the application server key
/// it was restricted to, if any (RFC 8292 §3.2).
///
/// It exists so a test has the browser's side of a subscription without a
/// browser: the simulator decrypts with it, and a test given the private key
/// can decrypt a body itself.
public struct SimulatedWebPushSubscription: Sendable {
    /// The last path segment of the endpoint (`/push/<id>`).
    public let id: String
    /// Endpoint and keys, as `PushSubscription.toJSON()` gives them.
    public let subscription: WebPushSubscription
    /// The browser's private key, whose public half is `p256dh`.
    public let privateKey: PrivateKey
    /// The 65-byte point of the application server key the subscription was
    /// made with (`applicationServerKey`); VAPID's `k` must then be it.
    public let applicationServerKey: [UInt8]?

    /// Random bytes in an id: 128 bits, so an endpoint is as hard to guess as a real one.
    static let idSize = 16

    /// A new subscription at `origin` (`https://host[:port]`) with fresh keys.
    /// - Throws: `WebPushSimulatorError.invalidApplicationServerKey` when the
    ///   key is not a P-256 point; `.keyGeneration` when OpenSSL fails.
    public static func issue(origin: String, applicationServerKey: [UInt8]?) throws(WebPushSimulatorError) -> Self {
        if let applicationServerKey {
            do { _ = try PublicKey(uncompressedP256: applicationServerKey) } catch {
                throw .invalidApplicationServerKey(error.detail)
            }
        }
        let id: String
        let privateKey: PrivateKey
        let p256dh: [UInt8]
        let authSecret: [UInt8]
        do {
            id = Base64URL.encode(try SecureRandom.bytes(idSize))
            privateKey = try PrivateKey.generateP256()
            p256dh = try privateKey.publicKey.uncompressedP256()
            authSecret = try SecureRandom.bytes(WebPushSubscription.authSecretSize)
        } catch {
            throw .keyGeneration(error)
        }
        let subscription: WebPushSubscription
        do {
            subscription = try WebPushSubscription(
                endpoint: origin + WebPushSimulatorService.pushPathPrefix + id, p256dh: p256dh, authSecret: authSecret)
        } catch {
            throw .invalidOrigin(origin, error.description)
        }
        return Self(
            id: id, subscription: subscription, privateKey: privateKey, applicationServerKey: applicationServerKey)
    }

    /// `{"endpoint","keys":{"p256dh","auth"}}` as a browser writes it, plus
    /// `id`, `private_key` (base64url of the 32-byte scalar) and
    /// `application_server_key` when the subscription is restricted. Readers
    /// of `PushSubscription.toJSON()` (Herald's `WebPushSubscription(json:)`,
    /// pywebpush's `subscription_info`) ignore the extra members.
    public func jsonValue() throws(CryptoError) -> JSONValue {
        var keys = JSONObject()
        keys["p256dh"] = .string(Base64URL.encode(subscription.userAgentPublicKeyBytes))
        keys["auth"] = .string(Base64URL.encode(subscription.authSecret))
        var object = JSONObject()
        object["endpoint"] = .string(subscription.endpoint)
        object["keys"] = .object(keys)
        object["id"] = .string(id)
        object["private_key"] = .string(Base64URL.encode(try privateKey.rawP256Scalar()))
        if let applicationServerKey {
            object["application_server_key"] = .string(Base64URL.encode(applicationServerKey))
        }
        return .object(object)
    }
}

/// Why the simulated push service cannot issue a subscription.
public enum WebPushSimulatorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The service was not told its origin yet (`WebPushSimulatorService.serve(at:)`).
    case originUnknown
    /// The origin does not make an endpoint a subscription accepts.
    case invalidOrigin(String, String)
    /// The `applicationServerKey` is not a 65-byte P-256 point.
    case invalidApplicationServerKey(String)
    /// OpenSSL could not make the keys.
    case keyGeneration(CryptoError)
    /// The service issued its `maxSubscriptions` already.
    case tooManySubscriptions(Int)

    public var description: String {
        switch self {
        case .originUnknown: "the push service does not know its origin yet (the server has not started)"
        case .invalidOrigin(let origin, let problem):
            "the origin \"\(origin)\" makes no subscription endpoint: \(problem)"
        case .invalidApplicationServerKey(let problem):
            "application_server_key: expected base64url of a 65-byte uncompressed P-256 point: \(problem)"
        case .keyGeneration(let error): "subscription keys cannot be made: \(error)"
        case .tooManySubscriptions(let limit):
            "the simulator issued its maximum of \(limit) Web Push subscriptions (deleted ones count: they are answered 410); restart it for more"
        }
    }
}
