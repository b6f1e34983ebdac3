import HeraldCore
import HeraldCrypto

/// An `Authorization: vapid t=<JWT>, k=<key>` header value (RFC 8292 §3)
/// taken apart and checked as a push service checks it: the push simulator
/// answers senders with it, and tests check Herald's signer with it.
public struct VAPIDAuthorization: Sendable {
    /// The token (`t`), parsed, not yet verified.
    public let token: JSONWebToken
    /// The application server key (`k`), loaded.
    public let publicKey: PublicKey
    /// `k` as its 65-byte uncompressed point.
    public let publicKeyBytes: [UInt8]

    /// Splits a header value. The scheme and parameter names are
    /// case-insensitive, parameters may come in either order, and spaces
    /// after commas are optional (py_vapid writes none, RFC 8292's example one).
    /// - Throws: `malformedHeader` when it is not `vapid t=…, k=…`;
    ///   `invalidKey` when `k` is not a P-256 public key; `invalidToken` when
    ///   `t` is not a compact JWS.
    public init(parsing value: String) throws(VAPIDError) {
        let expected = "expected \"vapid t=<JWT>, k=<base64url P-256 key>\""
        let text = value.drop(while: { $0 == " " })
        guard let space = text.firstIndex(of: " ") else { throw .malformedHeader("no parameters; \(expected)") }
        let scheme = text[..<space]
        guard scheme.lowercased() == "vapid" else { throw .malformedHeader("the scheme is \"\(scheme)\"; \(expected)") }
        var parameters: [String: Substring] = [:]
        for item in text[space...].split(separator: ",", omittingEmptySubsequences: false) {
            let item = item.drop(while: { $0 == " " || $0 == "\t" })
            guard let equals = item.firstIndex(of: "=") else {
                throw .malformedHeader("\"\(item.prefix(40))\" is not name=value; \(expected)")
            }
            let name = item[..<equals].lowercased()
            var value = item[item.index(after: equals)...]
            while let last = value.last, last == " " || last == "\t" { value = value.dropLast() }
            guard parameters[name] == nil else { throw .malformedHeader("\(name)= appears twice") }
            parameters[name] = value
        }
        guard let t = parameters["t"], !t.isEmpty else { throw .malformedHeader("no t= (the JWT); \(expected)") }
        guard let k = parameters["k"], !k.isEmpty else { throw .malformedHeader("no k= (the public key); \(expected)") }
        guard let keyBytes = Base64URL.decode(k) else { throw .invalidKey("k is not base64url") }
        do {
            publicKey = try PublicKey(uncompressedP256: keyBytes)
        } catch {
            throw .invalidKey("k is not a P-256 public key: \(error.detail)")
        }
        publicKeyBytes = keyBytes
        do {
            token = try JSONWebToken(parsing: String(t))
        } catch {
            throw .invalidToken(error.message)
        }
    }

    /// Verifies the token for a message sent at `now` to the push service at
    /// `origin`: ES256, signed by `k` (and `k` is `expectedPublicKey` when
    /// given: the key the subscription was made with), `aud` is `origin`,
    /// `exp` is in the future and at most 24 hours ahead, `sub` is present.
    ///
    /// `sub` is returned as written; `VAPIDSubject(claims.subject)` checks it
    /// the way Apple's push service does, which others do not.
    public func verify(origin: String, now: Timestamp, expectedPublicKey: [UInt8]? = nil) throws(VAPIDError)
        -> VAPIDClaims
    {
        if let expectedPublicKey, expectedPublicKey != publicKeyBytes { throw .unexpectedKey }
        guard token.algorithm == "ES256" else {
            throw .invalidToken("alg is \(token.algorithm.map { "\"\($0)\"" } ?? "missing"); VAPID tokens are ES256")
        }
        guard token.verify(with: publicKey) else { throw .badSignature }
        guard let audience = token.claims["aud"]?.stringValue else {
            throw .invalidToken("has no aud claim (a string)")
        }
        guard audience == origin else { throw .wrongAudience(expected: origin, found: audience) }
        guard let exp = token.claims["exp"]?.intValue else { throw .invalidToken("has no exp claim (whole seconds)") }
        let expiresAt = Timestamp(seconds: Int64(exp))
        guard expiresAt > now else { throw .badExpiry("exp \(expiresAt) is not after now (\(now))") }
        let ahead = expiresAt - now
        guard ahead <= VAPIDSigner.maximumLifetime else {
            throw .badExpiry("exp is \(ahead.components.seconds) s ahead, more than the 24 hours RFC 8292 allows")
        }
        guard let subject = token.claims["sub"]?.stringValue, !subject.isEmpty else {
            throw .invalidToken("has no sub claim (a mailto: or https: contact)")
        }
        return VAPIDClaims(audience: audience, expiresAt: expiresAt, subject: subject)
    }
}

/// The claims of a verified VAPID token: what the push simulator records of
/// a sender, and checks the subject of when it plays Apple's push service.
public struct VAPIDClaims: Sendable, Equatable {
    public let audience: String
    public let expiresAt: Timestamp
    public let subject: String

    public init(audience: String, expiresAt: Timestamp, subject: String) {
        self.audience = audience
        self.expiresAt = expiresAt
        self.subject = subject
    }
}
