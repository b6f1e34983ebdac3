import COpenSSL

/// AES in Galois/Counter Mode: authenticated encryption with a 16- or
/// 32-byte key (``aes128``, ``aes256``), a 12-byte nonce and a 16-byte tag
/// appended to the ciphertext. OpenSSL's EVP cipher does the work; each call
/// has its own context, freed before it returns.
///
/// - Important: a key must never encrypt two messages with one nonce.
public struct AESGCM: Sendable {
    /// `AES-128-GCM`, `AES-256-GCM`: for messages.
    public let name: String
    public let keySize: Int
    private let cipher: @Sendable () -> OpaquePointer?

    public static let nonceSize = 12
    public static let tagSize = 16

    /// AES-128-GCM: the cipher of the `aes128gcm` content coding (RFC 8188)
    /// that Web Push messages are encrypted with (RFC 8291).
    public static let aes128 = AESGCM(name: "AES-128-GCM", keySize: 16) { EVP_aes_128_gcm() }
    /// AES-256-GCM: what the registry encrypts its secrets at rest with.
    public static let aes256 = AESGCM(name: "AES-256-GCM", keySize: 32) { EVP_aes_256_gcm() }

    private init(name: String, keySize: Int, cipher: @escaping @Sendable () -> OpaquePointer?) {
        self.name = name
        self.keySize = keySize
        self.cipher = cipher
    }

    /// What `decrypt` throws when the tag does not match: the only answer an
    /// authenticated cipher gives for a wrong key or nonce and for altered
    /// bytes alike.
    public var authenticationFailed: CryptoError {
        CryptoError(
            "decrypt \(name)",
            "the authentication tag does not match (wrong key or nonce, or the ciphertext or tag was altered)")
    }

    /// `plaintext` encrypted, with the tag appended (`plaintext.count + tagSize` bytes).
    /// - Throws: `CryptoError` for a key or nonce of the wrong size, or when OpenSSL fails.
    public func encrypt(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) throws(CryptoError) -> [UInt8] {
        let operation = "encrypt \(name)"
        let tagSize = Self.tagSize
        let ctx = try context(operation, key: key, nonce: nonce, encrypting: true)
        defer { EVP_CIPHER_CTX_free(ctx) }
        guard let inputLength = Int32(exactly: plaintext.count) else {
            throw CryptoError(operation, "\(plaintext.count) bytes is more than one call encrypts")
        }
        var output = [UInt8](repeating: 0, count: plaintext.count + tagSize)
        let ok = output.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            var written: Int32 = 0
            var finished: Int32 = 0
            return EVP_EncryptUpdate(ctx, base, &written, plaintext, inputLength) == 1
                && EVP_EncryptFinal_ex(ctx, base + Int(written), &finished) == 1
                && Int(written + finished) == plaintext.count
                && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, Int32(tagSize), base + plaintext.count) == 1
        }
        guard ok else { throw CryptoError.openSSL(operation) }
        return output
    }

    /// The plaintext of `sealed` (ciphertext followed by its tag).
    /// - Throws: `authenticationFailed` when the tag does not match; another
    ///   `CryptoError` for input too short to hold a tag, a key or nonce of
    ///   the wrong size, or when OpenSSL fails.
    public func decrypt(_ sealed: [UInt8], key: [UInt8], nonce: [UInt8]) throws(CryptoError) -> [UInt8] {
        let operation = "decrypt \(name)"
        let tagSize = Self.tagSize
        guard sealed.count >= tagSize else {
            throw CryptoError(operation, "\(sealed.count) bytes cannot hold the \(tagSize)-byte tag")
        }
        let ctx = try context(operation, key: key, nonce: nonce, encrypting: false)
        defer { EVP_CIPHER_CTX_free(ctx) }
        let ciphertextLength = sealed.count - tagSize
        guard let inputLength = Int32(exactly: ciphertextLength) else {
            throw CryptoError(operation, "\(ciphertextLength) bytes is more than one call decrypts")
        }
        var tag = Array(sealed[ciphertextLength...])
        var output = [UInt8](repeating: 0, count: ciphertextLength)
        var written: Int32 = 0
        let updated = output.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return ciphertextLength == 0 }
            return EVP_DecryptUpdate(ctx, base, &written, sealed, inputLength) == 1
        }
        guard updated, EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, Int32(tagSize), &tag) == 1 else {
            throw CryptoError.openSSL(operation)
        }
        var finished: Int32 = 0
        var scratch = [UInt8](repeating: 0, count: tagSize)  // GCM's final writes nothing; OpenSSL wants a buffer
        guard EVP_DecryptFinal_ex(ctx, &scratch, &finished) == 1 else {
            ERR_clear_error()
            throw authenticationFailed
        }
        guard Int(written + finished) == ciphertextLength else { throw CryptoError.openSSL(operation) }
        return output
    }

    /// A cipher context set up with `key` and `nonce`; the caller frees it.
    private func context(_ operation: String, key: [UInt8], nonce: [UInt8], encrypting: Bool) throws(CryptoError)
        -> OpaquePointer
    {
        guard key.count == keySize else {
            throw CryptoError(operation, "the key has \(key.count) bytes, expected \(keySize)")
        }
        guard nonce.count == Self.nonceSize else {
            throw CryptoError(operation, "the nonce has \(nonce.count) bytes, expected \(Self.nonceSize)")
        }
        ERR_clear_error()
        guard let ctx = EVP_CIPHER_CTX_new() else { throw CryptoError.openSSL(operation) }
        let initialized =
            encrypting
            ? EVP_EncryptInit_ex(ctx, cipher(), nil, key, nonce)
            : EVP_DecryptInit_ex(ctx, cipher(), nil, key, nonce)
        guard initialized == 1 else {
            EVP_CIPHER_CTX_free(ctx)
            throw CryptoError.openSSL(operation)
        }
        return ctx
    }
}

/// AES-128-GCM (``AESGCM/aes128``) under the names Web Push's encryption uses.
public enum AES128GCM {
    public static let keySize = AESGCM.aes128.keySize
    public static let nonceSize = AESGCM.nonceSize
    public static let tagSize = AESGCM.tagSize
    public static let authenticationFailed = AESGCM.aes128.authenticationFailed

    /// `plaintext` encrypted, with the tag appended (`plaintext.count + tagSize` bytes).
    public static func encrypt(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) throws(CryptoError) -> [UInt8] {
        try AESGCM.aes128.encrypt(plaintext, key: key, nonce: nonce)
    }

    /// The plaintext of `sealed` (ciphertext followed by its tag).
    public static func decrypt(_ sealed: [UInt8], key: [UInt8], nonce: [UInt8]) throws(CryptoError) -> [UInt8] {
        try AESGCM.aes128.decrypt(sealed, key: key, nonce: nonce)
    }
}
