import HeraldCore
import HeraldCrypto

/// Signs VAPID tokens (RFC 8292) with the application server's P-256 key:
/// ES256 JWTs with header `{"typ":"JWT","alg":"ES256"}` and claims
/// `{"aud":<push service origin>,"exp":<seconds>,"sub":<contact>}`, and
/// writes the `Authorization` header value that carries one with the public key.
///
/// The browser was subscribed with this public key (`applicationServerKey`),
/// so the push service accepts messages only from the holder of the private key.
/// Signing is HeraldCrypto's `JSONWebToken` (raw `r‖s` signatures).
public struct VAPIDSigner: Sendable {
    /// The longest a token may be valid: its `exp` must be no more than 24
    /// hours after the request (RFC 8292 §2; Apple's push service enforces it).
    public static let maximumLifetime: Duration = .seconds(24 * 60 * 60)

    public let subject: VAPIDSubject
    /// The application server key as base64url of its 65-byte uncompressed
    /// point: VAPID's `k=` and the browser's `applicationServerKey`.
    public let publicKey: String
    private let key: PrivateKey

    /// - Throws: `VAPIDError.invalidKey` when the key is not P-256 or cannot sign.
    public init(key: PrivateKey, subject: VAPIDSubject) throws(VAPIDError) {
        guard key.kind == .ecP256 else { throw .invalidKey("the signing key must be EC P-256, found \(key.kind)") }
        do {
            try key.proveItSigns()
            publicKey = Base64URL.encode(try key.publicKey.uncompressedP256())
        } catch {
            throw .invalidKey("the signing key cannot sign: \(error)")
        }
        self.key = key
        self.subject = subject
    }

    /// A token for `audience` (a push service's origin) that expires at
    /// `expiresAt`, in whole seconds. The claims are written in alphabetical
    /// order, as py_vapid writes them.
    public func token(audience: String, expiresAt: Timestamp) throws(VAPIDError) -> String {
        var header = JSONObject()
        header["typ"] = "JWT"
        var claims = JSONObject()
        claims["aud"] = .string(audience)
        claims["exp"] = .number(JSONNumber(Int(expiresAt.seconds)))
        claims["sub"] = .string(subject.value)
        do {
            return try JSONWebToken.sign(header: header, claims: claims, with: key)
        } catch {
            throw .signingFailed(error)
        }
    }

    /// `vapid t=<token>, k=<public key>`, the `Authorization` header value (RFC 8292 §3).
    public func authorization(token: String) -> String {
        "vapid t=\(token), k=\(publicKey)"
    }
}
