import HeraldCore
import HeraldCrypto

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

    /// The account described by a service-account JSON key (as `scripts/dev-keys` writes it).
    public init(serviceAccountJSON text: String) throws(SimulatorSetupError) {
        guard let object = (try? JSONValue.parse(text))?.objectValue else {
            throw SimulatorSetupError("service account: not a JSON object")
        }
        guard let email = object["client_email"]?.stringValue, let keyID = object["private_key_id"]?.stringValue,
            let pem = object["private_key"]?.stringValue
        else {
            throw SimulatorSetupError("service account: needs client_email, private_key_id and private_key")
        }
        do {
            publicKey = try PublicKey(pem: pem)
        } catch {
            throw SimulatorSetupError("service account: private_key: \(error)")
        }
        clientEmail = email
        self.keyID = keyID
        projectID = object["project_id"]?.stringValue
    }
}
