/// Events read from `herald publish`'s input and checked, ready to publish:
/// reading and checking happen before any connection, so a refused input
/// never waits for a broker.
public struct EventBatch: Sendable {
    public let source: String
    let events: [EventFile.Event]

    /// How many events the input holds.
    public var count: Int { events.count }

    /// Reads and splits `input` (one JSON object, or JSON lines; `-` is stdin).
    /// - Throws: `EventInputProblems` listing every line that is not a JSON object.
    public init(reading input: EventSource) throws(EventInputProblems) {
        let bytes: [UInt8]
        do throws(EventInputError) {
            bytes = try input.read()
        } catch {
            throw EventInputProblems(source: input.name, problems: [error])
        }
        source = input.name
        events = try EventFile.parse(bytes, source: input.name)
    }

    /// Runs `check` on every event (it returns the problems of one body) and
    /// refuses the whole batch, listing every problem with its line, if any has one.
    public func check(_ check: (_ body: [UInt8]) -> [String]) throws(EventInputProblems) {
        let problems = events.flatMap { event in
            check(event.body).map { EventInputError(source: source, line: event.line, reason: $0) }
        }
        guard problems.isEmpty else { throw EventInputProblems(source: source, problems: problems) }
    }
}

/// `herald publish --routing-key K event.json`: publishes every event of
/// `input` (one JSON object, or JSON lines; `-` is stdin) to the events
/// exchange, mandatory and persistent, and returns how many the broker confirmed.
///
/// The whole input is read before anything is published (see `EventBatch` to
/// check it first). Publishes run concurrently (bounded by the confirm window);
/// one failing retryably is published again, up to `maxAttempts` times. An
/// unroutable event (no queue bound for the key) fails the call: better than
/// losing it silently.
public func publishEvents(
    from input: EventSource, routingKey: String, connection: AMQPConnection, exchange: String? = nil,
    maxAttempts: Int = 5
) async throws -> Int {
    try await publishEvents(
        try EventBatch(reading: input), routingKey: routingKey, connection: connection, exchange: exchange,
        maxAttempts: maxAttempts)
}

/// Publishes an `EventBatch`; see `publishEvents(from:routingKey:connection:exchange:maxAttempts:)`.
public func publishEvents(
    _ batch: EventBatch, routingKey: String, connection: AMQPConnection, exchange: String? = nil, maxAttempts: Int = 5
) async throws -> Int {
    let target = exchange ?? connection.topology?.eventsExchange ?? TopologyOptions().eventsExchange
    let window = max(1, connection.configuration.confirmWindow)
    try await withThrowingTaskGroup(of: Void.self) { group in
        var inFlight = 0
        for event in batch.events {
            if inFlight >= window {
                try await group.next()
                inFlight -= 1
            }
            group.addTask {
                try await publishWithRetry(
                    event, exchange: target, routingKey: routingKey, connection: connection,
                    maxAttempts: maxAttempts)
            }
            inFlight += 1
        }
        try await group.waitForAll()
    }
    return batch.count
}

private func publishWithRetry(
    _ event: EventFile.Event, exchange: String, routingKey: String, connection: AMQPConnection,
    maxAttempts: Int
) async throws {
    var attempt = 1
    while true {
        do {
            // The connection's own user as user-id (the broker checks it): apps that list their publishers need it.
            var properties = AMQPProperties(contentType: "application/json", persistent: true, messageID: event.id)
            properties.userID = connection.topology?.userID
            try await connection.publish(
                AMQPMessage(exchange: exchange, routingKey: routingKey, body: event.body, properties: properties),
                mandatory: true)
            return
        } catch let error as AMQPError where error.isRetryable && attempt < maxAttempts {
            attempt += 1
            try await Task.sleep(for: .milliseconds(100 * attempt))
        }
    }
}
