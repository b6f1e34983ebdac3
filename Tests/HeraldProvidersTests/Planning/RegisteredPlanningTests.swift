import HeraldAPNs
import HeraldCore
import HeraldFCM
import HeraldPipeline
import HeraldProviders
import Testing

/// Planning events whose refused targets are refused by the registered
/// providers' own rules (an APNs token that is not hexadecimal, a provider
/// that is not in the list).
@Suite struct RegisteredPlanningTests {
    let now = Timestamp(seconds: 1_796_032_800)

    func planner(_ rules: [RoutingRule] = [], apps: [String: Set<Provider>] = ["chat": [.apns, .fcm], "news": [.fcm]])
        -> EventPlanner
    {
        EventPlanner(router: Router(rules: rules), apps: apps, providers: .registered)
    }

    func incoming(
        _ json: String, key: String = "chat.message", headers: [String: String] = [:], messageID: String? = nil
    ) -> IncomingEvent {
        IncomingEvent(body: Array(json.utf8), routingKey: key, headers: headers, messageID: messageID)
    }

    @Test func invalidTargetsGetTheirOwnOutcomeWithTheRoutedApp() {
        let rules = [RoutingRule(name: "default", app: "chat")]
        let plan = planner(rules).plan(
            incoming(
                """
                {"id": "e", "targets": [{"provider": "apns", "token": "zz"}, {"provider": "fcm", "token": "ok"}, {"provider": "huawei", "token": "h"}],
                 "context": {"u": 1}}
                """), now: now, newID: { "g" })
        #expect(plan.sends.map(\.target.address) == [.token("ok")])
        #expect(plan.deadLetterReason == nil)
        #expect(plan.outcomes.map(\.routingKey) == ["invalid_token.apns.chat", "failed.unknown.unknown"])
        #expect(plan.outcomes[0].reason == "BadDeviceToken")
        #expect(plan.outcomes[0].detail == #"targets[0].token: expected a hexadecimal APNs device token, found "zz""#)
        #expect(plan.outcomes[0].context == ["u": 1])
        #expect(plan.outcomes[1].address == .token("h"))
        #expect(
            plan.outcomes[1].reason
                == #"targets[2].provider: unknown provider "huawei" (expected apns, fcm, webpush, ios or android)"#)
        #expect(
            planner(rules).problems(
                in: Array(#"{"targets": [{"provider": "apns", "token": "zz"}]}"#.utf8), routingKey: "k")
                == [#"targets[0].token: expected a hexadecimal APNs device token, found "zz""#])
    }
}
