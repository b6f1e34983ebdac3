import HeraldCore

/// A refused token request, in Google's OAuth error shape.
struct OAuthGrantError: Error, Sendable, Equatable {
    var status = 400
    /// `invalid_grant`, `invalid_request`, `invalid_scope`, `unsupported_grant_type`, `invalid_client`.
    var error: String
    var description: String

    static func invalidGrant(_ description: String) -> OAuthGrantError {
        OAuthGrantError(error: "invalid_grant", description: description)
    }

    static func invalidRequest(_ description: String) -> OAuthGrantError {
        OAuthGrantError(error: "invalid_request", description: description)
    }

    /// Google's wording for any `iat`/`exp` problem.
    static let badTimeframe = invalidGrant(
        "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. "
            + "Check your iat and exp values in the JWT claim.")

    /// Google's token endpoint in trouble, shaped like its other errors
    /// (RFC 6749's `error` and `error_description`): 500 `internal_failure`,
    /// 503 `temporarily_unavailable`, 429 `rate_limit_exceeded`.
    static func injected(status: Int) -> OAuthGrantError {
        switch status {
        case 429: OAuthGrantError(status: 429, error: "rate_limit_exceeded", description: "Rate limit exceeded.")
        case 503:
            OAuthGrantError(
                status: 503, error: "temporarily_unavailable", description: "The service is currently unavailable.")
        default: OAuthGrantError(status: 500, error: "internal_failure", description: "Internal error encountered.")
        }
    }

    /// The `error` of a body in this shape, for the record.
    static func reason(in body: [UInt8]) -> String? {
        (try? JSONValue.parse(body))?["error"]?.stringValue
    }

    var answer: SimulatedAnswer {
        let body: JSONValue = ["error": .string(error), "error_description": .string(description)]
        return .respond(
            status: status, headers: [("content-type", "application/json; charset=utf-8")], body: body.serialized,
            delay: nil)
    }
}
