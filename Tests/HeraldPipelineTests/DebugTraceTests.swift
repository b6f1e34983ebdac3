import HeraldCore
import HeraldCoreTestSupport
import HeraldPipeline
import Testing

/// The debug trace at planning and in its records: kept only when the event
/// or a route asks, bounded, and free of secrets.
@Suite struct DebugTraceTests {
    static let apnsToken = String(repeating: "ab", count: 32)
    static let jwt = "eyJhbGciOiJFUzI1NiIsImtpZCI6IktFWTEifQ.eyJpc3MiOiJURUFNIn0.c2lnbmF0dXJl"
    let now = Timestamp(seconds: 1_796_032_800)

    func plan(_ json: String, rules: [RoutingRule] = [], key: String = "chat.message") -> EventPlan {
        EventPlanner(
            router: Router(rules: rules), apps: ["chat": [.apns, .fcm], "news": [.fcm]], providers: .standIns
        )
        .plan(IncomingEvent(body: Array(json.utf8), routingKey: key), now: now, newID: { "gen" })
    }

    func object(_ bytes: [UInt8]) throws -> JSONObject {
        try #require(try JSONValue.parse(bytes).objectValue)
    }

    @Test func anEventWithoutDebugKeepsNoTrace() {
        let plan = plan(
            #"{"id": "e1", "app": "chat", "targets": [{"provider": "fcm", "token": "a"}, {"provider": "fcm", "token": "b"}]}"#,
            rules: [RoutingRule(name: "quiet", set: EventOverrides(priority: .normal))])
        #expect(plan.routeTrace == nil)
        #expect(plan.sends.count == 2)
        #expect(plan.sends.allSatisfy { !$0.traced })
    }

    @Test func aDebugEventRecordsEveryTargetsRouting() throws {
        let rules = [
            RoutingRule(name: "no-news", match: RouteMatch(fields: [.data("kind"): ["news"]]), drop: "no news today"),
            RoutingRule(
                name: "quiet", match: RouteMatch(fields: [.provider: ["fcm"]]), set: EventOverrides(priority: .normal),
                defaults: EventOverrides(ttl: 60)),
        ]
        let plan = plan(
            """
            {"id": "e1", "app": "chat", "debug": true, "exclude_tokens": ["me"],
             "targets": [{"provider": "apns", "token": "\(Self.apnsToken)"}, {"provider": "fcm", "token": "fcm-token-0123"},
                         {"provider": "fcm", "token": "me"}]}
            """, rules: rules, key: "chat.dm")
        let trace = try #require(plan.routeTrace)
        #expect(trace.routingKey == "chat.dm")
        #expect(trace.entries.map(\.result) == [.send, .send, .excluded])
        #expect(trace.entries.map(\.rule) == [nil, "quiet", nil])
        #expect(trace.entries[1].set == EventOverrides(priority: .normal))
        #expect(plan.sends.map(\.traced) == [true, true])

        let record = DebugTraceRecord.route(trace, plan: plan, at: now)
        #expect(record.routingKey == "debug.route.chat")
        let json = try object(record.body)
        #expect(json["trace"] == "route")
        #expect(json["event_id"] == "e1")
        #expect(json["routing_key"] == "chat.dm")
        #expect(json["at"] == "2026-11-30T10:00:00.000Z")
        let targets = try #require(json["targets"]?.arrayValue)
        #expect(targets.count == 3)
        #expect(targets[0]["token"] == "abababab…")
        #expect(targets[0]["rule"] == .null)
        #expect(targets[1]["rule"] == "quiet")
        #expect(targets[1]["set"] == ["priority": "normal"])
        #expect(targets[1]["defaults"] == ["ttl": 60])
        #expect(targets[2]["result"] == "excluded")
        // No whole device token in the record.
        #expect(!String(decoding: record.body, as: UTF8.self).contains(Self.apnsToken))
        #expect(!String(decoding: record.body, as: UTF8.self).contains("fcm-token-0123"))
    }

    @Test func aRouteSetDebugTurnsTheTraceOnForTheTargetsItMatches() throws {
        let rules = [
            RoutingRule(
                name: "trace-fcm", match: RouteMatch(fields: [.provider: ["fcm"]]), set: EventOverrides(debug: true)),
            RoutingRule(name: "drop-apns", match: RouteMatch(fields: [.provider: ["apns"]]), drop: "not today"),
        ]
        let plan = plan(
            """
            {"id": "e2", "app": "chat", "targets": [{"provider": "fcm", "token": "f1"}, {"provider": "apns", "token": "\(Self.apnsToken)"}]}
            """, rules: rules)
        let trace = try #require(plan.routeTrace)
        #expect(trace.entries.count == 1)
        #expect(trace.entries[0].rule == "trace-fcm")
        #expect(trace.entries[0].set == EventOverrides(debug: true))
        #expect(plan.sends.map(\.traced) == [true])
        #expect(plan.sends[0].event.debug)

        // A debug event's dropped target says which rule dropped it and why.
        let dropped = self.plan(
            """
            {"id": "e3", "app": "chat", "debug": true, "targets": [{"provider": "apns", "token": "\(Self.apnsToken)"}]}
            """, rules: rules)
        #expect(
            dropped.routeTrace?.entries.map(\.result) == [.dropped(reason: "dropped by route 'drop-apns': not today")])
    }

    @Test func aRecordListsAtMostItsBoundOfTargets() throws {
        let targets = (0..<150).map { #"{"provider": "fcm", "token": "t\#($0)"}"# }.joined(separator: ",")
        let plan = plan(#"{"id": "e4", "app": "chat", "debug": true, "targets": [\#(targets)]}"#)
        let trace = try #require(plan.routeTrace)
        #expect(trace.entries.count == RouteTrace.maxEntries)
        #expect(trace.omitted == 50)
        #expect(plan.sends.count(where: \.traced) == RouteTrace.maxTracedSends)
        let json = try object(DebugTraceRecord.route(trace, plan: plan, at: now).body)
        #expect(json["targets_omitted"] == 50)
        #expect(json["sends_untraced"] == 50)
    }

    @Test func aDeliveryRecordShowsTheExchangeWithoutSecretsAndWithinItsBounds() throws {
        let plan = plan(
            """
            {"id": "e5", "app": "chat", "debug": true, "targets": [{"provider": "apns", "token": "\(Self.apnsToken)"}]}
            """)
        let send = try #require(plan.sends.first)
        let recorder = DeliveryTraceRecorder(target: send.target)
        let index = recorder.sent(
            method: "POST", url: "https://api.push.apple.com/3/device/\(Self.apnsToken)",
            headers: [("authorization", "bearer \(Self.jwt)"), ("apns-push-type", "alert")],
            body: Array(#"{"aps":{}}"#.utf8))
        let huge = Array(String(repeating: "z", count: 1_000_000).utf8)
        recorder.answered(
            index, status: 400, headers: [("apns-id", "11111111-2222-3333-4444-555555555555")], body: huge)
        var outcome = Outcome(.failed, event: send.event, target: send.target, attempt: 1, at: now)
        outcome.providerStatus = 400
        let record = DebugTraceRecord.delivery(
            DebugTraceRecord.Delivery(send: send, outcome: outcome, trace: recorder.trace), at: now)
        #expect(record.routingKey == "debug.apns.chat")
        let text = String(decoding: record.body, as: UTF8.self)
        #expect(!text.contains(Self.jwt))
        #expect(!text.contains("eyJ"))
        #expect(!text.contains(Self.apnsToken))
        #expect(record.body.count < 2 * DebugRedaction.maxBodyBytes)
        let json = try object(record.body)
        #expect(json["trace"] == "delivery")
        #expect(json["token"] == "abababab…")
        #expect(json["outcome"]?["status"] == "failed")
        #expect(json["outcome"]?["token"] == "abababab…")
        let exchange = try #require(json["exchanges"]?.arrayValue?.first)
        #expect(exchange["request"]?["headers"]?["authorization"] == "bearer [redacted]")
        #expect(exchange["request"]?["url"] == "https://api.push.apple.com/3/device/abababab…")
        #expect(exchange["response"]?["status"] == 400)
        #expect(exchange["response"]?["headers"]?["apns-id"] == "11111111-2222-3333-4444-555555555555")
        #expect(exchange["response"]?["body_truncated"] == true)
        #expect(exchange["response"]?["body_bytes"] == 1_000_000)
        #expect(exchange["response"]?["body"]?.stringValue?.utf8.count == DebugRedaction.maxBodyBytes)
        #expect(exchange["timings_ms"]?["sent"]?.doubleValue != nil)
        #expect(exchange["timings_ms"]?["answered"]?.doubleValue != nil)
    }
}
