import Foundation
import HeraldAMQP
import HeraldBrokerTestSupport
import HeraldCLI
import HeraldCore
import HeraldTestSupport

/// A config of its own for a test of a command that talks to the shared
/// broker: every exchange and queue named with a prefix no other test uses,
/// a connection of the test's own to set up and inspect the broker, and the
/// broker's own rabbitmqctl.
struct BrokerCommandFixture {
    static var url: String { BrokerFixture.url }

    let prefix: String
    let queueType: QueueType
    let directory: String
    var configFile: String { directory + "/config.yaml" }

    /// `registry`: the config has a `registry:` section (a SQLite file in
    /// `directory`), so the commands know the registry exchange and queue
    /// `<prefix>.registry`; ``topology`` (what ``withConnection(_:)``
    /// declares) leaves them out all the same.
    init(_ purpose: String, queueType: QueueType = .classic, registry: Bool = false) throws {
        self.queueType = queueType
        prefix = BrokerFixture(purpose).prefix
        directory = NSTemporaryDirectory() + prefix
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Self.writeConfig(prefix: prefix, queueType: queueType, to: configFile)
        if registry {
            let file = try FileHandle(forWritingTo: URL(fileURLWithPath: configFile))
            try file.seekToEnd()
            try file.write(contentsOf: Data("\nregistry: {backend: sqlite, path: \(directory)/registry.db}\n".utf8))
            try file.close()
        }
    }

    /// A config whose exchanges and queues are all named with `prefix`, with
    /// one app whose credentials are never used (no provider is contacted).
    static func writeConfig(
        prefix: String, url: String = BrokerCommandFixture.url, queueType: QueueType = .classic, to file: String
    ) throws {
        try """
        \(BrokerFixture.amqpSection(prefix: prefix, address: ["url: \(url)"], queueType: queueType.rawValue))
        apps:
          chat:
            fcm:
              project_id: p
              service_account_json: '{"type": "service_account", "client_email": "a@b", "private_key": "-----BEGIN PRIVATE KEY-----\\nAA\\n-----END PRIVATE KEY-----\\n", "private_key_id": "k", "token_uri": "https://127.0.0.1/token"}'
        """.write(toFile: file, atomically: true, encoding: .utf8)
    }

    /// The names the config gives, as `herald run` declares them.
    var topology: TopologyOptions {
        TopologyOptions(prefix: prefix, queueType: queueType, retryTiers: [])
    }

    /// Runs `herald <arguments>` in this process, as the `herald` binary does.
    func herald(_ arguments: [String]) async -> (status: Int32, console: CapturedConsole) {
        let console = CapturedConsole()
        return (await herald(arguments, console: console), console)
    }

    /// Runs `herald <arguments>` writing to `console`, which the test can read while it runs.
    func herald(_ arguments: [String], console: CapturedConsole) async -> Int32 {
        await HeraldCommandLine().run(arguments, environment: [:], console: console)
    }

    /// Runs `body` on a connection of the test's own, with the topology declared.
    func withConnection<T: Sendable>(_ body: @Sendable (AMQPConnection) async throws -> T) async throws -> T {
        var configuration = try AMQPConfiguration(url: Self.url)
        configuration.connectionName = "test \(prefix)"
        let connection = try AMQPConnection(
            configuration: configuration, topology: topology,
            logger: Logger(label: "test", level: .error, sink: MemoryLogSink()))
        return try await BrokerFixture.using(connection, body)
    }

    /// Takes every message of `queue` out (acked), in order.
    static func drain(_ queue: String, on connection: AMQPConnection, expecting count: Int) async throws
        -> [AMQPDelivery]
    {
        guard count > 0 else { return [] }
        let consumer = try await connection.consume(queue: queue, prefetch: 500)
        let taken = try await within(.seconds(30), "\(count) messages from \(queue)") {
            () async throws -> [AMQPDelivery]? in
            var taken: [AMQPDelivery] = []
            for try await delivery in consumer.deliveries {
                try await connection.ack(delivery)
                taken.append(delivery)
                if taken.count >= count { break }
            }
            return taken
        }
        try await connection.cancel(consumer)
        return taken
    }

    /// Deletes what the test declared.
    func cleanUp() async {
        _ = try? await withConnection { connection in
            await BrokerFixture.delete(queues: topology.queues, exchanges: topology.exchanges, on: connection)
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs `scripts/rabbitmq ctl -q ...`, the test broker's rabbitmqctl.
    static func rabbitmqctl(_ arguments: [String]) async throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try await runTool(root.appendingPathComponent("scripts/rabbitmq").path, ["ctl", "-q"] + arguments).output
    }
}
