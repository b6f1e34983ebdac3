import HeraldCore
import HeraldFCM
import HeraldSimulator
import Testing

/// Every FCM error the simulator can give, through the real provider, to the
/// outcome Herald reports.
@Suite struct ErrorOutcomeTests {
    static let settings = FCMSimulatorSettings(
        projectIDs: [TestKeys.projectID],
        tokenErrors: [
            "dead-token": .unregistered, "foreign-token": .senderIDMismatch, "ios-token": .thirdPartyAuthError,
        ])

    @Test func tokenErrorsBecomeInvalidTokenOrFailed() async throws {
        try await Harness.run(fcm: Self.settings) { h async throws in
            let expected: [(String, DeliveryResult)] = [
                (
                    "dead-token",
                    DeliveryResult(
                        .invalidToken(invalidatedAt: nil), reason: "UNREGISTERED",
                        detail: "Requested entity was not found.", providerStatus: 404)
                ),
                // Every token of a wrong project answers these two: the invalidation guard may hold them back.
                (
                    "foreign-token",
                    DeliveryResult(
                        .invalidToken(invalidatedAt: nil), reason: "SENDER_ID_MISMATCH",
                        detail: "SenderId mismatch", providerStatus: 403, couldBeMisconfiguration: true)
                ),
                (
                    "malformed token!",
                    DeliveryResult(
                        .invalidToken(invalidatedAt: nil), reason: "INVALID_ARGUMENT",
                        detail: "The registration token is not a valid FCM registration token",
                        providerStatus: 400, couldBeMisconfiguration: true)
                ),
                (
                    "ios-token",
                    DeliveryResult(
                        .failed, reason: FCMAnswer.thirdPartyAuthReason,
                        detail: "Auth error from APNS or Web Push Service", providerStatus: 401)
                ),
            ]
            for (token, want) in expected {
                var result = try await h.send(fcmEvent(.token(token))).get()
                #expect(result.latency != nil)
                result.latency = nil
                #expect(result == want, "\(token)")
            }
            #expect(h.tokens.issuedCount == 1, "THIRD_PARTY_AUTH_ERROR is a 401 that must not evict our token")
        }
    }

    @Test func wrongProjectIsFailedNotInvalidToken() async throws {
        try await Harness.run(projectID: "no-such-project") { h async throws in
            var result = try await h.send(fcmEvent()).get()
            result.latency = nil
            #expect(
                result
                    == DeliveryResult(
                        .failed, reason: "PERMISSION_DENIED",
                        detail: "Permission 'cloudmessaging.messages.create' denied on resource "
                            + "'//cloudresourcemanager.googleapis.com/projects/no-such-project' (or it may not exist).",
                        providerStatus: 403))
        }
    }

    @Test func quotaExceededIsRetriedAfterTheServersRetryAfter() async throws {
        let settings = FCMSimulatorSettings(
            projectIDs: [TestKeys.projectID], quota: .init(messages: 1, window: .seconds(60)))
        try await Harness.run(fcm: settings) { h async throws in
            #expect(try await h.send(fcmEvent()).get().status == .delivered)
            h.clock.advance(by: .seconds(15))
            #expect(
                await h.failure(fcmEvent())
                    == DeliveryFailure(
                        reason: "QUOTA_EXCEEDED",
                        detail: "Quota exceeded for quota metric 'Send requests' of service 'fcm.googleapis.com'.",
                        providerStatus: 429, retryAfter: .seconds(45),
                        pause: SendPause(.app, cause: "FCM project quota exceeded (QUOTA_EXCEEDED)", service: "FCM")))
        }
    }

    @Test func serverFaultsAreRetryable() async throws {
        let internalFault = FCMSimulatorSettings(projectIDs: [TestKeys.projectID], internalErrorRate: 1)
        try await Harness.run(fcm: internalFault) { h async throws in
            #expect(
                await h.failure(fcmEvent())
                    == DeliveryFailure(
                        reason: "INTERNAL", detail: "Internal error encountered.", providerStatus: 500, retryAfter: nil)
            )
        }
        let unavailable = FCMSimulatorSettings(projectIDs: [TestKeys.projectID], unavailableRate: 1, retryAfter: 30)
        try await Harness.run(fcm: unavailable) { h async throws in
            #expect(
                await h.failure(fcmEvent())
                    == DeliveryFailure(
                        reason: "UNAVAILABLE", detail: "The service is currently unavailable.", providerStatus: 503,
                        retryAfter: .seconds(30)))
        }
    }

    @Test func unreachableTokenEndpointIsRetryable() async throws {
        try await Harness.run { h async throws in
            let account = try TestKeys.account(tokenURI: "https://127.0.0.1:1/token")
            let provider = FCMProvider(
                projectID: TestKeys.projectID, account: account, endpoint: "https://127.0.0.1:\(h.port)",
                httpClient: h.httpClient, logger: h.logger, now: h.clock.closure)
            let event = fcmEvent()
            do throws(DeliveryFailure) {
                _ = try await provider.deliver(event, to: event.targets[0], attempt: 1)
                Issue.record("delivered without a token")
            } catch {
                #expect(
                    error.reason.hasPrefix(
                        "OAuth TokenEndpointUnreachable: HTTP request to 127.0.0.1:1 failed (connectFailed"))
                #expect(error.retryAfter == nil)
            }
        }
    }
}
