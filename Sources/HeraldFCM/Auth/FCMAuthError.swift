/// Why no access token could be had: the token endpoint refused the
/// assertion (`invalid_grant`, `invalid_client`, ...), could not be reached,
/// or answered nonsense. Carries Google's error code and description, never
/// the assertion or a token.
public struct FCMAuthError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Google's `error` (`invalid_grant`), or Herald's name for a transport or
    /// parsing failure (`TokenEndpointUnreachable`, `MalformedTokenResponse`, `AssertionSigningFailed`).
    public let reason: String
    /// The HTTP status of the token endpoint's answer, when there was one.
    public let status: Int?
    /// `error_description`, or what went wrong.
    public let message: String
    /// Whether asking again later may succeed (connection lost, 429, 5xx).
    public let isRetryable: Bool

    public init(reason: String, status: Int? = nil, message: String, isRetryable: Bool) {
        self.reason = reason
        self.status = status
        self.message = message
        self.isRetryable = isRetryable
    }

    public var description: String {
        let code = status.map { " (HTTP \($0))" } ?? ""
        return "OAuth token request failed: \(reason)\(code): \(message)"
    }
}
