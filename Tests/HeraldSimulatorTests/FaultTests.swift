import HeraldAPNs
import HeraldCore
import HeraldFCM
import HeraldSimulator
import HeraldTestSupport
import Testing

/// Injected faults through the real simulator: each provider's own error
/// shape, aimed at services and tokens, resets and hung streams, seen by
/// `curl --http2` and by Herald's providers.
@Suite struct FaultTests {
    static let fcm = FCMSimulatorSettings(projectIDs: [FCMFixture.projectID])

    @Test(arguments: [(429, "TooManyRequests"), (500, "InternalServerError"), (503, "ServiceUnavailable")])
    func injectedAPNsErrorsAreApplesWithAnApnsID(status: Int, reason: String) async throws {
        try await withSimulator(
            APNsSimulatorConfiguration(), faults: SimulatorFaults(errorRate: 1, errorStatus: status)
        ) { sim async throws in
            let run = try await curl(sim, "POST", "/3/device/\(Fixtures.token)", body: #"{"aps":{}}"#)
            let answer = try #require(run.answer, "\(run.output)")
            #expect(answer.status == status)
            #expect(answer.body == #"{"reason":"\#(reason)"}"#)
            #expect(answer.header("content-type") == "application/json")
            #expect(APNsID.isValid(answer.header("apns-id") ?? ""))
            let refusal = try #require(sim.recorder.refusals.first)
            #expect(refusal.fault == .error)
            #expect(refusal.reason == reason)
        }
    }

    @Test(
        arguments: [
            (
                429, "Quota exceeded for quota metric 'Send requests' of service 'fcm.googleapis.com'.",
                "RESOURCE_EXHAUSTED", "QUOTA_EXCEEDED", "10"
            ),
            (500, "Internal error encountered.", "INTERNAL", "INTERNAL", nil),
            (503, "The service is currently unavailable.", "UNAVAILABLE", "UNAVAILABLE", "10"),
        ] as [(Int, String, String, String, String?)])
    func injectedFCMErrorsAreGooglesWithRetryAfterWhereGoogleSendsIt(
        status: Int, message: String, googleStatus: String, code: String, retryAfter: String?
    ) async throws {
        let faults = SimulatorFaults(errorRate: 1, errorStatus: status)
        try await withSimulator(APNsSimulatorConfiguration(), faults: faults, fcm: Self.fcm) { sim async throws in
            let run = try await curl(
                sim, "POST", "/v1/projects/\(FCMFixture.projectID)/messages:send",
                headers: [
                    "authorization: Bearer \(try FCMFixture.bearer(sim))", "content-type: application/json",
                ], body: #"{"message":{"token":"tok-1"}}"#)
            let answer = try #require(run.answer, "\(run.output)")
            #expect(answer.status == status)
            #expect(
                answer.body == fcmErrorBody(status: status, message: message, googleStatus: googleStatus, code: code))
            #expect(answer.header("retry-after") == retryAfter)
            #expect(answer.header("content-type") == "application/json; charset=UTF-8")

            // Herald's FCM client reads it as Google's: the OAuth exchange is out of the faults' reach.
            try await FCMFixture.withProvider(sim) { provider async throws in
                guard case .failure(let failure) = await deliver(provider, fcmEvent(.token("tok-1"))) else {
                    Issue.record("expected a retryable failure")
                    return
                }
                #expect(failure.reason == code)
                #expect(failure.providerStatus == status)
                #expect(failure.retryAfter == retryAfter.flatMap { Int($0) }.map { .seconds($0) })
            }
            #expect(sim.recorder.counters["oauth.200"] == 1)
        }
    }

    @Test func theTokenEndpointIsFaultedOnlyWhenNamed() async throws {
        let faults = SimulatorFaults(errorRate: 1, errorStatus: 503, services: ["oauth"])
        try await withSimulator(APNsSimulatorConfiguration(), faults: faults, fcm: Self.fcm) { sim async throws in
            let run = try await curl(
                sim, "POST", "/token", headers: ["content-type: application/x-www-form-urlencoded"],
                body: "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=x")
            let answer = try #require(run.answer, "\(run.output)")
            #expect(answer.status == 503)
            #expect(
                answer.body
                    == #"{"error":"temporarily_unavailable","error_description":"The service is currently unavailable."}"#
            )
            #expect(answer.header("content-type") == "application/json; charset=utf-8")
            try await FCMFixture.withProvider(sim) { provider async throws in
                let error = await #expect(throws: FCMAuthError.self) { try await provider.accessToken() }
                #expect(error?.reason == "temporarily_unavailable")
                #expect(error?.status == 503)
                #expect(error?.isRetryable == true)
            }
            // FCM itself is not in the faults' scope: a send with a valid token goes through.
            let sent = try await curl(
                sim, "POST", "/v1/projects/\(FCMFixture.projectID)/messages:send",
                headers: [
                    "authorization: Bearer \(try FCMFixture.bearer(sim))"
                ], body: #"{"message":{"topic":"news"}}"#)
            #expect(sent.answer?.status == 200)
        }
    }

    @Test func faultsAimedAtTokensSpareEveryOtherToken() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let flaky = String(repeating: "f1", count: 32)
        let faults = SimulatorFaults(errorRate: 1, tokens: [flaky.uppercased(), "fcm-flaky"])
        try await withSimulator(APNsSimulatorConfiguration(keys: [simulatorKey]), faults: faults, fcm: Self.fcm) {
            sim async throws in
            try await withProvider(sim, authentication: try tokenAuth(key).0) { provider async throws in
                guard case .failure(let failure) = await deliver(provider, event(token: flaky)) else {
                    Issue.record("expected the aimed fault")
                    return
                }
                #expect(failure.description == "InternalServerError (HTTP 500)")
                #expect(try await deliver(provider, event()).get().status == .delivered)
            }
            try await FCMFixture.withProvider(sim) { provider async throws in
                guard case .failure(let failure) = await deliver(provider, fcmEvent(.token("fcm-flaky"))) else {
                    Issue.record("expected the aimed fault")
                    return
                }
                #expect(failure.description == "INTERNAL (HTTP 500)")
                #expect(try await deliver(provider, fcmEvent(.token("fcm-fine"))).get().status == .delivered)
            }
            #expect(
                sim.recorder.refusals.map { "\($0.addressee?.target ?? "-") \($0.fault?.rawValue ?? "-")" }
                    == ["\(flaky) error", "fcm-flaky error"])
        }
    }

    @Test func aResetFaultResetsTheStreamAndIsRecorded() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let faults = SimulatorFaults(resetRate: 1, services: ["apns"])
        try await withSimulator(APNsSimulatorConfiguration(keys: [simulatorKey]), faults: faults) { sim async throws in
            let run = try await curl(sim, "POST", "/3/device/\(Fixtures.token)", body: #"{"aps":{}}"#)
            #expect(run.answer == nil)
            #expect(run.exitStatus == 92, "\(run.output)")
            #expect(run.output.contains("INTERNAL_ERROR (err 2)"), "\(run.output)")
            try await withProvider(sim, authentication: try tokenAuth(key).0) { provider async throws in
                guard case .failure(let failure) = await deliver(provider, event()) else {
                    Issue.record("expected a retryable failure")
                    return
                }
                #expect(failure.providerStatus == nil)
                // The request was written, so its answer is lost: the provider may have taken it.
                #expect(failure.answerLost)
                #expect(failure.reason == "no answer before the connection was lost; the provider may have accepted it")
                #expect(failure.detail == "connectionLost: the server reset the stream (INTERNAL_ERROR)")
            }
            let listed = try await call(sim, "GET", "/_herald/refused")
            let records = listed.json?["refused"]?.arrayValue ?? []
            #expect(records.map { $0["fault"] } == ["reset", "reset"])
            #expect(records.allSatisfy { $0["status"] == nil && $0["answer"] == nil })
        }
    }

    /// A dropped connection takes every stream on it; the client sees a lost
    /// connection (retryable) and its next request opens a new one.
    @Test func aDropFaultClosesTheConnectionWithAResetAndTheClientReconnects() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let doomed = String(repeating: "d0", count: 32)
        let faults = SimulatorFaults(dropRate: 1, tokens: [doomed])
        try await withSimulator(APNsSimulatorConfiguration(keys: [simulatorKey]), faults: faults) { sim async throws in
            try await withProvider(sim, authentication: try tokenAuth(key).0) { provider async throws in
                #expect(try await deliver(provider, event()).get().status == .delivered)
                guard case .failure(let failure) = await deliver(provider, event(token: doomed)) else {
                    Issue.record("expected a retryable failure")
                    return
                }
                #expect(failure.providerStatus == nil)
                #expect(failure.answerLost)
                #expect(failure.detail?.hasPrefix("connectionLost") == true, "\(failure)")
                #expect(try await deliver(provider, event()).get().status == .delivered, "a new connection serves")
            }
            #expect(sim.simulator.connectionsSeen == 2)
            let listed = try await call(sim, "GET", "/_herald/refused")
            #expect(listed.json?["refused"]?.arrayValue?.map { $0["fault"] } == ["drop"])
        }
    }

    @Test func aHungStreamIsNeitherAnsweredNorResetUntilTheClientGivesUp() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let stuck = String(repeating: "5c", count: 32)
        let faults = SimulatorFaults(hangRate: 1, tokens: [stuck])
        try await withSimulator(APNsSimulatorConfiguration(keys: [simulatorKey]), faults: faults) { sim async throws in
            // One curl, one connection: a request to another token first (answered, and the
            // connection made), then the stuck one; --max-time bounds each transfer (10 s:
            // on a loaded machine the first connection alone has taken over 5).
            let run = try await runTool(
                "/usr/bin/curl",
                [
                    "-sS", "--http2", "--cacert", sim.pki.caCertificatePath, "--max-time", "10", "-X", "POST", "-d",
                    #"{"aps":{}}"#,
                    "-o", "/dev/null", "-o", "/dev/null", "-w", "%{http_code}\n",
                    "\(sim.baseURL)/3/device/\(Fixtures.token)", "\(sim.baseURL)/3/device/\(stuck)",
                ])
            #expect(run.status == 28, "curl timed out rather than seeing a reset: \(run.output)")
            #expect(run.output.contains("403\n"), "the other token is answered: \(run.output)")
            #expect(run.output.contains("Operation timed out after"), "\(run.output)")
            try await withProvider(sim, authentication: try tokenAuth(key).0, requestTimeout: .seconds(5)) {
                provider async throws in
                #expect(try await deliver(provider, event()).get().status == .delivered)
                guard case .failure(let failure) = await deliver(provider, event(token: stuck)) else {
                    Issue.record("expected a timeout")
                    return
                }
                #expect(
                    failure.reason == "no answer within the timeout; the provider may have accepted it", "\(failure)")
                #expect(failure.detail?.hasPrefix("timeout") == true, "\(failure)")
                #expect(try await deliver(provider, event()).get().status == .delivered, "the connection still serves")
            }
            #expect(sim.recorder.refusals.map { $0.fault } == [nil, .hang, .hang])
        }
    }
}
