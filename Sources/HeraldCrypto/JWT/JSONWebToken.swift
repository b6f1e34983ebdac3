import HeraldCore

/// A compact JWS (`header.claims.signature`, each base64url): the APNs
/// provider token (ES256) and the Google OAuth assertion (RS256) are both one.
///
/// Signing lives here so both providers share one implementation; parsing and
/// verification live here so the simulator checks tokens the way Apple and
/// Google do.
public struct JSONWebToken: Sendable {
    public let header: JSONObject
    public let claims: JSONObject
    /// `base64url(header).base64url(claims)`: the bytes the signature covers.
    public let signingInput: String
    public let signature: [UInt8]

    /// Signs `claims` with `key`; `alg` in `header` is set from the key (ES256 or RS256)
    /// and `typ` is left to the caller.
    public static func sign(header: JSONObject, claims: JSONObject, with key: PrivateKey) throws(CryptoError) -> String
    {
        var header = header
        switch key.kind {
        case .ecP256: header["alg"] = "ES256"
        case .rsa: header["alg"] = "RS256"
        case .other(let name): throw CryptoError("sign JWT", "a \(name) key cannot sign a JWT")
        }
        let input =
            Base64URL.encode(JSONValue.object(header).serialized) + "."
            + Base64URL.encode(JSONValue.object(claims).serialized)
        let signature = try key.sign(Array(input.utf8))
        return input + "." + Base64URL.encode(signature)
    }

    /// Splits and decodes a compact JWS without verifying it.
    public init(parsing token: String) throws(JWTError) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw JWTError("expected 3 dot-separated parts, found \(parts.count)") }
        header = try Self.object(parts[0], "header")
        claims = try Self.object(parts[1], "claims")
        guard let signature = Base64URL.decode(parts[2]), !signature.isEmpty else {
            throw JWTError("the signature is not base64url")
        }
        self.signature = signature
        signingInput = String(parts[0]) + "." + String(parts[1])
    }

    private static func object(_ part: Substring, _ name: String) throws(JWTError) -> JSONObject {
        guard let bytes = Base64URL.decode(part) else { throw JWTError("the \(name) is not base64url") }
        let value: JSONValue
        do { value = try JSONValue.parse(bytes) } catch { throw JWTError("the \(name) is not JSON: \(error)") }
        guard let object = value.objectValue else { throw JWTError("the \(name) is not a JSON object") }
        return object
    }

    /// The `alg` header, e.g. `ES256`.
    public var algorithm: String? { header["alg"]?.stringValue }

    /// Whether the signature verifies with `key` and `alg` matches the key's kind
    /// (an RS256 token never verifies against an EC key, and `none` never verifies).
    public func verify(with key: PublicKey) -> Bool {
        switch (algorithm, key.kind) {
        case ("ES256", .ecP256), ("RS256", .rsa): key.verify(signature: signature, for: Array(signingInput.utf8))
        default: false
        }
    }
}

/// A token that is not a well-formed JWS; the simulator answers it like the
/// real services (InvalidProviderToken, invalid_grant).
public struct JWTError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
