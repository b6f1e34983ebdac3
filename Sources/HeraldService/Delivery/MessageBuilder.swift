import HeraldAMQP
import HeraldCore
import HeraldPipeline

/// The AMQP messages a finished piece of work publishes — an event's
/// targets, or one page of a channel's devices: its outcomes (those of the
/// statuses `outcomes.publish` names), a retry per delay tier, the dead
/// letter of its refused targets and that of its exhausted retries, and its
/// debug-trace records. Pure: the same work, delivery and time give the same
/// messages, so it is tested without a broker.
struct MessageBuilder: Sendable {
    /// Outcomes encoded and published per batch: a large event's outcomes
    /// are encoded a batch at a time, each batch confirmed before the next is
    /// encoded, so the bytes waiting to be written stay bounded.
    static let outcomeBatchSize = 1000

    let topology: TopologyOptions
    let publishStatuses: Set<Outcome.Status>
    /// Writes the targets of retry and dead-letter bodies.
    let providers: ProviderCatalog

    /// Everything one piece of work publishes, in publishing order.
    struct Messages {
        /// Debug-trace records (docs/debug-trace.md): a batch of their own,
        /// published first; a refused one never holds up the work.
        var traces: [AMQPMessage]
        /// The outcomes, in batches of at most ``MessageBuilder/outcomeBatchSize``, encoded as they are read.
        var outcomes: OutcomeBatches
        /// Retries and dead letters: published with the last batch of outcomes.
        var tail: [AMQPMessage]
    }

    /// The messages of `work`, which came of `delivery`, built at `now`.
    func messages(for work: DeliveryWork, delivery: AMQPDelivery, at now: Timestamp) -> Messages {
        Messages(
            traces: traces(of: work, delivery: delivery, at: now),
            outcomes: OutcomeBatches(outcomes: work.outcomes, builder: self),
            tail: retriesAndDeadLetters(of: work, delivery: delivery, at: now))
    }

    /// An event's outcomes, a batch at a time.
    struct OutcomeBatches: Sequence, IteratorProtocol {
        var outcomes: DeliveryWork.Outcomes
        let builder: MessageBuilder

        /// The messages of the next at most ``MessageBuilder/outcomeBatchSize`` published outcomes; nil after the last.
        /// Out of line: it is called from an async function, whose frame would otherwise hold its locals.
        @inline(never)
        mutating func next() -> [AMQPMessage]? {
            var batch: [AMQPMessage] = []
            while batch.count < MessageBuilder.outcomeBatchSize, let outcome = outcomes.next() {
                if builder.publishStatuses.contains(outcome.status) { batch.append(builder.message(for: outcome)) }
            }
            return batch.isEmpty ? nil : batch
        }
    }

    /// The message of one outcome, for the results exchange.
    func message(for outcome: Outcome) -> AMQPMessage {
        topology.resultMessage(routingKey: outcome.routingKey, body: outcome.encoded, answering: outcome.eventID)
    }

    /// A retry per delay tier, the dead letter of the plan's refused targets
    /// and that of the targets out of attempts. The original body is parsed
    /// once for all of them, and only when one is needed.
    @inline(never)
    func retriesAndDeadLetters(of work: DeliveryWork, delivery: AMQPDelivery, at now: Timestamp) -> [AMQPMessage] {
        let plan = work.plan
        guard !work.retries.isEmpty || plan.deadLetterReason != nil || !work.exhausted.isEmpty else { return [] }
        var messages: [AMQPMessage] = []
        let eventID = plan.event?.id ?? delivery.messageID ?? ""
        let rewritten = !work.retries.isEmpty || !plan.deadLetterTargets.isEmpty || !work.exhausted.isEmpty
        let original = rewritten ? RetryBody(original: delivery.body, providers: providers) : nil
        for (delay, targets) in work.retries.sorted(by: { $0.key < $1.key }) {
            guard let tier = topology.retryTiers.first(where: { $0.delay == delay }) ?? topology.retryTiers.last,
                let original
            else { continue }
            var message = RetryRouting.retryMessage(
                for: delivery, tier: tier, attempt: plan.attempt + 1,
                topology: topology)
            message.body = original.body(eventID: eventID, targets: targets)
            message.properties.messageID = eventID
            message.properties.headers[HeraldHeader.receivedAt] = .int(Int64(plan.receivedAt.millisecondsSinceEpoch))
            messages.append(message)
        }
        if let reason = plan.deadLetterReason {
            var message = RetryRouting.deadLetterMessage(for: delivery, error: reason, topology: topology, at: now)
            // Only the refused targets: replaying the dead letter must not notify the others again.
            if !plan.deadLetterTargets.isEmpty, let original {
                message.body = original.body(eventID: eventID, targets: plan.deadLetterTargets)
            }
            messages.append(message)
        }
        if !work.exhausted.isEmpty, let original {
            let reasons = work.exhausted.map { "\($0.target.provider) \($0.target.address.field): \($0.reason)" }
            let error = "retries exhausted after \(plan.attempt) attempts: " + reasons.joined(separator: "; ")
            var message = RetryRouting.deadLetterMessage(for: delivery, error: error, topology: topology, at: now)
            message.body = original.body(eventID: eventID, targets: work.exhausted.map(\.target))
            messages.append(message)
        }
        return messages
    }

    /// The debug trace records of `work` (docs/debug-trace.md): its route
    /// record, then one delivery record per traced target.
    func traces(of work: DeliveryWork, delivery: AMQPDelivery, at now: Timestamp) -> [AMQPMessage] {
        guard work.plan.routeTrace != nil || !work.traces.isEmpty else { return [] }
        let eventID = work.plan.event?.id ?? delivery.messageID ?? ""
        var records: [DebugTraceRecord] = []
        if let route = work.plan.routeTrace { records.append(DebugTraceRecord.route(route, plan: work.plan, at: now)) }
        for traced in work.traces { records.append(DebugTraceRecord.delivery(traced, at: now)) }
        return records.map { record in
            var properties = AMQPProperties()
            properties.contentType = "application/json"
            properties.messageID = eventID
            return AMQPMessage(
                exchange: topology.resultsExchange, routingKey: record.routingKey, body: record.body,
                properties: properties)
        }
    }

    /// The dead letters to try, in order, for an event one of whose messages
    /// AMQP cannot carry (`AMQPError.Code.invalidMessage`): the event with its
    /// headers and the reason, then — should its own headers leave no room for
    /// the reason — the event without them (but its replay count, which
    /// bounds how often `herald dead replay` sends it round again).
    func unpublishableDeadLetters(for delivery: AMQPDelivery, reason: String, at now: Timestamp) -> [AMQPMessage] {
        let full = RetryRouting.deadLetterMessage(for: delivery, error: reason, topology: topology, at: now)
        var bare = full
        bare.properties.headers = RetryRouting.deadLetterHeaders(
            error: reason + "; the event's own headers were dropped to make room", exchange: delivery.exchange, at: now)
        bare.properties.headers[HeraldHeader.replays] = delivery.headers[HeraldHeader.replays]
        return [full, bare]
    }
}
