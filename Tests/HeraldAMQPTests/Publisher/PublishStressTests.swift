import HeraldAMQP
import HeraldCore
import HeraldTestSupport
import Testing

/// The batched publish path (`publishBatch`: one connection thread encoding the
/// frames of everyone's publishes into one write) under stress: many tasks
/// publishing batches at once, with confirms, while the connection is cut under
/// them and comes back. Bounded: a connection thread that stops making progress
/// (a hang, a spin) fails the test instead of stalling the run.
@Suite("Publishing under stress (shared broker, through a relay)")
struct PublishStressTests {
    static let tasks = 16
    static let batchesPerTask = 24
    static let cuts = 4
    /// Larger than the broker's frame_max (128 KiB): split into several body frames.
    static let largeBody = [UInt8](repeating: UInt8(ascii: "L"), count: 200 * 1024)

    @Test func concurrentBatchesAreAllConfirmedWhileTheConnectionIsCutUnderThem() async throws {
        let relay = try #require(CuttableRelay(target: AMQPURL(TestBroker.url)), "no loopback port for the relay")
        defer { relay.stop() }
        var configuration = try TestBroker.configuration()
        configuration.addresses = [AMQPAddress(relay.url)]
        // A small window: the outbox holds publishes back, so batches of every size go out.
        configuration.confirmWindow = 48
        let queue = TestBroker.uniqueName("stress")
        let connection = try AMQPConnection(
            configuration: configuration,
            logger: Logger(label: "test.amqp", level: .error, sink: MemoryLogSink()))
        let runner = Task { try await connection.run() }
        let published = LockedSet()
        let retried = Counter()
        do {
            try await connection.waitUntilConnected()
            try await connection.declareQueue(queue, lifetime: .durable, arguments: ["x-queue-type": "classic"])
            let batchesDone = Counter()
            let cutsDone = Counter()
            _ = try await within(.seconds(180), "every batch confirmed across \(Self.cuts) cuts") {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for task in 0..<Self.tasks {
                        group.addTask {
                            // Each task keeps publishing until the cuts are done, so every cut lands under load.
                            var batch = 0
                            while batch < Self.batchesPerTask || cutsDone.value < Self.cuts {
                                // A cut that failed (or the bound) ends the group: the tasks stop with it.
                                try Task.checkCancellation()
                                let messages = Self.batch(task: task, number: batch, queue: queue)
                                try await Self.publishUntilConfirmed(
                                    messages, mandatory: task % 2 == 0,
                                    callback: task % 4 == 1, on: connection,
                                    retried: retried)
                                for message in messages { published.insert(message.properties.messageID ?? "") }
                                batchesDone.increment()
                                batch += 1
                            }
                        }
                    }
                    group.addTask {
                        let total = Self.tasks * Self.batchesPerTask
                        for cut in 1...Self.cuts {
                            try await eventually("\(cut)/\(Self.cuts + 1) of the batches confirmed") {
                                batchesDone.value >= cut * total / (Self.cuts + 1)
                            }
                            relay.cut()
                            try await eventually("connection \(cut + 1) opened") {
                                connection.connectionsOpened > UInt64(cut) && connection.isConnected
                            }
                            cutsDone.increment()
                        }
                    }
                    try await group.waitForAll()
                }
                return true
            }
            // At least one connection per cut; a loaded machine may lose one more (a missed heartbeat).
            #expect(connection.connectionsOpened >= UInt64(Self.cuts + 1))
            #expect(relay.accepted >= Self.cuts + 1)
            // Confirmed means queued: every message is there, some perhaps twice (published again after a cut).
            let queued = try await connection.messageCount(queue: queue)
            #expect(queued >= published.count, "\(queued) queued, \(published.count) distinct messages confirmed")
            print(
                "[stress] \(published.count) messages confirmed, \(queued) queued,"
                    + " \(retried.value) batches published again")
            try await connection.deleteQueue(queue)
        } catch {
            try? await connection.deleteQueue(queue)
            await Self.stop(connection, runner)
            throw error
        }
        await Self.stop(connection, runner)
    }

    /// Batches of 1 to 12 messages; every seventh carries a body larger than a frame.
    static func batch(task: Int, number: Int, queue: String) -> [AMQPMessage] {
        let size = 1 + (task * 7 + number * 5) % 12
        return (0..<size).map { index in
            let body = number % 7 == 3 && index == 0 ? largeBody : Array("t\(task)-b\(number)-m\(index)".utf8)
            let properties = AMQPProperties(
                contentType: "text/plain", headers: ["task": .int(Int64(task))],
                persistent: false, messageID: "t\(task)-b\(number)-m\(index)")
            return AMQPMessage(exchange: "", routingKey: queue, body: body, properties: properties)
        }
    }

    /// Publishes until the broker confirmed the whole batch, again after each
    /// retryable failure (a cut: the outcome is unknown). Through the awaiting
    /// call or the callback one (`whenSettled`, run on the connection thread).
    static func publishUntilConfirmed(
        _ messages: [AMQPMessage], mandatory: Bool, callback: Bool,
        on connection: AMQPConnection, retried: Counter
    ) async throws {
        while true {
            try Task.checkCancellation()
            do {
                if callback {
                    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                        connection.publish(messages, mandatory: mandatory) { error in
                            if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                        }
                    }
                } else {
                    try await connection.publish(messages, mandatory: mandatory)
                }
                return
            } catch let error as AMQPError where error.isRetryable && error.code != .shutdown {
                retried.increment()
            }
        }
    }

    /// Shuts the connection down and waits for its thread, but not forever: a
    /// thread that never stops is reported and left behind rather than hanging the run.
    static func stop(_ connection: AMQPConnection, _ runner: Task<Void, any Error>) async {
        connection.shutdown()
        do {
            _ = try await within(.seconds(30), "the connection thread's end") {
                _ = try? await runner.value
                return true
            }
        } catch {
            Issue.record("the AMQP connection thread did not stop: \(error)")
        }
    }
}
