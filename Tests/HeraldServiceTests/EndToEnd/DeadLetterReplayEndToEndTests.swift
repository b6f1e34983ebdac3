import HeraldAMQP
import HeraldCLI
import HeraldCore
import HeraldRegistry
import HeraldTestSupport
import Testing

/// `herald dead replay` against a running Herald: where a replayed copy
/// goes is the broker's word (x-death), not a header a publisher set, and a
/// replayed copy is delivered even inside the duplicate window.
@Suite(.serialized) struct DeadLetterReplayEndToEndTests {
    static func replay(_ config: ServiceConfig) async -> (status: Int32, console: CapturedConsole) {
        let console = CapturedConsole()
        let status = await HeraldCommandLine().run(
            ["dead", "replay", "--all", "--config", config.file], environment: [:], console: console)
        return (status, console)
    }

    /// The incident: a publisher sends a `register` command's body to the
    /// events exchange with `x-herald-exchange` naming the registry and
    /// `expiration: "1"`; the broker dead-letters it with the header intact.
    /// The operator's routine replay sends it to the events exchange, where
    /// Herald rejects it as an event: the registry is unchanged.
    @Test func aForgedExchangeHeaderDoesNotRegisterADeviceOnReplay() async throws {
        try await TestDatabase.with(.sqlite) { database in
            let simulator = try await SimulatorHarness()
            defer { simulator.stop() }
            let config = try ServiceConfig(
                simulator: simulator, topLevelExtra: database.configSection())
            let results = try await ResultsCollector(prefix: config.prefix)
            // One run declares the topology (and migrates the registry); then no one consumes the events queue.
            let declaring = RunningService(try config.load())
            #expect(await declaring.waitUntilConsuming())
            try await declaring.stop()

            let token = String(repeating: "ab", count: 32)
            let command =
                #"{"id": "evil", "app": "chat", "provider": "apns", "token": "\#(token)", "channels": ["user:42"]}"#
            let forged = AMQPProperties(
                headers: [HeraldHeader.exchange: .string("\(config.prefix).registry")], persistent: true,
                expiration: "1", messageID: "evil")
            try await results.connection.publish(
                AMQPMessage(
                    exchange: "\(config.prefix).events", routingKey: "register",
                    body: Array(command.utf8), properties: forged), mandatory: true)
            let dead = "\(config.prefix).dead"
            #expect(
                try await eventually(timeout: .seconds(30)) {
                    try await results.connection.messageCount(queue: dead) == 1
                })

            let running = RunningService(try config.load())
            #expect(await running.waitUntilConsuming())
            let (status, console) = await Self.replay(config)
            #expect(status == 0, "\(console.stdout)\n\(console.stderr)")
            #expect(
                console.stdout.contains(" to \(config.prefix).events with routing key register"), "\(console.stdout)")
            // Herald received it as an event, and refused it as one.
            #expect(
                await results.wait { $0.contains { $0.outcome.eventID == "evil" && $0.outcome.status == .rejected } },
                "\(results.all.map { "\($0.outcome.eventID) \($0.outcome.status)" })")
            let store = try database.makeStore()
            defer { store.close() }
            #expect(try await store.count(app: "chat", channel: "user:42") == 0, "the registry is unchanged")
            #expect(results.registryResults.isEmpty, "no registry command was applied: \(results.registryResults)")
            try await running.stop()
            await results.close(deleting: config.queues)
        }
    }

    /// A dead letter replayed while its event's id is still in the duplicate
    /// window is delivered, not dropped as a duplicate of the first delivery.
    @Test func aReplayInsideTheDuplicateWindowIsDelivered() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(simulator: simulator, topLevelExtra: "duplicate_window: 10m")
        try await RunningService.serving(config) { results, publisher in
            let event =
                #"{"id": "replayed", "app": "chat", "provider": "fcm", "token": "d-1", "notification": {"title": "x"}}"#
            try await publisher.publish(event)
            #expect(await results.wait { $0.filter { $0.outcome.status == .delivered }.count == 1 })
            // Parked as Herald parks the targets whose retries ran out.
            let delivery = AMQPDelivery(
                body: Array(event.utf8), exchange: "\(config.prefix).events", routingKey: "chat.message",
                redelivered: false, tag: DeliveryTag(value: 1, connection: 1), consumerTag: "c",
                properties: AMQPProperties(contentType: "application/json", persistent: true, messageID: "replayed"))
            try await results.connection.publish(
                RetryRouting.deadLetterMessage(
                    for: delivery, error: "retries exhausted after 3 attempts",
                    topology: TopologyOptions(prefix: config.prefix)), mandatory: true)

            let (status, console) = await Self.replay(config)
            #expect(status == 0, "\(console.stderr)")
            #expect(console.stdout.hasSuffix("replayed 1 dead letter"), "\(console.stdout)")
            #expect(
                await results.wait { $0.filter { $0.outcome.status == .delivered }.count == 2 },
                "\(results.all.map { "\($0.outcome.status) \($0.outcome.reason ?? "")" })")
            #expect(!results.all.contains { $0.outcome.status == .dropped })
            #expect(simulator.recorder.notifications.count == 2)
        }
    }
}
