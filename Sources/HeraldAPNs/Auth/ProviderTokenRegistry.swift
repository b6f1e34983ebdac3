import HeraldCore
import HeraldCrypto
import HeraldSystem

/// One `ProviderTokenManager` per APNs signing key (team id + key id) in a
/// process, shared by every app, connection and request that signs with it.
///
/// Apple keeps one current provider token per key and refuses a new one
/// within 20 minutes of the last (429 TooManyProviderTokenUpdates): three apps
/// sharing one `.p8` must share one token, or two of them fail.
public final class ProviderTokenRegistry: Sendable {
    /// A signing key as Apple knows it.
    public struct Key: Hashable, Sendable {
        public let teamID: String
        public let keyID: String
    }

    private struct Entry {
        let manager: ProviderTokenManager
        /// The public half, to notice one key id given two different keys.
        let publicKeyPEM: String
    }

    private let entries = Locked<[Key: Entry]>([:])

    public init() {}

    /// The manager for `key`'s team and key id: the one already made for
    /// them, else a new one from `make`.
    /// - Throws: `APNsConfigurationError` when a manager for the same team and
    ///   key id exists with a different key (Apple would refuse one of them).
    public func manager(
        for key: PrivateKey, teamID: String, keyID: String,
        make: () throws(APNsConfigurationError) -> ProviderTokenManager
    ) throws(APNsConfigurationError) -> ProviderTokenManager {
        let publicPEM: String
        do { publicPEM = try key.publicKey.pem() } catch {
            throw APNsConfigurationError("cannot read the key: \(error)")
        }
        let id = Key(teamID: teamID, keyID: keyID)
        if let existing = entries.withLock({ $0[id] }) {
            guard existing.publicKeyPEM == publicPEM else {
                throw APNsConfigurationError(
                    "another app signs with team \(teamID) and key id \(keyID) but a different key; one key id names one .p8 key"
                )
            }
            return existing.manager
        }
        let made = try make()
        return entries.withLock { entries in
            if let raced = entries[id] { return raced.manager }
            entries[id] = Entry(manager: made, publicKeyPEM: publicPEM)
            return made
        }
    }

    /// How many distinct keys are registered.
    public var count: Int { entries.withLock { $0.count } }
}
