import HeraldAPNs
import Foundation
import HeraldCore
import HeraldSimulator
import Testing

/// A request whose answer never comes is sent again as it was, then reported
/// as uncertain instead of a plain failure.
@Suite(.serialized) struct LostAnswerTests {
    static let token = String(repeating: "ab", count: 32)

    /// Delivers one notification first, so the connection to the simulator is
    /// open (and the provider token signed) before the request that hangs: its
    /// timeout then measures the missing answer alone, however busy the machine.
    static func warmUp(_ publisher: TestPublisher, _ results: ResultsCollector) async throws {
        let other = String(repeating: "cd", count: 32)
        try await publisher.publish(
            #"{"id": "warm-up", "app": "chat", "provider": "apns", "token": "\#(other)", "notification": {"title": "hi"}}"#
        )
        #expect(
            await results.wait { $0.contains { $0.outcome.eventID == "warm-up" && $0.outcome.status == .delivered } })
    }

    @Test(arguments: ["nghttp2", "libcurl"])
    func aTimedOutRequestIsSentAgainWithTheSameApnsIDThenReportedUncertain(engine: String) async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        simulator.faults.replace(with: SimulatorFaults(hangRate: 1, services: ["apns"], tokens: [Self.token]))
        let config = try ServiceConfig(simulator: simulator, maxAttempts: 1, providerTimeout: "3s")
        // Both HTTP/2 engines tell a request written from one never sent.
        let yaml = try String(contentsOfFile: config.file, encoding: .utf8)
        let patched = yaml.replacingOccurrences(
            of: "topic: com.example.chat\n", with: "topic: com.example.chat\n      http_engine: \(engine)\n")
        try #require(patched != yaml)
        try patched.write(toFile: config.file, atomically: true, encoding: .utf8)
        #expect(try config.load().configuration.apps["chat"]?.section(APNsSettings.self)?.httpEngine.rawValue == engine)
        let results = try await ResultsCollector(prefix: config.prefix)
        let running = RunningService(try config.load())
        #expect(await running.waitUntilConsuming())
        let publisher = TestPublisher(connection: results.connection, exchange: "\(config.prefix).events")

        try await Self.warmUp(publisher, results)
        try await publisher.publish(
            #"{"id": "lost", "app": "chat", "provider": "apns", "token": "\#(Self.token)", "notification": {"title": "hi"}}"#
        )
        #expect(await results.wait { $0.count == 2 })
        let outcome = try #require(results.all.last?.outcome)
        #expect(outcome.status == .failed)
        #expect(outcome.uncertain)
        #expect(
            outcome.reason
                == "retries exhausted after 1 attempts: no answer within the timeout; the provider may have accepted it",
            "\(outcome.reason ?? "")")
        #expect(outcome.detail?.contains("timeout") == true, "\(outcome.detail ?? "")")
        #expect(
            results.rawBodies.last.map { String(decoding: $0, as: UTF8.self).contains(#""uncertain":true"#) } == true)

        // Two requests reached the simulator (the first and its timeout retry), with one apns-id.
        let hung = simulator.recorder.refusals.filter { $0.fault == .hang }
        #expect(hung.count == 2)
        let ids = Set(hung.compactMap { $0.headers["apns-id"] })
        #expect(ids.count == 1, "\(hung.map(\.headers))")
        #expect(
            running.service.metrics.registry.render().contains(
                #"herald_timeout_retries_total{provider="apns",app="chat"} 1"#))
        try await running.stop()
        await results.close(deleting: config.queues)
    }

    @Test func withoutTimeoutRetriesALostAnswerIsRetriedByThePolicyAndMarkedUncertain() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        simulator.faults.replace(with: SimulatorFaults(hangRate: 1, services: ["apns"], tokens: [Self.token]))
        let config = try ServiceConfig(
            simulator: simulator, maxAttempts: 2, delays: "[30s]",
            extraAppsYAML: "    timeout_retries: 0", providerTimeout: "3s")
        let results = try await ResultsCollector(prefix: config.prefix)
        let running = RunningService(try config.load())
        #expect(await running.waitUntilConsuming())
        let publisher = TestPublisher(connection: results.connection, exchange: "\(config.prefix).events")

        try await Self.warmUp(publisher, results)
        try await publisher.publish(
            #"{"id": "lost-once", "app": "chat", "provider": "apns", "token": "\#(Self.token)", "notification": {"title": "hi"}}"#
        )
        #expect(await results.wait { $0.count == 2 })
        let outcome = try #require(results.all.last?.outcome)
        #expect(outcome.status == .retrying)
        #expect(outcome.uncertain)
        #expect(outcome.reason == "no answer within the timeout; the provider may have accepted it")
        #expect(simulator.recorder.refusals.filter { $0.fault == .hang }.count == 1)
        try await running.stop()
        await results.close(deleting: config.queues)
    }
}
