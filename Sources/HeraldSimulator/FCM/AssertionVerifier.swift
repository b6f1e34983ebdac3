import HeraldCore
import HeraldCrypto

/// Checks a service-account assertion as Google does: well-formed RS256 JWS,
/// known issuer, matching `kid`, valid signature, audience, at least one
/// scope, and `iat`/`exp` no more than an hour apart and around the current
/// time. Which scopes an API needs is that API's check, not the token
/// endpoint's (firebase-admin asks for cloud-platform, firebase and four
/// more; `messages:send` then checks the token: `FCMSimulatorService`).
struct AssertionVerifier {
    let settings: OAuthSimulatorSettings
    let now: Timestamp

    /// What a valid assertion grants: the account, and the scopes it asked for.
    struct Verified {
        let account: SimulatedServiceAccount
        let scopes: Set<String>
    }

    func verify(_ assertion: String) -> Result<Verified, OAuthGrantError> {
        let jwt: JSONWebToken
        do {
            jwt = try JSONWebToken(parsing: assertion)
        } catch {
            return .failure(.invalidGrant("Invalid JWT: \(error.message)"))
        }
        guard jwt.algorithm == "RS256" else {
            return .failure(.invalidGrant("Invalid JWT: alg must be RS256, found \(jwt.algorithm ?? "none")"))
        }
        guard let issuer = jwt.claims["iss"]?.stringValue,
            let account = settings.accounts.first(where: { $0.clientEmail == issuer })
        else {
            return .failure(
                OAuthGrantError(status: 401, error: "invalid_client", description: "The OAuth client was not found."))
        }
        guard jwt.header["kid"]?.stringValue == account.keyID, jwt.verify(with: account.publicKey) else {
            return .failure(.invalidGrant("Invalid JWT Signature."))
        }
        guard let audience = jwt.claims["aud"]?.stringValue, audienceMatches(audience) else {
            let expected = settings.audience ?? "a URL ending in \(settings.tokenPath)"
            return .failure(.invalidGrant("Invalid JWT: Failed audience check. The right audience is \(expected)."))
        }
        let scopes = Set((jwt.claims["scope"]?.stringValue ?? "").split(separator: " ").map(String.init))
        guard !scopes.isEmpty else {
            return .failure(
                OAuthGrantError(
                    error: "invalid_scope", description: "Invalid OAuth scope or ID token audience provided."))
        }
        guard let iat = jwt.claims["iat"]?.intValue, let exp = jwt.claims["exp"]?.intValue, exp > iat,
            exp - iat <= 3600,
            Timestamp(seconds: Int64(iat)) <= now + settings.allowedClockSkew,
            now <= Timestamp(seconds: Int64(exp)) + settings.allowedClockSkew
        else {
            return .failure(.badTimeframe)
        }
        return .success(Verified(account: account, scopes: scopes))
    }

    private func audienceMatches(_ audience: String) -> Bool {
        if let expected = settings.audience { return audience == expected }
        guard audience.hasPrefix("https://") else { return false }
        let parts = audience.dropFirst("https://".count).split(separator: "/", maxSplits: 1)
        return parts.count == 2 && "/" + parts[1] == settings.tokenPath
    }
}
