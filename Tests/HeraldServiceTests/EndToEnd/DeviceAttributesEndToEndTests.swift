import Foundation
import HeraldCore
import HeraldRegistry
import HeraldTestSupport
import Testing

/// Device attributes and retirement through the running service, on both
/// backends: attributes registered by commands are echoed in a channel
/// device's outcome only when the event asks; `registry.expire_after`
/// retires a device not registered again (one `registry_expired` result)
/// and keeps one that was, under a clock the test moves.
@Suite(.serialized) struct DeviceAttributesEndToEndTests {
    static let apns1 = String(repeating: "a1", count: 32)
    static let apns2 = String(repeating: "b2", count: 32)

    @Test(arguments: Backend.allCases)
    func attributesAreEchoedOnlyWhenTheEventAsks(backend: Backend) async throws {
        try await TestDatabase.with(backend) { database in
            let f = try await RegistryServiceFixture(database)
            // Set on user:42, read on room:1: the device's attributes are one, whatever the channel.
            try await f.commands.publish(
                #"""
                {"id": "r1", "app": "chat", "provider": "apns", "token": "\#(Self.apns1)", "channels": ["user:42"],
                 "timezone": "Europe/Paris", "locale": "fr-FR", "attributes": {"plan": "pro"}}
                """#, routingKey: "register")
            try await f.commands.publish(
                #"{"id": "r2", "app": "chat", "provider": "apns", "token": "\#(Self.apns1)", "channels": ["room:1"]}"#,
                routingKey: "register")
            try await f.commands.publish(
                #"{"id": "r3", "app": "chat", "provider": "fcm", "token": "fcm-1", "channels": ["room:1"]}"#,
                routingKey: "register")
            try await f.commands.publish(
                #"{"id": "r4", "app": "chat", "provider": "fcm", "token": "fcm-2", "channels": ["room:1"], "timezone": "Mars/Olympus_Mons"}"#,
                routingKey: "register")
            try await f.commands.publish(
                #"{"id": "r5", "app": "chat", "provider": "fcm", "token": "fcm-3", "channels": ["room:1"], "locale": "en_US"}"#,
                routingKey: "register")
            #expect(await f.results.waitForRegistryResults { $0.count == 5 })
            let refused = try #require(f.results.registryResults.first { $0.result["command_id"] == "r4" })
            #expect(refused.routingKey == "registry_rejected.fcm.chat")
            #expect(
                refused.result["reason"]?.stringValue?.hasPrefix(#"timezone: unknown time zone "Mars/Olympus_Mons""#)
                    == true)
            let badLocale = try #require(f.results.registryResults.first { $0.result["command_id"] == "r5" })
            #expect(badLocale.routingKey == "registry_rejected.fcm.chat")
            #expect(
                badLocale.result["reason"]?.stringValue?.hasPrefix(
                    #"locale: locale "en_US" is not a BCP 47 language tag"#)
                    == true)

            try await f.events.publish(
                #"""
                {"id": "asks", "app": "chat", "include_device_attributes": true, "notification": {"title": "hi"},
                 "targets": [{"channel": "room:1"}, {"provider": "fcm", "token": "fcm-explicit"}]}
                """#)
            try await f.events.publish(
                #"{"id": "plain", "app": "chat", "targets": [{"channel": "room:1"}], "notification": {"title": "hi"}}"#)
            #expect(await f.results.wait { $0.count == 5 })
            let asked = f.results.all.map(\.outcome).filter { $0.eventID == "asks" }
            #expect(asked.allSatisfy { $0.status == .delivered })
            let device = try #require(asked.first { $0.address == .token(Self.apns1) })
            #expect(
                device.deviceAttributes
                    == ["timezone": "Europe/Paris", "locale": "fr-FR", "attributes": .object(["plan": "pro"])])
            #expect(asked.first { $0.address == .token("fcm-1") }?.deviceAttributes == JSONObject())
            #expect(asked.first { $0.address == .token("fcm-explicit") }?.deviceAttributes == nil)
            let plain = f.results.all.map(\.outcome).filter { $0.eventID == "plain" }
            #expect(plain.count == 2 && plain.allSatisfy { $0.deviceAttributes == nil })
            try await f.stop()
        }
    }

    /// `expire_after: 2s` and a clock that moves only when the test says: the
    /// device last registered 10 s before is retired with one result, the
    /// one registered again (by a command, at the service's now) is kept.
    @Test(arguments: Backend.allCases)
    func aDeviceNotSeenIsRetiredOnceAndOneSeenIsKept(backend: Backend) async throws {
        let clock = TestClock()
        let stale = DeviceKey(app: "chat", provider: .apns, address: .token(Self.apns1))
        let kept = DeviceKey(app: "chat", provider: .fcm, address: .token("fcm-kept"))
        try await TestDatabase.with(backend) { database in
            let f = try await RegistryServiceFixture(database, registry: ["expire_after: 2s"], clock: clock.read) {
                store in
                _ = try await store.register(
                    stale, channels: ["user:42", "room:1"], environment: nil, topic: nil,
                    at: clock.start + .seconds(-10))
                _ = try await store.register(
                    kept, channels: ["user:42"], environment: nil, topic: nil, at: clock.start + .seconds(-1))
            }
            // Registered again now: its last_seen is the service's now.
            try await f.commands.publish(
                #"{"id": "again", "app": "chat", "provider": "fcm", "token": "fcm-kept", "channels": ["user:42"]}"#,
                routingKey: "register")
            #expect(await f.results.waitForRegistryResults { $0.contains { $0.result["command_id"] == "again" } })
            // 1.5 s on: the first registration of `kept` would be stale now, its second is not.
            clock.advance(by: .milliseconds(1500))
            #expect(
                await f.results.waitForRegistryResults { $0.contains { $0.routingKey.hasPrefix("registry_expired") } })
            let expired = f.results.registryResults.filter { $0.routingKey.hasPrefix("registry_expired") }
            #expect(expired.map(\.routingKey) == ["registry_expired.apns.chat"])
            let result = try #require(expired.first?.result)
            #expect(result["token"] == .string(Self.apns1))
            #expect(result["channels"] == ["room:1", "user:42"])
            #expect(result["removed"] == 2)
            #expect(result["last_seen"] == .string((clock.start + .seconds(-10)).rfc3339(fractionDigits: 3)))
            #expect(result["command"] == nil)

            // Two more runs of the chore, then a command: its result comes after
            // anything those runs published (one connection, one queue).
            let runs = Self.retireRuns(f.running)
            #expect(await eventually(timeout: .seconds(30)) { Self.retireRuns(f.running) >= runs + 2 })
            try await f.commands.publish(
                #"{"id": "marker", "app": "chat", "provider": "fcm", "token": "fcm-kept", "channels": ["room:9"]}"#,
                routingKey: "register")
            #expect(await f.results.waitForRegistryResults { $0.contains { $0.result["command_id"] == "marker" } })
            #expect(f.results.registryResults.filter { $0.routingKey.hasPrefix("registry_expired") }.count == 1)
            #expect(try await f.store.device(stale) == nil)
            #expect(try await f.store.channels(of: kept) == ["room:9", "user:42"])
            #expect(try await f.store.count(app: "chat", channel: "user:42") == 1)
            try await f.stop()
        }
    }

    /// `herald_registry_operations_total{operation="retire",result="ok"}`: the chore's batches so far.
    static func retireRuns(_ running: RunningService) -> Int {
        let prefix = #"herald_registry_operations_total{operation="retire",result="ok"} "#
        let line = running.service.metrics.registry.render().split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { Int(Double($0.dropFirst(prefix.count)) ?? 0) } ?? 0
    }
}
