import CHeraldShim
import COpenSSL
import HeraldCore

/// A private key that signs provider tokens: the APNs `.p8` (EC P-256, ES256)
/// or a Google service account's RSA key (RS256). A P-256 key also signs
/// VAPID tokens and agrees Web Push message keys (`sharedSecret(with:)`).
///
/// Loaded once at start-up and shared by every connection: signing allocates
/// its own context per call, so one key signs from many threads.
public struct PrivateKey: Sendable {
    let key: OpenSSLKey

    /// Loads a PEM private key: PKCS#8 (Apple's `.p8`, Google's `private_key`)
    /// or the traditional EC and RSA forms.
    /// Encrypted keys are refused (no passphrase prompt can work in a service).
    public init(pem: String) throws(CryptoError) {
        ERR_clear_error()
        let loaded: OpaquePointer? = try OpenSSLKey.withBIO(Array(pem.utf8)) { bio throws(CryptoError) in
            PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        }
        guard let loaded else {
            if pem.contains("ENCRYPTED") {
                throw CryptoError("load private key", "the key is encrypted; give an unencrypted PKCS#8 key")
            }
            if !pem.contains("-----BEGIN") {
                throw CryptoError(
                    "load private key", "not a PEM key (expected \(PEMArmor.begin(PEMArmor.pkcs8PrivateKey)))")
            }
            throw CryptoError.openSSL("load private key")
        }
        key = OpenSSLKey(taking: loaded)
    }

    init(taking pointer: OpaquePointer) { key = OpenSSLKey(taking: pointer) }

    /// A fresh P-256 key (the simulator's and tests' stand-in for an APNs `.p8`).
    public static func generateP256() throws(CryptoError) -> PrivateKey {
        guard let pointer = herald_generate_ec_p256_key() else { throw CryptoError.openSSL("generate P-256 key") }
        return PrivateKey(taking: pointer)
    }

    /// A fresh RSA key (the stand-in for a service-account key).
    public static func generateRSA(bits: Int = 2048) throws(CryptoError) -> PrivateKey {
        guard let pointer = herald_generate_rsa_key(UInt32(bits)) else { throw CryptoError.openSSL("generate RSA key") }
        return PrivateKey(taking: pointer)
    }

    public var kind: KeyKind { key.kind }

    /// The matching public key, to verify what this key signed.
    public var publicKey: PublicKey { PublicKey(sharing: key) }

    /// The key as PKCS#8 PEM, the format of Apple's `.p8` files.
    public func pkcs8PEM() throws(CryptoError) -> String {
        try OpenSSLKey.pem("write private key") { bio in
            PEM_write_bio_PKCS8PrivateKey(bio, key.pointer, nil, nil, 0, nil, nil)
        }
    }

    /// Signs `message` with SHA-256: ES256 for an EC key (returned as the JOSE
    /// raw `r‖s`, 64 bytes), RS256 (PKCS#1 v1.5) for an RSA key.
    ///
    /// - Important: APNs rejects the DER signature `ECDSA_sign` and
    ///   `openssl dgst` produce (InvalidProviderToken): JWTs carry raw `r‖s`.
    public func sign(_ message: some Collection<UInt8>) throws(CryptoError) -> [UInt8] {
        let der = try digestSign(Array(message))
        switch kind {
        case .ecP256: return try Self.joseSignature(fromDER: der)
        case .rsa: return der
        case .other(let name): throw CryptoError("sign", "a \(name) key cannot sign ES256 or RS256")
        }
    }

    /// Signs a fixed message and verifies the signature with the public key,
    /// so a key that loads but cannot sign what Herald needs (another curve,
    /// an inconsistent key) is found at start-up, not at the first send.
    public func proveItSigns() throws(CryptoError) {
        let message = Array("herald start-up signing check".utf8)
        let signature = try sign(message)
        guard publicKey.verify(signature: signature, for: message) else {
            throw CryptoError("prove the key signs", "its signature does not verify with its own public key")
        }
    }

    private func digestSign(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        ERR_clear_error()
        guard let ctx = EVP_MD_CTX_new() else { throw CryptoError.openSSL("sign") }
        defer { EVP_MD_CTX_free(ctx) }
        guard EVP_DigestSignInit(ctx, nil, EVP_sha256(), nil, key.pointer) == 1 else {
            throw CryptoError.openSSL("sign")
        }
        var length = 0
        guard EVP_DigestSign(ctx, nil, &length, message, message.count) == 1 else { throw CryptoError.openSSL("sign") }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(ctx, &signature, &length, message, message.count) == 1 else {
            throw CryptoError.openSSL("sign")
        }
        return Array(signature.prefix(length))
    }

    /// DER `ECDSA-Sig-Value` → 32-byte `r` ‖ 32-byte `s`, each left-padded with zeros.
    static func joseSignature(fromDER der: [UInt8]) throws(CryptoError) -> [UInt8] {
        let sig: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let sig else { throw CryptoError.openSSL("convert ECDSA signature") }
        defer { ECDSA_SIG_free(sig) }
        var out = [UInt8](repeating: 0, count: 64)
        let ok = out.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return BN_bn2binpad(ECDSA_SIG_get0_r(sig), base, 32) == 32
                && BN_bn2binpad(ECDSA_SIG_get0_s(sig), base + 32, 32) == 32
        }
        guard ok else { throw CryptoError("convert ECDSA signature", "r or s does not fit 32 bytes") }
        return out
    }
}
