import HeraldAPNs
import HeraldCore
import HeraldPipeline
import Testing

@Suite struct ResponseTests {
    func verdict(_ status: Int, _ body: String) -> APNsResponseVerdict {
        APNsResponseVerdict(status: status, body: Array(body.utf8), apnsID: "id-1", retryAfter: .seconds(7))
    }

    @Test func successIsDeliveredWithTheApnsID() {
        #expect(verdict(200, "") == .result(DeliveryResult(.delivered, providerStatus: 200, providerMessageID: "id-1")))
    }

    @Test func unregisteredIsAnInvalidTokenWithItsMillisecondTimestamp() {
        let invalidatedAt = Timestamp(millisecondsSinceEpoch: 1_795_000_000_123)
        #expect(
            verdict(410, #"{"reason":"Unregistered","timestamp":1795000000123}"#)
                == .result(
                    DeliveryResult(
                        .invalidToken(invalidatedAt: invalidatedAt), reason: "Unregistered", providerStatus: 410,
                        providerMessageID: "id-1")))
        #expect(invalidatedAt.rfc3339() == "2026-11-18T11:06:40.123Z")
    }

    @Test func everyDocumentedReasonMapsToItsOutcome() {
        let expected: [String: String] = [
            "BadDeviceToken": "invalid_token", "DeviceTokenNotForTopic": "invalid_token",
            "Unregistered": "invalid_token",
            "ExpiredToken": "invalid_token",
            "BadCollapseId": "failed", "BadExpirationDate": "failed", "BadMessageId": "failed", "BadPriority": "failed",
            "BadTopic": "failed", "DuplicateHeaders": "failed", "IdleTimeout": "failed", "InvalidPushType": "failed",
            "MissingDeviceToken": "failed", "MissingTopic": "failed", "PayloadEmpty": "failed",
            "TopicDisallowed": "failed",
            "BadCertificate": "failed", "BadCertificateEnvironment": "failed", "Forbidden": "failed",
            "UnrelatedKeyIdInToken": "failed", "BadEnvironmentKeyIdInToken": "failed", "BadPath": "failed",
            "MethodNotAllowed": "failed", "PayloadTooLarge": "failed",
            "ExpiredProviderToken": "refresh", "InvalidProviderToken": "refresh", "MissingProviderToken": "refresh",
            "TooManyRequests": "retrying", "TooManyProviderTokenUpdates": "retrying", "InternalServerError": "retrying",
            "ServiceUnavailable": "retrying", "Shutdown": "retrying",
        ]
        #expect(APNsReason.table.count == expected.count)
        for entry in APNsReason.table {
            let answer = verdict(entry.status, "{\"reason\":\"\(entry.name)\"}")
            #expect(summary(answer) == expected[entry.name], "\(entry.name)")
            #expect(APNsReason(rawValue: entry.name) == entry.reason)
            #expect(entry.reason.rawValue == entry.name)
        }
    }

    @Test func retryableAnswersKeepStatusReasonAndRetryAfter() {
        #expect(
            verdict(503, #"{"reason":"Shutdown"}"#)
                == .failure(
                    DeliveryFailure(
                        reason: "Shutdown", providerStatus: 503, retryAfter: .seconds(7))))
    }

    @Test func tooManyRequestsPausesThatDeviceOnly() {
        #expect(
            verdict(429, #"{"reason":"TooManyRequests"}"#)
                == .failure(
                    DeliveryFailure(
                        reason: "TooManyRequests", providerStatus: 429, retryAfter: .seconds(7),
                        pause: SendPause(
                            .token, cause: "too many notifications to this device (TooManyRequests)", service: "APNs")))
        )
        // Apple's own capacity, not the device's: nothing pauses.
        guard case .failure(let failure) = verdict(429, #"{"reason":"TooManyProviderTokenUpdates"}"#) else {
            Issue.record("expected a retryable failure")
            return
        }
        #expect(failure.pause == nil)
    }

    @Test func unknownReasonIsKeptVerbatimAndClassifiedByStatus() {
        #expect(APNsReason(rawValue: "BrandNewReason") == .unknown("BrandNewReason"))
        #expect(summary(verdict(400, #"{"reason":"BrandNewReason"}"#)) == "failed")
        #expect(summary(verdict(410, #"{"reason":"GoneForGood"}"#)) == "invalid_token")
        #expect(summary(verdict(502, #"{"reason":"Teapot"}"#)) == "retrying")
        #expect(
            verdict(400, #"{"reason":"BrandNewReason"}"#)
                == .result(
                    DeliveryResult(
                        .failed, reason: "BrandNewReason", providerStatus: 400, providerMessageID: "id-1")))
    }

    @Test func bodyWithoutJSONIsReportedAsTheHTTPStatus() {
        #expect(
            verdict(502, "<html>Bad Gateway</html>")
                == .failure(
                    DeliveryFailure(
                        reason: "HTTP 502", providerStatus: 502, retryAfter: .seconds(7))))
    }

    @Test func errorBodyEncodesLikeApple() {
        let body = APNsErrorBody(reason: .unregistered, timestamp: Timestamp(millisecondsSinceEpoch: 1_795_000_000_123))
        #expect(
            String(decoding: body.encoded, as: UTF8.self) == #"{"reason":"Unregistered","timestamp":1795000000123}"#)
    }

    func summary(_ verdict: APNsResponseVerdict) -> String {
        switch verdict {
        case .result(let result): OutcomeBuilder.status(of: result).rawValue
        case .failure: "retrying"
        case .refreshProviderToken: "refresh"
        }
    }
}
