import HeraldCore
import HeraldCrypto
import HeraldHTTPClient

/// Exchanges a freshly signed assertion for an access token at the service
/// account's `token_uri` (one POST, form body, JSON answer).
struct OAuthTokenFetcher: Sendable {
    let account: ServiceAccount
    let http: HTTPClient
    let timeout: Duration
    let now: @Sendable () -> Timestamp
    let logger: Logger

    func fetch() async throws(FCMAuthError) -> AccessToken {
        let issuedAt = now()
        let assertion: String
        do {
            assertion = try OAuthAssertion.sign(for: account, issuedAt: issuedAt)
        } catch {
            throw FCMAuthError(reason: "AssertionSigningFailed", message: "\(error)", isRetryable: false)
        }
        let request = HTTPClientRequest(
            method: "POST", url: account.tokenURI,
            headers: [("content-type", "application/x-www-form-urlencoded"), ("accept", "application/json")],
            body: OAuthAssertion.formBody(assertion: assertion), timeout: timeout)
        let response: HTTPClientResponse
        do {
            response = try await http.send(request)
        } catch let error as HTTPClientError {
            throw FCMAuthError(reason: "TokenEndpointUnreachable", message: "\(error)", isRetryable: error.isRetryable)
        } catch {
            throw FCMAuthError(reason: "TokenEndpointUnreachable", message: "\(error)", isRetryable: true)
        }
        let token = try OAuthTokenResponse.parse(status: response.status, body: response.body, receivedAt: now())
        logger.info(
            "fetched FCM access token",
            [
                "client_email": .string(account.clientEmail),
                "expires_at": .string(token.expiresAt.rfc3339(fractionDigits: 0)),
            ])
        return token
    }
}
