import HeraldCore

/// The key the registry encrypts its secrets at rest with (a Web Push
/// subscription's `auth`): 32 bytes for AES-256-GCM. The service loads it
/// from `registry.encryption_key` or `registry.encryption_key_file`; the
/// registry is handed the bytes.
///
/// Its text forms never show the bytes, so a key that reaches a log line or
/// an error says only that it is one.
public struct RegistrySecretKey: Sendable, CustomStringConvertible {
    /// The key's size in bytes.
    public static let size = 32

    let bytes: [UInt8]

    /// The key `bytes`, which must be ``size`` bytes long.
    public init(bytes: [UInt8]) throws(RegistryError) {
        guard bytes.count == Self.size else {
            throw RegistryError(
                .invalidInput, operation: "open",
                message: "the encryption key is \(bytes.count) bytes; it must be \(Self.size) (AES-256)")
        }
        self.bytes = bytes
    }

    /// The key from its text: URL-safe or standard base64 of 32 bytes,
    /// padding and surrounding white space tolerated.
    public init(base64 text: String) throws(RegistryError) {
        let trimmed = text.filter { !$0.isWhitespace }
        let urlSafe = String(trimmed.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
        guard let bytes = Base64URL.decode(urlSafe) else {
            throw RegistryError(
                .invalidInput, operation: "open",
                message: "the encryption key is not base64 (\(trimmed.utf8.count) characters); give 32 bytes in base64")
        }
        try self.init(bytes: bytes)
    }

    public var description: String { "RegistrySecretKey(\(Self.size) bytes)" }
}
