import Foundation
import HeraldCore
import HeraldCrypto
import HeraldTestSupport
import Testing

@Suite struct P256KeyAgreementTests {
    /// The user agent's key pair of RFC 8291 Appendix A.
    static let rfc8291Scalar = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
    static let rfc8291Point = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"

    static func decode(_ text: String) throws -> [UInt8] {
        try #require(Base64URL.decode(text))
    }

    @Test func rawScalarGivesTheRFCsPublicPoint() throws {
        let key = try PrivateKey(rawP256Scalar: Self.decode(Self.rfc8291Scalar))
        #expect(key.kind == .ecP256)
        #expect(try key.publicKey.uncompressedP256() == Self.decode(Self.rfc8291Point))
        #expect(try key.rawP256Scalar() == Self.decode(Self.rfc8291Scalar))
    }

    @Test func pointAndScalarRoundTrip() throws {
        let key = try PrivateKey.generateP256()
        let point = try key.publicKey.uncompressedP256()
        #expect(point.count == 65 && point[0] == 0x04)
        #expect(try PublicKey(uncompressedP256: point).uncompressedP256() == point)
        let reloaded = try PrivateKey(rawP256Scalar: key.rawP256Scalar())
        #expect(try reloaded.publicKey.uncompressedP256() == point)
    }

    @Test func badPointsAreRefusedWithWhatIsWrong() throws {
        let point = try PrivateKey.generateP256().publicKey.uncompressedP256()
        #expect(throws: CryptoError("load P-256 public key", "expected 65 bytes (0x04‖X‖Y), found 64")) {
            try PublicKey(uncompressedP256: Array(point.dropLast()))
        }
        #expect(throws: CryptoError("load P-256 public key", "expected 65 bytes (0x04‖X‖Y), found 33")) {
            try PublicKey(uncompressedP256: [0x02] + Array(point[1...32]))  // the compressed form
        }
        #expect(
            throws: CryptoError("load P-256 public key", "expected the uncompressed form (first byte 0x04), found 0x02")
        ) {
            try PublicKey(uncompressedP256: [0x02] + point.dropFirst())
        }
        var offCurve = point
        offCurve[64] ^= 0x01  // Y no longer matches X
        #expect(throws: CryptoError("load P-256 public key", "the point is not on the P-256 curve")) {
            try PublicKey(uncompressedP256: offCurve)
        }
        #expect(throws: CryptoError("load P-256 public key", "the point is not on the P-256 curve")) {
            try PublicKey(uncompressedP256: [0x04] + [UInt8](repeating: 0xFF, count: 64))  // coordinates above the field prime
        }
    }

    @Test func badScalarsAreRefused() {
        #expect(throws: CryptoError("load P-256 private key", "expected a 32-byte scalar, found 31 bytes")) {
            try PrivateKey(rawP256Scalar: [UInt8](repeating: 1, count: 31))
        }
        let outOfRange = CryptoError(
            "load P-256 private key", "the scalar is not a valid P-256 private key (zero, or not below the group order)"
        )
        #expect(throws: outOfRange) { try PrivateKey(rawP256Scalar: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: outOfRange) { try PrivateKey(rawP256Scalar: [UInt8](repeating: 0xFF, count: 32)) }
    }

    @Test func sharedSecretIsTheSameBothWays() throws {
        let alice = try PrivateKey.generateP256()
        let bob = try PrivateKey.generateP256()
        let fromAlice = try alice.sharedSecret(with: bob.publicKey)
        let fromBob = try bob.sharedSecret(with: PublicKey(uncompressedP256: alice.publicKey.uncompressedP256()))
        #expect(fromAlice.count == 32)
        #expect(fromAlice == fromBob)
        #expect(try alice.sharedSecret(with: PrivateKey.generateP256().publicKey) != fromAlice)
    }

    @Test func sharedSecretMatchesOpenSSLCommandLine() throws {
        let dir = try OpenSSLCommandLine.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ours = try PrivateKey.generateP256()
        let peer = try PrivateKey.generateP256()
        let keyPath = dir.appendingPathComponent("ours.p8").path
        let peerPath = dir.appendingPathComponent("peer.pem").path
        try ours.pkcs8PEM().write(toFile: keyPath, atomically: true, encoding: .utf8)
        try peer.publicKey.pem().write(toFile: peerPath, atomically: true, encoding: .utf8)
        let result = try OpenSSLCommandLine.run(["pkeyutl", "-derive", "-inkey", keyPath, "-peerkey", peerPath])
        #expect(result.status == 0)
        #expect(Array(result.output) == (try ours.sharedSecret(with: peer.publicKey)))
    }

    @Test func sharedSecretNeedsP256OnBothSides() throws {
        let rsa = try PrivateKey.generateRSA(bits: 1024)
        let p256 = try PrivateKey.generateP256()
        #expect(throws: CryptoError("derive ECDH shared secret", "the peer's key is RSA 1024-bit, not EC P-256")) {
            try p256.sharedSecret(with: rsa.publicKey)
        }
        #expect(throws: CryptoError("derive ECDH shared secret", "the private key is RSA 1024-bit, not EC P-256")) {
            try rsa.sharedSecret(with: p256.publicKey)
        }
    }
}
