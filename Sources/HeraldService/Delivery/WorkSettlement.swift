import HeraldAMQP
import HeraldCore
import HeraldObservability
import HeraldPipeline

/// What to do with an AMQP delivery once its processing is over.
enum DeliveryVerdict: Sendable, Equatable {
    case ack
    case requeue(reason: String)
    /// Settle without requeue: the events queue dead-letters it (`x-dead-letter-exchange`).
    case reject(reason: String)
}

/// A connection that publishes a batch of messages and says when the broker
/// has settled (confirmed or refused) every one of them: what a
/// ``WorkSettlement`` needs of `AMQPConnection`, so it is tested without a broker.
protocol ConfirmedPublishing: Sendable {
    /// Publishes `messages` in this order and calls `whenSettled` once every
    /// one is settled, with the first failure or nil — on the connection's
    /// thread, so it must be quick (`AMQPConnection.publish(_:mandatory:whenSettled:)`).
    func publish(_ messages: [AMQPMessage], mandatory: Bool, whenSettled: @escaping @Sendable (AMQPError?) -> Void)
}

extension AMQPConnection: ConfirmedPublishing {}

/// Publishes what a finished piece of work produced — an event's targets or
/// one page of a channel's devices alike — and settles it once the broker
/// has confirmed every message: the handled targets are remembered as
/// confirmed (`DeliveredTargets`), the outcomes counted and the undelivered
/// logged. When a message is not confirmed, nothing is counted and the
/// results are kept for the redelivery, which publishes them again instead
/// of notifying anyone twice.
///
/// The outcomes go in batches of ``MessageBuilder/outcomeBatchSize``, each
/// confirmed before the next is encoded; the last carries the retries and
/// dead letters. The debug-trace records go first, as a batch of their own.
///
/// A class: the event task's frames and the settle callbacks hold a
/// reference to it, not a copy of its settings (docs/architecture.md, "What an event in flight costs").
final class WorkSettlement: Sendable {
    let publisher: any ConfirmedPublishing
    let builder: MessageBuilder
    let delivered: DeliveredTargets
    let series: PipelineSeries
    let metrics: HeraldMetrics
    let logger: Logger
    let clock: @Sendable () -> Timestamp

    init(
        publisher: any ConfirmedPublishing, builder: MessageBuilder, delivered: DeliveredTargets,
        series: PipelineSeries, metrics: HeraldMetrics, logger: Logger, clock: @escaping @Sendable () -> Timestamp
    ) {
        self.publisher = publisher
        self.builder = builder
        self.delivered = delivered
        self.series = series
        self.metrics = metrics
        self.logger = logger
        self.clock = clock
    }

    /// Settles an event's own work, then calls `finish` with the verdict — on
    /// the connection's thread: no task waits for the confirms, and the ack
    /// `finish` queues leaves in the same turn of that thread. A failed
    /// publish requeues the event; a message AMQP cannot carry dead-letters it.
    func settle(
        _ work: DeliveryWork, of delivery: AMQPDelivery,
        finish: @escaping @Sendable (DeliveryVerdict) -> Void
    ) async {
        await publish(work, of: delivery) { [self] failure in
            guard let failure else { return finish(.ack) }
            let eventID = work.plan.event?.id ?? delivery.messageID ?? ""
            if failure.code == .invalidMessage {
                return deadLetter(delivery, eventID: eventID, because: failure, finish: finish)
            }
            logger.warning(
                "event not settled: publishing its outcomes failed; the broker will redeliver it",
                ["event_id": .string(eventID), "error": .string("\(failure)")])
            finish(.requeue(reason: "\(failure)"))
        }
    }

    /// Settles one page of a channel's devices: nil once it is confirmed,
    /// else the failure (the expansion stops and the event is redelivered).
    func settle(page work: DeliveryWork, of delivery: AMQPDelivery) async -> AMQPError? {
        let failure: AMQPError?
        switch await publishAllButLastBatch(of: work, delivery: delivery) {
        case .success(let last): failure = await published(last)
        case .failure(let stopped): failure = stopped
        }
        record(work, failure: failure)
        return failure
    }

    /// Publishes `work`'s messages, records what came of them and calls
    /// `settled` with the first failure or nil, on the connection's thread.
    private func publish(
        _ work: DeliveryWork, of delivery: AMQPDelivery,
        settled: @escaping @Sendable (AMQPError?) -> Void
    ) async {
        switch await publishAllButLastBatch(of: work, delivery: delivery) {
        case .success(let last):
            publisher.publish(last, mandatory: false) { [self] failure in
                record(work, failure: failure)
                settled(failure)
            }
        case .failure(let failure):
            record(work, failure: failure)
            settled(failure)
        }
    }

    /// Publishes `work`'s debug-trace records and every batch of its outcomes
    /// but the last, each confirmed before the next is encoded: the last
    /// batch, with the retries and dead letters, still to publish — or the
    /// failure that stopped it.
    private func publishAllButLastBatch(
        of work: DeliveryWork,
        delivery: AMQPDelivery
    ) async -> Result<[AMQPMessage], AMQPError> {
        let messages = startPublishing(work, of: delivery)
        var batches = messages.outcomes
        var batch = batches.next() ?? []
        while let next = batches.next() {
            if let failure = await published(batch) { return .failure(failure) }
            batch = next
        }
        return .success(batch + messages.tail)
    }

    /// `work`'s messages, its debug-trace records already handed to the
    /// connection. Synchronous and out of line: its locals stay off the
    /// event task's async frame (docs/architecture.md, "What an event in flight costs").
    @inline(never)
    private func startPublishing(_ work: DeliveryWork, of delivery: AMQPDelivery) -> MessageBuilder.Messages {
        let messages = builder.messages(for: work, delivery: delivery, at: clock())
        publishTraces(messages.traces, eventID: work.plan.event?.id ?? delivery.messageID ?? "")
        return messages
    }

    /// `batch` published and settled: nil, or its first failure.
    private func published(_ batch: [AMQPMessage]) async -> AMQPError? {
        guard !batch.isEmpty else { return nil }
        return await withCheckedContinuation { continuation in
            publisher.publish(batch, mandatory: false) { continuation.resume(returning: $0) }
        }
    }

    /// Remembers `work`'s targets as confirmed and counts its outcomes — or,
    /// after a `failure`, keeps its results for the redelivery.
    private func record(_ work: DeliveryWork, failure: AMQPError?) {
        let eventID = work.plan.event?.id
        if failure != nil {
            if let eventID {
                delivered.keepUnconfirmed(eventID: eventID, attempt: work.plan.attempt, results: work.results)
            }
            return
        }
        if let eventID {
            delivered.confirm(eventID: eventID, attempt: work.plan.attempt, targets: work.results.lazy.map(\.target))
        }
        count(work)
        // Log lines are written on the pool: a slow log sink must never hold
        // up the connection thread (heartbeats, confirms, acks).
        if work.outcomes.contains(where: { Self.isLogged($0.status) }) {
            Task { logUndelivered(work) }
        }
    }

    /// Publishes debug-trace records: confirmed like the outcomes, but a
    /// record the broker refuses is logged and never holds up, requeues or
    /// dead-letters the event.
    private func publishTraces(_ traces: [AMQPMessage], eventID: String) {
        guard !traces.isEmpty else { return }
        publisher.publish(traces, mandatory: false) { [logger] failure in
            guard let failure else { return }
            // Off the connection's thread, as every log line of a settlement.
            Task {
                logger.warning(
                    "debug trace records not published; the event is not affected",
                    ["event_id": .string(eventID), "error": .string("\(failure)")])
            }
        }
    }

    /// A message of the event's batch could not be carried by AMQP at all:
    /// redelivering would fail the same way forever, so the event goes to the
    /// dead-letter queue with the reason, and the delivery is acked once the
    /// broker has it. When the dead letter cannot be carried either (the
    /// event's own headers leave no room for the reason), it goes without the
    /// event's headers; should even that be refused, the delivery is rejected
    /// without requeue, which the events queue dead-letters itself.
    private func deadLetter(
        _ delivery: AMQPDelivery, eventID: String, because failure: AMQPError,
        finish: @escaping @Sendable (DeliveryVerdict) -> Void
    ) {
        let reason = "an outcome or retry of this event could not be published: \(failure.detail)"
        logger.error(
            "event dead-lettered: AMQP cannot carry a message it produced",
            ["event_id": .string(eventID), "error": .string("\(failure)")])
        let candidates = builder.unpublishableDeadLetters(for: delivery, reason: reason, at: clock())
        publishDeadLetter(candidates[...], reason: reason, finish: finish)
    }

    /// Publishes the first of `candidates` AMQP can carry, then acks; rejects when none can be.
    private func publishDeadLetter(
        _ candidates: ArraySlice<AMQPMessage>, reason: String,
        finish: @escaping @Sendable (DeliveryVerdict) -> Void
    ) {
        guard let message = candidates.first else { return finish(.reject(reason: reason)) }
        publisher.publish([message], mandatory: false) { [self] failure in
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

    /// Counts a piece of work's outcomes, retries and dead letters (metrics
    /// only: cheap, lock-free or briefly locked).
    private func count(_ work: DeliveryWork) {
        for outcome in work.outcomes {
            series.notifications(provider: outcome.provider, app: outcome.app, status: outcome.status).increment()
            if builder.publishStatuses.contains(outcome.status) { series.published(outcome.status).increment() }
            if outcome.status == .retrying {
                metrics.retries.labels(outcome.provider?.rawValue ?? "unknown", outcome.app ?? "unknown").increment()
            }
        }
        if work.plan.deadLetterReason != nil { metrics.deadLettered.labels("rejected").increment() }
        if !work.exhausted.isEmpty { metrics.deadLettered.labels("retries_exhausted").increment() }
    }

    /// Statuses that get a warning line each.
    static func isLogged(_ status: Outcome.Status) -> Bool {
        switch status {
        case .failed, .invalidToken, .rejected, .retrying: true
        case .delivered, .expired, .dropped: false
        }
    }

    private func logUndelivered(_ work: DeliveryWork) {
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
