import Foundation
import HeraldAMQP
import HeraldConfig
import HeraldCore
import HeraldObservability
import HeraldPipeline
import HeraldSimulator
@testable import HeraldService
import HeraldTestSupport
import Testing

@Suite(.serialized) struct ServiceResilienceTests {
    /// An `EventProcessor` on its own connection, with the redelivery memory given.
    struct Processor {
        let processor: EventProcessor
        let stop: @Sendable () async -> Void

        init(_ loaded: LoadedConfig, topology: TopologyOptions, memory: DeliveredTargets) async throws {
            let connection = try AMQPConnection(
                configuration: try loaded.amqpConfiguration(), topology: loaded.topology,
                logger: Logger(label: "test", level: .error))
            let runner = Task { try await connection.run() }
            try await connection.waitUntilConnected()
            let providers = ProviderSet.make(config: loaded, logger: Logger(label: "test", level: .error))
            let clients = Task { try await providers.run() }
            processor = EventProcessor(
                EventProcessor.Dependencies(
                    planner: EventPlanner(config: loaded), providers: providers,
                    retryPolicy: RetryPolicy(settings: loaded.configuration.retry),
                    publishStatuses: Set(Outcome.Status.allCases),
                    topology: topology, publisher: connection, delivered: memory, invalidationGuard: nil,
                    metrics: HeraldMetrics(version: "test"), logger: Logger(label: "test", level: .error),
                    clock: { Timestamp.now() }, newID: { "generated" }))
            stop = {
                providers.shutdown()
                connection.shutdown()
                _ = try? await runner.value
                _ = try? await clients.value
            }
        }
    }

    static func delivery(_ body: String, prefix: String, redelivered: Bool, tag: UInt64) -> AMQPDelivery {
        AMQPDelivery(
            body: Array(body.utf8), exchange: "\(prefix).events", routingKey: "chat.message", redelivered: redelivered,
            tag: DeliveryTag(value: tag, connection: 0), consumerTag: "test", properties: AMQPProperties())
    }

    @Test func aRedeliveredEventDoesNotNotifyTargetsAlreadyHandled() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(simulator: simulator)
        let loaded = try config.load()
        let results = try await ResultsCollector(prefix: config.prefix)
        let fixture = try await Processor(loaded, topology: loaded.topology, memory: DeliveredTargets())
        let processor = fixture.processor

        let body =
            #"{"id": "once", "app": "chat", "targets": [{"provider": "fcm", "token": "a"}, {"provider": "fcm", "token": "b"}]}"#
        #expect(await processor.process(Self.delivery(body, prefix: config.prefix, redelivered: false, tag: 1)) == .ack)
        #expect(simulator.recorder.notifications.count == 2)
        #expect(await results.wait { $0.count == 2 })
        #expect(results.all.allSatisfy { !$0.outcome.redelivered })

        // The broker redelivers it (say our ack was lost): nothing is sent or published again.
        #expect(await processor.process(Self.delivery(body, prefix: config.prefix, redelivered: true, tag: 2)) == .ack)
        // `process` returned once its publishes were confirmed: a marker after them proves none is on its way.
        #expect(await results.waitUntilSettled([]))
        #expect(simulator.recorder.notifications.count == 2)
        #expect(results.all.count == 2)

        // A new delivery of the same id that is not a redelivery (a publisher's retry) is delivered.
        #expect(await processor.process(Self.delivery(body, prefix: config.prefix, redelivered: false, tag: 3)) == .ack)
        #expect(simulator.recorder.notifications.count == 4)

        await fixture.stop()
        await results.close(deleting: config.queues)
    }

    @Test func aRedeliveryOfAnEventStillInFlightWaitsForItAndSendsNothingAgain() async throws {
        // The connection an event came on is lost while it is being delivered:
        // the broker redelivers it at once, and the first delivery goes on.
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        simulator.faults.replace(with: SimulatorFaults(services: ["fcm"], latency: ConfigDuration(milliseconds: 400)))
        let config = try ServiceConfig(simulator: simulator)
        let loaded = try config.load()
        let results = try await ResultsCollector(prefix: config.prefix)
        let fixture = try await Processor(loaded, topology: loaded.topology, memory: DeliveredTargets())
        let body =
            #"{"id": "in-flight", "app": "chat", "targets": [{"provider": "fcm", "token": "a"}, {"provider": "fcm", "token": "b"}]}"#

        async let first = fixture.processor.process(
            Self.delivery(body, prefix: config.prefix, redelivered: false, tag: 1))
        // The first delivery's requests are at the simulator, their answers 400 ms away.
        #expect(await eventually { simulator.recorder.notifications.count == 2 })
        let again = await fixture.processor.process(
            Self.delivery(body, prefix: config.prefix, redelivered: true, tag: 2))
        #expect(await first == .ack)
        #expect(again == .ack)
        #expect(simulator.recorder.notifications.count == 2, "each device notified once")
        #expect(await results.wait { $0.count == 2 })
        #expect(await results.waitUntilSettled([]))
        #expect(results.all.count == 2)

        await fixture.stop()
        await results.close(deleting: config.queues)
    }

    @Test func whenPublishingOutcomesFailsTheRedeliveryPublishesThemAgainWithoutSendingTwice() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(simulator: simulator, delays: "[30s]")
        let loaded = try config.load()
        let results = try await ResultsCollector(prefix: config.prefix)
        let memory = DeliveredTargets()
        // The first processor publishes to a results exchange that does not exist: the broker refuses the batch.
        var missing = loaded.topology
        missing.resultsExchange = "\(config.prefix).missing"
        let failing = try await Processor(loaded, topology: missing, memory: memory)
        let working = try await Processor(loaded, topology: loaded.topology, memory: memory)
        simulator.faults.replace(
            with: SimulatorFaults(errorRate: 1, errorStatus: 503, services: ["fcm"], tokens: ["busy"]))

        let body =
            #"{"id": "lost-confirms", "app": "chat", "targets": [{"provider": "fcm", "token": "a"}, {"provider": "fcm", "token": "busy"}]}"#
        let first = await failing.processor.process(
            Self.delivery(body, prefix: config.prefix, redelivered: false, tag: 1))
        guard case .requeue(let reason) = first else {
            Issue.record("expected the event to be requeued, got \(first)")
            return
        }
        #expect(reason.contains("404"), "\(reason)")
        #expect(simulator.recorder.notifications.count == 1)
        let fcmAnswers = { simulator.recorder.counters.filter { $0.key.hasPrefix("fcm.") } }
        let answered = fcmAnswers()
        #expect(answered == ["fcm.200": 1, "fcm.503": 1], "\(answered)")

        // The broker redelivers it: both results are published, marked redelivered, and nothing is sent again;
        // the retry of the unavailable target is scheduled once (its retry message is published now).
        #expect(
            await working.processor.process(Self.delivery(body, prefix: config.prefix, redelivered: true, tag: 2))
                == .ack)
        #expect(await results.wait { $0.count == 2 })
        let outcomes = Dictionary(
            uniqueKeysWithValues: results.all.map { ($0.outcome.address?.value ?? "", $0.outcome) })
        #expect(outcomes["a"]?.status == .delivered)
        #expect(outcomes["busy"]?.status == .retrying)
        #expect(outcomes.values.allSatisfy { $0.redelivered })
        #expect(results.rawBodies.allSatisfy { String(decoding: $0, as: UTF8.self).contains(#""redelivered":true"#) })
        #expect(fcmAnswers() == answered)
        var waiting = 0
        for queue in config.retryQueues { waiting += try await results.connection.messageCount(queue: queue) }
        #expect(waiting == 1)

        // Once confirmed, a further redelivery finds nothing to do.
        #expect(
            await working.processor.process(Self.delivery(body, prefix: config.prefix, redelivered: true, tag: 3))
                == .ack)
        #expect(await results.waitUntilSettled([]))
        #expect(results.all.count == 2)
        #expect(fcmAnswers() == answered)

        await failing.stop()
        await working.stop()
        await results.close(deleting: config.queues)
    }

    @Test func aConsumerTheBrokerCancelsEndsTheRunWithAnErrorForTheSupervisor() async throws {
        // RabbitMQ cancels a consumer whose queue is deleted, and on 4.3 one whose
        // consumer timeout fires: Herald must not then stop as if asked to (exit 0).
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(simulator: simulator)
        let results = try await ResultsCollector(prefix: config.prefix)
        let service = DeliveryService(config: try config.load(), logger: Logger(label: "test", level: .critical))
        let run = Task { try await service.run() }
        #expect(await eventually(timeout: .seconds(20)) { service.health.report.contains("consumer_active ok\n") })
        try await results.connection.deleteQueue("\(config.prefix).events")
        do {
            try await run.value
            Issue.record("run() returned normally after the broker cancelled its consumer")
        } catch let error as AMQPError {
            #expect(error.code == .consumerCancelled, "\(error)")
        }
        await results.close(deleting: config.queues)
    }

    @Test func withUnusableCredentialsNotReadyAnAppWhoseKeyFailsDoesNotStopTheOthers() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        // A key file that looks like a PEM key but is not one.
        let brokenKey = simulator.directory + "/broken.p8"
        try "-----BEGIN PRIVATE KEY-----\nAAAAAAAA\n-----END PRIVATE KEY-----\n".write(
            toFile: brokenKey, atomically: true, encoding: .utf8)
        let config = try ServiceConfig(
            simulator: simulator,
            routes: """
                routes:
                  - name: broken-app
                    match: {routing_key: "broken.#"}
                    app: broken
                """,
            extraAppsYAML: """
                  broken:
                    apns:
                      team_id: \(SimulatorHarness.teamID)
                      key_id: \(SimulatorHarness.keyID)
                      key_file: \(brokenKey)
                      topic: com.example.broken
                      endpoint: \(simulator.baseURL)
                      ca_file: \(simulator.pki.caCertificatePath)
                """, topLevelExtra: "unusable_credentials: not_ready")
        let results = try await ResultsCollector(prefix: config.prefix)
        let running = RunningService(try config.load())
        #expect(await running.waitUntilConsuming())
        #expect(
            running.service.health.report.contains("credentials_broken_apns FAILING"),
            "\(running.service.health.report)")
        #expect(!running.service.health.isReady)
        let publisher = TestPublisher(connection: results.connection, exchange: "\(config.prefix).events")
        let token = String(repeating: "ab", count: 32)
        try await publisher.publish(
            #"{"id": "to-broken", "provider": "apns", "token": "\#(token)"}"#, routingKey: "broken.x")
        try await publisher.publish(#"{"id": "to-chat", "app": "chat", "provider": "apns", "token": "\#(token)"}"#)
        #expect(await results.wait { $0.count == 2 })
        let byID = Dictionary(results.all.map { ($0.outcome.eventID, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byID["to-chat"]?.outcome.status == .delivered)
        #expect(byID["to-broken"]?.routingKey == "failed.apns.broken")
        #expect(
            byID["to-broken"]?.outcome.reason?.hasPrefix("apns credentials of app 'broken' cannot be used: ") == true,
            "\(byID["to-broken"]?.outcome.reason ?? "")")
        // Logged once at start-up, naming the app, never the key material.
        let startup = running.logs.lines.filter { $0.contains("provider unavailable") }
        #expect(startup.count == 1)
        #expect(startup.first?.contains(#""app":"broken""#) == true)
        #expect(running.logs.lines.allSatisfy { !$0.contains("AAAAAAAA") })
        try await running.stop()
        await results.close(deleting: config.queues)
    }

    @Test func aBacklogLargerThanTheConcurrencyIsDeliveredInFullAndAcked() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        // One event at a time, 32 received at once: the other 31 wait their turn as messages.
        let config = try ServiceConfig(simulator: simulator, prefetch: 32, concurrency: 1)
        let results = try await ResultsCollector(prefix: config.prefix)
        let publisher = TestPublisher(connection: results.connection, exchange: "\(config.prefix).events")
        let running = RunningService(try config.load())
        #expect(await running.waitUntilConsuming())
        let token = String(repeating: "ab", count: 32)
        for index in 0..<40 {
            try await publisher.publish(
                #"{"id": "e\#(index)", "app": "chat", "targets": [{"provider": "apns", "token": "\#(token)"}, {"provider": "fcm", "token": "f\#(index)"}]}"#
            )
        }
        // A bound for a ThreadSanitizer run sharing two cores with other suites, not an expected time.
        #expect(await results.wait(timeout: .seconds(120)) { $0.count == 80 })
        #expect(Set(results.all.map { "\($0.outcome.eventID)/\($0.outcome.provider?.rawValue ?? "-")" }).count == 80)
        #expect(results.all.allSatisfy { $0.outcome.status == .delivered })
        try await running.stop()
        // Every event was acked: none is left on the queue for redelivery.
        #expect(try await results.connection.messageCount(queue: "\(config.prefix).events") == 0)
        await results.close(deleting: config.queues)
    }
}
