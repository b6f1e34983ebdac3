import CHeraldShim
import COpenSSL

/// Owns one `EVP_PKEY` and frees it on deinit; shared by `PrivateKey` and `PublicKey`.
///
/// `@unchecked Sendable`: the key is never mutated after loading, and OpenSSL 3
/// allows concurrent signing and verifying with one `EVP_PKEY` as long as each
/// operation has its own `EVP_MD_CTX` (which ours do).
final class OpenSSLKey: @unchecked Sendable {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit { EVP_PKEY_free(pointer) }

    var kind: KeyKind {
        if EVP_PKEY_is_a(pointer, "RSA") == 1 { return .rsa(bits: Int(EVP_PKEY_get_bits(pointer))) }
        if EVP_PKEY_is_a(pointer, "EC") == 1 {
            var name = [CChar](repeating: 0, count: 64)
            var length = 0
            if EVP_PKEY_get_group_name(pointer, &name, name.count, &length) == 1 {
                let curve = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return curve == "prime256v1" || curve == "P-256" ? .ecP256 : .other("EC \(curve)")
            }
            return .other("EC")
        }
        return .other(String(cString: EVP_PKEY_get0_type_name(pointer)))
    }

    /// Runs `body` with a memory BIO over `bytes` (not copied: the BIO lives
    /// only while `body` runs). More than `Int32.max` bytes, which a memory BIO
    /// cannot take, is an error, not a trap.
    static func withBIO<T>(_ bytes: [UInt8], _ body: (OpaquePointer) throws(CryptoError) -> T) throws(CryptoError) -> T
    {
        guard let length = Int32(exactly: bytes.count) else {
            throw CryptoError("read key", "\(bytes.count) bytes is too large for a key")
        }
        let result: Result<T, CryptoError> = bytes.withUnsafeBytes { raw in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, length) else {
                return .failure(CryptoError.openSSL("allocate BIO"))
            }
            defer { BIO_free(bio) }
            return Result { () throws(CryptoError) -> T in try body(bio) }
        }
        return try result.get()
    }

    /// Writes through `write` into a memory BIO and returns what it holds as text.
    static func pem(_ operation: String, _ write: (OpaquePointer) -> Int32) throws(CryptoError) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw CryptoError.openSSL(operation) }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw CryptoError.openSSL(operation) }
        var data: UnsafeMutablePointer<CChar>?
        let length = herald_bio_get_mem_data(bio, &data)
        guard let data, length > 0 else { throw CryptoError.openSSL(operation) }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }
}
