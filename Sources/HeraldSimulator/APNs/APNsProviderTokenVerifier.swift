import HeraldCore
import HeraldCrypto
import HeraldSystem

/// Checks an `authorization: bearer <JWT>` header the way APNs does: ES256
/// signature by a known key (`kid`), `iss` = that key's team, `iat` younger
/// than an hour and not in the future.
///
/// A provider reuses one token for up to an hour, so a token whose signature
/// and issuer were verified once is remembered (`VerifiedTokens`): the ES256
/// verification (~60 µs) runs once per token, not once per notification. The
/// age checks run on every request, so a remembered token still expires.
struct APNsProviderTokenVerifier: Sendable {
    /// Tokens whose `iat` is this far ahead of the simulator's clock are refused (clock skew allowance).
    static let futureSkew: Duration = .seconds(60)

    let keys: [String: APNsSimulatorKey]
    let maxAge: Duration
    private let verified = VerifiedTokens(capacity: 64)

    init(keys: [APNsSimulatorKey], maxAge: Duration) {
        self.keys = Dictionary(keys.map { ($0.keyID, $0) }, uniquingKeysWith: { first, _ in first })
        self.maxAge = maxAge
    }

    /// The verified token's team and issue time.
    struct Verified: Equatable {
        let teamID: String
        let issuedAt: Timestamp
    }

    func verify(authorization: String, at now: Timestamp) throws(APNsSimulatorRejection) -> Verified {
        let invalid = APNsSimulatorRejection.forbidden("InvalidProviderToken")
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw invalid }
        let text = String(parts[1])
        let result: Verified
        if let known = verified.lookup(text) {
            result = known
        } else {
            let token: JSONWebToken
            do { token = try JSONWebToken(parsing: text) } catch { throw invalid }
            guard token.algorithm == "ES256", let keyID = token.header["kid"]?.stringValue, let key = keys[keyID],
                token.verify(with: key.publicKey)
            else { throw invalid }
            guard token.claims["iss"]?.stringValue == key.teamID, let iat = token.claims["iat"]?.intValue else {
                throw invalid
            }
            result = Verified(teamID: key.teamID, issuedAt: Timestamp(seconds: Int64(iat)))
            verified.remember(text, result)
        }
        let issuedAt = result.issuedAt
        if issuedAt - now > Self.futureSkew { throw invalid }
        if now - issuedAt >= maxAge { throw APNsSimulatorRejection.forbidden("ExpiredProviderToken") }
        return result
    }
}

/// Tokens whose signature and issuer were verified, by their text; forgets
/// them all when `capacity` is reached (a provider has one or two live tokens
/// per key, so the set stays small unless a client changes tokens per request).
final class VerifiedTokens: Sendable {
    private let entries = Locked<[String: APNsProviderTokenVerifier.Verified]>([:])
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    func lookup(_ token: String) -> APNsProviderTokenVerifier.Verified? { entries.withLock { $0[token] } }

    func remember(_ token: String, _ verified: APNsProviderTokenVerifier.Verified) {
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[token] = verified
        }
    }
}
