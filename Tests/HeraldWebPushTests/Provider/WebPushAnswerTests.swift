import HeraldCore
import HeraldProviders
import Testing
@testable import HeraldWebPush

/// The push service's answer → verdict table (RFC 8030 §5, §8.4).
@Suite struct WebPushAnswerTests {
    let now = Timestamp(rfc3339: "2026-12-06T10:00:00Z")!

    @Test func createdIsDeliveredWithTheLocation() {
        guard
            case .delivered(let location) = WebPushAnswer.classify(
                status: 201, location: "https://push.example/m/1", retryAfter: nil, body: [], now: now)
        else {
            Issue.record("201 is delivered")
            return
        }
        #expect(location == "https://push.example/m/1")
    }

    @Test(arguments: [404, 410])
    func aGoneSubscriptionIsInvalidToken(status: Int) {
        let body = Array(
            #"{"code": 410, "errno": 106, "error": "Gone", "message": "Request did not validate: expired subscription"}"#
                .utf8)
        guard
            case .definitive(let result) = WebPushAnswer.classify(
                status: status, location: nil, retryAfter: nil, body: body, now: now)
        else {
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
        guard
            case .transient(let failure) = WebPushAnswer.classify(
                status: 429, location: nil, retryAfter: "30", body: [], now: now)
        else {
            Issue.record("429 is transient")
            return
        }
        #expect(failure.reason == "TooManyRequests")
        #expect(failure.retryAfter == .seconds(30))
        #expect(failure.providerStatus == 429)
    }

    @Test func anHTTPDateRetryAfterIsCountedFromNow() {
        guard
            case .transient(let failure) = WebPushAnswer.classify(
                status: 503, location: nil, retryAfter: "Sun, 06 Dec 2026 10:01:00 GMT", body: Array("busy".utf8),
                now: now)
        else {
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
        guard
            case .definitive(let result) = WebPushAnswer.classify(
                status: status, location: nil, retryAfter: nil, body: body, now: now)
        else {
            Issue.record("\(status) is definitive")
            return
        }
        #expect(result.status == .failed)
        #expect(result.reason == reason)
    }

    @Test func theDefaultPlaintextIsTheNotificationAndData() throws {
        let event = try Event.decode(
            Array(
                #"""
                {"id": "e", "provider": "fcm", "token": "t", "notification": {"title": "Hi", "badge": 2, "sound": {"name": "a.caf", "critical": true}},
                 "data": {"k": "v"}}
                """#.utf8), fallbackID: "e", providers: .registered)
        let plaintext = try JSONValue.parse(WebPushPayload.plaintext(of: event))
        #expect(
            plaintext == [
                "notification": ["title": "Hi", "badge": 2, "sound": ["name": "a.caf", "critical": true]],
                "data": ["k": "v"],
            ])
    }

    @Test func aTopicIsAtMost32URLSafeCharacters() {
        #expect(WebPushMessage.problem(withTopic: String(repeating: "a", count: 32)) == nil)
        #expect(WebPushMessage.problem(withTopic: "room_7-b") == nil)
        #expect(WebPushMessage.problem(withTopic: String(repeating: "a", count: 33)) != nil)
        #expect(
            WebPushMessage.problem(withTopic: "room 7")?.contains(
                "at most 32 characters of letters, digits, '-' and '_'") == true)
    }
}

/// A push service's words reach an outcome short and clean (`ProviderReason`).
@Suite struct WebPushProviderWordsTests {
    let now = Timestamp(rfc3339: "2026-12-06T10:00:00Z")!

    @Test func theStatusNamesAreTokens() {
        for status in [400, 401, 403, 404, 410, 413, 415, 429, 500, 502, 503, 504] {
            #expect(ProviderReason.isToken(WebPushAnswer.statusName(status)), "\(status)")
        }
    }

    /// 1 MiB of escape sequences and bells as the JSON reason, and a Location
    /// that is not printable.
    @Test func aHugeReasonFullOfControlsIsTheStatusNameAndABoundedCleanDetail() {
        let reason = String(repeating: #"\u001b]0;owned\u0007\u001b[2J"#, count: (1 << 20) / 32)
        let body = Array(#"{"reason":"\#(reason)"}"#.utf8)
        for status in [400, 404, 503] {
            let answer = WebPushAnswer.classify(status: status, location: nil, retryAfter: nil, body: body, now: now)
            let (said, detail): (String?, String?)
            switch answer {
            case .definitive(let result): (said, detail) = (result.reason, result.detail)
            case .transient(let failure): (said, detail) = (failure.reason, failure.detail)
            case .delivered: (said, detail) = (nil, nil)
            }
            #expect(said == WebPushAnswer.statusName(status))
            #expect((detail?.utf8.count ?? 0) <= DeliveryDetail.maxBytes)
            #expect(detail?.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } == false)
        }
        let plain = WebPushAnswer.classify(
            status: 400, location: nil, retryAfter: nil,
            body: Array("\u{1B}]0;x\u{07}oops".utf8), now: now)
        guard case .definitive(let result) = plain else {
            Issue.record("400 is definitive")
            return
        }
        #expect(result == DeliveryResult(.failed, reason: "BadRequest", detail: "]0;x oops", providerStatus: 400))
    }

    @Test func aLocationThatIsNotPrintableIsDropped() {
        #expect(
            DeliveryResult(.delivered, providerMessageID: "https://push.example/m/\u{1B}[2J").providerMessageID == nil)
        #expect(
            DeliveryResult(.delivered, providerMessageID: "https://push.example/m/1").providerMessageID
                == "https://push.example/m/1")
    }
}
