import HeraldCore

/// The fields of a Google service-account key (the JSON file downloaded from
/// the Firebase or Google Cloud console) and the rules Herald holds them to,
/// written once: `herald check` reports every problem at the key's place in
/// the config, and the FCM provider builds its signing account from the same
/// reading. Nothing here touches the private key beyond its PEM armour.
public struct ServiceAccountKey: Sendable {
    /// Google's token endpoint, used when a key has no `token_uri`.
    public static let defaultTokenURI = "https://oauth2.googleapis.com/token"

    /// `project_id`: the Firebase project, used when the config names none.
    public let projectID: String?
    /// `client_email`: the assertion's issuer.
    public let clientEmail: String
    /// `private_key_id`: the assertion header's `kid`.
    public let privateKeyID: String
    /// `private_key`: PKCS#8 PEM text (checked for its armour only).
    public let privateKeyPEM: String
    /// `token_uri`, or ``defaultTokenURI``: an https:// URL without user info.
    public let tokenURI: String

    /// Reads the key from its JSON text: the key, or every problem found, each
    /// a sentence about "the service account" a user can act on.
    public static func read(_ text: String) -> Result<ServiceAccountKey, Problems> {
        guard let value = try? JSONValue.parse(text), let object = value.objectValue else {
            return .failure(
                Problems(
                    ["the service account is not a JSON object (download the key again from the Google Cloud console)"],
                    projectID: nil))
        }
        var problems: [String] = []
        if let type = object["type"]?.stringValue, type != "service_account" {
            problems.append("the key's type is '\(type.truncatedForMessage)', expected 'service_account'")
        }
        func required(_ field: String) -> String {
            guard let text = object[field]?.stringValue, !text.isEmpty else {
                problems.append("the service account has no '\(field)'")
                return ""
            }
            return text
        }
        let clientEmail = required("client_email")
        let pem = required("private_key")
        let privateKeyID = required("private_key_id")
        if !pem.isEmpty, !pem.contains(PEMArmor.begin(PEMArmor.pkcs8PrivateKey)) {
            problems.append("the service account's private_key is not a PEM private key")
        }
        let tokenURI = object["token_uri"]?.stringValue ?? defaultTokenURI
        if let problem = Self.problem(withTokenURI: tokenURI) { problems.append(problem) }
        guard problems.isEmpty else {
            return .failure(Problems(problems, projectID: object["project_id"]?.stringValue))
        }
        return .success(
            ServiceAccountKey(
                projectID: object["project_id"]?.stringValue, clientEmail: clientEmail,
                privateKeyID: privateKeyID, privateKeyPEM: pem, tokenURI: tokenURI))
    }

    /// Why `uri` cannot be a key's `token_uri` (the assertion goes there and names it as its audience); nil when it can.
    private static func problem(withTokenURI uri: String) -> String? {
        let shown = URLSecrets.redacted(uri).truncatedForMessage
        guard uri.hasPrefix("https://"), uri.utf8.count > "https://".utf8.count else {
            return "the service account's token_uri '\(shown)' is not an https:// URL"
        }
        if URLSecrets.userInfo(of: uri) != nil {
            return "the service account's token_uri '\(shown)' carries user info (user:password@); remove it"
        }
        return nil
    }

    /// What is wrong with a key, one sentence each.
    public struct Problems: Error, Sendable, Equatable, CustomStringConvertible {
        public let messages: [String]
        /// The key's `project_id`, read even when other fields are wrong (a config naming none needs it too).
        public let projectID: String?

        init(_ messages: [String], projectID: String?) {
            self.messages = messages
            self.projectID = projectID
        }

        public var description: String { messages.joined(separator: "; ") }
    }
}
