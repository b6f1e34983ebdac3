import HeraldCore
import HeraldSimulator
import Testing

/// The simulated `messages:send`, called directly (no sockets): every check
/// it makes and the exact answer it gives.
@Suite struct FCMSimulatorTests {
    let now = Timestamp(seconds: 1_796_032_800)

    struct Setup {
        let service: FCMSimulatorService
        let bearer: String
        let recorder: NotificationRecorder
    }

    func setup(_ settings: FCMSimulatorSettings = FCMSimulatorSettings(projectIDs: ["p"]), random: Double = 0.5) throws
        -> Setup
    {
        let tokens = SimulatedAccessTokens()
        var account = try TestKeys.simulatedAccount()
        account.projectID = nil
        let bearer = tokens.issue(for: account, at: now, lifetime: .seconds(3600))
        let recorder = NotificationRecorder()
        return Setup(
            service: FCMSimulatorService(settings: settings, tokens: tokens, recorder: recorder, random: { random }),
            bearer: bearer, recorder: recorder)
    }

    func send(_ setup: Setup, _ body: String, project: String = "p", bearer: String? = nil, at time: Timestamp? = nil)
        async -> ReadAnswer
    {
        ReadAnswer(
            setup.service.handle(
                SimulatedRequest(
                    method: "POST", path: "/v1/projects/\(project)/messages:send",
                    headers: [
                        ("authorization", "Bearer " + (bearer ?? setup.bearer)), ("content-type", "application/json"),
                    ],
                    body: Array(body.utf8), receivedAt: time ?? now)))
    }

    /// `messages:send` takes a token issued for firebase.messaging or
    /// cloud-platform (the REST reference's authorization scopes); another is a 403.
    @Test func aTokenForOtherScopesIsRefusedAndCloudPlatformIsEnough() async throws {
        let setup = try setup()
        var account = try TestKeys.simulatedAccount()
        account.projectID = nil
        let other = setup.service.tokens.issue(
            for: account, scopes: ["https://www.googleapis.com/auth/userinfo.email"], at: now, lifetime: .seconds(3600))
        let refused = await send(setup, #"{"message":{"token":"tok-1"}}"#, bearer: other)
        #expect(refused.status == 403)
        #expect(
            refused.json == [
                "error": [
                    "code": 403, "message": "Request had insufficient authentication scopes.",
                    "status": "PERMISSION_DENIED",
                ]
            ])
        let cloud = setup.service.tokens.issue(
            for: account, scopes: ["https://www.googleapis.com/auth/cloud-platform"], at: now, lifetime: .seconds(3600))
        #expect(await send(setup, #"{"message":{"token":"tok-1"}}"#, bearer: cloud).status == 200)
    }

    @Test func acceptedMessageIsNamedAndRecorded() async throws {
        let setup = try setup()
        let answer = await send(setup, #"{"message":{"token":"tok-1","data":{"a":"1"}}}"#)
        #expect(answer.status == 200)
        let name = try #require(answer.json?["name"]?.stringValue)
        #expect(name == "projects/p/messages/0:1796032800000%1")
        #expect(setup.recorder.notifications.map(\.messageID) == [name])
        #expect(setup.recorder.notifications.first?.payload == ["token": "tok-1", "data": ["a": "1"]])
    }

    @Test func unknownOrExpiredBearerIsUnauthenticated() async throws {
        let setup = try setup()
        for answer in [
            await send(setup, #"{"message":{"token":"t"}}"#, bearer: "ya29.forged"),
            await send(setup, #"{"message":{"token":"t"}}"#, at: now + .seconds(3600)),
        ] {
            #expect(answer.status == 401)
            #expect(answer.json?["error"]?["status"] == "UNAUTHENTICATED")
            #expect(answer.fcmErrorCode == nil)
        }
    }

    @Test func unknownProjectAndAnotherAccountsProjectAreTheSamePermissionDenied() async throws {
        let setup = try setup(FCMSimulatorSettings(projectIDs: ["p", "q"]))
        var owner = try TestKeys.simulatedAccount()
        owner.projectID = "q"
        let bearerOfQ = setup.service.tokens.issue(for: owner, at: now, lifetime: .seconds(3600))
        for (project, bearer) in [("other", setup.bearer), ("p", bearerOfQ)] {
            let answer = await send(setup, #"{"message":{"token":"t"}}"#, project: project, bearer: bearer)
            #expect(answer.status == 403)
            #expect(answer.json?["error"]?["status"] == "PERMISSION_DENIED")
            #expect(
                answer.errorMessage == "Permission 'cloudmessaging.messages.create' denied on resource "
                    + "'//cloudresourcemanager.googleapis.com/projects/\(project)' (or it may not exist).")
            #expect(answer.fcmErrorCode == nil)
        }
    }

    @Test func validateOnlyIsAnsweredLikeASendAndNotRecorded() async throws {
        let setup = try setup()
        let answer = await send(
            setup, #"{"validate_only":true,"message":{"topic":"news","notification":{"body":"x"}}}"#)
        #expect(answer.status == 200)
        #expect(answer.json == ["name": "projects/p/messages/fake_message_id"])
        #expect(setup.recorder.notifications.isEmpty)
    }

    @Test func messageShapeIsCheckedLikeFCM() async throws {
        let setup = try setup()
        let cases: [(String, String)] = [
            (#"{"message":{}}"#, "Recipient of the message is not set."),
            (
                #"{"message":{"token":"t","topic":"x"}}"#,
                "Invalid value at 'message' (oneof), oneof field 'target' is already set. Cannot set 'topic'"
            ),
            (
                #"{"message":{"token":"t","data":{"a":"1","n":12}}}"#,
                "Invalid value at 'message.data[1].value' (TYPE_STRING), 12"
            ),
            (#"{"message":{"token":"t","data":{"from":"x"}}}"#, "Invalid data payload key: from"),
            (#"{"message":{"token":"t","data":{"google.c.a":"x"}}}"#, "Invalid data payload key: google.c.a"),
            (
                #"{"message":{"token":"t","android":{"priority":"URGENT"}}}"#,
                #"Invalid value at 'message.android.priority' (type.googleapis.com/google.firebase.fcm.v1.AndroidMessagePriority), "URGENT""#
            ),
            (
                #"{"message":{"token":"t","android":{"ttl":"3600"}}}"#,
                #"Invalid value at 'message.android.ttl' (type.googleapis.com/google.protobuf.Duration), "3600""#
            ),
            (
                #"{"message":{"token":"t","android":{"ttl":"1.0000000001s"}}}"#,
                #"Invalid value at 'message.android.ttl' (type.googleapis.com/google.protobuf.Duration), "1.0000000001s""#
            ),
            (
                #"{"message":{"topic":"/topics/news"}}"#,
                #"Invalid topic name: give "news" without the "/topics/" prefix"#
            ),
            (
                #"{"message":{"token":"t","android":{"notification":{"chanel_id":"x"}}}}"#,
                #"Invalid JSON payload received. Unknown name "chanel_id" at 'message.android.notification': Cannot find field."#
            ),
            (#"{"mesage":{}}"#, #"Invalid JSON payload received. Unknown name "mesage": Cannot find field."#),
            (
                #"{"message":{"token":"t","apns":{"headers":{"apns-priority":10}}}}"#,
                "Invalid value at 'message.apns.headers[0].value' (TYPE_STRING), 10"
            ),
            (
                #"{"message":{"token":"t","fid":"cR1Zm2QmSSmvP3bqAbcDef"}}"#,
                "Invalid value at 'message' (oneof), oneof field 'target' is already set. Cannot set 'fid'"
            ),
            (#"{"message":{"fid":7}}"#, "Invalid value at 'message.fid' (TYPE_STRING)"),
        ]
        for (body, message) in cases {
            let answer = await send(setup, body)
            #expect(answer.status == 400, "\(body)")
            #expect(answer.json?["error"]?["status"] == "INVALID_ARGUMENT")
            #expect(answer.errorMessage == message)
        }
        #expect(setup.recorder.notifications.isEmpty)
        let accepted = await send(
            setup, #"{"message":{"topic":"news","android":{"ttl":"86400.5s","priority":"NORMAL"}}}"#)
        #expect(accepted.status == 200)
    }

    /// Enum fields take what Google's proto3 JSON parser takes: the value's
    /// name or its number, and for `android.priority` also the lower-case
    /// `normal` / `high` Google documents (and firebase-admin sends).
    @Test func enumFieldsTakeTheirNamesNumbersAndDocumentedSpellings() async throws {
        let setup = try setup()
        let accepted: [String] = [
            #"{"priority":"high"}"#, #"{"priority":"normal"}"#, #"{"priority":"HIGH"}"#, #"{"priority":"NORMAL"}"#,
            #"{"priority":1}"#, #"{"priority":0}"#,
            #"{"notification":{"notification_priority":"PRIORITY_HIGH","visibility":"PUBLIC","proxy":"DENY"}}"#,
            #"{"notification":{"notification_priority":5,"visibility":3,"proxy":0}}"#,
        ]
        for android in accepted {
            let answer = await send(setup, #"{"message":{"token":"t","android":\#(android)}}"#)
            #expect(answer.status == 200, "\(android): \(answer.errorMessage ?? "")")
        }
        let priority = "(type.googleapis.com/google.firebase.fcm.v1.AndroidMessagePriority)"
        let notification = "(type.googleapis.com/google.firebase.fcm.v1.AndroidNotification."
        let refused: [(String, String)] = [
            (#"{"priority":"URGENT"}"#, #"Invalid value at 'message.android.priority' \#(priority), "URGENT""#),
            (#"{"priority":"High"}"#, #"Invalid value at 'message.android.priority' \#(priority), "High""#),
            (#"{"priority":2}"#, "Invalid value at 'message.android.priority' \(priority), 2"),
            (#"{"priority":"1"}"#, #"Invalid value at 'message.android.priority' \#(priority), "1""#),
            (#"{"priority":1.5}"#, "Invalid value at 'message.android.priority' \(priority), 1.5"),
            (
                #"{"notification":{"notification_priority":"high"}}"#,
                #"Invalid value at 'message.android.notification.notification_priority' \#(notification)NotificationPriority), "high""#
            ),
            (
                #"{"notification":{"visibility":"public"}}"#,
                #"Invalid value at 'message.android.notification.visibility' \#(notification)Visibility), "public""#
            ),
            (
                #"{"notification":{"proxy":4}}"#,
                "Invalid value at 'message.android.notification.proxy' \(notification)Proxy), 4"
            ),
        ]
        for (android, message) in refused {
            let answer = await send(setup, #"{"message":{"token":"t","android":\#(android)}}"#)
            #expect(answer.status == 400, "\(android)")
            #expect(answer.errorMessage == message)
        }
        #expect(setup.recorder.notifications.count == accepted.count)
    }

    @Test func configuredTokensGetFCMsErrorCodes() async throws {
        let setup = try setup(
            FCMSimulatorSettings(
                projectIDs: ["p"],
                tokenErrors: ["dead": .unregistered, "foreign": .senderIDMismatch, "ios": .thirdPartyAuthError]))
        let expected: [(String, Int, String, String)] = [
            ("dead", 404, "UNREGISTERED", "Requested entity was not found."),
            ("foreign", 403, "SENDER_ID_MISMATCH", "SenderId mismatch"),
            ("ios", 401, "THIRD_PARTY_AUTH_ERROR", "Auth error from APNS or Web Push Service"),
            ("not a token!", 400, "INVALID_ARGUMENT", "The registration token is not a valid FCM registration token"),
        ]
        for (token, status, code, message) in expected {
            let answer = await send(setup, #"{"message":{"token":"\#(token)"}}"#)
            #expect(answer.status == status)
            #expect(answer.fcmErrorCode == code)
            #expect(answer.errorMessage == message)
        }
    }

    /// `message.fid` is a target like `token`: accepted and recorded under
    /// the FID; refused unless it is 22 (or, for an Instance ID kept as a
    /// FID, 11) characters of URL-safe base64; and a dead one is
    /// UNREGISTERED, as `tokenErrors` holds FIDs as well as tokens.
    @Test func fidTargetsAreRecordedCheckedAndAnsweredLikeTokens() async throws {
        let setup = try setup(
            FCMSimulatorSettings(
                projectIDs: ["p"],
                tokenErrors: ["dDeadFid0000000000000Q": .unregistered, "eForeignFid00000000000": .senderIDMismatch]))
        for fid in ["cR1Zm2QmSSmvP3bq-_cDef", "eUx0ZzQ3LTY"] {
            let answer = await send(setup, #"{"message":{"fid":"\#(fid)","notification":{"title":"Hi"}}}"#)
            #expect(answer.status == 200, "\(fid): \(answer.errorMessage ?? "")")
        }
        #expect(setup.recorder.notifications.map(\.target) == ["cR1Zm2QmSSmvP3bq-_cDef", "eUx0ZzQ3LTY"])
        #expect(
            setup.recorder.notifications.first?.payload == [
                "fid": "cR1Zm2QmSSmvP3bq-_cDef", "notification": ["title": "Hi"],
            ])

        for malformed in [
            "cR1Zm2QmSSmvP3bq-_cDe", "cR1Zm2QmSSmvP3bq-_cDefg", "cR1Zm2QmSSmvP3bq+/cDef", "cR1Zm2QmSSmvP3bqAbcD==",
        ] {
            let answer = await send(setup, #"{"message":{"fid":"\#(malformed)"}}"#)
            #expect(answer.status == 400, "\(malformed)")
            #expect(answer.fcmErrorCode == "INVALID_ARGUMENT")
            #expect(answer.errorMessage == "The Firebase Installation ID is not a valid FID")
            let violations = answer.json?["error"]?["details"]?.arrayValue?
                .first { $0["@type"] == "type.googleapis.com/google.rpc.BadRequest" }?["fieldViolations"]
            #expect(violations?[0]?["field"] == "message.fid")
        }
        let dead = await send(setup, #"{"message":{"fid":"dDeadFid0000000000000Q"}}"#)
        #expect(dead.status == 404)
        #expect(dead.fcmErrorCode == "UNREGISTERED")
        #expect(dead.errorMessage == "Requested entity was not found.")
        let foreign = await send(setup, #"{"message":{"fid":"eForeignFid00000000000"}}"#)
        #expect(foreign.status == 403)
        #expect(foreign.fcmErrorCode == "SENDER_ID_MISMATCH")
        #expect(setup.recorder.notifications.count == 2)
    }

    @Test func quotaRefusesWithRetryAfterUntilTheWindowEnds() async throws {
        let setup = try setup(FCMSimulatorSettings(projectIDs: ["p"], quota: .init(messages: 2, window: .seconds(60))))
        let body = #"{"message":{"token":"t"}}"#
        #expect(await send(setup, body).status == 200)
        #expect(await send(setup, body, at: now + .seconds(10)).status == 200)
        let refused = await send(setup, body, at: now + .seconds(20))
        #expect(refused.status == 429)
        #expect(refused.fcmErrorCode == "QUOTA_EXCEEDED")
        #expect(refused.header("retry-after") == "40")
        #expect(await send(setup, body, at: now + .seconds(60)).status == 200)
    }

    /// FCM's quota is a project's: each project's sends fill a window of their
    /// own, which the project's first send starts.
    @Test func eachProjectHasItsOwnQuotaWindow() async throws {
        let setup = try setup(
            FCMSimulatorSettings(projectIDs: ["p", "q"], quota: .init(messages: 2, window: .seconds(60))))
        let body = #"{"message":{"token":"t"}}"#
        #expect(await send(setup, body, project: "p").status == 200)
        #expect(await send(setup, body, project: "p", at: now + .seconds(10)).status == 200)
        let overP = await send(setup, body, project: "p", at: now + .seconds(20))
        #expect(
            await send(setup, body, project: "q", at: now + .seconds(30)).status == 200,
            "p over its quota leaves q alone")
        #expect(await send(setup, body, project: "q", at: now + .seconds(40)).status == 200)
        let overQ = await send(setup, body, project: "q", at: now + .seconds(50))
        #expect(await send(setup, body, project: "p", at: now + .seconds(60)).status == 200, "p's window began at 0 s")
        let stillOverQ = await send(setup, body, project: "q", at: now + .seconds(60))
        for (refused, retryAfter) in [(overP, "40"), (overQ, "40"), (stillOverQ, "30")] {
            #expect(refused.status == 429)
            #expect(refused.json?["error"]?["status"] == "RESOURCE_EXHAUSTED")
            #expect(refused.fcmErrorCode == "QUOTA_EXCEEDED")
            #expect(
                refused.errorMessage
                    == "Quota exceeded for quota metric 'Send requests' of service 'fcm.googleapis.com'.")
            #expect(refused.header("retry-after") == retryAfter, "seconds to the end of the project's own window")
        }
        let projects = setup.recorder.notifications.map {
            String($0.messageID.dropFirst("projects/".count).prefix { $0 != "/" })
        }
        #expect(projects == ["p", "p", "q", "q", "p"])
    }

    @Test func faultsFollowTheirRates() async throws {
        let settings = FCMSimulatorSettings(
            projectIDs: ["p"], internalErrorRate: 0.1, unavailableRate: 0.2, retryAfter: 15)
        let body = #"{"message":{"token":"t"}}"#
        let internalError = await send(try setup(settings, random: 0.05), body)
        #expect(internalError.status == 500)
        #expect(internalError.fcmErrorCode == "INTERNAL")
        let unavailable = await send(try setup(settings, random: 0.25), body)
        #expect(unavailable.status == 503)
        #expect(unavailable.fcmErrorCode == "UNAVAILABLE")
        #expect(unavailable.header("retry-after") == "15")
        #expect(await send(try setup(settings, random: 0.35), body).status == 200)
    }

    @Test func settingsCanChangeWhileServing() async throws {
        let setup = try setup()
        #expect(await send(setup, #"{"message":{"token":"t1"}}"#).status == 200)
        setup.service.update { $0.tokenErrors["t1"] = .unregistered }
        #expect(await send(setup, #"{"message":{"token":"t1"}}"#).status == 404)
    }
}
