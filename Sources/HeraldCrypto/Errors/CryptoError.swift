import HeraldTLS

/// A key that cannot be loaded, or a signature, key agreement, key
/// derivation or cipher operation that cannot be done: which operation failed
/// and what OpenSSL said (or Herald's own reason), never the key material itself.
public struct CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What Herald was doing, e.g. `load private key`.
    public let operation: String
    /// OpenSSL's error queue rendered as text, or Herald's own explanation.
    public let detail: String

    public init(_ operation: String, _ detail: String) {
        self.operation = operation
        self.detail = detail
    }

    public var description: String { "\(operation): \(detail)" }

    /// Drains OpenSSL's thread-local error queue into one error: the only place
    /// a failed OpenSSL call becomes a Swift error.
    static func openSSL(_ operation: String, fallback: String = "OpenSSL reported no detail") -> CryptoError {
        CryptoError(operation, OpenSSLErrorQueue.drain(ifEmpty: fallback))
    }
}
