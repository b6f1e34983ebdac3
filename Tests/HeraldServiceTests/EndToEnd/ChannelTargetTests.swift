import Foundation
import HeraldCore
import HeraldRegistry
import HeraldTestSupport
import Testing

/// Channel targets through the running service: expanded through a real
/// registry (an SQLite file, or a PostgreSQL schema of the test's own, that
/// the test writes to beside Herald), delivered to the simulator, one
/// outcome per device with the channel echoed.
@Suite(.serialized) struct ChannelTargetTests {
    static let apns1 = String(repeating: "a1", count: 32)
    static let apns2 = String(repeating: "b2", count: 32)
    static let dead = String(repeating: "dd", count: 32)

    /// A service with a registry, the store the test registers devices in, and the results.
    struct Fixture {
        let simulator: SimulatorHarness
        let config: ServiceConfig
        let store: any RegistryStore
        let results: ResultsCollector
        let running: RunningService
        let publisher: TestPublisher

        init(
            _ database: TestDatabase, deadAPNsTokens: [String] = [], sandboxAPNsTokens: [String] = [],
            sandboxHost: Bool = false,
            providerTimeout: String = "5s"
        ) async throws {
            simulator = try await SimulatorHarness(
                deadAPNsTokens: deadAPNsTokens, sandboxAPNsTokens: sandboxAPNsTokens, sandboxHost: sandboxHost)
            config = try ServiceConfig(
                simulator: simulator, providerTimeout: providerTimeout, topLevelExtra: database.configSection(),
                chatAllowedTopics: ["com.example.chat.beta"])
            store = try database.makeStore()
            _ = try await store.migrate()
            results = try await ResultsCollector(prefix: config.prefix)
            running = RunningService(try config.load())
            publisher = TestPublisher(connection: results.connection, exchange: "\(config.prefix).events")
        }

        func register(_ provider: Provider, _ token: String, on channels: [String]) async throws {
            _ = try await store.register(
                DeviceKey(app: "chat", provider: provider, address: .token(token)), channels: channels,
                environment: nil, topic: nil, at: Timestamp.now())
        }

        func stop() async throws {
            try await running.stop()
            store.close()
            await results.close(deleting: config.queues)
            simulator.stop()
        }
    }

    @Test(arguments: Backend.allCases)
    func aChannelEventReachesEveryRegisteredDeviceOnceAndSparesTheSender(backend: Backend) async throws {
        try await TestDatabase.with(backend) { try await Self.reachesEveryDeviceOnce(Fixture($0)) }
    }

    static func reachesEveryDeviceOnce(_ f: Fixture) async throws {
        try await f.register(.apns, ChannelTargetTests.apns1, on: ["user:42"])
        try await f.register(.apns, ChannelTargetTests.apns2, on: ["user:42", "room:general"])
        try await f.register(.fcm, "fcm-1", on: ["user:42"])
        #expect(await f.running.waitUntilConsuming())

        try await f.publisher.publish(
            #"""
            {"id": "c1", "app": "chat", "targets": [{"channel": "user:42"}], "notification": {"title": "hi"}}
            """#)
        #expect(await f.results.wait { $0.count == 3 })
        #expect(f.results.all.allSatisfy { $0.outcome.status == .delivered && $0.outcome.channel == "user:42" })
        #expect(
            Set(f.results.all.compactMap { $0.outcome.address?.value }) == [
                ChannelTargetTests.apns1, ChannelTargetTests.apns2, "fcm-1",
            ])

        // The sender excluded; a device on two channels of one event notified once.
        try await f.publisher.publish(
            #"""
            {"id": "c2", "app": "chat", "exclude_tokens": ["fcm-1"], "targets": [{"channel": "user:42"}, {"channel": "room:general"}],
             "notification": {"title": "hi"}}
            """#)
        #expect(await f.results.wait { $0.filter { $0.outcome.eventID == "c2" }.count == 3 })
        let second = f.results.all.map(\.outcome).filter { $0.eventID == "c2" }
        #expect(second.filter { $0.status == .delivered }.count == 2)
        #expect(second.filter { $0.status == .dropped }.map(\.address) == [.token("fcm-1")])
        #expect(f.simulator.recorder.notifications.count == 5)
        try await f.stop()
    }

    @Test(arguments: Backend.allCases)
    func aDeadTokenIsUnregisteredAndTheNextChannelEventSkipsIt(backend: Backend) async throws {
        try await TestDatabase.with(backend) {
            try await Self.unregistersTheDeadToken(Fixture($0, deadAPNsTokens: [ChannelTargetTests.dead]))
        }
    }

    static func unregistersTheDeadToken(_ f: Fixture) async throws {
        try await f.register(.apns, ChannelTargetTests.apns1, on: ["user:7"])
        try await f.register(.apns, ChannelTargetTests.dead, on: ["user:7", "room:other"])
        #expect(await f.running.waitUntilConsuming())

        try await f.publisher.publish(
            #"{"id": "d1", "app": "chat", "targets": [{"channel": "user:7"}], "notification": {"title": "hi"}}"#)
        #expect(await f.results.wait { $0.count == 2 })
        let dead = try #require(f.results.all.first { $0.outcome.status == .invalidToken }?.outcome)
        #expect(dead.address == .token(ChannelTargetTests.dead) && dead.unregistered && dead.channel == "user:7")
        #expect(
            try await f.store.channels(
                of: DeviceKey(app: "chat", provider: .apns, address: .token(ChannelTargetTests.dead))
            ).isEmpty,
            "removed from every channel of its app")

        try await f.publisher.publish(
            #"{"id": "d2", "app": "chat", "targets": [{"channel": "user:7"}], "notification": {"title": "hi"}}"#)
        #expect(await f.results.wait { $0.count == 3 })
        #expect(f.results.all.last?.outcome.address == .token(ChannelTargetTests.apns1))
        #expect(
            f.running.service.metrics.registry.render().contains(
                #"herald_registry_prunes_total{provider="apns",app="chat"} 1"#))
        try await f.stop()
    }

    static let sandboxToken = String(repeating: "5e", count: 32)

    @Test func aRegistrationsTopicIsUsedAndASandboxDeviceIsSentToTheSandbox() async throws {
        try await TestDatabase.with(.sqlite) {
            try await Self.usesTheRegistrationsOverrides(
                Fixture($0, sandboxAPNsTokens: [Self.sandboxToken], sandboxHost: true))
        }
    }

    static func usesTheRegistrationsOverrides(_ f: Fixture) async throws {
        let sandbox = try #require(f.simulator.sandbox)
        _ = try await f.store.register(
            DeviceKey(app: "chat", provider: .apns, address: .token(ChannelTargetTests.apns1)), channels: ["user:9"],
            environment: nil, topic: "com.example.chat.beta", at: Timestamp.now())
        _ = try await f.store.register(
            DeviceKey(app: "chat", provider: .apns, address: .token(Self.sandboxToken)), channels: ["user:9"],
            environment: "sandbox", topic: nil, at: Timestamp.now())
        #expect(await f.running.waitUntilConsuming())
        try await f.publisher.publish(
            #"{"id": "o1", "app": "chat", "targets": [{"channel": "user:9"}], "notification": {"title": "hi"}}"#)
        #expect(await f.results.wait { $0.count == 2 })
        #expect(f.results.all.allSatisfy { $0.outcome.status == .delivered }, "\(f.results.all.map(\.outcome))")
        #expect(f.simulator.recorder.notifications.map { $0.headers["apns-topic"] } == ["com.example.chat.beta"])
        #expect(
            sandbox.recorder.notifications.map { $0.headers["apns-topic"] } == ["com.example.chat"],
            "the sandbox device, at the sandbox host")

        // A publisher may say so of an explicit token too.
        try await f.publisher.publish(
            #"""
            {"id": "o2", "app": "chat", "targets": [{"provider": "apns", "token": "\#(Self.sandboxToken)", "environment": "sandbox"}],
             "notification": {"title": "hi"}}
            """#)
        #expect(await f.results.wait { $0.count == 3 })
        #expect(f.results.all.last?.outcome.status == .delivered && sandbox.recorder.notifications.count == 2)
        try await f.stop()
    }

    /// A registration whose topic is not one of the app's (written before
    /// `allowed_topics` was narrowed, or straight into the database) is that
    /// device's `failed` outcome: Herald never signs for another bundle ID.
    @Test func aRegistrationsTopicOutsideTheAppsTopicsIsNotSent() async throws {
        try await TestDatabase.with(.sqlite) { database in
            let f = try await Fixture(database)
            _ = try await f.store.register(
                DeviceKey(app: "chat", provider: .apns, address: .token(ChannelTargetTests.apns1)),
                channels: ["user:5"],
                environment: nil, topic: "com.example.bank", at: Timestamp.now())
            #expect(await f.running.waitUntilConsuming())
            try await f.publisher.publish(
                #"{"id": "t1", "app": "chat", "targets": [{"channel": "user:5"}], "notification": {"title": "hi"}}"#)
            #expect(await f.results.wait { $0.count == 1 })
            let outcome = try #require(f.results.all.first?.outcome)
            #expect(outcome.status == .failed && !outcome.unregistered)
            #expect(
                outcome.reason
                    == #"TopicNotAllowed: apns-topic "com.example.bank" from the device's topic (apns_topic or its registration's topic) "#
                    + "is not one of the app's allowed topics (apns.topic and apns.allowed_topics, each with its push-type suffixes)"
            )
            #expect(f.simulator.recorder.notifications.isEmpty)
            try await f.stop()
        }
    }

    @Test func aSandboxDeviceOfAnAppWithoutASandboxEndpointFailsWithoutBeingSent() async throws {
        try await TestDatabase.with(.sqlite) { f in
            let f = try await Fixture(f)
            _ = try await f.store.register(
                DeviceKey(app: "chat", provider: .apns, address: .token(Self.sandboxToken)), channels: ["user:9"],
                environment: "sandbox", topic: nil, at: Timestamp.now())
            #expect(await f.running.waitUntilConsuming())
            try await f.publisher.publish(
                #"{"id": "o3", "app": "chat", "targets": [{"channel": "user:9"}], "notification": {"title": "hi"}}"#)
            #expect(await f.results.wait { $0.count == 1 })
            let outcome = try #require(f.results.all.first?.outcome)
            #expect(outcome.status == .failed && !outcome.unregistered)
            #expect(
                outcome.reason
                    == "app 'chat' has no endpoint for APNs sandbox devices: apps.chat.apns.endpoint replaces Apple's production host only; set apps.chat.apns.endpoints.sandbox"
            )
            #expect(f.simulator.recorder.notifications.isEmpty)
            try await f.stop()
        }
    }

    @Test(arguments: Backend.allCases)
    func aChannelLargerThanAPageIsDeliveredToEachDeviceOnce(backend: Backend) async throws {
        // A page is a thousand requests at once: on a loaded machine the last of them waits for
        // a stream longer than 5 s, times out (a `retrying` outcome) and may still reach the
        // simulator, which would then see that device twice. The timeout is a bound only a
        // simulator that never answers reaches.
        try await TestDatabase.with(backend) { try await Self.deliversPageByPage(Fixture($0, providerTimeout: "120s")) }
    }

    static func deliversPageByPage(_ f: Fixture) async throws {
        // Two pages of the expander's 1000: the second one short.
        let count = 1000 + 100
        for i in 0..<count { try await f.register(.fcm, "fcm-\(i)", on: ["room:big"]) }
        #expect(await f.running.waitUntilConsuming())
        try await f.publisher.publish(
            #"{"id": "big", "app": "chat", "targets": [{"channel": "room:big"}], "data": {"k": "v"}}"#)
        // A bound for a ThreadSanitizer run on two shared cores, not an expected time.
        #expect(
            await f.results.wait(timeout: .seconds(300)) {
                Set($0.compactMap { $0.outcome.address?.value }).count >= count
            })
        #expect(await f.results.waitUntilSettled([f.running]))
        let tokens = f.results.all.compactMap { $0.outcome.address?.value }
        #expect(Set(tokens).count == count)
        #expect(f.results.all.allSatisfy { $0.outcome.status == .delivered })
        // Each device is notified once. An outcome can come twice only if the expansion stopped
        // (a registry page slower than its timeout on a starved machine) and the redelivered
        // event published again what was already done, without sending it again.
        let sent = f.simulator.recorder.notifications.map(\.target)
        #expect(sent.count == count && Set(sent).count == count, "\(sent.count) sent to \(Set(sent).count) devices")
        try await f.stop()
    }

    @Test func withoutARegistryAChannelTargetFailsAloneNamingTheChannel() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(simulator: simulator)
        let results = try await ResultsCollector(prefix: config.prefix)
        let running = RunningService(try config.load())
        #expect(await running.waitUntilConsuming())
        let publisher = TestPublisher(connection: results.connection, exchange: "\(config.prefix).events")

        try await publisher.publish(
            #"""
            {"id": "to-channel", "app": "chat", "targets": [{"channel": "user:42"}, {"provider": "fcm", "token": "t-1"}],
             "notification": {"title": "hi"}}
            """#)
        #expect(await results.wait { $0.count == 2 })
        let byStatus = Dictionary(grouping: results.all.map(\.outcome), by: \.status)
        #expect(byStatus[.delivered]?.first?.address == .token("t-1"))
        let failed = try #require(byStatus[.failed]?.first)
        #expect(failed.channel == "user:42")
        #expect(
            failed.reason == "no registry: channel targets need a registry: section in the config (docs/registry.md)")
        #expect(simulator.recorder.notifications.count == 1)
        try await running.stop()
        await results.close(deleting: config.queues)
    }
}
