extension AMQPConnection {
    /// Declares `topology` now (it is also declared on every reconnect when passed to `init`).
    public func declare(_ topology: TopologyOptions) async throws {
        _ = try await admin("declare topology") { connection, channel throws(AMQPError) in
            try TopologyDeclarer.declare(topology, on: connection, channel: channel)
            return .none
        }
    }

    public func declareExchange(_ name: String, type: String, durable: Bool = true) async throws {
        _ = try await admin("exchange.declare") { connection, channel throws(AMQPError) in
            try connection.declareExchange(channel, name: name, type: type, durable: durable)
            return .none
        }
    }

    /// Declares `name`, durable unless `lifetime` says exclusive (there is no
    /// transient non-exclusive queue: `QueueLifetime`).
    public func declareQueue(_ name: String, lifetime: QueueLifetime = .durable, arguments: AMQPTable = [:])
        async throws
    {
        _ = try await admin("queue.declare") { connection, channel throws(AMQPError) in
            try connection.declareQueue(channel, name: name, lifetime: lifetime, arguments: arguments)
            return .none
        }
    }

    /// Declares a queue the broker names, exclusive to this connection and
    /// auto-deleted, and returns its name: a private subscription to an
    /// exchange (`herald tail`). It dies with the connection, so a consumer of
    /// it ends with 404 after a reconnect instead of resuming.
    public func declareServerNamedQueue(arguments: AMQPTable = [:]) async throws -> String {
        let result = try await admin("queue.declare (server-named)") { connection, channel throws(AMQPError) in
            .name(try connection.declareServerNamedQueue(channel, arguments: arguments))
        }
        guard case .name(let name) = result else {
            throw AMQPError(
                .library, operation: "queue.declare (server-named)", detail: "no queue name came back",
                isRetryable: false)
        }
        return name
    }

    public func bindQueue(_ queue: String, exchange: String, routingKey: String, arguments: AMQPTable = [:])
        async throws
    {
        _ = try await admin("queue.bind") { connection, channel throws(AMQPError) in
            try connection.bindQueue(
                channel, queue: queue, exchange: exchange, routingKey: routingKey, arguments: arguments)
            return .none
        }
    }

    public func deleteQueue(_ name: String) async throws {
        _ = try await admin("queue.delete") { connection, channel throws(AMQPError) in
            try connection.deleteQueue(channel, name: name)
            return .none
        }
    }

    public func deleteExchange(_ name: String) async throws {
        _ = try await admin("exchange.delete") { connection, channel throws(AMQPError) in
            try connection.deleteExchange(channel, name: name)
            return .none
        }
    }

    /// Deletes every ready message of `name` (unacked ones stay); returns how many it deleted.
    @discardableResult
    public func purgeQueue(_ name: String) async throws -> Int {
        let result = try await admin("queue.purge") { connection, channel throws(AMQPError) in
            .count(try connection.purgeQueue(channel, name: name))
        }
        guard case .count(let count) = result else { return 0 }
        return Int(count)
    }

    /// Messages ready in `queue` (not counting unacked ones); throws 404 when it does not exist.
    public func messageCount(queue: String) async throws -> Int {
        let result = try await admin("queue.declare passive") { connection, channel throws(AMQPError) in
            .count(try connection.declareQueue(channel, name: queue, lifetime: .durable, passive: true))
        }
        guard case .count(let count) = result else { return 0 }
        return Int(count)
    }

    private func admin(
        _ name: String,
        _ body: @escaping @Sendable (RabbitConnection, UInt16) throws(AMQPError) -> AdminResult
    ) async throws -> AdminResult {
        try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<AdminResult, any Error>) in
            submit(.admin(name, body, waiter))
        }
    }
}

/// How long a queue declared through HeraldAMQP lives. There is no third
/// choice on purpose: a queue that is neither durable nor exclusive (a
/// "transient non-exclusive" queue) is refused by RabbitMQ 4.3 by default
/// (deprecated feature `transient_nonexcl_queues`), so no declaration made
/// here can ask for one.
public enum QueueLifetime: Sendable, Equatable {
    /// Survives broker restarts; gone only when deleted. Every queue of
    /// Herald's topology is durable.
    case durable
    /// Belongs to the declaring connection and is deleted with it, including
    /// when that connection is lost and replaced by a new one: a consumer of
    /// it then ends with 404 on the reconnect.
    case exclusive
}
