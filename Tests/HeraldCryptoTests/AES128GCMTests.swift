import HeraldCrypto
import Testing

@Suite struct AES128GCMTests {
    /// Test cases 1 and 2 of the GCM specification (McGrew and Viega): zero key and nonce.
    @Test func gcmSpecificationVectors() throws {
        let key = [UInt8](repeating: 0, count: 16)
        let nonce = [UInt8](repeating: 0, count: 12)
        #expect(try AES128GCM.encrypt([], key: key, nonce: nonce) == Hex.bytes("58e2fccefa7e3061367f1d57a4e7455a"))
        let sealed = try AES128GCM.encrypt([UInt8](repeating: 0, count: 16), key: key, nonce: nonce)
        #expect(sealed == Hex.bytes("0388dace60b6a392f328c2b971b2fe78" + "ab6e47d42cec13bdf53a67b21257bddf"))
        #expect(try AES128GCM.decrypt(sealed, key: key, nonce: nonce) == [UInt8](repeating: 0, count: 16))
    }

    @Test func roundTripAppendsTheTag() throws {
        let key = try SecureRandom.bytes(16)
        let nonce = try SecureRandom.bytes(12)
        for length in [0, 1, 15, 16, 17, 4000] {
            let plaintext = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let sealed = try AES128GCM.encrypt(plaintext, key: key, nonce: nonce)
            #expect(sealed.count == length + AES128GCM.tagSize)
            #expect(try AES128GCM.decrypt(sealed, key: key, nonce: nonce) == plaintext)
        }
    }

    @Test func alteredBytesOrWrongKeyFailTheTagCheck() throws {
        let key = try SecureRandom.bytes(16)
        let nonce = try SecureRandom.bytes(12)
        let sealed = try AES128GCM.encrypt(Array("hello, browser".utf8), key: key, nonce: nonce)
        var badTag = sealed
        badTag[badTag.count - 1] ^= 0x01
        #expect(throws: AES128GCM.authenticationFailed) { try AES128GCM.decrypt(badTag, key: key, nonce: nonce) }
        var badCiphertext = sealed
        badCiphertext[0] ^= 0x80
        #expect(throws: AES128GCM.authenticationFailed) { try AES128GCM.decrypt(badCiphertext, key: key, nonce: nonce) }
        var otherKey = key
        otherKey[0] ^= 0xFF
        #expect(throws: AES128GCM.authenticationFailed) { try AES128GCM.decrypt(sealed, key: otherKey, nonce: nonce) }
        #expect(AES128GCM.authenticationFailed.description.contains("authentication tag does not match"))
    }

    @Test func wrongSizesAreRefusedWithTheirReason() {
        let nonce = [UInt8](repeating: 0, count: 12)
        #expect(throws: CryptoError("encrypt AES-128-GCM", "the key has 32 bytes, expected 16")) {
            try AES128GCM.encrypt([1], key: [UInt8](repeating: 0, count: 32), nonce: nonce)
        }
        #expect(throws: CryptoError("decrypt AES-128-GCM", "the nonce has 16 bytes, expected 12")) {
            try AES128GCM.decrypt(
                [UInt8](repeating: 0, count: 20), key: [UInt8](repeating: 0, count: 16),
                nonce: [UInt8](repeating: 0, count: 16))
        }
        #expect(throws: CryptoError("decrypt AES-128-GCM", "15 bytes cannot hold the 16-byte tag")) {
            try AES128GCM.decrypt([UInt8](repeating: 0, count: 15), key: [UInt8](repeating: 0, count: 16), nonce: nonce)
        }
    }
}
