import HeraldCore
import HeraldCrypto
import HeraldSimulator
import Testing

/// The APNs simulator's checks, driven with `SimulatedRequest`s (no sockets).
@Suite struct APNsSimulatorServiceTests {
    static let now = Timestamp(seconds: 1_800_000_000)
    let key: PrivateKey
    let service: APNsSimulatorService
    let recorder = NotificationRecorder()
    /// The valid token every request carries unless a test replaces it (one
    /// token, so the 20-minute token-update rule is not tripped).
    let bearer: String

    init() throws {
        let (key, simulatorKey) = try Fixtures.key()
        self.key = key
        bearer = try JSONWebToken.sign(
            header: JSONObject([("kid", .string(Fixtures.keyID))]),
            claims: JSONObject([("iss", .string(Fixtures.teamID)), ("iat", 1_799_999_940)]), with: key)
        var configuration = APNsSimulatorConfiguration(
            keys: [simulatorKey], bundleIDs: [Fixtures.bundleID],
            deadTokens: [String(repeating: "DE", count: 32): Timestamp(millisecondsSinceEpoch: 1_799_999_000_123)],
            perTokenLimit: 2)
        configuration.minimumTokenUpdateInterval = .seconds(20 * 60)
        service = APNsSimulatorService(configuration: configuration, recorder: recorder)
    }

    func jwt(iat: Int64 = 1_800_000_000 - 60, kid: String = Fixtures.keyID, iss: String = Fixtures.teamID) throws
        -> String
    {
        try JSONWebToken.sign(
            header: JSONObject([("kid", .string(kid))]),
            claims: JSONObject([("iss", .string(iss)), ("iat", .number(JSONNumber(Int(iat))))]), with: key)
    }

    func request(
        method: String = "POST", token: String = Fixtures.token, headers: [(String, String)]? = nil,
        extra: [(String, String)] = [], body: String = #"{"aps":{"alert":"hi"}}"#, at receivedAt: Timestamp = Self.now
    ) throws -> SimulatedRequest {
        let base =
            headers ?? [
                ("authorization", "bearer " + bearer), ("apns-topic", Fixtures.bundleID), ("apns-push-type", "alert"),
                ("apns-priority", "10"),
            ]
        return SimulatedRequest(
            method: method, path: "/3/device/" + token, headers: (base + extra).map { (name: $0.0, value: $0.1) },
            body: Array(body.utf8), receivedAt: receivedAt)
    }

    func answer(_ request: SimulatedRequest) async -> (Int, String) {
        guard case .respond(let status, _, let body, _) = service.handle(request) else { return (0, "not a response") }
        return (status, String(decoding: body, as: UTF8.self))
    }

    func replacing(_ name: String, with value: String?) throws -> [(String, String)] {
        let base: [(String, String)] = [
            ("authorization", "bearer " + bearer), ("apns-topic", Fixtures.bundleID), ("apns-push-type", "alert"),
            ("apns-priority", "10"),
        ]
        return base.compactMap { $0.0 == name ? value.map { v in (name, v) } : $0 }
    }

    /// The apns-id comes back exactly as sent, upper-case digits included:
    /// clients (aioapns) wait for the answer carrying the id they sent.
    @Test func acceptedNotificationIsRecordedAndItsApnsIDEchoedAsSent() async throws {
        let id = "8E3A1F62-7B4C-4D2E-9F10-AABBCCDDEEFF"
        let answer = service.handle(try request(extra: [("apns-id", id)]))
        guard case .respond(let status, let headers, let body, _) = answer else { Issue.record("no response"); return }
        #expect(status == 200)
        #expect(body.isEmpty)
        #expect(headers.map { "\($0.name): \($0.value)" } == ["apns-id: \(id)"])
        let recorded = try #require(recorder.notifications.first)
        #expect(recorded.target == Fixtures.token)
        #expect(recorded.messageID == id)
        #expect(
            recorded.headers == [
                "apns-id": id, "apns-topic": Fixtures.bundleID, "apns-push-type": "alert", "apns-priority": "10",
            ])
        #expect(recorded.payload == .object(JSONObject([("aps", .object(JSONObject([("alert", "hi")])))])))

        // Refusals echo it as sent too.
        let refused = service.handle(try request(token: String(repeating: "DE", count: 32), extra: [("apns-id", id)]))
        guard case .respond(410, let refusedHeaders, _, _) = refused else {
            Issue.record("not a 410: \(refused)"); return
        }
        #expect(refusedHeaders.first { $0.name == "apns-id" }?.value == id)
    }

    @Test func methodPathAndTokenChecks() async throws {
        #expect(await answer(try request(method: "GET")) == (405, #"{"reason":"MethodNotAllowed"}"#))
        #expect(await answer(try request(token: "")) == (400, #"{"reason":"MissingDeviceToken"}"#))
        var wrongPath = try request()
        wrongPath.path = "/2/device/" + Fixtures.token
        #expect(await answer(wrongPath) == (404, #"{"reason":"BadPath"}"#))
        #expect(await answer(try request(token: "abc")) == (400, #"{"reason":"BadDeviceToken"}"#))
        #expect(
            await answer(try request(token: String(repeating: "zz", count: 32))) == (
                400, #"{"reason":"BadDeviceToken"}"#
            ))
    }

    @Test func deadTokenIsUnregisteredWithMillisecondTimestamp() async throws {
        let (status, body) = await answer(try request(token: String(repeating: "de", count: 32)))
        #expect(status == 410)
        #expect(body == #"{"reason":"Unregistered","timestamp":1799999000123}"#)
    }

    @Test func providerTokenChecks() async throws {
        #expect(
            await answer(try request(headers: try replacing("authorization", with: nil))) == (
                403, #"{"reason":"MissingProviderToken"}"#
            ))
        let invalid = #"{"reason":"InvalidProviderToken"}"#
        #expect(
            await answer(try request(headers: try replacing("authorization", with: "bearer not.a.jwt"))) == (
                403, invalid
            ))
        #expect(
            await answer(try request(headers: try replacing("authorization", with: "basic " + bearer))) == (
                403, invalid
            ))
        #expect(
            await answer(
                try request(headers: try replacing("authorization", with: "bearer " + (try jwt(kid: "OTHERKEY00")))))
                == (403, invalid))
        #expect(
            await answer(
                try request(headers: try replacing("authorization", with: "bearer " + (try jwt(iss: "OTHERTEAM0")))))
                == (403, invalid))
        #expect(
            await answer(
                try request(
                    headers: try replacing("authorization", with: "bearer " + (try jwt(iat: 1_800_000_000 + 120)))))
                == (403, invalid))
        #expect(
            await answer(
                try request(
                    headers: try replacing("authorization", with: "bearer " + (try jwt(iat: 1_800_000_000 - 3600)))))
                == (403, #"{"reason":"ExpiredProviderToken"}"#))
        let otherKey = try PrivateKey.generateP256()
        let forged = try JSONWebToken.sign(
            header: JSONObject([("kid", .string(Fixtures.keyID))]),
            claims: JSONObject([("iss", .string(Fixtures.teamID)), ("iat", 1_799_999_990)]), with: otherKey)
        #expect(
            await answer(try request(headers: try replacing("authorization", with: "bearer " + forged))) == (
                403, invalid
            ))
    }

    @Test func aTokenVerifiedOnceStillExpiresAnHourAfterItsIssue() async throws {
        // Verified on first use, then remembered: the age check still runs on every request.
        #expect(await answer(try request()).0 == 200)
        #expect(await answer(try request(at: Self.now + .seconds(30 * 60))).0 == 200)
        #expect(
            await answer(try request(at: Self.now + .seconds(59 * 60 + 1)))
                == (403, #"{"reason":"ExpiredProviderToken"}"#))
    }

    @Test func newTeamTokenSoonerThanTheIntervalIsTooManyProviderTokenUpdates() async throws {
        #expect(await answer(try request()).0 == 200)
        let newer = try jwt(iat: 1_800_000_000 - 30)
        #expect(
            await answer(try request(headers: try replacing("authorization", with: "bearer " + newer)))
                == (429, #"{"reason":"TooManyProviderTokenUpdates"}"#))
    }

    @Test func headerChecks() async throws {
        #expect(
            await answer(try request(headers: try replacing("apns-topic", with: nil))) == (
                400, #"{"reason":"MissingTopic"}"#
            ))
        #expect(
            await answer(try request(headers: try replacing("apns-topic", with: "com.other.app"))) == (
                400, #"{"reason":"TopicDisallowed"}"#
            ))
        #expect(
            await answer(try request(headers: try replacing("apns-push-type", with: "voip"))) == (
                400, #"{"reason":"BadTopic"}"#
            ))
        #expect(
            await answer(try request(headers: try replacing("apns-topic", with: Fixtures.bundleID + ".voip")))
                == (400, #"{"reason":"BadTopic"}"#))
        #expect(
            await answer(try request(headers: try replacing("apns-push-type", with: "alrt"))) == (
                400, #"{"reason":"InvalidPushType"}"#
            ))
        #expect(
            await answer(try request(headers: try replacing("apns-priority", with: "7"))) == (
                400, #"{"reason":"BadPriority"}"#
            ))
        var background = try replacing("apns-push-type", with: "background")
        #expect(
            await answer(try request(headers: background, body: #"{"aps":{"content-available":1}}"#)) == (
                400, #"{"reason":"BadPriority"}"#
            ))
        background = background.map { $0.0 == "apns-priority" ? ($0.0, "5") : $0 }
        #expect(await answer(try request(headers: background, body: #"{"aps":{"content-available":1}}"#)).0 == 200)
        #expect(
            await answer(try request(extra: [("apns-expiration", "soon")])) == (400, #"{"reason":"BadExpirationDate"}"#)
        )
        #expect(
            await answer(try request(extra: [("apns-expiration", "300")])) == (400, #"{"reason":"BadExpirationDate"}"#))
        #expect(
            await answer(try request(extra: [("apns-collapse-id", String(repeating: "c", count: 65))])) == (
                400, #"{"reason":"BadCollapseId"}"#
            ))
        #expect(await answer(try request(extra: [("apns-id", "not-a-uuid")])) == (400, #"{"reason":"BadMessageId"}"#))
        #expect(await answer(try request(extra: [("apns-priority", "5")])) == (400, #"{"reason":"DuplicateHeaders"}"#))
    }

    @Test func validExpirationAndCollapseIDAreAccepted() async throws {
        let extra = [("apns-expiration", "0"), ("apns-collapse-id", String(repeating: "c", count: 64))]
        #expect(await answer(try request(extra: extra)).0 == 200)
        #expect(await answer(try request(extra: [("apns-expiration", "1800003600")])).0 == 200)
    }

    @Test func payloadChecks() async throws {
        #expect(await answer(try request(body: "")) == (400, #"{"reason":"PayloadEmpty"}"#))
        let big = #"{"aps":{"alert":""# + String(repeating: "x", count: 4079) + #""}}"#
        #expect(big.utf8.count == 4099)
        #expect(await answer(try request(body: big)) == (413, #"{"reason":"PayloadTooLarge"}"#))
        let voip = try replacing("apns-push-type", with: "voip").map {
            $0.0 == "apns-topic" ? ($0.0, Fixtures.bundleID + ".voip") : $0
        }
        #expect(await answer(try request(headers: voip, body: big)).0 == 200)
        #expect(await answer(try request(body: "{not json")) == (400, #"{"reason":"BadPayload"}"#))
        #expect(await answer(try request(body: #"{"alert":"no aps"}"#)) == (400, #"{"reason":"BadPayload"}"#))
        let live = try replacing("apns-push-type", with: "liveactivity")
            .map { $0.0 == "apns-topic" ? ($0.0, Fixtures.bundleID + ".push-type.liveactivity") : $0 }
        #expect(
            await answer(try request(headers: live, body: #"{"aps":{"event":"update"}}"#)) == (
                400, #"{"reason":"BadPayload"}"#
            ))
        #expect(
            await answer(
                try request(
                    headers: live, body: #"{"aps":{"event":"update","timestamp":1800000000,"content-state":{}}}"#)
            ).0 == 200)
    }

    @Test func perTokenLimitAnswersTooManyRequests() async throws {
        #expect(await answer(try request()).0 == 200)
        #expect(await answer(try request()).0 == 200)
        #expect(await answer(try request()) == (429, #"{"reason":"TooManyRequests"}"#))
    }

    @Test func certificateSubjectAuthenticatesItsBundleAndTopicMayBeOmitted() async throws {
        var request = try request(headers: [("apns-push-type", "alert")])
        request.clientCertificateSubject = "CN=Apple Push Services: com.example.chat,OU=TEAM"
        #expect(await answer(request).0 == 200)
        request.headers.append((name: "apns-topic", value: "com.other.app"))
        #expect(await answer(request) == (400, #"{"reason":"TopicDisallowed"}"#))
        #expect(
            APNsSimulatorService.bundleID(fromCertificateSubject: "UID=com.example.voip,CN=Apple VoIP Services: x")
                == "com.example.voip")
    }

    @Test func injectedErrorsUseApplesReasons() {
        for (status, reason) in [(500, "InternalServerError"), (503, "ServiceUnavailable"), (429, "TooManyRequests")] {
            guard case .respond(let answered, _, let body, _) = service.injectedError(status: status) else {
                Issue.record("no response")
                continue
            }
            #expect(answered == status)
            #expect(String(decoding: body, as: UTF8.self) == "{\"reason\":\"\(reason)\"}")
        }
    }
}
