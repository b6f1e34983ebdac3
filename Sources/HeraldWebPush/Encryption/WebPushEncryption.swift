import HeraldCrypto

/// Web Push message encryption (RFC 8291) in the `aes128gcm` content coding
/// (RFC 8188): what a push message body is, so that only the subscribed
/// browser can read it and the push service relays bytes it cannot open.
///
/// A body is one record:
/// `salt(16) ‖ rs(4, big-endian) ‖ idlen(1) = 65 ‖ keyid(65) ‖ ciphertext`,
/// where the key id is the sender's one-time P-256 public key and the
/// ciphertext is AES-128-GCM over `plaintext ‖ 0x02` (the last-record
/// padding delimiter) with its 16-byte tag.
///
/// The keys come from an ECDH secret between the sender's one-time key and
/// the subscription's `p256dh`, mixed with the subscription's `auth` secret
/// and the salt through HKDF-SHA-256 (RFC 8291 §3.3, §3.4).
public enum WebPushEncryption {
    /// The record size written into the header (the RFC 8291 example's
    /// value). A body is always one record, which fits it.
    public static let recordSize = 4096
    /// The largest body a push service must accept (RFC 8030 §7.2), and so
    /// the largest Herald sends.
    public static let maximumBodySize = 4096
    /// Bytes in the salt.
    public static let saltSize = 16
    /// Bytes before the record: salt, record size, key id length, key id.
    public static let headerSize = saltSize + 4 + 1 + P256Encoding.uncompressedPointSize
    /// The largest plaintext whose body fits `maximumBodySize` (3993 bytes, RFC 8291 §4).
    public static let maximumPlaintextSize = maximumBodySize - headerSize - 1 - AES128GCM.tagSize

    /// The padding delimiter that ends the last (here: only) record's plaintext.
    static let lastRecordDelimiter: UInt8 = 0x02

    /// The body that carries `plaintext` to `subscription`.
    ///
    /// - Parameters:
    ///   - salt: 16 bytes; random when nil. Given only by tests: a salt must
    ///     never be used twice with one sender key.
    ///   - senderKey: the sender's P-256 key; a fresh one when nil. Given only by tests.
    /// - Throws: `plaintextTooLarge` above `maximumPlaintextSize` bytes
    ///   (checked first); `invalidArgument` for a bad salt or sender key.
    public static func encrypt(
        _ plaintext: [UInt8], for subscription: WebPushSubscription, salt: [UInt8]? = nil, senderKey: PrivateKey? = nil
    ) throws(WebPushEncryptionError) -> [UInt8] {
        guard plaintext.count <= maximumPlaintextSize else {
            throw .plaintextTooLarge(size: plaintext.count, limit: maximumPlaintextSize)
        }
        if let salt, salt.count != saltSize {
            throw .invalidArgument("the salt must be \(saltSize) bytes, found \(salt.count)")
        }
        if let senderKey, senderKey.kind != .ecP256 {
            throw .invalidArgument("the sender key must be EC P-256, found \(senderKey.kind)")
        }
        do {
            let salt = if let salt { salt } else { try SecureRandom.bytes(saltSize) }
            let senderKey = if let senderKey { senderKey } else { try PrivateKey.generateP256() }
            let senderPublicKey = try senderKey.publicKey.uncompressedP256()
            let keys = try ContentKeys(
                sharedSecret: senderKey.sharedSecret(with: subscription.userAgentPublicKey),
                authSecret: subscription.authSecret,
                salt: salt, userAgentPublicKey: subscription.userAgentPublicKeyBytes, senderPublicKey: senderPublicKey)
            let record = try AES128GCM.encrypt(plaintext + [lastRecordDelimiter], key: keys.key, nonce: keys.nonce)
            return salt + bigEndian(UInt32(recordSize)) + [UInt8(senderPublicKey.count)] + senderPublicKey + record
        } catch {
            throw .crypto(error)
        }
    }

    /// The plaintext of `body`, as the browser holding the subscription's
    /// private key and auth secret reads it (the push simulator's side).
    ///
    /// - Throws: `malformedBody` for a header that is too short, a key id
    ///   that is not a 65-byte P-256 point, a record size below 18, more than
    ///   one record, or padding that does not end in the last-record
    ///   delimiter; `authenticationFailed` when the tag does not match;
    ///   `invalidArgument` for an auth secret that is not 16 bytes.
    public static func decrypt(_ body: [UInt8], privateKey: PrivateKey, authSecret: [UInt8])
        throws(WebPushEncryptionError) -> [UInt8]
    {
        guard authSecret.count == WebPushSubscription.authSecretSize else {
            throw .invalidArgument(
                "the auth secret must be \(WebPushSubscription.authSecretSize) bytes, found \(authSecret.count)")
        }
        let fixedHeader = saltSize + 4 + 1
        guard body.count >= fixedHeader else {
            throw .malformedBody(
                "\(body.count) bytes is shorter than the \(fixedHeader)-byte salt, record size and key id length")
        }
        let salt = Array(body[0..<saltSize])
        let recordSize = body[saltSize..<(saltSize + 4)].reduce(0) { $0 << 8 | Int($1) }
        let keyIDLength = Int(body[saltSize + 4])
        guard keyIDLength == P256Encoding.uncompressedPointSize else {
            throw .malformedBody(
                "the key id is \(keyIDLength) bytes; RFC 8291 puts the sender's 65-byte P-256 public key there")
        }
        guard body.count >= headerSize else {
            throw .malformedBody("\(body.count) bytes is shorter than the \(headerSize)-byte header")
        }
        let minimumRecordSize = AES128GCM.tagSize + 2
        guard recordSize >= minimumRecordSize else {
            throw .malformedBody("the record size is \(recordSize), below the minimum of \(minimumRecordSize)")
        }
        let record = Array(body[headerSize...])
        guard record.count > AES128GCM.tagSize else {
            throw .malformedBody(
                "the record is \(record.count) bytes, too short for a delimiter and the \(AES128GCM.tagSize)-byte tag")
        }
        guard record.count <= recordSize else {
            throw .malformedBody(
                "\(record.count) bytes of records exceed the record size \(recordSize); RFC 8291 sends exactly one record"
            )
        }
        let senderPublicKeyBytes = Array(body[(fixedHeader)..<headerSize])
        let senderPublicKey: PublicKey
        do {
            senderPublicKey = try PublicKey(uncompressedP256: senderPublicKeyBytes)
        } catch {
            throw .malformedBody("the key id is not the sender's public key: \(error.detail)")
        }
        let padded: [UInt8]
        do {
            let keys = try ContentKeys(
                sharedSecret: privateKey.sharedSecret(with: senderPublicKey), authSecret: authSecret, salt: salt,
                userAgentPublicKey: privateKey.publicKey.uncompressedP256(), senderPublicKey: senderPublicKeyBytes)
            padded = try AES128GCM.decrypt(record, key: keys.key, nonce: keys.nonce)
        } catch  where error == AES128GCM.authenticationFailed {
            throw .authenticationFailed
        } catch {
            throw .crypto(error)
        }
        guard let delimiter = padded.lastIndex(where: { $0 != 0 }) else {
            throw .malformedBody("the record has no padding delimiter (its plaintext is all zero bytes)")
        }
        guard padded[delimiter] == lastRecordDelimiter else {
            let found = String(padded[delimiter], radix: 16)
            throw .malformedBody(
                "the padding delimiter is 0x\(found.count == 1 ? "0" : "")\(found) where the last record has 0x02")
        }
        return Array(padded[..<delimiter])
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

/// The content-encryption key and nonce of one message (RFC 8291 §3.3–3.4,
/// RFC 8188 §2.2–2.3): one derivation for the sender and the receiver.
struct ContentKeys {
    let key: [UInt8]
    let nonce: [UInt8]

    init(
        sharedSecret: [UInt8], authSecret: [UInt8], salt: [UInt8], userAgentPublicKey: [UInt8], senderPublicKey: [UInt8]
    ) throws(CryptoError) {
        // The auth secret and both public keys bind the ECDH secret to this subscription.
        let keyInfo = Array("WebPush: info".utf8) + [0] + userAgentPublicKey + senderPublicKey
        let inputKey = try HKDFSHA256.deriveKey(
            salt: authSecret, inputKeyMaterial: sharedSecret, info: keyInfo, length: HKDFSHA256.hashLength)
        let pseudorandomKey = try HKDFSHA256.extract(salt: salt, inputKeyMaterial: inputKey)
        key = try HKDFSHA256.expand(
            pseudorandomKey: pseudorandomKey, info: Array("Content-Encoding: aes128gcm".utf8) + [0],
            length: AES128GCM.keySize)
        // A single record's nonce is this one XOR its sequence number 0.
        nonce = try HKDFSHA256.expand(
            pseudorandomKey: pseudorandomKey, info: Array("Content-Encoding: nonce".utf8) + [0],
            length: AES128GCM.nonceSize)
    }
}
