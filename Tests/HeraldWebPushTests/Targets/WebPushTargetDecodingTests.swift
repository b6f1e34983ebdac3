import HeraldProviders
import HeraldWebPush
import Testing
import HeraldCore

/// `{"provider": "webpush", "subscription": {...}}` targets: decoded with
/// their keys, refused target by target with the field named, and written
/// back for a retry as they came.
@Suite struct WebPushTargetDecodingTests {
    static let p256dh = Base64URL.encode([0x04] + [UInt8](repeating: 7, count: 64))
    static let auth = Base64URL.encode([UInt8](repeating: 9, count: 16))
    static let endpoint = "https://push.example.net/push/abc123"

    static func subscription(endpoint: String = endpoint, p256dh: String = p256dh, auth: String = auth) -> String {
        #"{"endpoint": "\#(endpoint)", "keys": {"p256dh": "\#(p256dh)", "auth": "\#(auth)"}, "expirationTime": null}"#
    }

    private func decode(_ targets: String) throws -> Event {
        try Event.decode(
            Array(#"{"id": "e", "app": "chat", "targets": [\#(targets)], "notification": {"title": "x"}}"#.utf8),
            fallbackID: "e", providers: .registered)
    }

    @Test func aSubscriptionBecomesAnEndpointWithItsKeys() throws {
        let event = try decode(#"{"provider": "webpush", "subscription": \#(Self.subscription())}"#)
        let target = try #require(event.targets.first)
        #expect(target.provider == .webpush)
        #expect(target.address == Target.Address(.endpoint, Self.endpoint))
        #expect(target.address.isDevice)
        #expect(target.webPushKeys == WebPushKeys(p256dh: Self.p256dh, auth: Self.auth))
    }

    @Test(arguments: [
        (
            #"{"provider": "webpush", "token": "abc"}"#,
            #"targets[0].token: Web Push has no tokens; a Web Push target needs the browser's "subscription" (endpoint and keys)"#
        ),
        (
            #"{"provider": "fcm", "subscription": \#(subscription())}"#,
            "targets[0].subscription: is for Web Push targets only, not fcm targets"
        ),
        (
            #"{"provider": "webpush", "subscription": {"keys": {}}}"#,
            "targets[0].subscription.endpoint: missing; the push service's URL for this browser"
        ),
        (
            #"{"provider": "webpush", "subscription": \#(subscription(endpoint: "http://push.example.net/x"))}"#,
            #"targets[0].subscription.endpoint: expected an https:// URL of at most 4096 bytes without spaces, found "http://push.example.net/x""#
        ),
        (
            #"{"provider": "webpush", "subscription": {"endpoint": "https://p.example/x"}}"#,
            #"targets[0].subscription.keys: missing; give "p256dh" and "auth""#
        ),
        (
            #"{"provider": "webpush", "subscription": \#(subscription(auth: "c2hvcnQ"))}"#,
            "targets[0].subscription.keys.auth: expected URL-safe base64 of 16 bytes (the subscription's authentication secret)"
        ),
        (
            #"{"provider": "webpush", "subscription": \#(subscription(p256dh: "!!"))}"#,
            "targets[0].subscription.keys.p256dh: expected URL-safe base64 of 65 bytes (the browser's P-256 public key)"
        ),
        (#"{"provider": "webpusher", "token": "abc"}"#, "targets[0].provider: unknown provider \"webpusher\""),
    ])
    func aBadTargetFailsAloneNamingTheField(target: String, message: String) throws {
        let event = try decode(target + #", {"provider": "fcm", "token": "good"}"#)
        #expect(event.targets.count == 1, "the good target stays")
        let invalid = try #require(event.invalidTargets.first)
        #expect(invalid.error.description.hasPrefix(message), "\(invalid.error.description)")
        #expect(invalid.verdict == .failed)
    }

    @Test func theKeysAreNotRepeatedInTheError() throws {
        let secret = Base64URL.encode([UInt8](repeating: 1, count: 15))
        let event = try decode(#"{"provider": "webpush", "subscription": \#(Self.subscription(auth: secret))}"#)
        let invalid = try #require(event.invalidTargets.first)
        #expect(!invalid.error.description.contains(secret))
        #expect(invalid.address == Target.Address(.endpoint, Self.endpoint), "the outcome still names the subscription")
    }

    @Test func theShorthandTakesASubscriptionToo() throws {
        let event = try Event.decode(
            Array(
                #"{"id": "e", "provider": "webpush", "subscription": \#(Self.subscription()), "data": {"a": "b"}}"#.utf8
            ), fallbackID: "e", providers: .registered)
        #expect(event.targets.first?.address == Target.Address(.endpoint, Self.endpoint))
    }

    @Test func aTargetWritesBackAsItDecodes() throws {
        let event = try decode(#"{"provider": "webpush", "subscription": \#(Self.subscription())}"#)
        let target = try #require(event.targets.first)
        let again = try decode(target.eventJSON(providers: .registered).jsonString)
        #expect(again.targets == [target])
    }

    @Test func aRawPayloadIsAStringOrAnObject() throws {
        let body = { (payload: String) in
            Array(
                #"{"id": "e", "provider": "webpush", "subscription": \#(Self.subscription()), "webpush": {"payload": \#(payload)}}"#
                    .utf8)
        }
        #expect(
            try Event.decode(body(#""ping""#), fallbackID: "e", providers: .registered).webPushPayload == "ping")
        #expect(
            try Event.decode(body(#"{"a": 1}"#), fallbackID: "e", providers: .registered).webPushPayload == ["a": 1])
        #expect(throws: EventError.self) { try Event.decode(body("[1]"), fallbackID: "e", providers: .registered) }
    }

    @Test func logsKeepThePushServiceAndCutTheSubscription() {
        #expect(
            LogValue.mask(token: "https://fcm.googleapis.com/fcm/send/dQw4w9WgXcQ:APA91bH")
                == "https://fcm.googleapis.com/fcm/send/dQw4w9Wg…")
        #expect(LogValue.mask(token: "0123456789abcdef") == "01234567…")
    }
}
