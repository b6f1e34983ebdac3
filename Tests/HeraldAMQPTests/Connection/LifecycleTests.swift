import HeraldAMQP
import HeraldCore
import HeraldSystem
import HeraldTestSupport
import Testing

@Suite("Connection lifecycle (shared broker)")
struct LifecycleTests {
    @Test func cancellingRunEndsConsumerStreamsAndLaterCallsFailAsShutDown() async throws {
        let queue = TestBroker.uniqueName("lifecycle")
        let connection = try AMQPConnection(
            configuration: try TestBroker.configuration(),
            logger: Logger(label: "test", sink: MemoryLogSink()))
        let runner = Task { try await connection.run() }
        try await connection.declareQueue(queue)
        let consumer = try await connection.consume(queue: queue, prefetch: 1)
        try await connection.publish(exchange: "", routingKey: queue, body: "last".bytes)
        let acked = Locked(0)
        let drained = Task {
            var count = 0
            for try await delivery in consumer.deliveries {
                count += 1
                try await connection.ack(delivery)
                acked.withLock { $0 += 1 }
            }
            return count
        }
        // Not the queue's message count: that drops to 0 at delivery, before the ack.
        try await eventually("the message was consumed and acked") { acked.withLock { $0 } == 1 }
        runner.cancel()
        try await runner.value
        #expect(try await drained.value == 1, "the stream ended normally after its one delivery")
        #expect(!connection.isConnected)
        let error = try await #require(throws: AMQPError.self) {
            try await connection.publish(exchange: "", routingKey: queue, body: "too late".bytes)
        }
        #expect(error.code == .shutdown)
        #expect(error.detail == "the AMQP connection has stopped")
        let again = try await #require(throws: AMQPError.self) { try await connection.run() }
        #expect(again.detail == "run() was already called")
        try await TestBroker.withConnection { other in try await other.deleteQueue(queue) }
    }

    @Test func deletingTheQueueEndsItsConsumerStreamWithConsumerCancelled() async throws {
        let queue = TestBroker.uniqueName("deleted")
        try await TestBroker.withConnection { connection in
            try await connection.declareQueue(queue)
            let consumer = try await connection.consume(queue: queue, prefetch: 1)
            try await connection.deleteQueue(queue)
            let error = try await #require(throws: AMQPError.self) {
                for try await _ in consumer.deliveries {}
            }
            #expect(error.code == .consumerCancelled)
            #expect(error.operation == "basic.consume \(queue)")
            #expect(connection.connectionsOpened == 1)
        }
    }

    @Test func commandsIssuedBeforeRunWaitForTheConnection() async throws {
        let queue = TestBroker.uniqueName("early")
        let connection = try AMQPConnection(
            configuration: try TestBroker.configuration(),
            logger: Logger(label: "test", sink: MemoryLogSink()))
        async let declared: Void = connection.declareQueue(queue)
        // Lets the declare be issued before `run()` starts: that order is the input under
        // test; should load reverse it, the test only checks less.
        try await Task.sleep(for: .milliseconds(50))
        let runner = Task { try await connection.run() }
        try await declared
        try await connection.publish(exchange: "", routingKey: queue, body: "queued".bytes, mandatory: true)
        #expect(try await connection.messageCount(queue: queue) == 1)
        try await connection.deleteQueue(queue)
        connection.shutdown()
        try await runner.value
    }
}
