import HeraldAMQP
import HeraldCore
import HeraldObservability
import HeraldPipeline
import HeraldRegistry

/// Carries one event from the queue to its outcomes: plan it, deliver each
/// target through its app's provider, then publish — and have the broker
/// confirm — every outcome, the retry message and the dead letter, and only
/// then say the delivery may be acked.
///
/// - Important: Nothing is lost. If any publish fails, the answer is
///   `.requeue`: the broker redelivers the event; targets this instance
///   already handled are not sent again, and what came of them is published
///   again (`DeliveredTargets`).
final class EventProcessor: Sendable {
    /// What to do with the AMQP delivery once processing is over.
    enum Verdict: Sendable, Equatable {
        case ack
        case requeue(reason: String)
        /// Settle without requeue: the events queue dead-letters it (`x-dead-letter-exchange`).
        case reject(reason: String)
    }

    let planner: EventPlanner
    let providers: ProviderSet
    let retryPolicy: RetryPolicy
    let publishStatuses: Set<Outcome.Status>
    let topology: TopologyOptions
    let connection: AMQPConnection
    let delivered: DeliveredTargets
    let invalidationGuard: InvalidationGuard?
    /// The device registry channel targets expand through and dead tokens are removed from; nil: none configured.
    let registry: (any RegistryStore)?
    let metrics: HeraldMetrics
    let logger: Logger
    let clock: @Sendable () -> Timestamp
    let newID: @Sendable () -> String
    let routingKeyClasses = RoutingKeyClasses()
    let inFlight = EventsInFlight()
    let series: PipelineSeries
    /// Rates, throttles and provider pauses (docs/traffic.md); nil: none.
    let traffic: TrafficControl?
    /// Event ids received within `duplicate_window`; nil: no duplicate check.
    let duplicates: DuplicateWindow?

    init(planner: EventPlanner, providers: ProviderSet, retryPolicy: RetryPolicy, publishStatuses: Set<Outcome.Status>,
         topology: TopologyOptions, connection: AMQPConnection, delivered: DeliveredTargets,
         invalidationGuard: InvalidationGuard?, registry: (any RegistryStore)? = nil, metrics: HeraldMetrics, logger: Logger,
         clock: @escaping @Sendable () -> Timestamp, newID: @escaping @Sendable () -> String,
         traffic: TrafficControl? = nil, duplicates: DuplicateWindow? = nil) {
        self.traffic = traffic
        self.duplicates = duplicates
        self.planner = planner
        self.providers = providers
        self.retryPolicy = retryPolicy
        self.publishStatuses = publishStatuses
        self.topology = topology
        self.connection = connection
        self.delivered = delivered
        self.invalidationGuard = invalidationGuard
        self.registry = registry
        self.metrics = metrics
        self.series = PipelineSeries(metrics: metrics, apps: planner.apps.keys)
        self.logger = logger
        self.clock = clock
        self.newID = newID
    }

    /// Plans and delivers `delivery`, publishes what came of it, and calls
    /// `finish` with the verdict once the broker has settled every message —
    /// on the AMQP connection's thread (see `AMQPConnection.publish(_:mandatory:whenSettled:)`):
    /// no task waits for the confirms, and the ack `finish` queues leaves in
    /// the same turn of that thread.
    func process(_ delivery: AMQPDelivery, finish: @escaping @Sendable (Verdict) -> Void) async {
        let (work, stopped) = await prepare(delivery)
        let key = EventsInFlight.key(work.plan)
        let done: @Sendable (Verdict) -> Void = { [inFlight] verdict in
            if let key { inFlight.leave(key) }
            finish(verdict)
        }
        if let stopped { return done(.requeue(reason: stopped.reason)) }
        await publish(work, delivery: delivery, finish: done)
    }

    /// `process(_:finish:)` for a caller that waits for the verdict.
    func process(_ delivery: AMQPDelivery) async -> Verdict {
        await withCheckedContinuation { continuation in
            Task { await self.process(delivery) { continuation.resume(returning: $0) } }
        }
    }

    /// Why a channel expansion stopped before its end: the event is requeued.
    struct ExpansionStopped: Error {
        let reason: String
    }

    /// Every target of `delivery` sent (or refused), as the work to publish;
    /// channel targets expanded and their devices' outcomes already published
    /// page by page.
    private func prepare(_ delivery: AMQPDelivery) async -> (DeliveryWork, ExpansionStopped?) {
        var work = await deliver(delivery)
        guard let registry else { return (work, nil) }
        if !work.plan.expansions.isEmpty {
            let expander = ChannelExpander(processor: self, registry: registry, delivery: delivery)
            if let stopped = await expander.expand(work) {
                logger.warning("event not settled: expanding its channels stopped; the broker will redeliver it",
                               ["event_id": .string(work.plan.event?.id ?? ""), "error": .string(stopped.reason)])
                // Not at once: a registry that is down would be asked again in a loop.
                try? await Task.sleep(for: ChannelExpander.retryPause)
                return (work, stopped)
            }
        }
        await prune(&work, registry: registry)
        return (work, nil)
    }

    /// Every target of `delivery` but its channels sent (or refused), as the work to publish.
    private func deliver(_ delivery: AMQPDelivery) async -> DeliveryWork {
        // Planning and message building are synchronous and kept out of line, so
        // their locals need not live in this task's async frame (one per event in
        // flight); measured, the effect on peak RSS at prefetch 1024 is within noise.
        let plan = plan(delivery)
        // The event's own delivery may still be in flight (its connection was
        // lost): what it did is known once it is over.
        if let key = EventsInFlight.key(plan) {
            if delivery.redelivered { await inFlight.waitUntilIdle(key) }
            inFlight.enter(key)
        }
        if !delivery.redelivered, DeadLetterReplay.replays(of: delivery) == 0, let duplicate = await duplicate(plan) {
            return duplicate
        }
        let (sends, remembered) = unhandled(plan.sends, of: plan, redelivered: delivery.redelivered)
        var work = DeliveryWork(plan: plan, redelivered: delivery.redelivered, budget: planner.limits.maxContextFanoutBytes)
        for result in remembered { work.add(result) }
        if registry == nil {
            for expansion in plan.expansions { work.add(decided: Self.unexpanded(expansion, of: plan, at: clock())) }
        }
        await deliver(sends, into: &work)
        return work
    }

    /// The work of an event whose app and id were received within
    /// `duplicate_window`: each target `dropped` as a duplicate, nothing sent,
    /// expanded or dead-lettered again. Nil for any other event, whose app
    /// and id are claimed now. Called for first deliveries only: a redelivery
    /// is the same message again (its ack may have been lost), which
    /// `DeliveredTargets` handles; retries (attempt > 1) and replayed dead
    /// letters (`x-herald-replays`) are never duplicates, and claim nothing.
    private func duplicate(_ plan: EventPlan) async -> DeliveryWork? {
        guard let duplicates, plan.attempt == 1, let event = plan.event else { return nil }
        let key = EventKey(app: event.app, id: event.id)
        guard let at = await duplicates.claim(key, at: clock()) else { return nil }
        metrics.duplicateEvents.labels().increment()
        var plan = plan
        let expansions = plan.expansions
        plan.expansions = []
        plan.deadLetterReason = nil
        plan.deadLetterTargets = []
        var work = DeliveryWork(plan: plan, redelivered: false, budget: planner.limits.maxContextFanoutBytes)
        let reason = "duplicate event: id \(key) was first received at \(at) (duplicate_window)"
        let now = clock()
        for send in plan.sends {
            work.record(.dropped(reason), for: send, attempt: plan.attempt, policy: retryPolicy, invalidationGuard: nil, at: now)
        }
        for expansion in expansions {
            work.add(decided: Self.outcome(of: expansion, in: plan, status: .dropped, reason: reason, at: now))
        }
        return work
    }

    /// Sends `sends` (concurrently) and records each answer in `work`.
    func deliver(_ sends: [EventPlan.Send], into work: inout DeliveryWork) async {
        let plan = work.plan
        if sends.count == 1, let send = sends.first {
            // One target (the common case): no child task to create and keep.
            let trace = Self.recorder(for: send)
            work.record(await deliver(send, attempt: plan.attempt, trace: trace), for: send, attempt: plan.attempt,
                        policy: retryPolicy, invalidationGuard: invalidationGuard, at: clock(), trace: trace)
        } else {
            await withTaskGroup(of: (EventPlan.Send, ProviderAnswer, DeliveryTraceRecorder?).self) { group in
                // The first target is delivered by this task itself, the others
                // by child tasks meanwhile: one task fewer to create and schedule.
                for send in sends.dropFirst() {
                    group.addTask {
                        let trace = Self.recorder(for: send)
                        return (send, await self.deliver(send, attempt: plan.attempt, trace: trace), trace)
                    }
                }
                if let first = sends.first {
                    let trace = Self.recorder(for: first)
                    work.record(await deliver(first, attempt: plan.attempt, trace: trace), for: first, attempt: plan.attempt,
                                policy: retryPolicy, invalidationGuard: invalidationGuard, at: clock(), trace: trace)
                }
                for await (send, answer, trace) in group {
                    work.record(answer, for: send, attempt: plan.attempt, policy: retryPolicy,
                                invalidationGuard: invalidationGuard, at: clock(), trace: trace)
                }
            }
        }
    }

    /// Removes from the registry every device an `invalid_token` outcome of
    /// `work` is about (every channel of its app), and says so in the outcome.
    /// A failure to remove is logged; the outcome still tells upstream.
    func prune(_ work: inout DeliveryWork, registry: any RegistryStore) async {
        for index in work.results.indices where work.results[index].outcome.status == .invalidToken {
            let outcome = work.results[index].outcome
            guard !outcome.unregistered, let app = outcome.app, let provider = outcome.provider,
                  planner.providers.registrableProviders.contains(provider), let address = outcome.address, address.isDevice else { continue }
            let device = DeviceKey(app: app, provider: provider, address: address)
            let started = ContinuousClock.now
            do {
                let change = try await registry.unregisterDevice(device)
                metrics.registryOperations.labels("prune", "ok").increment()
                metrics.registryOperationDuration.labels("prune").observe(ContinuousClock.now - started)
                if case .removed = change {
                    work.results[index].outcome.unregistered = true
                    metrics.registryPrunes.labels(provider.rawValue, app).increment()
                }
            } catch {
                metrics.registryOperations.labels("prune", "error").increment()
                logger.warning("a dead device could not be removed from the registry", [
                    "event_id": .string(outcome.eventID), "app": .string(app), "provider": .string(provider.rawValue),
                    "token": .token(address.value), "error": .string("\(error)"),
                ])
            }
        }
    }

    /// Outcomes encoded and published per batch: a large event's outcomes
    /// are encoded a batch at a time, each batch confirmed before the next is
    /// encoded, so the bytes waiting to be written stay bounded.
    static let outcomeBatchSize = 1000

    /// Publishes outcomes, retries and dead letters: the outcomes in batches
    /// of ``outcomeBatchSize``, the last of them with the retries and dead
    /// letters. Once all are settled, remembers the handled targets as
    /// confirmed and counts the outcomes (only then: a failed batch means the
    /// broker redelivers the event, and the results are kept for that
    /// redelivery) and calls `finish` — on the connection's thread.
    private func publish(_ work: DeliveryWork, delivery: AMQPDelivery, finish: @escaping @Sendable (Verdict) -> Void) async {
        publishTraces(of: work, delivery: delivery)
        var outcomes = work.outcomes.lazy.filter { self.publishStatuses.contains($0.status) }.makeIterator()
        var batch = outcomeMessages(&outcomes)
        while true {
            let next = outcomeMessages(&outcomes)
            if next.isEmpty { break }
            do {
                try await connection.publish(batch)
            } catch {
                return settled(work, delivery: delivery, failure: error as? AMQPError
                                   ?? AMQPError(.connectionLost, operation: "basic.publish", detail: "\(error)", isRetryable: true),
                               finish: finish)
            }
            batch = next
        }
        connection.publish(batch + messages(for: work, delivery: delivery, outcomes: false)) { [self] failure in
            settled(work, delivery: delivery, failure: failure, finish: finish)
        }
    }

    /// What comes of an event's publishing: acked once every message was
    /// confirmed; dead-lettered when AMQP cannot carry one; else requeued,
    /// its results kept for the redelivery.
    private func settled(_ work: DeliveryWork, delivery: AMQPDelivery, failure: AMQPError?,
                         finish: @escaping @Sendable (Verdict) -> Void) {
        let eventID = work.plan.event?.id
        if let failure {
            if failure.code == .invalidMessage {
                return deadLetter(delivery, eventID: eventID, because: failure, finish: finish)
            }
            if let eventID {
                delivered.keepUnconfirmed(eventID: eventID, attempt: work.plan.attempt, results: work.results)
            }
            logger.warning("event not settled: publishing its outcomes failed; the broker will redeliver it",
                           ["event_id": .string(eventID ?? delivery.messageID ?? ""), "error": .string("\(failure)")])
            return finish(.requeue(reason: "\(failure)"))
        }
        if let eventID {
            delivered.confirm(eventID: eventID, attempt: work.plan.attempt, targets: work.results.lazy.map(\.target))
        }
        count(work)
        // Log lines are written on the pool: a slow log sink must never hold
        // up the connection thread (heartbeats, confirms, acks).
        if work.outcomes.contains(where: { Self.isLogged($0.status) }) {
            Task { self.logUndelivered(work) }
        }
        finish(.ack)
    }

    /// A message of the event's batch could not be carried by AMQP at all:
    /// redelivering would fail the same way forever, so the event goes to the
    /// dead-letter queue with the reason, and the delivery is acked once the
    /// broker has it. When the dead letter cannot be carried either (the
    /// event's own headers leave no room for the reason), it goes without the
    /// event's headers; should even that be refused, the delivery is rejected
    /// without requeue, which the events queue dead-letters itself.
    private func deadLetter(_ delivery: AMQPDelivery, eventID: String?, because failure: AMQPError,
                            finish: @escaping @Sendable (Verdict) -> Void) {
        let reason = "an outcome or retry of this event could not be published: \(failure.detail)"
        logger.error("event dead-lettered: AMQP cannot carry a message it produced",
                     ["event_id": .string(eventID ?? delivery.messageID ?? ""), "error": .string("\(failure)")])
        let full = RetryRouting.deadLetterMessage(for: delivery, error: reason, topology: topology)
        var bare = full
        bare.properties.headers = RetryRouting.deadLetterHeaders(
            error: reason + "; the event's own headers were dropped to make room", exchange: delivery.exchange, at: .now())
        // All but its replay count, which bounds how often `herald dead replay` sends it round again.
        bare.properties.headers[HeraldHeader.replays] = delivery.headers[HeraldHeader.replays]
        publishDeadLetter([full, bare][...], reason: reason, finish: finish)
    }

    /// Publishes the first of `candidates` AMQP can carry, then acks; rejects when none can be.
    private func publishDeadLetter(_ candidates: ArraySlice<AMQPMessage>, reason: String,
                                   finish: @escaping @Sendable (Verdict) -> Void) {
        guard let message = candidates.first else { return finish(.reject(reason: reason)) }
        connection.publish([message]) { [self] failure in
            switch failure {
            case nil:
                metrics.deadLettered.labels("unpublishable").increment()
                finish(.ack)
            case let failure? where failure.code == .invalidMessage:
                publishDeadLetter(candidates.dropFirst(), reason: reason, finish: finish)
            case let failure?:
                finish(.requeue(reason: "\(failure)"))
            }
        }
    }

    /// Decodes and plans `delivery`.
    @inline(never)
    private func plan(_ delivery: AMQPDelivery) -> EventPlan {
        metrics.eventsConsumed.labels(routingKeyClasses.label(for: delivery.routingKey)).increment()
        return planner.plan(Self.incoming(delivery, topology: topology), now: clock(), newID: newID)
    }

    /// `delivery` as the planner sees it; its publisher is the one the broker
    /// vouches for (`AMQPDelivery.publisher(herald:)`).
    static func incoming(_ delivery: AMQPDelivery, topology: TopologyOptions) -> IncomingEvent {
        IncomingEvent(body: delivery.body, routingKey: delivery.routingKey, headers: delivery.headers.stringValues,
                      messageID: delivery.messageID, redelivered: delivery.redelivered,
                      userID: delivery.publisher(herald: topology.userID))
    }

    /// Of `sends`, those still to make, and the results remembered for the
    /// others whose publishing failed: on a redelivery, no target this
    /// instance already handled is sent again.
    func unhandled(_ sends: [EventPlan.Send], of plan: EventPlan, redelivered: Bool) -> ([EventPlan.Send], [TargetResult]) {
        guard redelivered else { return (sends, []) }
        var left: [EventPlan.Send] = []
        var remembered: [TargetResult] = []
        for send in sends {
            switch delivered.memory(eventID: send.event.id, attempt: plan.attempt, target: send.target) {
            case .unknown: left.append(send)
            case .confirmed: break
            case .unconfirmed(let result): remembered.append(result)
            }
        }
        if left.count < sends.count {
            logger.info("redelivered event: not sending again the targets already handled", [
                "event_id": .string(plan.event?.id ?? ""), "confirmed": .int(sends.count - left.count - remembered.count),
                "published_again": .int(remembered.count),
            ])
        }
        return (left, remembered)
    }

    /// A recorder for a target whose event asked for a debug trace; nil (nothing allocated) for every other.
    static func recorder(for send: EventPlan.Send) -> DeliveryTraceRecorder? {
        send.traced ? DeliveryTraceRecorder(target: send.target) : nil
    }

    private func deliver(_ send: EventPlan.Send, attempt: Int, trace: DeliveryTraceRecorder?) async -> ProviderAnswer {
        let provider: AnyPushProvider
        switch providers.provider(app: send.app, for: send.target) {
        case .success(let found): provider = found
        case .failure(let unavailable): return .unavailable(unavailable.reason)
        }
        var notification: PreparedNotification<AnyPushProvider.Request>
        do {
            notification = try provider.prepare(send.event, for: send.target)
        } catch {
            return .rejected(error)
        }
        notification.trace = trace
        guard let traffic else { return await self.send(notification, through: provider, of: send, attempt: attempt) }
        if let answer = await traffic.admit(send) { return answer }
        let answer = await self.send(notification, through: provider, of: send, attempt: attempt)
        traffic.observe(answer, of: send)
        return answer
    }

    /// Sends a prepared notification: the answer, after sending again (at most
    /// `timeout_retries` times) a request whose answer was lost.
    private func send(
        _ notification: PreparedNotification<AnyPushProvider.Request>, through provider: AnyPushProvider, of send: EventPlan.Send, attempt: Int
    ) async -> ProviderAnswer {
        let providerSeries = series.provider(send.target.provider)
        providerSeries.inflightRequests.increment()
        defer { providerSeries.inflightRequests.decrement() }
        // A request whose answer was lost is sent again as it was (same apns-id) before the retry policy takes over.
        var resendsLeft = providers.timeoutRetries(app: send.app)
        while true {
            do {
                let result = try await provider.send(notification, attempt: attempt)
                if let latency = result.latency { providerSeries.requestDuration.observe(latency) }
                return .result(result)
            } catch {
                if let latency = error.latency { providerSeries.requestDuration.observe(latency) }
                guard error.answerLost, resendsLeft > 0 else { return .failure(error) }
                resendsLeft -= 1
                metrics.timeoutRetries.labels(send.target.provider.rawValue, send.app).increment()
            }
        }
    }

    /// The messages of the next at most ``outcomeBatchSize`` outcomes of `outcomes`.
    func outcomeMessages(_ outcomes: inout some IteratorProtocol<Outcome>) -> [AMQPMessage] {
        var messages: [AMQPMessage] = []
        while messages.count < Self.outcomeBatchSize, let outcome = outcomes.next() { messages.append(message(for: outcome)) }
        return messages
    }

    /// The message of one outcome, for the results exchange.
    func message(for outcome: Outcome) -> AMQPMessage {
        topology.resultMessage(routingKey: outcome.routingKey, body: outcome.encoded, answering: outcome.eventID)
    }

    /// Every message one event's processing publishes: outcomes (unless
    /// `outcomes` is false), retries, dead letters.
    @inline(never)
    func messages(for work: DeliveryWork, delivery: AMQPDelivery, outcomes: Bool = true) -> [AMQPMessage] {
        var messages: [AMQPMessage] = []
        if outcomes {
            for outcome in work.outcomes where publishStatuses.contains(outcome.status) { messages.append(message(for: outcome)) }
        }
        let eventID = work.plan.event?.id ?? delivery.messageID ?? ""
        let receivedAt = Int64(work.plan.receivedAt.millisecondsSinceEpoch)
        for (delay, targets) in work.retries.sorted(by: { $0.key < $1.key }) {
            guard let tier = topology.retryTiers.first(where: { $0.delay == delay }) ?? topology.retryTiers.last,
                  let body = RetryBody.make(original: delivery.body, eventID: eventID, targets: targets, providers: planner.providers)
            else { continue }
            let attempt = work.plan.attempt + 1
            var message = RetryRouting.retryMessage(for: delivery, tier: tier, attempt: attempt, topology: topology)
            message.body = body
            message.properties.messageID = eventID
            message.properties.headers[HeraldHeader.receivedAt] = .int(receivedAt)
            messages.append(message)
        }
        if let reason = work.plan.deadLetterReason {
            var message = RetryRouting.deadLetterMessage(for: delivery, error: reason, topology: topology)
            // Only the refused targets: replaying the dead letter must not notify the others again.
            if !work.plan.deadLetterTargets.isEmpty,
               let body = RetryBody.make(original: delivery.body, eventID: eventID, targets: work.plan.deadLetterTargets, providers: planner.providers) {
                message.body = body
            }
            messages.append(message)
        }
        if !work.exhausted.isEmpty,
           let body = RetryBody.make(original: delivery.body, eventID: eventID, targets: work.exhausted.map(\.target), providers: planner.providers) {
            let reasons = work.exhausted.map { "\($0.target.provider) \($0.target.address.field): \($0.reason)" }
            var message = RetryRouting.deadLetterMessage(
                for: delivery, error: "retries exhausted after \(work.plan.attempt) attempts: " + reasons.joined(separator: "; "),
                topology: topology)
            message.body = body
            messages.append(message)
        }
        return messages
    }

    /// Publishes the debug trace records of `work` (docs/debug-trace.md): its
    /// route record, then one delivery record per traced target. They go out
    /// on the event's connection just before its batch of outcomes and are
    /// confirmed like them, but as a batch of their own: a record the broker
    /// refuses is logged and never holds up, requeues or dead-letters the event.
    func publishTraces(of work: DeliveryWork, delivery: AMQPDelivery) {
        guard work.plan.routeTrace != nil || !work.traces.isEmpty else { return }
        let eventID = work.plan.event?.id ?? delivery.messageID ?? ""
        let now = clock()
        var records: [DebugTraceRecord] = []
        if let route = work.plan.routeTrace { records.append(DebugTraceRecord.route(route, plan: work.plan, at: now)) }
        for traced in work.traces { records.append(DebugTraceRecord.delivery(traced, at: now)) }
        let messages = records.map { record in
            var properties = AMQPProperties()
            properties.contentType = "application/json"
            properties.messageID = eventID
            return AMQPMessage(exchange: topology.resultsExchange, routingKey: record.routingKey, body: record.body,
                               properties: properties)
        }
        connection.publish(messages) { [logger] failure in
            guard let failure else { return }
            // Off the connection's thread, as every log line of a settlement.
            Task {
                logger.warning("debug trace records not published; the event is not affected",
                               ["event_id": .string(eventID), "error": .string("\(failure)")])
            }
        }
    }

    /// Counts an event's outcomes, retries and dead letters (metrics only: cheap, lock-free or briefly locked).
    func count(_ work: DeliveryWork) {
        for outcome in work.outcomes {
            series.notifications(provider: outcome.provider, app: outcome.app, status: outcome.status).increment()
            if publishStatuses.contains(outcome.status) { series.published(outcome.status).increment() }
            if outcome.status == .retrying {
                metrics.retries.labels(outcome.provider?.rawValue ?? "unknown", outcome.app ?? "unknown").increment()
            }
        }
        if work.plan.deadLetterReason != nil { metrics.deadLettered.labels("rejected").increment() }
        if !work.exhausted.isEmpty { metrics.deadLettered.labels("retries_exhausted").increment() }
    }

    /// The outcome of a channel target when Herald has no registry to expand it with.
    static func unexpanded(_ expansion: EventPlan.Expansion, of plan: EventPlan, at now: Timestamp) -> Outcome {
        outcome(of: expansion, in: plan, status: .failed,
                reason: "no registry: channel targets need a registry: section in the config (docs/registry.md)", at: now)
    }

    /// The one outcome of a channel target decided without expanding it.
    static func outcome(of expansion: EventPlan.Expansion, in plan: EventPlan, status: Outcome.Status, reason: String,
                        at now: Timestamp) -> Outcome {
        var outcome = Outcome(status: status, eventID: plan.event?.id ?? "", app: expansion.app, reason: reason,
                              attempt: plan.attempt, at: now, context: plan.event?.context.map { .object($0) })
        outcome.channel = expansion.target.channel
        return outcome
    }

    /// Statuses that get a warning line each.
    static func isLogged(_ status: Outcome.Status) -> Bool {
        switch status {
        case .failed, .invalidToken, .rejected, .retrying: true
        case .delivered, .expired, .dropped: false
        }
    }

    func logUndelivered(_ work: DeliveryWork) {
        for outcome in work.outcomes where Self.isLogged(outcome.status) {
            let line = logger.with([
                "event_id": .string(outcome.eventID), "app": .string(outcome.app ?? "unknown"),
                "provider": .string(outcome.provider?.rawValue ?? "unknown"),
                "token": .token(outcome.address?.value ?? ""), "status": .string(outcome.status.rawValue),
                "reason": .string(outcome.reason ?? ""), "attempt": .int(outcome.attempt),
            ])
            if let detail = outcome.detail {
                line.warning("notification not delivered", ["detail": .string(detail)])
            } else {
                line.warning("notification not delivered")
            }
        }
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
