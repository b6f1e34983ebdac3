import HeraldCore
import HeraldCrypto
import HeraldWebPush
import Testing

@Suite struct WebPushSubscriptionTests {
    static let p256dh = RFC8291Example.receiverPublicKey
    static let auth = RFC8291Example.authSecret

    static func json(_ text: String) throws -> JSONValue { try JSONValue.parse(text) }

    /// The problem reported for `endpoint`, or "accepted".
    static func endpointProblem(_ endpoint: String) -> String {
        do {
            _ = try WebPushSubscription(endpoint: endpoint, p256dh: p256dh, auth: auth)
            return "accepted"
        } catch {
            #expect(error.field == .endpoint)
            return error.problem
        }
    }

    @Test func browserJSONIsAccepted() throws {
        let subscription = try WebPushSubscription(
            json: Self.json(
                """
                {"endpoint": "https://fcm.googleapis.com/fcm/send/dEx4:APA91b", "expirationTime": null,
                 "keys": {"p256dh": "\(Self.p256dh)", "auth": "\(Self.auth)"}}
                """))
        #expect(subscription.endpoint == "https://fcm.googleapis.com/fcm/send/dEx4:APA91b")
        #expect(subscription.origin == "https://fcm.googleapis.com")
        #expect(subscription.userAgentPublicKeyBytes == (try unbase64(Self.p256dh)))
        #expect(subscription.authSecret.count == 16)
    }

    @Test func paddingAndTheStandardAlphabetAreTolerated() throws {
        let padded = try WebPushSubscription(
            endpoint: RFC8291Example.endpoint, p256dh: Self.p256dh + "=", auth: Self.auth + "==")
        #expect(padded.authSecret == (try unbase64(Self.auth)))
        let standard = String(Self.p256dh.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        #expect(standard != Self.p256dh)
        let fromStandard = try WebPushSubscription(endpoint: RFC8291Example.endpoint, p256dh: standard, auth: Self.auth)
        #expect(fromStandard.userAgentPublicKeyBytes == padded.userAgentPublicKeyBytes)
    }

    @Test func originIsSchemeHostAndANonDefaultPort() {
        func origin(_ endpoint: String) -> String? {
            try? WebPushSubscription(endpoint: endpoint, p256dh: Self.p256dh, auth: Self.auth).origin
        }
        #expect(origin("https://Web.Push.Apple.com/QGz8v") == "https://web.push.apple.com")
        #expect(origin("https://push.example.net:8443/send/1?x=y") == "https://push.example.net:8443")
        #expect(origin("https://push.example.net:443/send/1") == "https://push.example.net")
        #expect(origin("HTTPS://push.example.net") == "https://push.example.net")
        #expect(origin("https://[2001:db8::1]:8443/p") == "https://[2001:db8::1]:8443")
    }

    @Test func badEndpointsAreRefusedWithWhatIsWrong() {
        #expect(Self.endpointProblem("http://push.example.net/send/1") == "uses http://; Web Push needs https://")
        #expect(
            Self.endpointProblem("push.example.net/send/1") == "is not an absolute URL (expected https://host/path)")
        #expect(Self.endpointProblem("") == "is empty")
        #expect(Self.endpointProblem("https:///send/1") == "has no host")
        #expect(
            Self.endpointProblem("https://user:pw@push.example.net/x")
                == "carries user info (user@host), which a push URL never has")
        #expect(
            Self.endpointProblem("https://push.example.net/a b")
                == "has a space, control or non-ASCII byte at offset 26")
        #expect(
            Self.endpointProblem("https://push.example.net:0/x") == "has a port that is not a number from 1 to 65535")
        #expect(
            Self.endpointProblem("https://push.example.net:99999/x")
                == "has a port that is not a number from 1 to 65535")
        #expect(
            Self.endpointProblem("https://push.exa%6dple.net/x") == "has a host with characters a host name cannot have"
        )
        #expect(Self.endpointProblem("https://[2001:db8::1/x") == "has an unclosed [IPv6] host")
        #expect(Self.endpointProblem("https://push.example.net/send/1") == "accepted")
    }

    @Test func missingOrMistypedFieldsAreNamed() throws {
        func error(_ text: String) throws -> WebPushSubscriptionError? {
            let json = try Self.json(text)
            do {
                _ = try WebPushSubscription(json: json)
                return nil
            } catch {
                return error
            }
        }
        let endpoint = "\"endpoint\": \"https://push.example.net/1\""
        #expect(try error("[]")?.description == "subscription must be an object with endpoint and keys, found an array")
        #expect(try error("{\"keys\": {}}")?.description == "subscription.endpoint is missing")
        #expect(try error("{\"endpoint\": 7}")?.description == "subscription.endpoint must be a string, found a number")
        #expect(
            try error("{\(endpoint)}")?.description == "subscription.keys is missing (an object with p256dh and auth)")
        #expect(
            try error("{\(endpoint), \"keys\": \"k\"}")?.description
                == "subscription.keys must be an object with p256dh and auth, found a string")
        #expect(
            try error("{\(endpoint), \"keys\": {\"auth\": \"\(Self.auth)\"}}")?.description
                == "subscription.keys.p256dh is missing")
        #expect(
            try error("{\(endpoint), \"keys\": {\"p256dh\": \"\(Self.p256dh)\"}}")?.description
                == "subscription.keys.auth is missing")
        #expect(
            try error("{\(endpoint), \"keys\": {\"p256dh\": \"\", \"auth\": \"\(Self.auth)\"}}")?.description
                == "subscription.keys.p256dh is empty")
    }

    @Test func wrongKeyLengthsAndInvalidPointsAreRefused() throws {
        let point = try unbase64(Self.p256dh)
        let endpoint = RFC8291Example.endpoint
        #expect(
            throws: WebPushSubscriptionError(
                .p256dh, "is not a P-256 public key: expected 65 bytes (0x04‖X‖Y), found 64")
        ) {
            try WebPushSubscription(endpoint: endpoint, p256dh: base64(Array(point.dropLast())), auth: Self.auth)
        }
        var offCurve = point
        offCurve[64] ^= 1
        #expect(
            throws: WebPushSubscriptionError(.p256dh, "is not a P-256 public key: the point is not on the P-256 curve")
        ) {
            try WebPushSubscription(endpoint: endpoint, p256dh: base64(offCurve), auth: Self.auth)
        }
        #expect(
            throws: WebPushSubscriptionError(
                .p256dh, "is not a P-256 public key: expected the uncompressed form (first byte 0x04), found 0x03")
        ) {
            try WebPushSubscription(endpoint: endpoint, p256dh: base64([0x03] + point.dropFirst()), auth: Self.auth)
        }
        #expect(throws: WebPushSubscriptionError(.auth, "must decode to 16 bytes, found 15")) {
            try WebPushSubscription(
                endpoint: endpoint, p256dh: Self.p256dh, auth: base64([UInt8](repeating: 1, count: 15)))
        }
        #expect(throws: WebPushSubscriptionError(.auth, "is not URL-safe base64 (5 characters)")) {
            try WebPushSubscription(endpoint: endpoint, p256dh: Self.p256dh, auth: "ab$cd")
        }
    }

    @Test func messagesNeverRepeatTheAuthSecretOrTheEndpointPath() {
        let secret = "c2VjcmV0LWF1dGgtdmFsdWU"  // 17 bytes: the wrong length
        do {
            _ = try WebPushSubscription(
                endpoint: "http://push.example.net/capability-token", p256dh: Self.p256dh, auth: secret)
            Issue.record("accepted")
        } catch {
            #expect(!error.description.contains("capability-token"))
        }
        do {
            _ = try WebPushSubscription(endpoint: RFC8291Example.endpoint, p256dh: Self.p256dh, auth: secret)
            Issue.record("accepted")
        } catch {
            #expect(!error.description.contains(secret))
        }
    }
}
