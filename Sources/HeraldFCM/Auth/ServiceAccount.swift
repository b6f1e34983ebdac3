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

    public init(projectID: String?, clientEmail: String, privateKeyID: String, tokenURI: String, privateKey: PrivateKey) {
        self.projectID = projectID
        self.clientEmail = clientEmail
        self.privateKeyID = privateKeyID
        self.tokenURI = tokenURI
        self.privateKey = privateKey
    }

    /// Google's token endpoint, used when a key file has no `token_uri`.
    public static let defaultTokenURI = "https://oauth2.googleapis.com/token"

    /// Reads a service-account key from its JSON text; `source` names where it
    /// came from (a file path, `service_account_json`) in errors.
    public init(json text: String, source: String) throws(FCMConfigurationError) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(text)
        } catch {
            throw FCMConfigurationError(source: source, message: "not valid JSON (\(error))")
        }
        guard let object = value.objectValue else {
            throw FCMConfigurationError(source: source, message: "expected a JSON object, found \(value.kindDescription)")
        }
        if let type = object["type"]?.stringValue, type != "service_account" {
            throw FCMConfigurationError(
                source: source, message: "\"type\" is \"\(type)\"; expected a \"service_account\" key")
        }
        func required(_ key: String) throws(FCMConfigurationError) -> String {
            guard let string = object[key]?.stringValue, !string.isEmpty else {
                throw FCMConfigurationError(source: source, message: "missing \"\(key)\" (a non-empty string)")
            }
            return string
        }
        let clientEmail = try required("client_email")
        let privateKeyID = try required("private_key_id")
        let pem = try required("private_key")
        let key: PrivateKey
        do {
            key = try PrivateKey(pem: pem)
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
        let tokenURI = object["token_uri"]?.stringValue ?? Self.defaultTokenURI
        guard URLSecrets.userInfo(of: tokenURI) == nil else {
            throw FCMConfigurationError(
                source: source, message: "\"token_uri\" '\(URLSecrets.redacted(tokenURI))' carries user info (user:password@); remove it")
        }
        self.init(
            projectID: object["project_id"]?.stringValue, clientEmail: clientEmail, privateKeyID: privateKeyID,
            tokenURI: tokenURI, privateKey: key)
    }

    public var description: String { "service account \(clientEmail) (key \(privateKeyID))" }
}
