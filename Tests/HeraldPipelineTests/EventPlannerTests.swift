import HeraldCore
import HeraldCoreTestSupport
import HeraldPipeline
import Testing

@Suite struct EventPlannerTests {
    static let apnsToken = String(repeating: "ab", count: 32)
    let now = Timestamp(seconds: 1_796_032_800)

    func planner(_ rules: [RoutingRule] = [], apps: [String: Set<Provider>] = ["chat": [.apns, .fcm], "news": [.fcm]])
        -> EventPlanner
    {
        EventPlanner(router: Router(rules: rules), apps: apps, providers: .standIns)
    }

    func incoming(
        _ json: String, key: String = "chat.message", headers: [String: String] = [:], messageID: String? = nil
    ) -> IncomingEvent {
        IncomingEvent(body: Array(json.utf8), routingKey: key, headers: headers, messageID: messageID)
    }

    @Test func everyTargetIsPlannedWithItsApp() {
        let plan = planner().plan(
            incoming(
                """
                {"id": "e1", "app": "chat", "targets": [{"provider": "apns", "token": "\(Self.apnsToken)"}, {"provider": "fcm", "topic": "news"}],
                 "notification": {"title": "Hi"}}
                """), now: now, newID: { "gen" })
        #expect(plan.outcomes.isEmpty)
        #expect(plan.deadLetterReason == nil)
        #expect(plan.sends.map(\.target.provider) == [.apns, .fcm])
        #expect(plan.sends.map(\.app) == ["chat", "chat"])
        #expect(plan.attempt == 1)
        #expect(plan.receivedAt == now)
    }

    @Test func notJSONIsRejectedWithTheMessageIDAndDeadLettered() {
        let plan = planner().plan(incoming("{nope", messageID: "amqp-1"), now: now, newID: { "gen" })
        #expect(plan.sends.isEmpty)
        #expect(plan.outcomes.count == 1)
        #expect(plan.outcomes[0].status == .rejected)
        #expect(plan.outcomes[0].eventID == "amqp-1")
        #expect(plan.outcomes[0].routingKey == "rejected.unknown.unknown")
        #expect(plan.deadLetterReason == plan.outcomes[0].reason)
        #expect(plan.deadLetterReason?.hasPrefix("body: ") == true)
    }

    @Test func missingIDsAreGenerated() {
        let plan = planner().plan(incoming(#"{"app": "x", "targets": []}"#), now: now, newID: { "generated-1" })
        #expect(plan.outcomes.first?.eventID == "generated-1")
    }

    @Test func excludedTokensAreDropped() {
        let plan = planner().plan(
            incoming(
                """
                {"app": "chat", "targets": [{"provider": "fcm", "token": "sender"}, {"provider": "fcm", "token": "friend"}],
                 "exclude_tokens": ["sender"]}
                """), now: now, newID: { "g" })
        #expect(plan.sends.map(\.target.address) == [.token("friend")])
        #expect(plan.outcomes.map(\.status) == [.dropped])
        #expect(plan.outcomes[0].reason == "token is in exclude_tokens")
        #expect(plan.outcomes[0].address == .token("sender"))
    }

    /// A FID listed in `exclude_tokens` drops its FID target, the reason
    /// naming the field; a FID target is routed by its provider like any other.
    @Test func fidTargetsAreExcludedAsListedAndRoutedByProvider() {
        let rules = [RoutingRule(name: "android-to-news", match: RouteMatch(fields: [.provider: ["fcm"]]), app: "news")]
        let plan = planner(rules).plan(
            incoming(
                """
                {"app": "chat", "targets": [{"provider": "fcm", "fid": "cR1Zm2QmSSmvP3bqAbcDef"}, {"provider": "android", "fid": "eUx0ZzQ3LTY"}],
                 "exclude_tokens": ["cR1Zm2QmSSmvP3bqAbcDef"]}
                """), now: now, newID: { "g" })
        #expect(plan.outcomes.map(\.status) == [.dropped])
        #expect(plan.outcomes[0].reason == "fid is in exclude_tokens")
        #expect(plan.outcomes[0].address == .fid("cR1Zm2QmSSmvP3bqAbcDef"))
        #expect(plan.sends.map(\.target.address) == [.fid("eUx0ZzQ3LTY")])
        #expect(plan.sends.map(\.app) == ["news"])
    }

    @Test func excludedAPNsTokensMatchWhateverTheirCaseButFCMTokensMatchExactly() {
        let upper = Self.apnsToken.uppercased()
        let plan = planner().plan(
            incoming(
                """
                {"app": "chat", "targets": [{"provider": "apns", "token": "\(Self.apnsToken)"}, {"provider": "fcm", "token": "Sender"},
                                            {"provider": "fcm", "token": "sender"}],
                 "exclude_tokens": ["\(upper)", "sender"]}
                """), now: now, newID: { "g" })
        #expect(plan.outcomes.map(\.address) == [.token(Self.apnsToken), .token("sender")])
        #expect(plan.outcomes.map(\.status) == [.dropped, .dropped])
        #expect(plan.sends.map(\.target.address) == [.token("Sender")])
    }

    @Test func aPartlyRefusedEventDeadLettersOnlyTheRefusedTargets() {
        let plan = planner().plan(
            incoming(
                """
                {"app": "news", "targets": [{"provider": "apns", "token": "\(Self.apnsToken)"}, {"provider": "fcm", "token": "t"}]}
                """), now: now, newID: { "g" })
        #expect(plan.deadLetterTargets == [Target(provider: .apns, address: .token(Self.apnsToken))])
        let whole = planner().plan(incoming(#"{"targets": []}"#), now: now, newID: { "g" })
        #expect(whole.deadLetterReason == "targets: is empty; give at least one target")
        #expect(whole.deadLetterTargets.isEmpty)
    }

    @Test func routesDropAndChooseApps() {
        let rules = [
            RoutingRule(
                name: "no-apns-marketing",
                match: RouteMatch(routingKeys: [TopicPattern("marketing.#")], fields: [.provider: ["apns"]]),
                drop: "marketing goes to Android only"),
            RoutingRule(name: "news", match: RouteMatch(routingKeys: [TopicPattern("marketing.#")]), app: "news"),
        ]
        let plan = planner(rules).plan(
            incoming(
                """
                {"targets": [{"provider": "apns", "token": "\(Self.apnsToken)"}, {"provider": "fcm", "token": "t"}]}
                """, key: "marketing.fr"), now: now, newID: { "g" })
        #expect(plan.outcomes.map(\.status) == [.dropped])
        #expect(plan.outcomes[0].reason == "dropped by route 'no-apns-marketing': marketing goes to Android only")
        #expect(plan.sends.count == 1)
        #expect(plan.sends[0].app == "news")
        #expect(plan.sends[0].rule == "news")
        #expect(plan.sends[0].event.app == "news")
    }

    @Test func unknownAppAndMissingCredentialsAreRejectedAndDeadLettered() {
        let plan = planner().plan(
            incoming(
                """
                {"app": "chta", "targets": [{"provider": "fcm", "token": "t"}]}
                """), now: now, newID: { "g" })
        #expect(plan.outcomes.map(\.status) == [.rejected])
        #expect(plan.outcomes[0].reason == "unknown app 'chta' (did you mean 'chat'?)")
        #expect(plan.deadLetterReason == "unknown app 'chta' (did you mean 'chat'?)")

        let noAPNs = planner().plan(
            incoming(
                """
                {"app": "news", "targets": [{"provider": "apns", "token": "\(Self.apnsToken)"}, {"provider": "fcm", "token": "t"}]}
                """), now: now, newID: { "g" })
        #expect(noAPNs.outcomes.map(\.reason) == ["app 'news' has no apns credentials"])
        #expect(noAPNs.sends.count == 1)

        let noApp = planner().plan(
            incoming(#"{"targets": [{"provider": "fcm", "token": "t"}]}"#), now: now, newID: { "g" })
        #expect(noApp.outcomes.map(\.reason) == ["no app: the event names none and no route chose one"])
    }

    @Test func ttlCountsFromFirstReceiptAcrossRetries() {
        let body = #"{"app": "chat", "ttl": 60, "targets": [{"provider": "fcm", "token": "t"}]}"#
        let firstSeen = now + .seconds(-61)
        let retry = incoming(
            body,
            headers: [HeraldHeader.attempt: "3", HeraldHeader.receivedAt: String(firstSeen.millisecondsSinceEpoch)])
        let plan = planner().plan(retry, now: now, newID: { "g" })
        #expect(plan.attempt == 3)
        #expect(plan.receivedAt == firstSeen)
        #expect(plan.outcomes.map(\.status) == [.expired])
        #expect(plan.outcomes[0].attempt == 3)
        #expect(plan.sends.isEmpty)
        // The same retry within its ttl is sent, expiring 60 s after the first receipt, not after now.
        let firstReceipt = now + .seconds(-30)
        let fresh = incoming(
            body,
            headers: [HeraldHeader.attempt: "3", HeraldHeader.receivedAt: String(firstReceipt.millisecondsSinceEpoch)])
        let sends = planner().plan(fresh, now: now, newID: { "g" }).sends
        #expect(sends.count == 1)
        #expect(sends.first?.event.expiry == .at(firstReceipt + .seconds(60)))
    }

    /// Any publisher can set Herald's retry headers: what they claim is bounded.
    @Test func forgedRetryHeadersAreBounded() {
        let body = #"{"app": "chat", "ttl": 60, "targets": [{"provider": "fcm", "token": "t"}]}"#
        func plan(_ headers: [String: String]) -> EventPlan {
            planner().plan(incoming(body, headers: headers), now: now, newID: { "g" })
        }
        // A receipt time on a first attempt is ignored: the ttl counts from now.
        let first = plan([HeraldHeader.receivedAt: String((now + .seconds(-3600)).millisecondsSinceEpoch)])
        #expect(first.attempt == 1)
        #expect(first.receivedAt == now)
        #expect(first.sends.count == 1)
        // The most negative and most positive times neither trap nor expire the event wrongly.
        for forged in [Int64.min, Int64.max, -1] {
            let retry = plan([HeraldHeader.attempt: "2", HeraldHeader.receivedAt: String(forged)])
            #expect(retry.receivedAt <= now)
            #expect(retry.receivedAt >= now + .seconds(-600), "\(forged)")  // attempt 2: one retry, at most the longest tier
        }
        // In the future: now.
        #expect(plan([HeraldHeader.attempt: "2", HeraldHeader.receivedAt: String(Int64.max)]).receivedAt == now)
        // The attempt is at most max_attempts (5 here), even from Int.max, whose successor would overflow.
        let huge = plan([HeraldHeader.attempt: String(Int.max)])
        #expect(huge.attempt == 5)
        #expect(huge.sends.count == 1)
        #expect(
            RetryPolicy(maxAttempts: 5, delays: [.seconds(5)]).decision(afterFailedAttempt: huge.attempt) == .exhausted)
        #expect(plan([HeraldHeader.attempt: "-7"]).attempt == 1)
        #expect(plan([HeraldHeader.attempt: "two"]).attempt == 1)
    }

    @Test func aRouteTTLDecidesExpiry() {
        let rules = [RoutingRule(name: "long", set: EventOverrides(ttl: 86400))]
        let body = #"{"app": "chat", "ttl": 1, "targets": [{"provider": "fcm", "token": "t"}]}"#
        let retry = incoming(
            body,
            headers: [
                HeraldHeader.attempt: "2",
                HeraldHeader.receivedAt: String((now + .seconds(-60)).millisecondsSinceEpoch),
            ])
        #expect(planner(rules).plan(retry, now: now, newID: { "g" }).sends.count == 1)
        #expect(planner().plan(retry, now: now, newID: { "g" }).outcomes.map(\.status) == [.expired])
    }

    @Test func ttlZeroStaysNowOrNever() {
        let plan = planner().plan(
            incoming(#"{"app": "chat", "ttl": 0, "targets": [{"provider": "fcm", "token": "t"}]}"#),
            now: now, newID: { "g" })
        #expect(plan.sends.first?.event.expiry == .ttl(seconds: 0))
    }

    @Test func expiresAtInThePastExpiresEveryTarget() {
        let plan = planner().plan(
            incoming(
                """
                {"app": "chat", "expires_at": "2020-01-01T00:00:00Z", "targets": [{"provider": "fcm", "token": "a"}, {"provider": "fcm", "topic": "b"}]}
                """), now: now, newID: { "g" })
        #expect(plan.outcomes.map(\.status) == [.expired, .expired])
        #expect(plan.outcomes.map(\.routingKey) == ["expired.fcm.chat", "expired.fcm.chat"])
    }

    @Test func contextIsEchoedInOutcomes() {
        let plan = planner().plan(
            incoming(
                """
                {"app": "chat", "context": {"user_id": "u-1"}, "exclude_tokens": ["a"], "targets": [{"provider": "fcm", "token": "a"}]}
                """), now: now, newID: { "g" })
        #expect(plan.outcomes.first?.context == ["user_id": "u-1"])
    }
}
