import Foundation
import HeraldCore
import HeraldCrypto
import HeraldFCM
import HeraldSimulator
import HeraldTestSupport
import Testing

/// The RS256 assertion, checked against the `openssl` CLI in both directions:
/// the CLI verifies ours, and the simulator accepts one the CLI signed.
@Suite struct AssertionTests {
    let issuedAt = Timestamp(seconds: 1_796_032_800)

    @Test func assertionCarriesGooglesClaims() throws {
        let account = try TestKeys.account(tokenURI: "https://oauth2.googleapis.com/token")
        let jwt = try JSONWebToken(parsing: OAuthAssertion.sign(for: account, issuedAt: issuedAt))
        #expect(jwt.header == ["typ": "JWT", "kid": .string(TestKeys.keyID), "alg": "RS256"])
        #expect(
            jwt.claims == [
                "iss": .string(TestKeys.email), "scope": "https://www.googleapis.com/auth/firebase.messaging",
                "aud": "https://oauth2.googleapis.com/token", "iat": 1_796_032_800, "exp": 1_796_036_400,
            ])
    }

    @Test func formBodyIsURLEncoded() {
        #expect(
            String(decoding: OAuthAssertion.formBody(assertion: "a.b-c_d"), as: UTF8.self)
                == "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=a.b-c_d")
    }

    @Test func opensslVerifiesOurAssertion() throws {
        let account = try TestKeys.account(tokenURI: "https://oauth2.googleapis.com/token")
        let parts = try OAuthAssertion.sign(for: account, issuedAt: issuedAt).split(separator: ".").map(String.init)
        let directory = try makeTemporaryDirectory("fcm")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try TestKeys.key.get().publicKey.pem().write(toFile: directory + "/pub.pem", atomically: true, encoding: .utf8)
        try (parts[0] + "." + parts[1]).write(toFile: directory + "/input", atomically: true, encoding: .utf8)
        try Data(try #require(Base64URL.decode(parts[2]))).write(to: URL(fileURLWithPath: directory + "/sig"))
        let result = try runToolNow(
            "/usr/bin/openssl",
            [
                "dgst", "-sha256", "-verify", directory + "/pub.pem", "-signature", directory + "/sig",
                directory + "/input",
            ])
        #expect(result.status == 0)
        #expect(result.output == "Verified OK\n")
    }

    @Test func simulatorAcceptsAnAssertionSignedByOpenSSL() async throws {
        let directory = try makeTemporaryDirectory("fcm")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try TestKeys.key.get().pkcs8PEM().write(toFile: directory + "/key.pem", atomically: true, encoding: .utf8)
        // Header and claims written by hand, not by our JWT code.
        let header = #"{"alg":"RS256","typ":"JWT","kid":"\#(TestKeys.keyID)"}"#
        let claims =
            #"{"iss":"\#(TestKeys.email)","scope":"https://www.googleapis.com/auth/firebase.messaging","aud":"https://127.0.0.1:2197/token","iat":1796032800,"exp":1796036400}"#
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        try input.write(toFile: directory + "/input", atomically: true, encoding: .utf8)
        let signed = try runToolNow(
            "/usr/bin/openssl",
            ["dgst", "-sha256", "-sign", directory + "/key.pem", "-out", directory + "/sig", directory + "/input"])
        #expect(signed.status == 0, "\(signed.output)")
        let signature = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/sig")))
        let assertion = input + "." + Base64URL.encode(signature)

        let tokens = SimulatedAccessTokens()
        let service = OAuthSimulatorService(
            settings: OAuthSimulatorSettings(
                accounts: [try TestKeys.simulatedAccount()], audience: "https://127.0.0.1:2197/token"),
            tokens: tokens)
        let answer = service.handle(
            SimulatedRequest(
                method: "POST", path: "/token", headers: [("content-type", "application/x-www-form-urlencoded")],
                body: OAuthAssertion.formBody(assertion: assertion), receivedAt: issuedAt + .seconds(5)))
        guard case .respond(200, _, let body, nil) = answer else {
            Issue.record("expected 200, got \(answer)")
            return
        }
        let json = try JSONValue.parse(body)
        #expect(json["expires_in"] == 3600)
        #expect(json["token_type"] == "Bearer")
        let token = try #require(json["access_token"]?.stringValue)
        #expect(tokens.grant(for: token, at: issuedAt + .seconds(5))?.clientEmail == TestKeys.email)
        #expect(tokens.grant(for: token, at: issuedAt + .seconds(3605)) == nil, "expired an hour after issue")
    }
}
