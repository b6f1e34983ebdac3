import HeraldCore
import HeraldHTTPClient

/// Delivers events through Firebase Cloud Messaging HTTP v1, one request per
/// target, multiplexed over the shared `HTTPClient`.
///
/// Authenticates as a service account (RS256 assertion → OAuth access token,
/// cached in an `AccessTokenCache`); on a 401 it evicts the token, refreshes
/// once and sends again. Answers are mapped by `FCMAnswer`.
public final class FCMProvider: PushProvider {
    public let provider: Provider = .fcm
    public let projectID: String
    public let account: ServiceAccount
    /// `POST` target of every message.
    public let sendURL: String
    let http: HTTPClient
    let tokens: AccessTokenCache
    let builder = FCMMessageBuilder()
    let timeout: Duration
    let now: @Sendable () -> Timestamp
    let logger: Logger

    /// - Parameters:
    ///   - endpoint: `https://fcm.googleapis.com` or an override (the simulator); OAuth goes to the account's `token_uri`.
    ///   - now: the wall clock (assertion `iat`, token expiry, `expires_at` → TTL, HTTP-date `Retry-After`); injected for tests.
    ///   - onRefresh: told of every access-token fetch, and whether it worked (metrics).
    public init(
        projectID: String, account: ServiceAccount, endpoint: String, httpClient: HTTPClient,
        timeout: Duration = .seconds(10), logger: Logger,
        now: @escaping @Sendable () -> Timestamp = { Timestamp.now() },
        onRefresh: CredentialRefreshHook? = nil
    ) {
        self.projectID = projectID
        self.account = account
        let base = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
        sendURL = "\(base)/v1/projects/\(projectID)/messages:send"
        http = httpClient
        self.timeout = timeout
        self.now = now
        self.logger = logger
        let fetcher = OAuthTokenFetcher(account: account, http: httpClient, timeout: timeout, now: now, logger: logger)
        tokens = AccessTokenCache(now: now) { () async throws(FCMAuthError) -> AccessToken in
            do throws(FCMAuthError) {
                let token = try await fetcher.fetch()
                onRefresh?(true)
                return token
            } catch {
                onRefresh?(false)
                throw error
            }
        }
    }

    /// The message Herald would send for `event` to `target` now.
    public func message(for event: Event, to target: Target) -> FCMMessage {
        builder.message(for: event, to: target.address, now: now())
    }

    /// A valid access token (cached or fetched): `herald check --online` proves the credentials with it.
    public func accessToken() async throws(FCMAuthError) -> AccessToken {
        try await tokens.token()
    }
}
