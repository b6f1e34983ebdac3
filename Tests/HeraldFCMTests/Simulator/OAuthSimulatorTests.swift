import HeraldCore
import HeraldCrypto
import HeraldFCM
import HeraldSimulator
import Testing

/// The simulated token endpoint, called directly (no sockets).
@Suite struct OAuthSimulatorTests {
    let now = Timestamp(seconds: 1_796_032_800)
    let audience = "https://127.0.0.1:2197/token"

    func service() throws -> OAuthSimulatorService {
        OAuthSimulatorService(
            settings: OAuthSimulatorSettings(accounts: [try TestKeys.simulatedAccount()], audience: audience),
            tokens: SimulatedAccessTokens())
    }

    func post(_ body: String, at time: Timestamp? = nil) async throws -> ReadAnswer {
        ReadAnswer(
            try service().handle(
                SimulatedRequest(method: "POST", path: "/token", body: Array(body.utf8), receivedAt: time ?? now)))
    }

    /// An assertion signed with the test key, with `edit` applied to the standard header and claims.
    func assertion(key: PrivateKey? = nil, edit: (inout JSONObject, inout JSONObject) -> Void = { _, _ in }) throws
        -> String
    {
        let account = try TestKeys.account(tokenURI: audience)
        var header = OAuthAssertion.header(for: account)
        var claims = OAuthAssertion.claims(for: account, issuedAt: now)
        edit(&header, &claims)
        return try JSONWebToken.sign(header: header, claims: claims, with: key ?? TestKeys.key.get())
    }

    func form(_ assertion: String) -> String {
        String(decoding: OAuthAssertion.formBody(assertion: assertion), as: UTF8.self)
    }

    @Test func validAssertionGetsABearerToken() async throws {
        let answer = try await post(form(assertion()))
        #expect(answer.status == 200)
        #expect(answer.json?["token_type"] == "Bearer")
        #expect(answer.json?["expires_in"] == 3600)
        #expect(answer.json?["access_token"]?.stringValue?.hasPrefix("ya29.sim-") == true)
    }

    @Test func refusalsUseGooglesErrorShape() async throws {
        let timeframe =
            "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim."
        let cases: [(String, Int, String, String)] = [
            (form(try assertion(key: PrivateKey.generateRSA())), 400, "invalid_grant", "Invalid JWT Signature."),
            (
                form(try assertion { header, _ in header["kid"] = "other-key" }), 400, "invalid_grant",
                "Invalid JWT Signature."
            ),
            (
                form(try assertion { _, claims in claims["iss"] = "nobody@x.iam.gserviceaccount.com" }), 401,
                "invalid_client", "The OAuth client was not found."
            ),
            (
                form(try assertion { _, claims in claims["aud"] = "https://oauth2.googleapis.com/token" }), 400,
                "invalid_grant",
                "Invalid JWT: Failed audience check. The right audience is https://127.0.0.1:2197/token."
            ),
            (
                form(try assertion { _, claims in claims["scope"] = "" }), 400, "invalid_scope",
                "Invalid OAuth scope or ID token audience provided."
            ),
            (form(try assertion { _, claims in claims["exp"] = 1_796_036_401 }), 400, "invalid_grant", timeframe),
            (
                form(
                    try assertion { _, claims in
                        claims["iat"] = 1_796_032_900; claims["exp"] = 1_796_036_500
                    }), 400, "invalid_grant", timeframe
            ),
            (
                form(
                    try assertion { _, claims in
                        claims["iat"] = 1_796_025_000; claims["exp"] = 1_796_028_600
                    }), 400, "invalid_grant", timeframe
            ),
            (
                form(try assertion(key: PrivateKey.generateP256())), 400, "invalid_grant",
                "Invalid JWT: alg must be RS256, found ES256"
            ),
            (
                "grant_type=client_credentials&assertion=x", 400, "unsupported_grant_type",
                "Invalid grant_type: client_credentials"
            ),
            (
                "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer", 400, "invalid_request",
                "Missing required parameter: assertion"
            ),
            (form("not-a-jwt"), 400, "invalid_grant", "Invalid JWT: expected 3 dot-separated parts, found 1"),
        ]
        for (body, status, error, description) in cases {
            let answer = try await post(body)
            #expect(answer.status == status, "\(description)")
            #expect(answer.json == ["error": .string(error), "error_description": .string(description)])
        }
    }

    /// The token endpoint grants what is asked for (firebase-admin asks for
    /// cloud-platform, firebase, datastore, ...); `messages:send` checks the token.
    @Test func anyScopeIsGrantedAndTheTokenCarriesIt() async throws {
        let scopes = "https://www.googleapis.com/auth/cloud-platform https://www.googleapis.com/auth/userinfo.email"
        let tokens = SimulatedAccessTokens()
        let service = OAuthSimulatorService(
            settings: OAuthSimulatorSettings(accounts: [try TestKeys.simulatedAccount()], audience: audience),
            tokens: tokens)
        let body = form(try assertion { _, claims in claims["scope"] = .string(scopes) })
        let answer = ReadAnswer(
            service.handle(SimulatedRequest(method: "POST", path: "/token", body: Array(body.utf8), receivedAt: now)))
        #expect(answer.status == 200)
        let token = try #require(answer.json?["access_token"]?.stringValue)
        #expect(
            tokens.grant(for: token, at: now)?.scopes
                == ["https://www.googleapis.com/auth/cloud-platform", "https://www.googleapis.com/auth/userinfo.email"])
    }

    @Test func assertionsAreAcceptedWithinAMinuteOfClockSkew() async throws {
        #expect(try await post(form(assertion()), at: now - .seconds(60)).status == 200)
        #expect(try await post(form(assertion()), at: now + .seconds(3660)).status == 200)
        #expect(try await post(form(assertion()), at: now + .seconds(3661)).status == 400)
    }
}

extension Timestamp {
    static func - (lhs: Timestamp, rhs: Duration) -> Timestamp { lhs + (.zero - rhs) }
}
