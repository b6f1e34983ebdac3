import HeraldCore
import HeraldCoreTestSupport
import HeraldPipeline
import Testing

/// Channel targets in planning: each becomes an expansion for the service
/// (or its own failed outcome), and the devices it expands to are planned as
/// the event's own targets are.
@Suite struct ChannelPlanningTests {
    let now = Timestamp(seconds: 1_796_032_800)
    let planner = EventPlanner(router: Router(rules: []), apps: ["chat": [.apns, .fcm]], providers: .standIns)

    func incoming(_ json: String) -> IncomingEvent { IncomingEvent(body: Array(json.utf8), routingKey: "chat.message") }

    @Test func aChannelTargetBecomesAnExpansionOfTheEventsApp() {
        let plan = planner.plan(
            incoming(
                #"""
                {"id": "e", "app": "chat", "targets": [{"channel": "user:42", "providers": ["apns"]}, {"provider": "fcm", "token": "t"}]}
                """#), now: now, newID: { "g" })
        #expect(
            plan.expansions == [
                EventPlan.Expansion(target: ChannelTarget(channel: "user:42", providers: [.apns]), app: "chat")
            ])
        #expect(plan.sends.map(\.target) == [Target(provider: .fcm, address: .token("t"))])
        #expect(plan.outcomes.isEmpty)
    }

    @Test func aChannelTargetWithoutAKnownAppFailsAloneNamingTheChannel() {
        let noApp = planner.plan(
            incoming(#"{"id": "e", "targets": [{"channel": "user:42"}]}"#), now: now, newID: { "g" })
        #expect(noApp.expansions.isEmpty)
        #expect(noApp.outcomes.map(\.status) == [.failed])
        #expect(noApp.outcomes.first?.channel == "user:42")
        #expect(noApp.outcomes.first?.reason?.hasPrefix("no app: a channel target") == true)
        let unknown = planner.plan(
            incoming(#"{"id": "e", "app": "caht", "targets": [{"channel": "user:42"}]}"#), now: now, newID: { "g" })
        #expect(unknown.outcomes.first?.reason == "unknown app 'caht' (did you mean 'chat'?)")
        #expect(unknown.deadLetterReason == nil)
    }

    @Test func expandedDevicesArePlannedLikeTargetsExclusionsIncluded() throws {
        var plan = planner.plan(
            incoming(
                #"""
                {"id": "e", "app": "chat", "exclude_tokens": ["ABCD"], "targets": [{"channel": "user:42"}]}
                """#), now: now, newID: { "g" })
        let event = try #require(plan.event)
        let devices = [
            Target(provider: .apns, address: .token("abcd"), channel: "user:42"),
            Target(provider: .fcm, address: .token("f-1"), channel: "user:42"),
        ]
        planner.plan(
            devices, of: event, incoming("{}"), excluded: event.excluded(providers: .standIns), at: now, into: &plan)
        #expect(plan.sends.map(\.target) == [devices[1]])
        #expect(plan.outcomes.map(\.status) == [.dropped])
        #expect(plan.outcomes.first?.channel == "user:42")
    }

    @Test func aRetryOfAChannelDeviceGoesToThatDeviceAloneKeepingItsChannel() throws {
        let original = Array(#"{"id": "e", "app": "chat", "targets": [{"channel": "user:42"}]}"#.utf8)
        let device = Target(provider: .fcm, address: .token("f-1"), channel: "user:42")
        let body = try #require(
            RetryBody.make(original: original, eventID: "e", targets: [device], providers: .standIns))
        let retried = try Event.decode(body, fallbackID: "m", providers: .standIns)
        #expect(retried.channels.isEmpty)
        #expect(retried.targets == [device])
    }
}
