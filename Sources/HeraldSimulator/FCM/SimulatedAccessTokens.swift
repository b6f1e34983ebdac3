import HeraldCore
import HeraldSystem
import Synchronization

/// The access tokens the simulated OAuth endpoint has issued, shared with the
/// simulated FCM service that checks them.
public final class SimulatedAccessTokens: Sendable {
    /// What an issued token stands for.
    public struct Grant: Sendable, Equatable {
        public var clientEmail: String
        public var projectID: String?
        /// The OAuth scopes the token was issued for.
        public var scopes: Set<String>
        public var expiresAt: Timestamp
    }

    private let grants = Locked<[String: Grant]>([:])
    private let issued = Atomic<Int>(0)

    public init() {}

    /// Issues a new opaque token (`ya29.sim-<hex>`, shaped like Google's).
    public func issue(
        for account: SimulatedServiceAccount, scopes: Set<String> = [FCMSimulatorService.messagingScope],
        at now: Timestamp,
        lifetime: Duration
    ) -> String {
        var random = SystemRandomNumberGenerator()
        let token = "ya29.sim-" + (0..<4).map { _ in String(random.next() as UInt64, radix: 16) }.joined()
        let grant = Grant(
            clientEmail: account.clientEmail, projectID: account.projectID, scopes: scopes, expiresAt: now + lifetime)
        grants.withLock { $0[token] = grant }
        issued.add(1, ordering: .relaxed)
        return token
    }

    /// The grant behind `token`, if it was issued and has not expired at `now`.
    public func grant(for token: String, at now: Timestamp) -> Grant? {
        grants.withLock { grants in
            guard let grant = grants[token] else { return nil }
            guard now < grant.expiresAt else {
                grants[token] = nil
                return nil
            }
            return grant
        }
    }

    /// Forgets every token, as if Google revoked them: the next send is a 401.
    public func revokeAll() { grants.withLock { $0.removeAll() } }

    /// Tokens issued so far.
    public var issuedCount: Int { issued.load(ordering: .relaxed) }
}
