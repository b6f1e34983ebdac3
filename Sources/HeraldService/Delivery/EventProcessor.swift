import HeraldAMQP
import HeraldCore
import HeraldObservability
import HeraldPipeline
import HeraldRegistry

/// Carries one event from the queue to its settlement: plan it, send its
/// targets (`TargetSender`), expand its channels a page at a time
/// (`ChannelExpander`), prune the dead devices (`DevicePruner`), then publish
/// — and have the broker confirm — every outcome, retry and dead letter
/// (`WorkSettlement`), and only then say the delivery may be acked.
///
/// - Important: Nothing is lost. If any publish fails, the answer is
///   `.requeue`: the broker redelivers the event; targets this instance
///   already handled are not sent again, and what came of them is published
///   again (`DeliveredTargets`).
final class EventProcessor: Sendable {
    /// What an event processor is built from.
    struct Dependencies: Sendable {
        var planner: EventPlanner
        var providers: ProviderSet
        var retryPolicy: RetryPolicy
        var publishStatuses: Set<Outcome.Status>
        var topology: TopologyOptions
        var publisher: any ConfirmedPublishing
        /// What this instance sent and published per event: a redelivery sends nothing twice.
        var delivered = DeliveredTargets()
        var invalidationGuard: InvalidationGuard?
        /// The device registry channel targets expand through and dead tokens are removed from; nil: none configured.
        var registry: (any RegistryStore)?
        /// Rates, throttles and provider pauses (docs/traffic.md); nil: none.
        var traffic: TrafficControl?
        /// Event ids received within `duplicate_window`; nil: no duplicate check.
        var duplicates: DuplicateWindow?
        var metrics: HeraldMetrics
        var logger: Logger
        var clock: @Sendable () -> Timestamp = { Timestamp.now() }
        var newID: @Sendable () -> String
    }

    let dependencies: Dependencies
    private let sender: TargetSender
    private let settlement: WorkSettlement
    /// Expands channels and prunes dead devices; nil without a registry.
    private let expander: ChannelExpander?
    private let inFlight = EventsInFlight()
    private let routingKeyClasses = RoutingKeyClasses()

    init(_ dependencies: Dependencies) {
        self.dependencies = dependencies
        let series = PipelineSeries(metrics: dependencies.metrics, apps: dependencies.planner.apps.keys)
        let sender = TargetSender(
            providers: dependencies.providers, traffic: dependencies.traffic, retryPolicy: dependencies.retryPolicy,
            invalidationGuard: dependencies.invalidationGuard, series: series, metrics: dependencies.metrics,
            clock: dependencies.clock)
        let settlement = WorkSettlement(
            publisher: dependencies.publisher,
            builder: MessageBuilder(
                topology: dependencies.topology, publishStatuses: dependencies.publishStatuses,
                providers: dependencies.planner.providers),
            delivered: dependencies.delivered, series: series, metrics: dependencies.metrics,
            logger: dependencies.logger, clock: dependencies.clock)
        self.sender = sender
        self.settlement = settlement
        expander = dependencies.registry.map { registry in
            ChannelExpander(
                planner: dependencies.planner, sender: sender, settlement: settlement,
                pruner: DevicePruner(
                    registry: registry,
                    registrableProviders: Set(dependencies.planner.providers.registrableProviders),
                    metrics: dependencies.metrics, logger: dependencies.logger),
                delivered: dependencies.delivered, topology: dependencies.topology, metrics: dependencies.metrics,
                logger: dependencies.logger, clock: dependencies.clock)
        }
    }

    /// Plans and delivers `delivery`, publishes what came of it, and calls
    /// `finish` with the verdict once the broker has settled every message —
    /// on the AMQP connection's thread (see `WorkSettlement`).
    func process(_ delivery: AMQPDelivery, finish: @escaping @Sendable (DeliveryVerdict) -> Void) async {
        let plan = plan(delivery)
        // The event's own delivery may still be in flight (its connection was
        // lost): what it did is known once it is over.
        let key = EventsInFlight.key(plan)
        if let key {
            if delivery.redelivered { await inFlight.waitUntilIdle(key) }
            inFlight.enter(key)
        }
        let finish: @Sendable (DeliveryVerdict) -> Void = { [inFlight] verdict in
            if let key { inFlight.leave(key) }
            finish(verdict)
        }
        var work = await deliver(plan, of: delivery)
        if let expander, let stopped = await expandAndPrune(&work, with: expander, of: delivery) {
            return finish(.requeue(reason: stopped))
        }
        await settlement.settle(work, of: delivery, finish: finish)
    }

    /// Expands `work`'s channels and prunes its dead devices: nil, or why
    /// the expansion stopped (after a pause). A function of its own, out of
    /// line, so the frame of an event without a registry does not carry it.
    @inline(never)
    private func expandAndPrune(
        _ work: inout DeliveryWork, with expander: ChannelExpander, of delivery: AMQPDelivery
    ) async -> String? {
        if !work.plan.expansions.isEmpty, let stopped = await expander.expand(work, of: delivery) {
            logStoppedExpanding(work, stopped)
            // Not at once: a registry that is down would be asked again in a loop.
            try? await Task.sleep(for: ChannelExpander.retryPause)
            return stopped.reason
        }
        await expander.pruner.prune(&work)
        return nil
    }

    @inline(never)
    private func logStoppedExpanding(_ work: DeliveryWork, _ stopped: ChannelExpander.Stopped) {
        dependencies.logger.warning(
            "event not settled: expanding its channels stopped; the broker will redeliver it",
            ["event_id": .string(work.plan.event?.id ?? ""), "error": .string(stopped.reason)])
    }

    /// `process(_:finish:)` for a caller that waits for the verdict.
    func process(_ delivery: AMQPDelivery) async -> DeliveryVerdict {
        await withCheckedContinuation { continuation in
            Task { await self.process(delivery) { continuation.resume(returning: $0) } }
        }
    }

    /// Decodes and plans `delivery`. Synchronous and kept out of line, so its
    /// locals need not live in the event task's async frame (one per event in
    /// flight; docs/architecture.md, "What an event in flight costs").
    @inline(never)
    private func plan(_ delivery: AMQPDelivery) -> EventPlan {
        dependencies.metrics.eventsConsumed.labels(routingKeyClasses.label(for: delivery.routingKey)).increment()
        return dependencies.planner.plan(
            Self.incoming(delivery, topology: dependencies.topology),
            now: dependencies.clock(), newID: dependencies.newID)
    }

    /// `delivery` as the planner sees it; its publisher is the one the broker
    /// vouches for (`AMQPDelivery.publisher(herald:)`).
    static func incoming(_ delivery: AMQPDelivery, topology: TopologyOptions) -> IncomingEvent {
        IncomingEvent(
            body: delivery.body, routingKey: delivery.routingKey, headers: delivery.headers.stringValues,
            messageID: delivery.messageID, redelivered: delivery.redelivered,
            userID: delivery.publisher(herald: topology.userID))
    }

    /// Every target of `plan` but its channels sent (or refused), as the work to publish.
    private func deliver(_ plan: EventPlan, of delivery: AMQPDelivery) async -> DeliveryWork {
        if Self.isFirstDelivery(delivery), let duplicate = await duplicate(plan) {
            return duplicate
        }
        var (work, sends) = start(plan, of: delivery)
        await sender.deliver(sends, into: &work)
        return work
    }

    /// Neither a redelivery nor a replayed dead letter: a delivery the duplicate window may claim.
    @inline(never)
    private static func isFirstDelivery(_ delivery: AMQPDelivery) -> Bool {
        !delivery.redelivered && DeadLetterReplay.replays(of: delivery) == 0
    }

    /// The work of `plan` before any target is sent — its decided outcomes,
    /// the results a redelivery remembers — and the targets still to send.
    /// Synchronous and out of line, like `plan(_:)`.
    @inline(never)
    private func start(_ plan: EventPlan, of delivery: AMQPDelivery) -> (DeliveryWork, [EventPlan.Send]) {
        let (sends, remembered) = dependencies.delivered.unhandled(
            plan.sends, of: plan, redelivered: delivery.redelivered, logger: dependencies.logger)
        var work = DeliveryWork(
            plan: plan, redelivered: delivery.redelivered,
            budget: dependencies.planner.limits.maxContextFanoutBytes)
        for result in remembered { work.add(result) }
        if expander == nil {
            for expansion in plan.expansions {
                work.add(decided: Self.unexpanded(expansion, of: plan, at: dependencies.clock()))
            }
        }
        return (work, sends)
    }

    /// The work of an event whose app and id were received within
    /// `duplicate_window`: each target `dropped` as a duplicate, nothing sent,
    /// expanded or dead-lettered again. Nil for any other event, whose app
    /// and id are claimed now. Called for first deliveries only: a redelivery
    /// is the same message again (its ack may have been lost), which
    /// `DeliveredTargets` handles; retries (attempt > 1) and replayed dead
    /// letters (`x-herald-replays`) are never duplicates, and claim nothing.
    private func duplicate(_ plan: EventPlan) async -> DeliveryWork? {
        guard let duplicates = dependencies.duplicates, plan.attempt == 1, let event = plan.event else { return nil }
        let key = EventKey(app: event.app, id: event.id)
        guard let at = await duplicates.claim(key, at: dependencies.clock()) else { return nil }
        return duplicateWork(plan, key: key, firstReceived: at)
    }

    /// The work of a duplicate event (`duplicate(_:)`); out of line, like `plan(_:)`.
    @inline(never)
    private func duplicateWork(_ plan: EventPlan, key: EventKey, firstReceived at: Timestamp) -> DeliveryWork {
        dependencies.metrics.duplicateEvents.labels().increment()
        var plan = plan
        let expansions = plan.expansions
        plan.expansions = []
        plan.deadLetterReason = nil
        plan.deadLetterTargets = []
        var work = DeliveryWork(
            plan: plan, redelivered: false,
            budget: dependencies.planner.limits.maxContextFanoutBytes)
        let reason = "duplicate event: id \(key) was first received at \(at) (duplicate_window)"
        let now = dependencies.clock()
        for send in plan.sends {
            work.record(
                .dropped(reason), for: send, attempt: plan.attempt, policy: dependencies.retryPolicy,
                invalidationGuard: nil, at: now)
        }
        for expansion in expansions {
            work.add(decided: Self.outcome(of: expansion, in: plan, status: .dropped, reason: reason, at: now))
        }
        return work
    }

    /// The outcome of a channel target when Herald has no registry to expand it with.
    static func unexpanded(_ expansion: EventPlan.Expansion, of plan: EventPlan, at now: Timestamp) -> Outcome {
        outcome(
            of: expansion, in: plan, status: .failed,
            reason: "no registry: channel targets need a registry: section in the config (docs/registry.md)", at: now)
    }

    /// The one outcome of a channel target decided without expanding it.
    static func outcome(
        of expansion: EventPlan.Expansion, in plan: EventPlan, status: Outcome.Status, reason: String,
        at now: Timestamp
    ) -> Outcome {
        var outcome = Outcome(
            status: status, eventID: plan.event?.id ?? "", app: expansion.app, reason: reason,
            attempt: plan.attempt, at: now, context: plan.event?.context.map { .object($0) })
        outcome.channel = expansion.target.channel
        return outcome
    }
}

extension DeliveredTargets {
    /// Of `sends`, those still to make, and the results remembered for the
    /// others whose publishing failed: on a redelivery, no target this
    /// instance already handled is sent again.
    func unhandled(
        _ sends: [EventPlan.Send], of plan: EventPlan, redelivered: Bool,
        logger: Logger
    ) -> ([EventPlan.Send], [TargetResult]) {
        guard redelivered else { return (sends, []) }
        var left: [EventPlan.Send] = []
        var remembered: [TargetResult] = []
        for send in sends {
            switch memory(eventID: send.event.id, attempt: plan.attempt, target: send.target) {
            case .unknown: left.append(send)
            case .confirmed: break
            case .unconfirmed(let result): remembered.append(result)
            }
        }
        if left.count < sends.count {
            logger.info(
                "redelivered event: not sending again the targets already handled",
                [
                    "event_id": .string(plan.event?.id ?? ""),
                    "confirmed": .int(sends.count - left.count - remembered.count),
                    "published_again": .int(remembered.count),
                ])
        }
        return (left, remembered)
    }
}

extension AMQPTable {
    /// Header values as strings, for routing rules and Herald's own headers.
    var stringValues: [String: String] {
        var out: [String: String] = [:]
        for (key, value) in self {
            switch value {
            case .string(let s): out[key] = s
            case .int(let i): out[key] = String(i)
            case .bool(let b): out[key] = b ? "true" : "false"
            case .double(let d): out[key] = String(d)
            case .bytes(let b): out[key] = String(decoding: b, as: UTF8.self)
            default: break
            }
        }
        return out
    }
}
