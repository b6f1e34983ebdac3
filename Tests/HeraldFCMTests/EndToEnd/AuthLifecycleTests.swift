import HeraldCore
import HeraldCrypto
import HeraldFCM
import HeraldSimulator
import Testing

/// The OAuth lifecycle against the simulated token endpoint and FCM, over
/// real TLS, with one manual clock for both sides.
@Suite struct AuthLifecycleTests {
    @Test func concurrentSendsShareOneAccessToken() async throws {
        try await Harness.run { h async throws in
            let statuses = await withTaskGroup(of: DeliveryResult.Status?.self) { group in
                for index in 0..<20 {
                    group.addTask { try? await h.send(fcmEvent(.token("tok-\(index)"))).get().status }
                }
                return await group.reduce(into: [DeliveryResult.Status?]()) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: .delivered, count: 20))
            #expect(h.tokens.issuedCount == 1)
        }
    }

    @Test func tokenIsRefreshedFiveMinutesBeforeExpiry() async throws {
        try await Harness.run { h async throws in
            #expect(try await h.send(fcmEvent()).get().status == .delivered)
            h.clock.advance(by: .seconds(3299))
            #expect(try await h.send(fcmEvent()).get().status == .delivered)
            #expect(h.tokens.issuedCount == 1)
            h.clock.advance(by: .seconds(1))
            #expect(try await h.send(fcmEvent()).get().status == .delivered)
            #expect(h.tokens.issuedCount == 2)
            #expect(
                h.recorder.counters == ["oauth.200": 2, "fcm.200": 3], "no request ever went out with a stale token")
        }
    }

    @Test func revokedTokenIsEvictedRefreshedOnceAndTheSendRetried() async throws {
        try await Harness.run { h async throws in
            #expect(try await h.send(fcmEvent()).get().status == .delivered)
            h.tokens.revokeAll()
            let result = try await h.send(fcmEvent()).get()
            #expect(result.status == .delivered)
            #expect(h.tokens.issuedCount == 2)
            #expect(h.recorder.counters == ["oauth.200": 2, "fcm.200": 2, "fcm.401": 1])
        }
    }

    @Test func tokenRefusedAgainAfterARefreshIsFailed() async throws {
        try await Harness.run(revokeTokensBeforeEachSend: true) { h async throws in
            var result = try await h.send(fcmEvent()).get()
            result.latency = nil
            #expect(
                result
                    == DeliveryResult(
                        .failed, reason: "UNAUTHENTICATED: credentials rejected after an access-token refresh",
                        providerStatus: 401))
            #expect(h.tokens.issuedCount == 2, "exactly one refresh")
            #expect(h.recorder.counters == ["oauth.200": 2, "fcm.401": 2])
        }
    }

    @Test func assertionFromAKeyGoogleDoesNotKnowFailsWithGooglesReason() async throws {
        try await Harness.run { h async throws in
            let json = try TestKeys.serviceAccountJSON(
                tokenURI: "https://127.0.0.1:\(h.port)/token", key: PrivateKey.generateRSA())
            let stranger = FCMProvider(
                projectID: TestKeys.projectID, account: try ServiceAccount(json: json, source: "test"),
                endpoint: "https://127.0.0.1:\(h.port)", httpClient: h.httpClient, logger: h.logger,
                now: h.clock.closure)
            let event = fcmEvent()
            let result = try await stranger.deliver(event, to: event.targets[0], attempt: 1)
            #expect(
                result
                    == DeliveryResult(
                        .failed, reason: "OAuth invalid_grant: Invalid JWT Signature.", providerStatus: 400))
            #expect(h.recorder.counters == ["oauth.400": 1], "no message was sent without a token")
        }
    }

    @Test func logsNeverCarryTheAccessTokenTheAssertionOrTheKey() async throws {
        try await Harness.run { h async throws in
            _ = await h.send(fcmEvent(.token("fcm-registration-token-secret-part")))
            h.tokens.revokeAll()
            _ = await h.send(fcmEvent(.token("fcm-registration-token-secret-part")))
            let token = try await h.provider.accessToken().value
            let lines = h.logs.lines
            #expect(lines.contains { $0.contains("fetched FCM access token") })
            #expect(lines.contains { $0.contains("fcm-regi…") }, "tokens appear masked")
            for line in lines {
                #expect(!line.contains(token))
                #expect(!line.contains("ya29."))
                #expect(!line.contains("PRIVATE KEY"))
                #expect(!line.contains("eyJ"), "no JWT (base64url of {\" starts eyJ)")
                #expect(!line.contains("secret-part"))
            }
        }
    }
}
