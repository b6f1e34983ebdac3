import HeraldAPNs
import HeraldCore
import HeraldCrypto

/// What the APNs simulator accepts: keys, topics, dead tokens, limits.
public struct APNsSimulatorConfiguration: Sendable {
    /// Keys provider tokens may be signed with (by `kid`).
    public var keys: [APNsSimulatorKey]
    /// Bundle ids the simulator accepts topics for (plus each push type's
    /// suffix). Empty accepts any bundle id.
    public var bundleIDs: [String]
    /// Tokens answered 410 Unregistered, with the time they became invalid
    /// (lower-case hex; matching ignores case).
    public var deadTokens: [String: Timestamp]
    /// A token older than this is refused with ExpiredProviderToken.
    public var providerTokenMaxAge: Duration
    /// A team's new token issued within this time of its previous accepted one
    /// is refused with 429 TooManyProviderTokenUpdates (Apple's rule: 20 minutes).
    /// Off (zero) by default: every `herald send` or restart signs a new token,
    /// and acceptance suites restart clients often; set 20m to enforce it.
    public var minimumTokenUpdateInterval: Duration
    /// At most this many notifications per device token per `perTokenWindow`
    /// (429 TooManyRequests); nil for no limit.
    public var perTokenLimit: Int?
    public var perTokenWindow: Duration
    /// The environment this simulator plays (Apple's production or sandbox host).
    public var environment: APNsEnvironment
    /// Tokens that exist in one environment only (lower-case hex): sent to the
    /// other, they are answered 400 BadDeviceToken, as Apple does.
    public var tokenEnvironments: [String: APNsEnvironment]

    public init(
        keys: [APNsSimulatorKey] = [], bundleIDs: [String] = [], deadTokens: [String: Timestamp] = [:],
        providerTokenMaxAge: Duration = .seconds(3600), minimumTokenUpdateInterval: Duration = .zero,
        perTokenLimit: Int? = nil, perTokenWindow: Duration = .seconds(1), environment: APNsEnvironment = .production,
        tokenEnvironments: [String: APNsEnvironment] = [:]
    ) {
        self.environment = environment
        self.tokenEnvironments = Dictionary(
            tokenEnvironments.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.keys = keys
        self.bundleIDs = bundleIDs
        self.deadTokens = Dictionary(
            deadTokens.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.providerTokenMaxAge = providerTokenMaxAge
        self.minimumTokenUpdateInterval = minimumTokenUpdateInterval
        self.perTokenLimit = perTokenLimit
        self.perTokenWindow = perTokenWindow
    }
}

/// A provider-token signing key the APNs simulator trusts: the public half of
/// a `.p8`, with the key id and team id a token signed by it must name.
public struct APNsSimulatorKey: Sendable {
    public var keyID: String
    public var teamID: String
    public var publicKey: PublicKey

    public init(keyID: String, teamID: String, publicKey: PublicKey) {
        self.keyID = keyID
        self.teamID = teamID
        self.publicKey = publicKey
    }
}
