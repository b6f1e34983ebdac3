import HeraldCore

/// Holds the current FCM access token and refreshes it: early (5 minutes
/// before expiry by default), once for all concurrent senders, and on demand
/// after a 401.
///
/// Time comes from the injected `now`, so expiry is tested without sleeping.
public actor AccessTokenCache {
    /// Obtains a new token (the OAuth exchange, or a test's stand-in).
    public typealias Fetch = @Sendable () async throws(FCMAuthError) -> AccessToken

    private let fetch: Fetch
    private let now: @Sendable () -> Timestamp
    /// How long before expiry a token is replaced.
    public let refreshMargin: Duration
    private var current: AccessToken?
    private var refresh: Task<Result<AccessToken, FCMAuthError>, Never>?

    public init(
        refreshMargin: Duration = .seconds(300), now: @escaping @Sendable () -> Timestamp, fetch: @escaping Fetch
    ) {
        self.refreshMargin = refreshMargin
        self.now = now
        self.fetch = fetch
    }

    /// A token good for now: the cached one, or a fresh one. Callers that
    /// arrive while a refresh is running wait for that refresh.
    public func token() async throws(FCMAuthError) -> AccessToken {
        if let current, now() < current.refreshAt(margin: refreshMargin) { return current }
        let task: Task<Result<AccessToken, FCMAuthError>, Never>
        if let refresh {
            task = refresh
        } else {
            task = Task { [fetch] () async -> Result<AccessToken, FCMAuthError> in
                do throws(FCMAuthError) { return .success(try await fetch()) } catch { return .failure(error) }
            }
            refresh = task
        }
        let result = await task.value
        // The first caller to resume owns the outcome; later ones only read it,
        // so a token evicted meanwhile is never put back.
        if refresh == task {
            refresh = nil
            if case .success(let token) = result { current = token }
        }
        return try result.get()
    }

    /// Forgets `token` after the server refused it (401). A token already
    /// replaced by another sender's refresh is left alone.
    public func evict(_ token: AccessToken) {
        if current == token { current = nil }
    }

    /// The cached token, if any (for `herald check` and tests).
    public var cached: AccessToken? { current }
}
