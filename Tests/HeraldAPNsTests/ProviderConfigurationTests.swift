import Foundation
import HeraldAPNs
import HeraldConfig
import HeraldCrypto
import HeraldHTTPClient
import HeraldYAML
import Testing

@Suite struct ProviderConfigurationTests {
    func settings(_ yaml: String) throws -> APNsSettings {
        try YAMLDocument(text: yaml, file: "config.yaml", environment: [:]).decode(APNsSettings.self)
    }

    @Test func keyFileIsResolvedLoadedAndCaFileAndConnectionsPassToTheClient() throws {
        let directory = NSTemporaryDirectory() + "herald-apns-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try PrivateKey.generateP256().pkcs8PEM().write(toFile: directory + "/AuthKey.p8", atomically: true, encoding: .utf8)
        let configuration = try APNsProviderConfiguration(
            settings: try settings("""
                {team_id: TEAM123456, key_id: KEY1234567, key_file: AuthKey.p8, topic: com.example.chat,
                 environment: sandbox, ca_file: ca.pem, connections: 3, timeout: 4s}
                """),
            resolvePath: { directory + "/" + $0 })
        #expect(configuration.baseURL == "https://api.sandbox.push.apple.com")
        #expect(configuration.bundleID == "com.example.chat")
        #expect(configuration.requestTimeout == .seconds(4))
        guard case .token(let manager) = configuration.authentication else { Issue.record("expected token auth"); return }
        #expect(manager.teamID == "TEAM123456")
        #expect(manager.keyID == "KEY1234567")
        let client = configuration.httpClientConfiguration
        #expect(client.tls.caFile == directory + "/ca.pem")
        #expect(client.maxConnectionsPerHost == 3)
        #expect(client.requestTimeout == .seconds(4))
        #expect(client.tls.clientCertificate == nil)
    }

    @Test func missingKeyFileIsNamedWithoutAnyKeyMaterial() throws {
        let error = #expect(throws: APNsConfigurationError.self) {
            try APNsProviderConfiguration(settings: try settings(
                "{team_id: T, key_id: K, key_file: /nonexistent/AuthKey.p8, topic: com.example.chat}"))
        }
        #expect(error?.description == "apns: cannot read key_file /nonexistent/AuthKey.p8")
    }

    @Test func keyPEMThatIsNotAKeyIsReportedWithoutEchoingIt() throws {
        let error = #expect(throws: APNsConfigurationError.self) {
            try APNsProviderConfiguration(settings: try settings(
                "{team_id: T, key_id: K, key_pem: 'SECRET-MATERIAL', topic: com.example.chat}"))
        }
        #expect(error?.description == "apns: key_pem: load private key: not a PEM key (expected -----BEGIN PRIVATE KEY-----)")
    }

    @Test func certificateAuthUsesPKCS12ForP12FilesAndPEMOtherwiseWithNoJWT() throws {
        let p12 = try APNsProviderConfiguration(settings: try settings(
            "{certificate_file: push.p12, certificate_password: pw, topic: com.example.chat, endpoint: 'https://127.0.0.1:2197/'}"))
        #expect(p12.baseURL == "https://127.0.0.1:2197")
        guard case .pkcs12(let file, let password)? = p12.httpClientConfiguration.tls.clientCertificate else {
            Issue.record("expected PKCS#12")
            return
        }
        #expect(file == "push.p12")
        #expect(password == "pw")
        let pem = try APNsProviderConfiguration(settings: try settings("{certificate_file: push.pem, topic: com.example.chat}"))
        guard case .certificate(.pem(let certificate, let key, let keyPassword)) = pem.authentication else {
            Issue.record("expected PEM")
            return
        }
        #expect([certificate, key] == ["push.pem", "push.pem"])
        #expect(keyPassword == nil)
    }
}
