import HeraldCore
import HeraldCrypto

/// Encrypts a secret before the store writes it and decrypts it when a row
/// is read: AES-256-GCM under the ``RegistrySecretKey``, a random 12-byte
/// nonce per value, stored as `v1:` and the URL-safe base64 of nonce,
/// ciphertext and tag. The prefix is the format's version; no secret a
/// browser gives (URL-safe base64) contains a colon, so a value without it
/// is one stored in the clear (before a key was set, or by a store without
/// one) and is read as it is.
///
/// What this protects is a copy of the database (a file, a backup, a dump):
/// without the key its secrets cannot be read. Whoever has the key (the
/// config, the running process) reads them (docs/security.md).
struct SecretSealer: Sendable {
    static let prefix = "v1:"
    private static let cipher = AESGCM.aes256

    /// Nil: secrets are stored in the clear.
    let key: RegistrySecretKey?

    /// What to store for `secret`: sealed with the key, or `secret` without one.
    func seal(_ secret: String, operation: String) throws(RegistryError) -> String {
        guard let key else { return secret }
        do {
            let nonce = try SecureRandom.bytes(AESGCM.nonceSize)
            let sealed = try Self.cipher.encrypt(Array(secret.utf8), key: key.bytes, nonce: nonce)
            return Self.prefix + Base64URL.encode(nonce + sealed)
        } catch {
            throw RegistryError(.internal, operation: operation, message: "cannot encrypt a secret: \(error)")
        }
    }

    /// The secret a stored value holds; `device` names whose it is in the
    /// error for a value that cannot be decrypted (another key, altered
    /// bytes) or is sealed while the store has no key.
    func open(_ stored: String, device: DeviceKey, operation: String) throws(RegistryError) -> String {
        guard stored.hasPrefix(Self.prefix) else { return stored }
        let unreadable = { (why: String) in
            RegistryError(
                .internal, operation: operation,
                message: "device \(device): its stored Web Push auth secret cannot be read: \(why)")
        }
        guard let key else { throw unreadable("it is encrypted and the registry has no encryption key") }
        guard let bytes = Base64URL.decode(String(stored.dropFirst(Self.prefix.count))),
            bytes.count >= AESGCM.nonceSize + AESGCM.tagSize
        else { throw unreadable("the stored value is malformed") }
        let plain: [UInt8]
        do {
            plain = try Self.cipher.decrypt(
                Array(bytes[AESGCM.nonceSize...]), key: key.bytes, nonce: Array(bytes[..<AESGCM.nonceSize]))
        } catch {
            throw unreadable("it does not decrypt with the registry's encryption key (another key, or altered data)")
        }
        guard let text = String(validating: plain, as: UTF8.self) else {
            throw unreadable("it does not decrypt to text")
        }
        return text
    }
}
