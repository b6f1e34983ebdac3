import HeraldCore
import HeraldFCM
import Testing

@Suite struct ErrorMappingTests {
    let now = Timestamp(seconds: 1_796_032_800)

    func body(code: Int, status: String, message: String = "m", errorCode: String? = nil, violations: [String] = [])
        -> [UInt8]
    {
        var details: [JSONValue] = []
        if let errorCode {
            details.append([
                "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": .string(errorCode),
            ])
        }
        if !violations.isEmpty {
            details.append([
                "@type": "type.googleapis.com/google.rpc.BadRequest",
                "fieldViolations": .array(violations.map { ["field": .string($0), "description": "bad"] }),
            ])
        }
        let error: JSONValue = [
            "error": [
                "code": .number(JSONNumber(code)), "message": .string(message), "status": .string(status),
                "details": .array(details),
            ]
        ]
        return error.serialized
    }

    /// The answer, without Google's explanation (`detailIsGooglesMessageAndViolations` pins that).
    func classify(_ status: Int, _ body: [UInt8], retryAfter: String? = nil, target: Target.Address = .token("t"))
        -> FCMAnswer
    {
        switch FCMAnswer.classify(status: status, retryAfterHeader: retryAfter, body: body, target: target, now: now) {
        case .definitive(var result):
            result.detail = nil
            return .definitive(result)
        case .transient(var failure):
            failure.detail = nil
            return .transient(failure)
        case let other:
            return other
        }
    }

    @Test func detailIsGooglesMessageAndViolations() {
        let unknownField =
            #"Invalid JSON payload received. Unknown name "chanel_id" at 'message.android.notification': Cannot find field."#
        let answer = FCMAnswer.classify(
            status: 400, retryAfterHeader: nil,
            body: body(
                code: 400, status: "INVALID_ARGUMENT", message: unknownField,
                violations: ["message.android.notification"]),
            target: .token("t"), now: now)
        guard case .definitive(let result) = answer else {
            Issue.record("expected a definitive answer, got \(answer)")
            return
        }
        #expect(result.status == .failed)
        #expect(result.reason == "INVALID_ARGUMENT")
        #expect(result.detail == unknownField + "; message.android.notification: bad")
        let transient = FCMAnswer.classify(
            status: 503, retryAfterHeader: nil,
            body: body(code: 503, status: "UNAVAILABLE", message: "The service is currently unavailable."),
            target: .token("t"), now: now)
        #expect(
            transient
                == .transient(
                    DeliveryFailure(
                        reason: "UNAVAILABLE", detail: "The service is currently unavailable.",
                        providerStatus: 503)))
    }

    @Test func everyErrorCodeMapsToItsOutcome() {
        // Every token-level answer but UNREGISTERED is also what a wrong project gives: the guard may hold it back.
        let invalid = { (reason: String, status: Int) in
            FCMAnswer.definitive(
                DeliveryResult(
                    .invalidToken(invalidatedAt: nil), reason: reason, providerStatus: status,
                    couldBeMisconfiguration: reason != "UNREGISTERED"))
        }
        let failed = { (reason: String, status: Int) in
            FCMAnswer.definitive(DeliveryResult(.failed, reason: reason, providerStatus: status))
        }
        let retry = { (reason: String, status: Int, wait: Duration?) in
            FCMAnswer.transient(
                DeliveryFailure(
                    reason: reason, providerStatus: status, retryAfter: wait,
                    pause: reason == "QUOTA_EXCEEDED"
                        ? SendPause(
                            .token, cause: "this device's FCM message rate exceeded (QUOTA_EXCEEDED)", service: "FCM")
                        : nil))
        }
        #expect(
            classify(404, body(code: 404, status: "NOT_FOUND", errorCode: "UNREGISTERED"))
                == invalid("UNREGISTERED", 404))
        #expect(
            classify(403, body(code: 403, status: "PERMISSION_DENIED", errorCode: "SENDER_ID_MISMATCH"))
                == invalid("SENDER_ID_MISMATCH", 403))
        #expect(
            classify(
                400,
                body(
                    code: 400, status: "INVALID_ARGUMENT",
                    message: "The registration token is not a valid FCM registration token",
                    errorCode: "INVALID_ARGUMENT")) == invalid("INVALID_ARGUMENT", 400))
        #expect(
            classify(
                400,
                body(code: 400, status: "INVALID_ARGUMENT", message: "Invalid value", violations: ["message.token"]))
                == invalid("INVALID_ARGUMENT", 400))
        #expect(
            classify(
                400,
                body(
                    code: 400, status: "INVALID_ARGUMENT",
                    message: "Invalid value at 'message.data[0].value' (TYPE_STRING), 12",
                    violations: ["message.data[0].value"])) == failed("INVALID_ARGUMENT", 400))
        #expect(
            classify(
                400,
                body(
                    code: 400, status: "INVALID_ARGUMENT", message: "Message is too big", errorCode: "INVALID_ARGUMENT")
            )
                == failed("INVALID_ARGUMENT", 400))
        #expect(
            classify(429, body(code: 429, status: "RESOURCE_EXHAUSTED", errorCode: "QUOTA_EXCEEDED"), retryAfter: "30")
                == retry("QUOTA_EXCEEDED", 429, .seconds(30)))
        #expect(
            classify(503, body(code: 503, status: "UNAVAILABLE", errorCode: "UNAVAILABLE"), retryAfter: "7")
                == retry("UNAVAILABLE", 503, .seconds(7)))
        #expect(
            classify(500, body(code: 500, status: "INTERNAL", errorCode: "INTERNAL")) == retry("INTERNAL", 500, nil))
        #expect(
            classify(401, body(code: 401, status: "UNAUTHENTICATED", errorCode: "THIRD_PARTY_AUTH_ERROR"))
                == failed(FCMAnswer.thirdPartyAuthReason, 401))
    }

    @Test func thirdPartyAuthReasonPointsAtTheAPNsCredentialsInFirebase() {
        #expect(
            FCMAnswer.thirdPartyAuthReason
                == "THIRD_PARTY_AUTH_ERROR: APNs (or Web Push) refused the credentials uploaded "
                + "to Firebase; check the APNs auth key or certificate in the Firebase console (Project settings > Cloud Messaging)"
        )
    }

    @Test func tokenErrorsOnATopicMessageAreNotAboutAToken() {
        let answer = classify(
            400, body(code: 400, status: "INVALID_ARGUMENT", violations: ["message.token"]), target: .topic("news"))
        #expect(answer == .definitive(DeliveryResult(.failed, reason: "INVALID_ARGUMENT", providerStatus: 400)))
    }

    /// Answers about a FID map as answers about a token do: UNREGISTERED and
    /// SENDER_ID_MISMATCH are `invalid_token`, and INVALID_ARGUMENT is when its
    /// violation names `message.fid`. A violation on another device field, or
    /// a message about the registration token, is not about the FID.
    @Test func answersAboutAFIDMapLikeAnswersAboutAToken() {
        let fid = Target.Address.fid("cR1Zm2QmSSmvP3bqAbcDef")
        let invalid = { (reason: String, status: Int, suspect: Bool) in
            FCMAnswer.definitive(
                DeliveryResult(
                    .invalidToken(invalidatedAt: nil), reason: reason, providerStatus: status,
                    couldBeMisconfiguration: suspect))
        }
        let failed = FCMAnswer.definitive(DeliveryResult(.failed, reason: "INVALID_ARGUMENT", providerStatus: 400))
        #expect(
            classify(404, body(code: 404, status: "NOT_FOUND", errorCode: "UNREGISTERED"), target: fid)
                == invalid("UNREGISTERED", 404, false))
        #expect(
            classify(403, body(code: 403, status: "PERMISSION_DENIED", errorCode: "SENDER_ID_MISMATCH"), target: fid)
                == invalid("SENDER_ID_MISMATCH", 403, true))
        #expect(
            classify(
                400,
                body(
                    code: 400, status: "INVALID_ARGUMENT", message: "The Firebase Installation ID is not a valid FID",
                    errorCode: "INVALID_ARGUMENT", violations: ["message.fid"]), target: fid)
                == invalid("INVALID_ARGUMENT", 400, true))
        #expect(
            classify(400, body(code: 400, status: "INVALID_ARGUMENT", violations: ["message.token"]), target: fid)
                == failed)
        #expect(
            classify(
                400,
                body(
                    code: 400, status: "INVALID_ARGUMENT",
                    message: "The registration token is not a valid FCM registration token",
                    errorCode: "INVALID_ARGUMENT"), target: fid) == failed)
        #expect(
            classify(400, body(code: 400, status: "INVALID_ARGUMENT", violations: ["message.fid"])) == failed,
            "a violation on message.fid is not about a token target")
    }

    @Test func notFoundWithoutFcmErrorIsAWrongProjectNotADeadToken() {
        #expect(
            classify(404, body(code: 404, status: "NOT_FOUND", message: "Requested entity was not found."))
                == .definitive(DeliveryResult(.failed, reason: "NOT_FOUND", providerStatus: 404)))
    }

    @Test func unauthenticatedWithoutFcmErrorAsksForATokenRefresh() {
        #expect(
            classify(401, body(code: 401, status: "UNAUTHENTICATED")) == .unauthenticated(reason: "UNAUTHENTICATED"))
        #expect(
            classify(403, body(code: 403, status: "PERMISSION_DENIED"))
                == .definitive(DeliveryResult(.failed, reason: "PERMISSION_DENIED", providerStatus: 403)))
    }

    @Test func quotaWithoutRetryAfterBacksOffAMinute() {
        #expect(
            classify(429, body(code: 429, status: "RESOURCE_EXHAUSTED", errorCode: "QUOTA_EXCEEDED"))
                == .transient(
                    DeliveryFailure(
                        reason: "QUOTA_EXCEEDED", providerStatus: 429, retryAfter: .seconds(60),
                        pause: SendPause(
                            .token, cause: "this device's FCM message rate exceeded (QUOTA_EXCEEDED)",
                            service: "FCM"))))
    }

    @Test func quotaAnswersSayWhichSendsPause() {
        // Google's project quota answer names its quota metric: the app's sends pause; any other is one device's rate.
        let project = classify(
            429,
            body(
                code: 429, status: "RESOURCE_EXHAUSTED",
                message: "Quota exceeded for quota metric 'Send requests' of service 'fcm.googleapis.com'.",
                errorCode: "QUOTA_EXCEEDED"))
        guard case .transient(let failure) = project else {
            Issue.record("expected a transient failure, got \(project)")
            return
        }
        #expect(failure.pause == SendPause(.app, cause: "FCM project quota exceeded (QUOTA_EXCEEDED)", service: "FCM"))
        guard
            case .transient(let unavailable) = classify(
                503, body(code: 503, status: "UNAVAILABLE", errorCode: "UNAVAILABLE"))
        else {
            Issue.record("expected a transient failure")
            return
        }
        #expect(unavailable.pause == nil)
    }

    @Test func unknownCodesAreKeptVerbatimAndClassifiedByStatus() {
        #expect(FCMErrorCode(rawValue: "BRAND_NEW") == .unknown("BRAND_NEW"))
        #expect(
            classify(400, body(code: 400, status: "INVALID_ARGUMENT", errorCode: "BRAND_NEW"))
                == .definitive(DeliveryResult(.failed, reason: "BRAND_NEW", providerStatus: 400)))
        #expect(
            classify(503, body(code: 503, status: "UNAVAILABLE", errorCode: "BRAND_NEW"))
                == .transient(DeliveryFailure(reason: "BRAND_NEW", providerStatus: 503, retryAfter: nil)))
        #expect(
            classify(502, Array("<html>bad gateway</html>".utf8))
                == .transient(DeliveryFailure(reason: "HTTP 502", providerStatus: 502, retryAfter: nil)))
    }

    @Test func codeNamesRoundTrip() {
        let names = [
            "UNSPECIFIED_ERROR", "INVALID_ARGUMENT", "UNREGISTERED", "SENDER_ID_MISMATCH", "QUOTA_EXCEEDED",
            "UNAVAILABLE", "INTERNAL", "THIRD_PARTY_AUTH_ERROR", "SOMETHING_ELSE",
        ]
        #expect(names.map { FCMErrorCode(rawValue: $0).rawValue } == names)
        #expect(FCMErrorCode(rawValue: "UNREGISTERED") == .unregistered)
        #expect(FCMErrorCode.unspecifiedError.disposition == .byHTTPStatus)
    }

    @Test func successCarriesTheMessageName() {
        #expect(
            classify(200, Array(#"{"name":"projects/p/messages/0:1%ab"}"#.utf8))
                == .delivered(messageName: "projects/p/messages/0:1%ab"))
    }
}
