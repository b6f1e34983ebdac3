import HeraldCore

/// The provider-token lifecycle as a value-type state machine: which token a
/// request uses, when a new one is issued, what a 403 token rejection leads to.
/// It does no I/O and reads no clock; `ProviderTokenManager` owns one and does
/// the signing.
///
/// - Important: Apple refuses tokens older than 60 minutes
///   (ExpiredProviderToken) and answers TooManyProviderTokenUpdates to
///   refreshes more often than every 20 minutes. Tokens are refreshed after
///   50 minutes, and a rejection forces at most one refresh per 20 minutes.
public struct ProviderTokenCache: Sendable, Equatable {
    /// One issued token and when it was issued (its `iat`).
    public struct Token: Sendable, Equatable {
        public var value: String
        public var issuedAt: Timestamp

        public init(value: String, issuedAt: Timestamp) {
            self.value = value
            self.issuedAt = issuedAt
        }
    }

    /// What a request should do for its `authorization` header.
    public enum TokenAction: Sendable, Equatable {
        case use(Token)
        /// Sign a new token (iat = now) and report it with ``issued(_:)``.
        case issue
    }

    /// What to do after APNs refused `token` with 403 Expired/Invalid/MissingProviderToken.
    public enum RejectionAction: Sendable, Equatable {
        /// Another request already replaced the refused token: retry with this one.
        case retry(with: Token)
        /// The refused token was evicted: sign a new one and retry with it.
        case issueAndRetry
        /// A forced refresh happened less than ``minimumRefreshInterval`` ago: a
        /// new token would be refused too (TooManyProviderTokenUpdates); fail.
        case giveUp
    }

    public let refreshAfter: Duration
    public let minimumRefreshInterval: Duration
    public private(set) var current: Token?
    public private(set) var lastForcedRefresh: Timestamp?

    public init(refreshAfter: Duration = .seconds(50 * 60), minimumRefreshInterval: Duration = .seconds(20 * 60)) {
        self.refreshAfter = refreshAfter
        self.minimumRefreshInterval = minimumRefreshInterval
    }

    /// The token for a request sent at `now`: the cached one while younger
    /// than ``refreshAfter`` (and not from the future: a clock stepped back
    /// also refreshes), else a new one.
    public func tokenForRequest(at now: Timestamp) -> TokenAction {
        if let current, now >= current.issuedAt, now - current.issuedAt < refreshAfter { return .use(current) }
        return .issue
    }

    /// Records a newly signed token as the current one.
    public mutating func issued(_ token: Token) {
        current = token
    }

    /// Records that APNs refused `token` (the bearer value) at `now`.
    public mutating func rejected(_ token: String, at now: Timestamp) -> RejectionAction {
        if let current, current.value != token { return .retry(with: current) }
        if let lastForcedRefresh, now >= lastForcedRefresh, now - lastForcedRefresh < minimumRefreshInterval {
            return .giveUp
        }
        current = nil
        lastForcedRefresh = now
        return .issueAndRetry
    }
}
