import HeraldCore
@testable import HeraldFCM
import Testing

/// The token endpoint's answer is read without trusting its numbers or its
/// token: what cannot be used is `MalformedTokenResponse`, never a trap or
/// a header that would end early.
@Suite struct TokenResponseTests {
    let now = Timestamp(seconds: 1_800_000_000)

    func parse(_ json: String) -> Result<AccessToken, FCMAuthError> {
        Result { () throws(FCMAuthError) -> AccessToken in
            try OAuthTokenResponse.parse(status: 200, body: Array(json.utf8), receivedAt: now)
        }
    }

    @Test func anAccessTokenThatCouldNotBeAHeaderValueIsMalformed() {
        for token in ["ya29.a\\r\\nx-evil: 1", "ya29 space", "ya29\\u0000", "ya29.ü"] {
            let result = parse(#"{"access_token":"\#(token)","expires_in":3599,"token_type":"Bearer"}"#)
            guard case .failure(let error) = result else {
                Issue.record("\(token) was accepted")
                continue
            }
            #expect(error.reason == "MalformedTokenResponse" && error.message.contains("access_token"), "\(error)")
            #expect(!error.isRetryable)
        }
    }

    @Test func expiresInOutsideAnIntOrNotPositiveIsMalformedAndHugeSaturates() throws {
        for value in ["-1", "0", "1e30", "3599.5", "-9223372036854775808", "\"3599\""] {
            let result = parse(#"{"access_token":"ya29.x","expires_in":\#(value)}"#)
            guard case .failure(let error) = result else {
                Issue.record("expires_in \(value) was accepted")
                continue
            }
            #expect(error.reason == "MalformedTokenResponse", "\(value): \(error)")
        }
        let huge = try parse(#"{"access_token":"ya29.x","expires_in":9223372036854775807}"#).get()
        #expect(
            huge.expiresAt > now && huge.refreshAt(margin: .seconds(300)) > now,
            "saturates instead of trapping: \(huge)")
    }
}
