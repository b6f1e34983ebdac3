import HeraldAMQP
import HeraldCore
import HeraldPipeline
@testable import HeraldService
import Testing

/// One piece of work in, exactly the messages it publishes out: no broker.
@Suite struct MessageBuilderTests {
    let builder = MessageBuilder(
        topology: DeliveryFixture.topology, publishStatuses: Set(Outcome.Status.allCases),
        providers: .registered)

    static let event = #"""
        {"id": "e1", "app": "chat", "targets": [{"provider": "fcm", "token": "a"}, {"provider": "fcm", "token": "b"},
         {"provider": "fcm", "token": "c"}, {"provider": "apns", "token": "0123456789abcdef"}]}
        """#

    @Test func anEventGivesItsOutcomesARetryPerTierAndTheDeadLettersOfItsRefusedAndExhaustedTargets() throws {
        let delivery = DeliveryFixture.delivery(Self.event)
        let plan = DeliveryFixture.plan(delivery)
        // chat has no APNs credentials: that target is refused at planning, so the event has a dead letter for it.
        let refused = try #require(plan.deadLetterReason)
        #expect(plan.deadLetterTargets.map(\.address.value) == ["0123456789abcdef"])
        #expect(plan.sends.map(\.target.address.value) == ["a", "b", "c"])
        var work = DeliveryFixture.work(plan)
        DeliveryFixture.record(.result(DeliveryResult(.delivered)), for: plan.sends[0], into: &work)
        DeliveryFixture.record(
            .failure(DeliveryFailure(reason: "TooManyRequests", providerStatus: 429)),
            for: plan.sends[1], into: &work)
        DeliveryFixture.record(
            .failure(DeliveryFailure(reason: "Unavailable", providerStatus: 503)),
            for: plan.sends[2], into: &work, policy: RetryPolicy(maxAttempts: 1, delays: [.seconds(5)]))

        let messages = builder.messages(for: work, delivery: delivery, at: DeliveryFixture.now)

        #expect(messages.traces.isEmpty)
        let batches = Array(messages.outcomes)
        #expect(batches.count == 1)
        let outcomes = try #require(batches.first)
        #expect(outcomes == Array(work.outcomes).map(builder.message(for:)))
        #expect(outcomes.map(\.exchange) == Array(repeating: "unit.results", count: 4))
        #expect(outcomes.allSatisfy { $0.properties.messageID == "e1" && $0.properties.persistent })
        #expect(Array(work.outcomes).map(\.status) == [.rejected, .delivered, .retrying, .failed])

        #expect(messages.tail.count == 3)
        let retry = messages.tail[0]
        #expect(retry.exchange == "unit.retry")
        #expect(retry.routingKey == "chat.message")
        // A jitter slot of the first delay, 5s: from 2.5s to 5s.
        let slots = RetryPolicy.slots(of: .seconds(5)).map { AMQPFieldValue.string(RetryTier(delay: $0).name) }
        #expect(slots.contains(retry.properties.headers[RetryRouting.tierHeader] ?? .string("none")))
        #expect(retry.properties.headers[HeraldHeader.attempt] == .int(2))
        let receivedAt = Int64(plan.receivedAt.millisecondsSinceEpoch)
        #expect(retry.properties.headers[HeraldHeader.receivedAt] == .int(receivedAt))
        #expect(retry.properties.messageID == "e1")
        #expect(retry.body == body(for: ["b"], original: delivery))

        let deadLetter = messages.tail[1]
        #expect(deadLetter.exchange == "unit.dead")
        #expect(deadLetter.properties.headers[HeraldHeader.error] == .string(refused))
        #expect(
            deadLetter.properties.headers[HeraldHeader.deadLetteredAt]
                == .int(DeliveryFixture.now.millisecondsSinceEpoch))
        #expect(
            deadLetter.body
                == RetryBody.make(
                    original: delivery.body, eventID: "e1",
                    targets: plan.deadLetterTargets, providers: .registered))

        let exhausted = messages.tail[2]
        #expect(exhausted.exchange == "unit.dead")
        #expect(
            exhausted.properties.headers[HeraldHeader.error]
                == .string("retries exhausted after 1 attempts: fcm token: Unavailable (HTTP 503)"))
        #expect(exhausted.body == body(for: ["c"], original: delivery))
    }

    @Test func anEventWithoutRetriesOrDeadLettersGivesItsOutcomesAlone() throws {
        let delivery = DeliveryFixture.delivery(
            #"{"id": "e2", "app": "chat", "targets": [{"provider": "fcm", "token": "a"}]}"#)
        let plan = DeliveryFixture.plan(delivery)
        var work = DeliveryFixture.work(plan)
        DeliveryFixture.record(.result(DeliveryResult(.delivered)), for: plan.sends[0], into: &work)
        let messages = builder.messages(for: work, delivery: delivery, at: DeliveryFixture.now)
        #expect(messages.traces.isEmpty)
        #expect(Array(messages.outcomes) == [[builder.message(for: try #require(Array(work.outcomes).first))]])
        #expect(messages.tail.isEmpty)
    }

    @Test func aChannelPageGivesItsDevicesOutcomesInBatchesOfAThousand() throws {
        let delivery = DeliveryFixture.delivery(#"{"id": "e3", "app": "chat", "targets": [{"channel": "room"}]}"#)
        let plan = DeliveryFixture.plan(delivery)
        #expect(plan.expansions.count == 1)
        var page = try DeliveryFixture.page(of: plan, delivery: delivery, devices: 1001)
        DeliveryFixture.deliverAll(&page)

        let messages = builder.messages(for: page, delivery: delivery, at: DeliveryFixture.now)

        let batches = Array(messages.outcomes)
        #expect(batches.map(\.count) == [1000, 1])
        #expect(batches.joined().map(\.body) == Array(page.outcomes).map(\.encoded))
        #expect(Array(page.outcomes).allSatisfy { $0.channel == "room" && $0.status == .delivered })
        #expect(messages.tail.isEmpty)
        #expect(messages.traces.isEmpty)
    }

    @Test func onlyTheStatusesToPublishBecomeMessages() throws {
        let failedOnly = MessageBuilder(
            topology: DeliveryFixture.topology, publishStatuses: [.failed],
            providers: .registered)
        let delivery = DeliveryFixture.delivery(Self.event)
        let plan = DeliveryFixture.plan(delivery)
        var work = DeliveryFixture.work(plan)
        DeliveryFixture.deliverAll(&work)
        let messages = failedOnly.messages(for: work, delivery: delivery, at: DeliveryFixture.now)
        #expect(Array(messages.outcomes).isEmpty)
        // The refused target's dead letter goes whatever is published of the outcomes.
        #expect(messages.tail.map(\.exchange) == ["unit.dead"])
    }

    @Test func anUnpublishableEventIsDeadLetteredWithItsHeadersThenWithout() {
        var properties = AMQPProperties()
        properties.headers = ["custom": .string("kept"), HeraldHeader.replays: .int(2)]
        let delivery = AMQPDelivery(
            body: Array("{}".utf8), exchange: "unit.events", routingKey: "chat.message",
            redelivered: false, tag: DeliveryTag(value: 1, connection: 0), consumerTag: "test",
            properties: properties)
        let candidates = builder.unpublishableDeadLetters(for: delivery, reason: "too long", at: DeliveryFixture.now)
        #expect(candidates.count == 2)
        #expect(candidates[0].properties.headers["custom"] == .string("kept"))
        #expect(candidates[0].properties.headers[HeraldHeader.error] == .string("too long"))
        #expect(candidates[1].properties.headers["custom"] == nil)
        #expect(candidates[1].properties.headers[HeraldHeader.replays] == .int(2))
        #expect(
            candidates[1].properties.headers[HeraldHeader.error]
                == .string("too long; the event's own headers were dropped to make room"))
        #expect(candidates.allSatisfy { $0.exchange == "unit.dead" && $0.body == delivery.body })
    }

    private func body(for tokens: [String], original delivery: AMQPDelivery) -> [UInt8]? {
        RetryBody.make(
            original: delivery.body, eventID: "e1",
            targets: tokens.map { Target(provider: .fcm, address: .token($0)) }, providers: .registered)
    }
}
