import HeraldCore
import HeraldCrypto

/// A Google service-account key (the JSON file downloaded from the Firebase
/// console): who Herald is to Google and the RSA key that proves it.
///
/// - Important: The private key never appears in `description`, logs or
///   errors; only `client_email` and `private_key_id` identify the account.
public struct ServiceAccount: Sendable, CustomStringConvertible {
    /// `project_id`: the Firebase project, used when the config names none.
    public let projectID: String?
    /// `client_email`: the assertion's issuer (`iss`).
    public let clientEmail: String
    /// `private_key_id`: the assertion header's `kid`.
    public let privateKeyID: String
    /// `token_uri`: where assertions are exchanged, and the assertion's audience (`aud`).
    public let tokenURI: String
    /// `private_key`: signs assertions (RS256).
    public let privateKey: PrivateKey

    public init(projectID: String?, clientEmail: String, privateKeyID: String, tokenURI: String, privateKey: PrivateKey)
    {
        self.projectID = projectID
        self.clientEmail = clientEmail
        self.privateKeyID = privateKeyID
        self.tokenURI = tokenURI
        self.privateKey = privateKey
    }

    /// Reads a service-account key from its JSON text by `ServiceAccountKey`'s
    /// rules (the ones `herald check` reports), then loads its RSA key and
    /// proves it signs; `source` names where it came from (a file path,
    /// `service_account_json`) in errors.
    public init(json text: String, source: String) throws(FCMConfigurationError) {
        let fields: ServiceAccountKey
        switch ServiceAccountKey.read(text) {
        case .success(let read): fields = read
        case .failure(let problems): throw FCMConfigurationError(source: source, message: problems.description)
        }
        let key: PrivateKey
        do {
            key = try PrivateKey(pem: fields.privateKeyPEM)
        } catch {
            throw FCMConfigurationError(source: source, message: "\"private_key\": \(error)")
        }
        guard case .rsa = key.kind else {
            throw FCMConfigurationError(source: source, message: "\"private_key\" is \(key.kind); expected an RSA key")
        }
        do {
            try key.proveItSigns()
        } catch {
            throw FCMConfigurationError(source: source, message: "\"private_key\" cannot sign: \(error)")
        }
        self.init(
            projectID: fields.projectID, clientEmail: fields.clientEmail, privateKeyID: fields.privateKeyID,
            tokenURI: fields.tokenURI, privateKey: key)
    }

    public var description: String { "service account \(clientEmail) (key \(privateKeyID))" }
}
