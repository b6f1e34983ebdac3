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

    var answer: SimulatedAnswer {
        let body: JSONValue = ["error": .string(error), "error_description": .string(description)]
        return .respond(
            status: status, headers: [("content-type", "application/json; charset=utf-8")], body: body.serialized,
            delay: nil)
    }
}
