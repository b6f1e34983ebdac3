import HeraldCore
import HeraldCrypto
import HeraldHTTPClient
import HeraldSimulator
import HeraldWebPush
import Testing

/// The simulated Web Push push service over HTTP/2 and the test PKI's TLS:
/// subscriptions issued through the admin API, messages encrypted with
/// `WebPushEncryption` and signed with `VAPIDSigner` (Herald's own building
/// blocks), accepted 201 and recorded as the plaintext the simulator
/// decrypted, and every refusal RFC 8030, 8291 and 8292 call for.
@Suite struct WebPushSimulatorTests {
    /// An application server: a VAPID key and its signer.
    struct Sender {
        let signer: VAPIDSigner

        init() throws {
            signer = try VAPIDSigner(key: PrivateKey.generateP256(), subject: VAPIDSubject("mailto:push@example.com"))
        }

        /// `vapid t=…, k=…` for `audience`, expiring `lifetime` from now (negative: already expired).
        func authorization(audience: String, lifetime: Duration = .seconds(3600)) throws -> String {
            signer.authorization(
                token: try signer.token(
                    audience: audience, expiresAt: Timestamp(seconds: Timestamp.now().seconds) + lifetime))
        }
    }

    /// A subscription as the admin API issued it.
    struct Issued {
        let subscription: WebPushSubscription
        let id: String
        let json: JSONValue
        var path: String { WebPushSimulatorService.pushPathPrefix + id }
    }

    /// A simulator whose push service is at `https://127.0.0.1:<port>`, as `herald simulate` has it.
    func withPushService(
        faults: SimulatorFaults = .none, maxSubscriptions: Int = WebPushSimulatorService.defaultMaxSubscriptions,
        _ body: (RunningSimulator, WebPushSimulatorService) async throws -> Void
    ) async throws {
        let recorder = NotificationRecorder()
        let webpush = WebPushSimulatorService(recorder: recorder, maxSubscriptions: maxSubscriptions)
        try await withSimulator(
            APNsSimulatorConfiguration(), faults: faults, recorder: recorder, extraServices: [webpush]
        ) { sim in
            webpush.serve(at: "https://127.0.0.1:\(sim.server.port)")
            try await body(sim, webpush)
        }
    }

    /// `POST /_herald/webpush/subscriptions`, restricted to `sender`'s key when given.
    func subscribe(_ sim: RunningSimulator, restrictedTo sender: Sender? = nil) async throws -> Issued {
        let body = sender.map { #"{"application_server_key":"\#($0.signer.publicKey)"}"# } ?? "{}"
        let answer = try await call(sim, "POST", "/_herald/webpush/subscriptions", body: body)
        #expect(answer.status == 201, "\(answer.body)")
        let json = try #require(answer.json)
        return Issued(
            subscription: try WebPushSubscription(json: json), id: try #require(json["id"]?.stringValue), json: json)
    }

    /// Sends one push request to `url` (a subscription's endpoint) with Herald's `HTTPClient`.
    func push(
        _ sim: RunningSimulator, _ url: String, method: String = "POST", headers: [(name: String, value: String)],
        body: [UInt8]
    ) async throws -> Answer {
        let configuration = HTTPClientConfiguration(
            maxConnectionsPerHost: 1, requestTimeout: .seconds(10),
            tls: HTTPClientTLSConfiguration(caFile: sim.pki.caCertificatePath))
        return try await HTTPClient.withClient(configuration: configuration, logger: Fixtures.logger) { client in
            let response = try await client.send(
                HTTPClientRequest(method: method, url: url, headers: headers, body: body))
            return Answer(
                status: response.status, headers: response.headers, body: String(decoding: response.body, as: UTF8.self)
            )
        }
    }

    /// The headers of a well-formed push request from `sender` to `issued`.
    func pushHeaders(_ sender: Sender, _ issued: Issued) throws -> [(name: String, value: String)] {
        [
            ("ttl", "60"), ("content-encoding", "aes128gcm"),
            ("authorization", try sender.authorization(audience: issued.subscription.origin)),
        ]
    }

    @Test func aMessageEncryptedAndSignedWithHeraldsBuildingBlocksIsAcceptedAndRecordedAsItsPlaintext() async throws {
        let sender = try Sender()
        try await withPushService { sim, _ in
            let issued = try await subscribe(sim, restrictedTo: sender)
            let origin = "https://127.0.0.1:\(sim.server.port)"
            #expect(issued.subscription.endpoint == origin + "/push/" + issued.id)
            #expect(issued.json["application_server_key"]?.stringValue == sender.signer.publicKey)
            let plaintext = #"{"title":"Hi","body":"Hello from Herald","data":{"n":1}}"#
            let body = try WebPushEncryption.encrypt(Array(plaintext.utf8), for: issued.subscription)

            // The private key the admin API hands out is the browser's: it decrypts the body too.
            let scalar = try #require(issued.json["private_key"]?.stringValue.flatMap { Base64URL.decode($0) })
            let browserKey = try PrivateKey(rawP256Scalar: scalar)
            #expect(
                try WebPushEncryption.decrypt(body, privateKey: browserKey, authSecret: issued.subscription.authSecret)
                    == Array(plaintext.utf8))

            let answer = try await push(
                sim, issued.subscription.endpoint,
                headers: try pushHeaders(sender, issued) + [("urgency", "high"), ("topic", "news-1")],
                body: body)
            #expect(answer.status == 201, "\(answer.body)")
            #expect(answer.header("ttl") == "60")
            let recorded = try #require(sim.recorder.notifications.first)
            #expect(answer.header("location") == origin + "/message/" + recorded.messageID)
            #expect(recorded.provider == "webpush")
            #expect(recorded.target == issued.id)
            #expect(recorded.payload == (try JSONValue.parse(Array(plaintext.utf8))))
            #expect(
                recorded.headers == [
                    "ttl": "60", "urgency": "high", "topic": "news-1", "content-encoding": "aes128gcm",
                ])
            #expect(sim.recorder.counters["webpush.201"] == 1)
            #expect(sim.recorder.refusals.isEmpty, "a 201 is not a refusal")

            let listed = try await call(
                sim, "GET", "/_herald/delivered?provider=webpush&token=\(issued.id)&topic=news-1")
            #expect(listed.json?["delivered"]?.arrayValue?.first?["payload"] == recorded.payload)
        }
    }

    @Test func anUnrestrictedSubscriptionTakesAnyVAPIDKeyAndAMessageWithoutABody() async throws {
        try await withPushService { sim, _ in
            let issued = try await subscribe(sim)
            #expect(issued.json["application_server_key"] == nil)
            let sender = try Sender()
            let text = try await push(
                sim, issued.subscription.endpoint, headers: try pushHeaders(sender, issued),
                body: try WebPushEncryption.encrypt(Array("plain text, not JSON".utf8), for: issued.subscription))
            #expect(text.status == 201, "\(text.body)")
            let empty = try await push(
                sim, issued.subscription.endpoint,
                headers: [
                    ("ttl", "0"), ("authorization", try sender.authorization(audience: issued.subscription.origin)),
                ], body: [])
            #expect(empty.status == 201, "\(empty.body)")
            #expect(sim.recorder.notifications.map(\.payload) == [.string("plain text, not JSON"), .null])
        }
    }

    /// One request that must be refused: what to change, and the status and reason expected.
    struct Refusal: Sendable, CustomTestStringConvertible {
        let name: String
        let status: Int
        let reason: String
        var testDescription: String { name }
    }

    static let refusals = [
        Refusal(name: "no Authorization", status: 401, reason: "MissingAuthorization"),
        Refusal(name: "another application server's key", status: 403, reason: "VAPIDKeyMismatch"),
        Refusal(name: "an expired token", status: 403, reason: "BadExpiry"),
        Refusal(name: "a token for another push service", status: 403, reason: "WrongAudience"),
        Refusal(name: "not vapid", status: 403, reason: "MalformedAuthorization"),
        Refusal(name: "no TTL", status: 400, reason: "MissingTTL"),
        Refusal(name: "a negative TTL", status: 400, reason: "InvalidTTL"),
        Refusal(name: "an unknown urgency", status: 400, reason: "InvalidUrgency"),
        Refusal(name: "a 33-character topic", status: 400, reason: "InvalidTopic"),
        Refusal(name: "a 4097-byte body", status: 413, reason: "PayloadTooLarge"),
        Refusal(name: "the aesgcm draft coding", status: 415, reason: "UnsupportedContentEncoding"),
        Refusal(name: "no Content-Encoding", status: 415, reason: "UnsupportedContentEncoding"),
        Refusal(name: "a tampered body", status: 400, reason: "DecryptionFailed"),
        Refusal(name: "another subscription's body", status: 400, reason: "DecryptionFailed"),
        Refusal(name: "GET", status: 405, reason: "MethodNotAllowed"),
    ]

    @Test(arguments: refusals)
    func aPushRequestIsRefusedAsRFC8030And8292Say(_ refusal: Refusal) async throws {
        let sender = try Sender()
        try await withPushService { sim, _ in
            let issued = try await subscribe(sim, restrictedTo: sender)
            var headers = try pushHeaders(sender, issued)
            var body = try WebPushEncryption.encrypt(Array(#"{"n":1}"#.utf8), for: issued.subscription)
            var method = "POST"
            func set(_ name: String, _ value: String?) {
                headers.removeAll { $0.name == name }
                if let value { headers.append((name, value)) }
            }
            let origin = issued.subscription.origin
            switch refusal.name {
            case "no Authorization": set("authorization", nil)
            case "another application server's key": set("authorization", try Sender().authorization(audience: origin))
            case "an expired token":
                set("authorization", try sender.authorization(audience: origin, lifetime: .seconds(-60)))
            case "a token for another push service":
                set("authorization", try sender.authorization(audience: "https://push.example.net"))
            case "not vapid": set("authorization", "Bearer abc")
            case "no TTL": set("ttl", nil)
            case "a negative TTL": set("ttl", "-1")
            case "an unknown urgency": set("urgency", "urgent")
            case "a 33-character topic": set("topic", String(repeating: "a", count: 33))
            case "a 4097-byte body": body = [UInt8](repeating: 7, count: 4097)
            case "the aesgcm draft coding": set("content-encoding", "aesgcm")
            case "no Content-Encoding": set("content-encoding", nil)
            case "a tampered body": body[body.count - 1] ^= 0x01
            case "another subscription's body":
                body = try WebPushEncryption.encrypt(
                    Array(#"{"n":1}"#.utf8), for: try await subscribe(sim).subscription)
            case "GET": method = "GET"
            default: Issue.record("no request for \(refusal.name)")
            }
            let answer = try await push(sim, issued.subscription.endpoint, method: method, headers: headers, body: body)
            #expect(answer.status == refusal.status, "\(answer.body)")
            #expect(answer.json?["reason"]?.stringValue == refusal.reason, "\(answer.body)")
            #expect(answer.json?["description"]?.stringValue?.isEmpty == false)
            #expect(sim.recorder.notifications.isEmpty)
            let recorded = try #require(sim.recorder.refusals.last)
            #expect(recorded.provider == "webpush")
            #expect(recorded.status == refusal.status)
            #expect(recorded.reason == refusal.reason)
            #expect(recorded.addressee?.target == issued.id)
            #expect(recorded.headers["authorization"] == nil)
            switch refusal.status {
            case 401: #expect(answer.header("www-authenticate") == "vapid")
            case 415: #expect(answer.header("accept-encoding") == "aes128gcm")
            case 405: #expect(answer.header("allow") == "POST")
            default: break
            }
        }
    }

    @Test func aDeletedSubscriptionIsGoneAndAnIDNeverIssuedIsNotFound() async throws {
        let sender = try Sender()
        try await withPushService { sim, webpush in
            let issued = try await subscribe(sim, restrictedTo: sender)
            let body = try WebPushEncryption.encrypt(Array("hi".utf8), for: issued.subscription)
            #expect(
                try await push(sim, issued.subscription.endpoint, headers: try pushHeaders(sender, issued), body: body)
                    .status == 201)

            let deleted = try await call(sim, "DELETE", "/_herald/webpush/subscriptions/" + issued.id)
            #expect(deleted.status == 200)
            #expect(deleted.body == #"{"deleted":"\#(issued.id)"}"#)
            let gone = try await push(
                sim, issued.subscription.endpoint, headers: try pushHeaders(sender, issued), body: body)
            #expect(gone.status == 410, "\(gone.body)")
            #expect(gone.json?["reason"]?.stringValue == "Gone")

            let never = try await push(
                sim, issued.subscription.origin + "/push/never-issued", headers: try pushHeaders(sender, issued),
                body: body)
            #expect(never.status == 404, "\(never.body)")
            #expect(never.json?["reason"]?.stringValue == "NotFound")
            #expect(try await call(sim, "DELETE", "/_herald/webpush/subscriptions/never-issued").status == 404)
            #expect(webpush.deleteSubscription(issued.id), "deleting twice still names an issued id")
        }
    }

    @Test func subscriptionsOverTheCapAreRefusedWith429DeletedOnesCounting() async throws {
        #expect(WebPushSimulatorService.defaultMaxSubscriptions == 10_000)
        try await withPushService(maxSubscriptions: 2) { sim, webpush in
            let first = try await subscribe(sim)
            _ = try await subscribe(sim)
            let message =
                "the simulator issued its maximum of 2 Web Push subscriptions (deleted ones count: they are answered 410); restart it for more"
            let over = try await call(sim, "POST", "/_herald/webpush/subscriptions", body: "{}")
            #expect(over.status == 429, "\(over.body)")
            #expect(over.json?["error"]?.stringValue == message, "\(over.body)")
            #expect(try await call(sim, "DELETE", "/_herald/webpush/subscriptions/" + first.id).status == 200)
            #expect(
                try await call(sim, "POST", "/_herald/webpush/subscriptions", body: "{}").status == 429,
                "a deleted subscription is still answered 410, so it still counts")
            #expect(throws: WebPushSimulatorError.tooManySubscriptions(2)) { try webpush.issueSubscription() }
        }
    }

    @Test func theAdminAPIRefusesAKeyThatIsNotAP256Point() async throws {
        try await withPushService { sim, _ in
            let short = try await call(
                sim, "POST", "/_herald/webpush/subscriptions", body: #"{"application_server_key":"AAAA"}"#)
            #expect(short.status == 400)
            #expect(
                short.json?["error"]?.stringValue?.hasPrefix("application_server_key: expected base64url of a 65-byte")
                    == true, "\(short.body)")
            let typo = try await call(
                sim, "POST", "/_herald/webpush/subscriptions", body: #"{"application_key":"AAAA"}"#)
            #expect(typo.status == 400, "\(typo.body)")
            #expect(try await call(sim, "GET", "/_herald/webpush/subscriptions").status == 405)
        }
    }

    @Test(arguments: [429, 503, 500])
    func injectedFaultsAnswerInThePushServicesShape(status: Int) async throws {
        let sender = try Sender()
        try await withPushService(faults: SimulatorFaults(errorRate: 1, errorStatus: status, services: ["webpush"])) {
            sim, _ in
            let issued = try await subscribe(sim, restrictedTo: sender)
            let body = try WebPushEncryption.encrypt(Array("hi".utf8), for: issued.subscription)
            let answer = try await push(
                sim, issued.subscription.endpoint, headers: try pushHeaders(sender, issued), body: body)
            #expect(answer.status == status)
            #expect(answer.header("retry-after") == (status == 500 ? nil : "10"))
            #expect(sim.recorder.refusals.last?.fault == .error)
            #expect(sim.recorder.notifications.isEmpty)
        }
    }
}
