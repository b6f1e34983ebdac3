import HeraldCore
import HeraldCoreTestSupport
import HeraldPipeline
import Testing

/// An app that lists its events publishers takes events from those AMQP
/// users only, by the `user-id` the broker verified; the app is known per
/// target (a route may choose it), so the check is per target.
@Suite struct PublisherPlanningTests {
    let now = Timestamp(seconds: 1_796_032_800)
    let planner = EventPlanner(
        router: Router(rules: [
            RoutingRule(name: "news", match: RouteMatch(routingKeys: [TopicPattern("news.#")]), app: "news")
        ]),
        apps: ["chat": [.fcm], "news": [.fcm]], providers: .standIns,
        publishers: ["chat": ["orders-svc", "herald"]])

    func plan(_ json: String, key: String = "chat.message", userID: String?) -> EventPlan {
        planner.plan(IncomingEvent(body: Array(json.utf8), routingKey: key, userID: userID), now: now, newID: { "gen" })
    }

    @Test func aListedPublisherIsDelivered() {
        let planned = plan(
            #"{"id": "e1", "app": "chat", "provider": "fcm", "token": "t-1", "data": {"k": "v"}}"#, userID: "orders-svc"
        )
        #expect(planned.outcomes.isEmpty)
        #expect(planned.sends.map(\.app) == ["chat"])
    }

    @Test func anotherPublisherIsRejectedNamingTheRule() {
        let planned = plan(
            #"{"id": "e1", "app": "chat", "targets": [{"provider": "fcm", "token": "t-1"}, {"channel": "user:42"}], "data": {"k": "v"}}"#,
            userID: "mallory")
        #expect(planned.sends.isEmpty)
        #expect(planned.expansions.isEmpty)
        #expect(planned.outcomes.map(\.status) == [.rejected, .rejected])
        #expect(
            planned.outcomes.map(\.reason)
                == Array(
                    repeating: #"publisher "mallory" (AMQP user-id) is not an events publisher of app 'chat'"#, count: 2
                ))
        #expect(planned.outcomes.map(\.channel) == [nil, "user:42"])
        #expect(planned.outcomes.map(\.routingKey) == ["rejected.fcm.chat", "rejected.unknown.chat"])
        #expect(planned.deadLetterReason?.contains("is not an events publisher of app 'chat'") == true)
    }

    @Test func noUserIDIsRejectedLikeAWrongOne() {
        let planned = plan(
            #"{"id": "e1", "app": "chat", "provider": "fcm", "token": "t-1", "data": {"k": "v"}}"#, userID: nil)
        #expect(planned.outcomes.map(\.status) == [.rejected])
        #expect(
            planned.outcomes.first?.reason
                == "no AMQP user-id: app 'chat' takes events only from its publishers, and the message does not say who sent it"
        )
    }

    /// An app without a list takes anyone's events, also when a route picks it.
    @Test func anAppWithoutAListIsOpen() {
        let planned = plan(
            #"{"id": "e1", "provider": "fcm", "token": "t-1", "data": {"k": "v"}}"#, key: "news.sport",
            userID: "mallory")
        #expect(planned.outcomes.isEmpty)
        #expect(planned.sends.map(\.app) == ["news"])
    }
}
