import HeraldCore
import HeraldCrypto

/// Checks an `authorization: bearer <JWT>` header the way APNs does: ES256
/// signature by a known key (`kid`), `iss` = that key's team, `iat` younger
/// than an hour and not in the future.
struct APNsProviderTokenVerifier: Sendable {
    /// Tokens whose `iat` is this far ahead of the simulator's clock are refused (clock skew allowance).
    static let futureSkew: Duration = .seconds(60)

    let keys: [String: APNsSimulatorKey]
    let maxAge: Duration

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
        let token: JSONWebToken
        do { token = try JSONWebToken(parsing: String(parts[1])) } catch { throw invalid }
        guard token.algorithm == "ES256", let keyID = token.header["kid"]?.stringValue, let key = keys[keyID],
              token.verify(with: key.publicKey)
        else { throw invalid }
        guard token.claims["iss"]?.stringValue == key.teamID, let iat = token.claims["iat"]?.intValue else { throw invalid }
        let issuedAt = Timestamp(seconds: Int64(iat))
        if issuedAt - now > Self.futureSkew { throw invalid }
        if now - issuedAt >= maxAge { throw APNsSimulatorRejection.forbidden("ExpiredProviderToken") }
        return Verified(teamID: key.teamID, issuedAt: issuedAt)
    }
}
