import HeraldCore
import HeraldProviders
import HeraldRegistry
import HeraldTestSupport
import Testing

/// `register` of a Web Push subscription: the shape events use, decoded by
/// the Web Push rules; the keys kept in the device's row; the app's
/// destination rules applied; the `auth` secret in no result.
@Suite struct WebPushRegistrationTests {
    static let endpoint = "https://push.example.net/push/v2/Zk3aB9xQ1rT7"
    static let keys = SubscriptionKeys(
        p256dh: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
        auth: "BTBZMqHH6r4Tts7J_aSIgg")
    static let provider = Provider(rawValue: "webpush")
    static let rules = RegistryCommand.Rules(
        apps: ["chat": [.apns, .fcm, provider]], providers: .registered,
        destinations: [
            "chat": [
                provider: { $0.value.contains("evil") ? "the host evil.example is not in allowed_hosts (x)" : nil }
            ]
        ])

    static func device(_ endpoint: String) -> DeviceKey {
        DeviceKey(
            app: "chat", provider: provider,
            address: Target.Address(Target.Address.Kind(field: "endpoint", isDevice: true), endpoint))
    }

    static func body(endpoint: String = endpoint, keys: String? = nil, extra: String = "") -> String {
        let keys = keys ?? #"{"p256dh": "\#(Self.keys.p256dh)", "auth": "\#(Self.keys.auth)"}"#
        return #"""
            {"app": "chat", "provider": "webpush", "subscription": {"endpoint": "\#(endpoint)", "expirationTime": null, "keys": \#(keys)},
             "channels": ["user:42"]\#(extra)}
            """#
    }

    func decode(_ body: String, _ kind: String = "register") throws(RegistryCommandError) -> RegistryCommand {
        try RegistryCommand.decode(Array(body.utf8), routingKey: kind, fallbackID: nil, rules: Self.rules)
    }

    func refusal(_ body: String, _ kind: String = "register") -> String? {
        do {
            _ = try decode(body, kind)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aSubscriptionDecodesToItsEndpointAndKeys() throws {
        let command = try decode(Self.body())
        #expect(command.device == Self.device(Self.endpoint))
        #expect(command.profile == DeviceProfile(subscriptionKeys: Self.keys))
        #expect(command.action == .register(channels: ["user:42"], environment: nil, topic: nil))
        let unregister = try decode(Self.body(), "unregister")
        #expect(unregister.device == Self.device(Self.endpoint) && unregister.profile == DeviceProfile())
    }

    @Test func aBadSubscriptionIsRefusedNamingItsField() {
        #expect(
            refusal(Self.body(keys: #"{"p256dh": "\#(Self.keys.p256dh)"}"#))
                == "subscription.keys.auth: missing; the subscription's authentication secret")
        #expect(
            refusal(Self.body(keys: #"{"p256dh": "\#(Self.keys.p256dh)", "auth": "c2hvcnQ"}"#))
                == "subscription.keys.auth: expected URL-safe base64 of 16 bytes (the subscription's authentication secret)"
        )
        #expect(refusal(Self.body(endpoint: "http://push.example.net/x"))?.hasPrefix("subscription.endpoint: ") == true)
        #expect(
            refusal(Self.body(extra: #", "token": "abc""#))
                == #"token: is not a field of Web Push devices; give the "subscription""#)
        #expect(
            refusal(#"{"app": "chat", "provider": "webpush", "channels": ["a"]}"#)
                == #"subscription: missing; a Web Push device is given by its "subscription""#)
        #expect(
            refusal(#"{"app": "chat", "provider": "apns", "subscription": {}, "channels": ["a"]}"#)
                == "subscription: is not a field of APNs devices")
        #expect(
            refusal(Self.body(extra: #", "environment": "sandbox""#))
                == "environment: environment and topic override APNs settings; an webpush device has neither")
    }

    @Test func anEndpointTheAppWouldNotSendToIsRefusedAtRegistration() {
        #expect(
            refusal(Self.body(endpoint: "https://evil.example/push/1"))
                == #"subscription.endpoint: is refused: app "chat" would not send to it, "#
                + "the host evil.example is not in allowed_hosts (x)")
        // Taking it off a channel is never refused.
        #expect(refusal(Self.body(endpoint: "https://evil.example/push/1"), "unregister") == nil)
    }

    @Test(arguments: Backend.allCases) func theKeysAreStoredAndNoResultCarriesTheSecret(_ backend: Backend)
        async throws
    {
        try await TestDatabase.withStore(backend) { store in
            let command = try decode(Self.body())
            let result = try await command.apply(to: store, at: Devices.time())
            let json = String(decoding: result.encoded, as: UTF8.self)
            #expect(json.contains(#""endpoint":"\#(Self.endpoint)""#), "\(json)")
            #expect(!json.contains(Self.keys.auth), "\(json)")
            #expect(try await store.device(command.device)?.subscriptionKeys == Self.keys)
            #expect("\(Self.keys)".contains(Self.keys.p256dh) && !"\(Self.keys)".contains(Self.keys.auth))
            let rejected = RegistryResult.rejected(
                RegistryCommandError(field: "x", message: "y"), body: Array(Self.body().utf8), routingKey: "register",
                fallbackID: nil, providers: .registered, at: Devices.time())
            let rejectedJSON = String(decoding: rejected.encoded, as: UTF8.self)
            #expect(rejected.address == Self.device(Self.endpoint).address && !rejectedJSON.contains(Self.keys.auth))
        }
    }
}
