import Foundation
import HeraldCore
import HeraldFCM
import HeraldPipeline
import HeraldProviders
import Testing

/// Transient failures go through the delay queues and come back; permanent
/// ones never retry; exhausted ones fail and are dead-lettered.
@Suite(.serialized) struct RetryTests {
    @Test func a503StormThenRecoveryDeliversAfterRetries() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(simulator: simulator, maxAttempts: 5, delays: "[300ms]")
        let results = try await ResultsCollector(prefix: config.prefix)
        let running = RunningService(try config.load())
        #expect(await running.waitUntilConsuming())
        let publisher = TestPublisher(connection: results.connection, exchange: "\(config.prefix).events")

        simulator.fcm.update {
            $0.unavailableRate = 1
            $0.retryAfter = nil
        }
        for i in 0..<5 {
            try await publisher.publish(
                #"{"id": "storm-\#(i)", "app": "chat", "provider": "fcm", "token": "t\#(i)", "ttl": 60}"#)
        }
        // Every event fails and is scheduled again. On a slow machine an early
        // event's retry (300 ms later) can fail again before the last event's
        // first failure arrives, so each event's attempts are counted 1, 2, …
        #expect(
            await results.wait { got in
                Set(got.filter { $0.outcome.status == .retrying }.map(\.outcome.eventID)).count == 5
            })
        let retrying = results.all.filter { $0.outcome.status == .retrying }
        #expect(retrying.allSatisfy { $0.routingKey == "retrying.fcm.chat" && $0.outcome.reason == "UNAVAILABLE" })
        #expect(retrying.allSatisfy { $0.outcome.nextAttemptAt != nil })
        let attempts = Dictionary(grouping: retrying, by: \.outcome.eventID).mapValues {
            $0.map(\.outcome.attempt).sorted()
        }
        #expect(
            attempts.count == 5 && attempts.values.allSatisfy { $0 == Array(1...$0.count) },
            "each event's retrying outcomes count its attempts from 1: \(attempts)")

        simulator.fcm.update { $0.unavailableRate = 0 }
        #expect(
            await results.wait { got in
                Set(got.filter { $0.outcome.status == .delivered }.map(\.outcome.eventID)).count == 5
            })
        let delivered = results.all.filter { $0.outcome.status == .delivered }
        #expect(
            delivered.allSatisfy { $0.outcome.attempt >= 2 },
            "delivered on a retry: \(delivered.map(\.outcome.attempt))")
        #expect(delivered.allSatisfy { $0.outcome.eventID.hasPrefix("storm-") })

        try await running.stop()
        await results.close(deleting: config.queues)
    }

    /// Targets that fail together do not all come back together: each draws
    /// one of its delay's jitter slots, within [delay/2, delay], and waits in
    /// that slot's delay queue.
    @Test func targetsFailingTogetherRetryAtJitteredDelaysWithinTheBounds() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(simulator: simulator, maxAttempts: 2, delays: "[30s]")
        let results = try await ResultsCollector(prefix: config.prefix)
        let running = RunningService(try config.load())
        #expect(await running.waitUntilConsuming())
        let publisher = TestPublisher(connection: results.connection, exchange: "\(config.prefix).events")

        simulator.fcm.update {
            $0.unavailableRate = 1
            $0.retryAfter = nil
        }
        let count = 40
        let targets = (0..<count).map { #"{"provider": "fcm", "token": "t\#($0)"}"# }.joined(separator: ", ")
        try await publisher.publish(#"{"id": "outage", "app": "chat", "targets": [\#(targets)]}"#)

        #expect(await results.wait { got in got.filter { $0.outcome.status == .retrying }.count == count })
        let delays = results.all.filter { $0.outcome.status == .retrying }.compactMap { result in
            result.outcome.nextAttemptAt.map { $0.millisecondsSinceEpoch - result.outcome.at.millisecondsSinceEpoch }
        }
        #expect(delays.count == count)
        #expect(delays.allSatisfy { (15_000...30_000).contains($0) }, "\(delays)")
        #expect(Set(delays).count > 1, "every target drew the same delay: \(delays)")
        // One retry message per slot drawn, each in its slot's delay queue.
        var waiting: [String: Int] = [:]
        for queue in config.retryQueues {
            waiting[queue] = try await results.connection.messageCount(queue: queue)
        }
        #expect(config.retryQueues.count == RetryPolicy.jitterSlots, "\(config.retryQueues)")
        #expect(waiting.values.reduce(0, +) == Set(delays).count, "\(waiting)")

        try await running.stop()
        await results.close(deleting: config.queues)
    }

    @Test func exhaustedRetriesFailAndDeadLetterOnlyTheFailedTargets() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(simulator: simulator, maxAttempts: 2, delays: "[200ms]")
        let results = try await ResultsCollector(prefix: config.prefix)
        let running = RunningService(try config.load())
        #expect(await running.waitUntilConsuming())
        try await results.watchDeadLetters(queue: "\(config.prefix).dead")
        let publisher = TestPublisher(connection: results.connection, exchange: "\(config.prefix).events")

        simulator.fcm.update { $0.internalErrorRate = 1 }
        let apnsToken = String(repeating: "ab", count: 32)
        try await publisher.publish(
            #"{"id": "doomed", "app": "chat", "targets": [{"provider": "fcm", "token": "f"}, {"provider": "apns", "token": "\#(apnsToken)"}], "notification": {"title": "x"}}"#
        )

        #expect(await results.wait { got in got.contains { $0.outcome.status == .failed } })
        #expect(await results.wait { _ in !results.dead.isEmpty })
        let statuses = results.all.map {
            "\($0.outcome.provider?.rawValue ?? "")/\($0.outcome.status.rawValue)/\($0.outcome.attempt)"
        }
        #expect(statuses.sorted() == ["apns/delivered/1", "fcm/failed/2", "fcm/retrying/1"])
        let failed = try #require(results.all.first { $0.outcome.status == .failed })
        #expect(failed.outcome.reason == "retries exhausted after 2 attempts: INTERNAL")
        #expect(failed.outcome.providerStatus == 500)
        // The dead letter holds the event with only the target that never made it.
        let dead = try #require(results.dead.first)
        #expect(
            dead.headers[HeraldHeader.error]?.stringValue
                == "retries exhausted after 2 attempts: fcm token: INTERNAL (HTTP 500)")
        let parked = try Event.decode(dead.body, fallbackID: "", providers: .registered)
        #expect(parked.id == "doomed")
        #expect(parked.targets == [Target(provider: .fcm, address: .token("f"))])
        // The APNs target was delivered once, on the first attempt, and never again.
        #expect(simulator.recorder.notifications.filter { $0.provider == "apns" }.count == 1)

        try await running.stop()
        await results.close(deleting: config.queues)
    }

    @Test func poisonEventsAreRejectedWhileGoodEventsKeepFlowing() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(simulator: simulator, publish: "[delivered, rejected]")
        let results = try await ResultsCollector(prefix: config.prefix)
        let running = RunningService(try config.load())
        #expect(await running.waitUntilConsuming())
        try await results.watchDeadLetters(queue: "\(config.prefix).dead")
        let publisher = TestPublisher(connection: results.connection, exchange: "\(config.prefix).events")

        var garbage = [UInt8](repeating: 0, count: 1_000_000)
        for i in garbage.indices { garbage[i] = UInt8(truncatingIfNeeded: i &* 2_654_435_761 >> 7) }
        let poison: [(String, [UInt8])] = [
            ("not-json", Array("{this is not json".utf8)),
            ("no-targets", Array(#"{"app": "chat", "targets": []}"#.utf8)),
            ("unknown-app", Array(#"{"app": "nope", "provider": "fcm", "token": "t"}"#.utf8)),
            ("garbage-1mb", garbage),
            ("bad-utf8", [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0xFE, 0x22, 0x7D]),
        ]
        for i in 0..<20 {
            try await publisher.publish(#"{"id": "good-\#(i)", "app": "chat", "provider": "fcm", "token": "t\#(i)"}"#)
            if i < poison.count { try await publisher.publish(poison[i].1, messageID: poison[i].0) }
        }
        #expect(
            await results.wait { got in
                got.filter { $0.outcome.status == .delivered }.count == 20
                    && got.filter { $0.outcome.status == .rejected }.count == 5
            })
        let rejected = Dictionary(
            results.all.filter { $0.outcome.status == .rejected }.map { ($0.outcome.eventID, $0.outcome.reason ?? "") },
            uniquingKeysWith: { a, _ in a })
        #expect(rejected["not-json"]?.hasPrefix("body: ") == true)
        #expect(rejected["no-targets"] == "targets: is empty; give at least one target")
        #expect(rejected["unknown-app"] == "unknown app 'nope'")
        #expect(rejected["garbage-1mb"]?.hasPrefix("body: ") == true, "\(rejected["garbage-1mb"] ?? "")")
        #expect(rejected["bad-utf8"]?.hasPrefix("body: invalid UTF-8") == true)
        #expect(await results.wait { _ in results.dead.count == 5 })
        #expect(Set(results.dead.compactMap(\.messageID)) == Set(poison.map(\.0)))

        try await running.stop()
        await results.close(deleting: config.queues)
    }
}
