import HeraldCrypto
import Testing

@Suite struct HKDFSHA256Tests {
    /// RFC 5869 Appendix A.1 (test case 1): SHA-256, salt and info given.
    @Test func rfc5869TestCase1() throws {
        let ikm = [UInt8](repeating: 0x0B, count: 22)
        let salt = Hex.bytes("000102030405060708090a0b0c")
        let info = Hex.bytes("f0f1f2f3f4f5f6f7f8f9")
        let prk = try HKDFSHA256.extract(salt: salt, inputKeyMaterial: ikm)
        #expect(prk == Hex.bytes("077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5"))
        let okm = Hex.bytes("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
        #expect(try HKDFSHA256.expand(pseudorandomKey: prk, info: info, length: 42) == okm)
        #expect(try HKDFSHA256.deriveKey(salt: salt, inputKeyMaterial: ikm, info: info, length: 42) == okm)
    }

    /// RFC 5869 Appendix A.3 (test case 3): an empty salt stands for zeros, and info is empty.
    @Test func rfc5869TestCase3EmptySaltAndInfo() throws {
        let ikm = [UInt8](repeating: 0x0B, count: 22)
        let prk = try HKDFSHA256.extract(salt: [], inputKeyMaterial: ikm)
        #expect(prk == Hex.bytes("19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04"))
        let okm = Hex.bytes("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8")
        #expect(try HKDFSHA256.expand(pseudorandomKey: prk, info: [], length: 42) == okm)
        #expect(try HKDFSHA256.deriveKey(salt: [], inputKeyMaterial: ikm, info: [], length: 42) == okm)
    }

    @Test func impossibleRequestsAreRefusedWithTheirReason() throws {
        let prk = [UInt8](repeating: 1, count: 32)
        #expect(throws: CryptoError("HKDF-SHA256 expand", "cannot produce 8161 bytes (1 to 8160)")) {
            try HKDFSHA256.expand(pseudorandomKey: prk, info: [], length: 8161)
        }
        #expect(throws: CryptoError("HKDF-SHA256 expand", "cannot produce 0 bytes (1 to 8160)")) {
            try HKDFSHA256.expand(pseudorandomKey: prk, info: [], length: 0)
        }
        #expect(throws: CryptoError("HKDF-SHA256 expand", "the pseudorandom key has 16 bytes, fewer than 32")) {
            try HKDFSHA256.expand(pseudorandomKey: Array(prk.prefix(16)), info: [], length: 16)
        }
        #expect(throws: CryptoError("HKDF-SHA256 extract", "the input key material is empty")) {
            try HKDFSHA256.extract(salt: [1], inputKeyMaterial: [])
        }
        #expect(try HKDFSHA256.expand(pseudorandomKey: prk, info: [], length: 8160).count == 8160)
    }
}
