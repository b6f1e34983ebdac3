import HeraldCore
import HeraldCrypto

/// The signed JWT a service account trades for an access token (Google's
/// OAuth 2.0 "JWT bearer" flow, RFC 7523).
///
/// - Important: `aud` must be the key's `token_uri` exactly and `exp` at most
///   one hour after `iat`, else Google answers `invalid_grant`. The assertion
///   is a credential for its lifetime: never log it.
public enum OAuthAssertion {
    /// The only scope FCM HTTP v1 needs.
    public static let scope = "https://www.googleapis.com/auth/firebase.messaging"
    /// The `grant_type` of the token request.
    public static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    /// How long an assertion is valid: Google's maximum.
    public static let lifetime: Int64 = 3600

    /// The JOSE header: `kid` names the key so Google picks the right public key.
    public static func header(for account: ServiceAccount) -> JSONObject {
        ["typ": "JWT", "kid": .string(account.privateKeyID)]
    }

    /// The claims for an assertion issued at `issuedAt`.
    public static func claims(for account: ServiceAccount, issuedAt: Timestamp) -> JSONObject {
        [
            "iss": .string(account.clientEmail),
            "scope": .string(scope),
            "aud": .string(account.tokenURI),
            "iat": .number(JSONNumber(Int(issuedAt.seconds))),
            "exp": .number(JSONNumber(Int(issuedAt.seconds + lifetime))),
        ]
    }

    /// A compact RS256 JWS for `account`, issued at `issuedAt`.
    public static func sign(for account: ServiceAccount, issuedAt: Timestamp) throws(CryptoError) -> String {
        try JSONWebToken.sign(
            header: header(for: account), claims: claims(for: account, issuedAt: issuedAt), with: account.privateKey)
    }

    /// The form body of the token request.
    public static func formBody(assertion: String) -> [UInt8] {
        Array("grant_type=\(FormEncoding.encode(grantType))&assertion=\(FormEncoding.encode(assertion))".utf8)
    }
}
