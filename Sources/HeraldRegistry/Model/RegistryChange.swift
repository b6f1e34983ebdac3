/// What a change to the registry did, so callers (the registration API, the
/// CLI) can answer "created" or "already there" without a second read.
public enum RegistryChange: Sendable, Equatable {
    /// The membership did not exist and now does.
    case created
    /// It existed and its overrides changed (register), or the device's
    /// memberships moved to a new token (replaceToken).
    case updated
    /// It existed as asked: nothing was written.
    case unchanged
    /// That many memberships were removed.
    case removed(count: Int)
    /// There was nothing to remove or move.
    case notFound
}
