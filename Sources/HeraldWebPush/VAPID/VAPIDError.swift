import HeraldCrypto

/// Why VAPID (RFC 8292) cannot sign, or why an `Authorization: vapid …`
/// header does not verify. The signing cases are configuration problems
/// found at start-up; the verifying ones are what a push service answers
/// 401 or 403 for, and what the push simulator reports.
public enum VAPIDError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `sub` claim is not a contact push services accept.
    case invalidSubject(String)
    /// The signing key is unusable, or a header's `k` is not a P-256 public key.
    case invalidKey(String)
    /// A token lifetime outside what RFC 8292 allows, or a cache that could never reuse a token.
    case invalidLifetime(String)
    /// OpenSSL could not sign.
    case signingFailed(CryptoError)
    /// The header is not `vapid t=<JWT>, k=<key>`.
    case malformedHeader(String)
    /// The JWT is malformed, is not ES256, or lacks a claim.
    case invalidToken(String)
    /// The signature does not verify with the header's `k`.
    case badSignature
    /// `k` is not the key the subscription was made with.
    case unexpectedKey
    /// `aud` is not the push service's origin.
    case wrongAudience(expected: String, found: String)
    /// `exp` is not in the future, or more than 24 hours ahead.
    case badExpiry(String)

    public var description: String {
        switch self {
        case .invalidSubject(let message): "VAPID subject \(message)"
        case .invalidKey(let message): "VAPID key: \(message)"
        case .invalidLifetime(let message): "VAPID token lifetime: \(message)"
        case .signingFailed(let error): "VAPID token cannot be signed: \(error)"
        case .malformedHeader(let message): "VAPID header: \(message)"
        case .invalidToken(let message): "VAPID token: \(message)"
        case .badSignature: "VAPID token: the signature does not verify with the header's public key (k)"
        case .unexpectedKey: "VAPID key: k is not the application server key the subscription was made with"
        case .wrongAudience(let expected, let found):
            "VAPID token: aud is \"\(found)\", expected the push service's origin \"\(expected)\""
        case .badExpiry(let message): "VAPID token: \(message)"
        }
    }
}
