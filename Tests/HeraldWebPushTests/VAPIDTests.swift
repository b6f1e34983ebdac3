import Dispatch
import HeraldCore
import HeraldCrypto
import HeraldSystem
import HeraldWebPush
import Testing

@Suite struct VAPIDTests {
    static let origin = "https://push.example.net"
    static let start = Timestamp(seconds: 1_800_000_000)

    /// A cache whose clock the test moves by hand, through `clock`.
    static func cache(capacity: Int = 1024) throws -> (VAPIDTokenCache, clock: Locked<Timestamp>) {
        let clock = Locked(start)
        return (try VAPIDTokenCache(signer: signer(), capacity: capacity, clock: { clock.withLock { $0 } }), clock)
    }

    static func signer(_ subject: String = "mailto:push@example.com") throws -> VAPIDSigner {
        try VAPIDSigner(key: PrivateKey.generateP256(), subject: VAPIDSubject(subject))
    }

    @Test func tokenAndHeaderHaveRFC8292sShape() throws {
        let signer = try Self.signer()
        let token = try signer.token(audience: Self.origin, expiresAt: Self.start + .seconds(3600))
        let header = signer.authorization(token: token)
        #expect(header == "vapid t=\(token), k=\(signer.publicKey)")
        let parsed = try JSONWebToken(parsing: token)
        #expect(parsed.header.keys == ["typ", "alg"])
        #expect(JSONValue.object(parsed.header).jsonString == #"{"typ":"JWT","alg":"ES256"}"#)
        #expect(
            JSONValue.object(parsed.claims).jsonString
                == #"{"aud":"https://push.example.net","exp":1800003600,"sub":"mailto:push@example.com"}"#)
        #expect(parsed.signature.count == 64, "ES256 signatures are raw r‖s")
        #expect(try unbase64(signer.publicKey).count == 65)
    }

    @Test func verifierAcceptsOurHeaderAndReturnsTheClaims() throws {
        let signer = try Self.signer("https://sender.example.com/contact")
        let token = try signer.token(audience: Self.origin, expiresAt: Self.start + .seconds(12 * 3600))
        let header = signer.authorization(token: token)
        let authorization = try VAPIDAuthorization(parsing: header)
        let claims = try authorization.verify(
            origin: Self.origin, now: Self.start, expectedPublicKey: unbase64(signer.publicKey))
        #expect(
            claims
                == VAPIDClaims(
                    audience: Self.origin, expiresAt: Self.start + .seconds(12 * 3600),
                    subject: "https://sender.example.com/contact"))
        // py_vapid's spelling: no space after the comma, k first is fine too.
        let compact = "VAPID k=\(signer.publicKey),t=\(token)"
        #expect(try VAPIDAuthorization(parsing: compact).verify(origin: Self.origin, now: Self.start) == claims)
    }

    @Test func verifierChecksAudienceExpiryKeyAndSignature() throws {
        let signer = try Self.signer()
        let expiry = Self.start + .seconds(3600)
        let header = signer.authorization(token: try signer.token(audience: Self.origin, expiresAt: expiry))
        let authorization = try VAPIDAuthorization(parsing: header)
        #expect(throws: VAPIDError.wrongAudience(expected: "https://other.example.net", found: Self.origin)) {
            try authorization.verify(origin: "https://other.example.net", now: Self.start)
        }
        #expect(throws: VAPIDError.badExpiry("exp \(expiry) is not after now (\(expiry))")) {
            try authorization.verify(origin: Self.origin, now: expiry)
        }
        #expect(throws: VAPIDError.badExpiry("exp is 86401 s ahead, more than the 24 hours RFC 8292 allows")) {
            try authorization.verify(origin: Self.origin, now: expiry + .seconds(-86401))
        }
        #expect(throws: VAPIDError.unexpectedKey) {
            try authorization.verify(
                origin: Self.origin, now: Self.start, expectedPublicKey: unbase64(try Self.signer().publicKey))
        }
        // A token signed by another key, presented with this signer's k.
        let other = try Self.signer()
        let forged = "vapid t=\(try other.token(audience: Self.origin, expiresAt: expiry)), k=\(signer.publicKey)"
        #expect(throws: VAPIDError.badSignature) {
            try VAPIDAuthorization(parsing: forged).verify(origin: Self.origin, now: Self.start)
        }
    }

    @Test func verifierRequiresES256AndTheClaims() throws {
        let key = try PrivateKey.generateP256()
        let k = base64(try key.publicKey.uncompressedP256())
        func header(_ claims: JSONObject) throws -> String {
            "vapid t=\(try JSONWebToken.sign(header: ["typ": "JWT"], claims: claims, with: key)), k=\(k)"
        }
        let exp = JSONValue.number(JSONNumber(Int(Self.start.seconds) + 60))
        func verify(_ claims: JSONObject) throws -> VAPIDClaims {
            try VAPIDAuthorization(parsing: try header(claims)).verify(origin: Self.origin, now: Self.start)
        }
        #expect(throws: VAPIDError.invalidToken("has no sub claim (a mailto: or https: contact)")) {
            try verify(["aud": .string(Self.origin), "exp": exp])
        }
        #expect(throws: VAPIDError.invalidToken("has no exp claim (whole seconds)")) {
            try verify(["aud": .string(Self.origin), "sub": "mailto:a@example.com"])
        }
        #expect(throws: VAPIDError.invalidToken("has no aud claim (a string)")) {
            try verify(["exp": exp, "sub": "mailto:a@example.com"])
        }
        let rsa = try PrivateKey.generateRSA(bits: 1024)
        let rs256 = try JSONWebToken.sign(
            header: [:], claims: ["aud": .string(Self.origin), "exp": exp, "sub": "mailto:a@example.com"], with: rsa)
        #expect(throws: VAPIDError.invalidToken("alg is \"RS256\"; VAPID tokens are ES256")) {
            try VAPIDAuthorization(parsing: "vapid t=\(rs256), k=\(k)").verify(origin: Self.origin, now: Self.start)
        }
    }

    @Test func malformedHeadersAreRefusedWithWhatIsWrong() throws {
        let signer = try Self.signer()
        let token = try signer.token(audience: Self.origin, expiresAt: Self.start + .seconds(60))
        let expected = "expected \"vapid t=<JWT>, k=<base64url P-256 key>\""
        #expect(throws: VAPIDError.malformedHeader("the scheme is \"WebPush\"; \(expected)")) {
            try VAPIDAuthorization(parsing: "WebPush \(token)")
        }
        #expect(throws: VAPIDError.malformedHeader("no parameters; \(expected)")) {
            try VAPIDAuthorization(parsing: "vapid")
        }
        #expect(throws: VAPIDError.malformedHeader("no k= (the public key); \(expected)")) {
            try VAPIDAuthorization(parsing: "vapid t=\(token)")
        }
        #expect(throws: VAPIDError.malformedHeader("t= appears twice")) {
            try VAPIDAuthorization(parsing: "vapid t=\(token), t=\(token), k=\(signer.publicKey)")
        }
        #expect(throws: VAPIDError.invalidKey("k is not a P-256 public key: expected 65 bytes (0x04‖X‖Y), found 3")) {
            try VAPIDAuthorization(parsing: "vapid t=\(token), k=AAAA")
        }
        #expect(throws: VAPIDError.invalidToken("expected 3 dot-separated parts, found 1")) {
            try VAPIDAuthorization(parsing: "vapid t=abc, k=\(signer.publicKey)")
        }
    }

    @Test func subjectsPushServicesRefuseAreRefusedUpFront() throws {
        for good in [
            "mailto:push@example.com", "https://example.com", "https://example.com/contact",
            "mailto:ops+push@mail.example.co.uk",
        ] {
            #expect(try VAPIDSubject(good).value == good)
        }
        func problem(_ subject: String) -> String {
            do {
                _ = try VAPIDSubject(subject)
                return "accepted"
            } catch {
                return error.description
            }
        }
        #expect(
            problem("push@example.com") == "VAPID subject \"push@example.com\" must be a mailto: or https: URI "
                + "(e.g. mailto:push@example.com); Apple's push service refuses anything else (BadJwtToken)")
        #expect(problem("http://example.com").contains("must be a mailto: or https: URI"))
        #expect(problem("mailto:") == "VAPID subject \"mailto:\" has no address after mailto:")
        #expect(
            problem("mailto: push@example.com")
                == "VAPID subject \"mailto: push@example.com\" must be mailto: directly followed by an address, without spaces or <>"
        )
        #expect(problem("mailto:<push@example.com>").contains("without spaces or <>"))
        #expect(
            problem("mailto:mailto:push@example.com")
                == "VAPID subject \"mailto:mailto:push@example.com\" is not mailto:name@domain.example")
        #expect(
            problem("mailto:push@example") == "VAPID subject \"mailto:push@example\" is not mailto:name@domain.example")
        #expect(
            problem("mailto:push@localhost")
                == "VAPID subject \"mailto:push@localhost\" names a local domain, which Apple's push service refuses (BadJwtToken)"
        )
        #expect(problem("mailto:push@printer.local").contains("names a local domain"))
        #expect(
            problem("https://localhost:8080")
                == "VAPID subject \"https://localhost:8080\" names a local host, which Apple's push service refuses (BadJwtToken)"
        )
        #expect(problem("https://127.0.0.1/x").contains("names a local host"))
        #expect(problem("https://") == "VAPID subject \"https://\" has no host")
    }

    @Test func cacheReusesATokenPerOriginUntilAnHourIsLeft() throws {
        let (cache, clock) = try Self.cache()
        let first = try cache.authorization(for: Self.origin)
        let claims = try VAPIDAuthorization(parsing: first).verify(origin: Self.origin, now: Self.start)
        #expect(claims.expiresAt == Self.start + .seconds(12 * 3600), "12 hours by default")
        let other = try cache.authorization(for: "https://fcm.googleapis.com")
        #expect(other != first)
        #expect(cache.signedCount == 2)

        clock.withLock { $0 = $0 + .seconds(11 * 3600 - 1) }  // 1 h 1 s left
        #expect(try cache.authorization(for: Self.origin) == first)
        #expect(cache.signedCount == 2)

        clock.withLock { $0 = $0 + .seconds(1) }  // exactly 1 h left: refreshed
        let second = try cache.authorization(for: Self.origin)
        #expect(second != first)
        #expect(cache.signedCount == 3)
        let renewed = try VAPIDAuthorization(parsing: second).verify(origin: Self.origin, now: clock.withLock { $0 })
        #expect(renewed.expiresAt == clock.withLock { $0 } + .seconds(12 * 3600))
        #expect(try cache.authorization(for: Self.origin) == second)
    }

    @Test func cacheRefreshesWhenTheClockStepsBack() throws {
        let (cache, clock) = try Self.cache()
        let first = try cache.authorization(for: Self.origin)
        clock.withLock { $0 = $0 + .seconds(-60) }  // the cached token would now be valid for 12 h 1 min
        let second = try cache.authorization(for: Self.origin)
        #expect(second != first)
        #expect(
            try VAPIDAuthorization(parsing: second).verify(origin: Self.origin, now: clock.withLock { $0 }).expiresAt
                == clock.withLock { $0 } + .seconds(12 * 3600))
    }

    @Test func cacheLimitsItsLifetimeAndSize() throws {
        let signer = try Self.signer()
        #expect(throws: VAPIDError.invalidLifetime("86401 s is more than the 86400 s (24 h) RFC 8292 allows")) {
            try VAPIDTokenCache(signer: signer, lifetime: .seconds(86401))
        }
        #expect(
            throws: VAPIDError.invalidLifetime(
                "the refresh margin of 3600 s must be at least 0 and shorter than the lifetime of 3600 s")
        ) {
            try VAPIDTokenCache(signer: signer, lifetime: .seconds(3600))
        }
        let (cache, clock) = try Self.cache(capacity: 2)
        let a = try cache.authorization(for: "https://a.example")
        clock.withLock { $0 = $0 + .seconds(1) }
        _ = try cache.authorization(for: "https://b.example")
        _ = try cache.authorization(for: "https://c.example")  // evicts a, the first to expire
        #expect(cache.signedCount == 3)
        _ = try cache.authorization(for: "https://b.example")
        #expect(cache.signedCount == 3)
        #expect(try cache.authorization(for: "https://a.example") != a)
        #expect(cache.signedCount == 4)
    }

    @Test func concurrentSendersShareOneToken() throws {
        let cache = try VAPIDTokenCache(signer: Self.signer(), clock: { Self.start })
        let headers = Locked<Set<String>>([])
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            if let header = try? cache.authorization(for: Self.origin) { headers.withLock { _ = $0.insert(header) } }
        }
        #expect(headers.withLock { $0.count } == 1)
        #expect(cache.signedCount == 1)
    }
}
