import Glibc
import HeraldAMQP
import HeraldCore
import HeraldSystem
import HeraldTestSupport
import Synchronization
import Testing

@Suite("Confirmed publishing (shared broker)")
struct ConfirmedPublishTests {
    @Test func publishToAFullRejectPublishQueueFailsWithABrokerNack() async throws {
        let queue = TestBroker.uniqueName("full")
        try await TestBroker.withConnection { connection in
            try await connection.declareQueue(queue, arguments: ["x-max-length": 1, "x-overflow": "reject-publish"])
            try await connection.publish(exchange: "", routingKey: queue, body: "fits".bytes)
            let error = try await #require(throws: AMQPError.self) {
                try await connection.publish(exchange: "", routingKey: queue, body: "overflows".bytes)
            }
            #expect(error.code == .nacked)
            #expect(error.isRetryable)
            #expect(error.description.contains("nacked by broker"))
            #expect(try await connection.messageCount(queue: queue) == 1)
            try await connection.deleteQueue(queue)
        }
    }

    @Test func unroutableMandatoryPublishFailsAsUnroutableWithTheBrokersReply() async throws {
        let exchange = TestBroker.uniqueName("nowhere")
        try await TestBroker.withConnection { connection in
            try await connection.declareExchange(exchange, type: "topic", durable: false)
            let error = try await #require(throws: AMQPError.self) {
                try await connection.publish(
                    exchange: exchange, routingKey: "no.queue", body: "lost?".bytes, mandatory: true)
            }
            #expect(error.code == .unroutable)
            #expect(error.replyCode == 312)
            #expect(error.detail == "NO_ROUTE")
            #expect(!error.isRetryable)
            // Without mandatory the broker confirms (and drops) it: that is what mandatory is for.
            try await connection.publish(exchange: exchange, routingKey: "no.queue", body: "dropped".bytes)
            try await connection.deleteExchange(exchange)
        }
    }

    @Test func onlyTheReturnedMessageFailsAmongConcurrentMandatoryPublishes() async throws {
        let exchange = TestBroker.uniqueName("mixed")
        let queue = TestBroker.uniqueName("mixed")
        try await TestBroker.withConnection { connection in
            try await connection.declareExchange(exchange, type: "direct", durable: false)
            try await connection.declareQueue(queue)
            try await connection.bindQueue(queue, exchange: exchange, routingKey: "routed")
            let outcomes = try await withThrowingTaskGroup(of: (Int, AMQPError.Code?).self) { group in
                for index in 0..<40 {
                    group.addTask {
                        let key = index % 10 == 3 ? "unrouted" : "routed"
                        do {
                            try await connection.publish(
                                exchange: exchange, routingKey: key, body: "m\(index)".bytes,
                                mandatory: true)
                            return (index, nil)
                        } catch let error as AMQPError {
                            return (index, error.code)
                        }
                    }
                }
                var outcomes: [Int: AMQPError.Code?] = [:]
                for try await (index, code) in group { outcomes[index] = code }
                return outcomes
            }
            let failed = outcomes.filter { $0.value != nil }.keys.sorted()
            #expect(failed == [3, 13, 23, 33])
            #expect(failed.allSatisfy { outcomes[$0] == .some(.unroutable) })
            #expect(try await connection.messageCount(queue: queue) == 36)
            try await connection.deleteQueue(queue)
            try await connection.deleteExchange(exchange)
        }
    }

    /// A message AMQP cannot carry fails alone; the connection stays up. A
    /// 300-byte message-id once took the connection down, and the instance
    /// reconnected and redelivered forever.
    @Test func aMessageAMQPCannotCarryFailsAloneAndTheConnectionStays() async throws {
        let queue = TestBroker.uniqueName("invalid")
        try await TestBroker.withConnection { connection in
            try await connection.declareQueue(queue)
            let opened = connection.connectionsOpened
            func message(_ body: String, _ change: (inout AMQPProperties) -> Void = { _ in }) -> AMQPMessage {
                var properties = AMQPProperties()
                change(&properties)
                return AMQPMessage(exchange: "", routingKey: queue, body: body.bytes, properties: properties)
            }
            let invalid: [(AMQPMessage, String)] = [
                (
                    message("long id") { $0.messageID = String(repeating: "i", count: 300) },
                    "message-id is 300 bytes, over the AMQP short-string limit of 255"
                ),
                (
                    message("long key") { $0.headers[String(repeating: "k", count: 256)] = "v" },
                    "header name \(String(repeating: "k", count: 40))… is 256 bytes, over the AMQP short-string limit of 255"
                ),
                (
                    message("huge headers") { $0.headers["x-big"] = .string(String(repeating: "h", count: 200_000)) },
                    "properties (headers included) are 200018 bytes, over the 131052 bytes a content header frame holds "
                        + "(frame_max 131072)"
                ),
                (
                    AMQPMessage(exchange: "", routingKey: String(repeating: "r", count: 256), body: []),
                    "routing key is 256 bytes, over the AMQP short-string limit of 255"
                ),
            ]
            for (bad, detail) in invalid {
                let error = try await #require(throws: AMQPError.self) { try await connection.publish(bad) }
                #expect(error.code == .invalidMessage)
                #expect(error.detail == detail)
                #expect(!error.isRetryable)
            }
            // In a batch, the good messages around a bad one are published.
            let error = try await #require(throws: AMQPError.self) {
                try await connection.publish([message("before"), invalid[0].0, message("after")])
            }
            #expect(error.code == .invalidMessage)
            try await eventually("both good messages queued") {
                try await connection.messageCount(queue: queue) == 2
            }
            #expect(connection.connectionsOpened == opened)
            #expect(connection.isConnected)
            try await connection.deleteQueue(queue)
        }
    }

    @Test func aBatchReturnsOnceEveryMessageIsConfirmedAndKeepsTheirOrder() async throws {
        let queue = TestBroker.uniqueName("batch")
        try await TestBroker.withConnection { connection in
            try await connection.declareQueue(queue)
            let messages = (0..<5).map { AMQPMessage(exchange: "", routingKey: queue, body: "b\($0)".bytes) }
            try await connection.publish(messages)
            // Returned means confirmed: the broker holds all five already.
            #expect(try await connection.messageCount(queue: queue) == 5)
            let consumer = try await connection.consume(queue: queue, prefetch: 10)
            var bodies: [String] = []
            for _ in 0..<5 {
                let delivery = try await TestBroker.next(consumer)
                bodies.append(String(decoding: delivery.body, as: UTF8.self))
                try await connection.ack(delivery)
            }
            #expect(bodies == ["b0", "b1", "b2", "b3", "b4"])
            try await connection.publish([AMQPMessage]())  // an empty batch returns at once
            try await connection.deleteQueue(queue)
        }
    }

    @Test func aBatchWithACallbackIsReportedOnceOnTheConnectionThreadAfterEveryConfirm() async throws {
        let queue = TestBroker.uniqueName("callback")
        try await TestBroker.withConnection { connection in
            try await connection.declareQueue(queue, arguments: ["x-max-length": 3, "x-overflow": "reject-publish"])
            let calls = Locked<[(failure: AMQPError?, thread: String)]>([])
            let messages = (0..<3).map { AMQPMessage(exchange: "", routingKey: queue, body: "c\($0)".bytes) }
            let confirmed: AMQPError? = await withCheckedContinuation { continuation in
                connection.publish(messages) { failure in
                    calls.withLock { $0.append((failure, Self.threadName())) }
                    continuation.resume(returning: failure)
                }
            }
            #expect(confirmed == nil)
            #expect(try await connection.messageCount(queue: queue) == 3, "reported only once all three were confirmed")
            // The queue is full now: the broker nacks the next one, and the callback says so.
            let refused: AMQPError? = await withCheckedContinuation { continuation in
                connection.publish([AMQPMessage(exchange: "", routingKey: queue, body: "over".bytes)]) { failure in
                    calls.withLock { $0.append((failure, Self.threadName())) }
                    continuation.resume(returning: failure)
                }
            }
            #expect(refused?.code == .nacked)
            // Another batch after them: batches are settled in order on the connection thread,
            // so a second call for either would have come before this one's.
            await withCheckedContinuation { continuation in
                connection.publish([AMQPMessage(exchange: "", routingKey: queue, body: "after".bytes)]) { _ in
                    continuation.resume()
                }
            }
            let recorded = calls.withLock { $0 }
            #expect(recorded.count == 2, "one call per batch")
            #expect(
                recorded.allSatisfy { $0.thread == "herald-amqp" },
                "called on the connection thread: \(recorded.map(\.thread))")
            let emptyReported = Atomic<Bool>(false)
            connection.publish([]) { failure in emptyReported.store(failure == nil, ordering: .relaxed) }
            let reportedAtOnce = emptyReported.load(ordering: .relaxed)
            #expect(reportedAtOnce, "an empty batch is reported at once, on the caller's thread")
            try await connection.deleteQueue(queue)
        }
    }

    /// The calling thread's OS-level name (`/proc/thread-self/comm`).
    static func threadName() -> String {
        guard let file = fopen("/proc/thread-self/comm", "r") else { return "?" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        while case let c = getc(file), c != EOF, c != 0x0A { bytes.append(UInt8(c)) }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func aBatchWrittenAtOnceArrivesFrameForFrameWithPropertiesAndLargeBodies() async throws {
        let queue = TestBroker.uniqueName("frames")
        try await TestBroker.withConnection { connection in
            try await connection.declareQueue(queue)
            // Bodies from empty to several frames (frame_max is 128 KiB), headers of every kind.
            let sizes = [0, 1, 131_064, 131_065, 400_000]
            let messages = sizes.enumerated().map { index, size in
                AMQPMessage(
                    exchange: "", routingKey: queue,
                    body: (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) },
                    properties: AMQPProperties(
                        contentType: "application/octet-stream",
                        headers: [
                            "x-herald-attempt": .int(Int64(index + 1)), "tenant": "acme", "flag": .bool(true),
                            "nested": .table(["k": "v"]),
                        ],
                        persistent: index % 2 == 0, messageID: "m\(index)"))
            }
            try await connection.publish(messages)
            let consumer = try await connection.consume(queue: queue, prefetch: 10)
            for (index, sent) in messages.enumerated() {
                let delivery = try await TestBroker.next(consumer)
                #expect(delivery.messageID == "m\(index)")
                let sameBody = delivery.body == sent.body  // a Bool: a failing diff of 400 kB would flood the log
                #expect(sameBody, "body \(index): sent \(sent.body.count) bytes, received \(delivery.body.count)")
                #expect(delivery.contentType == "application/octet-stream")
                #expect(delivery.properties.persistent == (index % 2 == 0))
                #expect(delivery.attempt == index + 1)
                #expect(delivery.headers["tenant"] == .string("acme"))
                #expect(delivery.headers["flag"] == .bool(true))
                #expect(delivery.headers["nested"] == .table(["k": "v"]))
                try await connection.ack(delivery)
            }
            // The connection is still in step with the broker: a single publish after the batch works.
            try await connection.publish(exchange: "", routingKey: queue, body: "after".bytes)
            #expect(try await TestBroker.next(consumer).body == "after".bytes)
            try await connection.deleteQueue(queue)
        }
    }

    @Test func aBatchWithOneUnroutableMandatoryMessageFailsAndTheOthersArrive() async throws {
        let exchange = TestBroker.uniqueName("batchmixed")
        let queue = TestBroker.uniqueName("batchmixed")
        try await TestBroker.withConnection { connection in
            try await connection.declareExchange(exchange, type: "direct", durable: false)
            try await connection.declareQueue(queue)
            try await connection.bindQueue(queue, exchange: exchange, routingKey: "routed")
            let messages = ["routed", "unrouted", "routed"].map {
                AMQPMessage(exchange: exchange, routingKey: $0, body: $0.bytes)
            }
            let error = try await #require(throws: AMQPError.self) {
                try await connection.publish(messages, mandatory: true)
            }
            #expect(error.code == .unroutable)
            #expect(error.detail == "NO_ROUTE")
            #expect(try await connection.messageCount(queue: queue) == 2)
            try await connection.deleteQueue(queue)
            try await connection.deleteExchange(exchange)
        }
    }

    @Test func publishToAMissingExchangeFailsWith404AndTheNextPublishWorks() async throws {
        let queue = TestBroker.uniqueName("after404")
        try await TestBroker.withConnection { connection in
            try await connection.declareQueue(queue)
            let error = try await #require(throws: AMQPError.self) {
                try await connection.publish(
                    exchange: TestBroker.uniqueName("missing"), routingKey: "k", body: "x".bytes)
            }
            #expect(error.code == .channelClosed)
            #expect(error.replyCode == 404)
            #expect(error.detail.contains("NOT_FOUND"))
            #expect(!error.isRetryable)
            try await connection.publish(exchange: "", routingKey: queue, body: "works".bytes, mandatory: true)
            #expect(try await connection.messageCount(queue: queue) == 1)
            #expect(connection.connectionsOpened == 1)
            try await connection.deleteQueue(queue)
        }
    }

    @Test func aMissingExchangeFailsOnlyItsOwnPublishPermanentlyAmongConcurrentOnes() async throws {
        let queue = TestBroker.uniqueName("bystander")
        let missing = TestBroker.uniqueName("missing")
        try await TestBroker.withConnection { connection in
            try await connection.declareQueue(queue)
            let outcomes = try await withThrowingTaskGroup(of: (String, AMQPError?).self) { group in
                for index in 0..<50 {
                    group.addTask {
                        let exchange = index == 25 ? missing : ""
                        do {
                            try await connection.publish(exchange: exchange, routingKey: queue, body: "\(index)".bytes)
                            return (exchange, nil)
                        } catch let error as AMQPError {
                            return (exchange, error)
                        }
                    }
                }
                var outcomes: [(String, AMQPError?)] = []
                for try await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
            let culprit = try #require(outcomes.first { $0.0 == missing }?.1)
            #expect(culprit.replyCode == 404)
            #expect(!culprit.isRetryable)
            let bystanders = outcomes.filter { $0.0 == "" }.compactMap(\.1)
            #expect(bystanders.allSatisfy { $0.isRetryable }, "\(bystanders)")
            try await connection.deleteQueue(queue)
        }
    }

    @Test func aThousandConcurrentPublishesAreAllConfirmed() async throws {
        let queue = TestBroker.uniqueName("window")
        var configuration = try TestBroker.configuration()
        configuration.confirmWindow = 200
        try await TestBroker.withConnection(configuration) { connection in
            try await connection.declareQueue(queue)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<1000 {
                    group.addTask {
                        try await connection.publish(
                            exchange: "", routingKey: queue, body: "\(index)".bytes, mandatory: true)
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await connection.messageCount(queue: queue) == 1000)
            try await connection.deleteQueue(queue)
        }
    }

    @Test func idleConnectionSurvivesTwoSecondHeartbeats() async throws {
        let queue = TestBroker.uniqueName("idle")
        try await TestBroker.withConnection(try TestBroker.configuration(heartbeat: .seconds(2))) { connection in
            try await connection.declareQueue(queue)
            // The broker closes a connection that misses two heartbeats (4 s here).
            try await Task.sleep(for: .milliseconds(6000))
            try await connection.publish(exchange: "", routingKey: queue, body: "alive".bytes, mandatory: true)
            #expect(connection.connectionsOpened == 1)
            #expect(connection.isConnected)
            try await connection.deleteQueue(queue)
        }
    }
}
