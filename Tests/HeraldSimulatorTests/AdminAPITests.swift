import HeraldAPNs
import HeraldCore
import HeraldSimulator
import HeraldTestSupport
import Testing

/// The admin API under `/_herald/` on the simulator's own port, called with
/// Herald's `HTTPClient` and with `curl --http2`, while Herald's providers
/// send through the same simulator over real TLS.
@Suite struct AdminAPITests {
    static let fcm = FCMSimulatorSettings(projectIDs: [FCMFixture.projectID])
    static let fid = "cR1Zm2QmSSmvP3bq-_cDef"

    @Test func deliveredListsWhatHeraldSentOldestFirstAndFilters() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let first = String(repeating: "a1", count: 32)
        let second = String(repeating: "b2", count: 32)
        let clock = TestClock(Timestamp(seconds: Timestamp.now().seconds), step: .seconds(1))
        let configuration = APNsSimulatorConfiguration(keys: [simulatorKey], bundleIDs: [Fixtures.bundleID])
        try await withSimulator(configuration, fcm: Self.fcm, clock: clock.read) { sim async throws in
            try await withProvider(sim, authentication: try tokenAuth(key).0) { provider async throws in
                _ = try await deliver(provider, event(token: first)).get()  // the simulator's clock read 0
                _ = try await deliver(provider, event(token: second)).get()  // 1
            }
            try await FCMFixture.withProvider(sim) { provider async throws in
                _ = try await deliver(provider, fcmEvent(.token("fcm-1"))).get()  // 2: the OAuth exchange, 3: the send
                _ = try await deliver(provider, fcmEvent(.topic("news"))).get()  // 4
                _ = try await deliver(provider, fcmEvent(.fid(Self.fid))).get()  // 5
            }
            let all = try await call(sim, "GET", "/_herald/delivered")
            #expect(all.status == 200)
            #expect(all.header("content-type") == "application/json")
            #expect(all.json == .object(["delivered": .array(sim.recorder.notifications.map(\.jsonValue))]))

            func targets(_ query: String) async throws -> [String] {
                let answer = try await call(sim, "GET", "/_herald/delivered" + query)
                #expect(answer.status == 200, "\(query): \(answer.body)")
                return answer.json?["delivered"]?.arrayValue?.compactMap { $0["target"]?.stringValue } ?? []
            }
            #expect(try await targets("") == [first, second, "fcm-1", "news", Self.fid])
            #expect(try await targets("?provider=fcm") == ["fcm-1", "news", Self.fid])
            #expect(try await targets("?token=\(second.uppercased())") == [second], "APNs tokens compare ignoring case")
            #expect(try await targets("?token=fcm-1") == ["fcm-1"])
            #expect(try await targets("?token=\(Self.fid)") == [Self.fid], "a FID names a device as a token does")
            #expect(try await targets("?topic=news") == ["news"])
            #expect(try await targets("?topic=com.example.chat") == [first, second])
            #expect(try await targets("?since=\(clock.stamp(1))") == [second, "fcm-1", "news", Self.fid])
            #expect(try await targets("?provider=apns&since=\(clock.stamp(2))") == [])
        }
    }

    @Test func refusedListsEveryAnswerButOKWithWhatWasSentAndAnswered() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let dead = String(repeating: "dd", count: 32)
        let clock = TestClock(Timestamp(seconds: Timestamp.now().seconds), step: .seconds(1))
        let configuration = APNsSimulatorConfiguration(
            keys: [simulatorKey], bundleIDs: [Fixtures.bundleID],
            deadTokens: [dead: Timestamp(millisecondsSinceEpoch: 1_790_000_000_250)])
        let fcm = FCMSimulatorSettings(
            projectIDs: [FCMFixture.projectID], tokenErrors: ["other-app": .senderIDMismatch])
        try await withSimulator(configuration, fcm: fcm, clock: clock.read) { sim async throws in
            let jwt = try tokenAuth(key).1.token()
            let apnsID = "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0"
            let gone = try await curl(
                sim, "POST", "/3/device/\(dead)",
                headers: [
                    "authorization: bearer \(jwt)", "apns-topic: com.example.chat", "apns-id: \(apnsID)",
                ], body: #"{"aps":{"alert":"x"}}"#)  // read 0
            #expect(gone.answer?.status == 410, "\(gone.output)")
            let lost = try await curl(sim, "GET", "/nowhere")  // read 1
            #expect(lost.answer?.status == 404)
            let listed = try await curl(sim, "GET", "/_herald/refused")  // read 2
            #expect(listed.answer?.status == 200)
            #expect(listed.answer?.header("content-type") == "application/json")
            #expect(
                listed.answer?.body == """
                    {"refused":[{"provider":"apns","method":"POST","path":"/3/device/\(dead)","target":"\(dead)","status":410,\
                    "reason":"Unregistered","received_at":"\(clock.stamp(0))","headers":{"apns-id":"\(apnsID)","apns-topic":"com.example.chat"},\
                    "request_body":{"aps":{"alert":"x"}},"answer":{"reason":"Unregistered","timestamp":1790000000250}},\
                    {"method":"GET","path":"/nowhere","status":404,"reason":"BadPath","received_at":"\(clock.stamp(1))","headers":{},\
                    "answer":{"reason":"BadPath"}}]}
                    """)

            try await withProvider(sim, authentication: try tokenAuth(key).0, bundleID: "com.other.app") {
                provider async throws in
                #expect(try await deliver(provider, event()).get().reason == "TopicDisallowed")
            }
            try await FCMFixture.withProvider(sim) { provider async throws in
                #expect(try await deliver(provider, fcmEvent(.token("other-app"))).get().reason == "SENDER_ID_MISMATCH")
            }
            let reasons = try await call(sim, "GET", "/_herald/refused").json?["refused"]?.arrayValue?.map {
                "\($0["provider"]?.stringValue ?? "-") \($0["status"]?.intValue ?? 0) \($0["reason"]?.stringValue ?? "-")"
            }
            #expect(
                reasons == [
                    "apns 410 Unregistered", "- 404 BadPath", "apns 400 TopicDisallowed", "fcm 403 SENDER_ID_MISMATCH",
                ])
            let filtered = try await call(
                sim, "GET", "/_herald/refused?status=410&provider=apns&token=\(dead.uppercased())")
            #expect(filtered.json?["refused"]?.arrayValue?.map { $0["path"]?.stringValue } == ["/3/device/\(dead)"])
            let fcmOnly = try await call(sim, "GET", "/_herald/refused?provider=fcm&token=other-app")
            #expect(fcmOnly.json?["refused"]?[0]?["request_body"]?["message"]?["token"] == "other-app")
        }
    }

    @Test func deletingTheRecordsForgetsDeliveriesRefusalsAndCounters() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let dead = String(repeating: "dd", count: 32)
        let configuration = APNsSimulatorConfiguration(
            keys: [simulatorKey], deadTokens: [dead: Timestamp(seconds: 1_796_032_800)])
        try await withSimulator(configuration) { sim async throws in
            try await withProvider(sim, authentication: try tokenAuth(key).0) { provider async throws in
                #expect(try await deliver(provider, event()).get().status == .delivered)
                #expect(try await deliver(provider, event(token: dead)).get().reason == "Unregistered")
            }
            let forgotten = try await curl(sim, "DELETE", "/_herald/records")
            #expect(forgotten.answer?.status == 200)
            #expect(forgotten.answer?.body == #"{"forgotten":{"delivered":1,"refused":1}}"#)
            #expect(try await call(sim, "GET", "/_herald/delivered").body == #"{"delivered":[]}"#)
            #expect(try await call(sim, "GET", "/_herald/refused?probes=include").body == #"{"refused":[]}"#)
            #expect(sim.recorder.counters.isEmpty)
        }
    }

    @Test func apnsTokensAreKilledAndRevivedWhileServing() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        let token = Fixtures.token
        let clock = TestClock(Timestamp(seconds: Timestamp.now().seconds), step: .seconds(1))
        try await withSimulator(APNsSimulatorConfiguration(keys: [simulatorKey]), clock: clock.read) {
            sim async throws in
            try await withProvider(sim, authentication: try tokenAuth(key).0) { provider async throws in
                let killed = try await curl(  // read 0
                    sim, "PUT", "/_herald/tokens/apns/\(token)",
                    body: #"{"reason":"Unregistered","since":"2026-11-30T10:00:00.250Z"}"#)
                #expect(killed.answer?.status == 200)
                #expect(
                    killed.answer?.body
                        == #"{"apns":{"\#(token)":{"reason":"Unregistered","since":"2026-11-30T10:00:00.250Z"}}}"#)
                let gone = try await deliver(provider, event()).get()  // read 1
                #expect(
                    gone.status == .invalidToken(invalidatedAt: Timestamp(millisecondsSinceEpoch: 1_796_032_800_250)))
                #expect(gone.reason == "Unregistered")

                let revived = try await call(sim, "DELETE", "/_herald/tokens/apns/\(token.uppercased())")  // read 2
                #expect(revived.status == 200)
                #expect(revived.body == #"{"apns":{}}"#)
                #expect(try await deliver(provider, event()).get().status == .delivered)  // read 3

                let now = try await call(sim, "PUT", "/_herald/tokens/apns/\(token)")  // read 4: no body, dead from now
                #expect(now.body == #"{"apns":{"\#(token)":{"reason":"Unregistered","since":"\#(clock.stamp(4))"}}}"#)
                #expect(try await call(sim, "GET", "/_herald/tokens").body == now.body)
            }
        }
    }

    @Test(
        arguments: [
            ("UNREGISTERED", 404, "NOT_FOUND", "Requested entity was not found.", nil),
            (
                "INVALID_ARGUMENT", 400, "INVALID_ARGUMENT",
                "The registration token is not a valid FCM registration token", nil
            ),
            ("SENDER_ID_MISMATCH", 403, "PERMISSION_DENIED", "SenderId mismatch", nil),
            ("QUOTA_EXCEEDED", 429, "RESOURCE_EXHAUSTED", "Message rate exceeded for this device.", "10"),
            ("UNAVAILABLE", 503, "UNAVAILABLE", "The service is currently unavailable.", "10"),
            ("INTERNAL", 500, "INTERNAL", "Internal error encountered.", nil),
            ("THIRD_PARTY_AUTH_ERROR", 401, "UNAUTHENTICATED", "Auth error from APNS or Web Push Service", nil),
        ] as [(String, Int, String, String, String?)])
    func everyFCMErrorCodeCanBeSetForATokenWhileServing(
        code: String, status: Int, googleStatus: String, message: String, retryAfter: String?
    ) async throws {
        try await withSimulator(APNsSimulatorConfiguration(), fcm: Self.fcm) { sim async throws in
            let set = try await curl(sim, "PUT", "/_herald/tokens/fcm/tok-1", body: #"{"error":"\#(code)"}"#)
            #expect(set.answer?.body == #"{"apns":{},"fcm":{"tok-1":"\#(code)"}}"#)
            let bearer = try FCMFixture.bearer(sim)
            func send(_ token: String) async throws -> Answer? {
                try await curl(
                    sim, "POST", "/v1/projects/\(FCMFixture.projectID)/messages:send",
                    headers: [
                        "authorization: Bearer \(bearer)", "content-type: application/json",
                    ], body: #"{"message":{"token":"\#(token)","notification":{"title":"Hi"}}}"#
                ).answer
            }
            let refused = try #require(try await send("tok-1"))
            #expect(refused.status == status)
            #expect(
                refused.body == fcmErrorBody(status: status, message: message, googleStatus: googleStatus, code: code))
            #expect(refused.header("retry-after") == retryAfter)
            #expect(refused.header("content-type") == "application/json; charset=UTF-8")
            #expect(try await send("tok-2")?.status == 200)
            let record = try await call(sim, "GET", "/_herald/refused?token=tok-1")
            #expect(record.json?["refused"]?.arrayValue?.map { $0["reason"] } == [.string(code)])

            #expect(try await curl(sim, "DELETE", "/_herald/tokens/fcm/tok-1").answer?.body == #"{"apns":{},"fcm":{}}"#)
            #expect(try await send("tok-1")?.status == 200)
        }
    }

    @Test func faultsAreReadAndReplacedWhileServing() async throws {
        let (key, simulatorKey) = try Fixtures.key()
        try await withSimulator(
            APNsSimulatorConfiguration(keys: [simulatorKey]), faults: SimulatorFaults(goAwayAfterStreams: 100),
            fcm: Self.fcm
        ) { sim async throws in
            let start = try await curl(sim, "GET", "/_herald/faults")
            #expect(
                start.answer?.body == """
                    {"error_rate":0.0,"error_status":500,"reset_rate":0.0,"hang_rate":0.0,"drop_rate":0.0,"services":["apns","fcm","webpush"],\
                    "tokens":[],"latency":null,"rate_limit":null,"goaway_after_streams":100,"max_streams":null}
                    """)
            let changed = try await curl(
                sim, "PUT", "/_herald/faults",
                body: """
                    {"error_rate":1,"error_status":503,"services":["fcm"],"latency":"5ms","rate_limit":{"requests":1000}}
                    """)
            #expect(changed.answer?.status == 200)
            #expect(
                changed.answer?.body == """
                    {"error_rate":1.0,"error_status":503,"reset_rate":0.0,"hang_rate":0.0,"drop_rate":0.0,"services":["fcm"],"tokens":[],\
                    "latency":"5ms","rate_limit":{"requests":1000,"per":"1s"},"goaway_after_streams":100,"max_streams":null}
                    """)
            #expect(try await call(sim, "GET", "/_herald/faults").body == changed.answer?.body)
            try await withProvider(sim, authentication: try tokenAuth(key).0) { provider async throws in
                #expect(
                    try await deliver(provider, event()).get().status == .delivered,
                    "APNs is out of the faults' reach now")
            }
            try await FCMFixture.withProvider(sim) { provider async throws in
                guard case .failure(let failure) = await deliver(provider, fcmEvent(.token("tok-1"))) else {
                    Issue.record("expected FCM's 503")
                    return
                }
                #expect(failure.reason == "UNAVAILABLE")
                #expect(failure.providerStatus == 503)
                #expect(failure.retryAfter == .seconds(10))
            }

            let fixed = try await curl(sim, "PUT", "/_herald/faults", body: #"{"goaway_after_streams":5}"#)
            #expect(fixed.answer?.status == 409)
            #expect(
                fixed.answer?.body
                    == #"{"error":"goaway_after_streams is fixed when the simulator starts (it is 100); restart it to change it"}"#
            )
            let typo = try await curl(sim, "PUT", "/_herald/faults", body: #"{"error_rate":0.5,"eror_status":503}"#)
            #expect(typo.answer?.status == 400)
            #expect(
                typo.answer?.body
                    == #"{"error":"request body:1:19: eror_status: unknown key 'eror_status' (did you mean 'error_status'?)"}"#
            )
            let tooMuch = try await curl(sim, "PUT", "/_herald/faults", body: #"{"reset_rate":0.5,"hang_rate":0.75}"#)
            #expect(
                tooMuch.answer?.body
                    == #"{"error":"request body:1:31: hang_rate: error_rate, reset_rate, hang_rate and drop_rate add up to 1.25, over 1"}"#
            )

            let cleared = try await curl(sim, "DELETE", "/_herald/faults")
            #expect(cleared.answer?.body == start.answer?.body)
            try await FCMFixture.withProvider(sim) { provider async throws in
                #expect(try await deliver(provider, fcmEvent(.token("tok-1"))).get().status == .delivered)
            }
        }
    }

    @Test(
        arguments: [
            (
                "GET", "/_herald/nope", nil, 404,
                "no admin endpoint at /_herald/nope; the endpoints are GET /_herald/delivered, GET /_herald/refused, DELETE /_herald/records, "
                    + "GET /_herald/tokens, PUT|DELETE /_herald/tokens/apns/<token>, PUT|DELETE /_herald/tokens/fcm/<token>, GET|PUT|DELETE /_herald/faults, "
                    + "POST /_herald/webpush/subscriptions, DELETE /_herald/webpush/subscriptions/<id>"
            ),
            ("POST", "/_herald/faults", nil, 405, "/_herald/faults takes GET, PUT or DELETE, not POST"),
            ("PUT", "/_herald/delivered", nil, 405, "/_herald/delivered takes GET, not PUT"),
            ("GET", "/_herald/refused?tokn=ab", nil, 400, "unknown query parameter 'tokn' (did you mean 'token'?)"),
            (
                "GET", "/_herald/delivered?status=410", nil, 400,
                "unknown query parameter 'status' (expected one of: provider, token, topic, since, probes)"
            ),
            (
                "GET", "/_herald/delivered?since=yesterday", nil, 400,
                "since: expected an RFC 3339 time such as 2026-11-30T10:00:00Z, found 'yesterday'"
            ),
            ("GET", "/_herald/refused?status=OK", nil, 400, "status: expected an HTTP status such as 410, found 'OK'"),
            (
                "GET", "/_herald/delivered?probes=all", nil, 400,
                "probes: expected exclude, include or only, found 'all'"
            ),
            (
                "GET", "/_herald/refused?provider=gcm", nil, 400,
                "provider: expected apns, fcm, oauth or webpush, found 'gcm'"
            ),
            ("GET", "/_herald/tokens?x=1", nil, 400, "unexpected query parameter 'x'"),
            (
                "PUT", "/_herald/tokens/apns/abc", nil, 400,
                "expected an APNs device token of 64 hexadecimal digits, found 'abc'"
            ),
            (
                "PUT", "/_herald/tokens/apns/" + Fixtures.token, #"{"reason":"BadDeviceToken"}"#, 400,
                #"reason: the simulator makes an APNs token Unregistered (410), found "BadDeviceToken""#
            ),
            (
                "PUT", "/_herald/tokens/apns/" + Fixtures.token, #"{"since":"soon"}"#, 400,
                #"since: expected an RFC 3339 time such as 2026-11-30T10:00:00Z, found "soon""#
            ),
            (
                "PUT", "/_herald/tokens/fcm/tok-1", #"{"error":"GONE"}"#, 400,
                #"error: expected one of UNREGISTERED, INVALID_ARGUMENT, SENDER_ID_MISMATCH, QUOTA_EXCEEDED, UNAVAILABLE, INTERNAL, THIRD_PARTY_AUTH_ERROR, found "GONE""#
            ),
            ("PUT", "/_herald/tokens/fcm/tok-1", nil, 400, "expected a JSON object with 'error'"),
            (
                "PUT", "/_herald/tokens/fcm/tok-1", #"{"eror":"UNREGISTERED"}"#, 400,
                "unknown key 'eror' (did you mean 'error'?)"
            ),
            (
                "PUT", "/_herald/tokens/fcm/tok-1", "UNREGISTERED", 400,
                "the body is not JSON: unexpected 'U' at byte 0 (line 1, column 1): expected a value"
            ),
            (
                "PUT", "/_herald/tokens/fcm/a%20b", #"{"error":"INTERNAL"}"#, 400,
                "expected a registration token of letters, digits, '-', '_', ':' and '.', found 'a%20b'"
            ),
            ("PUT", "/_herald/faults", "[1]", 400, "expected a JSON object, found an array"),
        ] as [(String, String, String?, Int, String)])
    func mistakesAreAnsweredWithWhatWasWrong(method: String, path: String, body: String?, status: Int, message: String)
        async throws
    {
        try await withSimulator(APNsSimulatorConfiguration(), fcm: Self.fcm) { sim async throws in
            let answer = try await call(sim, method, path, body: body)
            #expect(answer.status == status)
            #expect(answer.json == ["error": .string(message)], "\(answer.body)")
            #expect(answer.header("content-type") == "application/json")
        }
    }

    @Test func fcmTokensNeedTheSimulatedFCM() async throws {
        try await withSimulator(APNsSimulatorConfiguration()) { sim async throws in
            let answer = try await call(sim, "PUT", "/_herald/tokens/fcm/tok-1", body: #"{"error":"UNREGISTERED"}"#)
            #expect(answer.status == 404)
            #expect(answer.body == #"{"error":"FCM is off: start herald simulate with --fcm-service-account"}"#)
            #expect(try await call(sim, "GET", "/_herald/tokens").body == #"{"apns":{}}"#)
        }
    }

    @Test func theAdminAPIIsNeverFaultedCountedOrRecorded() async throws {
        let faults = SimulatorFaults(errorRate: 1, services: ["apns", "fcm", "oauth"])
        try await withSimulator(APNsSimulatorConfiguration(), faults: faults, fcm: Self.fcm) { sim async throws in
            let listed = try await call(sim, "GET", "/_herald/delivered")
            #expect(listed.status == 200)
            #expect(listed.body == #"{"delivered":[]}"#)
            #expect(try await call(sim, "GET", "/_herald/nowhere").status == 404)
            #expect(sim.recorder.counters.isEmpty)
            #expect(sim.recorder.refusals.isEmpty)
        }
    }
}
