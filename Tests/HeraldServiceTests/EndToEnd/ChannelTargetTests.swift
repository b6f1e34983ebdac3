import HeraldCore
import Testing

/// Channel targets through the running service.
@Suite(.serialized) struct ChannelTargetTests {
    @Test func withoutARegistryAChannelTargetFailsAloneNamingTheChannel() async throws {
        let simulator = try SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(simulator: simulator)
        let results = try await ResultsCollector(prefix: config.prefix)
        let running = RunningService(try config.load())
        #expect(await running.waitUntilConsuming())
        let publisher = TestPublisher(connection: results.connection, exchange: "\(config.prefix).events")

        try await publisher.publish(#"""
            {"id": "to-channel", "app": "chat", "targets": [{"channel": "user:42"}, {"provider": "fcm", "token": "t-1"}],
             "notification": {"title": "hi"}}
            """#)
        #expect(await results.wait { $0.count == 2 })
        let byStatus = Dictionary(grouping: results.all.map(\.outcome), by: \.status)
        #expect(byStatus[.delivered]?.first?.address == .token("t-1"))
        let failed = try #require(byStatus[.failed]?.first)
        #expect(failed.channel == "user:42")
        #expect(failed.reason == "no registry: channel targets need a registry: section in the config (docs/registry.md)")
        #expect(simulator.recorder.notifications.count == 1)
        try await running.stop()
        await results.close(deleting: config.queues)
    }
}
