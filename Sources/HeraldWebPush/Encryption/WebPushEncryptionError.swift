import HeraldCrypto

/// Why a Web Push message cannot be encrypted, or a body cannot be
/// decrypted: each case says what was found and what was expected.
public enum WebPushEncryptionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The plaintext does not fit the 4096-byte body push services must
    /// accept: refused before anything is sent.
    case plaintextTooLarge(size: Int, limit: Int)
    /// An argument of the caller's is unusable (a salt or auth secret of the
    /// wrong size, a sender key that is not P-256).
    case invalidArgument(String)
    /// The body is not a single-record `aes128gcm` body as RFC 8291 sends
    /// (header, key id, record size, padding).
    case malformedBody(String)
    /// The record's tag does not match: another subscription's key or auth
    /// secret, or altered bytes.
    case authenticationFailed
    /// OpenSSL failed.
    case crypto(CryptoError)

    public var description: String {
        switch self {
        case .plaintextTooLarge(let size, let limit):
            "the payload is \(size) bytes; Web Push encrypts at most \(limit) bytes "
                + "(\(WebPushEncryption.maximumBodySize)-byte body: \(WebPushEncryption.headerSize)-byte header, "
                + "1-byte padding delimiter, \(AES128GCM.tagSize)-byte tag)"
        case .invalidArgument(let message): message
        case .malformedBody(let message): "not an aes128gcm Web Push body: \(message)"
        case .authenticationFailed:
            "the record does not decrypt: its tag does not match (another subscription's key or auth secret, or altered bytes)"
        case .crypto(let error): error.description
        }
    }
}
