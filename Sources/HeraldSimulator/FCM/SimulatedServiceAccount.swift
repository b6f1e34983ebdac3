import HeraldCore
import HeraldCrypto
import HeraldFCM

/// A service account the simulated Google OAuth endpoint knows: the public
/// half of its key, its key id and the project it belongs to.
public struct SimulatedServiceAccount: Sendable {
    public var clientEmail: String
    /// `private_key_id`: assertions must name it as `kid`.
    public var keyID: String
    public var publicKey: PublicKey
    /// The project its access tokens may send for; nil allows any configured project.
    public var projectID: String?

    public init(clientEmail: String, keyID: String, publicKey: PublicKey, projectID: String? = nil) {
        self.clientEmail = clientEmail
        self.keyID = keyID
        self.publicKey = publicKey
        self.projectID = projectID
    }

    /// The account described by a service-account JSON key (as `scripts/dev-keys`
    /// writes it), read by the rules Herald reads keys by (`ServiceAccountKey`).
    public init(serviceAccountJSON text: String) throws(SimulatorSetupError) {
        let key: ServiceAccountKey
        switch ServiceAccountKey.read(text) {
        case .success(let read): key = read
        case .failure(let problems): throw SimulatorSetupError("service account: \(problems)")
        }
        do {
            publicKey = try PublicKey(pem: key.privateKeyPEM)
        } catch {
            throw SimulatorSetupError("service account: private_key: \(error)")
        }
        clientEmail = key.clientEmail
        keyID = key.privateKeyID
        projectID = key.projectID
    }
}
