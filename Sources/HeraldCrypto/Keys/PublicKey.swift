import COpenSSL

/// A public key that verifies provider tokens: the simulator checks APNs JWTs
/// (ES256) and Google OAuth assertions (RS256) with it, and tests verify our
/// signer with it. A P-256 one is also a Web Push subscription's `p256dh` or
/// a VAPID `k` (`init(uncompressedP256:)`).
public struct PublicKey: Sendable {
    let key: OpenSSLKey

    init(sharing key: OpenSSLKey) {
        EVP_PKEY_up_ref(key.pointer)
        self.key = OpenSSLKey(taking: key.pointer)
    }

    /// Loads a PEM `BEGIN PUBLIC KEY` (SubjectPublicKeyInfo), or takes the
    /// public half of a PEM private key.
    public init(pem: String) throws(CryptoError) {
        if pem.contains("PRIVATE KEY") {
            self = try PrivateKey(pem: pem).publicKey
            return
        }
        ERR_clear_error()
        let loaded: OpaquePointer? = try OpenSSLKey.withBIO(Array(pem.utf8)) { bio throws(CryptoError) in
            PEM_read_bio_PUBKEY(bio, nil, nil, nil)
        }
        guard let loaded else { throw CryptoError.openSSL("load public key") }
        key = OpenSSLKey(taking: loaded)
    }

    public var kind: KeyKind { key.kind }

    /// The key as `BEGIN PUBLIC KEY` PEM.
    public func pem() throws(CryptoError) -> String {
        try OpenSSLKey.pem("write public key") { bio in PEM_write_bio_PUBKEY(bio, key.pointer) }
    }

    /// Whether `signature` over `message` verifies: ES256 takes JOSE raw `r‖s`
    /// (64 bytes; a DER signature is refused, as APNs refuses it), RS256 takes PKCS#1 v1.5.
    public func verify(signature: [UInt8], for message: some Collection<UInt8>) -> Bool {
        let der: [UInt8]
        switch kind {
        case .ecP256:
            guard signature.count == 64, let converted = Self.derSignature(fromJOSE: signature) else { return false }
            der = converted
        case .rsa:
            der = signature
        case .other:
            return false
        }
        ERR_clear_error()
        guard let ctx = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(ctx) }
        guard EVP_DigestVerifyInit(ctx, nil, EVP_sha256(), nil, key.pointer) == 1 else { return false }
        let message = Array(message)
        let ok = EVP_DigestVerify(ctx, der, der.count, message, message.count) == 1
        ERR_clear_error()
        return ok
    }

    static func derSignature(fromJOSE raw: [UInt8]) -> [UInt8]? {
        guard let sig = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(sig) }
        let r = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
        let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress.map { $0 + 32 }, 32, nil) }
        guard let r, let s else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        guard ECDSA_SIG_set0(sig, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        let length = i2d_ECDSA_SIG(sig, nil)
        guard length > 0 else { return nil }
        var out = [UInt8](repeating: 0, count: Int(length))
        let written = out.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(sig, &cursor)
        }
        return written == length ? out : nil
    }
}
