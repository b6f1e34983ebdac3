/// How the simulated Google OAuth token endpoint behaves.
public struct OAuthSimulatorSettings: Sendable {
    /// Accounts whose assertions it accepts.
    public var accounts: [SimulatedServiceAccount]
    /// The path it serves (`token_uri` of the dev key is `https://127.0.0.1:2197/token`).
    public var tokenPath: String
    /// The `aud` assertions must carry; nil accepts any URL whose path is `tokenPath`.
    public var audience: String?
    /// `expires_in` of issued tokens (Google: one hour).
    public var tokenLifetime: Duration
    /// How far `iat` may be ahead of, or `exp` behind, the simulator's clock.
    public var allowedClockSkew: Duration

    public init(
        accounts: [SimulatedServiceAccount], tokenPath: String = "/token", audience: String? = nil,
        tokenLifetime: Duration = .seconds(3600), allowedClockSkew: Duration = .seconds(60)
    ) {
        self.accounts = accounts
        self.tokenPath = tokenPath
        self.audience = audience
        self.tokenLifetime = tokenLifetime
        self.allowedClockSkew = allowedClockSkew
    }
}
