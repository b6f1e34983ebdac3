import Foundation
import HeraldAPNs
import HeraldConfig
import HeraldCrypto
import HeraldHTTPClient
import HeraldService
import HeraldTestSupport
import HeraldYAML
import Testing

@Suite struct ProviderConfigurationTests {
    func settings(_ yaml: String) throws -> APNsSettings {
        try YAMLDocument(text: yaml, file: "config.yaml", environment: [:]).decode(APNsSettings.self)
    }

    @Test func keyFileIsResolvedLoadedAndCaFileAndConnectionsPassToTheClient() async throws {
        let directory = NSTemporaryDirectory() + "herald-apns-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try PrivateKey.generateP256().pkcs8PEM().write(
            toFile: directory + "/AuthKey.p8", atomically: true, encoding: .utf8)
        let pki = try await TestPKI.make()
        defer { pki.remove() }
        try FileManager.default.copyItem(atPath: pki.caCertificatePath, toPath: directory + "/ca.pem")
        let configuration = try APNsProviderConfiguration(
            settings: try settings(
                """
                {team_id: TEAM123456, key_id: KEY1234567, key_file: AuthKey.p8, topic: com.example.chat,
                 environment: sandbox, ca_file: ca.pem, connections: 3, timeout: 4s}
                """),
            resolvePath: { directory + "/" + $0 })
        #expect(configuration.baseURL == "https://api.sandbox.push.apple.com")
        #expect(configuration.bundleID == "com.example.chat")
        #expect(configuration.requestTimeout == .seconds(4))
        guard case .token(let manager) = configuration.authentication else {
            Issue.record("expected token auth"); return
        }
        #expect(manager.teamID == "TEAM123456")
        #expect(manager.keyID == "KEY1234567")
        let client = configuration.httpClientConfiguration
        #expect(client.tls.caFile == directory + "/ca.pem")
        #expect(client.maxConnectionsPerHost == 3)
        #expect(client.requestTimeout == .seconds(4))
        #expect(client.tls.clientCertificate == nil)
    }

    @Test func connectionsAutoIsEachEnginesCeilingAndIdleTimeoutReachesTheClient() throws {
        let pem = try PrivateKey.generateP256().pkcs8PEM().split(separator: "\n").map { "  " + $0 }.joined(
            separator: "\n")
        func client(_ extra: String) throws -> HTTPClientConfiguration {
            try APNsProviderConfiguration(
                settings: try settings(
                    "team_id: TEAM123456\nkey_id: KEY1234567\ntopic: com.example.chat\n\(extra)key_pem: |\n\(pem)\n"
                )
            ).httpClientConfiguration
        }
        let automatic = try client("")
        #expect(automatic.maxConnectionsPerHost == 64, "auto on nghttp2: the pool opens what the waiting requests need")
        #expect(automatic.extraConnectionIdleTimeout == .seconds(60))
        #expect(
            try client("http_engine: libcurl\n").maxConnectionsPerHost == 4,
            "auto on libcurl, which opens a connection whenever the streams are busy")
        #expect(try client("connections: auto\nidle_timeout: 5s\n").extraConnectionIdleTimeout == .seconds(5))
    }

    /// `allowed_topics` adds bundle IDs (each with its push-type suffixes) to the app's own topic.
    @Test func allowedTopicsReachTheProviderAndTheRegistry() throws {
        let pem = try PrivateKey.generateP256().pkcs8PEM().split(separator: "\n").map { "  " + $0 }.joined(
            separator: "\n")
        let section = try settings(
            "team_id: TEAM123456\nkey_id: KEY1234567\ntopic: com.example.chat\n"
                + "allowed_topics: [com.example.chat.beta]\nkey_pem: |\n\(pem)\n")
        let expected = APNsTopic.allowed(bundleIDs: ["com.example.chat", "com.example.chat.beta"])
        #expect(try APNsProviderConfiguration(settings: section).allowedTopics == expected)
        #expect(section.deviceTopics == expected)
        #expect(expected.contains("com.example.chat.beta.voip"))
    }

    @Test func missingKeyFileIsNamedWithoutAnyKeyMaterial() throws {
        let error = #expect(throws: APNsConfigurationError.self) {
            try APNsProviderConfiguration(
                settings: try settings(
                    "{team_id: T, key_id: K, key_file: /nonexistent/AuthKey.p8, topic: com.example.chat}"))
        }
        #expect(error?.description == "apns: key_file '/nonexistent/AuthKey.p8' does not exist")
    }

    private func keyFileError(_ contents: [UInt8]? = nil, sparseSize: UInt64? = nil) throws -> String? {
        let path = NSTemporaryDirectory() + "herald-apns-\(UInt64.random(in: 0...UInt64.max)).p8"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(contents ?? [])))
        defer { try? FileManager.default.removeItem(atPath: path) }
        if let sparseSize {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.truncate(atOffset: sparseSize)
            try handle.close()
        }
        let error = #expect(throws: APNsConfigurationError.self) {
            try APNsProviderConfiguration(
                settings: try settings(
                    "{team_id: TEAM123456, key_id: KEY1234567, key_file: '\(path)', topic: com.example.chat}"))
        }
        return error?.description.replacingOccurrences(of: path, with: "KEY")
    }

    @Test func aKeyThatIsNotP256IsRefusedAtLoadingNotAtTheFirstSend() throws {
        let rsa = try PrivateKey.generateRSA().pkcs8PEM()
        #expect(
            try keyFileError(Array(rsa.utf8))
                == "apns: key_file 'KEY': the APNs signing key must be EC P-256 (a .p8 key), found RSA 2048-bit")
    }

    @Test func aHugeKeyFileIsRefusedBeforeItIsRead() throws {
        // 2.3 GB, sparse: refused from its size alone.
        #expect(
            try keyFileError(sparseSize: 2_300_000_000)
                == "apns: key_file 'KEY' is 2.1 GiB, over the 64 KiB limit for such a file")
    }

    @Test func garbageInPEMArmorIsRefused() throws {
        let garbage = "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n"
        let message = try keyFileError(Array(garbage.utf8)) ?? ""
        #expect(message.hasPrefix("apns: key_file 'KEY': load private key: "))
    }

    @Test func aCertificateThatCannotBeOpenedIsRefusedNamingTheFile() async throws {
        let pki = try await TestPKI.make()
        defer { pki.remove() }
        let client = try await pki.makeClientCertificate(commonName: "push")
        let error = #expect(throws: APNsConfigurationError.self) {
            try APNsProviderConfiguration(
                settings: try settings(
                    "{certificate_file: '\(client.pkcs12Path)', certificate_password: wrong, topic: com.example.chat}"))
        }
        #expect(
            error?.description.hasPrefix(
                "apns: could not open the PKCS#12 file (wrong password?) \(client.pkcs12Path): ") == true)
    }

    @Test func keyPEMThatIsNotAKeyIsReportedWithoutEchoingIt() throws {
        let error = #expect(throws: APNsConfigurationError.self) {
            try APNsProviderConfiguration(
                settings: try settings(
                    "{team_id: T, key_id: K, key_pem: 'SECRET-MATERIAL', topic: com.example.chat}"))
        }
        #expect(
            error?.description
                == "apns: key_pem: load private key: not a PEM key (expected -----BEGIN PRIVATE KEY-----)")
    }

    /// `certificate_pem` (typically `${ENV}`) is loaded as the PEM file would
    /// be, from memory: both engines read it at `/proc/self/fd/<n>`, and the
    /// start-up check loads certificate and key through the TLS library.
    @Test func certificatePEMFromTheEnvironmentIsLoadedFromMemory() async throws {
        let pki = try await TestPKI.make()
        defer { pki.remove() }
        let client = try await pki.makeClientCertificate(commonName: "push")
        let bundle =
            try String(contentsOfFile: client.certificatePath, encoding: .utf8)
            + String(contentsOfFile: client.keyPath, encoding: .utf8)
        let settings = try YAMLDocument(
            text: "{certificate_pem: '${APNS_CERT}', topic: com.example.chat}", file: "config.yaml",
            environment: ["APNS_CERT": bundle]
        ).decode(APNsSettings.self)
        #expect(settings.auth == .certificatePEM(pem: bundle, password: nil))
        #expect(settings.summary.hasPrefix("apns (certificate auth, topic com.example.chat"))
        let configuration = try APNsProviderConfiguration(settings: settings)
        guard case .certificate(.pem(let certificate, let key, let keyPassword)) = configuration.authentication else {
            Issue.record("expected a PEM identity")
            return
        }
        #expect(certificate == key && certificate.hasPrefix("/proc/self/fd/"), "\(certificate)")
        #expect(try String(contentsOfFile: certificate, encoding: .utf8) == bundle)
        #expect(keyPassword == nil)

        // A certificate without its key fails at start-up like such a file, naming no secret.
        var certificateOnly = settings
        certificateOnly.certificatePEM = try String(contentsOfFile: client.certificatePath, encoding: .utf8)
        let error = #expect(throws: APNsConfigurationError.self) {
            try APNsProviderConfiguration(settings: certificateOnly)
        }
        let certificateBody = certificateOnly.certificatePEM?.split(separator: "\n").dropFirst().first ?? "?"
        #expect(error?.description.contains(certificateBody) == false, "\(String(describing: error))")
    }

    @Test func certificateAuthUsesPKCS12ForP12FilesAndPEMOtherwiseWithNoJWT() async throws {
        let pki = try await TestPKI.make()
        defer { pki.remove() }
        let client = try await pki.makeClientCertificate(commonName: "push", pkcs12Password: "pw")
        let pemBundle = pki.directory + "/push-bundle.pem"
        let bundle =
            try String(contentsOfFile: client.certificatePath, encoding: .utf8)
            + String(contentsOfFile: client.keyPath, encoding: .utf8)
        try bundle.write(toFile: pemBundle, atomically: true, encoding: .utf8)
        let p12 = try APNsProviderConfiguration(
            settings: try settings(
                "{certificate_file: '\(client.pkcs12Path)', certificate_password: pw, topic: com.example.chat, endpoint: 'https://127.0.0.1:2197/'}"
            ))
        #expect(p12.baseURL == "https://127.0.0.1:2197")
        guard case .pkcs12(let file, let password)? = p12.httpClientConfiguration.tls.clientCertificate else {
            Issue.record("expected PKCS#12")
            return
        }
        #expect(file == client.pkcs12Path)
        #expect(password == "pw")
        let pem = try APNsProviderConfiguration(
            settings: try settings("{certificate_file: '\(pemBundle)', topic: com.example.chat}"))
        guard case .certificate(.pem(let certificate, let key, let keyPassword)) = pem.authentication else {
            Issue.record("expected PEM")
            return
        }
        #expect([certificate, key] == [pemBundle, pemBundle])
        #expect(keyPassword == nil)
    }
}
