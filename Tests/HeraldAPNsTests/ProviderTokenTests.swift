import Foundation
import HeraldAPNs
import HeraldConfig
import HeraldCore
import HeraldService
import HeraldCrypto
import HeraldSystem
import HeraldTestSupport
import HeraldYAML
import Testing

@Suite struct ProviderTokenCacheTests {
    let t0 = Timestamp(seconds: 1_800_000_000)
    func token(_ value: String, at time: Timestamp) -> ProviderTokenCache.Token { .init(value: value, issuedAt: time) }

    @Test func firstRequestIssuesAndLaterOnesReuseUntilFiftyMinutes() {
        var cache = ProviderTokenCache()
        #expect(cache.tokenForRequest(at: t0) == .issue)
        cache.issued(token("A", at: t0))
        #expect(cache.tokenForRequest(at: t0 + .seconds(49 * 60 + 59)) == .use(token("A", at: t0)))
        #expect(cache.tokenForRequest(at: t0 + .seconds(50 * 60)) == .issue)
    }

    @Test func clockSteppedBackBeforeTheIssueTimeIssuesAgain() {
        var cache = ProviderTokenCache()
        cache.issued(token("A", at: t0))
        #expect(cache.tokenForRequest(at: t0 + .seconds(-1)) == .issue)
    }

    @Test func rejectionEvictsTheTokenOnce() {
        var cache = ProviderTokenCache()
        cache.issued(token("A", at: t0))
        #expect(cache.rejected("A", at: t0 + .seconds(60)) == .issueAndRetry)
        #expect(cache.current == nil)
        #expect(cache.tokenForRequest(at: t0 + .seconds(60)) == .issue)
    }

    @Test func concurrentRejectionsOfTheSameTokenShareOneRefresh() {
        var cache = ProviderTokenCache()
        cache.issued(token("A", at: t0))
        #expect(cache.rejected("A", at: t0 + .seconds(60)) == .issueAndRetry)
        cache.issued(token("B", at: t0 + .seconds(60)))
        // A second sender whose request carried A learns of B instead of issuing C.
        #expect(cache.rejected("A", at: t0 + .seconds(61)) == .retry(with: token("B", at: t0 + .seconds(60))))
    }

    @Test func secondForcedRefreshWithinTwentyMinutesGivesUp() {
        var cache = ProviderTokenCache()
        cache.issued(token("A", at: t0))
        #expect(cache.rejected("A", at: t0) == .issueAndRetry)
        cache.issued(token("B", at: t0))
        #expect(cache.rejected("B", at: t0 + .seconds(19 * 60 + 59)) == .giveUp)
        #expect(cache.current == token("B", at: t0))
        #expect(cache.rejected("B", at: t0 + .seconds(20 * 60)) == .issueAndRetry)
    }
}

@Suite struct ProviderTokenManagerTests {
    @Test func tokenIsAnES256JWTWithKidIssAndIat() throws {
        let key = try PrivateKey.generateP256()
        let clock = TestClock(Timestamp(seconds: 1_800_000_000, nanoseconds: 700_000_000))
        let manager = ProviderTokenManager(
            signer: try ProviderTokenSigner(key: key, teamID: "TEAM123456", keyID: "KEY1234567"),
            clock: { clock.read() })
        let jwt = try JSONWebToken(parsing: try manager.token())
        #expect(jwt.header == JSONObject([("alg", "ES256"), ("kid", "KEY1234567")]))
        #expect(jwt.claims == JSONObject([("iss", "TEAM123456"), ("iat", 1_800_000_000)]))
        #expect(jwt.signature.count == 64)
        #expect(jwt.verify(with: key.publicKey))
    }

    @Test func tokenIsSharedThenRefreshedAfterFiftyMinutesWithoutSleeping() throws {
        let clock = TestClock(Timestamp(seconds: 1_800_000_000))
        let manager = ProviderTokenManager(
            signer: try ProviderTokenSigner(key: try PrivateKey.generateP256(), teamID: "T", keyID: "K"),
            clock: { clock.read() })
        let first = try manager.token()
        clock.advance(by: .seconds(49 * 60))
        #expect(try manager.token() == first)
        #expect(manager.issuedCount == 1)
        clock.advance(by: .seconds(60))
        let second = try manager.token()
        #expect(second != first)
        #expect(try JSONWebToken(parsing: second).claims["iat"] == 1_800_003_000)
        #expect(manager.issuedCount == 2)
    }

    @Test func concurrentSendersShareOneToken() async throws {
        let manager = ProviderTokenManager(
            signer: try ProviderTokenSigner(key: try PrivateKey.generateP256(), teamID: "T", keyID: "K"),
            clock: { Timestamp(seconds: 1_800_000_000) })
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try manager.token() } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(tokens.count == 1)
        #expect(manager.issuedCount == 1)
    }

    @Test func rejectedTokenIsReplacedOnceThenGivenUp() throws {
        let clock = TestClock(Timestamp(seconds: 1_800_000_000))
        let manager = ProviderTokenManager(
            signer: try ProviderTokenSigner(key: try PrivateKey.generateP256(), teamID: "T", keyID: "K"),
            clock: { clock.read() })
        let first = try manager.token()
        let second = try #require(try manager.rejected(first))
        #expect(second != first)
        #expect(try manager.rejected(first) == second)
        #expect(try manager.rejected(second) == nil)
        #expect(manager.issuedCount == 2)
    }

    @Test func signerRefusesAnRSAKey() throws {
        let error = #expect(throws: APNsConfigurationError.self) {
            try ProviderTokenSigner(key: try PrivateKey.generateRSA(), teamID: "T", keyID: "K")
        }
        #expect(error?.description == "apns: the APNs signing key must be EC P-256 (a .p8 key), found RSA 2048-bit")
    }
}

@Suite struct ProviderTokenRegistryTests {
    let directory = NSTemporaryDirectory() + "herald-registry-\(UInt64.random(in: 0...UInt64.max))"

    /// Settings signing with `pem`, written to a key file.
    func settings(_ pem: String, keyID: String = "KEY1", topic: String) throws -> APNsSettings {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = directory + "/\(UInt64.random(in: 0...UInt64.max)).p8"
        try pem.write(toFile: file, atomically: true, encoding: .utf8)
        return try YAMLDocument(
            text: "{team_id: TEAM1, key_id: \(keyID), key_file: \(file), topic: \(topic)}", file: "c.yaml",
            environment: [:]
        ).decode(APNsSettings.self)
    }

    /// Apps signing with one key share one manager, hence one token; another
    /// key id is another manager; one key id with two keys is refused.
    @Test func appsOnOneKeyShareOneTokenManager() throws {
        let pem = try PrivateKey.generateP256().pkcs8PEM()
        let registry = ProviderTokenRegistry()
        func manager(_ settings: APNsSettings) throws -> ProviderTokenManager? {
            guard
                case .token(let manager) = try APNsProviderConfiguration(settings: settings, tokens: registry)
                    .authentication
            else { return nil }
            return manager
        }
        let chat = try #require(try manager(settings(pem, topic: "com.example.chat")))
        let mail = try #require(try manager(settings(pem, topic: "com.example.mail")))
        #expect(chat === mail)
        _ = try chat.token()
        _ = try mail.token()
        #expect(chat.issuedCount == 1)
        let other = try #require(try manager(settings(pem, keyID: "KEY2", topic: "com.example.chat")))
        #expect(other !== chat)
        #expect(registry.count == 2)

        let stranger = try PrivateKey.generateP256().pkcs8PEM()
        let strangerSettings = try settings(stranger, topic: "com.example.maps")
        guard case .keyFile(let strangerFile, _, _)? = strangerSettings.auth else {
            Issue.record("expected a key file"); return
        }
        #expect(
            throws: APNsConfigurationError(
                "key_file '\(strangerFile)': another app signs with team TEAM1 and key id KEY1 but a different key; one key id names one .p8 key"
            )
        ) {
            _ = try APNsProviderConfiguration(settings: strangerSettings, tokens: registry)
        }
        try? FileManager.default.removeItem(atPath: directory)
    }
}
