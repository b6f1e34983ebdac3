import COpenSSL

/// Bytes from OpenSSL's cryptographically secure generator: salts and
/// anything else an attacker must not predict. (`SplitMix64` in HeraldCore
/// is fast and seeded, and for nothing secret.)
public enum SecureRandom {
    /// `count` random bytes.
    /// - Throws: `CryptoError` when OpenSSL's generator cannot give them (not seeded).
    public static func bytes(_ count: Int) throws(CryptoError) -> [UInt8] {
        let operation = "generate random bytes"
        guard let length = Int32(exactly: count), length >= 0 else {
            throw CryptoError(operation, "cannot generate \(count) bytes")
        }
        var bytes = [UInt8](repeating: 0, count: count)
        ERR_clear_error()
        guard RAND_bytes(&bytes, length) == 1 else { throw CryptoError.openSSL(operation) }
        return bytes
    }
}
