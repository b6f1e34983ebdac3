import HeraldCore
import HeraldCrypto
import HeraldFCM
import HeraldSimulator

/// One RSA service-account key per test process (generating one takes time),
/// in the three forms tests need: Google's JSON, Herald's `ServiceAccount`,
/// the simulator's `SimulatedServiceAccount`.
enum TestKeys {
    static let email = "herald-test@herald-test.iam.gserviceaccount.com"
    static let keyID = "0123456789abcdef0123456789abcdef01234567"
    static let projectID = "herald-test"

    static let key: Result<PrivateKey, CryptoError> = Result { () throws(CryptoError) -> PrivateKey in
        try PrivateKey.generateRSA()
    }

    /// A service-account JSON key like the Firebase console's.
    static func serviceAccountJSON(tokenURI: String, key: PrivateKey? = nil) throws -> String {
        let pem = try (key ?? Self.key.get()).pkcs8PEM()
        let object: JSONValue = [
            "type": "service_account", "project_id": .string(projectID), "private_key_id": .string(keyID),
            "private_key": .string(pem), "client_email": .string(email), "client_id": "100000000000000000001",
            "token_uri": .string(tokenURI),
        ]
        return object.jsonString
    }

    static func account(tokenURI: String) throws -> ServiceAccount {
        try ServiceAccount(json: serviceAccountJSON(tokenURI: tokenURI), source: "test")
    }

    static func simulatedAccount() throws -> SimulatedServiceAccount {
        SimulatedServiceAccount(
            clientEmail: email, keyID: keyID, publicKey: try key.get().publicKey, projectID: projectID)
    }
}
