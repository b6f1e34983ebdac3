import HeraldCore
import HeraldCrypto
import HeraldSystem

/// Owns the provider token shared by every request of one APNs key: drives a
/// `ProviderTokenCache` with an injected clock and signs when it says so.
///
/// Signing (tens of microseconds) happens under the lock, so concurrent
/// senders that need a new token share one refresh instead of each signing one.
public final class ProviderTokenManager: Sendable {
    private let signer: ProviderTokenSigner
    private let clock: @Sendable () -> Timestamp
    private let state: Locked<(cache: ProviderTokenCache, issuedCount: Int)>
    private let onRefresh: CredentialRefreshHook?

    /// - Parameters:
    ///   - clock: the wall clock (`iat` is wall-clock seconds); injected for tests.
    ///   - onRefresh: told of every signing, and whether it worked (metrics).
    public init(
        signer: ProviderTokenSigner, cache: ProviderTokenCache = ProviderTokenCache(),
        clock: @escaping @Sendable () -> Timestamp = { Timestamp.now() }, onRefresh: CredentialRefreshHook? = nil
    ) {
        self.signer = signer
        self.clock = clock
        self.onRefresh = onRefresh
        state = Locked((cache, 0))
    }

    public var teamID: String { signer.teamID }
    public var keyID: String { signer.keyID }

    /// How many tokens were signed so far (refreshes included).
    public var issuedCount: Int { state.withLock { $0.issuedCount } }

    /// The token to put in `authorization: bearer <token>` now.
    public func token() throws(CryptoError) -> String {
        let now = clock()
        return try state.withLock { (state) throws(CryptoError) -> String in
            switch state.cache.tokenForRequest(at: now) {
            case .use(let token): return token.value
            case .issue: return try Self.issue(signer, at: now, into: &state, onRefresh: onRefresh)
            }
        }
    }

    /// Reports that APNs refused `token`; returns the token to retry with, or
    /// nil when retrying cannot help (see `ProviderTokenCache.RejectionAction.giveUp`).
    public func rejected(_ token: String) throws(CryptoError) -> String? {
        let now = clock()
        return try state.withLock { (state) throws(CryptoError) -> String? in
            switch state.cache.rejected(token, at: now) {
            case .retry(let current): return current.value
            case .issueAndRetry: return try Self.issue(signer, at: now, into: &state, onRefresh: onRefresh)
            case .giveUp: return nil
            }
        }
    }

    private static func issue(
        _ signer: ProviderTokenSigner, at now: Timestamp,
        into state: inout (cache: ProviderTokenCache, issuedCount: Int),
        onRefresh: CredentialRefreshHook?
    ) throws(CryptoError) -> String {
        let issuedAt = Timestamp(seconds: now.seconds)
        let value: String
        do {
            value = try signer.sign(issuedAt: issuedAt)
        } catch {
            onRefresh?(false)
            throw error
        }
        onRefresh?(true)
        state.cache.issued(.init(value: value, issuedAt: issuedAt))
        state.issuedCount += 1
        return value
    }
}
