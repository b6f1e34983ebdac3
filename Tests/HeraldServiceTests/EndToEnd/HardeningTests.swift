import HeraldAMQP
import HeraldConfig
import HeraldCore
import HeraldService
import Testing

/// One message, header or answer must not stop an instance, loop, or be
/// sent twice: each input here once did, end to end (real broker, simulator).
@Suite(.serialized) struct HardeningTests {
    static let token = String(repeating: "a1", count: 32)

    static func event(_ id: String) -> String {
        #"{"id": "\#(id)", "app": "chat", "notification": {"title": "Hi"}, "targets": [{"provider": "apns", "token": "\#(token)"}]}"#
    }

    /// An id over 255 bytes once made every outcome publish fail, and the
    /// instance reconnected and re-sent the notification forever.
    @Test func anOverlongIDIsRejectedOnceAndTheInstanceGoesOn() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        try await RunningService.serving(try ServiceConfig(simulator: simulator), watchingDeadLetters: true) {
            running, results, publisher in
            try await publisher.publish(Self.event(String(repeating: "x", count: 300)), messageID: "fallback-1")
            try await publisher.publish(Self.event("after"))
            #expect(await results.wait { $0.count >= 2 })
            #expect(await results.waitUntilSettled([running]))
            let outcomes = results.all
            #expect(outcomes.count == 2)
            let rejected = try #require(outcomes.first { $0.outcome.status == .rejected })
            #expect(rejected.outcome.eventID == "fallback-1")
            #expect(
                rejected.outcome.reason
                    == "id: is 300 bytes, over the limit of 255 (it is the AMQP message-id of every outcome)")
            #expect(outcomes.contains { $0.outcome.eventID == "after" && $0.outcome.status == .delivered })
            #expect(results.dead.count == 1)
        }
    }

    /// The most negative receipt time once trapped (and again on every
    /// restart); a forged attempt count is bounded by max_attempts.
    @Test func forgedRetryHeadersNeitherCrashNorExpire() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        try await RunningService.serving(try ServiceConfig(simulator: simulator), watchingDeadLetters: true) {
            running, results, publisher in
            let body =
                #"{"id": "forged", "app": "chat", "ttl": 60, "notification": {"title": "Hi"}, "targets": [{"provider": "apns", "token": "\#(Self.token)"}]}"#
            try await results.connection.publish(
                exchange: publisher.exchange, routingKey: "chat.message",
                headers: [HeraldHeader.receivedAt: .int(Int64.min), HeraldHeader.attempt: .int(Int64.max)],
                body: Array(body.utf8),
                mandatory: true)
            try await publisher.publish(Self.event("after"))
            #expect(await results.wait { $0.count >= 2 })
            let forged = try #require(results.all.first { $0.outcome.eventID == "forged" })
            #expect(forged.outcome.status == .delivered)
            #expect(forged.outcome.attempt == 3)
            #expect(results.all.contains { $0.outcome.eventID == "after" && $0.outcome.status == .delivered })
        }
    }

    /// An event whose own headers leave no room in a frame for the dead
    /// letter's reason: the dead letter goes without them (its replay count
    /// excepted), once, with the reason, and the event is not redelivered.
    @Test func anEventWhoseDeadLetterCannotCarryItsHeadersStillLeavesOnce() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        try await RunningService.serving(try ServiceConfig(simulator: simulator), watchingDeadLetters: true) {
            running, results, publisher in
            let body =
                #"{"id": "crowded", "app": "nope", "targets": [{"provider": "apns", "token": "\#(Self.token)"}]}"#
            try await results.connection.publish(
                exchange: publisher.exchange, routingKey: "chat.message",
                headers: ["x-big": .string(String(repeating: "h", count: 130_960)), HeraldHeader.replays: .int(2)],
                body: Array(body.utf8),
                mandatory: true)
            try await publisher.publish(Self.event("after"))
            #expect(await results.wait { $0.count >= 2 })
            #expect(await results.wait { _ in !results.dead.isEmpty })
            #expect(await results.waitUntilSettled([running]))
            #expect(results.all.filter { $0.outcome.eventID == "crowded" }.map(\.outcome.status) == [.rejected])
            #expect(results.dead.count == 1)
            let dead = try #require(results.dead.first)
            #expect(dead.headers["x-big"] == nil)
            #expect(
                dead.headers[HeraldHeader.replays] == .int(2),
                "the replay count stays: it bounds how often the dead letter goes round")
            let error = dead.headers[HeraldHeader.error]?.stringValue ?? ""
            #expect(
                error.hasPrefix(
                    "an outcome or retry of this event could not be published: properties (headers included) are "))
            #expect(error.hasSuffix("; the event's own headers were dropped to make room"))
            #expect(try JSONValue.parse(dead.body)["id"]?.stringValue == "crowded")
        }
    }

    /// `amqp.delivery_limit` (default 20) is declared on the events queue.
    @Test func theEventsQueueIsDeclaredWithTheDeliveryLimit() async throws {
        let simulator = try await SimulatorHarness()
        defer { simulator.stop() }
        let byDefault = try ServiceConfig(simulator: simulator, queueType: "quorum").load()
        #expect(byDefault.topology.eventsQueueArguments["x-delivery-limit"] == .int(20))
        #expect(
            byDefault.topology.eventsQueueArguments["x-dead-letter-exchange"]
                == .string("\(byDefault.configuration.amqp.deadLetterExchange)"))
        let three = try ServiceConfig(simulator: simulator, queueType: "quorum", amqpExtra: "delivery_limit: 3").load()
        #expect(three.topology.eventsQueueArguments["x-delivery-limit"] == .int(3))
    }
}
