import HeraldCore
import HeraldProviders
import Testing
@testable import HeraldWebPush

/// The push service's answer → verdict table (RFC 8030 §5, §8.4).
@Suite struct WebPushAnswerTests {
    let now = Timestamp(rfc3339: "2026-12-06T10:00:00Z")!

    @Test func createdIsDeliveredWithTheLocation() {
        guard case .delivered(let location) = WebPushAnswer.classify(
            status: 201, location: "https://push.example/m/1", retryAfter: nil, body: [], now: now) else {
            Issue.record("201 is delivered")
            return
        }
        #expect(location == "https://push.example/m/1")
    }

    @Test(arguments: [404, 410])
    func aGoneSubscriptionIsInvalidToken(status: Int) {
        let body = Array(#"{"code": 410, "errno": 106, "error": "Gone", "message": "Request did not validate: expired subscription"}"#.utf8)
        guard case .definitive(let result) = WebPushAnswer.classify(status: status, location: nil, retryAfter: nil, body: body, now: now) else {
            Issue.record("\(status) is definitive")
            return
        }
        #expect(result.status == .invalidToken(invalidatedAt: nil))
        #expect(result.reason == "Gone")
        #expect(result.detail == "Request did not validate: expired subscription")
        #expect(result.providerStatus == status)
        #expect(!result.couldBeMisconfiguration)
    }

    @Test func tooManyRequestsIsRetriedAfterTheRetryAfter() {
        guard case .transient(let failure) = WebPushAnswer.classify(status: 429, location: nil, retryAfter: "30", body: [], now: now) else {
            Issue.record("429 is transient")
            return
        }
        #expect(failure.reason == "TooManyRequests")
        #expect(failure.retryAfter == .seconds(30))
        #expect(failure.providerStatus == 429)
    }

    @Test func anHTTPDateRetryAfterIsCountedFromNow() {
        guard case .transient(let failure) = WebPushAnswer.classify(
            status: 503, location: nil, retryAfter: "Sun, 06 Dec 2026 10:01:00 GMT", body: Array("busy".utf8), now: now) else {
            Issue.record("503 is transient")
            return
        }
        #expect(failure.retryAfter == .seconds(60))
        #expect(failure.reason == "ServiceUnavailable")
        #expect(failure.detail == "busy")
    }

    @Test(arguments: [(400, "BadRequest"), (403, "BadJwtToken"), (413, "PayloadTooLarge"), (401, "Unauthorized")])
    func otherRefusalsFailWithThePushServicesWords(status: Int, reason: String) {
        let body = status == 403 ? Array(#"{"reason": "BadJwtToken"}"#.utf8) : []
        guard case .definitive(let result) = WebPushAnswer.classify(status: status, location: nil, retryAfter: nil, body: body, now: now) else {
            Issue.record("\(status) is definitive")
            return
        }
        #expect(result.status == .failed)
        #expect(result.reason == reason)
    }

    @Test func theDefaultPlaintextIsTheNotificationAndData() throws {
        let event = try Event.decode(Array(#"""
            {"id": "e", "provider": "fcm", "token": "t", "notification": {"title": "Hi", "badge": 2, "sound": {"name": "a.caf", "critical": true}},
             "data": {"k": "v"}}
            """#.utf8), fallbackID: "e", providers: .registered)
        let plaintext = try JSONValue.parse(WebPushPayload.plaintext(of: event))
        #expect(plaintext == ["notification": ["title": "Hi", "badge": 2, "sound": ["name": "a.caf", "critical": true]], "data": ["k": "v"]])
    }

    @Test func aTopicIsAtMost32URLSafeCharacters() {
        #expect(WebPushMessage.problem(withTopic: String(repeating: "a", count: 32)) == nil)
        #expect(WebPushMessage.problem(withTopic: "room_7-b") == nil)
        #expect(WebPushMessage.problem(withTopic: String(repeating: "a", count: 33)) != nil)
        #expect(WebPushMessage.problem(withTopic: "room 7")?.contains("at most 32 characters of letters, digits, '-' and '_'") == true)
    }
}
