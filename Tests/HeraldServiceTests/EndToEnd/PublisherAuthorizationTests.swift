import Foundation
import HeraldAMQP
import HeraldCLI
import HeraldCore
import HeraldRegistry
import HeraldTestSupport
import Testing

/// Who may send for an app, checked by Herald against the AMQP `user-id`
/// the broker verified (docs/security.md, "Who may publish what"), with real
/// RabbitMQ users of the test's own; and the registry's own limits on what
/// an allowed sender can store.
@Suite(.serialized) struct PublisherAuthorizationTests {
    /// A RabbitMQ user made for one test (`rabbitmqctl add_user`), with every
    /// permission on the default vhost; ``delete()`` removes it.
    struct BrokerUser {
        let name: String
        let password = "pw-\(UInt32.random(in: 0...UInt32.max))"

        init(_ role: String) async throws {
            name = "herald-test-\(role)-\(UInt32.random(in: 0...UInt32.max))"
            try await ScriptRunner.run(ScriptRunner.rabbitmqScript, ["ctl", "-q", "add_user", name, password])
            try await ScriptRunner.run(
                ScriptRunner.rabbitmqScript, ["ctl", "-q", "set_permissions", "-p", "/", name, ".*", ".*", ".*"])
        }

        func delete() async {
            _ = try? await ScriptRunner.run(ScriptRunner.rabbitmqScript, ["ctl", "-q", "delete_user", name])
        }

        /// A running connection authenticated as this user.
        func connect() async throws -> AMQPConnection {
            let connection = try AMQPConnection(
                configuration: try AMQPConfiguration(url: "amqp://\(name):\(password)@127.0.0.1:5672/%2f"),
                logger: Logger(label: "test-\(name)", level: .critical))
            Task { try? await connection.run() }
            try await connection.waitUntilConnected()
            return connection
        }
    }

    static func publish(
        _ body: String, on connection: AMQPConnection, exchange: String, routingKey: String, userID: String?
    ) async throws {
        var properties = AMQPProperties(contentType: "application/json", persistent: true)
        properties.userID = userID
        try await connection.publish(
            AMQPMessage(exchange: exchange, routingKey: routingKey, body: Array(body.utf8), properties: properties),
            mandatory: true)
    }

    /// What Herald relies on: RabbitMQ refuses a message whose `user-id` is
    /// not the user its connection authenticated as.
    @Test func theBrokerRefusesAUserIDOtherThanTheConnectionsUser() async throws {
        let user = try await BrokerUser("forger")
        let connection = try await user.connect()
        let queue = "test-userid-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try await connection.declareQueue(queue, lifetime: .exclusive)
            try await Self.publish("{}", on: connection, exchange: "", routingKey: queue, userID: user.name)
            await #expect(throws: (any Error).self, "a forged user-id is refused by the broker") {
                try await Self.publish("{}", on: connection, exchange: "", routingKey: queue, userID: "guest")
            }
        }
        connection.shutdown()
        await user.delete()
    }

    @Test func registryCommandsComeFromTheAppsRegistryPublishersAndStayWithinItsLimits() async throws {
        let accounts = try await BrokerUser("accounts")
        let mallory = try await BrokerUser("mallory")
        try await TestDatabase.with(.sqlite) { database in
            let simulator = try await SimulatorHarness()
            defer { simulator.stop() }
            let config = try ServiceConfig(
                simulator: simulator, extraAppsYAML: "    publishers: {events: [nobody], registry: [\(accounts.name)]}",
                topLevelExtra: database.configSection(["max_registrations_per_app: 3"]))
            let results = try await ResultsCollector(prefix: config.prefix)
            let running = RunningService(try config.load())
            #expect(await running.waitUntilConsuming())
            let store = try database.makeStore()
            let (good, bad) = (try await accounts.connect(), try await mallory.connect())
            let exchange = "\(config.prefix).registry"
            func command(_ body: String, on connection: AMQPConnection, as userID: String?) async throws {
                try await Self.publish(body, on: connection, exchange: exchange, routingKey: "register", userID: userID)
            }
            let token = String(repeating: "a1", count: 32)
            let device = #""app": "chat", "provider": "apns", "token": "\#(token)""#
            try await command(#"{"id": "m1", \#(device), "channels": ["user:42"]}"#, on: bad, as: mallory.name)
            try await command(#"{"id": "m2", \#(device), "channels": ["user:42"]}"#, on: bad, as: nil)
            try await command(#"{"id": "a0", \#(device), "channels": ["user:42"]}"#, on: good, as: nil)
            try await command(#"{"id": "a1", \#(device), "channels": ["user:42"]}"#, on: good, as: accounts.name)
            try await command(
                #"{"id": "a2", \#(device), "channels": ["user:42"], "topic": "com.example.bank"}"#, on: good,
                as: accounts.name)
            try await command(
                #"{"id": "a3", \#(device), "channels": ["user:42\u202e", "ok"]}"#, on: good, as: accounts.name)
            try await command(
                #"{"id": "a4", "app": "chat", "provider": "apns", "token": "\#(String(repeating: "ab", count: 2048))", "channels": ["x"]}"#,
                on: good, as: accounts.name)
            try await command(#"{"id": "a5", \#(device), "channels": ["cafe\u0301"]}"#, on: good, as: accounts.name)
            try await command(#"{"id": "a6", \#(device), "channels": ["a", "b"]}"#, on: good, as: accounts.name)
            #expect(await results.waitForRegistryResults { $0.count == 9 })
            let byID = Dictionary(results.registryResults.map { ($0.messageID ?? "", $0) }) { first, _ in first }
            func reason(_ id: String) -> String? { byID[id]?.result["reason"]?.stringValue }
            #expect(reason("m1") == #"user-id: "\#(mallory.name)" is not a registry publisher of app "chat""#)
            #expect(
                reason("m2")
                    == #"user-id: missing: app "chat" takes registry commands only from its registry publishers, and the message has no AMQP user-id property"#
            )
            #expect(reason("a0") == reason("m2"), "the app's own publisher's message without user-id is refused too")
            #expect(byID["a1"]?.routingKey == "registered.apns.chat")
            #expect(
                reason("a2")
                    == #"topic: "com.example.bank" is not one of the APNs topics app "chat" may use (its own topic and allowed topics, each with its push-type suffixes)"#
            )
            #expect(
                reason("a3")
                    == "channels[0]: channel has a format character (U+202E) at byte 7; format characters (bidi controls, zero-width) are not allowed"
            )
            #expect(
                reason("a4")
                    == "token: the device token is 4096 hex digits, over the limit of 400 for an APNs device token (200 bytes; today's tokens are 64)"
            )
            #expect(byID["a5"]?.routingKey == "registered.apns.chat")
            #expect(
                reason("a6")?.hasPrefix(
                    #"channels: app "chat" would hold more than 3 registrations with these 2, the most an app may hold"#
                ) == true,
                "\(String(describing: reason("a6")))")
            for id in ["m1", "m2", "a0", "a2", "a3", "a4", "a6"] {
                #expect(byID[id]?.routingKey.hasPrefix("registry_rejected.") == true, "\(id)")
            }
            // Applied: user:42, and the NFD name stored as its NFC spelling.
            let channels = try await store.channels(of: DeviceKey(app: "chat", provider: .apns, address: .token(token)))
            #expect(channels.map { Array($0.utf8) } == [Array("caf\u{E9}".utf8), Array("user:42".utf8)])
            #expect(try await store.count(app: "chat", channel: nil) == 2)
            good.shutdown()
            bad.shutdown()
            store.close()
            try await running.stop()
            await results.close(deleting: config.queues)
        }
        await accounts.delete()
        await mallory.delete()
    }

    @Test func eventsComeFromTheAppsEventsPublishersAndTheirRetriesStillArrive() async throws {
        let orders = try await BrokerUser("orders")
        let mallory = try await BrokerUser("mallory")
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(
            simulator: simulator, maxAttempts: 3, delays: "[200ms]",
            extraAppsYAML: "    publishers: {events: [\(orders.name)]}")
        let results = try await ResultsCollector(prefix: config.prefix)
        let running = RunningService(try config.load())
        #expect(await running.waitUntilConsuming())
        try await results.watchDeadLetters(queue: "\(config.prefix).dead")
        let (good, bad) = (try await orders.connect(), try await mallory.connect())
        let exchange = "\(config.prefix).events"
        func event(_ id: String, on connection: AMQPConnection, as userID: String?) async throws {
            try await Self.publish(
                #"{"id": "\#(id)", "app": "chat", "provider": "fcm", "token": "t-\#(id)", "data": {"k": "v"}}"#,
                on: connection, exchange: exchange, routingKey: "chat.message", userID: userID)
        }
        try await event("forged", on: bad, as: mallory.name)
        try await event("anonymous", on: bad, as: nil)
        #expect(await results.wait { $0.count == 2 })
        #expect(results.all.map(\.outcome.status) == [.rejected, .rejected])
        let reasons = Dictionary(results.all.map { ($0.outcome.eventID, $0.outcome.reason ?? "") }) { first, _ in first
        }
        #expect(
            reasons["forged"]
                == #"publisher "\#(mallory.name)" (AMQP user-id) is not an events publisher of app 'chat'"#)
        #expect(
            reasons["anonymous"]
                == "no AMQP user-id: app 'chat' takes events only from its publishers, and the message does not say who sent it"
        )
        // Herald dead-letters them as itself: the publisher's user-id would be refused from Herald's connection.
        #expect(await eventually(timeout: .seconds(20)) { results.dead.count == 2 })
        #expect(results.dead.allSatisfy { $0.properties.userID == "guest" })

        // An allowed publisher's event is retried by Herald (its retry carries Herald's user-id) and delivered.
        simulator.fcm.update {
            $0.unavailableRate = 1
            $0.retryAfter = nil
        }
        try await event("ordered", on: good, as: orders.name)
        #expect(
            await results.wait { $0.contains { $0.outcome.eventID == "ordered" && $0.outcome.status == .retrying } })
        simulator.fcm.update { $0.unavailableRate = 0 }
        #expect(
            await results.wait { $0.contains { $0.outcome.eventID == "ordered" && $0.outcome.status == .delivered } })
        #expect(results.all.filter { $0.outcome.eventID == "ordered" }.map(\.outcome.status).last == .delivered)
        #expect(simulator.recorder.notifications.map(\.target) == ["t-ordered"])
        good.shutdown()
        bad.shutdown()
        try await running.stop()
        await results.close(deleting: config.queues)
        await orders.delete()
        await mallory.delete()
    }

    /// Herald dead-letters a refused event as itself, recording its first
    /// publisher; the operator's routine `herald dead replay` (with Herald's
    /// own user, the config's) cannot turn it into Herald's event: the copy is
    /// refused again, naming the publisher who first sent it. A publisher
    /// that forges the record itself is not believed.
    @Test func aReplayedEventIsStillItsFirstPublishersAndIsRefusedAgain() async throws {
        let mallory = try await BrokerUser("mallory")
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(simulator: simulator, extraAppsYAML: "    publishers: {events: [nobody]}")
        let results = try await ResultsCollector(prefix: config.prefix)
        let running = RunningService(try config.load())
        #expect(await running.waitUntilConsuming())
        let bad = try await mallory.connect()
        // The publisher forges the record too: only a message whose user-id is Herald's is believed.
        var properties = AMQPProperties(
            contentType: "application/json", headers: [HeraldHeader.publisher: .string("nobody")],
            persistent: true)
        properties.userID = mallory.name
        let body = #"{"id": "laundered", "app": "chat", "provider": "fcm", "token": "t-1", "data": {"k": "v"}}"#
        try await bad.publish(
            AMQPMessage(
                exchange: "\(config.prefix).events", routingKey: "chat.message", body: Array(body.utf8),
                properties: properties), mandatory: true)
        let refusal = #"publisher "\#(mallory.name)" (AMQP user-id) is not an events publisher of app 'chat'"#
        #expect(await results.wait { $0.count == 1 })
        #expect(results.all.first?.outcome.reason == refusal)
        let dead = "\(config.prefix).dead"
        #expect(
            try await eventually(timeout: .seconds(20)) { try await results.connection.messageCount(queue: dead) == 1 })

        let console = CapturedConsole()
        let status = await HeraldCommandLine().run(
            ["dead", "replay", "--all", "--config", config.file], environment: [:], console: console)
        #expect(status == 0, "\(console.stdout)\n\(console.stderr)")
        #expect(await results.wait { $0.count == 2 }, "\(console.stdout)\n\(console.stderr)")
        #expect(results.all.map(\.outcome.status) == [.rejected, .rejected])
        #expect(results.all.last?.outcome.reason == refusal, "the replayed copy is still mallory's")
        #expect(
            try await eventually(timeout: .seconds(20)) { try await results.connection.messageCount(queue: dead) == 1 },
            "parked again")
        #expect(simulator.recorder.notifications.isEmpty)
        bad.shutdown()
        try await running.stop()
        await results.close(deleting: config.queues)
        await mallory.delete()
    }
}
