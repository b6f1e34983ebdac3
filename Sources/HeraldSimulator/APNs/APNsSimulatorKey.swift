import HeraldCrypto

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
