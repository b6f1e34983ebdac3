import HeraldCore
import HeraldCrypto

/// Google's OAuth 2.0 token endpoint, simulated: verifies RS256 service-account
/// assertions the way Google does and issues expiring access tokens that the
/// simulated FCM service accepts.
///
/// Errors are Google's: HTTP 400 (401 for an unknown client) with
/// `{"error":"invalid_grant","error_description":"..."}`.
public struct OAuthSimulatorService: SimulatorService {
    public let name = "oauth"
    public let settings: OAuthSimulatorSettings
    /// Shared with `FCMSimulatorService`, which checks the bearer tokens.
    public let tokens: SimulatedAccessTokens

    public init(settings: OAuthSimulatorSettings, tokens: SimulatedAccessTokens) {
        self.settings = settings
        self.tokens = tokens
    }

    public func serves(_ request: SimulatedRequest) -> Bool {
        request.path.split(separator: "?", maxSplits: 1).first.map(String.init) == settings.tokenPath
    }

    /// The `Simulator` counts the answer (`oauth.200`, `oauth.400`, ...) and records a refusal.
    public func handle(_ request: SimulatedRequest) -> SimulatedAnswer {
        switch grant(request) {
        case .success(let verified):
            let token = tokens.issue(
                for: verified.account, scopes: verified.scopes, at: request.receivedAt,
                lifetime: settings.tokenLifetime)
            let body: JSONValue = [
                "access_token": .string(token),
                "expires_in": .number(JSONNumber(Int(settings.tokenLifetime.components.seconds))),
                "token_type": "Bearer",
            ]
            return .respond(
                status: 200,
                headers: [("content-type", "application/json; charset=utf-8"), ("cache-control", "no-store")],
                body: body.serialized, delay: nil)
        case .failure(let error):
            return error.answer
        }
    }

    /// Google's token endpoint's answer to an injected fault (faults reach it
    /// only when `faults.services` names `oauth`).
    public func injectedError(status: Int) -> SimulatedAnswer {
        OAuthGrantError.injected(status: status).answer
    }

    public func reason(ofErrorBody body: [UInt8]) -> String? {
        OAuthGrantError.reason(in: body)
    }

    /// The account a valid token request authenticates, or why it is refused.
    func grant(_ request: SimulatedRequest) -> Result<AssertionVerifier.Verified, OAuthGrantError> {
        guard request.method == "POST" else {
            return .failure(
                OAuthGrantError(status: 405, error: "invalid_request", description: "token requests must be POST"))
        }
        let form = FormBody.parse(request.body)
        guard let grantType = form["grant_type"] else {
            return .failure(.invalidRequest("Missing required parameter: grant_type"))
        }
        guard grantType == "urn:ietf:params:oauth:grant-type:jwt-bearer" else {
            return .failure(
                OAuthGrantError(error: "unsupported_grant_type", description: "Invalid grant_type: \(grantType)"))
        }
        guard let assertion = form["assertion"], !assertion.isEmpty else {
            return .failure(.invalidRequest("Missing required parameter: assertion"))
        }
        return AssertionVerifier(settings: settings, now: request.receivedAt).verify(assertion)
    }
}
