/// `herald publish --routing-key K event.json`: publishes every event of
/// `input` (one JSON object, or JSON lines; `-` is stdin) to the events
/// exchange, mandatory and persistent, and returns how many the broker confirmed.
///
/// The whole input is validated before anything is published. Publishes run
/// concurrently (bounded by the confirm window); one failing retryably is
/// published again, up to `maxAttempts` times. An unroutable event (no queue
/// bound for the key) fails the call: better than losing it silently.
public func publishEvents(
    from input: EventSource, routingKey: String, connection: AMQPConnection, exchange: String? = nil,
    maxAttempts: Int = 5
) async throws -> Int {
    let events = try EventFile.parse(try input.read(), source: input.name)
    let target = exchange ?? connection.topology?.eventsExchange ?? TopologyOptions().eventsExchange
    let window = max(1, connection.configuration.confirmWindow)
    try await withThrowingTaskGroup(of: Void.self) { group in
        var inFlight = 0
        for event in events {
            if inFlight >= window {
                try await group.next()
                inFlight -= 1
            }
            group.addTask {
                try await publishWithRetry(event, exchange: target, routingKey: routingKey, connection: connection,
                                           maxAttempts: maxAttempts)
            }
            inFlight += 1
        }
        try await group.waitForAll()
    }
    return events.count
}

private func publishWithRetry(_ event: EventFile.Event, exchange: String, routingKey: String, connection: AMQPConnection,
                              maxAttempts: Int) async throws {
    var attempt = 1
    while true {
        do {
            try await connection.publish(exchange: exchange, routingKey: routingKey, body: event.body, persistent: true,
                                         mandatory: true, contentType: "application/json", messageID: event.id)
            return
        } catch let error as AMQPError where error.isRetryable && attempt < maxAttempts {
            attempt += 1
            try await Task.sleep(for: .milliseconds(100 * attempt))
        }
    }
}
