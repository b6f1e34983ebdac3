import COpenSSL

/// The raw encodings of P-256 keys that Web Push passes around: a public key
/// as the 65-byte uncompressed point (SEC 1 `0x04‖X‖Y`: a subscription's
/// `p256dh`, the key id of an `aes128gcm` body, VAPID's `k=`) and a private
/// key as its 32-byte scalar (how test vectors and push simulators write
/// subscription keys).
///
/// OpenSSL reads neither form directly, so each is wrapped in the DER
/// structure it does read (SubjectPublicKeyInfo, SEC 1 ECPrivateKey) with the
/// fixed P-256 prefixes below.
public enum P256Encoding {
    /// Bytes in an uncompressed point: the `0x04` prefix and two 32-byte coordinates.
    public static let uncompressedPointSize = 65
    /// Bytes in a private scalar.
    public static let scalarSize = 32
    /// Bytes in one coordinate, and so in an ECDH shared secret (the X coordinate).
    public static let coordinateSize = 32

    /// DER of SubjectPublicKeyInfo { id-ecPublicKey, prime256v1 } up to the
    /// BIT STRING's contents, which are the 65-byte point.
    static let publicKeyInfoPrefix: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A,
        0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ]

    /// DER of ECPrivateKey { version 1, privateKey OCTET STRING (32) } up to the scalar.
    static let privateKeyPrefix: [UInt8] = [0x30, 0x31, 0x02, 0x01, 0x01, 0x04, 0x20]
    /// DER of ECPrivateKey's `[0] parameters: prime256v1`, after the scalar.
    static let privateKeySuffix: [UInt8] = [0xA0, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
}

extension PublicKey {
    /// Loads a P-256 public key from its uncompressed point (`0x04‖X‖Y`).
    /// - Throws: `CryptoError` saying what is wrong: the length, the first
    ///   byte, or a point that is not on the curve.
    public init(uncompressedP256 point: [UInt8]) throws(CryptoError) {
        let operation = "load P-256 public key"
        guard point.count == P256Encoding.uncompressedPointSize else {
            throw CryptoError(
                operation, "expected \(P256Encoding.uncompressedPointSize) bytes (0x04‖X‖Y), found \(point.count)")
        }
        guard point[0] == 0x04 else {
            throw CryptoError(
                operation, "expected the uncompressed form (first byte 0x04), found 0x\(Self.hexByte(point[0]))")
        }
        ERR_clear_error()
        let der = P256Encoding.publicKeyInfoPrefix + point
        let loaded: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }
        // The length and form are right, so OpenSSL refused the coordinates.
        guard let loaded else {
            ERR_clear_error()
            throw CryptoError(operation, "the point is not on the P-256 curve")
        }
        key = OpenSSLKey(taking: loaded)
    }

    /// The key as a 65-byte uncompressed point (`0x04‖X‖Y`).
    /// - Throws: `CryptoError` when the key is not P-256.
    public func uncompressedP256() throws(CryptoError) -> [UInt8] {
        let operation = "write P-256 public key"
        guard kind == .ecP256 else { throw CryptoError(operation, "a \(kind) key has no P-256 point") }
        ERR_clear_error()
        var point = [UInt8](repeating: 0, count: P256Encoding.uncompressedPointSize)
        var length = 0
        guard
            EVP_PKEY_get_octet_string_param(
                key.pointer, OSSL_PKEY_PARAM_PUB_KEY, &point, P256Encoding.uncompressedPointSize, &length) == 1
        else {
            throw CryptoError.openSSL(operation)
        }
        guard length == P256Encoding.uncompressedPointSize, point[0] == 0x04 else {
            throw CryptoError(operation, "OpenSSL wrote a \(length)-byte point, not the 65-byte uncompressed form")
        }
        return point
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}

extension PrivateKey {
    /// Loads a P-256 private key from its 32-byte scalar; the public key is
    /// computed from it.
    /// - Throws: `CryptoError` for another length, or a scalar outside `1..<n`.
    public init(rawP256Scalar scalar: [UInt8]) throws(CryptoError) {
        let operation = "load P-256 private key"
        guard scalar.count == P256Encoding.scalarSize else {
            throw CryptoError(
                operation, "expected a \(P256Encoding.scalarSize)-byte scalar, found \(scalar.count) bytes")
        }
        ERR_clear_error()
        let der = P256Encoding.privateKeyPrefix + scalar + P256Encoding.privateKeySuffix
        let loaded: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_PrivateKey(EVP_PKEY_EC, nil, &cursor, buffer.count)
        }
        guard let loaded else {
            ERR_clear_error()
            throw CryptoError(operation, Self.scalarOutOfRange)
        }
        self.init(taking: loaded)
        try checkKeyPair(operation)
    }

    /// The 32-byte scalar of a P-256 key: what `init(rawP256Scalar:)` reads.
    public func rawP256Scalar() throws(CryptoError) -> [UInt8] {
        let operation = "write P-256 private key"
        guard kind == .ecP256 else { throw CryptoError(operation, "a \(kind) key has no P-256 scalar") }
        ERR_clear_error()
        var bignum: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key.pointer, OSSL_PKEY_PARAM_PRIV_KEY, &bignum) == 1, let bignum else {
            throw CryptoError.openSSL(operation)
        }
        defer { BN_clear_free(bignum) }
        var scalar = [UInt8](repeating: 0, count: P256Encoding.scalarSize)
        let size = Int32(P256Encoding.scalarSize)
        guard BN_bn2binpad(bignum, &scalar, size) == size else {
            throw CryptoError(operation, "the scalar does not fit \(P256Encoding.scalarSize) bytes")
        }
        return scalar
    }

    private static let scalarOutOfRange =
        "the scalar is not a valid P-256 private key (zero, or not below the group order)"

    /// OpenSSL's full key check (scalar range, public point on the curve and
    /// matching the scalar).
    private func checkKeyPair(_ operation: String) throws(CryptoError) {
        guard let ctx = EVP_PKEY_CTX_new(key.pointer, nil) else { throw CryptoError.openSSL(operation) }
        defer { EVP_PKEY_CTX_free(ctx) }
        guard EVP_PKEY_check(ctx) == 1 else {
            ERR_clear_error()
            throw CryptoError(operation, Self.scalarOutOfRange)
        }
    }
}
