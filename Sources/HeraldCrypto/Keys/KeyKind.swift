/// The kinds of key Herald signs with: P-256 for APNs provider tokens and
/// VAPID tokens (ES256, and Web Push key agreement), RSA for Google
/// service-account assertions (RS256).
public enum KeyKind: Sendable, Equatable, CustomStringConvertible {
    case ecP256
    case rsa(bits: Int)
    /// Any other key OpenSSL could load (another curve, Ed25519, ...): loadable, not usable.
    case other(String)

    public var description: String {
        switch self {
        case .ecP256: "EC P-256"
        case .rsa(let bits): "RSA \(bits)-bit"
        case .other(let name): name
        }
    }
}
