// Fuzzes the parsing of what APNs, FCM, Web Push services and Google's token endpoint answer:
// the APNs verdict (status, error body, 410 timestamp, apns-id, Retry-After),
// the FCM answer (status, FcmError body, Retry-After in seconds or as an
// HTTP date) and the OAuth token response.
//
// Input (see FuzzMessage): the start line is the HTTP status (digits; other
// text means 400); headers `apns-id`, `retry-after`, and `:topic` (the FCM
// target is that topic instead of a token); the body is the response body.
import FuzzSupport
@testable import HeraldAPNs
import HeraldCore
@testable import HeraldFCM
@testable import HeraldWebPush

let now = Timestamp(seconds: 1_796_000_000, nanoseconds: 500_000_000)

FuzzDriver.run { input in
    let message = FuzzMessage(input)
    let status = Int(message.startLine.prefix(4)) ?? 400
    let retryAfterHeader = message.header("retry-after")

    _ = APNsErrorBody(parsing: message.body)?.encoded
    _ = APNsResponseVerdict(
        status: status, body: message.body, apnsID: message.header("apns-id"),
        retryAfter: retryAfterHeader.flatMap { RetryAfter.parse($0, now: now) }, latency: .milliseconds(3))

    let target: Target.Address = message.header(":topic").map { .topic($0) } ?? .token("fuzz-registration-token")
    let error = FCMErrorBody(parsing: message.body)
    _ = error.isAbout(device: target)
    _ = error.detail
    _ = FCMAnswer.classify(
        status: status, retryAfterHeader: retryAfterHeader, body: message.body, target: target, now: now)
    if let retryAfterHeader { _ = RetryAfter.parse(retryAfterHeader, now: now) }
    _ = WebPushAnswer.classify(
        status: status, location: message.header("location"), retryAfter: retryAfterHeader,
        body: message.body, now: now)

    do throws(FCMAuthError) {
        let token = try OAuthTokenResponse.parse(status: status, body: message.body, receivedAt: now)
        precondition(token.expiresAt > now, "a token that expires at or before it was received was accepted")
    } catch {
        _ = error.description
    }
}
