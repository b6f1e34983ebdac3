import Foundation
import HeraldAMQP
import Testing

@Suite("herald publish (shared broker for the publishing cases)")
struct PublishEventsTests {
    @Test func eachJSONLineBecomesOneConfirmedEventWithItsIDAsMessageID() async throws {
        let topology = TestBroker.topology(.classic)
        let lines = #"{"id":"e1","app":"chat"}"# + "\n\n" + #"{"id":"e2"}"# + "\n" + #"{"app":"no id"}"# + "\n"
        try await TestBroker.withConnection(topology: topology) { connection in
            let count = try await publishEvents(
                from: .bytes(lines.bytes, name: "events.jsonl"), routingKey: "chat.new",
                connection: connection)
            #expect(count == 3)
            let consumer = try await connection.consume(queue: topology.eventsQueue, prefetch: 10)
            var ids: [String?] = []
            for _ in 0..<3 {
                let delivery = try await TestBroker.next(consumer)
                #expect(delivery.routingKey == "chat.new")
                #expect(delivery.contentType == "application/json")
                #expect(delivery.properties.persistent)
                ids.append(delivery.messageID)
                try await connection.ack(delivery)
            }
            // Events are published concurrently (up to the confirm window), so they may arrive in any order.
            #expect(ids.map { $0 ?? "(none)" }.sorted() == ["(none)", "e1", "e2"], "\(ids)")
            try await TestBroker.delete(topology, on: connection)
        }
    }

    @Test func aPrettyPrintedFileIsOneEvent() async throws {
        let topology = TestBroker.topology(.classic)
        let path = NSTemporaryDirectory() + TestBroker.uniqueName("event") + ".json"
        try "{\n  \"id\": \"pretty\",\n  \"app\": \"chat\"\n}\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await TestBroker.withConnection(topology: topology) { connection in
            #expect(
                try await publishEvents(from: EventSource(argument: path), routingKey: "chat.x", connection: connection)
                    == 1)
            #expect(try await connection.messageCount(queue: topology.eventsQueue) == 1)
            try await TestBroker.delete(topology, on: connection)
        }
    }

    @Test func anUnroutableKeyFailsInsteadOfLosingTheEvent() async throws {
        let topology = TestBroker.topology(.classic)
        try await TestBroker.withConnection(topology: topology) { connection in
            let error = try await #require(throws: AMQPError.self) {
                _ = try await publishEvents(
                    from: .bytes(#"{"id":"x"}"#.bytes, name: "e.json"), routingKey: "billing.nobody",
                    connection: connection)
            }
            #expect(error.code == .unroutable)
            try await TestBroker.delete(topology, on: connection)
        }
    }

    @Test func anInvalidLineIsReportedWithItsLineNumberBeforeAnythingIsPublished() async throws {
        let connection = try AMQPConnection(configuration: try TestBroker.configuration(), logger: .init(label: "t"))
        let input = EventSource.bytes((#"{"id":"ok"}"# + "\n" + "not json\n\n[1]\n").bytes, name: "events.jsonl")
        let error = try await #require(throws: EventInputProblems.self) {
            _ = try await publishEvents(from: input, routingKey: "k", connection: connection)
        }
        #expect(
            error.description == """
                events.jsonl:2: not a JSON object
                events.jsonl:4: not a JSON object
                events.jsonl: 2 problems; nothing was published
                """)
        #expect(EventSource(argument: "-").name == "<stdin>")
    }
}
