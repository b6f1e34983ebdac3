import HeraldAMQP
import HeraldCore
import HeraldPipeline
@testable import HeraldService

/// Events, plans and work for the event path's unit tests (no broker, no provider).
enum DeliveryFixture {
    static let now = Timestamp(seconds: 1_796_032_800)
    static let planner = EventPlanner(router: Router(rules: []), apps: ["chat": [.fcm]], providers: .registered)
    /// The policy `record` decides by; the topology has a delay queue for each of its jitter slots.
    static let retryPolicy = RetryPolicy(maxAttempts: 3, delays: [.seconds(5), .seconds(30)])
    static let topology = TopologyOptions(
        prefix: "unit", retryTiers: retryPolicy.queueDelays.map { RetryTier(delay: $0) })

    static func delivery(_ body: String, redelivered: Bool = false) -> AMQPDelivery {
        AMQPDelivery(
            body: Array(body.utf8), exchange: "unit.events", routingKey: "chat.message",
            redelivered: redelivered, tag: DeliveryTag(value: 1, connection: 0), consumerTag: "test",
            properties: AMQPProperties())
    }

    static func plan(_ delivery: AMQPDelivery) -> EventPlan {
        planner.plan(EventProcessor.incoming(delivery, topology: topology), now: now, newID: { "generated" })
    }

    static func work(_ plan: EventPlan, redelivered: Bool = false) -> DeliveryWork {
        DeliveryWork(plan: plan, redelivered: redelivered, budget: planner.limits.maxContextFanoutBytes)
    }

    /// Two FCM targets, `a` and `b`, of event `id`.
    static func twoTargets(_ id: String) -> String {
        #"{"id": "\#(id)", "app": "chat", "targets": "#
            + #"[{"provider": "fcm", "token": "a"}, {"provider": "fcm", "token": "b"}]}"#
    }

    /// Records a `delivered` answer for each send of `work`.
    static func deliverAll(_ work: inout DeliveryWork) {
        for send in work.plan.sends { record(.result(DeliveryResult(.delivered)), for: send, into: &work) }
    }

    /// A page of `count` devices of channel `room` of the event of `plan`, planned as `ChannelExpander` plans one.
    static func page(of plan: EventPlan, delivery: AMQPDelivery, devices count: Int) throws -> DeliveryWork {
        guard let event = plan.event else { throw FixtureError.noEvent }
        let devices = (0..<count).map { Target(provider: .fcm, address: .token("device-\($0)"), channel: "room") }
        var pagePlan = plan.emptied
        planner.plan(
            devices, of: event, EventProcessor.incoming(delivery, topology: topology),
            excluded: event.excluded(providers: planner.providers), at: now, into: &pagePlan)
        return work(pagePlan)
    }

    enum FixtureError: Error { case noEvent }

    /// Records `answer` for `send` as `TargetSender` does, with `policy`.
    static func record(
        _ answer: ProviderAnswer, for send: EventPlan.Send, into work: inout DeliveryWork,
        policy: RetryPolicy = DeliveryFixture.retryPolicy
    ) {
        work.record(answer, for: send, attempt: work.plan.attempt, policy: policy, invalidationGuard: nil, at: now)
    }
}
