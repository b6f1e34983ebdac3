import Foundation
import HeraldTestSupport
import HeraldConfig
import HeraldCore
import HeraldService
import HeraldCrypto
import HeraldFCM
import HeraldHTTPClient
import HeraldSimulator
import Testing

@Suite struct ServiceAccountTests {
    @Test func readsGooglesKeyFile() throws {
        let account = try TestKeys.account(tokenURI: "https://oauth2.googleapis.com/token")
        #expect(account.clientEmail == TestKeys.email)
        #expect(account.privateKeyID == TestKeys.keyID)
        #expect(account.projectID == TestKeys.projectID)
        #expect(account.tokenURI == "https://oauth2.googleapis.com/token")
        #expect(account.description == "service account \(TestKeys.email) (key \(TestKeys.keyID))")
    }

    @Test func missingFieldsAreNamed() throws {
        var object = try #require(JSONValue.parse(TestKeys.serviceAccountJSON(tokenURI: "https://x/token")).objectValue)
        object["client_email"] = nil
        object["private_key_id"] = ""
        #expect(
            throws: FCMConfigurationError(
                source: "key.json",
                message:
                    "the service account has no 'client_email'; the service account has no 'private_key_id'")
        ) {
            try ServiceAccount(json: JSONValue.object(object).jsonString, source: "key.json")
        }
    }

    @Test func errorsNeverQuoteTheKey() throws {
        var object = try #require(JSONValue.parse(TestKeys.serviceAccountJSON(tokenURI: "https://x/token")).objectValue)
        object["private_key"] = "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWtleS1tYXRlcmlhbA==\n-----END PRIVATE KEY-----\n"
        do {
            _ = try ServiceAccount(json: JSONValue.object(object).jsonString, source: "key.json")
            Issue.record("a broken key was accepted")
        } catch {
            #expect(error.description.hasPrefix("key.json: \"private_key\": load private key: "))
            #expect(!error.description.contains("c2VjcmV0"))
        }
    }

    @Test func anECKeyIsNotAServiceAccountKey() throws {
        let json = try TestKeys.serviceAccountJSON(tokenURI: "https://x/token", key: PrivateKey.generateP256())
        #expect(throws: FCMConfigurationError(source: "k", message: "\"private_key\" is EC P-256; expected an RSA key"))
        {
            try ServiceAccount(json: json, source: "k")
        }
    }

    @Test func aTokenURIWithCredentialsIsRefusedWithThePasswordHidden() throws {
        let json = try TestKeys.serviceAccountJSON(tokenURI: "https://user:hunter2@oauth2.example.com/token")
        do {
            _ = try ServiceAccount(json: json, source: "k")
            Issue.record("a token_uri with user info was accepted")
        } catch {
            #expect(
                error.description
                    == "k: the service account's token_uri 'https://user:***@oauth2.example.com/token' carries user info (user:password@); remove it"
            )
            #expect(!error.description.contains("hunter2"))
        }
    }

    @Test func aKeyWithoutATokenURIUsesGooglesAndAClearTextOneIsRefused() throws {
        var object = try #require(JSONValue.parse(TestKeys.serviceAccountJSON(tokenURI: "https://x/token")).objectValue)
        object["token_uri"] = nil
        #expect(
            try ServiceAccount(json: JSONValue.object(object).jsonString, source: "k").tokenURI
                == "https://oauth2.googleapis.com/token")
        object["token_uri"] = "http://oauth2.example.com/token"
        #expect(
            throws: FCMConfigurationError(
                source: "k",
                message:
                    "the service account's token_uri 'http://oauth2.example.com/token' is not an https:// URL")
        ) {
            try ServiceAccount(json: JSONValue.object(object).jsonString, source: "k")
        }
    }

    @Test func makeTakesTheFileRelativeToTheConfigAndTheProjectFromTheKey() throws {
        let directory = try makeTemporaryDirectory("fcm")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try TestKeys.serviceAccountJSON(tokenURI: "https://127.0.0.1:2197/token")
            .write(toFile: directory + "/sa.json", atomically: true, encoding: .utf8)
        let settings = try FCMSettingsFixture.decode(
            "service_account_file: sa.json\nendpoint: https://127.0.0.1:2197/\n")
        let logger = Logger(label: "test", level: .critical, sink: MemoryLogSink())
        let provider = try FCMProvider.make(
            settings: settings, resolve: { directory + "/" + $0 }, httpClient: HTTPClient(logger: logger),
            logger: logger)
        #expect(provider.projectID == TestKeys.projectID)
        #expect(provider.sendURL == "https://127.0.0.1:2197/v1/projects/herald-test/messages:send")
    }

    @Test func makeRefusesNoKeyAndTwoKeys() throws {
        let logger = Logger(label: "test", level: .critical, sink: MemoryLogSink())
        let none = try FCMSettingsFixture.decode("project_id: p\n")
        #expect(
            throws: FCMConfigurationError(
                source: "fcm", message: "missing service_account_file or service_account_json")
        ) {
            try FCMProvider.make(
                settings: none, resolve: { $0 }, httpClient: HTTPClient(logger: logger), logger: logger)
        }
        let missing = try FCMSettingsFixture.decode("service_account_file: /nonexistent/sa.json\n")
        #expect(
            throws: FCMConfigurationError(
                source: "/nonexistent/sa.json", message: "the service-account file does not exist")
        ) {
            try FCMProvider.make(
                settings: missing, resolve: { $0 }, httpClient: HTTPClient(logger: logger), logger: logger)
        }
    }

    @Test func devKeysScriptWritesAKeyBothSidesRead() async throws {
        let directory = try makeTemporaryDirectory("fcm")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../scripts/dev-keys"
        ).path
        let run = try await runTool(script, [directory])
        #expect(run.status == 0, "\(run.output)")
        let json = try String(contentsOfFile: directory + "/fcm-service-account.json", encoding: .utf8)
        let account = try ServiceAccount(json: json, source: "dev")
        #expect(account.tokenURI == "https://127.0.0.1:2197/token")
        #expect(account.projectID == "herald-dev")
        let simulated = try SimulatedServiceAccount(serviceAccountJSON: json)
        #expect(simulated.clientEmail == account.clientEmail)
        #expect(simulated.keyID == account.privateKeyID)
        let assertion = try JSONWebToken(
            parsing: OAuthAssertion.sign(for: account, issuedAt: Timestamp(seconds: 1_796_032_800)))
        #expect(assertion.verify(with: simulated.publicKey))
    }
}
