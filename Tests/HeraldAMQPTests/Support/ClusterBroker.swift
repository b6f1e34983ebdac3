/// The local three-node RabbitMQ cluster of `scripts/rabbitmq cluster`
/// (herald-c1..3@localhost on 127.0.0.1:5701-5703), for failover tests.
enum ClusterBroker {
    static let nodes = 1...3

    static func port(_ node: Int) -> Int { 5700 + node }
    static func url(_ node: Int) -> String { "amqp://guest:guest@127.0.0.1:\(port(node))/%2f" }

    static func start() async throws { try await ScriptRunner.run(ScriptRunner.rabbitmqScript, ["cluster", "start"]) }
    static func stopAll() async throws { try await ScriptRunner.run(ScriptRunner.rabbitmqScript, ["cluster", "stop"]) }
    static func stop(_ node: Int) async throws { try await ScriptRunner.run(ScriptRunner.rabbitmqScript, ["cluster", "stop", "\(node)"]) }
    static func kill(_ node: Int) async throws { try await ScriptRunner.run(ScriptRunner.rabbitmqScript, ["cluster", "kill", "\(node)"]) }
    static func restart(_ node: Int) async throws {
        try await ScriptRunner.run(ScriptRunner.rabbitmqScript, ["cluster", "restart", "\(node)"])
    }
}
