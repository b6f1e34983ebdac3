import COpenSSL

extension PrivateKey {
    /// The P-256 Diffie-Hellman shared secret with `peer`: the 32-byte X
    /// coordinate of this key's scalar times the peer's point (SEC 1 §3.3.1),
    /// the same bytes whichever side computes it.
    ///
    /// Web Push message encryption (RFC 8291) starts from this secret
    /// between a fresh key of the sender's and the subscription's `p256dh`.
    /// - Throws: `CryptoError` when either key is not P-256, or OpenSSL fails.
    public func sharedSecret(with peer: PublicKey) throws(CryptoError) -> [UInt8] {
        let operation = "derive ECDH shared secret"
        guard kind == .ecP256 else { throw CryptoError(operation, "the private key is \(kind), not EC P-256") }
        guard peer.kind == .ecP256 else { throw CryptoError(operation, "the peer's key is \(peer.kind), not EC P-256") }
        ERR_clear_error()
        guard let ctx = EVP_PKEY_CTX_new(key.pointer, nil) else { throw CryptoError.openSSL(operation) }
        defer { EVP_PKEY_CTX_free(ctx) }
        guard EVP_PKEY_derive_init(ctx) == 1, EVP_PKEY_derive_set_peer(ctx, peer.key.pointer) == 1 else {
            throw CryptoError.openSSL(operation)
        }
        var length = 0
        guard EVP_PKEY_derive(ctx, nil, &length) == 1 else { throw CryptoError.openSSL(operation) }
        var secret = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_derive(ctx, &secret, &length) == 1 else { throw CryptoError.openSSL(operation) }
        guard length == P256Encoding.coordinateSize else {
            throw CryptoError(operation, "OpenSSL derived \(length) bytes, expected \(P256Encoding.coordinateSize)")
        }
        return secret
    }
}
