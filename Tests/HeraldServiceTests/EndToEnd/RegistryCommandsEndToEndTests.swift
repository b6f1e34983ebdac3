import Foundation
import HeraldAMQP
import HeraldCore
import HeraldRegistry
import HeraldTestSupport
import Testing

/// Registry commands through the running service: published to the registry
/// exchange, applied to a real SQLite or PostgreSQL registry, one result per
/// command on the results exchange, refused commands dead-lettered once, and
/// nothing acked while the database is away.
@Suite(.serialized) struct RegistryCommandsEndToEndTests {
    static let apns1 = String(repeating: "a1", count: 32)
    static let apns2 = String(repeating: "b2", count: 32)
    static let apns3 = String(repeating: "c3", count: 32)

    /// A service with a registry on `location`, a store of the test's own on
    /// it, the results, and publishers of commands and events.
    struct Fixture {
        let simulator: SimulatorHarness
        let config: ServiceConfig
        let store: any RegistryStore
        let results: ResultsCollector
        let running: [RunningService]
        let commands: TestPublisher
        let events: TestPublisher

        init(_ database: TestDatabase, instances: Int = 1, queueType: String = "classic") async throws {
            simulator = try await SimulatorHarness()
            let registry = database.configSection(database.backend == .postgres ? ["pool: 4"] : [])
            // A channel page is a thousand requests at once: on a loaded machine
            // (ThreadSanitizer beside the cluster suites) 5 s is not enough for all.
            let first = try ServiceConfig(
                simulator: simulator, queueType: queueType, providerTimeout: "30s", topLevelExtra: registry)
            config = first
            store = try database.makeStore()
            results = try await ResultsCollector(prefix: first.prefix)
            var running = [RunningService(try first.load())]
            for _ in 1..<max(1, instances) {
                let other = try ServiceConfig(
                    simulator: simulator, queueType: queueType, sharing: first, providerTimeout: "30s",
                    topLevelExtra: registry)
                running.append(RunningService(try other.load()))
            }
            self.running = running
            commands = TestPublisher(connection: results.connection, exchange: "\(first.prefix).registry")
            events = TestPublisher(connection: results.connection, exchange: "\(first.prefix).events")
            for service in running { #expect(await service.waitUntilConsuming()) }
        }

        func command(_ routingKey: String, _ body: String, id: String? = nil) async throws {
            try await commands.publish(body, routingKey: routingKey, messageID: id)
        }

        /// Stops every instance even when one stops with an error (a drain past
        /// its deadline on a loaded machine): a Herald left running would go on
        /// retrying after the test, and keep the test process from exiting.
        func stop() async throws {
            var failure: (any Error)?
            for service in running {
                do { try await service.stop() } catch { failure = failure ?? error }
            }
            store.close()
            await results.close(deleting: config.queues)
            simulator.stop()
            if let failure { throw failure }
        }
    }

    static func device(_ provider: Provider, _ token: String) -> DeviceKey {
        DeviceKey(app: "chat", provider: provider, address: .token(token))
    }

    @Test func devicesRegisteredByCommandsReceiveAChannelEvent() async throws {
        try await TestDatabase.with(.sqlite) { database in
            let f = try await Fixture(database)
            try await f.command(
                "register",
                #"{"id": "r1", "app": "chat", "provider": "apns", "token": "\#(Self.apns1)", "channels": ["user:42"]}"#)
            try await f.command(
                "register",
                #"{"app": "chat", "provider": "ios", "token": "\#(Self.apns2)", "channels": ["user:42", "room:1"]}"#,
                id: "r2")
            try await f.command(
                "register",
                #"{"id": "r3", "app": "chat", "provider": "fcm", "token": "fcm-1", "channels": ["user:42"]}"#)
            #expect(await f.results.waitForRegistryResults { $0.count == 3 })
            let results = f.results.registryResults
            #expect(
                results.map(\.routingKey).sorted() == [
                    "registered.apns.chat", "registered.apns.chat", "registered.fcm.chat",
                ])
            #expect(
                results.compactMap(\.messageID).sorted() == ["r1", "r2", "r3"],
                "the result's message-id is the command id")
            let second = try #require(results.first { $0.result["command_id"] == "r2" }?.result)
            #expect(second["channels"] == ["user:42": "created", "room:1": "created"])
            #expect(
                second["change"] == "created" && second["token"] == .string(Self.apns2) && second["provider"] == "apns")
            #expect(try await f.store.count(app: "chat", channel: "user:42") == 3)
            #expect(try await f.store.channels(of: Self.device(.apns, Self.apns2)) == ["room:1", "user:42"])

            // Idempotent: the same command again changes nothing, and says so.
            try await f.command(
                "register",
                #"{"id": "r1", "app": "chat", "provider": "apns", "token": "\#(Self.apns1)", "channels": ["user:42"]}"#)
            #expect(await f.results.waitForRegistryResults { $0.count == 4 })
            #expect(f.results.registryResults.last?.result["channels"] == ["user:42": "unchanged"])

            try await f.events.publish(
                #"{"id": "e1", "app": "chat", "targets": [{"channel": "user:42"}], "notification": {"title": "hi"}}"#)
            #expect(await f.results.wait { $0.count == 3 })
            #expect(f.results.all.allSatisfy { $0.outcome.status == .delivered && $0.outcome.channel == "user:42" })
            #expect(Set(f.results.all.compactMap { $0.outcome.address?.value }) == [Self.apns1, Self.apns2, "fcm-1"])
            #expect(
                f.running[0].service.metrics.registry.render().contains(
                    #"herald_registry_commands_total{command="register",result="registered"} 4"#))
            try await f.stop()
        }
    }

    /// replace_token moves every membership: later channel events reach the new token only.
    @Test(arguments: Backend.allCases) func replaceTokenMovesEveryMembership(_ backend: Backend) async throws {
        try await TestDatabase.with(backend) { database in
            let f = try await Fixture(database)
            try await f.command(
                "register",
                #"{"app": "chat", "provider": "apns", "token": "\#(Self.apns1)", "channels": ["user:7", "room:a"], "environment": "production"}"#
            )
            #expect(await f.results.waitForRegistryResults { $0.count == 1 })
            try await f.command(
                "replace_token",
                #"{"id": "swap", "app": "chat", "provider": "apns", "token": "\#(Self.apns1)", "new_token": "\#(Self.apns3)"}"#
            )
            #expect(await f.results.waitForRegistryResults { $0.count == 2 })
            let replaced = try #require(f.results.registryResults.last)
            #expect(replaced.routingKey == "replaced.apns.chat")
            #expect(replaced.result["change"] == "updated" && replaced.result["new_token"] == .string(Self.apns3))
            #expect(try await f.store.channels(of: Self.device(.apns, Self.apns1)).isEmpty)
            #expect(try await f.store.channels(of: Self.device(.apns, Self.apns3)) == ["room:a", "user:7"])
            let moved = try await f.store.devices(app: "chat", channel: "room:a", providers: nil, after: nil, limit: 10)
            #expect(
                moved.registrations.map(\.environment) == ["production"], "the overrides moved with the memberships")

            try await f.events.publish(
                #"{"id": "e2", "app": "chat", "targets": [{"channel": "user:7"}, {"channel": "room:a"}], "notification": {"title": "hi"}}"#
            )
            #expect(await f.results.wait { $0.count == 1 })
            #expect(await f.results.waitUntilSettled(f.running))
            #expect(f.results.all.map { $0.outcome.address } == [.token(Self.apns3)], "one device, reached once")
            #expect(f.results.all.map { $0.outcome.status } == [.delivered])
            #expect(f.simulator.recorder.notifications.map(\.target) == [Self.apns3])
            try await f.stop()
        }
    }

    /// Every kind of bad command: a `registry_rejected` result naming the
    /// field, and exactly one dead letter with the reason; good commands around them pass.
    @Test func malformedCommandsAreRejectedAndDeadLetteredOnce() async throws {
        try await TestDatabase.with(.sqlite) { database in
            let f = try await Fixture(database, queueType: "quorum")
            try await f.results.watchDeadLetters(queue: "\(f.config.prefix).dead")
            let tooMany = (0...1000).map { "\"c\($0)\"" }.joined(separator: ",")
            let bad: [(key: String, body: String, reason: String)] = [
                ("register", "not json", "body: invalid literal at byte 0 (line 1, column 1): expected null"),
                (
                    "register", #"{"app": "chat", "provider": "fcm", "token": 42, "channels": ["a"]}"#,
                    "token: expected a string, found 42"
                ),
                (
                    "register", #"{"app": "chta", "provider": "fcm", "token": "t", "channels": ["a"]}"#,
                    #"app: unknown app "chta" (did you mean "chat"?; apps: chat)"#
                ),
                (
                    "register", #"{"app": "chat", "provider": "hms", "token": "t", "channels": ["a"]}"#,
                    #"provider: unknown provider "hms" (expected apns, fcm, webpush, ios or android)"#
                ),
                (
                    "register", #"{"app": "chat", "provider": "fcm", "condition": "'a' in topics", "channels": ["a"]}"#,
                    "condition: a condition is not a device; register a device token or FID"
                ),
                (
                    "unregister", #"{"app": "chat", "provider": "fcm", "token": "t", "channels": ["ok", "bad\u0001"]}"#,
                    "channels[1]: channel has a control character (U+0001) at byte 3; control characters are not allowed"
                ),
                (
                    "register", #"{"app": "chat", "provider": "fcm", "token": "t", "channels": [\#(tooMany)]}"#,
                    "channels: 1001 channels given; a device may be on at most 1000 (RegistryLimits.maxChannelsPerDevice)"
                ),
            ]
            for (index, command) in bad.enumerated() {
                try await f.command(command.key, command.body, id: "bad-\(index)")
            }
            // A routing key no command has: sent to the queue by name through the default exchange.
            try await f.results.connection.publish(
                exchange: "", routingKey: "\(f.config.prefix).registry",
                body: Array(#"{"app": "chat"}"#.utf8), mandatory: true, messageID: "bad-key")
            try await f.command("unregister_device", #"{"id": "good", "app": "chat", "provider": "fcm", "token": "t"}"#)
            let expected = bad.count + 2
            #expect(await f.results.waitForRegistryResults { $0.count == expected })
            #expect(await f.results.wait(until: { _ in f.results.dead.count >= bad.count + 1 }))
            #expect(await f.results.waitUntilSettled(f.running))

            let results = f.results.registryResults
            #expect(results.count == expected)
            for (index, command) in bad.enumerated() {
                let result = try #require(results.first { $0.messageID == "bad-\(index)" }, "bad-\(index)")
                #expect(result.result["result"] == "registry_rejected")
                #expect(result.result["reason"] == .string(command.reason), "bad-\(index)")
                #expect(result.result["command_id"] == .string("bad-\(index)"))
            }
            let byKey = try #require(results.first { $0.messageID == "bad-key" })
            #expect(byKey.routingKey == "registry_rejected.unknown.chat")
            #expect(
                byKey.result["reason"]
                    == .string(
                        "routing_key: unknown command \"\(f.config.prefix).registry\" (expected register, unregister, unregister_device or replace_token)"
                    ))
            #expect(results.first { $0.messageID == "unknown" } == nil)
            let unknownApp = try #require(results.first { $0.messageID == "bad-2" })
            #expect(unknownApp.routingKey == "registry_rejected.fcm.chta")
            #expect(results.first { $0.messageID == "good" }?.routingKey == "unregistered.fcm.chat")

            let dead = f.results.dead
            #expect(dead.count == bad.count + 1, "each refused command dead-lettered once")
            #expect(Set(dead.compactMap(\.messageID)) == Set((0..<bad.count).map { "bad-\($0)" } + ["bad-key"]))
            let parked = try #require(dead.first { $0.messageID == "bad-0" })
            #expect(parked.body == Array("not json".utf8))
            #expect(
                parked.headers[HeraldHeader.error]
                    == .string(
                        "registry command refused: body: invalid literal at byte 0 (line 1, column 1): expected null"))
            #expect(try await f.results.connection.messageCount(queue: "\(f.config.prefix).registry") == 0)
            #expect(try await f.store.count(app: "chat", channel: nil) == 0)
            try await f.stop()
        }
    }

    /// Two instances on one queue and one PostgreSQL registry register 1000
    /// devices at once; a channel event then reaches each exactly once.
    ///
    /// Under ThreadSanitizer 250: the channel event's page is then 250 FCM
    /// requests at once instead of 1000, which instrumented Herald, simulator
    /// and client in one process answer well within the provider timeout (a
    /// thousand took longer than it round after round). Two instances taking
    /// commands from one queue at once, and each device reached once, are
    /// the same at either count.
    @Test func twoInstancesRegisterAThousandDevicesAtOnce() async throws {
        try await TestDatabase.with(.postgres) { database in
            let f = try await Fixture(database, instances: 2, queueType: "quorum")
            let count = ThreadSanitizer.isActive ? 250 : 1000
            let exchange = "\(f.config.prefix).registry"
            try await withThrowingTaskGroup(of: Void.self) { group in
                for part in 0..<4 {
                    group.addTask {
                        let messages = stride(from: part, to: count, by: 4).map { i in
                            AMQPMessage(
                                exchange: exchange, routingKey: "register",
                                body: Array(
                                    #"{"id": "d\#(i)", "app": "chat", "provider": "fcm", "token": "fcm-\#(i)", "channels": ["room:big", "user:\#(i)"]}"#
                                        .utf8),
                                properties: AMQPProperties(contentType: "application/json", persistent: true))
                        }
                        try await f.results.connection.publish(messages, mandatory: true)
                    }
                }
                try await group.waitForAll()
            }
            #expect(await f.results.waitForRegistryResults(timeout: .seconds(90)) { $0.count >= count })
            let results = f.results.registryResults
            #expect(results.count == count)
            #expect(Set(results.compactMap { $0.result["command_id"]?.stringValue }).count == count)
            #expect(results.allSatisfy { $0.routingKey == "registered.fcm.chat" && $0.result["change"] == "created" })
            #expect(try await f.store.count(app: "chat", channel: "room:big") == count)
            #expect(try await f.store.count(app: "chat", channel: nil) == 2 * count)
            let applied = f.running.map { running in
                running.service.metrics.registry.render().split(separator: "\n")
                    .first { $0.hasPrefix(#"herald_registry_commands_total{command="register",result="registered"}"#) }
                    .flatMap { $0.split(separator: " ").last.flatMap { Int($0) } } ?? 0
            }
            #expect(applied.reduce(0, +) == count)
            #expect(applied.allSatisfy { $0 > 0 }, "both instances applied commands: \(applied)")

            try await f.events.publish(
                #"{"id": "all", "app": "chat", "targets": [{"channel": "room:big"}], "data": {"k": "v"}}"#)
            // Each device delivered once. On a loaded machine (ThreadSanitizer) a
            // request may time out first and be retried: its `retrying` outcome
            // comes before the `delivered` one.
            #expect(
                await f.results.wait(timeout: .seconds(180)) {
                    $0.filter { $0.outcome.status == .delivered }.count >= count
                })
            #expect(await f.results.waitUntilSettled(f.running))
            let delivered = f.results.all.filter { $0.outcome.status == .delivered }.compactMap {
                $0.outcome.address?.value
            }
            #expect(delivered.count == count)
            #expect(Set(delivered) == Set((0..<count).map { "fcm-\($0)" }))
            let others = f.results.all.filter { $0.outcome.status != .delivered }
            #expect(
                others.allSatisfy { $0.outcome.status == .retrying },
                "\(others.map { "\($0.outcome.status): \($0.outcome.reason ?? "")" })")
            try await f.stop()
        }
    }
}

/// A registry command is not acked while PostgreSQL is down: it waits in
/// its queue and is applied once the server is back, its result published
/// then; nothing is lost. The test stops a server of its own (port 5435,
/// .build/postgres-registry-outage), so the shared server and other tests are
/// untouched; it is restarted if the test fails midway, and stopped at the end.
@Suite(.serialized) struct RegistryCommandsOutageTests {
    static let server = TestServer(environment: [
        "HERALD_POSTGRES_DIR": ".build/postgres-registry-outage", "HERALD_POSTGRES_PORT": "5435",
    ])

    /// Messages in `queue`, ready and unacked, as the broker counts them (`scripts/rabbitmq ctl`).
    static func messages(in queue: String) async throws -> Int? {
        let listed = try await ScriptRunner.run(
            ScriptRunner.rabbitmqScript, ["ctl", "-q", "list_queues", "name", "messages"])
        return listed.split(separator: "\n").lazy.map { $0.split(separator: "\t") }
            .first { $0.first.map(String.init) == queue }.flatMap { $0.last.flatMap { Int($0) } }
    }

    @Test func commandsWaitForPostgresAndNoneIsLost() async throws {
        let server = Self.server
        try await server.start()
        do {
            try await TestDatabase.with(.postgres, server: server) { database in
                let f = try await RegistryCommandsEndToEndTests.Fixture(database, queueType: "quorum")
                try await f.command(
                    "register",
                    #"{"id": "before", "app": "chat", "provider": "fcm", "token": "fcm-0", "channels": ["c"]}"#)
                #expect(await f.results.waitForRegistryResults { $0.count == 1 })

                try await server.stop()
                for i in 1...5 {
                    try await f.command(
                        "register",
                        #"{"id": "during-\#(i)", "app": "chat", "provider": "fcm", "token": "fcm-\#(i)", "channels": ["c"]}"#
                    )
                }
                // Herald has taken a command and found the registry away: until the server is
                // back, nothing it does can publish a result.
                #expect(
                    await eventually(timeout: .seconds(60)) {
                        f.running[0].logs.lines.contains {
                            $0.contains("registry command not settled: the registry cannot take it")
                        }
                    })
                #expect(f.results.registryResults.count == 1, "no result while the database is down")
                #expect(f.results.dead.isEmpty)
                let queue = "\(f.config.prefix).registry"
                // A quorum queue's count is refreshed on the broker's tick (5 s): polled, the outage lasts meanwhile.
                var waiting: Int?
                _ = try await eventually(timeout: .seconds(60)) {
                    waiting = try await Self.messages(in: queue)
                    return waiting == 5
                }
                #expect(
                    waiting == 5,
                    "the commands are still in their queue (ready or unacked): \(String(describing: waiting))")
                #expect(f.results.registryResults.count == 1, "still no result")
                #expect(
                    f.running[0].logs.lines.contains {
                        $0.contains("registry command not settled: the registry cannot take it")
                    })
                #expect(
                    f.running[0].service.metrics.registry.render().contains(
                        #"herald_registry_operations_total{operation="register",result="error"}"#))

                try await server.start()
                #expect(await f.results.waitForRegistryResults(timeout: .seconds(30)) { $0.count == 6 })
                let ids = f.results.registryResults.compactMap { $0.result["command_id"]?.stringValue }
                #expect(Set(ids) == Set(["before"] + (1...5).map { "during-\($0)" }))
                #expect(f.results.registryResults.allSatisfy { $0.routingKey == "registered.fcm.chat" })
                #expect(try await f.store.count(app: "chat", channel: "c") == 6)
                #expect(try await f.results.connection.messageCount(queue: queue) == 0)
                try await f.stop()
            }
        } catch {
            try? await server.start()
            try? await server.stop()
            throw error
        }
        try await server.stop()
    }
}
