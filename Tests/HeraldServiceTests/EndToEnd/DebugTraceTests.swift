import Foundation
import HeraldCore
import Testing

/// The per-event debug trace end to end: real broker, real simulator over TLS
/// HTTP/2, `DeliveryService` consuming. A debug event (or one a route's
/// `set: {debug: true}` matches) gets its route record and a delivery record
/// per target on the results exchange; others get none; no secret is in any.
@Suite(.serialized) struct DebugTraceTests {
    static let apnsToken = String(repeating: "a1", count: 32)
    static let fcmToken = "fcm-token-of-a-traced-phone"

    @Test func debugEventsGetTheirTraceRecordsWithoutSecrets() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let config = try ServiceConfig(
            simulator: simulator,
            routes: """
                routes:
                  - name: trace-support
                    match: {routing_key: "support.#"}
                    set: {debug: true}
                    app: chat
                  - name: no-sms
                    match: {headers: {x-channel: sms}}
                    drop: "sms is not push"
                  - name: default
                    app: chat
                """)
        let results = try await ResultsCollector(prefix: config.prefix)
        let running = RunningService(try config.load())
        #expect(await running.waitUntilConsuming())
        let publisher = TestPublisher(connection: results.connection, exchange: "\(config.prefix).events")

        try await publisher.publish(
            """
            {"id": "dbg", "app": "chat", "debug": true, "exclude_tokens": ["fcm-me"], "notification": {"title": "Traced"},
             "targets": [{"provider": "apns", "token": "\(Self.apnsToken)"}, {"provider": "fcm", "token": "\(Self.fcmToken)"},
                         {"provider": "fcm", "token": "fcm-me"}]}
            """)
        try await publisher.publish(
            #"{"id": "by-route", "provider": "fcm", "token": "\#(Self.fcmToken)", "notification": {"body": "x"}}"#,
            routingKey: "support.ticket")
        // Refused before any request: its delivery record has the outcome and no exchange.
        try await publisher.publish(
            #"{"id": "too-big", "app": "chat", "debug": true, "provider": "apns", "token": "\#(Self.apnsToken)", "data": {"blob": "\#(String(repeating: "x", count: 5000))"}}"#
        )
        try await publisher.publish(
            #"{"id": "plain", "app": "chat", "provider": "apns", "token": "\#(Self.apnsToken)", "notification": {"body": "x"}}"#
        )

        let expectedOutcomes: Set<String> = ["dbg/apns", "dbg/fcm", "by-route/fcm", "too-big/apns", "plain/apns"]
        #expect(
            await results.wait { got in
                Set(got.map { "\($0.outcome.eventID)/\($0.outcome.provider?.rawValue ?? "-")" }).isSuperset(
                    of: expectedOutcomes)
            })
        let expectedTraces: Set<String> = [
            "dbg debug.route.chat", "dbg debug.apns.chat", "dbg debug.fcm.chat",
            "by-route debug.route.chat", "by-route debug.fcm.chat",
            "too-big debug.route.chat", "too-big debug.apns.chat",
        ]
        func traceKeys() -> Set<String> {
            Set(results.traces.map { "\($0.record["event_id"]?.stringValue ?? "-") \($0.routingKey)" })
        }
        #expect(await results.wait { _ in traceKeys().isSuperset(of: expectedTraces) })
        // Exactly those: one record each, and none for the event that did not ask.
        #expect(traceKeys() == expectedTraces)
        #expect(results.traces.count == expectedTraces.count)

        func trace(_ eventID: String, _ key: String) throws -> JSONObject {
            try #require(
                results.traces.first { $0.record["event_id"]?.stringValue == eventID && $0.routingKey == key }?.record)
        }
        // The routing decision: which rule matched, what it changed, what became of each target.
        let route = try trace("dbg", "debug.route.chat")
        #expect(route["routing_key"] == "chat.message")
        let entries = try #require(route["targets"]?.arrayValue)
        #expect(entries.map { $0["result"]?.stringValue ?? "-" } == ["send", "send", "excluded"])
        #expect(entries[0]["rule"] == "default")
        #expect(entries[0]["token"] == .string(LogValue.mask(token: Self.apnsToken)))
        let byRoute = try trace("by-route", "debug.route.chat")
        #expect(byRoute["routing_key"] == "support.ticket")
        #expect(byRoute["targets"]?[0]?["rule"] == "trace-support")
        #expect(byRoute["targets"]?[0]?["set"] == ["debug": true])
        #expect(byRoute["targets"]?[0]?["app"] == "chat")

        // Per target: the request as sent and the provider's answer.
        let apns = try trace("dbg", "debug.apns.chat")
        #expect(apns["outcome"]?["status"] == "delivered")
        let apnsExchange = try #require(apns["exchanges"]?[0])
        #expect(apnsExchange["request"]?["method"] == "POST")
        #expect(
            apnsExchange["request"]?["url"]
                == .string(simulator.baseURL + "/3/device/" + LogValue.mask(token: Self.apnsToken)))
        #expect(apnsExchange["request"]?["headers"]?["authorization"] == "bearer [redacted]")
        #expect(apnsExchange["request"]?["headers"]?["apns-topic"] == "com.example.chat")
        #expect(apnsExchange["request"]?["body"]?.stringValue?.contains(#""title":"Traced""#) == true)
        #expect(apnsExchange["response"]?["status"] == 200)
        #expect(apnsExchange["response"]?["headers"]?["apns-id"] == apns["outcome"]?["provider_message_id"])
        #expect(apnsExchange["timings_ms"]?["answered"]?.doubleValue != nil)
        let fcm = try trace("dbg", "debug.fcm.chat")
        let fcmExchange = try #require(fcm["exchanges"]?[0])
        #expect(
            fcmExchange["request"]?["url"]
                == .string(simulator.baseURL + "/v1/projects/\(SimulatorHarness.project)/messages:send"))
        #expect(fcmExchange["request"]?["headers"]?["authorization"] == "Bearer [redacted]")
        #expect(fcmExchange["response"]?["status"] == 200)
        #expect(
            fcmExchange["response"]?["body"]?.stringValue?.contains("projects/\(SimulatorHarness.project)/messages/")
                == true)

        let tooBig = try trace("too-big", "debug.apns.chat")
        #expect(tooBig["outcome"]?["status"] == "failed")
        #expect(tooBig["outcome"]?["reason"]?.stringValue?.hasPrefix("PayloadTooLarge") == true)
        #expect(tooBig["exchanges"] == [])

        // No secret in any byte of any record: no JWT, no access token, no key material, no whole device token.
        let keyLines = try [simulator.apnsKeyFile, simulator.serviceAccountFile].flatMap { path in
            try String(contentsOfFile: path, encoding: .utf8)
                .split(whereSeparator: { $0 == "\n" || $0 == "\"" || $0 == "\\" })
                .map { $0.hasPrefix("n") ? String($0.dropFirst()) : String($0) }
                .filter { $0.count >= 40 && !$0.contains(" ") }
        }
        #expect(keyLines.count >= 4)
        let secrets = ["eyJ", "ya29.", Self.apnsToken, Self.fcmToken, "PRIVATE KEY"] + keyLines
        for (routingKey, _, body) in results.traces {
            let text = String(decoding: body, as: UTF8.self)
            for secret in secrets { #expect(!text.contains(secret), "\(routingKey) shows \(secret.prefix(12))…") }
        }

        try await running.stop()
        await results.close(deleting: config.queues)
    }
}
