import HeraldCore
import HeraldCrypto

/// Signs APNs provider tokens: ES256 JWTs with header `{"alg":"ES256","kid":<key id>}`
/// and claims `{"iss":<team id>,"iat":<seconds>}`.
///
/// - Important: the signature is JOSE raw `r‖s` (64 bytes), never DER;
///   `PrivateKey.sign` guarantees it.
public struct ProviderTokenSigner: Sendable {
    public let teamID: String
    public let keyID: String
    private let key: PrivateKey

    /// - Throws: `APNsConfigurationError` when the key is not EC P-256 (Apple's `.p8` keys are).
    public init(key: PrivateKey, teamID: String, keyID: String) throws(APNsConfigurationError) {
        guard key.kind == .ecP256 else {
            throw APNsConfigurationError("the APNs signing key must be EC P-256 (a .p8 key), found \(key.kind)")
        }
        do {
            try key.proveItSigns()
        } catch {
            throw APNsConfigurationError("the APNs signing key cannot sign: \(error)")
        }
        self.key = key
        self.teamID = teamID
        self.keyID = keyID
    }

    /// A token issued at `issuedAt` (whole seconds).
    public func sign(issuedAt: Timestamp) throws(CryptoError) -> String {
        var header = JSONObject()
        header["alg"] = "ES256"
        header["kid"] = .string(keyID)
        var claims = JSONObject()
        claims["iss"] = .string(teamID)
        claims["iat"] = .number(JSONNumber(Int(issuedAt.seconds)))
        return try JSONWebToken.sign(header: header, claims: claims, with: key)
    }
}
