import HeraldCore
import HeraldSystem

/// One VAPID `Authorization` value per push service origin, reused until it
/// nears expiry: a token is signed per origin and lifetime, not per message.
///
/// A token is valid for ``lifetime`` (12 hours by default, at most 24) and
/// is replaced once less than ``refreshMargin`` (1 hour) is left, so a push
/// service never sees one about to expire. A cached token whose expiry lies
/// further ahead than ``lifetime`` (the clock was stepped back) is replaced
/// too, so no token sent is valid for more than 24 hours.
///
/// Thread-safe: one lock around the table, signing included, so concurrent
/// senders to a new origin share one signature. At most ``capacity`` origins
/// are kept; a new one past that evicts the tokens due for refresh, then the
/// one that expires first.
public final class VAPIDTokenCache: Sendable {
    public static let defaultLifetime: Duration = .seconds(12 * 60 * 60)
    public static let defaultRefreshMargin: Duration = .seconds(60 * 60)

    public let signer: VAPIDSigner
    public let lifetime: Duration
    public let refreshMargin: Duration
    public let capacity: Int
    private let clock: @Sendable () -> Timestamp
    private let state = Locked(State())

    private struct State {
        var tokens: [String: Token] = [:]
        var signedCount = 0
    }

    private struct Token {
        let authorization: String
        let expiresAt: Timestamp
    }

    /// - Parameter clock: the wall clock (`exp` is wall-clock seconds); injected for tests.
    /// - Throws: `VAPIDError.invalidLifetime` for a lifetime above 24 hours, or a
    ///   refresh margin that is negative or not shorter than the lifetime; a capacity below 1.
    public init(
        signer: VAPIDSigner, lifetime: Duration = defaultLifetime, refreshMargin: Duration = defaultRefreshMargin,
        capacity: Int = 1024, clock: @escaping @Sendable () -> Timestamp = { Timestamp.now() }
    ) throws(VAPIDError) {
        let seconds = { (duration: Duration) in duration.components.seconds }
        guard lifetime <= VAPIDSigner.maximumLifetime else {
            throw .invalidLifetime(
                "\(seconds(lifetime)) s is more than the \(seconds(VAPIDSigner.maximumLifetime)) s (24 h) RFC 8292 allows"
            )
        }
        guard refreshMargin >= .zero, refreshMargin < lifetime else {
            throw .invalidLifetime(
                "the refresh margin of \(seconds(refreshMargin)) s must be at least 0 and shorter than the lifetime of \(seconds(lifetime)) s"
            )
        }
        guard capacity >= 1 else {
            throw .invalidLifetime("the cache must hold at least one origin, found capacity \(capacity)")
        }
        self.signer = signer
        self.lifetime = lifetime
        self.refreshMargin = refreshMargin
        self.capacity = capacity
        self.clock = clock
    }

    /// The `Authorization` header value for a message to a push service at
    /// `origin` (`https://host[:port]`, as `WebPushSubscription.origin` gives it).
    public func authorization(for origin: String) throws(VAPIDError) -> String {
        let now = clock()
        return try state.withLock { (state) throws(VAPIDError) -> String in
            if let cached = state.tokens[origin], isFresh(cached, at: now) { return cached.authorization }
            let expiresAt = Timestamp(seconds: now.seconds) + lifetime
            let token = Token(
                authorization: signer.authorization(token: try signer.token(audience: origin, expiresAt: expiresAt)),
                expiresAt: expiresAt)
            if state.tokens[origin] == nil, state.tokens.count >= capacity { evict(from: &state.tokens, at: now) }
            state.tokens[origin] = token
            state.signedCount += 1
            return token.authorization
        }
    }

    /// The `Authorization` header value for a message to `subscription`.
    public func authorization(for subscription: WebPushSubscription) throws(VAPIDError) -> String {
        try authorization(for: subscription.origin)
    }

    /// How many tokens were signed so far (refreshes included).
    public var signedCount: Int { state.withLock { $0.signedCount } }

    private func isFresh(_ token: Token, at now: Timestamp) -> Bool {
        let left = token.expiresAt - now
        return left > refreshMargin && left <= lifetime
    }

    private func evict(from tokens: inout [String: Token], at now: Timestamp) {
        tokens = tokens.filter { isFresh($0.value, at: now) }
        while tokens.count >= capacity, let first = tokens.min(by: { $0.value.expiresAt < $1.value.expiresAt }) {
            tokens[first.key] = nil
        }
    }
}
