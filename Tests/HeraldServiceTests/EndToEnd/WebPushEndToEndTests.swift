import Foundation
import HeraldCore
import HeraldCrypto
import HeraldProviders
import HeraldSimulator
import HeraldTestSupport
import HeraldWebPush
import Testing

/// Web Push end to end: events through RabbitMQ, Herald's Web Push provider,
/// and the simulator's push service, which verifies the VAPID token and
/// decrypts every message with the subscription's private key, so what it
/// records is the plaintext the browser would read (docs/webpush.md).
@Suite(.serialized) struct WebPushEndToEndTests {
    /// Runs Herald with the `chat` app given the harness's VAPID key, around `body`.
    private func serving(
        _ simulator: SimulatorHarness, delays: String = "[1s]",
        _ body: (ResultsCollector, TestPublisher) async throws -> Void
    ) async throws {
        let config = try ServiceConfig(
            simulator: simulator, delays: delays,
            extraAppsYAML: ServiceConfig.webPushSection(simulator: simulator))
        try await RunningService.serving(config, body)
    }

    private func subscribe(_ simulator: SimulatorHarness) throws -> SimulatedWebPushSubscription {
        try simulator.webPushSubscription()
    }

    /// The subscription as the browser hands it over (its extra members are ignored by the decoder).
    private func target(_ subscription: SimulatedWebPushSubscription) throws -> String {
        #"{"provider": "webpush", "subscription": \#(try subscription.jsonValue().jsonString)}"#
    }

    @Test func aMessageIsDeliveredEncryptedAndTheBrowsersPlaintextIsTheEventsNotificationAndData() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let subscription = try subscribe(simulator)
        try await serving(simulator) { results, publisher in
            try await publisher.publish(
                """
                {"id": "wp-1", "app": "chat", "targets": [\(try target(subscription))],
                 "notification": {"title": "Hello", "body": "From Herald", "thread_id": "room-7"},
                 "data": {"room": "7"}, "priority": "high", "collapse_id": "room-7", "ttl": 600}
                """)
            #expect(await results.wait { $0.count == 1 })
            let outcome = try #require(results.all.first)
            #expect(outcome.outcome.status == .delivered, "\(outcome.outcome)")
            #expect(outcome.routingKey == "delivered.webpush.chat")
            #expect(outcome.outcome.address == Target.Address(.endpoint, subscription.subscription.endpoint))
            #expect(outcome.outcome.providerStatus == 201)
            #expect(
                outcome.outcome.providerMessageID?.hasPrefix(
                    simulator.baseURL + WebPushSimulatorService.messagePathPrefix) == true,
                "\(outcome.outcome.providerMessageID ?? "no Location")")
            let recorded = try #require(simulator.recorder.notifications.first { $0.provider == "webpush" })
            #expect(recorded.target == subscription.id)
            #expect(
                recorded.payload == [
                    "notification": ["title": "Hello", "body": "From Herald", "thread_id": "room-7"],
                    "data": ["room": "7"],
                ])
            #expect(recorded.headers["urgency"] == "high")
            #expect(recorded.headers["topic"] == "room-7")
            #expect(recorded.headers["content-encoding"] == "aes128gcm")
            // TTL counts down from the event's 600 s: at most that, and not much less in a test.
            let ttl = Int(recorded.headers["ttl"] ?? "") ?? -1
            #expect((590...600).contains(ttl), "TTL \(ttl)")
        }
    }

    @Test func aPushServiceSpeakingOnlyHTTP11IsReachedAndItsConnectionsReused() async throws {
        let simulator = try await SimulatorHarness(webPushOverHTTP1: true)
        defer { simulator.stop() }
        let subscriptions = try (0..<20).map { _ in try subscribe(simulator) }
        try await serving(simulator) { results, publisher in
            try await publisher.publish(
                """
                {"id": "wp-h1", "app": "chat", "targets": [\(try subscriptions.map { try target($0) }.joined(separator: ", "))],
                 "notification": {"title": "over HTTP/1.1"}}
                """)
            #expect(await results.wait { $0.count == 20 })
            #expect(results.all.allSatisfy { $0.outcome.status == .delivered }, "\(results.all.map(\.outcome))")
            let recorded = simulator.recorder.notifications.filter { $0.provider == "webpush" }
            #expect(Set(recorded.map(\.target)) == Set(subscriptions.map(\.id)))
            #expect(recorded.allSatisfy { $0.payload == ["notification": ["title": "over HTTP/1.1"]] })
            // One message at a time per HTTP/1.1 connection, reused: at most the `auto` ceiling of 4 for 20 messages.
            let connections = try #require(simulator.webPushHTTP1ConnectionsSeen)
            #expect((1...4).contains(connections), "\(connections) connections for 20 messages")
        }
    }

    @Test func aRawPayloadIsSentAsGiven() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let subscription = try subscribe(simulator)
        try await serving(simulator) { results, publisher in
            try await publisher.publish(
                """
                {"id": "wp-raw", "app": "chat", "targets": [\(try target(subscription))],
                 "webpush": {"payload": {"kind": "sync", "ids": [1, 2]}}}
                """)
            #expect(await results.wait { $0.count == 1 })
            #expect(results.all.first?.outcome.status == .delivered)
            let recorded = try #require(simulator.recorder.notifications.first { $0.provider == "webpush" })
            #expect(recorded.payload == ["kind": "sync", "ids": [1, 2]])
            // No expiry in the event: the configured default (four weeks).
            #expect(recorded.headers["ttl"] == "2419200")
        }
    }

    @Test func aGoneSubscriptionIsInvalidTokenAndTheOthersAreDelivered() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let gone = try subscribe(simulator)
        let live = try subscribe(simulator)
        simulator.webpush.deleteSubscription(gone.id)
        try await serving(simulator) { results, publisher in
            try await publisher.publish(
                """
                {"id": "wp-gone", "app": "chat", "targets": [\(try target(gone)), \(try target(live))],
                 "notification": {"title": "x"}}
                """)
            #expect(await results.wait { $0.count == 2 })
            let byEndpoint = Dictionary(
                results.all.map { ($0.outcome.address?.value ?? "", $0) }, uniquingKeysWith: { a, _ in a })
            let dead = try #require(byEndpoint[gone.subscription.endpoint])
            #expect(dead.outcome.status == .invalidToken)
            #expect(dead.routingKey == "invalid_token.webpush.chat")
            #expect(dead.outcome.providerStatus == 410)
            #expect(byEndpoint[live.subscription.endpoint]?.outcome.status == .delivered)
        }
    }

    @Test func tooManyRequestsIsRetriedAfterTheRetryAfterAndThenDelivered() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let subscription = try subscribe(simulator)
        simulator.webpush.update { $0.retryAfter = 2 }
        simulator.faults.replace(
            with: SimulatorFaults(errorRate: 1, errorStatus: 429, services: ["webpush"], tokens: [subscription.id]))
        // The retry waits in the shortest delay tier that covers Retry-After: 3s here, not 1s.
        try await serving(simulator, delays: "[1s, 3s]") { results, publisher in
            let published = ContinuousClock.now
            try await publisher.publish(
                """
                {"id": "wp-429", "app": "chat", "targets": [\(try target(subscription))], "notification": {"title": "x"}}
                """)
            #expect(await results.wait { $0.contains { $0.outcome.status == .retrying } })
            simulator.faults.replace(with: .none)
            #expect(await results.wait(timeout: .seconds(30)) { $0.contains { $0.outcome.status == .delivered } })
            let took = ContinuousClock.now - published
            let retrying = try #require(results.all.first { $0.outcome.status == .retrying })
            #expect(retrying.outcome.providerStatus == 429)
            #expect(retrying.outcome.reason == "TooManyRequests")
            #expect(retrying.outcome.routingKey == "retrying.webpush.chat")
            #expect(took >= .seconds(2), "the push service asked for 2 s, the delivery came after \(took)")
        }
    }

    @Test func whatCannotBeSentFailsThatTargetAloneBeforeAnythingIsSent() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let subscription = try subscribe(simulator)
        let offCurve = Base64URL.encode([0x04] + [UInt8](repeating: 1, count: 64))
        let auth = try #require(try subscription.jsonValue()["keys"]?["auth"]?.stringValue)
        let badKeys =
            #"{"provider": "webpush", "subscription": {"endpoint": "\#(subscription.subscription.endpoint)", "keys": {"p256dh": "\#(offCurve)", "auth": "\#(auth)"}}}"#
        let shortAuth =
            #"{"provider": "webpush", "subscription": {"endpoint": "\#(subscription.subscription.endpoint)", "keys": {"p256dh": "x", "auth": "abc"}}}"#
        let big = String(repeating: "x", count: 4000)
        try await serving(simulator) { results, publisher in
            try await publisher.publish(
                """
                {"id": "wp-bad", "app": "chat", "targets": [\(badKeys), \(shortAuth), \(try target(subscription))],
                 "notification": {"title": "ok"}}
                """)
            try await publisher.publish(
                """
                {"id": "wp-big", "app": "chat", "targets": [\(try target(subscription))], "notification": {"body": "\(big)"}}
                """)
            try await publisher.publish(
                """
                {"id": "wp-unknown", "app": "chat", "targets": [{"provider": "webpusher", "token": "abc"}, \(try target(subscription))],
                 "notification": {"title": "ok"}}
                """)
            #expect(await results.wait { $0.count == 6 })
            let outcomes = results.all.map(\.outcome)
            let keyProblem = try #require(
                outcomes.first { $0.eventID == "wp-bad" && $0.reason?.hasPrefix("BadSubscription: ") == true })
            #expect(keyProblem.status == .failed)
            #expect(
                keyProblem.reason?.hasPrefix("BadSubscription: subscription.keys.p256dh is not a P-256 public key")
                    == true,
                "\(keyProblem.reason ?? "")")
            #expect(keyProblem.address == Target.Address(.endpoint, subscription.subscription.endpoint))
            let shape = try #require(
                outcomes.first { $0.eventID == "wp-bad" && $0.reason?.contains("targets[1]") == true })
            #expect(shape.status == .failed)
            #expect(
                shape.reason
                    == "targets[1].subscription.keys.p256dh: expected URL-safe base64 of 65 bytes (the browser's P-256 public key)"
            )
            let tooBig = try #require(outcomes.first { $0.eventID == "wp-big" })
            #expect(tooBig.status == .failed)
            #expect(tooBig.reason?.contains("over the 3993 bytes") == true, "\(tooBig.reason ?? "")")
            let unknown = try #require(outcomes.first { $0.eventID == "wp-unknown" && $0.status != .delivered })
            #expect(unknown.status == .failed)
            #expect(unknown.reason?.contains("unknown provider \"webpusher\"") == true, "\(unknown.reason ?? "")")
            let delivered = outcomes.filter { $0.status == .delivered }.map(\.eventID).sorted()
            #expect(delivered == ["wp-bad", "wp-unknown"], "the good target of each event is delivered: \(outcomes)")
            // Only those two reached the push service: nothing was sent for the refused targets.
            #expect(simulator.recorder.notifications.filter { $0.provider == "webpush" }.count == 2)
        }
    }
}
