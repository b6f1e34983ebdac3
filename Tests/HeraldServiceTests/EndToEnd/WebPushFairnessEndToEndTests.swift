import Foundation
import HeraldCore
import HeraldSimulator
import HeraldSimulatorTestSupport
import HeraldTestSupport
import HeraldWebPush
import Testing

/// Two Web Push apps on Herald's one Web Push client: an app whose events
/// name thousands of endpoints that never answer does not delay the other
/// app's message (docs/webpush.md, "Fair sharing between apps").
@Suite struct WebPushFairnessEndToEndTests {
    /// The one place this suite makes its config: `chat` and `shop` on the
    /// simulator's push service. chat's `timeout` is ten minutes, so its
    /// unanswered requests hold their slots for the whole test however slowly
    /// a loaded machine prepares the last of them; shop's, 3 s, is the bound on
    /// shop's delivery.
    private static func config(_ simulator: SimulatorHarness) throws -> ServiceConfig {
        try ServiceConfig(
            simulator: simulator, delays: "[1s]", shutdownDeadline: "1s",
            extraAppsYAML: ServiceConfig.webPushSection(simulator: simulator, timeout: "10m")
                + "\n  shop:\n" + ServiceConfig.webPushSection(simulator: simulator, timeout: "3s"))
    }

    /// A Web Push target at `endpoint` with `keys`' subscription keys.
    private static func target(endpoint: String, keys: SimulatedWebPushSubscription) -> String {
        let p256dh = Base64URL.encode(keys.subscription.userAgentPublicKeyBytes)
        let auth = Base64URL.encode(keys.subscription.authSecret)
        return
            #"{"provider": "webpush", "subscription": {"endpoint": "\#(endpoint)", "keys": {"p256dh": "\#(p256dh)", "auth": "\#(auth)"}}}"#
    }

    @Test func anAppsEndpointsThatNeverAnswerDoNotDelayAnotherAppsMessage() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        // chat's endpoints: a push service of its own origin that completes TCP, TLS and HTTP/2 at once and then
        // answers no request, so nothing but the request timeout ends one (an endpoint that never finished its
        // handshake would fail a request at each 5 s connect timeout, before a loaded machine sent the last).
        let hung = try await SimulatorServer(
            Simulator(
                services: [WebPushSimulatorService(recorder: NotificationRecorder())], recorder: NotificationRecorder(),
                faults: FaultInjector(faults: SimulatorFaults(hangRate: 1, services: ["webpush"])),
                logger: Logger(label: "hung-push-service", level: .error)),
            pki: simulator.pki, logger: Logger(label: "hung-push-service", level: .error))
        defer { hung.shutdown() }
        let config = try Self.config(simulator)
        let results = try await ResultsCollector(prefix: config.prefix)
        let running = RunningService(try config.load())
        #expect(await running.waitUntilConsuming())
        let publisher = TestPublisher(connection: results.connection, exchange: "\(config.prefix).events")

        // Two events of chat with 2 100 endpoints each that never answer: 4 200 requests,
        // more than the client's whole window (2 048 for each of the two apps).
        let keys = try simulator.webPushSubscription()
        let perEvent = 2100
        for event in 0..<2 {
            let targets = (0..<perEvent).map {
                Self.target(endpoint: "\(hung.baseURL)/push/\(event)-\($0)", keys: keys)
            }
            try await publisher.publish(
                """
                {"id": "flood-\(event)", "app": "chat", "targets": [\(targets.joined(separator: ", "))],
                 "notification": {"title": "never answered"}}
                """)
        }
        // Every one of them is being sent (the gauge counts requests awaiting an answer).
        let inFlight = running.service.metrics.inflightRequests.labels("webpush")
        #expect(
            await eventually(timeout: .seconds(300)) { inFlight.current == 2 * perEvent },
            "chat's requests are all sent: \(inFlight.current)")

        // shop's message to a push service that answers at once. Served from one queue, it
        // would wait behind chat's requests until their timeouts free slots (ten minutes)
        // and fail after its own 3 s, `retrying`; with its own share it is delivered.
        let subscription = try simulator.webPushSubscription()
        try await publisher.publish(
            """
            {"id": "shop-1", "app": "shop", "targets": [\(Self.target(endpoint: subscription.subscription.endpoint, keys: subscription))],
             "notification": {"title": "on time"}}
            """, routingKey: "shop.message")
        #expect(await results.wait { outcomes in outcomes.contains { $0.outcome.eventID == "shop-1" } })
        let outcome = results.all.first { $0.outcome.eventID == "shop-1" }?.outcome
        #expect(outcome?.status == .delivered, "\(String(describing: outcome))")
        #expect(!results.all.contains { $0.outcome.eventID.hasPrefix("flood-") }, "chat's requests were still waiting")

        try await running.stop()
        await results.close(deleting: config.queues)
    }
}
