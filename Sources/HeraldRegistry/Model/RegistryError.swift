/// Every failure of the device registry, with what a caller needs to act on
/// it: what kind of failure, which store operation, and a message naming the
/// channel, device or table involved and the database's own words. Messages
/// never carry a password (URLs are shown as `URLSecrets.redacted` makes them).
public struct RegistryError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// The arguments are wrong (a bad channel name, a topic address, a page
        /// size out of range): the same call fails again.
        case invalidInput
        /// A limit of ``RegistryLimits`` would be exceeded: nothing was written.
        case limitExceeded
        /// The database cannot be reached, or is locked or full: the same call
        /// can succeed later (a lost connection is opened again on next use).
        case unavailable
        /// Another writer got in the way (a deadlock or serialization failure
        /// PostgreSQL reported on every attempt): retry.
        case conflict
        /// The schema is missing or a migration failed: run ``RegistryStore/migrate()``, or read the message.
        case migration
        /// Anything else: a bug, data the store did not write, a closed store.
        case `internal`
    }

    public var kind: Kind
    /// The store operation that failed: `register`, `devices`, `migrate`, ...
    public var operation: String
    public var message: String

    public init(_ kind: Kind, operation: String, message: String) {
        self.kind = kind
        self.operation = operation
        self.message = message
    }

    /// Whether doing the same thing again can succeed: for ``Kind/unavailable`` and ``Kind/conflict``.
    public var isRetryable: Bool { kind == .unavailable || kind == .conflict }

    public var description: String {
        "registry \(operation): \(message) (\(kind.rawValue), \(isRetryable ? "retryable" : "not retryable"))"
    }
}
