import COpenSSL

/// HKDF with HMAC-SHA-256 (RFC 5869): turns a shared secret into keys.
///
/// Web Push message encryption (RFC 8291) derives its input key, content
/// key and nonce with it. OpenSSL computes it (its `HKDF` key-derivation
/// method through an `EVP_PKEY_CTX`); each call has its own context.
public enum HKDFSHA256 {
    /// Bytes in a pseudorandom key (the output of extract): SHA-256's output size.
    public static let hashLength = 32
    /// The most bytes expand can produce: 255 blocks (RFC 5869 §2.3).
    public static let maximumOutputLength = 255 * hashLength

    /// HKDF-Extract: `HMAC-SHA-256(salt, inputKeyMaterial)`. An empty salt
    /// stands for `hashLength` zero bytes, as the RFC says.
    /// - Throws: `CryptoError` for empty key material, or when OpenSSL fails.
    public static func extract(salt: [UInt8], inputKeyMaterial: [UInt8]) throws(CryptoError) -> [UInt8] {
        try derive(
            "HKDF-SHA256 extract", mode: EVP_KDF_HKDF_MODE_EXTRACT_ONLY, key: inputKeyMaterial, salt: salt, info: [],
            length: hashLength)
    }

    /// HKDF-Expand: `length` bytes from `pseudorandomKey` (at least
    /// `hashLength` bytes, normally the output of extract) and `info`.
    /// - Throws: `CryptoError` for a length outside `1...maximumOutputLength`
    ///   or a short key, or when OpenSSL fails.
    public static func expand(pseudorandomKey: [UInt8], info: [UInt8], length: Int) throws(CryptoError) -> [UInt8] {
        let operation = "HKDF-SHA256 expand"
        guard pseudorandomKey.count >= hashLength else {
            throw CryptoError(
                operation, "the pseudorandom key has \(pseudorandomKey.count) bytes, fewer than \(hashLength)")
        }
        return try derive(
            operation, mode: EVP_KDF_HKDF_MODE_EXPAND_ONLY, key: pseudorandomKey, salt: [], info: info, length: length)
    }

    /// Extract then expand: `length` bytes of key from `inputKeyMaterial`, `salt` and `info`.
    public static func deriveKey(salt: [UInt8], inputKeyMaterial: [UInt8], info: [UInt8], length: Int)
        throws(CryptoError) -> [UInt8]
    {
        try derive(
            "HKDF-SHA256", mode: EVP_KDF_HKDF_MODE_EXTRACT_AND_EXPAND, key: inputKeyMaterial, salt: salt, info: info,
            length: length)
    }

    private static func derive(
        _ operation: String, mode: Int32, key: [UInt8], salt: [UInt8], info: [UInt8], length: Int
    ) throws(CryptoError) -> [UInt8] {
        guard (1...maximumOutputLength).contains(length) else {
            throw CryptoError(operation, "cannot produce \(length) bytes (1 to \(maximumOutputLength))")
        }
        guard !key.isEmpty else { throw CryptoError(operation, "the input key material is empty") }
        guard let keyLength = Int32(exactly: key.count), let saltLength = Int32(exactly: salt.count),
            let infoLength = Int32(exactly: info.count)
        else { throw CryptoError(operation, "an input is larger than OpenSSL takes") }
        ERR_clear_error()
        guard let ctx = EVP_PKEY_CTX_new_from_name(nil, "HKDF", nil) else { throw CryptoError.openSSL(operation) }
        defer { EVP_PKEY_CTX_free(ctx) }
        guard EVP_PKEY_derive_init(ctx) == 1,
            EVP_PKEY_CTX_set_hkdf_mode(ctx, mode) == 1,
            EVP_PKEY_CTX_set_hkdf_md(ctx, EVP_sha256()) == 1,
            EVP_PKEY_CTX_set1_hkdf_key(ctx, key, keyLength) == 1,
            // OpenSSL takes an unset salt as the RFC's zeros; a zero-length one is not set.
            salt.isEmpty || EVP_PKEY_CTX_set1_hkdf_salt(ctx, salt, saltLength) == 1,
            info.isEmpty || EVP_PKEY_CTX_add1_hkdf_info(ctx, info, infoLength) == 1
        else { throw CryptoError.openSSL(operation) }
        var output = [UInt8](repeating: 0, count: length)
        var written = length
        guard EVP_PKEY_derive(ctx, &output, &written) == 1 else { throw CryptoError.openSSL(operation) }
        guard written == length else {
            throw CryptoError(operation, "OpenSSL produced \(written) bytes, expected \(length)")
        }
        return output
    }
}
