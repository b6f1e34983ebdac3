import HeraldCore
import HeraldCrypto
import Testing

@Suite struct JSONWebTokenTests {
    @Test func apnsProviderTokenHasAppleShape() throws {
        let key = try PrivateKey.generateP256()
        let token = try JSONWebToken.sign(
            header: ["kid": "KEY1234567"], claims: ["iss": "ABCDE12345", "iat": 1_796_032_800], with: key)
        let parts = token.split(separator: ".")
        #expect(parts.count == 3)
        #expect(!token.contains("="), "base64url has no padding")
        let jwt = try JSONWebToken(parsing: token)
        #expect(jwt.header == ["kid": "KEY1234567", "alg": "ES256"])
        #expect(jwt.claims["iss"] == "ABCDE12345")
        #expect(jwt.claims["iat"]?.intValue == 1_796_032_800)
        #expect(jwt.signature.count == 64)
        #expect(jwt.verify(with: key.publicKey))
        #expect(!jwt.verify(with: try PrivateKey.generateP256().publicKey))
    }

    @Test func tamperedClaimsDoNotVerify() throws {
        let key = try PrivateKey.generateRSA()
        let token = try JSONWebToken.sign(header: ["kid": "k1", "typ": "JWT"], claims: ["iss": "a@b"], with: key)
        let parts = token.split(separator: ".").map(String.init)
        let forged = parts[0] + "." + Base64URL.encode(Array(#"{"iss":"evil@b"}"#.utf8)) + "." + parts[2]
        #expect(try JSONWebToken(parsing: token).verify(with: key.publicKey))
        #expect(try !JSONWebToken(parsing: forged).verify(with: key.publicKey))
    }

    @Test func algorithmMustMatchTheKey() throws {
        let rsa = try PrivateKey.generateRSA()
        let token = try JSONWebToken.sign(header: [:], claims: ["iss": "x"], with: rsa)
        #expect(try JSONWebToken(parsing: token).algorithm == "RS256")
        #expect(try !JSONWebToken(parsing: token).verify(with: PrivateKey.generateP256().publicKey))
        let unsigned =
            Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + Base64URL.encode(Array("{}".utf8)) + ".AA"
        #expect(try !JSONWebToken(parsing: unsigned).verify(with: rsa.publicKey))
    }

    @Test func malformedTokensAreNamed() {
        #expect(throws: JWTError("expected 3 dot-separated parts, found 2")) { try JSONWebToken(parsing: "a.b") }
        #expect(throws: JWTError("the header is not base64url")) { try JSONWebToken(parsing: "a*.b.c") }
        #expect(throws: JWTError("the header is not a JSON object")) {
            try JSONWebToken(parsing: Base64URL.encode(Array("[1]".utf8)) + ".e30.AA")
        }
    }

    @Test func base64URLRoundTrips() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(($0 * 37 + 11) & 0xFF) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
        #expect(Base64URL.encode(Array("\u{FB}\u{FF}".utf8)) == "w7vDvw")
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("ab$c") == nil)
    }
}
