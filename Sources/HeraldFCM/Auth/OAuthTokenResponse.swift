import HeraldCore

/// Reads the token endpoint's answer: `{"access_token","expires_in","token_type":"Bearer"}`
/// on 200, `{"error","error_description"}` otherwise.
enum OAuthTokenResponse {
    static func parse(status: Int, body: [UInt8], receivedAt: Timestamp) throws(FCMAuthError) -> AccessToken {
        let object = (try? JSONValue.parse(body))?.objectValue
        guard status == 200 else {
            let retryable = status == 429 || status >= 500
            guard let object, let error = object["error"]?.stringValue else {
                throw FCMAuthError(
                    reason: "TokenEndpointError", status: status,
                    message: "the token endpoint answered HTTP \(status) without an OAuth error body",
                    isRetryable: retryable)
            }
            let description = object["error_description"]?.stringValue ?? "no error_description"
            throw FCMAuthError(reason: error, status: status, message: description, isRetryable: retryable)
        }
        guard let object else {
            throw malformed("the body is not a JSON object")
        }
        guard let value = object["access_token"]?.stringValue, !value.isEmpty else {
            throw malformed("no \"access_token\" string")
        }
        // It goes into an authorization header: visible ASCII only (RFC 6750 b64token is a subset).
        guard value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw malformed("\"access_token\" holds a space, control or non-ASCII character")
        }
        guard let expiresIn = object["expires_in"]?.intValue, expiresIn > 0 else {
            throw malformed("no positive integer \"expires_in\"")
        }
        if let type = object["token_type"]?.stringValue, type.lowercased() != "bearer" {
            throw malformed("\"token_type\" is \"\(type)\", expected \"Bearer\"")
        }
        return AccessToken(value: value, issuedAt: receivedAt, expiresAt: receivedAt + .seconds(expiresIn))
    }

    private static func malformed(_ message: String) -> FCMAuthError {
        FCMAuthError(reason: "MalformedTokenResponse", status: 200, message: message, isRetryable: false)
    }
}
