import Foundation
import HeraldCore
import HeraldRegistry
import HeraldSimulator
import HeraldTestSupport
import HeraldWebPush
import Testing

/// Web Push subscriptions in the registry, through the running service:
/// registered by a `register` command beside APNs and FCM devices, reached
/// by a channel publish (the simulator's push service decrypts what it
/// receives), pruned from every channel by a 410, and refused at
/// registration when the app's egress rules would refuse to send to them.
@Suite(.serialized) struct WebPushChannelTests {
    static let apns = String(repeating: "a1", count: 32)

    /// A service with a registry and a `webpush:` section (`egress`: its
    /// `allowed_hosts` lines; nil lets it reach the simulator).
    static func fixture(_ database: TestDatabase, egress: String? = nil) async throws -> RegistryServiceFixture {
        try await RegistryServiceFixture(
            database, apps: { ServiceConfig.webPushSection(simulator: $0, egress: egress) }, logLevel: .debug)
    }

    /// `{"app": "chat", "provider": "webpush", "subscription": {…}, "channels": […]}`.
    static func register(_ subscription: JSONValue, on channels: [String]) -> String {
        let list = channels.map { JSONText.quoted($0) }.joined(separator: ", ")
        return
            #"{"app": "chat", "provider": "webpush", "subscription": \#(subscription.jsonString), "channels": [\#(list)]}"#
    }

    @Test(arguments: Backend.allCases)
    func aRegisteredSubscriptionReceivesAChannelPublishAndA410PrunesIt(backend: Backend) async throws {
        try await TestDatabase.with(backend) { database in
            let f = try await Self.fixture(database)
            let browser = try f.simulator.webPushSubscription()
            let json = try browser.jsonValue()
            let auth = try #require(json["keys"]?["auth"]?.stringValue)
            let endpoint = browser.subscription.endpoint
            try await f.commands.publish(
                #"{"app": "chat", "provider": "apns", "token": "\#(Self.apns)", "channels": ["user:42"]}"#,
                routingKey: "register")
            try await f.commands.publish(
                #"{"app": "chat", "provider": "fcm", "token": "fcm-1", "channels": ["user:42"]}"#,
                routingKey: "register")
            try await f.commands.publish(Self.register(json, on: ["user:42", "room:7"]), routingKey: "register")
            #expect(await f.results.waitForRegistryResults { $0.count == 3 })
            let registered = try #require(f.results.registryResults.first { $0.result["provider"] == "webpush" })
            #expect(registered.routingKey == "registered.webpush.chat")
            #expect(registered.result["endpoint"] == .string(endpoint))
            let device = DeviceKey(app: "chat", provider: .webpush, address: Target.Address(.endpoint, endpoint))
            #expect(try await f.store.channels(of: device) == ["room:7", "user:42"])

            try await f.events.publish(
                #"{"id": "wc1", "app": "chat", "targets": [{"channel": "user:42"}], "notification": {"title": "hi"}}"#)
            #expect(await f.results.wait { $0.count == 3 })
            #expect(f.results.all.allSatisfy { $0.outcome.status == .delivered }, "\(f.results.all.map(\.outcome))")
            let pushed = try #require(f.simulator.recorder.notifications.first { $0.provider == "webpush" })
            #expect(pushed.target == browser.id)
            #expect(pushed.payload == ["notification": ["title": "hi"]], "decrypted by the simulator")

            // The browser unsubscribed: its push service answers 410 and every channel loses it.
            _ = f.simulator.webpush.deleteSubscription(browser.id)
            try await f.events.publish(
                #"{"id": "wc2", "app": "chat", "targets": [{"channel": "room:7"}], "notification": {"title": "again"}}"#
            )
            #expect(await f.results.wait { $0.count == 4 })
            let gone = try #require(f.results.all.last?.outcome)
            #expect(gone.status == .invalidToken && gone.providerStatus == 410)
            #expect(gone.unregistered && gone.channel == "room:7" && gone.address == device.address)
            #expect(try await f.store.channels(of: device) == [])
            #expect(try await f.store.device(device) == nil)
            #expect(try await f.store.count(app: "chat", channel: "user:42") == 2)

            // The secret went nowhere: not in a log line, an outcome or a registry result.
            let published =
                f.results.rawBodies.map { String(decoding: $0, as: UTF8.self) }
                + f.results.registryResults.map { JSONValue.object($0.result).jsonString }
            #expect(!published.contains { $0.contains(auth) })
            #expect(!f.running.logs.lines.isEmpty)
            #expect(!f.running.logs.lines.contains { $0.contains(auth) })
            try await f.stop()
        }
    }

    /// The app's egress rules are those of sending: a loopback address is not
    /// a public address, and a host outside `allowed_hosts` is refused.
    @Test func aSubscriptionHeraldWouldNotSendToIsRejectedNamingTheRule() async throws {
        try await TestDatabase.with(.sqlite) { database in
            let f = try await Self.fixture(database, egress: "\n      allowed_hosts: [push.example.net]")
            let json = try f.simulator.webPushSubscription().jsonValue()
            for endpoint in ["https://127.0.0.1:8443/push/abc", "https://fcm.googleapis.com/fcm/send/abc"] {
                guard case .object(var object) = json else { return }
                object["endpoint"] = .string(endpoint)
                try await f.commands.publish(Self.register(.object(object), on: ["user:42"]), routingKey: "register")
            }
            #expect(await f.results.waitForRegistryResults { $0.count == 2 })
            let reasons = f.results.registryResults.map { $0.result["reason"]?.stringValue ?? "" }
            #expect(f.results.registryResults.allSatisfy { $0.routingKey == "registry_rejected.webpush.chat" })
            let refusal = #"subscription.endpoint: is refused: app "chat" would not send to it, EndpointNotAllowed: "#
            #expect(
                Set(reasons) == [
                    refusal + "the address 127.0.0.1 is not a public address: 127.0.0.0/8 loopback (RFC 1122)",
                    refusal + "the host fcm.googleapis.com is not in allowed_hosts (push.example.net)",
                ])
            #expect(try await f.store.count(app: "chat", channel: "user:42") == 0)
            try await f.stop()
        }
    }
}
