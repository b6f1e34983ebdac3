import HeraldAMQP
import HeraldCore
import HeraldObservability
import HeraldPipeline
@testable import HeraldService
import HeraldSystem
import Testing

/// A publisher that settles each batch at once, as `answer` says: what a
/// ``WorkSettlement`` sees of a broker, without one.
final class ScriptedPublisher: ConfirmedPublishing {
    let batches = Locked<[[AMQPMessage]]>([])
    private let answer: @Sendable (_ index: Int, _ batch: [AMQPMessage]) -> AMQPError?

    init(answer: @escaping @Sendable (_ index: Int, _ batch: [AMQPMessage]) -> AMQPError? = { _, _ in nil }) {
        self.answer = answer
    }

    func publish(_ messages: [AMQPMessage], mandatory: Bool, whenSettled: @escaping @Sendable (AMQPError?) -> Void) {
        let index = batches.withLock { batches in
            batches.append(messages)
            return batches.count - 1
        }
        whenSettled(messages.isEmpty ? nil : answer(index, messages))
    }

    var published: [[AMQPMessage]] { batches.withLock { $0 } }
}

@Suite struct WorkSettlementTests {
    static let lost = AMQPError(.connectionLost, operation: "basic.publish", isRetryable: true)

    let metrics = HeraldMetrics(version: "test")
    let delivered = DeliveredTargets()

    func settlement(_ publisher: ScriptedPublisher) -> WorkSettlement {
        WorkSettlement(
            publisher: publisher,
            builder: MessageBuilder(
                topology: DeliveryFixture.topology,
                publishStatuses: Set(Outcome.Status.allCases), providers: .registered),
            delivered: delivered, series: PipelineSeries(metrics: metrics, apps: ["chat"]), metrics: metrics,
            logger: Logger(label: "test", level: .error), clock: { DeliveryFixture.now })
    }

    /// An event with two targets: one delivered, one to retry.
    func work() -> (AMQPDelivery, DeliveryWork) {
        let delivery = DeliveryFixture.delivery(DeliveryFixture.twoTargets("s1"))
        let plan = DeliveryFixture.plan(delivery)
        var work = DeliveryFixture.work(plan)
        DeliveryFixture.record(.result(DeliveryResult(.delivered)), for: plan.sends[0], into: &work)
        DeliveryFixture.record(.failure(DeliveryFailure(reason: "Unavailable")), for: plan.sends[1], into: &work)
        return (delivery, work)
    }

    func verdict(
        of work: DeliveryWork, _ delivery: AMQPDelivery,
        through settlement: WorkSettlement
    ) async -> DeliveryVerdict {
        await withCheckedContinuation { continuation in
            Task { await settlement.settle(work, of: delivery) { continuation.resume(returning: $0) } }
        }
    }

    func memory(_ work: DeliveryWork, _ token: String) -> DeliveredTargets.Memory {
        delivered.memory(eventID: "s1", attempt: 1, target: Target(provider: .fcm, address: .token(token)))
    }

    @Test func aConfirmedEventIsRecordedCountedAndAcked() async {
        let publisher = ScriptedPublisher()
        let (delivery, work) = work()
        #expect(await verdict(of: work, delivery, through: settlement(publisher)) == .ack)
        // One batch: the two outcomes, then the retry.
        #expect(publisher.published.map { $0.map(\.exchange) } == [["unit.results", "unit.results", "unit.retry"]])
        #expect(memory(work, "a") == .confirmed)
        #expect(memory(work, "b") == .confirmed)
        #expect(metrics.notifications.labels("fcm", "chat", "delivered").current == 1)
        #expect(metrics.notifications.labels("fcm", "chat", "retrying").current == 1)
        #expect(metrics.outcomesPublished.labels("delivered").current == 1)
        #expect(metrics.retries.labels("fcm", "chat").current == 1)
    }

    @Test func anUnconfirmedEventIsRequeuedUncountedAndItsResultsKeptForTheRedelivery() async {
        let publisher = ScriptedPublisher { _, _ in Self.lost }
        let (delivery, work) = work()
        #expect(await verdict(of: work, delivery, through: settlement(publisher)) == .requeue(reason: "\(Self.lost)"))
        #expect(memory(work, "a") == .unconfirmed(work.results[0]))
        #expect(memory(work, "b") == .unconfirmed(work.results[1]))
        #expect(metrics.notifications.labels("fcm", "chat", "delivered").current == 0)
        #expect(metrics.outcomesPublished.labels("delivered").current == 0)
        #expect(metrics.retries.labels("fcm", "chat").current == 0)
    }

    @Test func anEventAMQPCannotCarryIsDeadLetteredThenAcked() async {
        let invalid = AMQPError(
            .invalidMessage, operation: "basic.publish", detail: "message-id too long",
            isRetryable: false)
        let publisher = ScriptedPublisher { index, _ in index == 0 ? invalid : nil }
        let (delivery, work) = work()
        #expect(await verdict(of: work, delivery, through: settlement(publisher)) == .ack)
        let deadLetters = publisher.published.dropFirst()
        #expect(deadLetters.map { $0.map(\.exchange) } == [["unit.dead"]])
        #expect(metrics.deadLettered.labels("unpublishable").current == 1)
        #expect(metrics.notifications.labels("fcm", "chat", "delivered").current == 0)
    }

    @Test func aPageWhoseLastBatchIsNotConfirmedKeepsEveryResultAndCountsNothing() async throws {
        let delivery = DeliveryFixture.delivery(#"{"id": "s1", "app": "chat", "targets": [{"channel": "room"}]}"#)
        let plan = DeliveryFixture.plan(delivery)
        var page = try DeliveryFixture.page(of: plan, delivery: delivery, devices: 1001)
        DeliveryFixture.deliverAll(&page)
        // The first batch of a thousand is confirmed, the last one is not.
        let publisher = ScriptedPublisher { index, _ in index == 0 ? nil : Self.lost }

        let failure = await settlement(publisher).settle(page: page, of: delivery)

        #expect(failure == Self.lost)
        #expect(publisher.published.map(\.count) == [1000, 1])
        for result in page.results {
            #expect(delivered.memory(eventID: "s1", attempt: 1, target: result.target) == .unconfirmed(result))
        }
        #expect(metrics.notifications.labels("fcm", "chat", "delivered").current == 0)
    }

    @Test func aConfirmedPageIsRecordedAndCounted() async throws {
        let delivery = DeliveryFixture.delivery(#"{"id": "s1", "app": "chat", "targets": [{"channel": "room"}]}"#)
        let plan = DeliveryFixture.plan(delivery)
        var page = try DeliveryFixture.page(of: plan, delivery: delivery, devices: 3)
        DeliveryFixture.deliverAll(&page)
        let publisher = ScriptedPublisher()

        #expect(await settlement(publisher).settle(page: page, of: delivery) == nil)

        #expect(publisher.published.map(\.count) == [3])
        for result in page.results {
            #expect(delivered.memory(eventID: "s1", attempt: 1, target: result.target) == .confirmed)
        }
        #expect(metrics.notifications.labels("fcm", "chat", "delivered").current == 3)
    }
}
