import Foundation
import HeraldCore
import HeraldCrypto
import HeraldTestSupport
import Testing

@Suite struct SigningTests {
    @Test func es256SignatureIsRawRAndSVerifiedByOpenSSLCommandLine() throws {
        let dir = try OpenSSLCommandLine.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let key = try PrivateKey.generateP256()
        #expect(key.kind == .ecP256)
        try key.publicKey.pem().write(to: dir.appendingPathComponent("pub.pem"), atomically: true, encoding: .utf8)
        let message = Array("eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJBQkNERTEyMzQ1In0".utf8)
        for _ in 0..<20 {  // several signatures: r or s with a leading zero byte must still be 32 bytes
            let signature = try key.sign(message)
            #expect(signature.count == 64)
            try Data(OpenSSLCommandLine.derFromJOSE(signature)).write(to: dir.appendingPathComponent("sig.der"))
            let result = try OpenSSLCommandLine.run(
                [
                    "dgst", "-sha256", "-verify", dir.appendingPathComponent("pub.pem").path,
                    "-signature", dir.appendingPathComponent("sig.der").path,
                ], input: Data(message))
            #expect(result.status == 0, "openssl rejected our ES256 signature")
        }
    }

    @Test func signatureMadeByOpenSSLCommandLineVerifiesWithUs() throws {
        let dir = try OpenSSLCommandLine.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let keyPath = dir.appendingPathComponent("key.p8").path
        try OpenSSLCommandLine.run([
            "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", keyPath,
        ])
        let pem = try String(contentsOfFile: keyPath, encoding: .utf8)
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))  // the .p8 format
        let message = Data("header.claims".utf8)
        let signed = try OpenSSLCommandLine.run(["dgst", "-sha256", "-sign", keyPath], input: message)
        #expect(signed.status == 0)
        let jose = try OpenSSLCommandLine.joseFromDER(Array(signed.output))
        let publicKey = try PublicKey(pem: pem)
        #expect(publicKey.verify(signature: jose, for: Array(message)))
        #expect(!publicKey.verify(signature: jose, for: Array("other".utf8)))
        #expect(
            !publicKey.verify(signature: Array(signed.output), for: Array(message)),
            "a DER signature must be refused, as APNs refuses it")
    }

    @Test func rs256InteroperatesWithOpenSSLCommandLine() throws {
        let dir = try OpenSSLCommandLine.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let key = try PrivateKey.generateRSA(bits: 2048)
        #expect(key.kind == .rsa(bits: 2048))
        try key.publicKey.pem().write(to: dir.appendingPathComponent("pub.pem"), atomically: true, encoding: .utf8)
        let message = Array("assertion".utf8)
        try Data(try key.sign(message)).write(to: dir.appendingPathComponent("sig"))
        let result = try OpenSSLCommandLine.run(
            [
                "dgst", "-sha256", "-verify", dir.appendingPathComponent("pub.pem").path,
                "-signature", dir.appendingPathComponent("sig").path,
            ], input: Data(message))
        #expect(result.status == 0)
    }

    @Test func pkcs8RoundTripAndTraditionalPEMLoad() throws {
        let key = try PrivateKey.generateP256()
        let pem = try key.pkcs8PEM()
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let reloaded = try PrivateKey(pem: pem)
        let message = Array("m".utf8)
        #expect(key.publicKey.verify(signature: try reloaded.sign(message), for: message))
    }

    @Test func badKeysGiveClearErrors() {
        #expect(throws: CryptoError("load private key", "not a PEM key (expected -----BEGIN PRIVATE KEY-----)")) {
            try PrivateKey(pem: "hello")
        }
        #expect(throws: CryptoError("load private key", "the key is encrypted; give an unencrypted PKCS#8 key")) {
            try PrivateKey(pem: "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIB\n-----END ENCRYPTED PRIVATE KEY-----\n")
        }
        do {
            _ = try PrivateKey(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
            Issue.record("a garbage key loaded")
        } catch {
            #expect(error.operation == "load private key")
            #expect(!error.detail.isEmpty)
            #expect(!error.detail.contains("AAAA"), "key material must not reach error messages")
        }
    }
}
