import HeraldCore
import HeraldFCM
import Testing

/// Google's words reach an outcome short and clean (`ProviderReason`); its
/// documented codes and statuses unchanged.
@Suite struct ProviderWordsFCMTests {
    let now = Timestamp(seconds: 1_796_032_800)

    static let documented = [
        "UNSPECIFIED_ERROR", "INVALID_ARGUMENT", "UNREGISTERED", "SENDER_ID_MISMATCH", "QUOTA_EXCEEDED",
        "UNAVAILABLE", "INTERNAL", "THIRD_PARTY_AUTH_ERROR", "NOT_FOUND", "PERMISSION_DENIED",
        "RESOURCE_EXHAUSTED", "UNAUTHENTICATED",
    ]

    @Test(arguments: documented)
    func everyDocumentedCodeAndStatusIsKept(name: String) {
        #expect(ProviderReason.isToken(name))
        #expect(FCMErrorCode(rawValue: name).rawValue == name)
        #expect(ProviderReason.isToken(FCMErrorCode(rawValue: name).rawValue))
    }

    /// Herald's own FCM reason passes the bound on every reason unchanged.
    @Test func heraldsThirdPartyAuthReasonIsUnchanged() {
        #expect(DeliveryReason.bounded(FCMAnswer.thirdPartyAuthReason) == FCMAnswer.thirdPartyAuthReason)
        #expect(
            DeliveryResult(.failed, reason: FCMAnswer.thirdPartyAuthReason).reason == FCMAnswer.thirdPartyAuthReason)
    }

    @Test func aStatusWithEscapeSequencesIsTheHTTPStatusAndItsWordsTheDetail() {
        let status = "INVALID\u{1B}]0;owned\u{07}" + String(repeating: "\u{1B}[2J", count: 100_000)
        let body: JSONValue = ["error": ["code": 400, "message": "bad \u{9B}31m thing", "status": .string(status)]]
        let answer = FCMAnswer.classify(
            status: 400, retryAfterHeader: nil, body: body.serialized, target: .token("t"), now: now)
        guard case .definitive(let result) = answer else {
            Issue.record("\(answer)")
            return
        }
        #expect(result.reason == "HTTP 400")
        #expect(result.detail?.hasPrefix("INVALID ]0;owned") == true, "\(result.detail ?? "")")
        #expect((result.detail?.utf8.count ?? 0) <= DeliveryDetail.maxBytes)
        #expect(result.detail?.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } == false)
    }
}
