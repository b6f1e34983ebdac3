import Foundation
import HeraldCore
import Testing

/// Every outcome status, reached end to end: real broker, real simulator over
/// TLS HTTP/2, `DeliveryService` consuming.
@Suite(.serialized) struct OutcomeStatusTests {
    static let liveToken = String(repeating: "ab", count: 32)
    static let deadToken = String(repeating: "dd", count: 32)

    @Test func everyStatusIsPublishedWithItsRoutingKey() async throws {
        let simulator = try await SimulatorHarness(deadAPNsTokens: [Self.deadToken], deadFCMTokens: ["fcm-dead"])
        defer { simulator.stop() }
        let config = try ServiceConfig(
            simulator: simulator, maxAttempts: 2,
            routes: """
                routes:
                  - name: no-sms
                    match: {headers: {x-channel: sms}}
                    drop: "sms is not push"
                  - name: default
                    app: chat
                """)
        let results = try await ResultsCollector(prefix: config.prefix)
        let running = RunningService(try config.load())
        #expect(await running.waitUntilConsuming())
        try await results.watchDeadLetters(queue: "\(config.prefix).dead")
        let publisher = TestPublisher(connection: results.connection, exchange: "\(config.prefix).events")

        simulator.fcm.update { $0.unavailableRate = 0 }
        try await publisher.publish(
            #"{"id": "ok", "app": "chat", "targets": [{"provider": "apns", "token": "\#(Self.liveToken)"}, {"provider": "fcm", "token": "fcm-live"}], "notification": {"title": "Hi"}, "context": {"u": 7}}"#
        )
        try await publisher.publish(
            #"{"id": "dead", "app": "chat", "targets": [{"provider": "apns", "token": "\#(Self.deadToken)"}, {"provider": "fcm", "token": "fcm-dead"}], "notification": {"body": "x"}}"#
        )
        try await publisher.publish(
            #"{"id": "late", "app": "chat", "provider": "fcm", "token": "t", "expires_at": "2020-01-01T00:00:00Z"}"#)
        try await publisher.publish(
            #"{"id": "self", "app": "chat", "provider": "fcm", "token": "me", "exclude_tokens": ["me"]}"#)
        try await publisher.publish("not json at all", messageID: "poison-1")
        try await publisher.publish(
            #"{"id": "big", "app": "chat", "provider": "apns", "token": "\#(Self.liveToken)", "data": {"blob": "\#(String(repeating: "x", count: 5000))"}}"#
        )

        let expected: [String: String] = [
            "ok/apns": "delivered.apns.chat", "ok/fcm": "delivered.fcm.chat",
            "dead/apns": "invalid_token.apns.chat", "dead/fcm": "invalid_token.fcm.chat",
            "late/fcm": "expired.fcm.chat", "self/fcm": "dropped.fcm.chat",
            "poison-1/-": "rejected.unknown.unknown", "big/apns": "failed.apns.chat",
        ]
        func key(_ o: Outcome) -> String { "\(o.eventID)/\(o.provider?.rawValue ?? "-")" }
        #expect(await results.wait { got in Set(got.map { key($0.outcome) }).isSuperset(of: expected.keys) })
        for (routingKey, outcome) in results.all {
            #expect(expected[key(outcome)] == routingKey, "\(key(outcome)) arrived as \(routingKey)")
        }
        let byKey = Dictionary(results.all.map { (key($0.outcome), $0.outcome) }, uniquingKeysWith: { a, _ in a })
        #expect(byKey["ok/apns"]?.context == ["u": 7])
        #expect(byKey["dead/apns"]?.reason == "Unregistered")
        #expect(byKey["dead/apns"]?.invalidatedAt == Timestamp(seconds: 1_796_032_800))
        #expect(byKey["dead/fcm"]?.reason == "UNREGISTERED")
        #expect(byKey["big/apns"]?.reason?.hasPrefix("PayloadTooLarge") == true)
        #expect(byKey["poison-1/-"]?.reason?.hasPrefix("body: ") == true)
        // The poison message is parked in the dead-letter queue with the error.
        #expect(await results.wait { _ in !results.dead.isEmpty })
        #expect(results.dead.first?.headers[HeraldHeader.error]?.stringValue?.hasPrefix("body: ") == true)
        #expect(String(decoding: results.dead.first?.body ?? [], as: UTF8.self) == "not json at all")

        try await running.stop()
        await results.close(deleting: config.queues)
    }
}
